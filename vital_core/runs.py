"""Resumable batch scoring: any backend, many records, nothing lost on a crash.

Each finished record is appended to the output JSONL as one complete line
written with a single ``os.write`` on an ``O_APPEND`` descriptor and then
``fsync``-ed, so after Ctrl-C, ``kill -9`` or a power cut the file holds whole
records plus at most one partial last line. On the next run that partial
line is cut off, the ids already present are skipped, and the rest are scored.
When every input record is done the file is rewritten (atomically, via a
temporary file and ``os.replace``) in input order, so an interrupted and
resumed run ends with the same file as an uninterrupted one.

A record whose scoring failed (after the client's retries) is written too,
with its error (``ExampleResult.error`` or a variant's ``error``); the run goes
on. ``retry_failed=True`` drops such lines first so they are scored again.

``run_batch`` also writes a summary JSON next to the output
(``RESULTS.jsonl.summary.json``): records scored / skipped / failed, the
failures, elapsed time and the backend's LLM usage (calls, cache hits, tokens,
cost). The summary never contains an API key.
"""
from __future__ import annotations

import asyncio
import errno
import json
import os
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Awaitable, Callable, Iterable

from vital_core.atomic import atomic_replace
from vital_core.backends.base import Backend
from vital_core.errors import InputError, where
from vital_core.inputs import InputRecord
from vital_core.model import ExampleResult
from vital_core.pipeline import score_example

SUMMARY_SUFFIX = ".summary.json"


def summary_path(out_path: str | Path) -> Path:
    out_path = Path(out_path)
    return out_path.with_name(out_path.name + SUMMARY_SUFFIX)


def record_error(record: dict) -> str | None:
    """The first error of a results record (the example's, else a variant's), or None."""
    if record.get("error"):
        return str(record["error"])
    for name, variant in (record.get("variants") or {}).items():
        if isinstance(variant, dict) and variant.get("error"):
            return f"{name}: {variant['error']}"
    return None


class OutputBusyError(InputError):
    """Another process is writing the same output file."""


