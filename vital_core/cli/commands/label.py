"""``python -m vital_core label INPUT --out OUTPUT.jsonl``: relabel importance only.

INPUT holds official-shape records that already have a decomposition (e.g.
``vitalerrors-nq/labels/human/normal.jsonl``). Each subclaim's ``importance``
and each record's ``subclaim-importance-order`` are replaced by the chosen
backend's ranking; everything else is written back unchanged, one output line
per input line. Compare the output with another labelling using
``python -m vital_core agreement``.

Exit status: 0 all records labelled, 1 some records could not be labelled
(their subclaims are written with ``importance: null`` and listed on stderr),
2 bad usage or input.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vital_core.cli.backend_options import add_backend_arguments, backend_from_args, check_out_path, key_redactor
from vital_core.cli.main import UsageError
from vital_core.scoring.pipeline import run_sync
from vital_core.scoring.steps import RANK


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="JSONL of official-shape records with a 'decomposition'")
    parser.add_argument("--out", required=True, help="JSONL to write (an existing one is replaced only when it "
                                                     "is an earlier label output)")
    add_backend_arguments(parser, steps=(RANK,))   # label only ranks


def run(args: argparse.Namespace) -> int:
    from vital_core.files.outputs import check_target, replace_output
    from vital_core.scoring.labelling import LABEL_OUTPUT, check_replaceable, label_records, read_records

    source, out = Path(args.input), Path(args.out)
    if not source.is_file():
        raise UsageError(f"{source}: no such file" if not source.exists() else f"{source} is not a file")
    check_out_path(out, source, "labels.jsonl")
    avoid = [(source, "the input of this run")]
    check_target(out, LABEL_OUTPUT, avoid)
    check_replaceable(out)
    rows = read_records(source)   # bad input: one sentence naming the line, exit 2, before any model work
    if not any(record is not None for _, _, record in rows):
        raise UsageError(f"{source}: no records found (the file is empty or blank)")
    backend = backend_from_args(args)
    n_records = sum(1 for _, _, r in rows if r is not None)
    print(f"labelling {n_records} record(s) with {backend.info.name} ({backend.info.model})",
          file=sys.stderr)

    async def go():
        try:
            return await label_records(backend, rows, source, timeout=args.record_timeout)
        finally:
            await backend.aclose()

    lines, result = run_sync(go())
    redact = key_redactor(args)
    try:
        check_replaceable(out)   # still ours after the model work (another process may have written it)
        with replace_output(out, LABEL_OUTPUT, avoid=avoid) as handle:   # never a half-written output
            for line in lines:
                handle.write(line + "\n")
    except OSError as exc:
        print(f"error: cannot write {out} ({exc.strerror or exc}); nothing was written", file=sys.stderr)
        return 1
    for warning in result.warnings:
        print(f"warning: {redact(warning)}", file=sys.stderr)
    for failure in result.failed:
        print(f"error: {redact(failure)}", file=sys.stderr)
    print(f"wrote {out}: {result.records} record(s), {result.subclaims} subclaim(s) relabelled"
          + (f"; {len(result.failed)} record(s) left unlabelled" if result.failed else ""))
    return 1 if result.failed else 0
