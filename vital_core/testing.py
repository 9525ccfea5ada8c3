"""Regression tests of a team's own answers, in pytest (or any test runner)::

    from vital_core.testing import assert_notices

    def test_vital_notices_a_wrong_key_fact():
        assert_notices(normal="There are eight planets ...", wrong="There are nine planets ...",
                       query="How many planets does our solar system have?", documents=[...])

``assert_notices`` scores the answers with ``vital_core.evaluate`` (offline backend by default) and
raises ``AssertionError`` unless VITAL noticed each damaged answer by the story's rule
(``story.vital_notices``: VITAL precision / recall drops by at least 0.10, or RLP / RLR fires where the
normal answer's did not). The message gives each noticing metric before and after, why any is
undefined, and the damaged answer's vital claims with their verdicts. ``assert_metrics`` checks one
answer's metrics against bounds the same way ``vital-explorer check`` does.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import pandas as pd

from vital_core.analysis.check import Threshold, not_noticed_detail
from vital_core.analysis.story import NOTICING, vital_notices
from vital_core.metrics.undefined import why_undefined
from vital_core.results.model import MISSING, NORMAL, VITAL, WRONG

__all__ = ["assert_notices", "assert_metrics"]


def _record(query: str, responses: dict[str, str], documents, reference) -> dict:
    record: dict[str, Any] = {"id": "answer", "query": query, "responses": responses}
    if documents is not None:
        record["documents"] = list(documents)
    if reference is not None:
        record["reference"] = reference
    return record


def _score(record: dict, backend: Any, settings: dict):
    """The scored example and ``evaluate``'s frame of it (``evaluate`` is ``results_frame`` of these)."""
    from vital_core.api import results_frame, score_examples
    example = score_examples([record], backend, **settings)[0]
    frame = results_frame([example])
    rows = {row["condition"]: {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
            for row in frame.to_dict(orient="records")}
    return example, frame, rows


def _why(example, variant: str, key: str) -> str:
    response = example.variants.get(variant)
    if response is None:
        return example.error or "not scored"
    return why_undefined(key, response, example.nuggets)


def _vital_claims(example, variant: str) -> list[str]:
    response = example.variants.get(variant)
    if response is None:
        return []
    return [f"  - {c.verdict.replace('_', ' ')}: {c.text}" for c in response.ordered_subclaims()
            if c.importance == VITAL]


def assert_notices(normal: str, wrong: str | None = None, missing: str | None = None, *, query: str,
                   documents: Sequence[Any] | None = None, reference: str | None = None,
                   backend: Any = "offline", **settings: Any) -> pd.DataFrame:
    """Assert that VITAL notices each damaged answer given (``wrong``: a key fact wrong; ``missing``: a key
    fact left out) against ``normal``. Without documents or a reference answer the damaged answers are
    checked against the normal one, taken as correct. Returns ``vital_core.evaluate``'s frame (one row
    per answer) for further assertions. ``backend`` and ``settings`` go to ``evaluate``."""
    damaged = {kind: text for kind, text in ((WRONG, wrong), (MISSING, missing)) if text is not None}
    if not damaged:
        raise ValueError("assert_notices needs a wrong or a missing answer to compare with the normal one")
    example, frame, rows = _score(_record(query, {NORMAL: normal, **damaged}, documents, reference),
                                  backend, settings)
    failures = []
    for kind in damaged:
        before, after = rows.get(NORMAL), rows.get(kind)
        error = example.error or (before or {}).get("error") or (after or {}).get("error")
        if error or before is None or after is None:
            failures.append(f"the {kind} answer could not be compared with the normal one: scoring failed "
                            f"({error or 'no result'})")
            continue
        if vital_notices(kind, before, after):
            continue
        why = [f"{key} is undefined for the {name} answer: {_why(example, name, key)}"
               for key in NOTICING[kind] for name, row in ((NORMAL, before), (kind, after)) if row[key] is None]
        failures.append("\n".join([f"VITAL did not notice the {kind} answer: "
                                    f"{not_noticed_detail(kind, before, after)}", *why,
                                    f"vital claims of the {kind} answer:", *_vital_claims(example, kind)]))
    if failures:
        raise AssertionError("\n".join(failures))
    return frame


def assert_metrics(response: str, *, query: str, documents: Sequence[Any] | None = None,
                   reference: str | None = None, min: Mapping[str, float] | None = None,
                   max: Mapping[str, float] | None = None, backend: Any = "offline",
                   **settings: Any) -> dict:
    """Assert that one answer's metrics meet the bounds (``min={"vital_precision": 0.8}``,
    ``max={"rlp": 0}``; a flag's bound is 0 or 1). An undefined metric fails with its reason: nothing
    shows its bound is met. Returns the answer's row of ``evaluate``'s frame ({column: value, None
    undefined})."""
    bounds = [Threshold.parse(f"{k}={v}", side) for side, given in (("min", min), ("max", max))
              for k, v in (given or {}).items()]
    if not bounds:
        raise ValueError("assert_metrics needs min= or max= bounds")
    example, _, rows = _score(_record(query, {NORMAL: response}, documents, reference), backend, settings)
    row = rows.get(NORMAL) or {}
    failures = []
    for bound in bounds:
        value = row.get(bound.key)
        if value is None:
            failures.append(f"{bound.words}: undefined ({_why(example, NORMAL, bound.key)})")
        elif not bound.met(float(value)):
            failures.append(f"{bound.words}: got {float(value):.3f}")
    if failures:
        raise AssertionError("\n".join(failures + ["vital claims:", *_vital_claims(example, NORMAL)]))
    return row
