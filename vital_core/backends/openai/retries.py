"""Which failed calls are worth another attempt, and how long to wait before it.

Retried: 429, 5xx, 408/409, timeouts and connection errors, and replies that
are not valid JSON or were cut off (``RetryableReplyError``). The wait honours
``Retry-After`` (``retry-after-ms`` too), else backs off exponentially with
jitter. Used by ``client.LLMClient`` through ``tenacity``.
"""
from __future__ import annotations

import email.utils
import random
import time

from vital_core.backends.openai.reply_json import ReplyParseError


class RetryableReplyError(ReplyParseError):
    """Invalid JSON or a truncated reply: worth asking again (bounded)."""

    def __init__(self, message: str, followup: str):
        super().__init__(message)
        self.followup = followup


def _retry_after_seconds(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        when = email.utils.parsedate_to_datetime(value) if value else None
        return max(0.0, when.timestamp() - time.time()) if when else None


def _status(exc: BaseException) -> int | None:
    return getattr(exc, "status_code", None)


def is_retryable(exc: BaseException) -> bool:
    import openai
    if isinstance(exc, RetryableReplyError):
        return True
    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError)):
        return True
    status = _status(exc)
    return status is not None and (status in (408, 409, 429) or status >= 500)


class BackoffWait:
    """tenacity's wait: Retry-After when the server gives one (capped at ``retry_after_max``), else
    exponential backoff from ``initial`` with jitter, capped at ``maximum``."""

    def __init__(self, initial: float, maximum: float, retry_after_max: float):
        self.initial, self.max, self.cap = initial, maximum, retry_after_max

    def __call__(self, retry_state) -> float:
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        after = _retry_after_seconds(exc) if exc is not None else None
        if after is not None:   # jitter from the capped wait, and never beyond the cap
            wait = min(after, self.cap)
            return min(wait + random.uniform(0, 0.05 * max(wait, 0.1)), self.cap)
        # initial, 2x, 4x ... plus up to one initial of jitter, capped.
        exponential = self.initial * 2 ** (retry_state.attempt_number - 1)
        return min(exponential + random.uniform(0, self.initial), self.max)
