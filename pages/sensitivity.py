"""Sensitivity: how each metric reacts to missing and wrong key information (Tables 3-5, Figures 3-5)."""
from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st

from explorer.widgets import charts, data_source, shell
from explorer.logic import filters as explore, palette
from vital_core import stats
from vital_core.errors import InputError
from vital_core.metrics.catalog import FIGURE5_DECAY, METRICS, TABLE3_COUNTS, TABLE5_FLAGS, TESTED
from vital_core.model import ordered_conditions

COUNT_METRICS = TABLE3_COUNTS
SCORE_METRICS = [k for k in TESTED if METRICS[k].kind == "score"]
FLAG_METRICS = TABLE5_FLAGS
TEST_METRICS = TESTED
DECAY_METRICS = FIGURE5_DECAY
MAX_POSITION = 40
ALL, SPLIT = "All queries together", "Split by query type"


def long_means(means: pd.DataFrame, keys, by: str | None) -> pd.DataFrame:
    """One row per (group, condition, metric) with a defined mean: the shape the bar charts take."""
    rows = []
    for _, row in means.iterrows():
        for key in keys:
            if key in means and row[key] is not None and not pd.isna(row[key]):
                rows.append({**({by: row[by]} if by else {}), "condition": row["condition"],
                             "metric": label(key), "mean": float(row[key])})
    return pd.DataFrame(rows)


def grouped_bars(table: pd.DataFrame, by: str | None, title: str, filename: str, key: str) -> None:
    """Mean per metric, bars grouped by condition (colour and pattern), one facet row per group."""
    conditions = ordered_conditions(table["condition"])
    fig = px.bar(table, x="metric", y="mean", color="condition", barmode="group", facet_row=by,
                 category_orders={"condition": conditions}, color_discrete_map=condition_colours(conditions),
                 pattern_shape="condition", pattern_shape_map=palette.CONDITION_PATTERNS, title=title)
    fig.update_yaxes(range=[0, 1.05])
    charts.chart(fig, filename, table, key=key)


@st.cache_data(show_spinner="Computing statistics…", max_entries=16)
def compute(token: tuple, view: str) -> dict[str, pd.DataFrame]:
    """Every table and curve of the page for one loaded set and query-type view."""
    dataset = data_source.dataset_for_token(token)
    frame = dataset.frame
    by = "query_type" if view == SPLIT else None
    if view not in (ALL, SPLIT):
        keep = explore.apply_filters(frame, explore.Filters(query_type=[view])).index
        dataset = dataset.subset(frame.index.get_indexer(keep))
        frame = dataset.frame
    metrics = [k for k in dict.fromkeys(COUNT_METRICS + SCORE_METRICS + FLAG_METRICS + DECAY_METRICS)
               if k in frame.columns]
    return {
        "means": stats.means_table(frame, metrics, by=by),
        "undefined": stats.condition_means(frame, metrics, by=by),
        "tests": stats.paired_tests(frame, metrics=[k for k in TEST_METRICS if k in frame.columns], by=by),
        "curve_response": stats.cumulative_precision_curves(dataset, "response", by=by, max_position=MAX_POSITION),
        "curve_importance": stats.cumulative_precision_curves(dataset, "importance", by=by,
                                                              max_position=MAX_POSITION),
    }


def label(key: str) -> str:
    return METRICS[key].label if key in METRICS else key


def formatted_means(means: pd.DataFrame, keys: list[str], by: str | None) -> pd.DataFrame:
    cols = ([by] if by else []) + ["condition", "n"]
    out = means[cols].copy()
    for key in keys:
        if key in means:
            out[label(key)] = [mean_text(key, v) for v in means[key]]
    return out


def mean_text(key: str, value) -> str:
    """A mean as text: share flagged for flags, two decimals for counts, three for scores."""
    if value is None or pd.isna(value):
        return "undefined"
    kind = METRICS[key].kind
    if kind == "flag":
        return f"{value:.1%} flagged"
    return f"{value:.2f}" if kind == "count" else f"{value:.3f}"


def condition_colours(conditions) -> dict[str, str]:
    return {c: palette.condition_colour(c, i) for i, c in enumerate(conditions)}


def means_section(data: dict, by: str | None) -> None:
    st.header("Per-condition means")
    means = data["means"]
    if means.empty:
        st.info("Nothing to average.")
        return
    tabs = st.tabs(["Counts (Table 3)", "Precision and recall (Table 4)", "Response-level flags (Table 5)"])
    for tab, keys, note in zip(tabs, [COUNT_METRICS, SCORE_METRICS, FLAG_METRICS],
                               ["Mean number per response.", "Means over responses where the metric is defined.",
                                "Share of responses flagged; lower is better for normal responses."]):
        with tab:
            present = [k for k in keys if k in means]
            st.dataframe(formatted_means(means, present, by), hide_index=True, width="stretch")
            st.caption(note + " “undefined” = no response in that group defines the metric.")
    und = data["undefined"]
    left_out = und[und["n_undefined"] > 0]
    if not left_out.empty:
        summary = (left_out.groupby("metric")["n_undefined"].sum().sort_values(ascending=False))
        st.caption("Left out of the means as undefined: " + ", ".join(
            f"{label(k)} {int(v)}" for k, v in summary.head(8).items()) + " response(s).")
    table = long_means(means, SCORE_METRICS, by)
    if table.empty:
        return
    grouped_bars(table, by, "Mean precision and recall per condition", "sensitivity-means", "means")


