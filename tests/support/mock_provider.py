"""A scripted OpenAI-compatible chat server for tests and benchmarks.

One file on purpose (~640 lines): the server, its fault queue and its answer rules are one
fake endpoint, read together when a test's expectation needs checking.

A real HTTP server (``http.server.ThreadingHTTPServer``) on 127.0.0.1 and a
free port, implementing ``POST /v1/chat/completions``. It recognises the
pipeline step from the marker line of the system prompt
(``vital_core.backends.openai.prompts``), reads the inputs from the first user message,
and answers from simple rules computed from that content:

- decompose: each numbered sentence, cut at ``;`` and ``, and``, is its claims;
- rank: a claim holding the query's scripted answer, or sharing two or more
  content words with the query, is vital; one shared word okay; else
  less-important; vital first;
- verify: supported when the claim's words appear verbatim in the evidence,
  contradicted when most of its content words do, else not_enough_evidence;
- nuggets: the documents' sentences (up to the limit); vital when they share a
  word with the query; assignment by the same verbatim / overlap rule;
- perturb: missing drops the first sentence; wrong swaps one word of it.

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
import re
import threading
import zlib
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from vital_core.backends.openai import prompts
from vital_core.results.model import TIER_RANK

FAULTS = ("rate_limit", "server_error", "slow", "invalid_json", "truncated", "missing_ids",
          "duplicate_ids", "unknown_label", "bad_perturbation")
_CONTENT_FAULT_STEPS = {
    "missing_ids": {prompts.RANK, prompts.VERIFY, prompts.ASSIGN, prompts.NUGGETS_LABEL},
    "duplicate_ids": {prompts.RANK, prompts.VERIFY, prompts.ASSIGN, prompts.NUGGETS_LABEL},
    "unknown_label": {prompts.RANK, prompts.VERIFY, prompts.ASSIGN, prompts.NUGGETS_LABEL},
    "bad_perturbation": {prompts.PERTURB},
}
_STOP = set("""a an and are as at be but by for from has have he her his in is it its of on or she that the
their they this to was were which who with what when where how why does did do could you answer in paragraph
tell me about""".split())
_ITEM = re.compile(r"^\[(?P<id>[^\]]+)\]\s?(?P<text>.*)$")
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
REASONING_MODES = ("think", "reasoning_content", "reasoning")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _content(text: str) -> set[str]:
    return {w for w in _words(text) if w not in _STOP}


def _norm(text: str) -> str:
    return " ".join(_words(text))


def _block_items(text: str, header: str) -> list[tuple[str, str]]:
    """``[id] text`` lines after ``header`` until a blank line."""
    out, on = [], False
    for line in text.splitlines():
        if line.strip() == header:
            on = True
            continue
        if on:
            if not line.strip():
                break
            m = _ITEM.match(line.strip())
            if m:
                out.append((m.group("id"), m.group("text")))
    return out


def _tag_bodies(text: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}[^>]*>\n?(.*?)\n?</{tag}>", text, flags=re.DOTALL)


def _query(text: str) -> str:
    m = re.search(r"^Query:\s*(.*)$", text, flags=re.MULTILINE)
    return m.group(1).strip() if m else ""


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]


def _as_claim(piece: str) -> str:
    piece = piece.strip().rstrip(".;,").strip()
    return (piece[:1].upper() + piece[1:] + ".") if piece else ""


@dataclass
class RecordedRequest:
    step: str | None
    body: dict
    authorization: str
    fault: str | None
    at: float


@dataclass
class _Fault:
    kind: str
    remaining: int
    step: str | None
    retry_after: float
    delay: float


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
        self._faults: list[_Fault] = []
        self.extra_routes = None    # answers other routes: handle(handler, method) -> bool (tests/support/mock_batches.py)
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
            self._faults.append(_Fault(kind, times, step, retry_after, delay))

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

    def _take_fault(self, step: str | None) -> _Fault | None:
        with self._lock:
            for f in self._faults:
                if f.step is not None and f.step != step:
                    continue
                if f.kind in _CONTENT_FAULT_STEPS and step not in _CONTENT_FAULT_STEPS[f.kind]:
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
        length = int(handler.headers.get("Content-Length") or 0)
        try:
            body = json.loads(handler.rfile.read(length) or b"{}")
        except ValueError:
            return self._send(handler, 400, {"error": {"message": "request body is not JSON"}})
        if not handler.path.rstrip("/").endswith("/chat/completions"):
            return self._send(handler, 404, {"error": {"message": f"no route {handler.path}"}})
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
        if self.reject_response_format and body.get("response_format"):
            return self._send(handler, 400, {"error": {
                "message": "Invalid parameter: 'response_format' of type 'json_schema' is not supported "
                           "by this server.", "type": "invalid_request_error", "param": "response_format"}})
        if self.json_schema_refusal and (body.get("response_format") or {}).get("type") == "json_schema":
            refusal = LLAMA_CPP_PYTHON_JSON_SCHEMA_500 if self.json_schema_refusal >= 500 else OLD_VLLM_JSON_SCHEMA_400
            return self._send(handler, self.json_schema_refusal, refusal)
        if "max_tokens" in self.reject_params and "max_tokens" in body:
            return self._send(handler, 400, {"error": {
                "message": "Unsupported parameter: 'max_tokens' is not supported with this model. "
                           "Use 'max_completion_tokens' instead.", "type": "invalid_request_error"}})
        if "temperature" in self.reject_params and "temperature" in body:
            return self._send(handler, 400, {"error": {
                "message": "Unsupported value: 'temperature' does not support 0.0 with this model.",
                "type": "invalid_request_error"}})
        prompt_chars = sum(len(str(m.get("content", ""))) for m in messages)
        budget = body.get("max_completion_tokens", body.get("max_tokens"))
        if self.context_window and (overflow := self._overflow(prompt_chars // 4 + 1, budget)):
            return self._send(handler, 400, {"error": {"message": overflow, "type": "BadRequestError",
                                                       "param": None, "code": 400}})
        if fault and fault.kind == "rate_limit":
            return self._send(handler, 429, {"error": {"message": "Rate limit reached (mock).",
                                                       "type": "rate_limit_error"}},
                              {"Retry-After": f"{fault.retry_after:g}"})
        if fault and fault.kind == "server_error":
            return self._send(handler, 500, {"error": {"message": "The server had an error (mock).",
                                                       "type": "server_error"}})
        if fault and fault.kind == "slow":
            time.sleep(fault.delay)
        structured = (body.get("response_format") or {}).get("type") in ("json_schema", "json_object")
        user = next((m.get("content", "") for m in messages if m.get("role") == "user"), "")
        reply = self._answer(step, system, user, fault.kind if fault else None)
        if self.small_model:
            reply = _small_model_reply(step, reply)
        draft = json.dumps(self._draft(reply)) if self.reasoning else ""
        content = self._render(step, reply, structured)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if self.reasoning == "think":
            message["content"] = f"<think>\nA first draft:\n{draft}\nNo, let me check each item again.\n</think>\n\n{content}"
        elif self.reasoning in ("reasoning_content", "reasoning"):
            answer = content if content.lstrip().startswith("{") else json.dumps(self._plain(reply))
            message["content"] = None if self.reasoning == "reasoning_content" else ""
            message[self.reasoning] = f"A first draft: {draft}\nOn checking again, the answer is:\n{answer}"
        finish = "stop"
        if fault and fault.kind == "invalid_json":
            message["content"] = "Sure! Here are the results: {\"oops\": [1, 2,"
        if fault and fault.kind == "truncated":
            message["content"], finish = content[:max(1, len(content) // 2)], "length"
        said = message.get(self.reasoning) if self.reasoning in ("reasoning_content", "reasoning") else message["content"]
        usage = {"prompt_tokens": prompt_chars // 4 + 1, "completion_tokens": len(said or "") // 4 + 1}
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

    def _overflow(self, prompt_tokens: int, budget: int | None) -> str | None:
        """vLLM's refusal when the prompt, or the prompt plus the reply budget, exceeds the window."""
        window = self.context_window
        if prompt_tokens >= window:
            return (f"This model's maximum context length is {window} tokens. However, your request has "
                    f"{prompt_tokens} input tokens. Please reduce the length of the input messages.")
        if budget is not None and prompt_tokens + budget > window:
            return (f"'max_tokens' or 'max_completion_tokens' is too large: {budget}. This model's maximum "
                    f"context length is {window} tokens and your request has {prompt_tokens} input tokens "
                    f"({budget} > {window} - {prompt_tokens}).")
        return None

    @staticmethod
    def _draft(reply: Any) -> Any:
        """A reasoning model's first draft: the same shape, other values (read as the answer, it changes
        every number)."""
        swap = {"vital": "less-important", "okay": "vital", "less-important": "okay",
                "supported": "contradicted", "contradicted": "not_enough_evidence",
                "not_enough_evidence": "supported", "support": "not_support", "not_support": "support",
                "partial_support": "support"}
        if isinstance(reply, dict):
            out = {}
            for k, v in reply.items():
                if k == "claims" and isinstance(v, list):
                    out[k] = [" ".join(v)] if v else v            # one claim per sentence, not atomic
                elif k == "nuggets" and isinstance(v, list) and all(isinstance(x, str) for x in v):
                    out[k] = v[:1]
                elif k == "modified_response":
                    out[k] = "A draft that changes nothing."
                else:
                    out[k] = MockProvider._draft(v)
            return out
        if isinstance(reply, list):
            return [MockProvider._draft(x) for x in reply]
        return swap.get(reply, reply) if isinstance(reply, str) else reply

    @staticmethod
    def _plain(reply: Any) -> Any:
        """The reply as JSON (the rank step's rendering keeps a ``text`` only for its lines)."""
        if isinstance(reply, dict) and "ranking" in reply:
            return {"ranking": [{k: v for k, v in i.items() if not k.startswith("_")} for i in reply["ranking"]]}
        return reply

    def _transport_fault(self, handler, fault: _Fault) -> bool:
        """A subclass's own fault: answer (or not) and return True; the base has none."""
        return False

    # ------------------------------------------------------------ scripted answers
    def _key_answer(self, query: str) -> str | None:
        for q, answer in self.answers.items():
            if q.lower() in query.lower():
                return answer
        return None

    def _importance(self, query: str, claim: str) -> str:
        answer = self._key_answer(query)
        if answer and answer.lower() in claim.lower():
            return "vital"
        shared = len(_content(query) & _content(claim))
        return "vital" if shared >= 2 else "okay" if shared == 1 else "less-important"

    def _answer(self, step: str | None, system: str, user: str, fault: str | None) -> Any:
        query = _query(user)
        if step == prompts.DECOMPOSE:
            out = []
            for sid, sentence in _block_items(user, prompts.SENTENCES_HEADER):
                pieces = re.split(r";\s+|,\s+and\s+", sentence)
                out.append({"sentence": int(sid), "claims": [c for c in map(_as_claim, pieces) if c]})
            return {"sentences": out}
        if step == prompts.RANK:
            claims = _block_items(user, prompts.CLAIMS_HEADER)
            labelled = [(cid, text, self._importance(query, text)) for cid, text in claims]
            labelled.sort(key=lambda x: TIER_RANK[x[2]])
            items = [{"id": cid, "label": label, "text": text} for cid, text, label in labelled]
            return {"ranking": self._spoil(items, fault, "label", "so-so")}
        if step == prompts.VERIFY:
            evidence = " ".join(_tag_bodies(user, "passage"))
            items = []
            for cid, text in _block_items(user, prompts.CLAIMS_HEADER):
                verdict, quote = self._judge(text, evidence)
                verdict = {"support": "supported", "partial_support": "contradicted",
                           "not_support": "not_enough_evidence"}[verdict]
                items.append({"id": cid, "verdict": verdict, "reason": f"Mock rule: {verdict}.",
                              "evidence": quote})
            return {"verdicts": self._spoil(items, fault, "verdict", "probably")}
        if step == prompts.NUGGETS_CREATE:
            limit = int((re.search(r"at most (\d+) nuggets", user) or [0, 30])[1])
            current = [t for _, t in _block_items(user, "Nuggets found so far:")]
            for doc in _tag_bodies(user, "document"):
                for s in _sentences(doc):
                    if len(current) < limit and s not in current:
                        current.append(s)
            return {"nuggets": current}
        if step == prompts.NUGGETS_LABEL:
            items = [{"id": nid, "importance": "vital" if _content(query) & _content(text) else "okay"}
                     for nid, text in _block_items(user, prompts.NUGGETS_HEADER)]
            return {"labels": self._spoil(items, fault, "importance", "crucial")}
        if step == prompts.ASSIGN:
            response = " ".join(_tag_bodies(user, "response"))
            items = [{"id": nid, "assignment": self._judge(text, response)[0]}
                     for nid, text in _block_items(user, prompts.NUGGETS_HEADER)]
            return {"assignments": self._spoil(items, fault, "assignment", "maybe")}
        if step == prompts.PERTURB:
            answer = " ".join(_tag_bodies(user, "answer")).strip()
            if fault == "bad_perturbation":
                return {"modified_response": answer}
            sentences = _sentences(answer)
            if "v=missing" in system:
                return {"modified_response": " ".join(sentences[1:]) if len(sentences) > 1 else ""}
            first = sentences[0] if sentences else answer
            key = self._key_answer(query)
            if key and key in first:
                changed = first.replace(key, "Zanzibar", 1)
            else:
                words = first.split()
                idx = next((i for i in range(len(words) - 1, 0, -1) if len(words[i].strip(".,")) > 3), 0)
                words[idx] = "Zanzibar" + ("." if words[idx].endswith(".") else "")
                changed = " ".join(words)
            return {"modified_response": " ".join([changed] + sentences[1:])}
        return {"error": "unknown step"}

    @staticmethod
    def _judge(claim: str, source: str) -> tuple[str, str]:
        """support (verbatim) / partial_support (most content words) / not_support, and a quote."""
        if not source.strip():
            return "not_support", ""
        norm_claim, norm_source = _norm(claim), _norm(source)
        if norm_claim and norm_claim in norm_source:
            return "support", claim.rstrip(".")
        words = _content(claim)
        if words and len(words & _content(source)) / len(words) >= 0.6:
            return "partial_support", ""
        return "not_support", ""

    @staticmethod
    def _spoil(items: list[dict], fault: str | None, key: str, bad_value: str) -> list[dict]:
        if not items:
            return items
        if fault == "missing_ids":
            return items[:-1]
        if fault == "duplicate_ids":
            return items + [dict(items[0])]
        if fault == "unknown_label":
            return [dict(items[0], **{key: bad_value})] + items[1:]
        return items

    @staticmethod
    def _render(step: str | None, reply: Any, structured: bool) -> str:
        if step == prompts.RANK:
            for item in reply.get("ranking", []):
                item_text = item.pop("text", "")
                if not structured:
                    item["_line"] = f'[{item["id"]}] {item_text}: "{item["label"]}"'
        if structured:
            return json.dumps(reply)
        if step == prompts.RANK:
            return "Ranked Claims:\n" + "\n".join(i.pop("_line") for i in reply["ranking"])
        return "Here is the result:\n```json\n" + json.dumps(reply, indent=1) + "\n```"


