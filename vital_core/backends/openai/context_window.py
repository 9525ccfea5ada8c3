"""The model's context window and the reply budget fitted to it.

The window is given (``context_window``), served (vLLM's ``/v1/models`` ``max_model_len``, llama.cpp's
``/props``) or read from the first context error's numbers; the reply budget (``max_tokens``) of each
request is what the window leaves after the prompt. When nothing fits, the error is one sentence naming the
option to change. A window is never stored on disk: it is asked again each run.

``ContextWindow`` is a part of ``client.LLMClient``: it reads the client's ``settings`` and ``usage``, its
``_resources()`` (the HTTP client of the running loop) and ``_probes`` (the probe under way per loop).
"""
from __future__ import annotations

import asyncio
import logging
import threading

from vital_core.backends.openai.endpoint import (
    EndpointRefusal,
    canonical_base_url,
    endpoint_of,
    first_line,
    report_once,
)
from vital_core.backends.openai.retrieval import estimate_tokens
from vital_core.backends.openai.server_errors import ContextOverflow

log = logging.getLogger("vital_core.backends.openai")

MIN_REPLY_TOKENS = 256       # a reply budget below this is no budget: the request does not fit


class ContextWindow:
    # Windows known this process, (base_url, model) -> tokens or None (asked, not said). Never stored on
    # disk: a window is asked again each run, or read again from the first context error.
    _windows: dict[tuple[str, str], int | None] = {}
    _windows_lock = threading.Lock()

    @property
    def context_window(self) -> int | None:
        """The model's context window in tokens: given, or served or learnt this process (the smaller of
        the two when both are known: the server's own number wins over a wrong setting), else None."""
        with self._windows_lock:
            learnt = self._windows.get(endpoint_of(self.settings))
        given = int(self.settings.context_window) if self.settings.context_window else None
        return min(w for w in (given, learnt) if w) if (given or learnt) else None

    def _learn_window(self, tokens: int, source: str = "its context-length error") -> None:
        endpoint = endpoint_of(self.settings)
        with self._windows_lock:
            known = self._windows.get(endpoint)
            self._windows[endpoint] = min(known, tokens) if known else tokens
        self._report_window(tokens, source)

    def _report_window(self, tokens: int, source: str) -> None:
        report_once(self.usage, self.settings,
                    f"the model's context window is {tokens:,} tokens (the server said so in {source}); reply "
                    "budgets (max_tokens) are fitted to it")

    async def probe_context_window(self) -> int | None:
        """Ask the server for the model's context window once per process and endpoint: vLLM serves
        ``max_model_len`` in ``/v1/models``, llama.cpp ``n_ctx`` in ``/props``. None when neither says
        (OpenAI, Ollama) or when ``context_window`` was given."""
        if self.settings.context_window or not self.settings.base_url:
            return self.context_window
        endpoint, loop = endpoint_of(self.settings), asyncio.get_running_loop()
        with self._windows_lock:
            if endpoint in self._windows:
                return self._windows[endpoint]
            probe = self._probes.get(id(loop))
            if probe is None or probe.get_loop() is not loop:   # none, or a closed loop's
                probe = asyncio.ensure_future(self._ask_window())
                self._probes[id(loop)] = probe
        window, source = await asyncio.shield(probe)   # a caller's deadline must not cancel the others' probe
        if window:
            self._report_window(window, source)
        with self._windows_lock:
            self._windows.setdefault(endpoint, window)
            return self._windows[endpoint]

    async def _ask_window(self) -> tuple[int | None, str]:
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
        return await self._ask_props(client, timeout)

    async def _ask_props(self, client, timeout: float) -> tuple[int | None, str]:
        """llama.cpp's ``/props`` (beside ``/v1``, not under it)."""
        import httpx
        root = canonical_base_url(self.settings.base_url)
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

    def _overflow_sentence(self, exc: BaseException, overflow: ContextOverflow, budget: int) -> str:
        window = overflow.window or self.context_window
        said = first_line(exc)
        if window:
            return (f"the request does not fit the model's {window:,}-token context window even with the reply "
                    f"budget fitted to {budget:,} tokens: lower --evidence-tokens (less evidence per call) or "
                    f"--max-tokens, or serve the model with a larger window (server said: {said})")
        return (f"the request does not fit the model's context window and the server did not say its size: "
                f"give it with --context-window N so the reply budget (--max-tokens, now {budget:,}) is fitted "
                f"to it, or lower --max-tokens (server said: {said})")
