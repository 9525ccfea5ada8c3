"""``python -m vital_core score INPUT --out RESULTS.jsonl``: resumable batch scoring.

INPUT is the project's input JSONL (see ``vital_core.inputs``) or anything the
loaders read (the official release layout, a folder of condition files).
Each finished record is appended to RESULTS.jsonl at once; running the same
command again after Ctrl-C or ``kill -9`` skips the records already there.
The run summary (records, failures, LLM calls, cache hits, tokens, cost) is
printed at the end and saved as RESULTS.jsonl.summary.json.

Exit status: 0 all records scored, 1 some records failed (their errors are in
the results and the summary), 2 bad usage or input, 130 interrupted.
"""
from __future__ import annotations

import argparse

from vital_core.cli.backend_options import add_backend_arguments, key_redactor, prepare_batch, run_batch_command
from vital_core.runs import run_batch


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="input JSONL ({id, query, responses, documents, reference} per line) "
                                      "or a folder/file in the official release layout")
    parser.add_argument("--out", required=True, help="results JSONL to write (appended to; resumable)")
    parser.add_argument("--retry-failed", action="store_true",
                        help="score again the records that failed in an earlier run of this output")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    add_backend_arguments(parser)


def run(args: argparse.Namespace) -> int:
    out, records, backend = prepare_batch(args, "scoring")
    return run_batch_command(backend, out, lambda: run_batch(
        backend, records, out, concurrency=args.concurrency, progress=not args.no_progress,
        retry_failed=args.retry_failed, redact=key_redactor()))
