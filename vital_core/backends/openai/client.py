"""One chat-completion call, done carefully: cache, retries, concurrency, usage.

``LLMClient.complete`` sends a chat request to an OpenAI-compatible endpoint
through the official ``openai`` client and returns the parsed reply. Around
that call it

- looks the request up in a ``diskcache`` cache first (key: SHA-256 of the base
  URL, model, messages, sampling parameters, response format and prompt
  version; never the API key) and stores only replies that parsed;
- bounds concurrency with one ``asyncio.Semaphore`` shared by every record and
  window (held only while a request is in flight, not while backing off);
- retries with ``tenacity``: 429, 5xx, 408/409, timeouts and connection errors,
  and replies that are not valid JSON or were cut off (``finish_reason ==
  "length"``), with exponential backoff plus jitter, honouring ``Retry-After``
  (``retry-after-ms`` too), up to ``max_attempts`` attempts;
- asks for structured output (``response_format`` = JSON schema) and, when an
  endpoint rejects it with a 400/422 naming ``response_format``, falls back to
  plain text with the robust parser and remembers that for the endpoint (also
  across runs, in the cache);
- counts requests, cache hits, retries, failures and tokens per step, and
  prices them with a configurable table (unknown model -> cost unknown).

Retry policy: ``retries``; usage counting and prices: ``pricing``.
A call that still fails raises ``LLMCallError`` (with the API key redacted
from its message); the pipeline records it on the record, the run goes on.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import threading
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

from vital_core.backends.openai import prompts
from vital_core.backends.openai.parsing import ReplyParseError
from vital_core.backends.openai.pricing import UsageTracker, load_prices
from vital_core.backends.openai.batch import BatchCollector, DeferredToBatch
from vital_core.backends.openai.retries import BackoffWait, RetryableReplyError, is_retryable, rejects_param
from vital_core.redaction import redact, shown_url, url_secrets

log = logging.getLogger("vital_core.backends.openai")

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_CACHE_DIR = Path.home() / ".cache" / "vital-explorer" / "llm"
CACHE_FORMAT = 1  # bump when the stored value's shape changes


class LLMCallError(RuntimeError):
    """A call that failed for good (after retries, or a non-retryable error)."""

    def __init__(self, message: str, *, step: str = "", attempts: int = 0):
        super().__init__(message)
        self.step, self.attempts = step, attempts


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
    structured_output: str = "auto"    # auto (try JSON schema, fall back) | json_schema | off
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


@dataclass
class CallResult:
    value: Any                 # what the parse function returned
    content: str               # the raw reply text
    cached: bool
    attempts: int              # HTTP requests made for this call (0 when cached)
    prompt_tokens: int = 0
    completion_tokens: int = 0


def _canonical_base_url(base_url: str | None) -> str:
    return (base_url or "https://api.openai.com/v1").rstrip("/")


def cache_key(*, base_url: str | None, model: str, messages: list[dict], temperature: float | None,
              max_tokens: int | None, response_format: dict | None, prompt_version: str) -> str:
    """SHA-256 over exactly what determines a reply. The API key is deliberately not part of it."""
    payload = {"base_url": _canonical_base_url(base_url), "model": model, "messages": messages,
               "temperature": temperature, "max_tokens": max_tokens,
               "response_format": response_format, "prompt_version": prompt_version,
               "cache_format": CACHE_FORMAT}
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "reply:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


class LLMClient:
    """Shared by all steps of one backend; safe to use from several event loops in turn."""

    # Endpoint capability downgrades learnt this process: (base_url, model) -> set of flags.
    _learnt: dict[tuple[str, str], set[str]] = {}
    _learnt_lock = threading.Lock()

    def __init__(self, settings: LLMSettings):
        if not settings.api_key and not settings.base_url:
            raise ValueError("the OpenAI-compatible backend needs an API key (OPENAI_API_KEY) or a "
                             "base URL of a local server (OPENAI_BASE_URL / --base-url)")
        self.settings = settings
        self.prices = load_prices(settings.prices)
        self.usage = UsageTracker(settings.model, self.prices)
        # One openai client and semaphore per event loop: the CLI runs one loop, the app one per
        # scoring (possibly from several sessions' threads at once).
        self._per_loop: dict[int, tuple[Any, Any, asyncio.Semaphore]] = {}
        # (event loop, cache key) -> the reply of a request on its way, shared with identical requests
        self._in_flight: dict[tuple[int, str], asyncio.Future] = {}
        self._loops_lock = threading.Lock()
        self._cache = None
        self._cache_lock = threading.Lock()
        self.collector: BatchCollector | None = None   # set for a batch export (batch.py)

    # ------------------------------------------------------------ resources
    def _resources(self):
        """The openai client and semaphore of the running loop."""
        loop = asyncio.get_running_loop()
        with self._loops_lock:
            for key, (ref, _, _) in list(self._per_loop.items()):
                if ref() is None or ref().is_closed():
                    del self._per_loop[key]
            entry = self._per_loop.get(id(loop))
            if entry is None or entry[0]() is not loop:
                import openai
                client = openai.AsyncOpenAI(
                    api_key=self.settings.api_key or "not-needed", base_url=self.settings.base_url or None,
                    timeout=self.settings.timeout, max_retries=0)
                entry = (weakref.ref(loop), client, asyncio.Semaphore(max(1, int(self.settings.concurrency))))
                self._per_loop[id(loop)] = entry
        return entry[1], entry[2]

    @property
    def cache(self):
        if not self.settings.use_cache:
            return None
        with self._cache_lock:
            if self._cache is None:
                import diskcache
                directory = Path(self.settings.cache_dir or DEFAULT_CACHE_DIR)
                directory.mkdir(parents=True, exist_ok=True)
                self._cache = diskcache.Cache(str(directory), size_limit=int(self.settings.cache_size_limit))
            return self._cache

    def check_cache(self) -> None:
        """Open the reply cache and write to it once, so a folder it cannot use is one error before the
        run (``ValueError``), not the same failure on every record."""
        if not self.settings.use_cache:
            return
        directory = Path(self.settings.cache_dir or DEFAULT_CACHE_DIR)
        try:
            cache = self.cache
            cache.set("vital-explorer:writable", 1)
            cache.delete("vital-explorer:writable")
        except Exception as exc:   # OSError, sqlite3 errors, diskcache's own: all mean "not usable"
            with self._cache_lock:
                self._cache = None
            why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            raise ValueError(f"the reply cache folder {directory} cannot be written ({why}); choose another "
                             "--cache-dir, or --no-cache") from None

    async def aclose(self) -> None:
        """Close the running loop's HTTP client and the cache (both reopen on next use)."""
        try:
            key = id(asyncio.get_running_loop())
        except RuntimeError:
            key = None
        with self._loops_lock:
            entry = self._per_loop.pop(key, None)
        client = entry[1] if entry else None
        if client is not None:
            try:
                await client.close()
            except Exception:  # closing a client of a finished loop is best effort
                pass
        with self._cache_lock:
            if self._cache is not None:
                self._cache.close()
                self._cache = None

    # ------------------------------------------------------------ endpoint capabilities
    def _endpoint(self) -> tuple[str, str]:
        return (_canonical_base_url(self.settings.base_url), self.settings.model)

    def _caps_key(self) -> str:
        raw = json.dumps(self._endpoint()).encode("utf-8")
        return "caps:" + hashlib.sha256(raw).hexdigest()

    def capabilities(self) -> set[str]:
        """Downgrades learnt for this endpoint: no_response_format, max_completion_tokens, no_temperature."""
        with self._learnt_lock:
            flags = self._learnt.get(self._endpoint())
        if flags is None:
            stored = self.cache.get(self._caps_key()) if self.cache is not None else None
            flags = set(stored or ())
            with self._learnt_lock:
                self._learnt.setdefault(self._endpoint(), set()).update(flags)
                flags = set(self._learnt[self._endpoint()])
        return set(flags)

    def _learn(self, flag: str) -> None:
        log.warning("endpoint %s rejected a parameter; continuing with %s",
                    shown_url(self._endpoint()[0]), flag)
        with self._learnt_lock:
            flags = self._learnt.setdefault(self._endpoint(), set())
            flags.add(flag)
            snapshot = sorted(flags)
        if self.cache is not None:
            self.cache.set(self._caps_key(), snapshot)

    def structured_output_enabled(self) -> bool:
        mode = self.settings.structured_output
        return mode != "off" and (mode == "json_schema" or "no_response_format" not in self.capabilities())

    # ------------------------------------------------------------ the call
    def _request(self, messages: list[dict], prompt: prompts.Prompt) -> tuple[dict, str]:
        caps = self.capabilities()
        kwargs: dict[str, Any] = {"model": self.settings.model, "messages": messages}
        if "no_temperature" not in caps:
            kwargs["temperature"] = self.settings.temperature
        tokens_key = "max_completion_tokens" if "max_completion_tokens" in caps else "max_tokens"
        kwargs[tokens_key] = self.settings.max_tokens
        if self.structured_output_enabled():
            kwargs["response_format"] = prompt.response_format()
        return kwargs, self._key(kwargs, messages, prompt)

    def _key(self, kwargs: dict, messages: list[dict], prompt: prompts.Prompt) -> str:
        return cache_key(base_url=self.settings.base_url, model=self.settings.model, messages=messages,
                         temperature=kwargs.get("temperature"), max_tokens=self.settings.max_tokens,
                         response_format=kwargs.get("response_format"),
                         prompt_version=f"{prompt.step}:{prompt.version}")

    async def complete(self, prompt: prompts.Prompt, messages: list[dict],
                       parse: Callable[[str], Any], cache_if: Callable[[Any], bool] | None = None) -> CallResult:
        """Send ``messages`` (system prompt included) and return ``parse(reply)``.

        ``parse`` raises ``ReplyParseError`` for an unreadable reply; that is retried
        with a follow-up message saying what was wrong. ``cache_if(value)`` may keep a
        parsed but unwanted reply out of the cache (so a later run asks afresh).
        """
        step = prompt.step
        self.usage.add(step, calls=1)
        kwargs, key = self._request(messages, prompt)
        cache = self.cache
        if cache is not None:
            stored = cache.get(key)
            if isinstance(stored, dict) and "content" in stored:
                try:
                    value = parse(stored["content"])
                except ReplyParseError:
                    value = None  # a parser change made the entry unreadable: ask again
                else:
                    self.usage.add(step, cache_hits=1)
                    return CallResult(value, stored["content"], cached=True, attempts=0)

        if self.collector is not None:     # a batch export: record the request, send nothing
            self.collector.add(key, dict(kwargs, messages=messages))
            raise LLMCallError(f"{step}: deferred to the batch file", step=step) from DeferredToBatch(key)
        # The same request already on its way (two variants sharing a verification window): wait for
        # its reply instead of paying for it twice.
        loop_key = (id(asyncio.get_running_loop()), key)
        while (pending := self._in_flight.get(loop_key)) is not None:
            try:
                content = (await asyncio.shield(pending)).content
            except asyncio.CancelledError:
                if not pending.cancelled() or asyncio.current_task().cancelling():
                    raise
                continue          # the caller it waited for gave up (its record timed out): ask itself
            self.usage.add(step, cache_hits=1)
            return CallResult(parse(content), content, cached=True, attempts=0)
        shared = asyncio.get_running_loop().create_future()
        self._in_flight[loop_key] = shared
        try:
            result = await self._call(prompt, kwargs, messages, parse, cache_if)
        except asyncio.CancelledError:
            shared.cancel()
            raise
        except BaseException as exc:
            shared.set_exception(exc)
            shared.exception()        # retrieved here: nobody may be waiting for it
            raise
        else:
            shared.set_result(result)
            return result
        finally:
            del self._in_flight[loop_key]

    async def _call(self, prompt: prompts.Prompt, kwargs: dict, messages: list[dict],
                    parse: Callable[[str], Any], cache_if: Callable[[Any], bool] | None) -> CallResult:
        """The request sent, retried, parsed (a reply it cannot read is asked again) and cached."""
        step, cache = prompt.step, self.cache
        attempts = 0
        current = list(messages)
        followups: list[dict] = []
        try:
            s = self.settings
            retrying = AsyncRetrying(stop=stop_after_attempt(max(1, s.max_attempts)),
                                     wait=BackoffWait(s.backoff_initial, s.backoff_max, s.retry_after_max),
                                     retry=retry_if_exception(is_retryable), reraise=True)
            async for attempt in retrying:
                with attempt:
                    attempts += 1
                    if attempts > 1:
                        self.usage.add(step, retries=1)
                    try:
                        content, usage = await self._send(step, kwargs, current + followups)
                        value = parse(content)
                    except RetryableReplyError as exc:
                        followups = [{"role": "user", "content": exc.followup}]
                        raise
                    except ReplyParseError as exc:
                        followups = [{"role": "user",
                                      "content": prompts.INVALID_JSON_FOLLOWUP.format(error=str(exc)[:200])}]
                        raise RetryableReplyError(str(exc), followups[0]["content"]) from None
        except Exception as exc:
            self.usage.add(step, failures=1)
            message = redact(f"{step} call failed after {attempts} attempt(s): "
                             f"{type(exc).__name__}: {exc}",
                             [self.settings.api_key, *url_secrets(self.settings.base_url)])
            log.warning("%s", message)
            raise LLMCallError(message, step=step, attempts=attempts) from None
        if cache is not None and (cache_if is None or cache_if(value)):
            # Keyed by the request as finally sent (a parameter the endpoint rejected is not in it),
            # which is the request the next run builds once the downgrade is remembered.
            cache.set(self._key(kwargs, messages, prompt), {"content": content, "model": self.settings.model})
        return CallResult(value, content, cached=False, attempts=attempts,
                          prompt_tokens=usage[0], completion_tokens=usage[1])

    async def _send(self, step: str, kwargs: dict, messages: list[dict]) -> tuple[str, tuple[int, int]]:
        """One HTTP request (with the parameter fallbacks an endpoint asks for)."""
        client, semaphore = self._resources()
        while True:
            request = dict(kwargs, messages=messages)
            try:
                async with semaphore:
                    self.usage.add(step, requests=1)
                    response = await client.chat.completions.create(**request)
            except Exception as exc:
                # A 400/422 about an optional parameter: drop it, remember, try again at once.
                if ("response_format" in request and self.settings.structured_output == "auto"
                        and rejects_param(exc, "response_format", "json_schema")):
                    self._learn("no_response_format")
                    kwargs.pop("response_format", None)
                    continue
                if "max_tokens" in request and rejects_param(exc, "max_completion_tokens"):
                    self._learn("max_completion_tokens")
                    kwargs["max_completion_tokens"] = kwargs.pop("max_tokens")
                    continue
                if "temperature" in request and rejects_param(exc, "temperature"):
                    self._learn("no_temperature")
                    kwargs.pop("temperature", None)
                    continue
                raise
            break
        usage = getattr(response, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        if usage is None:
            self.usage.add(step, calls_without_usage=1)
        self.usage.add(step, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
        choices = getattr(response, "choices", None) or []
        if not choices:
            raise RetryableReplyError("the reply has no choices", prompts.INVALID_JSON_FOLLOWUP.format(
                error="empty reply"))
        choice = choices[0]
        content = getattr(choice.message, "content", None) or ""
        if choice.finish_reason == "length":
            raise RetryableReplyError("the reply was cut off (finish_reason=length)", prompts.TRUNCATED_FOLLOWUP)
        return content, (prompt_tokens, completion_tokens)
