"""Sensitivity: how each metric reacts to missing and wrong key information (Tables 3-5, Figures 3-5)."""
from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st

from explorer.logic import filters, glossary, palette
from explorer.logic import sensitivity_tables as tables
from explorer.logic.formatting import escape_md, plot_text
from explorer.widgets import charts, data_source, shell
from vital_core.analysis import conventions as conv
from vital_core.analysis import stats
from vital_core.analysis.report import report_tests
from vital_core.files.errors import InputError
from vital_core.metrics.catalog import FIGURE5_DECAY, METRICS, TESTED
from vital_core.results.model import ordered_conditions

shell.hand_over_to_entry()   # a fresh server's first request runs through app.py (explorer.widgets.shell)

MAX_POSITION = 40
ALL, SPLIT = "All queries together", "Split by query type"
CONVENTION_LABELS = {conv.PAPER: "Paper (as the authors' scripts)", conv.STRICT: "Strict (undefined left out)"}


def _groups(frame: pd.DataFrame, view: str) -> list[tuple[str, pd.DataFrame]]:
    if view == SPLIT:
        return [(qt, frame[frame["query_type"] == qt]) for qt in filters.choices(frame, "query_type")]
    return [("", frame)]


@st.cache_data(show_spinner="Computing statistics…", max_entries=16)
def compute(token: tuple, view: str, convention: str) -> dict:
    """Every table and curve of the page for one loaded set, query-type view and convention."""
    dataset = data_source.dataset_for_token(token)
    frame = dataset.frame
    if view not in (ALL, SPLIT):
        dataset = dataset.subset((frame["query_type"] == view).to_numpy())
        frame = dataset.frame
    by = "query_type" if view == SPLIT else None
    groups = []
    for name, part in _groups(frame, view):
        keys = sorted({k for _, ks, _ in tables.TABLES[convention] for k in ks})
        means, left_out = conv.condition_table(part, keys, convention)
        groups.append({"name": name, "means": means, "left_out": left_out, "counts": part["condition"].value_counts(),
                       "not_judged": conv.not_judged_counts(part)})
    tested = [k for k in TESTED if k in frame.columns]
    return {
        "groups": groups,
        "tests": report_tests(frame, convention),
        "detection": stats.paired_tests(conv.strict_frame(frame, tested), metrics=tested, by=by),
        "curve_response": stats.well_supported(stats.cumulative_precision_curves(
            dataset, "response", by=by, max_position=MAX_POSITION), by),
        "curve_importance": stats.well_supported(stats.cumulative_precision_curves(
            dataset, "importance", by=by, max_position=MAX_POSITION), by),
    }


def condition_colours(conditions) -> dict[str, str]:
    return {c: palette.condition_colour(c, i) for i, c in enumerate(conditions)}


def grouped_bars(table: pd.DataFrame, title: str, filename: str, key: str) -> None:
    """Mean per metric, bars grouped by condition (colour and pattern), one facet row per group."""
    plotted = plot_text(table)
    conditions = ordered_conditions(plotted["condition"])
    fig = px.bar(plotted, x="metric", y="mean", color="condition", barmode="group",
                 facet_row="group" if "group" in table else None,
                 category_orders={"condition": conditions}, color_discrete_map=condition_colours(conditions),
                 pattern_shape="condition", pattern_shape_map=palette.CONDITION_PATTERNS, title=title)
    fig.update_yaxes(range=[0, 1.05])
    charts.chart(fig, filename, table, key=key)


def not_judged_note(not_judged: pd.Series, convention: str) -> None:
    total = int(not_judged.sum())
    if not total:
        return
    per = ", ".join(f"{escape_md(c)} {int(n)}" for c, n in not_judged.items() if n)
    how = ("counts them as unsupported in VITAL precision, RLP and decay precision, and skips them in "
           "FactScore" if convention == conv.PAPER else "leaves them out of every precision-side mean")
    st.warning(f"Not judged: {total} response(s) have subclaims but no verdict at all ({per}). "
               f"The {convention} convention {how}.", icon=":material/help:")


