"""Every metric on small hand-worked cases, including the undefined (None) cases."""
from __future__ import annotations

import numpy as np
import pytest

from vital_core.metrics import formulas as M
from vital_core.metrics import response as R
from vital_core.metrics import vectorised as VEC
from vital_core.metrics.catalog import METRICS
from vital_core.results.model import (
    CONTRADICTED,
    EVIDENCE_DOCUMENTS,
    EVIDENCE_REFERENCE,
    NOT_ENOUGH_EVIDENCE,
    NOT_JUDGED,
    SUPPORTED,
    Nugget,
    ResponseResult,
    Subclaim,
)

S, N, J, C = SUPPORTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED, CONTRADICTED
V, OK, L = "vital", "okay", "less-important"


def response(claims, order=None, assignment=None, reference=None, mode=EVIDENCE_DOCUMENTS) -> ResponseResult:
    subclaims = [Subclaim(id=f"S{i + 1}", text=f"c{i}", importance=imp, verdict=ver)
                 for i, (imp, ver) in enumerate(claims)]
    refs = None if reference is None else [Subclaim(id=f"R{i + 1}", text="r", importance=imp, verdict=ver)
                                           for i, (imp, ver) in enumerate(reference)]
    return ResponseResult(variant="normal", text="t", subclaims=subclaims, order=order or [],
                          nugget_assignment=assignment, reference_claims=refs, evidence_mode=mode)


def test_factscore_and_tier_precision_count_not_judged_as_not_supported():
    verdicts = [S, S, J, N]
    importance = [V, OK, L, L]
    assert M.factscore_precision(verdicts) == 0.5
    assert M.vital_precision(importance, verdicts) == 1.0
    assert M.tier_precision(importance, verdicts, L) == 0.0
    assert M.tier_counts(importance) == {V: 1, OK: 1, L: 2}
    assert M.factscore_precision([]) is None
    assert M.vital_precision([OK, L], [S, S]) is None


def test_weighted_precision_formula_and_weights():
    importance, verdicts = [V, OK, L, L], [S, N, S, J]
    # (1*1 + 0.6*0 + 0.4*1 + 0.4*0) / (1 + 0.6 + 0.4 + 0.4)
    assert M.weighted_precision(importance, verdicts) == pytest.approx(1.4 / 2.4)
    assert M.weighted_precision(importance, verdicts, M.TierWeights(1, 0.5, 0.1)) == pytest.approx(1.1 / 1.7)
    # unlabelled subclaims belong to no tier
    assert M.weighted_precision(["unlabelled", V], [N, S]) == 1.0
    assert M.weighted_precision(["unlabelled"], [S]) is None
    assert M.weighted_precision([L], [S], M.TierWeights(1, 1, 0)) is None


def test_tier_weights_parse():
    assert M.TierWeights.parse("1, 0.6 ,0.4") == M.DEFAULT_WEIGHTS
    assert str(M.TierWeights(1, 0.5, 0.1)) == "1,0.5,0.1"
    for bad in ("1,2", "a,b,c", "1,-1,0", "0,0,0"):
        with pytest.raises(ValueError):
            M.TierWeights.parse(bad)


def test_release_decay_weights_are_n_minus_i_over_i():
    assert M.release_decay_weights(4) == [3.0, 1.0, 1 / 3, 0.0]
    assert M.release_decay_weights(1) == [0.0]
    assert M.linear_decay_weights(4) == [1.0, 0.75, 0.5, 0.25]


def test_decay_precision_release_linear_topk_and_undefined():
    ordered = [S, N, S, S]
    # release: (3*1 + 1*0 + 1/3*1 + 0*1) / (3 + 1 + 1/3)
    assert M.decay_precision(ordered) == pytest.approx((3 + 1 / 3) / (4 + 1 / 3))
    assert M.decay_precision(ordered, "linear") == pytest.approx((1 + 0.5 + 0.25) / 2.5)
    # top-k keeps the first k and uses n = min(k, n)
    seven = [S, N, S, S, N, S, S]
    assert M.decay_precision(seven, top_k=5) == pytest.approx(M.decay_precision(seven[:5]))
    assert M.decay_precision(seven, top_k=5) == pytest.approx((4 + 2 / 3 + 1 / 4) / (4 + 3 / 2 + 2 / 3 + 1 / 4))
    assert M.decay_precision([S, N], top_k=5) == 1.0
    # one subclaim: total release weight 0 -> undefined (the release reports 0)
    assert M.decay_precision([S]) is None
    assert M.decay_precision([S], "linear") == 1.0
    assert M.decay_precision([]) is None and M.decay_precision(None) is None


