"""``python -m vital_core score INPUT --out RESULTS.jsonl``: resumable batch scoring.

INPUT is the project's input JSONL (see ``vital_core.inputs``) or anything the
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
live call.

Exit status: 0 all records scored, 1 some records failed (their errors are in
the results and the summary), 2 bad usage or input, 130 interrupted.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from vital_core.cli.backend_options import (add_backend_arguments, add_size_argument, key_redactor, prepare_batch,
                                           run_batch_command)
from vital_core.cli.main import UsageError
from vital_core.errors import InputError
from vital_core.pipeline import run_sync
from vital_core.runs import run_batch, score_record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="input JSONL ({id, query, responses, documents, reference} per line) "
                                      "or a folder/file in the official release layout")
    parser.add_argument("--out", required=True, help="results JSONL to write (appended to; resumable)")
    parser.add_argument("--retry-failed", action="store_true",
                        help="score again the records that failed in an earlier run of this output")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--batch-import", metavar="FILE",
                        help="load a Batch output file (OpenAI or vLLM run_batch) into the reply cache first")
    parser.add_argument("--batch-export", metavar="FILE",
                        help="write the requests this run still needs as an OpenAI Batch input file instead of "
                             "calling the endpoint (no results are written)")
    add_size_argument(parser)
    add_backend_arguments(parser)


def run(args: argparse.Namespace) -> int:
    out, records, backend = prepare_batch(args, "scoring")
    if args.batch_import or args.batch_export:
        if backend.info.name != "openai" or backend.client.cache is None:
            raise UsageError("--batch-import and --batch-export need --backend openai with the reply cache on")
        if args.batch_import:
            import_batch(backend, Path(args.batch_import))
        if args.batch_export:
            return export_batch(backend, records, Path(args.batch_export))
    return run_batch_command(backend, out, lambda: run_batch(
        backend, records, out, concurrency=args.concurrency, progress=not args.no_progress,
        retry_failed=args.retry_failed, redact=key_redactor(), record_timeout=args.record_timeout,
        max_words=args.max_words))


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


def export_batch(backend, records, path: Path) -> int:
    """Run the pipeline with a collector instead of the endpoint; write what it asked for."""
    from vital_core.backends.openai.batch import BatchCollector, write_requests
    collector = backend.client.collector = BatchCollector()

    async def collect():
        try:
            await asyncio.gather(*(score_record(backend, record) for record in records))
        finally:
            await backend.aclose()

    run_sync(collect())
    if not collector.requests:
        print("nothing left to request: every reply is in the cache; run again without --batch-export "
              "to write the results", file=sys.stderr)
        return 0
    try:
        write_requests(collector, path)
    except InputError as exc:
        raise UsageError(f"--batch-export {exc}") from None
    print(collector.estimate(backend.settings.model, backend.client.prices), file=sys.stderr)
    print(f"wrote {path}: send it as a batch (OpenAI Batch API or vLLM run_batch), then run again with "
          f"--batch-import OUTPUT (and --batch-export for the next stage)", file=sys.stderr)
    return 0