def means_section(data: dict, convention: str) -> None:
    st.header("Per-condition means")
    for group in data["groups"]:
        if group["name"]:
            st.subheader(f"Query type: {escape_md(group['name'])}")
        not_judged_note(group["not_judged"], convention)
        tabs = st.tabs([title for title, _, _ in tables.TABLES[convention]])
        for tab, (_, keys, note) in zip(tabs, tables.TABLES[convention]):
            with tab:
                shown = tables.means_display(group["means"], group["left_out"], keys, group["counts"])
                if shown.empty:
                    st.info("No metric of this table is defined for these responses.")
                    continue
                st.dataframe(shown, hide_index=True, width="stretch")
                st.caption(f"{note} “(k left out)” = k responses where the value is undefined.")
    scores = [k for k in TESTED if METRICS[k].kind == "score" and k not in FIGURE5_DECAY]
    table = pd.concat([tables.long_means(g["means"], scores, g["name"] or None) for g in data["groups"]])
    if table.empty:
        return
    has_recall = table["metric"].str.contains("recall", case=False).any()
    title = "Mean precision and recall per condition" if has_recall else \
        "Mean precision per condition (no recall: this set has no nuggets)"
    grouped_bars(table, title, "sensitivity-means", "sens_means")


def with_help(config: dict, columns) -> dict:
    """A table's column settings with the glossary's one line as each statistic's tooltip."""
    out = dict(config)
    for column, text in glossary.column_help(columns).items():
        out[column] = {**(out.get(column) or st.column_config.Column()), "help": text}
    return out


def glossary_box() -> None:
    with st.expander("Glossary: every statistic and metric on this page, in one line"):
        st.dataframe(glossary.frame(), hide_index=True, width="stretch",
                     column_config={"what it means": st.column_config.TextColumn(width="large")})


def pinned(*columns: str) -> dict:
    """Column settings that keep what a row is about on screen when the table scrolls sideways."""
    return {c: st.column_config.Column(pinned=True) for c in columns}


def tests_section(data: dict, convention: str, by: str | None) -> None:
    st.header("Paired tests")
    tests = data["tests"]
    if tests.empty:
        st.info("No paired tests: the set needs at least two conditions per example, with the metric "
                "defined on both sides.")
    elif convention == conv.PAPER:
        shown = tables.paper_tests_display(tests)
        st.dataframe(shown, hide_index=True, width="stretch", placeholder="–",
                     # short headers ("Holm" is in each tooltip and the caption): every column fits at 1440 px
                     column_config=with_help({**{c: st.column_config.NumberColumn(label, format="%.2e", width=w)
                                                 for c, label, w in (("p t (Holm)", "p t", 72),
                                                                     ("p Wilcoxon (Holm)", "p Wilcoxon", 92),
                                                                     ("p McNemar (Holm)", "p McNemar", 92))},
                                              **{c: st.column_config.NumberColumn(format="%.3f", width=68)
                                                 for c in ("mean A", "mean B")},
                                              "n": st.column_config.NumberColumn(width=44),
                                              "effect": st.column_config.TextColumn(width=140),
                                              **pinned("group", "metric", "comparison")}, shown.columns))
        st.caption("As the authors' stat_sig.py: responses pooled per group and paired by example; scores: "
                   "paired t-test and Wilcoxon, Cohen's d_z and rank-biserial r; flags: McNemar; Holm within "
                   "each group and test type. “–”: the test does not apply to this metric.")
    else:
        number, pcol = st.column_config.NumberColumn(format="%.3f"), st.column_config.NumberColumn(format="%.2e")
        shown = tables.strict_tests_display(tests, by)
        st.dataframe(shown, hide_index=True, width="stretch", placeholder="–",
                     column_config=with_help({**{c: number for c in ("normal mean", "variant mean", "mean change",
                                                                     "effect size", "detection rate", "ROC AUC")},
                                              **{c: pcol for c in ("p (t-test / McNemar)", "p (Holm)", "p Wilcoxon")},
                                              **pinned(*([by] if by else []), "condition", "metric")}, shown.columns))
        st.caption("Each variant against its normal response: paired t-test (and Wilcoxon), effect size "
                   "Cohen's d_z; flags: exact McNemar. Holm over the whole table. Pairs with the metric "
                   "undefined on either side are dropped and counted. “–”: not computed (no pairs, or the "
                   "test does not apply).")
    if not tests.empty:
        st.download_button("Paired tests as CSV", tests.to_csv(index=False).encode("utf-8"),
                           file_name=f"sensitivity-tests-{convention}.csv", mime="text/csv", key="sens_tests_csv",
                           on_click="ignore")
    detection_section(data["detection"], by)