def test_decay_precision_follows_importance_order_and_needs_a_ranking():
    r = response([(L, N), (V, S), (OK, S)], order=["S2", "S3", "S1"])
    m = R.compute_response_metrics(r)
    assert m["decay_precision"] == pytest.approx((2 * 1 + 0.5 * 1 + 0) / 2.5)
    unranked = R.compute_response_metrics(response([(L, N), (V, S), (OK, S)]))
    assert unranked["decay_precision"] is None and unranked["linear_decay_precision"] is None


ASSIGN = ["support", "partial_support", "not_support", "support"]
NUG_IMP = [V, V, OK, OK]


def test_nugget_recall_variants():
    assert M.nugget_recall(NUG_IMP, ASSIGN) == 0.5                      # All Strict
    assert M.nugget_recall(NUG_IMP, ASSIGN, partial_credit=0.5) == pytest.approx(2.5 / 4)
    assert M.vital_recall(NUG_IMP, ASSIGN) == 0.5                       # Vital Strict
    assert M.vital_recall(NUG_IMP, ASSIGN, 0.5) == 0.75
    assert M.vital_recall([OK, OK], ["support", "support"]) is None
    assert M.nugget_recall([], []) is None and M.nugget_recall(NUG_IMP, None) is None
    assert M.nugget_recall([V], [None]) is None                          # unassigned nugget


def test_weighted_recall_counts_partial_as_in_the_release_or_strictly():
    # partial counts: (1 + 1 + 0 + 0.6) / (1 + 1 + 0.6 + 0.6)
    assert M.weighted_recall(NUG_IMP, ASSIGN) == pytest.approx(2.6 / 3.2)
    assert M.weighted_recall(NUG_IMP, ASSIGN, partial_credit=0.0) == pytest.approx(1.6 / 3.2)
    assert M.weighted_recall(NUG_IMP, None) is None


def test_decay_recall_counts_partial_in_nugget_order():
    assert M.decay_recall(ASSIGN) == pytest.approx((3 + 1 + 0 + 0) / (3 + 1 + 1 / 3))
    assert M.decay_recall(ASSIGN, top_k=2) == 1.0
    assert M.decay_recall(["support"]) is None


def test_rlp_and_rlr():
    assert M.rlp([V, OK], [S, N]) is False
    assert M.rlp([V, V], [S, J]) is True       # not judged is not supported
    assert M.rlp([OK], [N]) is None
    assert M.rlr(NUG_IMP, ASSIGN) is True        # partial support is not support
    assert M.rlr([V, OK], ["support", "not_support"]) is False
    assert M.rlr([OK], ["not_support"]) is None


def test_f1_and_f_beta():
    assert M.f1(0.5, 1.0) == pytest.approx(2 / 3)
    assert M.f1(0.0, 0.0) == 0.0
    assert M.f1(None, 1.0) is None
    assert M.f_beta(0.5, 1.0, 2.0) == pytest.approx(5 * 0.5 / (4 * 0.5 + 1))


def test_factual_correctness_each_direction_on_its_own_claims():
    r = response([(V, S), (OK, C), (L, S)], reference=[(V, S), (V, N)], mode=EVIDENCE_REFERENCE)
    m = R.compute_response_metrics(r)
    assert m["fc_precision"] == pytest.approx(2 / 3) and m["fc_recall"] == 0.5
    assert m["fc_f1"] == pytest.approx(M.f1(2 / 3, 0.5))
    expected = 1.25 * (2 / 3) * 0.5 / (0.25 * 2 / 3 + 0.5)
    assert M.f_beta(m["fc_precision"], m["fc_recall"], 0.5) == pytest.approx(expected)
    docs = R.compute_response_metrics(response([(V, S)], reference=[(V, S)], mode=EVIDENCE_DOCUMENTS))
    assert docs["fc_precision"] is None and docs["fc_recall"] == 1.0 and docs["fc_f1"] is None
    none = R.compute_response_metrics(response([(V, S)]))
    assert none["fc_precision"] is None and none["fc_recall"] is None and none["fc_f1"] is None