# ---------------------------------------------------------------- a small local model's manners
_SMALL_WORDS = {"label": {"vital": "Vital", "okay": "medium", "less-important": "Low"},
                "verdict": {"supported": "Entailed", "contradicted": "partially supported",
                            "not_enough_evidence": "Not enough evidence"},
                "importance": {"vital": "High", "okay": "OK"},
                "assignment": {"support": "Supported", "partial_support": "Partially supported",
                               "not_support": "not supported"}}


def _hash(text: str, n: int) -> int:
    return zlib.crc32(text.encode("utf-8")) % n


def _left_out(text: str, in_long_request: bool) -> bool:
    """Left out always (about 1 in 9), or only in a request of several items (about 1 in 4 more)."""
    return _hash(text, 9) == 0 or (in_long_request and _hash(text, 4) == 0)


def _small_model_reply(step: str | None, reply: Any) -> Any:
    """The well-behaved reply as a small local model gives it: its own words for the labels, objects for
    claims and nuggets, items left out. Deterministic from the content, so a re-run replays it."""
    if step == prompts.DECOMPOSE:
        items = reply["sentences"]
        kept = [i for i in items if not _left_out(" ".join(i["claims"]) or str(i["sentence"]), len(items) > 1)]
        return {"sentences": [{"sentence": i["sentence"], "claims": [{"claim": c} for c in i["claims"]]}
                              for i in kept]}
    if step == prompts.NUGGETS_CREATE:
        return {"nuggets": [{"nugget": t} for t in reply["nuggets"]]}
    for list_key, value_key in (("ranking", "label"), ("verdicts", "verdict"), ("labels", "importance"),
                                ("assignments", "assignment")):
        if isinstance(reply, dict) and list_key in reply:
            items = reply[list_key]
            if step == prompts.VERIFY:   # claim ids left out
                items = [i for i in items if not _left_out(i["id"] + i.get("reason", "") + i["evidence"],
                                                           len(items) > 1)]
            if step == prompts.RANK:     # a claim left unranked (the same in every attempt)
                items = [i for i in items if _hash(i["id"] + i.get("text", ""), 13)]
            words = _SMALL_WORDS[value_key]
            return {list_key: [dict(i, **{value_key: words.get(i[value_key], i[value_key])}) for i in items]}
    return reply


