"""``python -m vital_core report PATH``: the paper's tables for scored results."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from vital_core.analysis.conventions import CONVENTIONS, PAPER
from vital_core.cli.main import UsageError, folder_arg, number_in
from vital_core.files.errors import InputError
from vital_core.metrics.formulas import DEFAULT_WEIGHTS, TierWeights


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="release root or any part of it, a folder of {normal,missing,wrong}.jsonl, "
                                     "or a results .jsonl file")
    parser.add_argument("--weights", default=str(DEFAULT_WEIGHTS),
                        help="tier weights vital,okay,less-important for weighted precision/recall "
                             f"(default {DEFAULT_WEIGHTS}, which reproduces the released scores)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument("--conventions", choices=CONVENTIONS, default=PAPER,
                        help="paper: exactly what the authors' table scripts compute, quirks included (default); "
                             "strict: records pooled, undefined and never-judged responses left out and counted")
    parser.add_argument("--figures", metavar="DIR",
                        help="also write Figures 3, 4 and 5 and the detection chart to DIR as SVG and PNG "
                             "(in the colours of the app's charts)")
    parser.add_argument("--export", metavar="FILE",
                        help="also write the per-response frame (every metric under --conventions, undefined left "
                             "empty, and an 'undefined' column saying why) to FILE: "
                             ".parquet or .csv; an existing file is replaced only if it is such an export")
    parser.add_argument("--skip-bad", action="store_true",
                        help="skip malformed records or unknown labels instead of stopping; reports how many")
    parser.add_argument("--k", type=number_in(float, 0, above=True), default=None,
                        help="K of F1@K, with --conventions strict (default: median subclaim count of the loaded "
                             "set; the paper convention always uses the authors' K, the median of each file)")
    parser.add_argument("--no-query-types", action="store_true", help="do not split the tables by query type")
    parser.add_argument("--cache-dir", type=folder_arg, default=None,
                        help="dataset cache folder (default $VITAL_CACHE_DIR or ~/.cache/vital-explorer)")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the dataset cache")


def parse_weights(text: str) -> TierWeights:
    try:
        return TierWeights.parse(text)
    except ValueError as exc:
        raise UsageError(f"--weights: {exc}") from None


def run(args: argparse.Namespace) -> int:
    from vital_core.loaders.discover import NoDataError
    from vital_core.results.dataset import load_dataset

    weights = parse_weights(args.weights)
    if args.k is not None and args.k <= 0:
        raise UsageError("--k must be positive")
    if args.k is not None and args.conventions == PAPER:   # else K would show in the JSON yet change nothing
        raise UsageError("--k sets F1@K's K for --conventions strict; the paper tables use the authors' K (the "
                         "median subclaim count of each file): add --conventions strict, or leave --k out")
    path = Path(args.path)
    if not path.exists():
        raise UsageError(f"{path}: no such file or folder")
    try:
        dataset = load_dataset(path, weights, args.cache_dir, skip_bad=args.skip_bad, f1_k=args.k,
                               use_cache=not args.no_cache)
    except NoDataError as exc:
        raise UsageError(str(exc)) from None
    except InputError as exc:
        print(f"python -m vital_core report: error: {exc}", file=sys.stderr)
        if not args.skip_bad and exc.line is not None:   # a bad record: skipping it would help
            print("(use --skip-bad to skip bad records and report how many were skipped)", file=sys.stderr)
        return 1
    if dataset.frame.empty:
        print(f"python -m vital_core report: error: no records loaded from {path}"
              + (f" ({dataset.skipped} skipped)" if dataset.skipped else ""), file=sys.stderr)
        return 1
    from vital_core.analysis.report import build_report, render_text  # scipy: only once the data has loaded
    if args.json:
        json.dump(build_report(dataset, conventions=args.conventions), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_text(dataset, by_query_type=not args.no_query_types, conventions=args.conventions))
    if args.export:
        export_to(dataset, Path(args.export), args.conventions)
    if args.figures:
        write_figures_to(dataset, Path(args.figures), args.conventions)
    if dataset.skipped:
        print(f"skipped {dataset.skipped} bad record(s)", file=sys.stderr)
    return 0


def export_to(dataset, path: Path, conventions: str) -> None:
    from vital_core.results.export import export_frame, export_table
    try:
        export_frame(export_table(dataset, conventions), path)
    except InputError as exc:
        raise UsageError(f"--export {exc}") from None
    except OSError as exc:
        raise UsageError(f"--export {path}: {exc.strerror or exc}") from None
    print(f"export: {len(dataset.frame)} response(s) -> {path}", file=sys.stderr)


def write_figures_to(dataset, folder: Path, conventions: str) -> None:
    """The one place the command line draws, in the colours of the app's charts (``vital_core.plots``)."""
    from vital_core.plots.figures import write_figures
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--figures {folder} is a file; give a folder")
    try:
        written = write_figures(dataset, folder, conventions)
    except InputError as exc:
        raise UsageError(f"--figures {exc}") from None
    except OSError as exc:
        raise UsageError(f"--figures {folder}: {exc.strerror or exc}") from None
    print(f"figures: {len(written)} file(s) in {folder}", file=sys.stderr)
