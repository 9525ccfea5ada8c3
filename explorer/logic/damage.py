"""Compare an example's response variants: every metric per variant, its change
from normal, and a plain verdict of which metrics noticed the damage.

"Noticed" is ``vital_core.stats.noticed`` (``NOTICED_RULE``), the rule the
detection rate of the sensitivity statistics uses too. A score that got worse
by less than ``NOTICE_DROP`` "barely moved".
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from vital_core.metrics.catalog import METRICS
from vital_core.metrics.formulas import DEFAULT_WEIGHTS
from vital_core.metrics.response import compute_response_metrics
from vital_core.model import NORMAL, ExampleResult
from vital_core.stats import NOTICE_DROP, noticed, worsening

NOTICED, BARELY, NOT_NOTICED, UNKNOWN, NOT_A_SCORE = (
    "noticed", "barely moved", "did not notice", "undefined", "")


def variant_metrics(example: ExampleResult, weights=DEFAULT_WEIGHTS) -> dict[str, dict]:
    return {name: compute_response_metrics(v, example.nuggets, weights)
            for name, v in example.variants.items()}


def reaction(key: str, normal, variant) -> str:
    """How metric ``key`` reacted going from the normal response to a damaged variant."""
    spec = METRICS[key]
    if spec.kind not in ("score", "flag"):
        return NOT_A_SCORE   # counts describe the response; they do not judge it
    verdict = noticed(spec, normal, variant)
    if verdict is None:
        return UNKNOWN
    if verdict:
        return NOTICED
    if spec.kind == "score" and worsening(spec, normal, variant) > 1e-12:
        return BARELY
    return NOT_NOTICED


def metric_table(example: ExampleResult, keys: list[str], weights=DEFAULT_WEIGHTS) -> pd.DataFrame:
    """Rows: metrics; columns: each variant's value, then each damaged variant's change
    from normal and its reaction. ``None`` stays ``None`` (undefined)."""
    values = variant_metrics(example, weights)
    names = list(example.variants)
    rows = []
    for key in keys:
        row = {"key": key, "metric": METRICS[key].label}
        for name in names:
            row[name] = values[name].get(key)
        base = values.get(NORMAL, {}).get(key)
        for name in names:
            if name == NORMAL or NORMAL not in values:
                continue
            v = values[name].get(key)
            numeric = METRICS[key].kind == "score" and base is not None and v is not None
            row[f"change {name}"] = (v - base) if numeric else None
            row[f"reaction {name}"] = reaction(key, base, v)
        rows.append(row)
    return pd.DataFrame(rows)


@dataclass
class DamageVerdict:
    variant: str
    noticed: list[str]
    barely: list[str]
    missed: list[str]
    undefined: list[str]

    def sentence(self) -> str:
        parts = []
        if self.noticed:
            parts.append(f"noticed by {', '.join(self.noticed)}")
        if self.barely:
            parts.append(f"barely moved {', '.join(self.barely)} (drop under {NOTICE_DROP:.2f})")
        if self.missed:
            parts.append(f"not noticed by {', '.join(self.missed)}")
        if self.undefined:
            parts.append(f"undefined for {', '.join(self.undefined)}")
        body = "; ".join(parts) if parts else "no metric to compare"
        return f"The {self.variant} response: {body}."


def damage_verdicts(table: pd.DataFrame) -> list[DamageVerdict]:
    """One plain verdict per damaged variant from a ``metric_table``."""
    out = []
    for column in [c for c in table.columns if c.startswith("reaction ")]:
        variant = column.removeprefix("reaction ")
        groups = {NOTICED: [], BARELY: [], NOT_NOTICED: [], UNKNOWN: []}
        for _, row in table.iterrows():
            if METRICS[row["key"]].kind in ("score", "flag"):
                groups[row[column]].append(row["metric"])
        out.append(DamageVerdict(variant, groups[NOTICED], groups[BARELY], groups[NOT_NOTICED],
                                 groups[UNKNOWN]))
    return out