# Facts for sample records: (topic, question, answer, wrong answer, extra facts).
_FACTS = [
    ("Geronimo", "Of which tribe was Geronimo a leader", "Apache", "Sioux",
     ["Geronimo was born in 1829 near the Gila River", "Geronimo surrendered in 1886"]),
    ("The Eiffel Tower", "In which city is the Eiffel Tower", "Paris", "Lyon",
     ["The Eiffel Tower was completed in 1889", "The Eiffel Tower is made of wrought iron"]),
    ("Hamlet", "Who wrote the play Hamlet", "Shakespeare", "Marlowe",
     ["Hamlet is set in Denmark", "Hamlet was written around 1600"]),
    ("The Nile", "Into which sea does the Nile flow", "Mediterranean", "Red",
     ["The Nile flows through Egypt", "The Nile is about 6650 kilometres long"]),
    ("Penicillin", "Who discovered penicillin", "Fleming", "Pasteur",
     ["Penicillin was discovered in 1928", "Penicillin is an antibiotic"]),
    ("Mount Kilimanjaro", "In which country is Mount Kilimanjaro", "Tanzania", "Kenya",
     ["Mount Kilimanjaro is a dormant volcano", "Mount Kilimanjaro has three volcanic cones"]),
]


def sample_answers() -> dict[str, str]:
    """Query fragment -> key answer, for ``MockProvider(answers=...)``."""
    return {question: answer for _, question, answer, _, _ in _FACTS}


