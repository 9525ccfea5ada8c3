"""Sensitivity statistics on small frames whose answers are worked out by hand."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from vital_core.analysis import stats
from vital_core.results.dataset import load_dataset
from vital_core.results.model import ExampleResult, ResponseResult, Subclaim


def frame(rows: list[tuple[str, str, float | None, bool | None]], query_type: str | None = None) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=["example_id", "condition", "vital_precision", "rlp"])
    df["rlp"] = df["rlp"].astype("boolean")
    df["query_type"] = query_type
    return df


def paired(normal: list, variant: list, flags_n=None, flags_v=None) -> pd.DataFrame:
    flags_n = flags_n or [None] * len(normal)
    flags_v = flags_v or [None] * len(variant)
    rows = [(f"e{i}", "normal", v, f) for i, (v, f) in enumerate(zip(normal, flags_n))]
    rows += [(f"e{i}", "wrong", v, f) for i, (v, f) in enumerate(zip(variant, flags_v))]
    return frame(rows)


def test_paired_score_tests_effect_size_detection_and_auc():
    normal = [0.9, 0.8, 0.7, 0.6, None]
    wrong = [0.5, 0.8, 0.4, 0.7, 0.1]
    row = stats.paired_tests(paired(normal, wrong), metrics=["vital_precision"]).iloc[0]
    diffs = np.array([-0.4, 0.0, -0.3, 0.1])
    assert row["n_pairs"] == 4 and row["n_dropped"] == 1
    assert row["mean_diff"] == pytest.approx(diffs.mean())
    assert row["effect_size"] == pytest.approx(diffs.mean() / diffs.std(ddof=1))
    t = diffs.mean() / (diffs.std(ddof=1) / 2)
    assert row["t_stat"] == pytest.approx(t)
    assert row["detection_rate"] == pytest.approx(2 / 4)   # variant lower by >= 0.10 in 2 of 4 pairs
    # AUC: P(normal > variant) over the 4x4 cross pairs, ties count one half
    a, b = [0.9, 0.8, 0.7, 0.6], [0.5, 0.8, 0.4, 0.7]
    wins = sum((x > y) + 0.5 * (x == y) for x in a for y in b)
    assert row["auc"] == pytest.approx(wins / 16)
    assert row["wilcoxon_p"] is not None and 0 < row["wilcoxon_p"] <= 1


def test_mcnemar_exact_on_discordant_pairs():
    # 5 pairs flagged only for the variant, none the other way: p = 2 * 0.5**5
    df = paired([1.0] * 6, [1.0] * 6, flags_n=[False] * 6, flags_v=[True] * 5 + [False])
    row = stats.paired_tests(df, metrics=["rlp"]).iloc[0]
    assert (row["mcnemar_b"], row["mcnemar_c"]) == (5, 0)
    assert row["mcnemar_p"] == pytest.approx(2 * 0.5 ** 5)
    assert row["p_primary"] == row["mcnemar_p"]
    assert row["detection_rate"] == pytest.approx(5 / 6)
    assert row["effect_size"] == pytest.approx(5 / 6)


def test_holm_adjustment():
    adjusted = stats.holm([0.01, 0.04, 0.03, None])
    # sorted 0.01, 0.03, 0.04 -> 3*0.01, max(0.03, 2*0.03), max(0.06, 1*0.04)
    assert adjusted[:3] == pytest.approx([0.03, 0.06, 0.06])
    assert adjusted[3] is None


def test_identical_pairs_give_undefined_tests_not_crashes():
    df = paired([0.5, 0.5, 0.5], [0.5, 0.5, 0.5])
    row = stats.paired_tests(df, metrics=["vital_precision"]).iloc[0]
    assert row["t_p"] is None and row["wilcoxon_p"] is None and row["effect_size"] is None
    assert row["detection_rate"] == 0 and row["auc"] == 0.5


def test_by_query_type_groups():
    df = pd.concat([paired([0.9, 0.8], [0.1, 0.2]).assign(query_type="single-answer"),
                    paired([0.9, 0.8], [0.9, 0.8]).assign(query_type=None,
                                                           example_id=lambda d: d.example_id + "x")])
    tests = stats.paired_tests(df, metrics=["vital_precision"], by="query_type")
    assert set(tests["query_type"]) == {"single-answer", "unknown"}
    rates = tests.set_index("query_type")
    assert rates.loc["single-answer", "detection_rate"] == 1.0 and rates.loc["unknown", "detection_rate"] == 0.0


def test_detection_rate_counts_what_compare_calls_noticed():
    """Intended change: the detection rate used to count any drop (and any flagged variant); it now
    uses ``stats.noticed``, the Compare page's rule: a drop of at least NOTICE_DROP, or a flag that
    fires for the variant but not for the normal."""
    row = stats.paired_tests(paired([0.9, 0.9, 0.9], [0.85, 0.8, 0.95]), metrics=["vital_precision"]).iloc[0]
    assert row["detection_rate"] == pytest.approx(1 / 3)   # the 0.05 drop is not noticed
    df = paired([1.0] * 3, [1.0] * 3, flags_n=[True, False, False], flags_v=[True, True, False])
    assert stats.paired_tests(df, metrics=["rlp"]).iloc[0]["detection_rate"] == pytest.approx(1 / 3)


def test_noticed_follows_the_metric_direction_and_undefined():
    assert stats.noticed("vital_precision", 0.9, 0.8) is True
    assert stats.noticed("vital_precision", 0.9, 0.85) is False
    assert stats.noticed("pcp", 0.1, 0.3) is True and stats.noticed("pcp", 0.3, 0.1) is False   # lower is better
    assert stats.noticed("rlp", False, True) is True and stats.noticed("rlp", True, True) is False
    assert stats.noticed("rlr", None, True) is None
    with pytest.raises(ValueError):
        stats.noticed("n_subclaims", 5, 3)
    assert "0.10" in stats.NOTICED_RULE


def _ex(i: int, normal: list[bool], wrong: list[bool], order: list[int] | None = None) -> ExampleResult:
    def resp(name, support):
        claims = [Subclaim(id=f"S{k + 1}", text="c", importance="okay",
                           verdict="supported" if s else "not_enough_evidence") for k, s in enumerate(support)]
        ids = [f"S{k + 1}" for k in (order or range(len(support)))][:len(support)]
        return ResponseResult(name, "t", claims, ids if order else [])
    return ExampleResult(id=f"e{i}", query=f"q{i}", variants={"normal": resp("normal", normal),
                                                             "wrong": resp("wrong", wrong)})


def test_cumulative_precision_curves():
    examples = [_ex(0, [True, False, True], [False, True]), _ex(1, [True, True], [False, False, False])]
    curves = stats.cumulative_precision_curves(examples).set_index(["condition", "position"])
    assert curves.loc[("normal", 1), "precision"] == 1.0
    assert curves.loc[("normal", 2), "precision"] == pytest.approx((0.5 + 1.0) / 2)
    assert curves.loc[("normal", 3), "precision"] == pytest.approx(2 / 3)
    assert curves.loc[("normal", 3), "n"] == 1
    assert curves.loc[("wrong", 2), "precision"] == pytest.approx((0.5 + 0.0) / 2)
    ranked = [_ex(0, [False, True, True], [True, True, True], order=[2, 1, 0])]
    by_importance = stats.cumulative_precision_curves(ranked, "importance").set_index(["condition", "position"])
    assert by_importance.loc[("normal", 1), "precision"] == 1.0
    assert by_importance.loc[("normal", 3), "precision"] == pytest.approx(2 / 3)


def test_reference_set_wrong_is_detected(reference_dir, tmp_path):
    """The paper's claim on the reference sample: VITAL precision separates wrong from normal."""
    ds = load_dataset(reference_dir / "gpt-4o", cache_dir=tmp_path)
    tests = stats.paired_tests(ds.frame).set_index(["condition", "metric"])
    row = tests.loc[("wrong", "vital_precision")]
    assert row["mean_diff"] < 0 and row["p_holm"] < 0.05
    assert tests.loc[("missing", "vital_precision"), "n_dropped"] == 1
    assert math.isclose(tests.loc[("wrong", "rlp"), "mean_condition"], 0.84)


def test_curves_on_a_subset_match_the_subset_alone(reference_dir, tmp_path):
    ds = load_dataset(reference_dir / "gpt-4o", cache_dir=tmp_path)
    mask = ds.frame["index"].to_numpy() % 2 == 0
    part = ds.subset(mask)
    assert len(part.frame) == 75 and part.example("gpt-4o/4").id == "gpt-4o/4"
    examples = [ex for ex in load_examples_for(reference_dir) if int(ex.id.rsplit("/", 1)[1]) % 2 == 0]
    for order in ("response", "importance"):
        a = stats.cumulative_precision_curves(part, order)
        b = stats.cumulative_precision_curves(examples, order)
        pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


def load_examples_for(reference_dir):
    from vital_core.loaders.load import load_examples
    return load_examples(reference_dir / "gpt-4o").examples
