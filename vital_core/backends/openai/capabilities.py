"""What an endpoint takes, learnt once per endpoint and model.

Requests ask for structured output (``response_format`` = JSON schema); an endpoint that does not accept
it (a 400/422 naming it, or a 5xx whose body says so: ``server_errors``) is stepped down to
``json_object``, then to plain text with the robust parser. A model refusing ``max_tokens`` gets
``max_completion_tokens``, one refusing a temperature gets its default. Each step is learnt once per
endpoint and model, reported once (``usage`` notes, the log) and remembered across runs in the reply
cache. Only a refusal classified as such is remembered: a context-window error never is.

``EndpointCapabilities`` is a part of ``client.LLMClient``: it reads the client's ``settings``, ``usage``
and ``cache``.
"""
from __future__ import annotations

import hashlib
import json
import threading

from vital_core.backends.openai import prompts
from vital_core.backends.openai.endpoint import EndpointRefusal, endpoint_of, first_line, report_once
from vital_core.backends.openai.server_errors import JSON_OBJECT, JSON_SCHEMA, Rejection

# What an endpoint was found not to take, as stored per (endpoint, model), and how a run reports it.
NO_JSON_SCHEMA, NO_RESPONSE_FORMAT = "no_json_schema", "no_response_format"
MAX_COMPLETION_TOKENS, NO_TEMPERATURE = "max_completion_tokens", "no_temperature"
CAPABILITY_NOTES = {
    NO_JSON_SCHEMA: "this server does not accept json_schema; using json_object",
    NO_RESPONSE_FORMAT: "this server accepts neither json_schema nor json_object; using plain text with the "
                        "tolerant parser",
    MAX_COMPLETION_TOKENS: "this model does not take max_tokens; using max_completion_tokens",
    NO_TEMPERATURE: "this model does not take a temperature; using its default"}


class EndpointCapabilities:
    # Endpoint capability downgrades learnt this process: (base_url, model) -> set of flags.
    _learnt: dict[tuple[str, str], set[str]] = {}
    _learnt_lock = threading.Lock()

    def _caps_key(self) -> str:
        raw = json.dumps(endpoint_of(self.settings)).encode("utf-8")
        return "caps:" + hashlib.sha256(raw).hexdigest()

    def capabilities(self) -> set[str]:
        """Downgrades learnt for this endpoint and model: no_json_schema, no_response_format,
        max_completion_tokens, no_temperature (``CAPABILITY_NOTES``)."""
        endpoint = endpoint_of(self.settings)
        with self._learnt_lock:
            flags = self._learnt.get(endpoint)
        if flags is None:
            stored = self.cache.get(self._caps_key()) if self.cache is not None else None
            flags = set(stored or ())
            with self._learnt_lock:
                self._learnt.setdefault(endpoint, set()).update(flags)
                flags = set(self._learnt[endpoint])
            for flag in sorted(flags):   # learnt in an earlier run: this run says so too
                self._report(flag, " (learnt earlier, kept in the cache)")
        return set(flags)

    def _report(self, flag: str, suffix: str = "") -> None:
        report_once(self.usage, self.settings, CAPABILITY_NOTES.get(flag, flag) + suffix)

    def _learn(self, flag: str) -> None:
        """Remember a refusal classified by ``server_errors`` (never anything else) and report it once."""
        with self._learnt_lock:
            flags = self._learnt.setdefault(endpoint_of(self.settings), set())
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
                    f"takes ({first_line(exc)})") from None
            self._learn(NO_JSON_SCHEMA if rejection.level == JSON_SCHEMA else NO_RESPONSE_FORMAT)
        elif rejection.param == "max_tokens":
            self._learn(MAX_COMPLETION_TOKENS)
        else:
            self._learn(NO_TEMPERATURE)
