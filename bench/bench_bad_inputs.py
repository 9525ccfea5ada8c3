"""Bad input and a hostile provider: the figures of issue 11 ("nothing lost, nothing silent").

1. The generated bad-input corpus (``tests/support/bad_inputs.py``): every case run as a subprocess
   (``python -m vital_core ...``), two at a time. Counted: cases per command, exit status as
   documented, tracebacks, errors that name the file and line (or the field / flag), bytes of
   given files (inputs and existing outputs) changed.
2. The hostile OpenAI-compatible server (``tests/support/hostile_provider.py``) on 127.0.0.1: every fault
   kind made persistent on every pipeline step, in turn (``score`` machinery, real client, real
   HTTP). Counted: records in and out, records lost or written twice, failed responses, failures
   scored as a number, task exceptions never retrieved.

    python -m bench.bench_bad_inputs [--corpus-only | --hostile-only] [--json]

The figures in docs/commands.md ("Bad input: figures from a run") come from this command.
"""
from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.support.bad_input_runner import run_case
from tests.support.bad_inputs import generate
from tests.support.hostile_provider import ALL_FAULTS, STEPS, hostile_run, provider, scored_failures


def corpus_figures() -> dict:
    cases = generate()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(lambda case: run_case(case, Path(tmp)), cases))
    return {"cases": len(cases), "by_command": dict(Counter(c.argv[0] for c in cases)),
            "exit_status_as_documented": sum(o.code == o.case.code for o in outcomes),
            "tracebacks": sum(o.traceback for o in outcomes),
            "named_file_line_or_field": sum(o.named for o in outcomes),
            "files_changed": sum(len(o.changed) for o in outcomes),
            "bytes_destroyed": sum(sum(o.changed.values()) for o in outcomes),
            "unexpected_errors": sum(o.crashed for o in outcomes),
            "secrets_shown": sum(o.leaked for o in outcomes),
            "not_ok": [o.case.name for o in outcomes if not o.ok],
            "seconds": round(time.monotonic() - started, 1)}


def hostile_figures() -> dict:
    runs = []
    started = time.monotonic()
    with provider() as server, tempfile.TemporaryDirectory() as tmp:
        for fault in ALL_FAULTS:
            for step in STEPS:
                runs.append(hostile_run(server, Path(tmp) / f"{step}-{fault}", step, fault))
    lost = sum(len(set(r.ids_in) - set(r.ids_out)) for r in runs)
    duplicated = sum(len(r.ids_out) - len(set(r.ids_out)) for r in runs)
    return {"fault_kinds": len(ALL_FAULTS), "steps": len(STEPS), "runs": len(runs),
            "records_in": sum(len(r.ids_in) for r in runs), "records_out": sum(len(r.ids_out) for r in runs),
            "records_lost": lost, "records_duplicated": duplicated,
            "responses": sum(len(r.frame) for r in runs),
            "responses_failed": sum(int(r.frame["error"].notna().sum()) for r in runs),
            "failures_scored_as_numbers": sum(scored_failures(r.frame) for r in runs),
            "unretrieved_task_exceptions": sum(len(r.unretrieved) for r in runs),
            "seconds": round(time.monotonic() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus-only", action="store_true")
    parser.add_argument("--hostile-only", action="store_true")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)   # the per-call warnings of the hostile runs are expected
    figures = {}
    if not args.hostile_only:
        figures["corpus"] = corpus_figures()
    if not args.corpus_only:
        figures["hostile"] = hostile_figures()
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for part, values in figures.items():
        print(f"[{part}]")
        for key, value in values.items():
            print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