def sample_records(n: int = 4, *, with_variants: bool = True) -> list[dict]:
    """Input records (project JSONL shape) whose scoring through the mock is varied:
    supported, contradicted and unsupported claims; vital, okay and less-important ones."""
    out = []
    for i in range(n):
        topic, question, answer, wrong, extra = _FACTS[i % len(_FACTS)]
        key = f"{topic} is associated with {answer}, and {topic} is widely known"
        normal = (f"{key}. {extra[0]}; {extra[1]}. "
                  f"Many visitors ask about {topic.lower()} every year, and guides mention it often.")
        documents = [f"{key}. {extra[0]}. {extra[1]}.",
                     f"Unrelated note number {i}. Guides like to talk about weather."]
        responses = {"normal": normal}
        if with_variants:
            responses["missing"] = normal[len(key) + 2:]
            responses["wrong"] = normal.replace(answer, wrong, 1)
        out.append({"id": f"q{i + 1}", "query": f"{question}?", "responses": responses,
                    "documents": documents, "reference": None})
    return out


def mock_provider_fixture():
    """Generator behind the ``mock_provider`` fixture."""
    with MockProvider() as mock:
        yield mock


try:  # a ready-made fixture: ``from tests.support.mock_provider import mock_provider``
    import pytest

    mock_provider = pytest.fixture(mock_provider_fixture, name="mock_provider")
except ImportError:  # pragma: no cover - usable without pytest (benchmarks)
    pass
