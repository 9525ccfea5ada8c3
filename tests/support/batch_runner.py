"""A small stand-in for vLLM's batch runner (``python -m vllm.entrypoints.openai.run_batch``) and the
OpenAI Batch API: reads a Batch input file, sends each request's body to an OpenAI-compatible
server over HTTP, and writes a Batch output file in the same shape both produce.

``run_requests`` is the per-line engine, also used by the mock Batches endpoint (``mock_batches.py``).
Its requests carry ``RUNNER_AUTH``, so a mock can tell them from a client's live calls."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterable, Iterator

RUNNER_AUTH = "Bearer batch-runner"


def run_requests(requests: Iterable[dict], base_url: str, *, fail_ids: Iterable[str] = ()) -> Iterator[dict]:
    """One output line per request, in order; custom ids in ``fail_ids`` come back as errors."""
    fail_ids = set(fail_ids)
    for n, request in enumerate(requests):
        custom_id = request["custom_id"]
        if custom_id in fail_ids:
            yield {"id": f"batch_req_{n}", "custom_id": custom_id, "response": None,
                   "error": {"code": "server_error", "message": "the batch runner failed this request"}}
            continue
        http = urllib.request.Request(base_url.rstrip("/") + request["url"].removeprefix("/v1"),
                                      data=json.dumps(request["body"]).encode("utf-8"),
                                      headers={"Content-Type": "application/json", "Authorization": RUNNER_AUTH})
        try:
            with urllib.request.urlopen(http, timeout=30) as reply:
                status, body = reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            status, body = exc.code, json.loads(exc.read() or b"{}")
        yield {"id": f"batch_req_{n}", "custom_id": custom_id,
               "response": {"status_code": status, "request_id": f"req_{n}", "body": body}, "error": None}


def run_batch_file(requests_path: Path, output_path: Path, base_url: str, *, fail_ids: set[str] = frozenset()) -> int:
    """Run a Batch input file into a Batch output file; returns the number of lines."""
    requests = [json.loads(line) for line in requests_path.read_text(encoding="utf-8").splitlines()]
    lines = list(run_requests(requests, base_url, fail_ids=fail_ids))
    output_path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return len(lines)
