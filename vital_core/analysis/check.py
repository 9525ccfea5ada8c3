"""Quality gates over scored results, for CI (``vital-explorer check``) and tests (``vital_core.testing``).

* a threshold: the mean of a metric over one variant's responses (default: the normal ones) is at least
  (``min``) or at most (``max``) a bound; a flag's mean is the share flagged. Undefined responses are
  left out of the mean and counted, with their most common reason; a metric undefined for every
  response breaches, since nothing shows the bound is met;
* noticed: VITAL noticed the damage of the wrong (or missing) variants (``story.vital_notices``, the
  rule of the story and of Compare) in at least a share of the examples (default: all); an example whose
  noticing metrics are undefined did not notice, and says why;
* scoring: no response failed to score (a failed response measured nothing, so it fails the gate).

Every check reads the metrics under the strict convention (``conventions.per_record``): a response none of
whose subclaims was judged is undefined with its reason, never precision 0 and RLP flagged.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping

import pandas as pd

from vital_core.analysis.conventions import STRICT, per_record
from vital_core.analysis.stats import NOTICE_DROP
from vital_core.analysis.story import NOTICING, vital_notices
from vital_core.files.errors import InputError
from vital_core.metrics.catalog import METRICS
from vital_core.metrics.display import as_number, format_value
from vital_core.metrics.undefined import why_undefined
from vital_core.results.model import NORMAL

KINDS = tuple(NOTICING)        # the damaged variants the story has a "noticed" rule for (wrong, missing)
_TOLERANCE = 1e-12             # a mean of 0.8 computed as 0.7999... still meets --min 0.8


@dataclass(frozen=True)
class Threshold:
    """The mean of ``key`` over the checked responses must be >= ``bound`` (``"min"``) or <= (``"max"``)."""
    key: str
    bound: float
    side: str

    @classmethod
    def parse(cls, text: str, side: str) -> "Threshold":
        """``KEY=X`` as the command line gives it; ValueError says what is wrong in one sentence."""
        key, sep, number = text.partition("=")
        key = key.strip()
        if not sep:
            raise ValueError(f"--{side} {text}: expected METRIC=NUMBER, e.g. vital_precision=0.8")
        if key not in METRICS:
            raise ValueError(f"--{side} {text}: unknown metric {key!r}; expected one of {', '.join(METRICS)}")
        try:
            bound = float(number)
        except ValueError:
            raise ValueError(f"--{side} {text}: {number!r} is not a number") from None
        if not math.isfinite(bound) or (METRICS[key].kind != "count" and not 0 <= bound <= 1):
            raise ValueError(f"--{side} {text}: a {METRICS[key].kind}'s bound must be between 0 and 1")
        return cls(key, bound, side)

    def met(self, mean: float) -> bool:
        return mean >= self.bound - _TOLERANCE if self.side == "min" else mean <= self.bound + _TOLERANCE

    @property
    def words(self) -> str:
        rate = "share flagged" if METRICS[self.key].kind == "flag" else "mean"
        return f"{self.key} {rate} {'>=' if self.side == 'min' else '<='} {self.bound:g}"


@dataclass(frozen=True)
class NoticeRule:
    """VITAL must notice the damage of ``kind`` variants in at least ``share`` of the examples."""
    kind: str
    share: float = 1.0

    @classmethod
    def parse(cls, text: str) -> "NoticeRule":
        kind, sep, number = text.partition("=")
        if kind not in KINDS:
            raise ValueError(f"--require-noticed {text}: expected {' or '.join(KINDS)}, optionally =SHARE "
                             "(e.g. wrong=0.9)")
        try:
            share = float(number) if sep else 1.0
        except ValueError:
            raise ValueError(f"--require-noticed {text}: {number!r} is not a number") from None
        if not 0 <= share <= 1:
            raise ValueError(f"--require-noticed {text}: the share must be between 0 and 1")
        return cls(kind, share)


@dataclass
class Outcome:
    """One check: passed or breached, its line, and (for a breach) what breached it."""
    passed: bool
    line: str
    details: list[str] = field(default_factory=list)


def not_noticed_detail(kind: str, normal: Mapping, variant: Mapping) -> str:
    """Why VITAL did not notice: each noticing metric from the normal response to the variant."""
    score, flag = NOTICING[kind]
    parts = []
    for key in (score, flag):
        before, after = normal.get(key), variant.get(key)
        change = f"{format_value(key, before)} -> {format_value(key, after)}"
        if METRICS[key].kind == "score" and before is not None and after is not None:
            change += f" (drop {before - after:+.3f}; noticing needs {NOTICE_DROP:.2f})"
        parts.append(f"{METRICS[key].label} {change}")
    return "; ".join(parts)


def _reason(dataset, example_id: str, condition: str, key: str) -> str:
    try:
        example = dataset.example(example_id)
    except (KeyError, InputError, OSError) as exc:
        return f"the record could not be read to say why ({exc})"
    response = example.variants.get(condition)
    return "no such response" if response is None else why_undefined(key, response, example.nuggets)


def _strict(dataset) -> pd.DataFrame:
    return per_record(dataset.frame, STRICT)


def check_threshold(dataset, threshold: Threshold, variant: str = NORMAL) -> Outcome:
    frame = _strict(dataset)
    rows = frame[frame["condition"] == variant]
    values = [as_number(v) for v in rows[threshold.key]]
    defined = [v for v in values if v is not None]
    undefined = [(i, c) for (i, c), v in zip(zip(rows["example_id"], rows["condition"]), values) if v is None]
    why = ""
    if undefined:
        reasons = Counter(_reason(dataset, i, c, threshold.key) for i, c in undefined)
        reason, count = reasons.most_common(1)[0]
        why = f" ({count} of them: {reason})" if count < len(undefined) else f" ({reason})"
    if not defined:
        return Outcome(False, f"FAIL {threshold.words}: undefined for all {len(values)} {variant} response(s){why}")
    left_out = f"; {len(undefined)} undefined, left out{why}" if undefined else ""
    over = f"over {len(defined)} {variant} response(s){left_out}"
    mean = sum(defined) / len(defined)
    met = threshold.met(mean)
    return Outcome(met, f"{'ok  ' if met else 'FAIL'} {threshold.words}: {mean:.3f} {over}")


def _metrics_by_example(frame: pd.DataFrame, keys) -> dict[str, dict[str, dict]]:
    out: dict[str, dict[str, dict]] = {}
    for row in frame[["example_id", "condition", *keys]].to_dict(orient="records"):
        out.setdefault(row["example_id"], {})[row["condition"]] = {k: as_number(row[k]) for k in keys}
    return out


def check_noticed(dataset, rule: NoticeRule) -> Outcome:
    keys = NOTICING[rule.kind]
    examples = _metrics_by_example(_strict(dataset), keys)
    judged = {i: v for i, v in examples.items() if rule.kind in v}
    missed: list[str] = []
    for example_id, variants in judged.items():
        if NORMAL not in variants:
            missed.append(f"{example_id}: no normal response to compare the {rule.kind} one with")
        elif not vital_notices(rule.kind, variants[NORMAL], variants[rule.kind]):
            detail = not_noticed_detail(rule.kind, variants[NORMAL], variants[rule.kind])
            why = [f"{key} undefined for the {cond} response: {_reason(dataset, example_id, cond, key)}"
                   for key in keys for cond in (NORMAL, rule.kind) if variants[cond][key] is None]
            missed.append(f"{example_id}: {detail}" + "".join(f"; {w}" for w in why))
    n, caught = len(judged), len(judged) - len(missed)
    share = caught / n
    met = share >= rule.share - _TOLERANCE
    required = "all" if rule.share == 1 else f"at least {rule.share:.0%}"
    line = (f"{'ok  ' if met else 'FAIL'} {rule.kind} variants noticed by VITAL: {caught} of {n} "
            f"example(s) ({share:.0%}; required: {required})")
    return Outcome(met, line, [] if met else missed)


def check_failures(dataset) -> Outcome:
    frame = dataset.frame
    failed = frame[frame["error"].notna() & (frame["error"].astype(str) != "")]
    if failed.empty:
        return Outcome(True, f"ok   scoring: none of {len(frame)} response(s) failed")
    details = [f"{i} {c}: {e}" for i, c, e in zip(failed["example_id"], failed["condition"], failed["error"])]
    return Outcome(False, f"FAIL scoring: {len(failed)} of {len(frame)} response(s) failed to score, "
                          "so they measured nothing", details)


def run_checks(dataset, thresholds: list[Threshold], notice_rules: list[NoticeRule],
               variant: str = NORMAL) -> list[Outcome]:
    """Every check on a loaded set, failures first. Input the checks cannot apply to (a variant or metric
    the set does not have) raises ``InputError`` in one sentence."""
    frame = dataset.frame
    present = set(frame["condition"])
    if thresholds and variant not in present:
        raise InputError(f"{dataset.path or 'the results'}: no {variant!r} responses to check thresholds on "
                         f"(variants present: {', '.join(sorted(present))})")
    for rule in notice_rules:
        if rule.kind not in present:
            raise InputError(f"{dataset.path or 'the results'}: no {rule.kind!r} variants to check "
                             f"(variants present: {', '.join(sorted(present))})")
    for threshold in thresholds:
        if threshold.key not in frame.columns:
            raise InputError(f"{dataset.path or 'the results'}: no {threshold.key!r} column to check")
    return [check_failures(dataset)] + [check_threshold(dataset, t, variant) for t in thresholds] \
        + [check_noticed(dataset, r) for r in notice_rules]