def tests_section(data: dict, by: str | None) -> None:
    st.header("Paired tests: each variant against its normal response")
    tests = data["tests"]
    if tests.empty:
        st.info("No paired tests: the set needs a normal response and at least one variant per example, "
                "with the metric defined on both sides.")
        return
    shown = pd.DataFrame({
        **({by: tests[by]} if by else {}),
        "variant": tests["variant"], "metric": [label(k) for k in tests["metric"]],
        "pairs": tests["n_pairs"], "dropped (undefined)": tests["n_dropped"],
        "normal mean": tests["mean_baseline"], "variant mean": tests["mean_variant"],
        "mean change": tests["mean_diff"], "effect size": tests["effect_size"], "effect": tests["effect_kind"],
        "p (t-test / McNemar)": tests["p_primary"], "p (Holm)": tests["p_holm"],
        "p Wilcoxon": tests["wilcoxon_p"], "detection rate": tests["detection_rate"], "ROC AUC": tests["auc"]})
    number = st.column_config.NumberColumn(format="%.3f")
    pcol = st.column_config.NumberColumn(format="%.2e")
    st.dataframe(shown, hide_index=True, width="stretch",
                 column_config={"normal mean": number, "variant mean": number, "mean change": number,
                                "effect size": number, "detection rate": number, "ROC AUC": number,
                                "p (t-test / McNemar)": pcol, "p (Holm)": pcol, "p Wilcoxon": pcol})
    st.caption("Scores: paired t-test (and Wilcoxon), effect size Cohen's d_z. Flags: exact McNemar, effect "
               "= change in the flagged rate. Holm-corrected over the whole table. Pairs with the metric "
               "undefined on either side are dropped and counted.")
    st.download_button("Paired tests as CSV", tests.to_csv(index=False).encode("utf-8"),
                       file_name="sensitivity-paired-tests.csv", mime="text/csv", key="csv-tests")
    st.header("Detection rate per metric")
    det = tests[["variant", "metric", "detection_rate", "n_pairs"] + ([by] if by else [])].copy()
    det = det[det["detection_rate"].notna()]
    det["metric"] = [label(k) for k in det["metric"]]
    det["detection_rate"] = det["detection_rate"].astype(float)
    variants = list(dict.fromkeys(det["variant"]))
    fig = px.bar(det, x="metric", y="detection_rate", color="variant", barmode="group", facet_row=by,
                 color_discrete_map=condition_colours(variants), pattern_shape="variant",
                 pattern_shape_map=palette.CONDITION_PATTERNS,
                 title="Share of pairs where the variant scores worse than its normal (flags: is flagged)",
                 labels={"detection_rate": "detection rate"})
    fig.update_yaxes(range=[0, 1.05])
    charts.chart(fig, "sensitivity-detection", det, key="detection")


def curves_section(data: dict, by: str | None) -> None:
    st.header("Cumulative precision over subclaim position (Figures 3-4)")
    cols = st.columns(2)
    for col, order in zip(cols, ("response", "importance")):
        curve = data[f"curve_{order}"]
        with col:
            if curve.empty:
                st.info(f"No subclaims to plot in {order} order.")
                continue
            conditions = ordered_conditions(curve["condition"])
            fig = px.line(curve, x="position", y="precision", color="condition", line_dash="condition",
                          facet_row=by, category_orders={"condition": conditions},
                          color_discrete_map=condition_colours(conditions), markers=True,
                          hover_data=["n"], title=f"{order.capitalize()} order",
                          labels={"position": "first n subclaims", "precision": "cumulative precision"})
            fig.update_yaxes(range=[0, 1.05])
            charts.chart(fig, f"cumulative-precision-{order}-order", curve, key=f"curve-{order}",
                      caption="Points further right average fewer responses (hover for n).")


def decay_section(data: dict, by: str | None) -> None:
    st.header("Decay-weighted precision and recall (Figure 5)")
    means = data["means"]
    table = long_means(means, DECAY_METRICS, by)
    if table.empty:
        st.info("Decay-weighted metrics are undefined here: they need ranked subclaims (precision) or "
                "nuggets (recall).")
        return
    if not any(k.startswith("decay_recall") and k in means and means[k].notna().any() for k in DECAY_METRICS):
        st.caption("Decay recall is undefined for this set (no nuggets), so only precision is shown.")
    grouped_bars(table, by, "Release-compatible decay weighting over the importance order",
                 "decay-precision-recall", "decay")


def render() -> None:
    st.title("Sensitivity")
    st.markdown("Does a metric notice when the key answer is **missing** or **wrong**? Means per condition, "
                "paired tests against the normal response, detection rates and precision curves.")
    source = data_source.current_source()
    try:
        loaded = data_source.load_source(source)
    except (InputError, FileNotFoundError, OSError) as exc:
        st.error(f"Could not load {source}: {exc}")
        st.page_link("pages/explore.py", label="Choose another data source on Explore results", icon=":material/table_view:")
        return
    frame = loaded.frame
    cols = st.columns([3, 1])
    cols[0].caption(f"Data: {loaded.label} — {frame['example_id'].nunique()} examples, {len(frame)} responses.")
    with cols[1]:
        st.page_link("pages/explore.py", label="Change data source", icon=":material/table_view:")
    if frame.empty:
        st.info("This source holds no records.")
        return
    if frame["condition"].nunique() < 2:
        st.info("Only one condition is loaded: paired tests and detection rates need a normal response "
                "and at least one missing or wrong variant.")
    types = [t for t in explore.choices(frame, "query_type")]
    view = st.radio("Query types", [ALL, SPLIT] + types, horizontal=True, key="sens_view")
    by = "query_type" if view == SPLIT else None
    data = compute(loaded.token, view)
    means_section(data, by)
    tests_section(data, by)
    curves_section(data, by)
    decay_section(data, by)


shell.run_page(render)
