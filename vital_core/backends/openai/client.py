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
  endpoint does not accept it (a 400/422 naming it, or a 5xx whose body says so:
  ``server_errors``), steps down to ``json_object``, then to plain text with the
  robust parser; each step is learnt once per endpoint and model, reported once
  (``usage`` notes, the log) and remembered across runs in the cache. Only a
  refusal classified as such is remembered: a context-window error never is;
- fits the reply budget (``max_tokens``) to the model's context window: given
  (``context_window``), served (vLLM's ``/v1/models`` ``max_model_len``,
  llama.cpp's ``/props``) or read from the first context error's numbers; when
  nothing fits, the error is one sentence naming the option to change;
- reads the answer, never the thinking: ``message.content``, else (a reasoning
  server that left it empty) ``message.reasoning_content`` / ``reasoning``, which
  the result then says (``response_notes``, counted in ``usage``);
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

from vital_core.backends import response_notes
from vital_core.backends.openai import prompts
from vital_core.backends.openai.parsing import ReplyParseError, answer_in_reasoning, strip_reasoning
from vital_core.backends.openai.pricing import UsageTracker, load_prices
from vital_core.backends.openai.batch import BatchCollector, DeferredToBatch
from vital_core.backends.openai.retries import BackoffWait, RetryableReplyError, is_retryable
from vital_core.backends.openai.retrieval import estimate_tokens
from vital_core.backends.openai.server_errors import JSON_OBJECT, JSON_SCHEMA, ContextOverflow, Rejection, classify
from vital_core.safety.redaction import redact, shown_url, url_secrets

log = logging.getLogger("vital_core.backends.openai")

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_CACHE_DIR = Path.home() / ".cache" / "vital-explorer" / "llm"
CACHE_FORMAT = 1  # bump when the stored value's shape changes


# What an endpoint was found not to take, as stored per (endpoint, model), and how a run reports it.
NO_JSON_SCHEMA, NO_RESPONSE_FORMAT = "no_json_schema", "no_response_format"
MAX_COMPLETION_TOKENS, NO_TEMPERATURE = "max_completion_tokens", "no_temperature"
CAPABILITY_NOTES = {
    NO_JSON_SCHEMA: "this server does not accept json_schema; using json_object",
    NO_RESPONSE_FORMAT: "this server accepts neither json_schema nor json_object; using plain text with the "
                        "tolerant parser",
    MAX_COMPLETION_TOKENS: "this model does not take max_tokens; using max_completion_tokens",
    NO_TEMPERATURE: "this model does not take a temperature; using its default"}
# The fields a reasoning server may leave the answer in when ``content`` is empty: vLLM and llama.cpp
# (reasoning_content), newer vLLM, Ollama and OpenRouter (reasoning).
REASONING_FIELDS = ("reasoning_content", "reasoning")
MIN_REPLY_TOKENS = 256       # a reply budget below this is no budget: the request does not fit


class LLMCallError(RuntimeError):
    """A call that failed for good (after retries, or a non-retryable error)."""

    def __init__(self, message: str, *, step: str = "", attempts: int = 0):
        super().__init__(message)
        self.step, self.attempts = step, attempts


class EndpointRefusal(RuntimeError):
    """The endpoint refuses the request in a way no retry changes (context window, a forced
    response format): the message is one sentence naming the option to change."""


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
    structured_output: str = "auto"    # auto (json_schema, then json_object, then text) | json_schema | json_object | off
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


@dataclass
class CallResult:
    value: Any                 # what the parse function returned
    content: str               # the raw reply text
    cached: bool
    attempts: int              # HTTP requests made for this call (0 when cached)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    answer_field: str = "content"  # the message field the answer was read from


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
        """Downgrades learnt for this endpoint and model: no_json_schema, no_response_format,
        max_completion_tokens, no_temperature (``CAPABILITY_NOTES``)."""
        with self._learnt_lock:
            flags = self._learnt.get(self._endpoint())
        if flags is None:
            stored = self.cache.get(self._caps_key()) if self.cache is not None else None
            flags = set(stored or ())
            with self._learnt_lock:
                self._learnt.setdefault(self._endpoint(), set()).update(flags)
                flags = set(self._learnt[self._endpoint()])
            for flag in sorted(flags):   # learnt in an earlier run: this run says so too
                self._report(flag, " (learnt earlier, kept in the cache)")
        return set(flags)

    def _report(self, flag: str, suffix: str = "") -> None:
        text = CAPABILITY_NOTES.get(flag, flag) + suffix
        if self.usage.note(text):
            log.warning("endpoint %s, model %s: %s", shown_url(self._endpoint()[0]),
                        self.settings.model, text)

    def _learn(self, flag: str) -> None:
        """Remember a refusal classified by ``server_errors`` (never anything else) and report it once."""
        with self._learnt_lock:
            flags = self._learnt.setdefault(self._endpoint(), set())
            new = flag not in flags
            flags.add(flag)
            snapshot = sorted(flags)
        if new:
            self._report(flag)
        if self.cache is not None:
            self.cache.set(self._caps_key(), snapshot)

    def response_format_level(self) -> str | None:
        """The structured-output level requests carry: json_schema, json_object or None (plain text)."""
        mode = self.settings.structured_output
        if mode in (JSON_SCHEMA, JSON_OBJECT):
            return mode
        if mode == "off":
            return None
        caps = self.capabilities()
        return None if NO_RESPONSE_FORMAT in caps else JSON_OBJECT if NO_JSON_SCHEMA in caps else JSON_SCHEMA

    def structured_output_enabled(self) -> bool:
        return self.response_format_level() is not None

    @staticmethod
    def _response_format(level: str | None, prompt: prompts.Prompt) -> dict | None:
        return prompt.response_format() if level == JSON_SCHEMA else {"type": JSON_OBJECT} if level else None

    # ------------------------------------------------------------ context window
    # Windows known this process, (base_url, model) -> tokens or None (asked, not said). Never stored on
    # disk: a window is asked again each run, or read again from the first context error.
    _windows: dict[tuple[str, str], int | None] = {}

    @property
    def context_window(self) -> int | None:
        """The model's context window in tokens: given, or served or learnt this process (the smaller of
        the two when both are known: the server's own number wins over a wrong setting), else None."""
        with self._learnt_lock:
            learnt = self._windows.get(self._endpoint())
        given = int(self.settings.context_window) if self.settings.context_window else None
        return min(w for w in (given, learnt) if w) if (given or learnt) else None

    def _learn_window(self, tokens: int, source: str = "its context-length error") -> None:
        with self._learnt_lock:
            known = self._windows.get(self._endpoint())
            self._windows[self._endpoint()] = min(known, tokens) if known else tokens
        self._report_window(tokens, source)

    def _report_window(self, tokens: int, source: str) -> None:
        text = f"the model's context window is {tokens:,} tokens (the server said so in {source}); reply " \
               "budgets (max_tokens) are fitted to it"
        if self.usage.note(text):
            log.warning("endpoint %s, model %s: %s", shown_url(self._endpoint()[0]),
                        self.settings.model, text)

    async def probe_context_window(self) -> int | None:
        """Ask the server for the model's context window once per process and endpoint: vLLM serves
        ``max_model_len`` in ``/v1/models``, llama.cpp ``n_ctx`` in ``/props``. None when neither says
        (OpenAI, Ollama) or when ``context_window`` was given."""
        if self.settings.context_window or not self.settings.base_url:
            return self.context_window
        with self._learnt_lock:
            if self._endpoint() in self._windows:
                return self._windows[self._endpoint()]
            probe = self._probes.get(id(asyncio.get_running_loop()))
            if probe is None or probe.get_loop() is not asyncio.get_running_loop():   # none, or a closed loop's
                probe = asyncio.ensure_future(self._ask_window())
                self._probes[id(asyncio.get_running_loop())] = probe
        window, source = await asyncio.shield(probe)
        if window:
            self._report_window(window, source)
        with self._learnt_lock:
            self._windows.setdefault(self._endpoint(), window)
            return self._windows[self._endpoint()]

    async def _ask_window(self) -> tuple[int | None, str]:
        import httpx
        client, _ = self._resources()
        timeout = min(10.0, float(self.settings.timeout))
        try:
            listing = await client.models.list(timeout=timeout)
            models = list(getattr(listing, "data", None) or [])
            entries = [m.model_dump() if hasattr(m, "model_dump") else dict(m) for m in models]
            mine = [e for e in entries if e.get("id") == self.settings.model] or (entries if len(entries) == 1 else [])
            for entry in mine:
                for name, value in (("max_model_len", entry.get("max_model_len")),
                                    ("context_length", entry.get("context_length")),
                                    ("meta.n_ctx", (entry.get("meta") or {}).get("n_ctx"))):
                    if isinstance(value, int) and value > 0:
                        return value, f"/models {name}"
        except Exception as exc:   # a server without the listing: the window is learnt from an error instead
            log.debug("no context window from /models: %s", type(exc).__name__)
        root = _canonical_base_url(self.settings.base_url)
        root = root[:-3] if root.endswith("/v1") else root
        try:
            response = await client.get(root + "/props", cast_to=httpx.Response, options={"timeout": timeout})
            props = response.json()
            value = (props.get("default_generation_settings") or {}).get("n_ctx") or props.get("n_ctx")
            if isinstance(value, int) and value > 0:
                return value, "/props n_ctx"
        except Exception as exc:
            log.debug("no context window from /props: %s", type(exc).__name__)
        return None, ""

    def _reply_budget(self, messages: list[dict], wanted: int, prompt_tokens: int | None = None) -> int:
        """``wanted`` reply tokens, or what the known window leaves after the prompt (estimated, or as
        the server counted it). Raises ``EndpointRefusal`` when that is less than ``MIN_REPLY_TOKENS``."""
        window = self.context_window
        if not window:
            return wanted
        if prompt_tokens is None:    # characters / 4, plus a margin for the chat template and tokeniser
            chars = sum(len(str(m.get("content") or "")) for m in messages)
            prompt_tokens = int(estimate_tokens("x" * chars) * 1.1) + 8 * len(messages) + 32
        else:
            prompt_tokens += 16
        room = window - prompt_tokens
        if room >= wanted:
            return wanted
        if room < MIN_REPLY_TOKENS:
            raise EndpointRefusal(
                f"the prompt (about {prompt_tokens:,} tokens) leaves {max(room, 0):,} of the model's "
                f"{window:,}-token context window for the reply, less than the {MIN_REPLY_TOKENS} a reply needs: "
                f"lower --evidence-tokens (less evidence per call), or serve the model with a larger window "
                f"(and raise --context-window if you gave it)")
        return room

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

    def _apply_known(self, kwargs: dict, prompt: prompts.Prompt) -> None:
        """Make ``kwargs`` what the endpoint is known to take (``capabilities``)."""
        caps = self.capabilities()
        if NO_TEMPERATURE in caps:
            kwargs.pop("temperature", None)
        if MAX_COMPLETION_TOKENS in caps and "max_tokens" in kwargs:
            kwargs[MAX_COMPLETION_TOKENS] = kwargs.pop("max_tokens")
        if self.settings.structured_output == "auto" and "response_format" in kwargs:
            below = self._response_format(self.response_format_level(), prompt)
            if below is None:
                kwargs.pop("response_format")
            else:
                kwargs["response_format"] = below

    def _adapt(self, rejection: Rejection, exc: BaseException) -> None:
        """Learn a refused parameter (``_apply_known`` then drops or steps it down); a refusal the
        settings forbid adapting to (a forced response format) raises ``EndpointRefusal``."""
        if rejection.param == "response_format":
            if self.settings.structured_output != "auto":
                raise EndpointRefusal(
                    f"the server does not accept response_format {rejection.level} (--structured-output "
                    f"{self.settings.structured_output}): use --structured-output auto to step down to what it "
                    f"takes ({_first_line(exc)})") from None
            self._learn(NO_JSON_SCHEMA if rejection.level == JSON_SCHEMA else NO_RESPONSE_FORMAT)
        elif rejection.param == "max_tokens":
            self._learn(MAX_COMPLETION_TOKENS)
        else:
            self._learn(NO_TEMPERATURE)

    def _overflow_sentence(self, exc: BaseException, overflow: ContextOverflow, budget: int) -> str:
        window = overflow.window or self.context_window
        said = _first_line(exc)
        if window:
            return (f"the request does not fit the model's {window:,}-token context window even with the reply "
                    f"budget fitted to {budget:,} tokens: lower --evidence-tokens (less evidence per call) or "
                    f"--max-tokens, or serve the model with a larger window (server said: {said})")
        return (f"the request does not fit the model's context window and the server did not say its size: "
                f"give it with --context-window N so the reply budget (--max-tokens, now {budget:,}) is fitted "
                f"to it, or lower --max-tokens (server said: {said})")


def _first_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


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
