"""The mock provider's fault table (``tests/support/mock_provider.py``): the faults a test can queue, the
steps each applies to, and the refusals real servers answer with (rate limits, outages, a refused
``response_format`` or parameter, a context window overflowed), word for word where a server's wording
matters to the client's classification (``vital_core.backends.openai.server_errors``)."""
from __future__ import annotations

from dataclasses import dataclass

from vital_core.backends.openai import prompts

FAULTS = ("rate_limit", "server_error", "slow", "invalid_json", "truncated", "missing_ids",
          "duplicate_ids", "unknown_label", "bad_perturbation")
# A content fault applies only to the steps whose reply it can spoil (mock_answers.spoil).
CONTENT_FAULT_STEPS = {
    "missing_ids": {prompts.RANK, prompts.VERIFY, prompts.ASSIGN, prompts.NUGGETS_LABEL},
    "duplicate_ids": {prompts.RANK, prompts.VERIFY, prompts.ASSIGN, prompts.NUGGETS_LABEL},
    "unknown_label": {prompts.RANK, prompts.VERIFY, prompts.ASSIGN, prompts.NUGGETS_LABEL},
    "bad_perturbation": {prompts.PERTURB},
}
# llama-cpp-python's server (0.3.36) answering a json_schema response_format: FastAPI's validation error caught
# by its route handler and returned as an internal error, HTTP 500 (the body as that server sent it).
LLAMA_CPP_PYTHON_JSON_SCHEMA_500 = {"error": {
    "message": "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': "
               "\"Input should be 'text' or 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or "
               "'json_object'\"}}\n\n  File \"/venv/lib/python3.11/site-packages/llama_cpp/server/app.py\", line 376, "
               "in create_chat_completion\n    POST /v1/chat/completions",
    "type": "internal_server_error", "param": None, "code": None}}
# old vLLM: the same pydantic error as a 400
OLD_VLLM_JSON_SCHEMA_400 = {"object": "error", "message": (
    "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or "
    "'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}]"),
    "type": "BadRequestError", "param": None, "code": 400}

Reply = tuple[int, dict, "dict | None"]   # (HTTP status, JSON body, extra headers)


@dataclass
class Fault:
    kind: str
    remaining: int
    step: str | None
    retry_after: float
    delay: float

    def applies_to(self, step: str | None) -> bool:
        if self.step is not None and self.step != step:
            return False
        return self.kind not in CONTENT_FAULT_STEPS or step in CONTENT_FAULT_STEPS[self.kind]


def fault_reply(fault: Fault | None) -> Reply | None:
    """The error a queued transport fault answers with (rate limit, outage), or None."""
    if fault is None:
        return None
    if fault.kind == "rate_limit":
        return (429, {"error": {"message": "Rate limit reached (mock).", "type": "rate_limit_error"}},
                {"Retry-After": f"{fault.retry_after:g}"})
    if fault.kind == "server_error":
        return 500, {"error": {"message": "The server had an error (mock).", "type": "server_error"}}, None
    return None


def refusal(body: dict, *, reject_response_format: bool, json_schema_refusal: int | None,
            reject_params: tuple[str, ...]) -> Reply | None:
    """How a server that does not take a request's response_format or parameter refuses it, or None."""
    if reject_response_format and body.get("response_format"):
        return 400, {"error": {
            "message": "Invalid parameter: 'response_format' of type 'json_schema' is not supported "
                       "by this server.", "type": "invalid_request_error", "param": "response_format"}}, None
    if json_schema_refusal and (body.get("response_format") or {}).get("type") == "json_schema":
        said = LLAMA_CPP_PYTHON_JSON_SCHEMA_500 if json_schema_refusal >= 500 else OLD_VLLM_JSON_SCHEMA_400
        return json_schema_refusal, said, None
    if "max_tokens" in reject_params and "max_tokens" in body:
        return 400, {"error": {
            "message": "Unsupported parameter: 'max_tokens' is not supported with this model. "
                       "Use 'max_completion_tokens' instead.", "type": "invalid_request_error"}}, None
    if "temperature" in reject_params and "temperature" in body:
        return 400, {"error": {
            "message": "Unsupported value: 'temperature' does not support 0.0 with this model.",
            "type": "invalid_request_error"}}, None
    return None


def overflow(window: int, prompt_tokens: int, budget: int | None) -> str | None:
    """vLLM's refusal when the prompt, or the prompt plus the reply budget, exceeds the window."""
    if prompt_tokens >= window:
        return (f"This model's maximum context length is {window} tokens. However, your request has "
                f"{prompt_tokens} input tokens. Please reduce the length of the input messages.")
    if budget is not None and prompt_tokens + budget > window:
        return (f"'max_tokens' or 'max_completion_tokens' is too large: {budget}. This model's maximum "
                f"context length is {window} tokens and your request has {prompt_tokens} input tokens "
                f"({budget} > {window} - {prompt_tokens}).")
    return None
