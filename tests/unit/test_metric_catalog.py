"""Every metric of the catalog is computed by both paths (one response, many at once) and explained when
undefined; a toy metric added by docs/architecture.md's recipe passes the same checks, and fails them
when a step of the recipe is left out."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from vital_core.metrics import catalog
from vital_core.metrics import response as R
from vital_core.metrics import undefined as U
from vital_core.metrics import vectorised as VEC
from vital_core.metrics.catalog import METRICS, MetricSpec
from vital_core.results.frame import METRIC_COLUMNS
from vital_core.results.model import (
    CONTRADICTED,
    EVIDENCE_DOCUMENTS,
    EVIDENCE_NONE,
    EVIDENCE_NORMAL,
    EVIDENCE_REFERENCE,
    NOT_ENOUGH_EVIDENCE,
    NOT_JUDGED,
    SUPPORTED,
    Nugget,
    ResponseResult,
    Subclaim,
)

TIERS = ["vital", "okay", "less-important", "unlabelled"]
VERDICTS = [SUPPORTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED, CONTRADICTED]
MODES = [EVIDENCE_DOCUMENTS, EVIDENCE_REFERENCE, EVIDENCE_NORMAL, EVIDENCE_NONE, "unknown"]


def _random_example(rng: random.Random) -> tuple[ResponseResult, list[Nugget] | None]:
    """A response of any shape: no claims, none judged, unranked, no nuggets, some unassigned, a reference
    without labels, a separate reference check, every evidence mode."""
    n = rng.choice([0, 1, 2, 3, 6])
    all_unjudged = rng.random() < 0.2
    claims = [Subclaim(f"S{i}", f"c{i}", importance=rng.choice(TIERS),
                       verdict=NOT_JUDGED if all_unjudged else rng.choice(VERDICTS)) for i in range(n)]
    order = [s.id for s in claims]
    rng.shuffle(order)
    nuggets = assignment = None
    if rng.random() < 0.7:
        nuggets = [Nugget(f"N{i}", f"n{i}", rng.choice(["vital", "okay"])) for i in range(rng.choice([0, 1, 2, 5]))]
        if rng.random() < 0.8:
            assignment = {g.id: rng.choice(["support", "partial_support", "not_support"]) for g in nuggets
                          if rng.random() < 0.95}
    refs = None
    if rng.random() < 0.4:
        refs = [Subclaim(f"R{i}", "r", importance=rng.choice(TIERS), verdict=rng.choice(VERDICTS))
                for i in range(rng.choice([0, 1, 3]))]
    fc = {s.id: rng.choice(VERDICTS) for s in claims} if claims and rng.random() < 0.2 else None
    response = ResponseResult("normal", "t", subclaims=claims, order=order if rng.random() < 0.8 else [],
                              nugget_assignment=assignment, reference_claims=refs,
                              evidence_mode=rng.choice(MODES), fc_verdicts=fc)
    return response, nuggets


EXAMPLES = [_random_example(random.Random(seed)) for seed in range(500)]


def check_catalog(keys: list[str]) -> None:
    """The checks the recipe must pass, for ``keys`` of the catalog."""
    per_response = [k for k in keys if METRICS[k].per_response]
    missing = [k for k in per_response if k not in R.FORMULAS]
    assert not missing, f"no formula registered in response.FORMULAS for {missing}"
    set_level = [k for k in keys if not METRICS[k].per_response]
    assert all(k in METRIC_COLUMNS for k in set_level), f"set-level metrics not computed by the dataset: {set_level}"
    batch = VEC.MetricColumns()
    for response, nuggets in EXAMPLES:
        batch.add(R.ScoringInput.from_response(response, nuggets))
    columns = VEC.column_metrics(batch)
    twinless = [k for k in per_response if k not in columns]
    assert not twinless, f"no numpy twin in vectorised.FAMILIES for {twinless}"
    explained: set[str] = set()
    for row, (response, nuggets) in enumerate(EXAMPLES):
        values = R.compute_response_metrics(response, nuggets)
        for key in per_response:
            got = float(columns[key][row])
            if values[key] is None:
                assert math.isnan(got), (key, row)
                reason = U.why_undefined(key, response, nuggets)
                assert reason != U.UNEXPLAINED, f"{key} undefined for example {row} without a declared reason"
                explained.add(key)
            else:
                assert got == pytest.approx(float(values[key]), abs=1e-12), (key, row)
    never = [k for k in per_response if METRICS[k].requires and k not in explained]
    assert not never, f"these metrics were never undefined on the examples, so never explained: {never}"


def test_every_catalog_metric_is_computed_by_both_paths_and_explained_when_undefined():
    assert set(R.FORMULAS) == {k for k, m in METRICS.items() if m.per_response}
    check_catalog(list(METRICS))


def test_every_requirement_has_a_check_and_verdict_metrics_are_derived():
    assert set(U.CHECKS) == set(catalog.REQUIREMENTS)
    assert catalog.FROM_VERDICTS == [k for k, m in METRICS.items() if "verdicts" in m.requires]
    with pytest.raises(ValueError, match="unknown"):
        MetricSpec("x", "X", "score", True, ("a wish",), "")


def test_a_failed_response_says_so_for_every_metric():
    response = ResponseResult("wrong", "t", subclaims=[Subclaim("S1", "a", importance="vital")], error="boom")
    assert all(U.why_undefined(k, response, None) == "scoring failed: boom" for k in METRICS)


# --------------------------------------------------------------------------- the recipe's toy metric
# docs/architecture.md, "Adding a metric": the same four steps, here at run time.

def contradicted_share(verdicts):
    """Share of subclaims the evidence contradicts (the toy formula)."""
    return None if not verdicts else sum(v == CONTRADICTED for v in verdicts) / len(verdicts)


TOY = MetricSpec("contradicted_share", "Contradicted share", "score", False, ("subclaims", "verdicts"),
                 "contradicted subclaims / subclaims")


def _toy_twin(c, weights, out):
    return {"contradicted_share": c.ratio(out["n_contradicted"], out["n_subclaims"])}


def _add_toy(monkeypatch, *, formula=True, twin=True):
    monkeypatch.setitem(METRICS, TOY.key, TOY)                                           # 1. catalog
    if formula:
        monkeypatch.setitem(R.FORMULAS, TOY.key, lambda r: contradicted_share(r.ver))    # 2. formula
    if twin:
        monkeypatch.setattr(VEC, "FAMILIES", VEC.FAMILIES + [_toy_twin])                 # 3. numpy twin


def test_the_recipes_toy_metric_passes_the_catalog_checks(monkeypatch):
    _add_toy(monkeypatch)
    check_catalog([TOY.key])                                                              # 4. this test
    unchecked = ResponseResult("normal", "t", subclaims=[Subclaim("S1", "a", verdict=NOT_JUDGED)],
                               evidence_mode=EVIDENCE_NONE)
    assert R.compute_response_metrics(unchecked)[TOY.key] is None
    assert U.why_undefined(TOY.key, unchecked, None).startswith("nothing was checked")


@pytest.mark.parametrize("left_out, message", [("formula", "no formula"), ("twin", "no numpy twin")])
def test_leaving_out_a_step_of_the_recipe_fails_the_check(monkeypatch, left_out, message):
    _add_toy(monkeypatch, **{left_out: False})
    with pytest.raises((AssertionError, KeyError), match=message):
        check_catalog([TOY.key])


def test_a_requirement_left_undeclared_is_caught(monkeypatch):
    """A metric that can be undefined for a reason its entry does not declare fails the explanation check."""
    _add_toy(monkeypatch)
    monkeypatch.setitem(METRICS, TOY.key, MetricSpec(TOY.key, TOY.label, "score", False, ("verdicts",), ""))
    with pytest.raises(AssertionError, match="without a declared reason"):
        check_catalog([TOY.key])


def test_the_numpy_twins_keep_flags_as_zero_or_one():
    batch = VEC.MetricColumns()
    for response, nuggets in EXAMPLES[:50]:
        batch.add(R.ScoringInput.from_response(response, nuggets))
    columns = VEC.column_metrics(batch)
    for key in (k for k, m in METRICS.items() if m.kind == "flag"):
        values = columns[key][~np.isnan(columns[key])]
        assert set(values) <= {0.0, 1.0}, key
