"""A scripted OpenAI-compatible chat server for tests and benchmarks.

The server and its request handling live here; its answer rules in ``mock_answers``, its fault table
and the refusals of real servers in ``mock_faults``, a small model's manners in ``mock_small_model`` and
the sample records it answers well in ``mock_samples``.

A real HTTP server (``http.server.ThreadingHTTPServer``) on 127.0.0.1 and a
free port, implementing ``POST /v1/chat/completions``. It recognises the
pipeline step from the marker line of the system prompt
(``vital_core.backends.openai.prompts``), reads the inputs from the first user message,
and answers from simple rules computed from that content (``mock_answers``).

Replies carry ``usage``; with a JSON-schema ``response_format`` the content is
the bare JSON object, without one it is fenced JSON with a preface (rank:
``[S1] claim: "label"`` lines), so the robust parser is exercised too.

Faults are queued with ``inject(kind, times=..., step=...)`` and consumed by
the next matching requests: ``rate_limit`` (429 with ``Retry-After``),
``server_error`` (500), ``slow`` (reply after ``delay`` s, past the client's
timeout), ``invalid_json``, ``truncated`` (``finish_reason: "length"``),
``missing_ids``, ``duplicate_ids``, ``unknown_label`` (rank / verify / assign /
nugget labels), ``bad_perturbation`` (returns the answer unchanged).
``small_model=True`` answers as small local models do (``_small_model_reply``): labels in their own
words ("Vital", "High", "Entailed", "partially supported"), claims and nuggets as objects, and some
sentences and claim ids left out - some only in a long request (given when asked for alone), some
always - and a few claims never ranked. ``reject_response_format=True`` makes it answer 400 to any ``response_format``;
``reject_params=("max_tokens", "temperature")`` does the same for those parameters.

How real servers differ, each switchable (the client's table in docs/openai-backend.md):

- ``json_schema_refusal=400``: old vLLM, 400 with pydantic's literal error for a ``json_schema``
  ``response_format`` (``json_object`` works); ``=500``: llama-cpp-python's server, the same
  error answered as HTTP 500 (``LLAMA_CPP_PYTHON_JSON_SCHEMA_500``, its body as 0.3.36 sends it);
- ``reasoning="think"``: a reasoning model that thinks in ``content``, writing a *draft* JSON
  (different values) inside ``<think>…</think>`` before the answer; ``"reasoning_content"`` /
  ``"reasoning"``: the answer only in that message field (after a draft), ``content`` empty
  (vLLM and llama.cpp spell it ``reasoning_content``; newer vLLM, Ollama and OpenRouter ``reasoning``);
- ``context_window=4096``: prompt + ``max_tokens`` over the window is refused with vLLM's message
  ("'max_tokens' or 'max_completion_tokens' is too large: …"), a prompt alone over it with
  "… your request has N input tokens"; a reply longer than ``max_tokens`` is cut off
  (``finish_reason: "length"``); ``serve_window=True`` lists it as ``max_model_len`` in
  ``/v1/models`` (vLLM does).

Use as a context manager (``with MockProvider() as mock: mock.base_url``) or
through the ``mock_provider`` pytest fixture (import it into a test module).
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.mock_answers import answer, draft, plain, render
from tests.support.mock_faults import FAULTS, Fault, Reply, fault_reply, overflow, refusal
from tests.support.mock_small_model import small_model_reply
from vital_core.backends.openai import prompts

REASONING_MODES = ("think", "reasoning_content", "reasoning")


@dataclass
class RecordedRequest:
    step: str | None
    body: dict
    authorization: str
    fault: str | None
    at: float


@dataclass
class MockProvider:
    latency: float = 0.0                       # seconds added to every reply
    latency_per_token: float = 0.0             # and per reply token (a model's time grows with its output)
    answers: dict[str, str] = field(default_factory=dict)  # query substring -> key answer word(s)
    reject_response_format: bool = False
    reject_params: tuple[str, ...] = ()        # "max_tokens" / "temperature": answered with 400, like o-series models
    model_name: str = "mock-model"
    small_model: bool = False                  # answer as a small local model does (see _small_model_reply)
    json_schema_refusal: int | None = None     # 400 (old vLLM) / 500 (llama-cpp-python) to a json_schema format
    reasoning: str | None = None               # think / reasoning_content / reasoning (REASONING_MODES)
    context_window: int | None = None          # tokens; None = no limit
    serve_window: bool = False                 # list context_window as max_model_len in /v1/models

    def __post_init__(self):
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0          # requests being answered right now
        self.max_in_flight = 0      # the most ever answered at once (concurrency checks)
        self._faults: list[Fault] = []
        self.extra_routes = None    # answers other routes: handle(handler, method) -> bool (mock_batches.py)
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ lifecycle
    def start(self) -> "MockProvider":
        provider = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True   # else headers + body in two writes cost a 40 ms delayed ACK

            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                if provider.extra_routes is not None and provider.extra_routes.handle(self, "POST"):
                    return
                with provider._lock:
                    provider.in_flight += 1
                    provider.max_in_flight = max(provider.max_in_flight, provider.in_flight)
                try:
                    provider._handle(self)
                finally:
                    with provider._lock:
                        provider.in_flight -= 1

            def do_GET(self):
                if provider.extra_routes is not None and provider.extra_routes.handle(self, "GET"):
                    return
                if self.path.rstrip("/").endswith("/models"):
                    entry = {"id": provider.model_name, "object": "model"}
                    if provider.serve_window and provider.context_window:
                        entry["max_model_len"] = provider.context_window
                    provider._send(self, 200, {"object": "list", "data": [entry]})
                else:
                    provider._send(self, 404, {"error": {"message": "not found"}})

        class Server(ThreadingHTTPServer):
            request_queue_size = 256   # the default backlog (5) drops connections under concurrency
            daemon_threads = True

        self._server = Server(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="mock-provider", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "MockProvider":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "start the mock first"
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # ------------------------------------------------------------ control
    fault_kinds = FAULTS   # a subclass adds its own (tests/support/hostile_provider.py)

    def inject(self, kind: str, *, times: int = 1, step: str | None = None, retry_after: float = 1,
               delay: float = 2.0) -> None:
        if kind not in self.fault_kinds:
            raise ValueError(f"unknown fault {kind!r}; expected one of {self.fault_kinds}")
        with self._lock:
            self._faults.append(Fault(kind, times, step, retry_after, delay))

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def count(self, step: str | None = None) -> int:
        with self._lock:
            return sum(1 for r in self.requests if step is None or r.step == step)

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._faults.clear()
            self.max_in_flight = 0

    def _take_fault(self, step: str | None) -> Fault | None:
        with self._lock:
            for f in self._faults:
                if not f.applies_to(step):
                    continue
                f.remaining -= 1
                if f.remaining <= 0:
                    self._faults.remove(f)
                return f
        return None

    # ------------------------------------------------------------ HTTP
    @staticmethod
    def _send(handler, status: int, payload: dict, headers: dict | None = None) -> None:
        data = json.dumps(payload).encode("utf-8")
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                handler.send_header(k, v)
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
            pass

    def _handle(self, handler) -> None:
        """One chat request: read and recorded, then answered by a transport fault, a refusal, or the
        scripted reply."""
        body = self._read_body(handler)
        if body is None:
            return None
        messages = body.get("messages") or []
        system = next((m.get("content", "") for m in messages if m.get("role") == "system"), "")
        step = prompts.step_of(system)
        fault = self._take_fault(step)
        with self._lock:
            self.requests.append(RecordedRequest(step, body, handler.headers.get("Authorization", ""),
                                                 fault.kind if fault else None, time.time()))
        if self.latency:
            time.sleep(self.latency)
        if fault and self._transport_fault(handler, fault):
            return None
        refused = self._refusal(body, fault)
        if refused is not None:
            return self._send(handler, *refused)
        if fault and fault.kind == "slow":
            time.sleep(fault.delay)
        self._reply(handler, step, system, body, fault)

    def _read_body(self, handler) -> dict | None:
        """The request's JSON body; None once a 400 (not JSON) or 404 (another route) is answered."""
        length = int(handler.headers.get("Content-Length") or 0)
        try:
            body = json.loads(handler.rfile.read(length) or b"{}")
        except ValueError:
            self._send(handler, 400, {"error": {"message": "request body is not JSON"}})
            return None
        if not handler.path.rstrip("/").endswith("/chat/completions"):
            self._send(handler, 404, {"error": {"message": f"no route {handler.path}"}})
            return None
        return body

    def _refusal(self, body: dict, fault: Fault | None) -> Reply | None:
        """What this server refuses in the request (a format, a parameter, the context window), else the
        queued rate limit or outage, else None."""
        refused = refusal(body, reject_response_format=self.reject_response_format,
                          json_schema_refusal=self.json_schema_refusal, reject_params=self.reject_params)
        if refused is not None:
            return refused
        budget = body.get("max_completion_tokens", body.get("max_tokens"))
        if self.context_window and (said := self._overflow(_prompt_tokens(body), budget)):
            return 400, {"error": {"message": said, "type": "BadRequestError", "param": None, "code": 400}}, None
        return fault_reply(fault)

    def _overflow(self, prompt_tokens: int, budget: int | None) -> str | None:
        return overflow(self.context_window, prompt_tokens, budget)

    def _reply(self, handler, step: str | None, system: str, body: dict, fault: Fault | None) -> None:
        """The scripted answer, as this server writes it, with the content faults applied."""
        structured = (body.get("response_format") or {}).get("type") in ("json_schema", "json_object")
        user = next((m.get("content", "") for m in body.get("messages") or [] if m.get("role") == "user"), "")
        reply = self._answer(step, system, user, fault.kind if fault else None)
        if self.small_model:
            reply = small_model_reply(step, reply)
        message, content = self._message(step, reply, structured)
        finish = "stop"
        if fault and fault.kind == "invalid_json":
            message["content"] = "Sure! Here are the results: {\"oops\": [1, 2,"
        if fault and fault.kind == "truncated":
            message["content"], finish = content[:max(1, len(content) // 2)], "length"
        in_reasoning = self.reasoning in ("reasoning_content", "reasoning")
        said = message.get(self.reasoning) if in_reasoning else message["content"]
        usage = {"prompt_tokens": _prompt_tokens(body), "completion_tokens": len(said or "") // 4 + 1}
        budget = body.get("max_completion_tokens", body.get("max_tokens"))
        if self.context_window and budget is not None and usage["completion_tokens"] > budget:
            message["content"], finish = (said or "")[:budget * 4], "length"     # the reply budget ran out
            message.pop(self.reasoning or "", None)
        if self.latency_per_token:
            time.sleep(self.latency_per_token * usage["completion_tokens"])
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        self._send(handler, 200, {
            "id": f"chatcmpl-mock-{len(self.requests)}", "object": "chat.completion",
            "created": int(time.time()), "model": body.get("model") or self.model_name,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage})

    def _message(self, step: str | None, reply: Any, structured: bool) -> tuple[dict, str]:
        """The assistant message (with a reasoning model's thinking where it puts it) and its answer text."""
        first_draft = json.dumps(draft(reply)) if self.reasoning else ""   # before render, which edits reply
        content = self._render(step, reply, structured)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if self.reasoning == "think":
            message["content"] = (f"<think>\nA first draft:\n{first_draft}\nNo, let me check each item again.\n"
                                  f"</think>\n\n{content}")
        elif self.reasoning in ("reasoning_content", "reasoning"):
            answer_text = content if content.lstrip().startswith("{") else json.dumps(plain(reply))
            message["content"] = None if self.reasoning == "reasoning_content" else ""
            message[self.reasoning] = f"A first draft: {first_draft}\nOn checking again, the answer is:\n{answer_text}"
        return message, content

    def _transport_fault(self, handler, fault: Fault) -> bool:
        """A subclass's own fault: answer (or not) and return True; the base has none."""
        return False

    # ------------------------------------------------------------ scripted answers (mock_answers)
    def _answer(self, step: str | None, system: str, user: str, fault: str | None) -> Any:
        return answer(step, system, user, fault, self.answers)

    @staticmethod
    def _render(step: str | None, reply: Any, structured: bool) -> str:
        return render(step, reply, structured)


def _prompt_tokens(body: dict) -> int:
    """The request's prompt tokens as this server counts them: characters / 4."""
    return sum(len(str(m.get("content", ""))) for m in body.get("messages") or []) // 4 + 1


def mock_provider_fixture():
    """Generator behind the ``mock_provider`` fixture."""
    with MockProvider() as mock:
        yield mock


try:  # a ready-made fixture: ``from tests.support.mock_provider import mock_provider``
    import pytest

    mock_provider = pytest.fixture(mock_provider_fixture, name="mock_provider")
except ImportError:  # pragma: no cover - usable without pytest (benchmarks)
    pass
