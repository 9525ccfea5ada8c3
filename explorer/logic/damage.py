"""Compare an example's response variants: every metric per variant, its change
from normal, and one headline sentence per damaged variant saying which of the
story's metrics (FactScore, VITAL precision, RLP, VITAL recall, RLR) noticed.

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
from vital_core.stats import noticed, worsening
from vital_core.story import STORY_FAMILIES

from explorer.logic.filters import short_label

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


def chart_data(table: pd.DataFrame, keys: list[str], names: list[str], example: ExampleResult) -> pd.DataFrame:
    """Compare's chart data (also its CSV): metric, variant, value (None = undefined) and what the
    variant's claims were checked against."""
    rows = []
    for key in keys:
        found = table[table["key"] == key]
        if found.empty:
            continue
        for name in names:
            value = found.iloc[0][name]
            rows.append({"metric": METRICS[key].label, "variant": name,
                         "value": None if value is None or pd.isna(value) else float(value),
                         "evidence_mode": example.variants[name].evidence_mode})
    return pd.DataFrame(rows, columns=["metric", "variant", "value", "evidence_mode"])


# The headline's words: a score that moved less than NOTICE_DROP did not notice (the number shows how little).
HEADLINE_WORDS = {NOTICED: "noticed", BARELY: "did not notice", NOT_NOTICED: "did not notice",
                  UNKNOWN: "undefined"}
ALREADY_FLAGGED = "already fired on the normal response"
# The headline names metrics that reacted alike together, but only within a family: FactScore alone,
# then VITAL precision with RLP, then VITAL recall with RLR.


@dataclass
class Headline:
    """One damaged variant's story: its name and a plain-text sentence (the page escapes both)."""
    variant: str
    body: str

    def sentence(self) -> str:
        return f"{self.variant}: {self.body}"


def _signed(change) -> str:
    """A change as "−0.04" / "+0.10" (a true minus sign)."""
    return f"{change:+.2f}".replace("-", "\u2212")


def _phrase(row: pd.Series, variant: str) -> tuple[str, str]:
    """A metric as the headline names it (a score with its change, a flag by its name) and its word."""
    spec = METRICS[row["key"]]
    label, change, reacted = short_label(row["key"]), row.get(f"change {variant}"), row[f"reaction {variant}"]
    if spec.kind == "score" and change is not None and not pd.isna(change):
        label = f"{label} {_signed(change)}"
    if spec.kind == "flag" and reacted == NOT_NOTICED and row.get(NORMAL) == (not spec.higher_is_better):
        return label, ALREADY_FLAGGED
    return label, HEADLINE_WORDS[reacted]


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def headline(table: pd.DataFrame, variant: str) -> Headline:
    """The story of one damaged variant of a ``metric_table``, e.g. "FactScore precision −0.04: did not
    notice; VITAL precision −0.25 and RLP: noticed; VITAL recall +0.00 and RLR: did not notice"."""
    parts = []
    for family in STORY_FAMILIES:
        runs: list[tuple[str, list[str]]] = []
        for key in family:
            found = table[table["key"] == key]
            if found.empty:
                continue
            label, word = _phrase(found.iloc[0], variant)
            if runs and runs[-1][0] == word:
                runs[-1][1].append(label)
            else:
                runs.append((word, [label]))
        parts += [f"{_join(labels)}: {word}" for word, labels in runs]
    return Headline(variant, "; ".join(parts) or "no metric to compare")


def headlines(table: pd.DataFrame) -> list[Headline]:
    """One headline per damaged variant of a ``metric_table`` (each has a reaction column)."""
    return [headline(table, c.removeprefix("reaction ")) for c in table.columns if c.startswith("reaction ")]
