"""``python -m vital_core agreement A B``: agreement of two importance labellings."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from vital_core.cli.main import UsageError
from vital_core.files.errors import InputError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", help="first labelling: a .jsonl file (or folder) in any loadable shape")
    parser.add_argument("b", help="second labelling of the same records, in the same order")
    parser.add_argument("--json", action="store_true", help="print one JSON object "
                                                            "(keys kappa, exact, kendall_tau, n, ...)")
    parser.add_argument("--skip-bad", action="store_true", help="skip malformed records instead of stopping")


def _fmt(value) -> str:
    return "undef" if value is None else f"{value:.3f}"


def run(args: argparse.Namespace) -> int:
    from vital_core.loaders.discover import NoDataError
    from vital_core.loaders.load import load_examples

    loaded = []
    for name in (args.a, args.b):
        if not Path(name).exists():
            raise UsageError(f"{name}: no such file or folder")
        try:
            loaded.append(load_examples(name, skip_bad=args.skip_bad))
        except NoDataError as exc:
            raise UsageError(str(exc)) from None
        except InputError as exc:
            print(f"python -m vital_core agreement: error: {exc}", file=sys.stderr)
            return 1
        if not loaded[-1].examples:
            print(f"python -m vital_core agreement: error: {name}: no records found"
                  + (f" ({loaded[-1].skipped} skipped)" if loaded[-1].skipped else ""), file=sys.stderr)
            return 1
    from vital_core.analysis.agreement import compare_labellings  # scipy: only once both inputs have loaded
    try:
        result = compare_labellings(loaded[0].examples, loaded[1].examples)
    except InputError as exc:
        print(f"python -m vital_core agreement: error: {exc}", file=sys.stderr)
        return 1
    skipped = loaded[0].skipped + loaded[1].skipped
    if args.json:
        out = result.to_dict()
        out["skipped"] = skipped
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
    else:
        print(f"A: {args.a}\nB: {args.b}")
        print(f"examples compared: {result.n_examples}; subclaims compared: {result.n} "
              f"(left out: {result.n_excluded} unlabelled or present on one side only)")
        print(f"linear-weighted Cohen's kappa: {_fmt(result.kappa)}")
        print(f"exact agreement:               {_fmt(result.exact)}")
        print(f"mean Kendall tau-b of orders:  {_fmt(result.kendall_tau)}")
        if len(result.per_condition) > 1:
            print("\nper variant:")
            print(result.per_condition.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
        print("\nconfusion (rows: A, columns: B):")
        print(result.confusion.to_string())
        for problem in result.problems:
            print(f"note: {problem}")
        if skipped:
            print(f"skipped {skipped} bad record(s)")
    if result.n == 0:
        print("python -m vital_core agreement: error: no subclaim is labelled in both inputs", file=sys.stderr)
        return 1
    return 0
