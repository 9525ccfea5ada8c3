"""The Sensitivity page's tables and chart data, shaped from the core's statistics (no streamlit)."""
from __future__ import annotations

import pandas as pd

from explorer.logic.formatting import format_mean
from vital_core.analysis import conventions as conv
from vital_core.analysis.stats import detection_frame  # noqa: F401  (the Sensitivity page's chart; shared with report --figures)
from vital_core.metrics.catalog import (
    ALL_SCORES,
    EXTRA_COUNTS,
    FIGURE5_DECAY,
    METRICS,
    TABLE3_COUNTS,
    TABLE4_SCORES,
    TABLE5_FLAGS,
)
from vital_core.results.model import ordered_conditions

# The tables of each convention: (tab title, keys, what a value means).
TABLES = {
    conv.PAPER: [("Counts (Table 3)", TABLE3_COUNTS, "Mean number per response."),
                 ("Precision and recall (Table 4)", TABLE4_SCORES + ["f1_at_k"], "Mean of per-subset means."),
                 ("Response-level flags (Table 5)", TABLE5_FLAGS, "Share of responses flagged."),
                 ("Decay (Figure 5)", FIGURE5_DECAY, "Mean of per-subset means.")],
    conv.STRICT: [("Counts (cf. Table 3)", TABLE3_COUNTS + EXTRA_COUNTS, "Mean number per response."),
                  ("Precision and recall (cf. Table 4)", ALL_SCORES, "Mean over the responses that define it."),
                  ("Response-level flags (cf. Table 5)", TABLE5_FLAGS, "Share of responses flagged."),
                  ("Decay (cf. Figure 5)", FIGURE5_DECAY, "Mean over the responses that define it.")],
}


def label(key: str) -> str:
    return (METRICS[key].label if key in METRICS else key)


def means_display(means: pd.DataFrame, left_out: pd.DataFrame, keys: list[str], counts: pd.Series) -> pd.DataFrame:
    """A first row with the responses per condition, then one row per metric: the mean and how many
    responses it left out."""
    conditions = ordered_conditions(means.index)
    rows = [{"metric": "Responses", **{cond: str(int(counts.get(cond, 0))) for cond in conditions}}]
    for key in [k for k in keys if k in means.columns and means[k].notna().any()]:
        row = {"metric": label(key)}
        for cond in conditions:
            text = format_mean(key, means.at[cond, key])
            missing = int(left_out.at[cond, key]) if key in left_out.columns else 0
            row[cond] = text + (f" ({missing} left out)" if missing else "")
        rows.append(row)
    return pd.DataFrame(rows if len(rows) > 1 else [], columns=["metric", *conditions])


def long_means(means: pd.DataFrame, keys: list[str], group: str | None = None) -> pd.DataFrame:
    """One row per (condition, metric) with a defined mean: the shape of the bar charts."""
    rows = [{**({"group": group} if group else {}), "condition": cond, "metric": label(key),
             "mean": float(means.at[cond, key])}
            for cond in ordered_conditions(means.index) for key in keys
            if key in means.columns and pd.notna(means.at[cond, key])]
    return pd.DataFrame(rows, columns=(["group"] if group else []) + ["condition", "metric", "mean"])


def paper_tests_display(tests: pd.DataFrame) -> pd.DataFrame:
    """The authors' tests, one row per (group, metric, comparison): what was compared and the p values
    first, so that they show on a 1440-pixel screen; effect, n and the means after them."""
    if tests.empty:
        return tests
    continuous = tests["kind"] == "continuous"
    return pd.DataFrame({
        "group": tests["group"], "metric": [label(k) for k in tests["metric"]], "comparison": tests["comparison"],
        "p t (Holm)": tests["t_p_holm"] if "t_p_holm" in tests else None,
        "p Wilcoxon (Holm)": tests["wilcoxon_p_holm"] if "wilcoxon_p_holm" in tests else None,
        "p McNemar (Holm)": tests["mcnemar_p_holm"] if "mcnemar_p_holm" in tests else None,
        "effect": [f"d_z {r['cohens_dz']:+.3f}, r {r['rank_biserial']:+.3f}"
                   if r["kind"] == "continuous" and pd.notna(r["cohens_dz"]) and pd.notna(r["rank_biserial"])
                   else (f"rate diff {r['risk_diff']:+.3f}" if r["kind"] == "binary" and pd.notna(r["risk_diff"])
                         else "undefined")
                   for r in tests.to_dict(orient="records")],
        "n": tests["n"],
        "mean A": tests["mean_a"].where(continuous, tests.get("rate_a")),
        "mean B": tests["mean_b"].where(continuous, tests.get("rate_b"))})


def strict_tests_display(tests: pd.DataFrame, by: str | None) -> pd.DataFrame:
    """The project's tests, each variant against its normal response: the p value, detection rate and
    ROC AUC first (they show on a 1440-pixel screen), then the change, the effect, the counts and the
    other tests."""
    return pd.DataFrame({
        **({by: tests[by]} if by else {}),
        "condition": tests["condition"], "metric": [label(k) for k in tests["metric"]],
        "p (Holm)": tests["p_holm"], "detection rate": tests["detection_rate"], "ROC AUC": tests["auc"],
        "mean change": tests["mean_diff"], "effect size": tests["effect_size"], "effect": tests["effect_kind"],
        "pairs": tests["n_pairs"], "dropped (undefined)": tests["n_dropped"],
        "normal mean": tests["mean_baseline"], "condition mean": tests["mean_condition"],
        "p (t-test / McNemar)": tests["p_primary"], "p Wilcoxon": tests["wilcoxon_p"]})
