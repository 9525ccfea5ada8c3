"""Resumable batch scoring: any backend, many records, nothing lost on a crash.

Each finished record is appended to the output JSONL as one complete line
(``appendlog.AppendOnlyJsonl``), so after Ctrl-C, ``kill -9`` or a power cut
the file holds whole records plus at most one partial last line. An existing
output is used only when every line is one this command writes (``RESULTS_LINES``
for ``score``, ``PERTURB_LINES`` for ``perturb``); then that partial line is cut
off, the ids already present are skipped (only ids are kept in memory), and the
rest are scored. When every input record is done the file is rewritten
(atomically, via a temporary file and ``os.replace``) in input order, so an
interrupted and resumed run ends with the same file as an uninterrupted one.

A record whose scoring failed (after the client's retries) is written too,
with its error (``ExampleResult.error`` or a variant's ``error``); the run goes
on. ``retry_failed=True`` drops such lines first so they are scored again.

``run_batch`` also writes a summary JSON next to the output (``run_summary``);
both the output and its summary are checked before the first record is scored.
"""
from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Awaitable, Callable

from vital_core.backends.base import Backend
from vital_core.files.appendlog import ANY_RECORDS, AppendOnlyJsonl, Existing, LineFormat, OutputBusyError  # noqa: F401
from vital_core.files.errors import InputError, where
from vital_core.files.outputs import OutputKind, check_target
from vital_core.results.model import RESULTS_FORMAT, ExampleResult
from vital_core.scoring import deadline
from vital_core.scoring.inputs import InputRecord
from vital_core.scoring.limits import MAX_WORDS
from vital_core.scoring.pipeline import score_example
from vital_core.scoring.run_summary import SUMMARY, BatchResult, save_summary, summary_path

RECORD_TIMEOUT = 600.0   # seconds one record may take in all (--record-timeout)


# The output itself is recognised line by line as it is opened (appendlog), so the refusal names the line
OUTPUT = OutputKind("an output", "--out", None)


def check_outputs(out_path: Path, avoid=()) -> None:
    """Refuse, before any work, an output or summary path the rule does not allow (``InputError``)."""
    check_target(out_path, OUTPUT, avoid)
    check_target(summary_path(out_path), SUMMARY, [*avoid, (out_path, "this run's --out")])


def record_warnings(record: dict) -> list[str]:
    """The warnings of a results record's responses, each prefixed with its variant."""
    return [f"{name}: {w}" for name, variant in (record.get("variants") or {}).items()
            if isinstance(variant, dict) for w in (variant.get("warnings") or [])]


def record_error(record: dict) -> str | None:
    """The first error of a results record (the example's, else a variant's), or None."""
    if record.get("error"):
        return str(record["error"])
    for name, variant in (record.get("variants") or {}).items():
        if isinstance(variant, dict) and variant.get("error"):
            return f"{name}: {variant['error']}"
    return None


RESULTS_LINES = LineFormat(
    "results file", lambda r: r.get("format") == RESULTS_FORMAT and isinstance(r.get("id"), str),
    b'{"format":"' + RESULTS_FORMAT.encode() + b'",', f'a results record ("format": "{RESULTS_FORMAT}")')
PERTURB_LINES = LineFormat(
    "perturb output", lambda r: isinstance(r.get("id"), str) and isinstance(r.get("query"), str)
    and isinstance(r.get("responses"), dict), b'{"id":', 'a record with "id", "query" and "responses"')


def same_backend(backend_info: dict, path: Path) -> Callable[[dict, int], None]:
    """A check of each line already in ``path``: refuse to mix backends, models or prompts in one file."""
    keys = ("name", "model", "prompt_version")

    def show(d: dict) -> str:
        return ", ".join(f"{k} {d.get(k) or '-'}" for k in keys)

    def method(d: dict) -> str:
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted((d.get("method") or {}).items())) or "-"

    def check(rec: dict, line_no: int) -> None:
        theirs = rec.get("backend") if isinstance(rec.get("backend"), dict) else {}
        if any(str(theirs.get(k, "")) != str(backend_info.get(k, "")) for k in keys):
            raise InputError(f"{where(path, line_no)}: scored with {show(theirs)}; this run uses "
                             f"{show(backend_info)}. Use the same settings to resume, or another --out.",
                             path, line_no)
        # claims per call and evidence tokens change the numbers too (a line written before they were
        # recorded used the fixed 15 and 3000, today's defaults, so it is not refused for lacking them)
        if theirs.get("method") and theirs.get("method") != backend_info.get("method"):
            raise InputError(f"{where(path, line_no)}: scored with {method(theirs)}; this run uses "
                             f"{method(backend_info)} (--claims-per-call, --evidence-tokens). Use the same "
                             "settings to resume, or another --out.", path, line_no)
    return check