def _lock(fd: int) -> None:
    """Lock ``fd`` exclusively without waiting; OSError when another process holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock on this platform
        return
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _compact_json(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


class AppendOnlyJsonl:
    """A JSONL file written one whole line at a time, recoverable after a crash.

    ``open()`` locks the file (one writer at a time), cuts a trailing partial
    line and returns the records already there, in file order.
    """

    def __init__(self, path: str | Path, *, id_key: str = "id"):
        self.path = Path(path)
        self.id_key = id_key
        self._fd: int | None = None

    def open(self) -> list[dict]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            _lock(self._fd)
        except OSError as exc:
            os.close(self._fd)
            self._fd = None
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise OutputBusyError(f"{self.path}: another run is writing this file; wait for it "
                                      "or choose another --out", self.path) from None
            raise
        return self._recover()

    def _recover(self) -> list[dict]:
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            # A line cut short by a crash: it was never a finished record.
            os.truncate(self.path, end)
            data = data[:end]
        records = []
        for line_no, raw in enumerate(data.split(b"\n")[:-1], start=1):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw)
            except ValueError as exc:
                raise InputError(f"{where(self.path, line_no)}: not valid JSON ({exc}); this file is not "
                                 "a results file this command wrote - choose another --out",
                                 self.path, line_no) from None
            if not isinstance(rec, dict) or self.id_key not in rec:
                raise InputError(f"{where(self.path, line_no)}: not a record with an {self.id_key!r} field; "
                                 "choose another --out", self.path, line_no)
            records.append(rec)
        return records

    def append(self, record: dict, transform: Callable[[str], str] | None = None) -> None:
        """Write one record as one line: a single write on an O_APPEND descriptor, then fsync.

        ``transform`` may rewrite the serialised line (the command uses it to redact a key).
        """
        assert self._fd is not None, "open() first"
        text = _compact_json(record)
        if transform is not None:
            text = transform(text)
        data = (text + "\n").encode("utf-8")
        written = os.write(self._fd, data)
        while written < len(data):  # regular files do not short-write in practice; be safe anyway
            written += os.write(self._fd, data[written:])
        os.fsync(self._fd)

    def rewrite(self, records: Iterable[dict]) -> None:
        """Replace the whole file atomically (temporary file, fsync, rename)."""
        with atomic_replace(self.path, "wb") as fh:
            for record in records:
                fh.write((_compact_json(record) + "\n").encode("utf-8"))
        # Keep appending (and holding the lock) on the new file.
        old = self._fd
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            _lock(self._fd)
        except OSError:
            pass
        if old is not None:
            os.close(old)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def write_json_atomic(path: Path, payload: dict) -> None:
    with atomic_replace(path) as fh:
        fh.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


@dataclass
class BatchResult:
    output: str
    total: int
    skipped: int = 0
    scored: int = 0
    failed: int = 0
    failures: list[dict] = field(default_factory=list)   # {"id", "error"} of this run's failed records
    elapsed_s: float = 0.0
    interrupted: bool = False
    backend: dict = field(default_factory=dict)
    usage: dict | None = None
    started: str = ""
    finished: str = ""
    verb: str = "scored"       # what happened to a record, for the printed summary

    @property
    def summary_path(self) -> Path:
        return summary_path(self.output)

    def to_dict(self) -> dict:
        return {"output": self.output, "records_total": self.total, "records_skipped": self.skipped,
                "records_scored": self.scored, "records_failed": self.failed,
                "failures": self.failures, "elapsed_s": round(self.elapsed_s, 3),
                "interrupted": self.interrupted, "backend": self.backend, "llm_usage": self.usage,
                "started": self.started, "finished": self.finished}

    def lines(self) -> list[str]:
        """The run summary as printed at the end of ``score``."""
        out = [f"records: {self.scored} {self.verb}, {self.skipped} already done, {self.failed} failed "
               f"(of {self.total}) in {self.elapsed_s:.1f} s -> {self.output}"]
        if self.interrupted:
            out.append("interrupted: finished records are saved; run the same command again to resume")
        u = self.usage
        if u:
            cost = f"${u['cost_usd']:.4f}" if u.get("cost_usd") is not None else "unknown"
            out.append(f"LLM: {u['calls']} calls ({u['cache_hits']} from cache), {u['requests']} requests, "
                       f"{u['retries']} retries, {u['failures']} failed calls; tokens {u['prompt_tokens']} in + "
                       f"{u['completion_tokens']} out; cost {cost}"
                       + (f" ({u['cost_note']})" if u.get("cost_note") else ""))
        for f in self.failures[:10]:
            out.append(f"failed {f['id']}: {f['error']}")
        if len(self.failures) > 10:
            out.append(f"... and {len(self.failures) - 10} more failures (see {self.summary_path.name})")
        return out


def check_same_backend(existing: list[dict], backend_info: dict, path: Path) -> None:
    """Refuse to mix results of different backends, models or prompts in one file."""
    for line_no, rec in enumerate(existing, start=1):
        theirs = rec.get("backend") or {}
        keys = ("name", "model", "prompt_version")
        if any(str(theirs.get(k, "")) != str(backend_info.get(k, "")) for k in keys):
            def show(d):
                return ", ".join(f"{k} {d.get(k) or '-'}" for k in keys)
            raise InputError(f"{where(path, line_no)}: scored with {show(theirs)}; this run uses "
                             f"{show(backend_info)}. Use the same settings to resume, or another --out.",
                             path, line_no)


async def score_record(backend: Backend, record: InputRecord) -> ExampleResult:
    """Score one input record; never raises (a failure becomes the record's error)."""
    texts = record.texts()
    try:
        if not texts:
            raise ValueError(f"{record.place or record.id}: no response with text to score")
        return await score_example(backend, example_id=record.id, query=record.query, responses=texts,
                                   documents=record.documents, reference=record.reference,
                                   dataset=record.dataset, subset=record.subset, query_type=record.query_type)
    except Exception as exc:
        return ExampleResult(id=record.id, query=record.query, documents=list(record.documents),
                             reference=record.reference, dataset=record.dataset, subset=record.subset,
                             query_type=record.query_type, backend=backend.info.to_dict(),
                             error=f"{type(exc).__name__}: {exc}")


def _progress(total: int, initial: int, enabled: bool, desc: str):
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit="record", file=sys.stderr, disable=not enabled,
                dynamic_ncols=True, desc=desc)


def _open_output(out_path: Path, check_existing: Callable[[list[dict]], None] | None
                 ) -> tuple[AppendOnlyJsonl, list[dict]]:
    """Open (lock, recover) the output and let ``check_existing`` refuse the lines already there."""
    output = AppendOnlyJsonl(out_path)
    existing = output.open()
    try:
        if check_existing is not None:
            check_existing(existing)
    except BaseException:
        output.close()
        raise
    return output, existing


def _pending(records: list[InputRecord], existing: list[dict], output: AppendOnlyJsonl, retry_failed: bool,
             error_of: Callable[[dict], str | None]) -> list[InputRecord]:
    """The records still to do; with ``retry_failed`` the failed lines are dropped from the file first."""
    if retry_failed and any(error_of(r) for r in existing):
        existing = [r for r in existing if not error_of(r)]
        output.rewrite(existing)
    done = {str(r["id"]) for r in existing}
    return [r for r in records if r.id not in done]