def test_wimpe_from_reference_claims():
    r = response([(V, S)], reference=[(V, S), (OK, C), (L, N), ("unlabelled", S)], mode=EVIDENCE_REFERENCE)
    m = R.compute_response_metrics(r)
    assert m["wpa"] == pytest.approx(3 / 6)      # weights 3/2/1, coverage 1/0/0; unlabelled left out
    assert m["pcp"] == pytest.approx(2 / 6)      # the okay claim is contradicted
    assert M.wimpe_merge(0.8, m["wpa"], 0.25) == pytest.approx(0.25 * 0.8 + 0.75 * 0.5)
    assert M.wimpe_merge(None, 0.5) is None
    with pytest.raises(ValueError):
        M.wimpe_merge(0.5, 0.5, 1.5)


def test_wimpe_from_nuggets_when_there_is_no_reference():
    nuggets = [Nugget("N0", "a", V), Nugget("N1", "b", OK), Nugget("N2", "c", OK)]
    r = response([(V, S)], assignment={"N0": "partial_support", "N1": "support", "N2": "not_support"})
    m = R.compute_response_metrics(r, nuggets)
    assert m["wpa"] == pytest.approx((3 * 0.5 + 2 * 1 + 0) / 7)
    assert m["pcp"] is None                     # nuggets carry no contradiction
    assert R.compute_response_metrics(response([(V, S)]))["wpa"] is None


def test_f1_at_k():
    verdicts = [S, S, N, S]
    assert M.f1_at_k(verdicts, 2) == pytest.approx(M.f1(0.75, 1.0))
    assert M.f1_at_k(verdicts, 6) == pytest.approx(M.f1(0.75, 0.5))
    assert M.f1_at_k([], 3) is None and M.f1_at_k(verdicts, None) is None
    assert M.median_k([10, 20, 0, 30]) == 20 and M.median_k([]) is None


def test_cumulative_precision_in_response_and_importance_order():
    r = response([(L, N), (V, S), (OK, S)], order=["S2", "S3", "S1"])
    assert M.cumulative_precision(r) == pytest.approx([0.0, 0.5, 2 / 3])
    assert M.cumulative_precision(r, "importance") == pytest.approx([1.0, 1.0, 2 / 3])
    with pytest.raises(ValueError):
        M.cumulative_precision(r, "random")


def test_compute_response_metrics_keys_match_the_catalog_and_empty_is_undefined():
    m = R.compute_response_metrics(ResponseResult(variant="normal", text=""))
    assert set(m) == set(METRICS) - {"f1_at_k"}
    counts = {k for k, spec in METRICS.items() if spec.kind == "count" and "nuggets" not in k}
    for key, value in m.items():
        if key in counts:
            assert value == 0, key
        else:
            assert value is None, key


def test_nuggets_without_assignment_are_undefined_but_counted():
    nuggets = [Nugget("N0", "a", V)]
    m = R.compute_response_metrics(response([(V, S)]), nuggets)
    assert m["n_nuggets"] == 1 and m["n_vital_nuggets"] == 1
    assert m["nugget_recall"] is None and m["vital_recall"] is None and m["rlr"] is None
    partly = R.compute_response_metrics(response([(V, S)], assignment={}), nuggets)
    assert partly["nugget_recall"] is None


def _random_input(rng) -> R.ScoringInput:
    """A random response: any mix of labels and verdicts, ranked or not, with or without nuggets/reference."""
    n = rng.choice([0, 1, 2, 3, 5, 8, 13])
    importance = [rng.choice([V, OK, L, "unlabelled"]) for _ in range(n)]
    verdicts = [rng.choice([S, N, J, C]) for _ in range(n)]
    order = None
    if n and rng.random() < 0.8:
        order = list(range(n))
        rng.shuffle(order)
    nug_imp = assignment = None
    if rng.random() < 0.7:
        m = rng.choice([0, 1, 2, 4, 7])
        nug_imp = [rng.choice([V, OK]) for _ in range(m)]
        if rng.random() < 0.85:
            assignment = [rng.choice(["support", "partial_support", "not_support"] + ([None] if rng.random() < 0.1
                                                                                       else [])) for _ in range(m)]
    ref_imp = ref_ver = None
    if rng.random() < 0.4:
        k = rng.choice([0, 1, 3, 6])
        ref_imp = [rng.choice([V, OK, L, "unlabelled"]) for _ in range(k)]
        ref_ver = [rng.choice([S, N, J, C]) for _ in range(k)]
    mode = rng.choice([EVIDENCE_REFERENCE, EVIDENCE_DOCUMENTS, "unknown"])
    return R.ScoringInput(importance, verdicts, order, nug_imp, assignment, ref_imp, ref_ver, mode)