def timed_out(timeout: float) -> str:
    return (f"TimeoutError: the record took longer than {timeout:g} s in all (--record-timeout) and was "
            "stopped; run again with --retry-failed to try it again")


async def score_record(backend: Backend, record: InputRecord, *, timeout: float | None = RECORD_TIMEOUT,
                       max_words: int | None = MAX_WORDS, max_evidence_mb: float | None = None) -> ExampleResult:
    """Score one input record within ``timeout`` seconds; never raises (a failure becomes the record's error)."""
    texts = record.texts()
    try:
        if not texts:
            raise ValueError(f"{record.place or record.id}: no response with text to score")
        with deadline.within(timeout):   # the offline backend's threads stop at it too (deadline.py)
            return await asyncio.wait_for(score_example(
                backend, example_id=record.id, query=record.query, responses=texts, documents=record.documents,
                reference=record.reference, dataset=record.dataset, subset=record.subset,
                query_type=record.query_type, max_words=max_words, max_evidence_mb=max_evidence_mb), timeout)
    except Exception as exc:
        error = timed_out(timeout) if isinstance(exc, asyncio.TimeoutError) else f"{type(exc).__name__}: {exc}"
        return ExampleResult(id=record.id, query=record.query, documents=list(record.documents),
                             reference=record.reference, dataset=record.dataset, subset=record.subset,
                             query_type=record.query_type, backend=backend.info.to_dict(), error=error)


def _progress(total: int, initial: int, enabled: bool, desc: str):
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit="record", file=sys.stderr, disable=not enabled,
                dynamic_ncols=True, desc=desc)


@dataclass
class OpenOutput:
    """An output as a run opens it: locked (one writer at a time), every line recognised, its finished
    ids and, of those, the failed ones (ids only, never the records)."""
    output: AppendOnlyJsonl
    existing: Existing
    failed: set[str]
    created: bool = False      # the file did not exist before it was opened

    def todo(self, records: list[InputRecord], retry_failed: bool) -> list[InputRecord]:
        return todo_records(records, self.existing.ids, self.failed, retry_failed)

    def release(self) -> None:
        """Unlock without writing (a batch phase that ends early); a file it created, still empty, goes."""
        self.output.close()
        if self.created and self.output.path.is_file() and not self.output.path.stat().st_size:
            self.output.path.unlink(missing_ok=True)


def open_output(out_path: Path, lines: LineFormat, check_line: Callable[[dict, int], None] | None,
                error_of: Callable[[dict], str | None]) -> OpenOutput:
    """Open (lock, recognise, recover) the output; ``InputError`` for a foreign or busy file.

    The lines are read one at a time and not kept, so resuming a long run needs memory for ids only.
    """
    check_outputs(out_path)
    created = not out_path.exists()
    output = AppendOnlyJsonl(out_path, lines)
    failed: set[str] = set()

    def visit(rec: dict, line_no: int) -> None:
        if check_line is not None:
            check_line(rec, line_no)
        if error_of(rec):
            failed.add(str(rec["id"]))
    return OpenOutput(output, output.open(visit), failed, created)


def open_results(backend: Backend, out_path: str | Path) -> OpenOutput:
    """``score``'s output opened exactly as ``run_batch`` opens it (results lines of this backend only)."""
    out_path = Path(out_path)
    return open_output(out_path, RESULTS_LINES, same_backend(backend.info.to_dict(), out_path), record_error)


def todo_records(records: list[InputRecord], done: set[str], failed: set[str],
                 retry_failed: bool) -> list[InputRecord]:
    """The one rule for what a run still has to do: the records not finished in the output, and with
    ``retry_failed`` the failed ones too."""
    skip = done - failed if retry_failed else done
    return [r for r in records if r.id not in skip]


