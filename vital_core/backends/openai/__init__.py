"""The LLM backend's machinery: prompts, the careful chat client, reply parsing,
evidence retrieval within a token budget, sentence splitting and prices.
``vital_core.backends.openai.backend`` puts them together behind the Backend
interface."""
from vital_core.backends.openai.client import LLMClient
from vital_core.backends.openai.endpoint import LLMCallError, LLMSettings
from vital_core.backends.openai.prompts import PROMPT_SET_VERSION

__all__ = ["LLMCallError", "LLMClient", "LLMSettings", "PROMPT_SET_VERSION"]
