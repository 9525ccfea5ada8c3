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
- asks for structured output and steps down to what the endpoint takes, learnt
  once per endpoint and model (``capabilities``);
- fits the reply budget (``max_tokens``) to the model's context window
  (``context_window``);
- reads the answer, never the thinking: ``message.content``, else (a reasoning
  server that left it empty) ``message.reasoning_content`` / ``reasoning``, which
  the result then says (``response_notes``, counted in ``usage``);
- counts requests, cache hits, retries, failures and tokens per step, and
  prices them with a configurable table (unknown model -> cost unknown).

Settings and errors: ``endpoint``; retry policy: ``retries``; usage counting and prices: ``pricing``.
A call that still fails raises ``LLMCallError`` (with the API key redacted
from its message); the pipeline records it on the record, the run goes on.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

from vital_core.backends import response_notes
from vital_core.backends.openai import prompts
from vital_core.backends.openai.batch import BatchCollector, DeferredToBatch
from vital_core.backends.openai.capabilities import MAX_COMPLETION_TOKENS, NO_TEMPERATURE, EndpointCapabilities
from vital_core.backends.openai.context_window import ContextWindow
from vital_core.backends.openai.endpoint import (
    DEFAULT_CACHE_DIR,
    EndpointRefusal,
    LLMCallError,
    LLMSettings,
    canonical_base_url,
)
from vital_core.backends.openai.pricing import UsageTracker, load_prices
from vital_core.backends.openai.reply_json import ReplyParseError, answer_in_reasoning, strip_reasoning
from vital_core.backends.openai.retries import BackoffWait, RetryableReplyError, is_retryable
from vital_core.backends.openai.server_errors import ContextOverflow, Rejection, classify
from vital_core.safety.redaction import redact, url_secrets

__all__ = ["CallResult", "LLMClient", "cache_key"]

log = logging.getLogger("vital_core.backends.openai")

CACHE_FORMAT = 1  # bump when the stored value's shape changes
# The fields a reasoning server may leave the answer in when ``content`` is empty: vLLM and llama.cpp
# (reasoning_content), newer vLLM, Ollama and OpenRouter (reasoning).
REASONING_FIELDS = ("reasoning_content", "reasoning")


@dataclass
class CallResult:
    value: Any                 # what the parse function returned
    content: str               # the raw reply text
    cached: bool
    attempts: int              # HTTP requests made for this call (0 when cached)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    answer_field: str = "content"  # the message field the answer was read from


def cache_key(*, base_url: str | None, model: str, messages: list[dict], temperature: float | None,
              max_tokens: int | None, response_format: dict | None, prompt_version: str) -> str:
    """SHA-256 over exactly what determines a reply. The API key is deliberately not part of it."""
    payload = {"base_url": canonical_base_url(base_url), "model": model, "messages": messages,
               "temperature": temperature, "max_tokens": max_tokens,
               "response_format": response_format, "prompt_version": prompt_version,
               "cache_format": CACHE_FORMAT}
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "reply:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


