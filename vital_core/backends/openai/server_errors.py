"""What a server's error reply says, read in one place.

OpenAI-compatible servers word the same refusal differently, and some words
overlap: vLLM's context error starts with "'max_tokens' or
'max_completion_tokens' is too large", which names ``max_completion_tokens``
without asking for it. So every error is classified here, most specific first,
and the client acts only on the class:

- ``ContextOverflow``: the prompt plus the reply budget do not fit the model's
  context window (vLLM old and new, llama.cpp, llama-cpp-python, OpenAI), with
  the numbers the message gives (window, prompt tokens) when it gives them;
- ``Rejection("response_format", level)``: the server does not take that
  structured-output level: a 400/422 naming it, or a 5xx whose body says so
  (llama-cpp-python answers ``json_schema`` with HTTP 500 and pydantic's
  literal error: "Input should be 'text' or 'json_object'");
- ``Rejection("max_tokens")``: the model wants ``max_completion_tokens``
  (OpenAI's o-series: "Use 'max_completion_tokens' instead");
- ``Rejection("temperature")``: the model takes only its default temperature;
- None: anything else (a generic 5xx stays an outage, retried by ``retries``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

JSON_SCHEMA, JSON_OBJECT = "json_schema", "json_object"


@dataclass(frozen=True)
class ContextOverflow:
    window: int | None = None          # the model's context window in tokens, when the message says
    prompt_tokens: int | None = None   # the request's input tokens, when the message says


@dataclass(frozen=True)
class Rejection:
    param: str                  # response_format | max_tokens | temperature
    level: str | None = None    # for response_format: the level refused (json_schema / json_object)


# Phrases of a context-window refusal (lower case). Checked before any parameter rejection.
_CONTEXT_PHRASES = ("maximum context length", "context_length_exceeded", "exceeds the available context size",
                    "exceed_context_size_error", "exceeds context size", "larger than the max context size",
                    "exceed context window", "context window of", "reduce the length of the messages")
_WINDOW_PATTERNS = (re.compile(r"maximum context length is (\d+)"),           # vLLM, OpenAI, llama-cpp-python
                    re.compile(r"context size \((\d+) tokens\)"),              # llama.cpp
                    re.compile(r"context window of (\d+)"),                    # llama-cpp-python (raw)
                    re.compile(r"['\"]n_ctx['\"]\s*:\s*(\d+)"))                # llama.cpp's error fields
_PROMPT_PATTERNS = (re.compile(r"request has (\d+) input tokens"),             # vLLM (new)
                    re.compile(r"\((\d+) in the messages"),                    # vLLM (old), llama-cpp-python
                    re.compile(r"request \((\d+) tokens\)"),                   # llama.cpp
                    re.compile(r"input \((\d+) tokens\)"),                     # llama.cpp (older)
                    re.compile(r"requested tokens \((\d+)\)"),                 # llama-cpp-python (raw)
                    re.compile(r"messages resulted in (\d+) tokens"),          # OpenAI
                    re.compile(r"['\"]n_prompt_tokens['\"]\s*:\s*(\d+)"))      # llama.cpp's error fields
# A response_format refusal: the parameter or a level named, with a word of refusal.
_FORMAT_NAMES = ("response_format", JSON_SCHEMA, JSON_OBJECT)
_REFUSALS = ("not supported", "unsupported", "not support", "invalid", "literal_error", "input should be",
             "unknown", "not allowed", "not implemented", "does not accept", "extra_forbidden", "unrecognized",
             "must be one of", "not permitted")


def _status(exc: BaseException) -> int | None:
    return getattr(exc, "status_code", None)


def _text(exc: BaseException) -> str:
    """The error's message and body, lower case (the openai client puts the body's dict in str(exc))."""
    body = getattr(exc, "body", None)
    return f"{exc} {body if body is not None else ''}".lower()


def _first_int(patterns, text: str) -> int | None:
    for pattern in patterns:
        m = pattern.search(text)
        if m:
            return int(m.group(1))
    return None


def classify(exc: BaseException, sent: dict | None = None) -> ContextOverflow | Rejection | None:
    """What ``exc`` (an HTTP error from the openai client) says about the request ``sent``."""
    status = _status(exc)
    if status is None:
        return None
    text = _text(exc)
    if status in (400, 413, 422) or (status >= 500 and "context" in text):
        if any(p in text for p in _CONTEXT_PHRASES):
            return ContextOverflow(window=_first_int(_WINDOW_PATTERNS, text),
                                   prompt_tokens=_first_int(_PROMPT_PATTERNS, text))
    sent = sent or {}
    level = (sent.get("response_format") or {}).get("type")
    if level and (status in (400, 422) or status >= 500) and any(n in text for n in _FORMAT_NAMES):
        # A 400/422 naming the parameter is a refusal; a 5xx must also say why (else it is an outage).
        if status in (400, 422) or any(r in text for r in _REFUSALS):
            return Rejection("response_format", level)
    if status not in (400, 422):
        return None
    if "max_tokens" in sent and "max_tokens" in text and (
            "max_completion_tokens" in text and ("instead" in text or "use " in text)
            or "unsupported parameter" in text):
        return Rejection("max_tokens")
    if "temperature" in sent and "temperature" in text and any(
            r in text for r in ("unsupported", "not supported", "does not support", "only the default")):
        return Rejection("temperature")
    return None
