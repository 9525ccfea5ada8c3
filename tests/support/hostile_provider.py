"""A hostile OpenAI-compatible server: the mock provider plus the faults a careless or broken endpoint
commits, injectable per pipeline step (``inject(kind, step=..., times=...)``).

Transport and protocol faults, on top of ``mock_faults.FAULTS``:

- ``garbage_body``: 200 with an HTML body (not JSON at all);
- ``empty_choices``: 200 with ``choices: []``;
- ``null_content``: 200 whose message content is null;
- ``wrong_types``: 200 with valid JSON of the wrong shape (``{"result": 42}``);
- ``bad_request`` / ``unauthorized``: 400 / 401 (not retried);
- ``disconnect``: the connection is closed without an answer;
- ``hang``: no answer for ``delay`` seconds, then the connection is closed;
- ``huge_retry_after``: 429 with ``Retry-After: 86400`` (a day).

``hostile_run`` scores records through the real client and the real HTTP server
with one fault made persistent on one step, and returns what a checker needs.
"""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.mock_faults import FAULTS
from tests.support.mock_provider import MockProvider
from tests.support.mock_samples import sample_answers, sample_records
from vital_core.backends.openai import prompts

HOSTILE_FAULTS = ("garbage_body", "empty_choices", "null_content", "wrong_types", "bad_request", "unauthorized",
                  "disconnect", "hang", "huge_retry_after")
STEPS = (prompts.DECOMPOSE, prompts.RANK, prompts.VERIFY, prompts.NUGGETS_CREATE, prompts.NUGGETS_LABEL,
         prompts.ASSIGN)
# Every fault kind a run can face: the mock's (some are repaired by a retry) and the hostile ones.
ALL_FAULTS = ("rate_limit", "server_error", "slow", "invalid_json", "truncated", "missing_ids",
              "duplicate_ids", "unknown_label") + HOSTILE_FAULTS


def _completion(content) -> dict:
    return {"id": "chatcmpl-hostile", "object": "chat.completion", "created": int(time.time()), "model": "mock",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


class HostileProvider(MockProvider):
    fault_kinds = FAULTS + HOSTILE_FAULTS

    def _transport_fault(self, handler, fault) -> bool:
        kind = fault.kind
        if kind not in HOSTILE_FAULTS:
            return False
        if kind in ("disconnect", "hang"):
            if kind == "hang":
                time.sleep(fault.delay)
            handler.close_connection = True
            try:
                handler.connection.close()
            except OSError:
                pass
            return True
        if kind == "garbage_body":
            data = b"<html><body>502 Bad Gateway</body></html>"
            handler.send_response(200)
            handler.send_header("Content-Type", "text/html")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            return True
        status, payload, headers = {
            "empty_choices": (200, {**_completion(""), "choices": []}, None),
            "null_content": (200, _completion(None), None),
            "wrong_types": (200, _completion(json.dumps({"result": 42})), None),
            "bad_request": (400, {"error": {"message": "Bad request (hostile).", "type": "invalid_request_error"}},
                            None),
            "unauthorized": (401, {"error": {"message": "Invalid API key (hostile).", "type": "auth_error"}}, None),
            "huge_retry_after": (429, {"error": {"message": "Come back tomorrow.", "type": "rate_limit_error"}},
                                 {"Retry-After": "86400"}),
        }[kind]
        self._send(handler, status, payload, headers)
        return True


@dataclass
class HostileRun:
    step: str
    fault: str
    ids_in: list[str]
    ids_out: list[str]
    lines: list[dict]
    frame: object                                   # the dataset frame of the output
    unretrieved: list[str] = field(default_factory=list)   # "Task exception was never retrieved" and the like
    elapsed: float = 0.0


def hostile_records(n: int = 3) -> list[dict]:
    """Sample records with documents (nuggets) plus one with a reference answer and no documents."""
    records = sample_records(n)
    with_reference = dict(records[0], id="ref", documents=None, reference=records[0]["responses"]["normal"])
    return records + [with_reference]


def hostile_run(provider: HostileProvider, work: Path, step: str, fault: str, *,
                record_timeout: float = 8.0, retry_after_max: float = 0.2) -> HostileRun:
    """Score ``hostile_records`` with ``fault`` on every call of ``step``; nothing cached between runs."""
    from vital_core.backends.openai.backend import OpenAICompatBackend
    from vital_core.results.dataset import load_dataset
    from vital_core.scoring.inputs import read_inputs
    from vital_core.scoring.runs import run_batch

    work.mkdir(parents=True, exist_ok=True)
    inp = work / "in.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in hostile_records()), encoding="utf-8")
    provider.clear_faults()
    provider.inject(fault, step=step, times=10 ** 6, retry_after=0.05, delay=1.0)
    backend = OpenAICompatBackend(base_url=provider.base_url, api_key="sk-hostile-0000", model="gpt-4o-mini",
                                  use_cache=False, timeout=0.5, backoff_initial=0.01, backoff_max=0.05,
                                  retry_after_max=retry_after_max, max_attempts=2, validation_attempts=2)
    records = read_inputs(inp)
    seen: list[str] = []

    async def go():
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: seen.append(str(ctx.get("message"))))
        try:
            return await run_batch(backend, records, work / "out.jsonl", progress=False,
                                   record_timeout=record_timeout)
        finally:
            await backend.aclose()
    started = time.monotonic()
    asyncio.run(go())
    provider.clear_faults()
    lines = [json.loads(x) for x in (work / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    frame = load_dataset(work / "out.jsonl", use_cache=False).frame
    return HostileRun(step, fault, [r.id for r in records], [str(r["id"]) for r in lines], lines, frame, seen,
                      time.monotonic() - started)


def scored_failures(frame) -> int:
    """Responses with an error that still carry any metric value: failures scored as numbers."""
    from vital_core.metrics.catalog import METRICS
    metrics = [k for k in METRICS if k in frame.columns]
    failed = frame[frame["error"].notna()]
    return int(failed[metrics].notna().any(axis=1).sum())


def provider() -> HostileProvider:
    return HostileProvider(answers=sample_answers())