class LLMClient(EndpointCapabilities, ContextWindow):
    """Shared by all steps of one backend; safe to use from several event loops in turn. What the
    endpoint takes: ``EndpointCapabilities``; its context window and reply budgets: ``ContextWindow``."""

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
        self._probes: dict[int, asyncio.Future] = {}   # event loop -> the context-window probe under way

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
                # openai's own HTTP client closes itself when garbage-collected, as a task on whatever loop
                # runs then: one of a finished loop (dropped above, never closed: its loop is gone) fails
                # there ("Event loop is closed") and leaves that loop a "Task exception was never
                # retrieved". Its default client without that hook is dropped quietly instead.
                client = openai.AsyncOpenAI(
                    api_key=self.settings.api_key or "not-needed", base_url=self.settings.base_url or None,
                    timeout=self.settings.timeout, max_retries=0,
                    http_client=openai.DefaultAsyncHttpxClient(timeout=self.settings.timeout))
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

    # ------------------------------------------------------------ the call
    def _request(self, messages: list[dict], prompt: prompts.Prompt) -> tuple[dict, str]:
        caps = self.capabilities()
        kwargs: dict[str, Any] = {"model": self.settings.model, "messages": messages}
        if NO_TEMPERATURE not in caps:
            kwargs["temperature"] = self.settings.temperature
        tokens_key = MAX_COMPLETION_TOKENS if MAX_COMPLETION_TOKENS in caps else "max_tokens"
        kwargs[tokens_key] = self.settings.max_tokens
        response_format = self._response_format(self.response_format_level(), prompt)
        if response_format is not None:
            kwargs["response_format"] = response_format
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
        result = await self._complete(prompt, messages, parse, cache_if)
        if result.answer_field != "content":
            response_notes.note(f"answer_field: {result.answer_field} (the server left message.content empty; "
                                f"the {prompt.step} reply was read from message.{result.answer_field})")
        return result

    async def _complete(self, prompt: prompts.Prompt, messages: list[dict],
                        parse: Callable[[str], Any], cache_if: Callable[[Any], bool] | None) -> CallResult:
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
                    return CallResult(value, stored["content"], cached=True, attempts=0,
                                      answer_field=stored.get("answer_field", "content"))

        if self.collector is not None:     # a batch export: record the request, send nothing
            request = dict(kwargs, messages=messages)
            tokens_key = MAX_COMPLETION_TOKENS if MAX_COMPLETION_TOKENS in kwargs else "max_tokens"
            try:     # fitted to a window given with --context-window (no server is asked here)
                request[tokens_key] = self._reply_budget(messages, kwargs[tokens_key])
            except EndpointRefusal as exc:
                raise LLMCallError(f"{step}: {exc}", step=step) from None
            self.collector.add(key, request)
            raise LLMCallError(f"{step}: deferred to the batch file", step=step) from DeferredToBatch(key)
        # The same request already on its way (two variants sharing a verification window): wait for
        # its reply instead of paying for it twice.
        loop_key = (id(asyncio.get_running_loop()), key)
        while (pending := self._in_flight.get(loop_key)) is not None:
            try:
                first = await asyncio.shield(pending)
            except asyncio.CancelledError:
                if not pending.cancelled() or asyncio.current_task().cancelling():
                    raise
                continue          # the caller it waited for gave up (its record timed out): ask itself
            self.usage.add(step, cache_hits=1)
            return CallResult(parse(first.content), first.content, cached=True, attempts=0,
                              answer_field=first.answer_field)
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
                        content, usage, field = await self._send(step, kwargs, current + followups, prompt)
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
        if field != "content":
            self.usage.add(step, answers_from_reasoning=1)
        if cache is not None and (cache_if is None or cache_if(value)):
            # Keyed by the request as finally sent (a parameter the endpoint rejected is not in it),
            # which is the request the next run builds once the downgrade is remembered.
            entry = {"content": content, "model": self.settings.model}
            if field != "content":
                entry["answer_field"] = field
            cache.set(self._key(kwargs, messages, prompt), entry)
        return CallResult(value, content, cached=False, attempts=attempts,
                          prompt_tokens=usage[0], completion_tokens=usage[1], answer_field=field)

    async def _send(self, step: str, kwargs: dict, messages: list[dict],
                    prompt: prompts.Prompt) -> tuple[str, tuple[int, int], str]:
        """One HTTP request, adapted to what the endpoint takes; returns (answer text, (prompt, completion)
        tokens, the message field the answer came from). ``kwargs`` keeps the adaptations for the
        call's later attempts and its cache key."""
        client, semaphore = self._resources()
        await self.probe_context_window()
        counted, refitted = None, False     # the prompt's tokens as the server counted them, once it said
        while True:
            try:
                async with semaphore:
                    self._apply_known(kwargs, prompt)   # what other calls learnt while this one waited
                    tokens_key = MAX_COMPLETION_TOKENS if MAX_COMPLETION_TOKENS in kwargs else "max_tokens"
                    budget = self._reply_budget(messages, kwargs[tokens_key], counted)
                    request = dict(kwargs, messages=messages)
                    request[tokens_key] = budget
                    self.usage.add(step, requests=1)
                    response = await client.chat.completions.create(**request)
            except EndpointRefusal:
                raise
            except Exception as exc:
                verdict = classify(exc, request)
                if isinstance(verdict, ContextOverflow):
                    if refitted or not (verdict.window or self.context_window):
                        raise EndpointRefusal(self._overflow_sentence(exc, verdict, budget)) from None
                    if verdict.window:
                        self._learn_window(verdict.window)
                    counted, refitted = verdict.prompt_tokens, True
                    continue
                if isinstance(verdict, Rejection):
                    self._adapt(verdict, exc)
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
        content, field = _answer_of(choice.message)
        if choice.finish_reason == "length":
            cut = "the reply was cut off (finish_reason=length)"
            if budget < kwargs[tokens_key]:
                cut += (f" at the {budget:,} tokens the {self.context_window:,}-token context window left: "
                        f"lower --evidence-tokens if it keeps happening")
            raise RetryableReplyError(cut, prompts.TRUNCATED_FOLLOWUP)
        return content, (prompt_tokens, completion_tokens), field


def _answer_of(message: Any) -> tuple[str, str]:
    """The reply text and the field it came from: ``content`` when it holds more than thinking, else
    the first non-empty reasoning field (its last JSON object: ``answer_in_reasoning``)."""
    content = getattr(message, "content", None) or ""
    if isinstance(content, list):   # content parts
        content = "".join(str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content)
    if strip_reasoning(str(content)):
        return str(content), "content"
    extra = getattr(message, "model_extra", None) or {}
    for name in REASONING_FIELDS:
        value = getattr(message, name, None) or extra.get(name)
        if isinstance(value, str) and value.strip():
            return answer_in_reasoning(value), name
    return str(content), "content"