@pytest.mark.parametrize("weights", [M.DEFAULT_WEIGHTS, M.TierWeights(1, 0.5, 0.1), M.TierWeights(0, 1, 0)])
def test_column_metrics_equal_the_pure_functions(weights):
    """The vectorised path used to load big sets computes exactly what the pure functions compute."""
    import math
    import random
    rng = random.Random(7)
    inputs = [_random_input(rng) for _ in range(600)]
    batch = VEC.MetricColumns()
    for data in inputs:
        batch.add(data)
    halves = VEC.MetricColumns.concat([batch.freeze(), batch])     # concat numbers records on
    for got_batch, offset in ((VEC.column_metrics(batch, weights), 0), (VEC.column_metrics(halves, weights), 600)):
        for r, data in enumerate(inputs):
            expected = R.compute_metrics(data, weights)
            for key, value in expected.items():
                got = float(got_batch[key][r + offset])
                if value is None:
                    assert math.isnan(got), (r, key, data)
                else:
                    assert got == pytest.approx(float(value), abs=1e-12), (r, key, data)


def test_fc_precision_uses_the_reference_check_when_verdicts_came_from_documents():
    """Documents decide the VITAL verdicts; a separate check against the reference gives FC precision."""
    from vital_core.metrics.response import ScoringInput, compute_response_metrics
    from vital_core.metrics.vectorised import MetricColumns, column_metrics
    from vital_core.results.model import ResponseResult, Subclaim
    subclaims = [Subclaim(id="S1", text="a", importance="vital", verdict="supported"),
                 Subclaim(id="S2", text="b", importance="okay", verdict="supported"),
                 Subclaim(id="S3", text="c", importance="okay", verdict="not_enough_evidence")]
    response = ResponseResult(variant="normal", text="a. b. c.", subclaims=subclaims,
                              evidence_mode="documents")
    assert compute_response_metrics(response, None)["fc_precision"] is None
    response.fc_verdicts = {"S1": "supported", "S2": "contradicted"}   # S3 unchecked -> not judged
    m = compute_response_metrics(response, None)
    assert m["fc_precision"] == pytest.approx(1 / 3)
    assert m["factscore_precision"] == pytest.approx(2 / 3)            # unchanged: from the documents
    batch = MetricColumns()
    batch.add(ScoringInput.from_response(response, None))
    batch.add(ScoringInput.from_response(ResponseResult(variant="x", text="", subclaims=subclaims,
                                                        evidence_mode="documents"), None))
    cols = column_metrics(batch)
    assert cols["fc_precision"][0] == pytest.approx(1 / 3)
    assert np.isnan(cols["fc_precision"][1])
    again = ResponseResult.from_dict(response.to_dict())
    assert again.fc_verdicts == {"S1": "supported", "S2": "contradicted"}


def test_pipeline_checks_claims_against_the_reference_when_documents_are_given_too():
    from vital_core.backends import get_backend
    from vital_core.metrics.response import compute_response_metrics
    from vital_core.results.model import Document
    from vital_core.scoring.pipeline import run_sync, score_example
    example = run_sync(score_example(
        get_backend("offline"), example_id="e", query="What is the capital of Australia?",
        responses={"normal": "The capital of Australia is Canberra. It was chosen in 1908."},
        documents=[Document("D1", "Canberra is the capital city of Australia. It was selected in 1908.")],
        reference="The capital of Australia is Canberra."))
    normal = example.variants["normal"]
    assert normal.evidence_mode == "documents" and normal.fc_verdicts is not None
    assert set(normal.fc_verdicts) == {s.id for s in normal.subclaims}
    metrics = compute_response_metrics(normal, example.nuggets)
    assert metrics["fc_precision"] is not None and metrics["fc_f1"] is not None
