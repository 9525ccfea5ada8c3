"""A small stand-in for vLLM's batch runner (``python -m vllm.entrypoints.openai.run_batch``) and the
OpenAI Batch API: reads a Batch input file, sends each request's body to an OpenAI-compatible
server over HTTP, and writes a Batch output file in the same shape both produce."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path


def run_batch_file(requests_path: Path, output_path: Path, base_url: str, *, fail_ids: set[str] = frozenset()) -> int:
    """One output line per request; custom ids in ``fail_ids`` come back as errors (a failed request)."""
    lines = []
    for n, line in enumerate(requests_path.read_text(encoding="utf-8").splitlines()):
        request = json.loads(line)
        custom_id = request["custom_id"]
        if custom_id in fail_ids:
            lines.append({"id": f"batch_req_{n}", "custom_id": custom_id, "response": None,
                          "error": {"code": "server_error", "message": "the batch runner failed this request"}})
            continue
        http = urllib.request.Request(base_url.rstrip("/") + request["url"].removeprefix("/v1"),
                                      data=json.dumps(request["body"]).encode("utf-8"),
                                      headers={"Content-Type": "application/json", "Authorization": "Bearer x"})
        try:
            with urllib.request.urlopen(http, timeout=30) as reply:
                status, body = reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            status, body = exc.code, json.loads(exc.read() or b"{}")
        lines.append({"id": f"batch_req_{n}", "custom_id": custom_id,
                      "response": {"status_code": status, "request_id": f"req_{n}", "body": body}, "error": None})
    output_path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return len(lines)