def _pending(opened: OpenOutput, records: list[InputRecord], retry_failed: bool) -> list[InputRecord]:
    """The records still to do; with ``retry_failed`` the failed lines are dropped from the file first."""
    if retry_failed and opened.failed:
        opened.output.drop(opened.failed)
        opened.existing.ids -= opened.failed
    return opened.todo(records, retry_failed)


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
            if error:      # a record is scored or failed, never both
                result.failed += 1
                result.failures.append({"id": rec.id, "error": redact(error) if redact else error})
                bar.set_postfix(failed=result.failed)
            else:
                result.scored += 1
            warnings = record_warnings(line)
            if warnings:
                result.warned.append({"id": rec.id, "warnings": [redact(w) if redact else w for w in warnings]})
            bar.update(1)

    tasks = [asyncio.ensure_future(worker()) for _ in range(max(1, concurrency))]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for t in tasks:  # stop the other workers before the file is closed
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def run_resumable(records: list[InputRecord], out_path: str | Path,
                        process: Callable[[InputRecord], Awaitable[dict]], *,
                        concurrency: int = 8, progress: bool = True, retry_failed: bool = False,
                        error_of: Callable[[dict], str | None] = record_error,
                        lines_format: LineFormat = ANY_RECORDS,
                        check_line: Callable[[dict, int], None] | None = None,
                        redact: Callable[[str], str] | None = None, desc: str = "scoring", verb: str = "scored",
                        backend_info: dict | None = None,
                        usage: Callable[[], dict] | None = None, opened: OpenOutput | None = None,
                        batch_usage: dict | None = None) -> BatchResult:
    """Run ``process`` over the records not yet in ``out_path``, appending each line as it finishes.

    ``process`` must not raise for a record's own failure: it returns a line whose
    ``error_of`` is the error. ``out_path`` is appended to only when each of its lines is
    ``lines_format``'s; ``check_line(record, line)`` may refuse a line already there.
    ``opened``: the output already opened (and locked) by ``open_output``, e.g. before batches were paid for.
    """
    started = time.monotonic()
    out_path = Path(out_path)
    result = BatchResult(output=str(out_path), total=len(records), backend=dict(backend_info or {}),
                         started=datetime.now(timezone.utc).isoformat(timespec="seconds"), verb=verb,
                         batch_usage=batch_usage)
    opened = opened or open_output(out_path, lines_format, check_line, error_of)
    output = opened.output
    try:
        todo = _pending(opened, records, retry_failed)
        result.skipped = len(records) - len(todo)
        bar = _progress(len(records), result.skipped, progress, desc)
        try:
            await _run_workers(todo, process, output, result, bar, concurrency, error_of, redact)
        finally:
            bar.close()
        output.reorder([r.id for r in records])   # every record done: the file in input order
    except (KeyboardInterrupt, asyncio.CancelledError):
        result.interrupted = True
        raise
    except BaseException:
        output.close()
        save_summary(result, out_path, started, usage, redact, quiet=True)   # never hides the first error
        raise
    output.close()
    save_summary(result, out_path, started, usage, redact)
    return result


async def run_batch(backend: Backend, records: list[InputRecord], out_path: str | Path, *,
                    concurrency: int = 8, progress: bool = True, retry_failed: bool = False,
                    redact: Callable[[str], str] | None = None, record_timeout: float | None = RECORD_TIMEOUT,
                    max_words: int | None = MAX_WORDS, max_evidence_mb: float | None = None,
                    opened: OpenOutput | None = None,
                    batch_usage: dict | None = None) -> BatchResult:
    """Score ``records`` into ``out_path`` (one ``ExampleResult.to_dict`` line each), resumably.

    ``redact`` rewrites every serialised line and the summary (the command passes one
    that removes the API key - belt and braces on top of the client's own redaction).
    ``opened``: the output as ``open_results`` opened it; ``batch_usage``: what batches of this run cost.
    """
    info = backend.info.to_dict()

    async def process(record: InputRecord) -> dict:
        return (await score_record(backend, record, timeout=record_timeout, max_words=max_words,
                                   max_evidence_mb=max_evidence_mb)).to_dict()

    return await run_resumable(
        records, out_path, process, concurrency=concurrency, progress=progress, retry_failed=retry_failed,
        redact=redact, desc="scoring", backend_info=info, usage=getattr(backend, "usage_summary", None),
        opened=opened or open_results(backend, out_path), batch_usage=batch_usage)
