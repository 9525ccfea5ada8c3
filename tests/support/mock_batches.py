"""The OpenAI Files and Batches endpoints, mounted on the mock provider (``tests/support/mock_provider.py``).

``MockBatches(mock)`` answers, on the same real HTTP server:

- ``POST /v1/files`` (multipart: ``file`` and ``purpose``), ``GET /v1/files/{id}/content``;
- ``POST /v1/batches`` (``input_file_id``, ``endpoint``, ``completion_window``), ``GET /v1/batches/{id}``.

A batch's lines are run by ``tests/batch_runner.run_requests`` - each request body sent to the mock's
own ``/v1/chat/completions``, with the runner's Authorization so a test can tell them from live calls -
in a worker thread started when the batch is created. Each retrieve moves the batch on as the OpenAI
Batch API does: validating -> in_progress (for as long as the worker runs) -> finalizing -> completed;
the output file holds the lines that succeeded, the error file the rest.

For tests, on the first batch only: ``end_status="failed"`` (refused at validation, with errors),
``"expired"`` (half the lines run; the rest come back as ``batch_expired`` errors) or ``"cancelled"``;
``fail_lines=N`` makes its first N lines fail (their custom ids in ``failed_ids``);
``garble_lines=N`` cuts its output file's first N lines short (malformed JSON; their ids in ``garbled_ids``).
Faults of the endpoints themselves, for the first N calls of each kind: ``fail_creates`` creates the
batch but answers 500 (an answer lost on the way), ``fail_retrieves`` answers 503, ``cut_downloads``
sends half of a file and closes the connection.
``events`` lists every upload, create, retrieve and download, in order.
"""
from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP

from tests.support.batch_runner import run_requests

END_STATUSES = ("completed", "failed", "expired", "cancelled")
EXPIRED_ERROR = {"code": "batch_expired",
                 "message": "This request could not be executed before the completion window expired."}


@dataclass
class MockBatch:
    id: str
    input_file_id: str
    requests: list[dict]
    end: str
    fail_ids: set[str]
    metadata: dict | None
    status: str = "validating"
    times: dict[str, int] = field(default_factory=dict)      # "created_at", "in_progress_at", ...
    done: list[dict] = field(default_factory=list)            # output lines, in order
    errors: dict | None = None
    output_file_id: str | None = None
    error_file_id: str | None = None
    worker: threading.Thread | None = None

    def counts(self) -> dict:
        failed = sum(1 for line in self.done if line["error"] or line["response"]["status_code"] != 200)
        return {"total": len(self.requests), "completed": len(self.done) - failed, "failed": failed}

    def to_json(self) -> dict:
        stamps = {f"{s}_at": self.times.get(f"{s}_at") for s in
                  ("in_progress", "finalizing", "completed", "failed", "expired", "cancelling", "cancelled")}
        return {"id": self.id, "object": "batch", "endpoint": "/v1/chat/completions", "errors": self.errors,
                "input_file_id": self.input_file_id, "completion_window": "24h", "status": self.status,
                "output_file_id": self.output_file_id, "error_file_id": self.error_file_id,
                "created_at": self.times["created_at"], "expires_at": self.times["created_at"] + 86400,
                **stamps, "request_counts": self.counts(), "metadata": self.metadata}


