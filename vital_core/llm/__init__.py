"""The LLM backend's machinery: prompts, the careful chat client, reply parsing,
evidence retrieval within a token budget, sentence splitting and prices.
``vital_core.backends.openai_compat`` puts them together behind the Backend
interface."""
from .client import LLMCallError, LLMClient, LLMSettings
from .prompts import PROMPT_SET_VERSION

__all__ = ["LLMCallError", "LLMClient", "LLMSettings", "PROMPT_SET_VERSION"]