async def _run_workers(todo: list[InputRecord], process: Callable[[InputRecord], Awaitable[dict]],
                       output: AppendOnlyJsonl, result: BatchResult, bar, concurrency: int,
                       error_of: Callable[[dict], str | None], redact: Callable[[str], str] | None) -> None:
    """``concurrency`` workers take records from one queue; each finished line is appended at once."""
    queue: asyncio.Queue = asyncio.Queue()
    for rec in todo:
        queue.put_nowait(rec)

    async def worker():
        while True:
            try:
                rec = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            line = await process(rec)
            output.append(line, redact)
            error = error_of(line)
            result.scored += 1
            if error:
                result.failed += 1
                result.failures.append({"id": rec.id, "error": redact(error) if redact else error})
                bar.set_postfix(failed=result.failed)
            bar.update(1)

    tasks = [asyncio.ensure_future(worker()) for _ in range(max(1, concurrency))]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for t in tasks:  # stop the other workers before the file is closed
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


def _restore_input_order(output: AppendOnlyJsonl, records: list[InputRecord]) -> None:
    """Every record done: put the file in input order (atomically), unless it already is."""
    final = output._recover()
    by_id = {str(r["id"]): r for r in final}
    wanted = [r.id for r in records]
    if all(i in by_id for i in wanted):
        wanted_set = set(wanted)
        ordered = [by_id[i] for i in wanted] + [r for r in final if str(r["id"]) not in wanted_set]
        if [str(r["id"]) for r in ordered] != [str(r["id"]) for r in final]:
            output.rewrite(ordered)


def _write_summary(result: BatchResult, out_path: Path, started: float, usage: Callable[[], dict] | None,
                   redact: Callable[[str], str] | None) -> None:
    result.elapsed_s = time.monotonic() - started
    result.finished = datetime.now(timezone.utc).isoformat(timespec="seconds")
    result.usage = usage() if usage is not None else None
    text = json.dumps(result.to_dict(), ensure_ascii=False)
    write_json_atomic(summary_path(out_path), json.loads(redact(text) if redact else text))


async def run_resumable(records: list[InputRecord], out_path: str | Path,
                        process: Callable[[InputRecord], Awaitable[dict]], *,
                        concurrency: int = 8, progress: bool = True, retry_failed: bool = False,
                        error_of: Callable[[dict], str | None] = record_error,
                        check_existing: Callable[[list[dict]], None] | None = None,
                        redact: Callable[[str], str] | None = None, desc: str = "scoring", verb: str = "scored",
                        backend_info: dict | None = None,
                        usage: Callable[[], dict] | None = None) -> BatchResult:
    """Run ``process`` over the records not yet in ``out_path``, appending each line as it finishes.

    ``process`` must not raise for a record's own failure: it returns a line whose
    ``error_of`` is the error. ``check_existing`` may refuse the lines already there.
    """
    started = time.monotonic()
    out_path = Path(out_path)
    result = BatchResult(output=str(out_path), total=len(records), backend=dict(backend_info or {}),
                         started=datetime.now(timezone.utc).isoformat(timespec="seconds"), verb=verb)
    output, existing = _open_output(out_path, check_existing)
    try:
        todo = _pending(records, existing, output, retry_failed, error_of)
        result.skipped = len(records) - len(todo)
        bar = _progress(len(records), result.skipped, progress, desc)
        try:
            await _run_workers(todo, process, output, result, bar, concurrency, error_of, redact)
        finally:
            bar.close()
        _restore_input_order(output, records)
    except (KeyboardInterrupt, asyncio.CancelledError):
        result.interrupted = True
        raise
    finally:
        output.close()
        _write_summary(result, out_path, started, usage, redact)
    return result


async def run_batch(backend: Backend, records: list[InputRecord], out_path: str | Path, *,
                    concurrency: int = 8, progress: bool = True, retry_failed: bool = False,
                    redact: Callable[[str], str] | None = None) -> BatchResult:
    """Score ``records`` into ``out_path`` (one ``ExampleResult.to_dict`` line each), resumably.

    ``redact`` rewrites every serialised line and the summary (the command passes one
    that removes the API key - belt and braces on top of the client's own redaction).
    """
    info = backend.info.to_dict()

    async def process(record: InputRecord) -> dict:
        return (await score_record(backend, record)).to_dict()

    return await run_resumable(
        records, out_path, process, concurrency=concurrency, progress=progress, retry_failed=retry_failed,
        check_existing=lambda existing: check_same_backend(existing, info, Path(out_path)),
        redact=redact, desc="scoring", backend_info=info, usage=getattr(backend, "usage_summary", None))
