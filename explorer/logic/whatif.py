"""What-if: change subclaims' importance or verdict and recompute every metric.

The Score page shows a response's subclaims in an editable table; each edit
goes through ``apply_edits`` (which never mutates the scored result) and the
metrics are computed again. When a tier changes, the importance order is rebuilt so that
all vital subclaims come first, then okay, then less-important, keeping the
original order inside a tier — the ordering rule of the method.
"""
from __future__ import annotations

import copy
from typing import Iterable, Mapping

from vital_core.results.model import (
    ALL_IMPORTANCE,
    VERDICTS,
    ExampleResult,
    ResponseResult,
    normalise_importance,
    normalise_verdict,
    order_by_tier,
)

# The editor's columns, in the order shown, with their widths in px: the editable two come right after the
# rank, and the three fit a 390 px phone (its table is 356 px wide) so that both edits need no sideways scroll.
EDITOR_COLUMNS = {"rank": 44, "importance": 136, "verdict": 172, "subclaim": 400, "id": 75}
EDITABLE = ("importance", "verdict")


def edit_rows(response: ResponseResult) -> list[dict]:
    """The editable view of a response: one row per subclaim in importance order."""
    return [{"rank": s.rank, "id": s.id, "subclaim": s.text, "importance": s.importance,
             "verdict": s.verdict} for s in response.ordered_subclaims()]


def apply_edits(response: ResponseResult, rows: Iterable[Mapping]) -> ResponseResult:
    """A copy of ``response`` with each row's importance and verdict applied (matched by id).

    Unknown ids are ignored; unknown labels raise ``InvalidLabelError`` naming the row.
    """
    edited = copy.deepcopy(response)
    by_id = {s.id: s for s in edited.subclaims}
    tier_changed = False
    for row in rows:
        claim = by_id.get(str(row.get("id")))
        if claim is None:
            continue
        where = f"subclaim {claim.id}"
        if row.get("importance") is not None:
            new = normalise_importance(row["importance"], where=where)
            tier_changed |= new != claim.importance
            claim.importance = new
        if row.get("verdict") is not None:
            claim.verdict = normalise_verdict(row["verdict"], where=where)
    if tier_changed:
        edited.set_order(reorder_by_tier(edited))
    return edited


def reorder_by_tier(response: ResponseResult) -> list[str]:
    """Importance order with tiers grouped (vital first), stable inside a tier."""
    current = response.ordered_subclaims()
    return order_by_tier([s.id for s in current], {s.id: s.importance for s in current})


def has_edits(before: ResponseResult, after: ResponseResult) -> bool:
    """Whether any subclaim's importance or verdict differs between the two."""
    return [(s.id, s.importance, s.verdict) for s in before.subclaims] != \
        [(s.id, s.importance, s.verdict) for s in after.subclaims]


def with_variant(example: ExampleResult, variant: str, response: ResponseResult) -> ExampleResult:
    """A copy of ``example`` holding only ``response`` as ``variant`` (the download of an edited result)."""
    out = copy.deepcopy(example)
    out.variants = {variant: response}
    return out


def changed_metrics(before: Mapping, after: Mapping) -> dict[str, tuple]:
    """Metric key -> (before, after) for every value that changed (undefined included)."""
    return {k: (before.get(k), after.get(k)) for k in set(before) | set(after)
            if before.get(k) != after.get(k)}


IMPORTANCE_CHOICES = list(ALL_IMPORTANCE)
VERDICT_CHOICES = list(VERDICTS)
