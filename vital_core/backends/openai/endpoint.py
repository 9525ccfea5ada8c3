"""The endpoint as the client knows it: the settings it is reached with (never the key in repr, cache or
logs), its identity (base URL and model: what is learnt about it is keyed by that) and how a finding about
it is reported once per run (``usage`` notes and the log)."""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vital_core.safety.redaction import shown_url

log = logging.getLogger("vital_core.backends.openai")

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_CACHE_DIR = Path.home() / ".cache" / "vital-explorer" / "llm"


@dataclass
class LLMSettings:
    """Everything the client needs. ``api_key`` is never part of repr, cache or logs."""
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    model: str = DEFAULT_MODEL
    temperature: float = 0.0
    max_tokens: int = 4000
    timeout: float = 60.0              # seconds per request
    max_attempts: int = 4              # per call, counting the first
    backoff_initial: float = 1.0       # seconds; doubles each retry
    backoff_max: float = 30.0
    retry_after_max: float = 120.0     # cap on an honoured Retry-After
    concurrency: int = 8
    cache_dir: str | os.PathLike | None = None
    cache_size_limit: int = 2 ** 30    # bytes
    use_cache: bool = True
    # auto (json_schema, then json_object, then text) | json_schema | json_object | off
    structured_output: str = "auto"
    context_window: int | None = None  # the model's context window in tokens; None = ask the server / learn it
    prices: Any = None                 # dict / JSON path / None (defaults + VITAL_PRICES)

    @classmethod
    def from_env(cls, **overrides) -> "LLMSettings":
        """Arguments first, then OPENAI_API_KEY / OPENAI_BASE_URL / VITAL_MODEL / VITAL_CACHE_DIR."""
        values = {k: v for k, v in overrides.items() if v is not None}
        values.setdefault("api_key", os.environ.get("OPENAI_API_KEY") or None)
        values.setdefault("base_url", os.environ.get("OPENAI_BASE_URL") or None)
        values.setdefault("model", os.environ.get("VITAL_MODEL") or DEFAULT_MODEL)
        if os.environ.get("VITAL_CACHE_DIR"):
            values.setdefault("cache_dir", os.environ["VITAL_CACHE_DIR"])
        return cls(**values)


def canonical_base_url(base_url: str | None) -> str:
    return (base_url or "https://api.openai.com/v1").rstrip("/")


def endpoint_of(settings: LLMSettings) -> tuple[str, str]:
    """(base URL, model): what a capability or a context window learnt is about."""
    return (canonical_base_url(settings.base_url), settings.model)


def report_once(usage, settings: LLMSettings, text: str) -> None:
    """Say ``text`` about the endpoint once per run: a note in ``usage`` and, the first time, the log."""
    if usage.note(text):
        log.warning("endpoint %s, model %s: %s", shown_url(endpoint_of(settings)[0]), settings.model, text)


class LLMCallError(RuntimeError):
    """A call that failed for good (after retries, or a non-retryable error)."""

    def __init__(self, message: str, *, step: str = "", attempts: int = 0):
        super().__init__(message)
        self.step, self.attempts = step, attempts


class EndpointRefusal(RuntimeError):
    """The endpoint refuses the request in a way no retry changes (context window, a forced
    response format): the message is one sentence naming the option to change."""


def first_line(exc: BaseException) -> str:
    """What a server said, on one line and at most 300 characters (for a sentence quoting it)."""
    return " ".join(str(exc).split())[:300]
