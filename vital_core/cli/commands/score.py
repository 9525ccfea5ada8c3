"""``python -m vital_core score INPUT --out RESULTS.jsonl``: resumable batch scoring.

INPUT is the project's input JSONL (see ``vital_core.scoring.inputs``) or anything the
loaders read (the official release layout, a folder of condition files).
Each finished record is appended to RESULTS.jsonl at once; running the same
command again after Ctrl-C or ``kill -9`` skips the records already there.
The run summary (records, failures, LLM calls, cache hits, tokens, cost) is
printed at the end and saved as RESULTS.jsonl.summary.json.

Batch files (``--backend openai``): ``--batch-export FILE`` writes every request the run
still needs (cache misses of the current stage) in the OpenAI Batch input format and
writes no results; ``--batch-import FILE`` loads a Batch output file (OpenAI's, or vLLM's
``run_batch``) into the reply cache. Export, run the batch, import, export again: each
round walks one stage; when an export finds nothing left, a plain run finishes with no
live call. ``--batch-import`` alone never makes live calls for the stages still to come: when
the cache does not hold every reply yet it stops and says what to run next (``--batch-export``
for the next stage), unless ``--finish-live`` asks for those calls at full price. ``--batch-submit``
does those rounds itself through the endpoint's Files and Batches API
(``backends/openai/batch_submit.py``), resumable by batch id, then writes the results.
Before any request is collected, RESULTS.jsonl is recognised and locked as a plain run does, and only
the records it does not hold yet (and, with ``--retry-failed``, its failed ones) are collected.

Exit status: 0 all records scored, 1 some records failed (their errors are in
the results and the summary), 2 bad usage or input, 130 interrupted.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from vital_core.cli.backend_options import (
    add_backend_arguments,
    add_evidence_argument,
    add_size_argument,
    evidence_limit,
    key_redactor,
    prepare_batch,
    run_batch_command,
)
from vital_core.cli.main import UsageError, number_in
from vital_core.files.errors import InputError
from vital_core.scoring.pipeline import run_sync
from vital_core.scoring.runs import open_results, run_batch, score_record

POLL_SECONDS = 30.0    # --batch-poll-seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="input JSONL ({id, query, responses, documents, reference} per line) "
                                      "or a folder/file in the official release layout")
    parser.add_argument("--out", required=True, help="results JSONL to write (appended to; resumable)")
    parser.add_argument("--retry-failed", action="store_true",
                        help="score again the records that failed in an earlier run of this output")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--batch-import", metavar="FILE",
                        help="load a Batch output file (OpenAI or vLLM run_batch) into the reply cache first")
    parser.add_argument("--finish-live", action="store_true",
                        help="with --batch-import: make the calls the imported replies do not cover live, at "
                             "full price (by default the run stops and says what to run next)")
    parser.add_argument("--batch-export", metavar="FILE",
                        help="write the requests this run still needs as an OpenAI Batch input file instead of "
                             "calling the endpoint (no results are written)")
    parser.add_argument("--batch-submit", action="store_true",
                        help="send the requests as hosted batches (Files + Batches API), one per stage, wait "
                             "for each and import it; then write the results with no live call. Resumable: "
                             "the pending batch is recorded in RESULTS.jsonl.batch.json")
    parser.add_argument("--batch-id", metavar="ID",
                        help="with --batch-submit: pick up this submitted batch instead of submitting one")
    parser.add_argument("--batch-poll-seconds", type=number_in(float, 0, above=True), default=None,
                        help=f"with --batch-submit: seconds between two looks at a submitted batch "
                             f"(default {POLL_SECONDS:g})")
    add_size_argument(parser)
    add_evidence_argument(parser)
    add_backend_arguments(parser)


def check_batch_options(args: argparse.Namespace) -> None:
    """Refuse batch options that need another one, before anything is read or built."""
    if args.batch_submit and args.batch_export:
        raise UsageError("use either --batch-export (write the requests) or --batch-submit (send them), not both")
    for flag in ("--batch-id", "--batch-poll-seconds"):
        if getattr(args, flag[2:].replace("-", "_")) is not None and not args.batch_submit:
            raise UsageError(f"{flag} needs --batch-submit")
    if args.finish_live and not args.batch_import:
        raise UsageError("--finish-live needs --batch-import")


def run(args: argparse.Namespace) -> int:
    check_batch_options(args)
    max_evidence_mb = evidence_limit(args)
    out, records, backend = prepare_batch(args, "scoring")
    opened, batch_usage = None, None
    if args.batch_import or args.batch_export or args.batch_submit:
        from vital_core.backends.openai.backend import OpenAICompatBackend
        if not isinstance(backend, OpenAICompatBackend) or backend.client.cache is None:
            raise UsageError("--batch-import, --batch-export and --batch-submit need --backend openai with the "
                             "reply cache on")
        if args.batch_import:
            import_batch(backend, Path(args.batch_import))
        if args.batch_export or args.batch_submit or not args.finish_live:
            status, opened, batch_usage = batch_phase(backend, records, out, args)
            if status is not None:
                return status
    return run_batch_command(backend, out, lambda: run_batch(
        backend, records, out, concurrency=args.concurrency, progress=not args.no_progress,
        retry_failed=args.retry_failed, redact=key_redactor(args), record_timeout=args.record_timeout,
        max_words=args.max_words, max_evidence_mb=max_evidence_mb, opened=opened, batch_usage=batch_usage))


def batch_phase(backend, records, out: Path, args: argparse.Namespace):
    """Export or submit the requests of the records ``--out`` does not hold yet: ``(exit status or None to
    go on and write the results, the output still locked for that, the batches' usage)``.

    ``--out`` is recognised (this project's results, this backend) and locked first, as ``run_batch``
    does, so a foreign file or a second run on it is refused before anything is paid for.
    """
    opened = open_results(backend, out)
    try:
        todo = opened.todo(records, args.retry_failed)
        if args.batch_export:
            status, usage = export_batch(backend, todo, Path(args.batch_export), out, Path(args.input)), None
        elif args.batch_submit:
            status, usage = submit_batches(backend, todo, out, args)
        else:
            status, usage = stop_before_live_calls(backend, todo, args), None
    except BaseException:
        opened.release()
        raise
    if status is not None:
        opened.release()
        return status, None, None
    return None, opened, usage


def import_batch(backend, path: Path) -> None:
    from vital_core.backends.openai.batch import import_results
    if not path.is_file():
        raise UsageError(f"--batch-import {path}: no such file")
    try:
        report = import_results(path, backend.client.cache, backend.settings.model)
    except InputError as exc:
        raise UsageError(f"--batch-import {exc}") from None
    for line in report.lines():
        print(line, file=sys.stderr)


def collect_requests(backend, records):
    """Run the pipeline with a collector instead of the endpoint: the requests it still needs."""
    from vital_core.backends.openai.batch import BatchCollector
    collector = backend.client.collector = BatchCollector()

    async def collect():
        try:
            await asyncio.gather(*(score_record(backend, record) for record in records))
        finally:
            await backend.aclose()

    try:
        run_sync(collect())
    finally:
        backend.client.collector = None   # the run after the last batch calls (the cache) for real
    return collector


def export_batch(backend, records, path: Path, out: Path, source: Path) -> int:
    """Write the requests the run still needs as a Batch input file (never onto the run's other files)."""
    from vital_core.backends.openai.batch import REQUESTS, write_requests
    from vital_core.backends.openai.batch_submit import state_path
    from vital_core.files.outputs import check_target
    from vital_core.scoring.run_summary import summary_path
    avoid = [(source, "the input of this run"), (out, "this run's --out"), (summary_path(out), "this run's summary"),
             (state_path(out), "this run's batch state file")]
    try:
        check_target(path, REQUESTS, avoid)     # before any request is collected
    except InputError as exc:
        raise UsageError(f"--batch-export {exc}") from None
    collector = collect_requests(backend, records)
    if not collector.requests:
        print("nothing left to request: every reply is in the cache; run again without --batch-export "
              "to write the results", file=sys.stderr)
        return 0
    try:
        write_requests(collector, path, avoid)
    except InputError as exc:
        raise UsageError(f"--batch-export {exc}") from None
    print(collector.estimate(backend.settings.model, backend.client.prices), file=sys.stderr)
    print(f"wrote {path}: send it as a batch (OpenAI Batch API or vLLM run_batch), then run again with "
          f"--batch-import OUTPUT (and --batch-export for the next stage)", file=sys.stderr)
    return 0


def stop_before_live_calls(backend, records, args: argparse.Namespace) -> int | None:
    """After ``--batch-import`` alone: None (go on, every reply is cached: no live call) or the exit status
    of a run that stops because the next stage still needs requests, saying what to run next."""
    collector = collect_requests(backend, records)
    if not collector.requests:
        from vital_core.backends.openai.pricing import UsageTracker
        llm = backend.client
        llm.usage = UsageTracker(llm.settings.model, llm.prices)   # the summary is the run's, not the look's
        return None
    print(f"the imported replies do not cover every step yet: the next stage needs "
          f"{collector.estimate(backend.settings.model, backend.client.prices)}. No live call was made and no "
          f"results were written. Next: run again with --batch-import {args.batch_import} --batch-export "
          "NEXT.jsonl, send NEXT.jsonl as a batch and import its output (or add --finish-live to make these "
          "calls live at full price; --batch-submit does every round itself)", file=sys.stderr)
    return 0


def submit_batches(backend, records, out: Path, args: argparse.Namespace) -> tuple[int | None, dict | None]:
    """Batch after batch until every reply is cached: ``(None to go on and write the results, else the exit
    status; what the batches used)``."""
    from vital_core.backends.openai.batch_submit import (
        BatchConflict,
        BatchFailed,
        Submitter,
        state_path,
        stuck_message,
        submit_until_done,
    )
    llm = backend.client
    poll = args.batch_poll_seconds if args.batch_poll_seconds is not None else POLL_SECONDS
    sub = Submitter.for_client(llm, state_path(out), poll, say=lambda line: print(line, file=sys.stderr),
                               redact=key_redactor(args))
    try:
        stuck = submit_until_done(lambda: collect_requests(backend, records), sub,
                                  lambda c: c.estimate(llm.settings.model, llm.prices), args.batch_id)
    except BatchFailed as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1, None
    except BatchConflict as exc:
        raise UsageError(str(exc)) from None
    except InputError as exc:          # a foreign file where the state file goes, or an unreadable output
        raise UsageError(f"--batch-submit {exc}") from None
    except KeyboardInterrupt:
        if sub.state.exists():
            print(f"interrupted: the batch keeps running at the provider (recorded in {sub.state}); run the "
                  "same command again to pick it up", file=sys.stderr)
        raise
    finally:
        sub.client.close()
        run_sync(backend.aclose())     # the cache the imports opened
    if stuck:
        print(f"error: {stuck_message(stuck)}", file=sys.stderr)
        return 1, None
    from vital_core.backends.openai.pricing import UsageTracker
    llm.usage = UsageTracker(llm.settings.model, llm.prices)   # the summary is the final run's, not the collections'
    print("every reply is in the cache: writing the results", file=sys.stderr)
    return None, sub.usage()