def detection_section(tests: pd.DataFrame, by: str | None) -> None:
    st.header("Detection rate per metric")
    if tests.empty:
        st.info("No pairs of a normal response and a variant to compare.")
        return
    det = tables.detection_frame(tests, by)
    plotted = plot_text(det)
    variants = list(dict.fromkeys(plotted["condition"]))
    fig = px.bar(plotted, x="metric", y="detection_rate", color="condition", barmode="group", facet_row=by,
                 color_discrete_map=condition_colours(variants), pattern_shape="condition",
                 pattern_shape_map=palette.CONDITION_PATTERNS, labels={"detection_rate": "detection rate"},
                 title="Share of pairs where the metric noticed the damage")
    fig.update_yaxes(range=[0, 1.05])
    charts.chart(fig, "sensitivity-detection", det, key="sens_detection", caption=stats.NOTICED_RULE.capitalize() + ".")


def curves_section(data: dict, by: str | None) -> None:
    st.header("Cumulative precision over subclaim position (Figures 3-4)")
    cols = st.columns(2)
    for col, order in zip(cols, ("response", "importance")):
        curve = data[f"curve_{order}"]
        with col:
            if curve.empty:
                st.info(f"No subclaims to plot in {order} order.")
                continue
            plotted = plot_text(curve)
            conditions = ordered_conditions(plotted["condition"])
            fig = px.line(plotted, x="position", y="precision", color="condition", line_dash="condition",
                          facet_row=by, category_orders={"condition": conditions},
                          color_discrete_map=condition_colours(conditions), markers=True,
                          hover_data=["n"], title=f"{order.capitalize()} order",
                          labels={"position": "first n subclaims", "precision": "cumulative precision"})
            fig.update_yaxes(range=[0, 1.05])
            charts.chart(fig, f"cumulative-precision-{order}-order", curve, key=f"sens_curve_{order}",
                         caption=f"Responses pooled; {stats.CURVE_RULE} (hover for n).")


def decay_section(data: dict) -> None:
    st.header("Decay-weighted precision and recall (Figure 5)")
    table = pd.concat([tables.long_means(g["means"], FIGURE5_DECAY, g["name"] or None) for g in data["groups"]])
    if table.empty:
        st.info("Decay-weighted metrics are undefined here: they need ranked subclaims (precision) or "
                "nuggets (recall).")
        return
    if not table["metric"].str.contains("recall", case=False).any():
        st.caption("Decay recall is undefined for this set (no nuggets), so only precision is shown.")
    grouped_bars(table, "Release-compatible decay weighting over the importance order", "decay-precision-recall",
                 "sens_decay")


def source_header():
    source = data_source.current_source()
    try:
        loaded = data_source.load_source(source)
    except (InputError, FileNotFoundError, OSError) as exc:
        st.error(f"Could not load {escape_md(data_source.source_label(source))}: {escape_md(exc)}")
        st.page_link("pages/explore.py", label="Choose another data source on Explore results",
                     icon=":material/table_view:")
        return None
    frame = loaded.frame
    cols = st.columns([3, 1])
    cols[0].caption(f"Data: {escape_md(loaded.label)} — {frame['example_id'].nunique()} examples, "
                    f"{len(frame)} responses.")
    with cols[1]:
        st.page_link("pages/explore.py", label="Change data source", icon=":material/table_view:")
    return loaded


def render() -> None:
    st.title("Sensitivity")
    st.markdown("Does a metric notice when the key answer is **missing** or **wrong**? Means per condition, "
                "paired tests, detection rates and precision curves.")
    loaded = source_header()
    if loaded is None:
        return
    frame = loaded.frame
    if frame.empty:
        st.info("This source holds no records.")
        return
    if frame["condition"].nunique() < 2:
        st.info("Only one condition is loaded: paired tests and detection rates need a normal response "
                "and at least one missing or wrong variant.")
    convention = st.radio("Convention", list(CONVENTION_LABELS), format_func=CONVENTION_LABELS.get,
                          horizontal=True, key="sens_conventions")
    st.caption(conv.DESCRIPTION[convention])
    st.caption("Every statistic's column has a one-line tooltip; the glossary at the end explains each name.")
    types = filters.choices(frame, "query_type")
    view = st.radio("Query types", [ALL, SPLIT] + types, horizontal=True, key="sens_view", format_func=escape_md)
    by = "query_type" if view == SPLIT else None
    data = compute(loaded.token, view, convention)
    means_section(data, convention)
    tests_section(data, convention, by)
    curves_section(data, by)
    decay_section(data)
    glossary_box()


render()