class MockBatches:
    def __init__(self, provider, *, end_status: str = "completed", fail_lines: int = 0, garble_lines: int = 0,
                 fail_creates: int = 0, fail_retrieves: int = 0, cut_downloads: int = 0):
        if end_status not in END_STATUSES:
            raise ValueError(f"end_status must be one of {END_STATUSES}")
        self.provider, self.end_status, self.fail_lines = provider, end_status, fail_lines
        self.garble_lines, self.garbled_ids = garble_lines, []
        self.faults = {"create": fail_creates, "retrieve": fail_retrieves, "download": cut_downloads}
        self.files: dict[str, dict] = {}            # id -> {"filename", "purpose", "data"}
        self.batches: dict[str, MockBatch] = {}
        self.events: list[tuple[str, str]] = []     # (upload | create | retrieve | download, id)
        self.authorizations: set[str] = set()       # every Authorization header the endpoints saw
        self.failed_ids: list[str] = []
        self._lock = threading.Lock()
        provider.extra_routes = self                # the mock provider's one hook

    def count(self, event: str) -> int:
        return sum(1 for kind, _ in self.events if kind == event)

    def _fault(self, kind: str) -> bool:
        """Whether this call of ``kind`` is one of the first ones asked to fail."""
        with self._lock:
            if self.faults[kind] > 0:
                self.faults[kind] -= 1
                return True
        return False

    # ------------------------------------------------------------ HTTP
    def handle(self, handler, method: str) -> bool:
        """Answer a Files / Batches request; False for any other route (the chat mock answers it)."""
        path = handler.path.split("?")[0].rstrip("/")
        routes = {("POST", r"/v1/files"): self._upload, ("GET", r"/v1/files/(?P<id>[^/]+)/content"): self._content,
                  ("POST", r"/v1/batches"): self._create, ("GET", r"/v1/batches/(?P<id>[^/]+)"): self._retrieve}
        for (verb, pattern), answer in routes.items():
            match = re.fullmatch(pattern, path)
            if verb == method and match:
                self.authorizations.add(handler.headers.get("Authorization", ""))
                body = handler.rfile.read(int(handler.headers.get("Content-Length") or 0))
                answer(handler, body, **match.groupdict())
                return True
        return False

    @staticmethod
    def _send(handler, status: int, payload: dict | bytes) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
        handler.send_response(status)
        handler.send_header("Content-Type", "application/octet-stream" if isinstance(payload, bytes)
                            else "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def _refuse(self, handler, status: int, message: str) -> None:
        self._send(handler, status, {"error": {"message": message, "type": "invalid_request_error"}})

    # ------------------------------------------------------------ files
    def _add_file(self, filename: str, purpose: str, data: bytes) -> dict:
        with self._lock:
            file_id = f"file-mock{len(self.files) + 1}"
            self.files[file_id] = {"filename": filename, "purpose": purpose, "data": data}
        return {"id": file_id, "object": "file", "bytes": len(data), "created_at": int(time.time()),
                "filename": filename, "purpose": purpose, "status": "processed"}

    def _upload(self, handler, body: bytes) -> None:
        head = f"Content-Type: {handler.headers.get('Content-Type', '')}\r\n\r\n".encode()
        form = BytesParser(policy=HTTP).parsebytes(head + body)
        if not form.is_multipart():
            return self._refuse(handler, 400, "expected a multipart/form-data upload")
        parts = {p.get_param("name", header="content-disposition"): p for p in form.iter_parts()}
        if "file" not in parts or "purpose" not in parts:
            return self._refuse(handler, 400, "the upload needs the fields 'file' and 'purpose'")
        purpose = parts["purpose"].get_payload(decode=True).decode()
        if purpose != "batch":
            return self._refuse(handler, 400, f"this mock takes purpose 'batch' only, got {purpose!r}")
        meta = self._add_file(parts["file"].get_filename() or "upload.jsonl", purpose,
                              parts["file"].get_payload(decode=True))
        self.events.append(("upload", meta["id"]))
        self._send(handler, 200, meta)

    def _content(self, handler, body: bytes, id: str) -> None:
        if id not in self.files:
            return self._refuse(handler, 404, f"No such File object: {id}")
        self.events.append(("download", id))
        data = self.files[id]["data"]
        if self._fault("download"):       # half the body, then the connection goes
            handler.send_response(200)
            handler.send_header("Content-Type", "application/octet-stream")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data[:len(data) // 2])
            handler.wfile.flush()
            handler.close_connection = True
            return
        self._send(handler, 200, data)

    # ------------------------------------------------------------ batches
    def _create(self, handler, body: bytes) -> None:
        args = json.loads(body or b"{}")
        source = self.files.get(args.get("input_file_id"))
        if source is None:
            return self._refuse(handler, 400, f"No such File object: {args.get('input_file_id')}")
        if args.get("endpoint") != "/v1/chat/completions" or args.get("completion_window") != "24h":
            return self._refuse(handler, 400, "endpoint must be /v1/chat/completions and completion_window 24h")
        requests = [json.loads(line) for line in source["data"].decode().splitlines() if line.strip()]
        first = not self.batches
        ids = [r["custom_id"] for r in requests[:self.fail_lines]] if first else []
        self.failed_ids += ids
        batch = MockBatch(f"batch_mock{len(self.batches) + 1}", args["input_file_id"], requests,
                          self.end_status if first else "completed", set(ids), args.get("metadata"),
                          times={"created_at": int(time.time())})
        if batch.end != "failed":
            batch.worker = threading.Thread(target=self._work, args=(batch,), daemon=True)
            batch.worker.start()
        with self._lock:
            self.batches[batch.id] = batch
        self.events.append(("create", batch.id))
        if self._fault("create"):
            return self._refuse(handler, 500, "mock: the answer to this create was lost")
        self._send(handler, 200, batch.to_json())

    def _work(self, batch: MockBatch) -> None:
        # an expired or cancelled batch gets through half of its lines
        todo = batch.requests if batch.end == "completed" else batch.requests[:len(batch.requests) // 2]
        for line in run_requests(todo, self.provider.base_url, fail_ids=batch.fail_ids):
            batch.done.append(line)

    def _retrieve(self, handler, body: bytes, id: str) -> None:
        batch = self.batches.get(id)
        if batch is None:
            return self._refuse(handler, 404, f"No batch found with id '{id}'.")
        self.events.append(("retrieve", id))
        if self._fault("retrieve"):
            return self._refuse(handler, 503, "mock: the batch service is unavailable")
        self._advance(batch)
        self._send(handler, 200, batch.to_json())

    def _advance(self, batch: MockBatch) -> None:
        """One step along the Batch API's statuses per retrieve."""
        now, working = int(time.time()), batch.worker is not None and batch.worker.is_alive()
        if batch.status in END_STATUSES:
            return
        if batch.end == "failed":
            batch.status, batch.times["failed_at"] = "failed", now
            batch.errors = {"object": "list", "data": [{"code": "invalid_request", "line": 1, "param": "body",
                                                        "message": "mock: this batch was refused"}]}
        elif batch.status == "validating" or working:
            batch.status = "in_progress"
            batch.times.setdefault("in_progress_at", now)
        elif batch.end == "cancelled" and batch.status != "cancelling":
            batch.status, batch.times["cancelling_at"] = "cancelling", now
        elif batch.end == "completed" and batch.status != "finalizing":
            batch.status, batch.times["finalizing_at"] = "finalizing", now
        else:
            self._finish(batch, now)

    def _finish(self, batch: MockBatch, now: int) -> None:
        ok = [x for x in batch.done if not x["error"] and x["response"]["status_code"] == 200]
        bad = [x for x in batch.done if x not in ok]
        ran = {x["custom_id"] for x in batch.done}
        bad += [{"id": f"batch_req_x{n}", "custom_id": r["custom_id"], "response": None, "error": EXPIRED_ERROR}
                for n, r in enumerate(batch.requests) if r["custom_id"] not in ran and batch.end == "expired"]
        first = batch.id == next(iter(self.batches))
        garbled = ok[:self.garble_lines] if first else []
        self.garbled_ids += [x["custom_id"] for x in garbled]
        for lines, attr in ((ok, "output_file_id"), (bad, "error_file_id")):
            if lines:
                data = "".join((json.dumps(x)[:-20] if any(x is g for g in garbled) else json.dumps(x)) + "\n"
                               for x in lines).encode("utf-8")
                setattr(batch, attr, self._add_file(f"{batch.id}_{attr}.jsonl", "batch_output", data)["id"])
        batch.status, batch.times[f"{batch.end}_at"] = batch.end, now
