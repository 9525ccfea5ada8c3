"""``vital-explorer check RESULTS --min KEY=X --max-rlp-rate R --require-noticed wrong``: a CI gate.

Prints one line per check (``ok`` or ``FAIL``; a failed notice check lists its examples indented below
it) and a last line counting the breaches. Exit 0 when every check passes, 1 when any is breached,
2 on bad input (one sentence naming the file, line or option). The checks: ``vital_core.analysis.check``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vital_core.cli.main import UsageError
from vital_core.results.model import NORMAL


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="scored results: a results .jsonl file (as score writes it), a folder of "
                                     "{normal,missing,wrong}.jsonl or a release layout")
    parser.add_argument("--min", action="append", default=[], metavar="METRIC=X",
                        help="the mean of METRIC over the checked responses must be at least X "
                             "(e.g. vital_precision=0.8); repeatable")
    parser.add_argument("--max", action="append", default=[], metavar="METRIC=X",
                        help="the mean of METRIC must be at most X (e.g. pcp=0.1); a flag's mean is the share "
                             "flagged; repeatable")
    parser.add_argument("--max-rlp-rate", metavar="R", help="at most this share of responses with a vital "
                                                            "claim not supported (the same as --max rlp=R)")
    parser.add_argument("--max-rlr-rate", metavar="R", help="at most this share of responses missing a vital "
                                                            "nugget (the same as --max rlr=R)")
    parser.add_argument("--require-noticed", action="append", default=[], metavar="KIND[=SHARE]",
                        help="VITAL must notice the damage of every KIND variant (wrong or missing), or of at "
                             "least SHARE of them (wrong=0.9): its VITAL precision / recall drops by at least "
                             "0.10 or RLP / RLR fires where the normal response's did not; repeatable")
    parser.add_argument("--variant", default=NORMAL,
                        help=f"the responses --min / --max are computed over (default {NORMAL})")


def _checks(args: argparse.Namespace):
    from vital_core.analysis.check import NoticeRule, Threshold
    thresholds, rules = [], []
    try:
        thresholds += [Threshold.parse(text, "min") for text in args.min]
        thresholds += [Threshold.parse(text, "max") for text in args.max]
        for key, rate in (("rlp", args.max_rlp_rate), ("rlr", args.max_rlr_rate)):
            if rate is not None:
                thresholds.append(Threshold.parse(f"{key}={rate}", "max"))
        rules += [NoticeRule.parse(text) for text in args.require_noticed]
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if not thresholds and not rules:
        raise UsageError("nothing to check: give --min, --max, --max-rlp-rate, --max-rlr-rate or --require-noticed")
    return thresholds, rules


def run(args: argparse.Namespace) -> int:
    from vital_core.analysis.check import run_checks
    from vital_core.results.dataset import load_dataset

    thresholds, rules = _checks(args)
    path = Path(args.path)
    if not path.exists():
        raise UsageError(f"{path}: no such file or folder")
    from vital_core.scoring.inputs import is_input_jsonl
    if is_input_jsonl(path):
        raise UsageError(f"{path}: holds responses to score, not scored results; score it first "
                         f"(vital-explorer score {path} --out RESULTS.jsonl), then check RESULTS.jsonl")
    dataset = load_dataset(path, use_cache=False)     # bad data: InputError, one sentence, exit 2
    if dataset.frame.empty:
        raise UsageError(f"{path}: no scored responses in it")
    for problem in dataset.problems:
        print(f"warning: {problem}", file=sys.stderr)
    outcomes = run_checks(dataset, thresholds, rules, args.variant)
    for outcome in outcomes:
        print(outcome.line)
        for detail in outcome.details:
            print(f"  {detail}")
    breached = sum(not o.passed for o in outcomes)
    print(f"check: {breached} of {len(outcomes)} check(s) breached" + (" -> fail" if breached else " -> pass"))
    return 1 if breached else 0
