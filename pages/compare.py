"""Compare variants: normal vs missing vs wrong, side by side, with which metrics noticed."""
from __future__ import annotations

import asyncio
import json

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from explorer.logic import formatting
from explorer.logic.formatting import escape_md
from explorer.widgets import backend_panel, charts, claims, demo, shell, url_state
from explorer.logic import explain, long_runs, palette, textdiff, damage as variants
from vital_core import stats
from vital_core.errors import InputError
from explorer.logic.evidence_input import documents_from_text
from vital_core.metrics.catalog import HEADLINE, METRICS, VARIANT_TABLE
from vital_core.model import EVIDENCE_NORMAL, MISSING, NORMAL, WRONG, ExampleResult, ordered_conditions
from vital_core.perturbation import PerturbationCheckError
from vital_core.pipeline import choose_evidence, run_sync, score_example

RESULT_KEY = "compare_result"
TEXT_KEYS = {NORMAL: "cmp_normal", MISSING: "cmp_missing", WRONG: "cmp_wrong"}
TABLE_METRICS = VARIANT_TABLE
CHART_METRICS = [k for k in HEADLINE if METRICS[k].kind == "score"]


async def _perturb_both(backend, query: str, normal: str):
    """Both variants in one event loop (an HTTP client must not outlive its loop)."""
    return await asyncio.gather(*(backend.perturb(query, normal, kind) for kind in (MISSING, WRONG)),
                                return_exceptions=True)


def generate_variants() -> None:
    """Fill missing and wrong from the normal response with the active backend (one click)."""
    query = (st.session_state.get("cmp_query") or "").strip()
    normal = (st.session_state.get(TEXT_KEYS[NORMAL]) or "").strip()
    if not query or not normal:
        st.session_state["cmp_notice"] = ("warning", "Enter a query and a normal response first.")
        return
    if problem := long_runs.too_long({NORMAL: normal}, "normal response"):
        st.session_state["cmp_notice"] = ("error", problem)
        return
    try:   # a callback runs outside the page's guard: its failures become the notice
        backend = backend_panel.active_backend()
        results = run_sync(backend_panel.scoring_run(backend, _perturb_both(backend, query, normal)))
    except Exception as exc:  # noqa: BLE001 - one sentence, never a traceback
        st.session_state["cmp_notice"] = ("error", f"Could not generate the variants: {escape_md(exc)}")
        return
    problems = []
    for kind, result in zip((MISSING, WRONG), results):
        if isinstance(result, PerturbationCheckError):
            problems.append(f"{kind}: the generated variant was rejected by its check ({escape_md(result)}); "
                            f"its box keeps the previous text")
        elif isinstance(result, BaseException):
            problems.append(f"{kind}: {escape_md(result or type(result).__name__)}; its box keeps the previous text")
        else:
            st.session_state[TEXT_KEYS[kind]] = result
    if problems:
        st.session_state["cmp_notice"] = ("error", "Could not generate " + "; ".join(problems))
    else:
        st.session_state["cmp_notice"] = ("success", f"Generated the missing and wrong variants with the "
                                                     f"{backend.info.name} backend. Press Score to compare.")


def run_scoring() -> None:
    query = (st.session_state.get("cmp_query") or "").strip()
    texts = {name: (st.session_state.get(key) or "").strip() for name, key in TEXT_KEYS.items()}
    if not query or not texts[NORMAL]:
        st.warning("Enter a query and at least the normal response.")
        return
    responses = {k: v for k, v in texts.items() if v}
    if problem := long_runs.too_long(responses, "variant"):
        st.error(problem)
        return
    stale = demo.without_stale_demo_evidence("cmp", TEXT_KEYS[NORMAL])
    if stale:
        st.info(demo.STALE_EVIDENCE_NOTE)
    try:
        docs = [] if stale else documents_from_text(st.session_state.get("cmp_documents") or "")
    except InputError as exc:
        st.error(f"Could not read the evidence: {escape_md(exc)}")
        return
    try:
        backend = backend_panel.active_backend()
    except ValueError as exc:
        st.error(f"The backend cannot run: {escape_md(exc)}")
        return
    reference = None if stale else (st.session_state.get("cmp_reference") or "").strip() or None
    against_normal = choose_evidence(docs, reference, responses).mode == EVIDENCE_NORMAL
    steps = long_runs.expected_steps(len(responses), bool(docs), bool(reference), against_normal)
    with backend_panel.scoring_status(f"Scoring {len(responses)} variants with the {backend.info.name} backend…") \
            as status:
        result = backend_panel.run_with_progress(status, backend, lambda on_step: score_example(
            backend, example_id="compare", query=query, responses=responses, documents=docs,
            reference=reference, on_step=on_step), steps)
        failed = [f"{escape_md(k)}: {escape_md(v.error)}" for k, v in result.variants.items() if v.error]
        if failed:
            status.update(label="Some variants failed: " + "; ".join(failed), state="error")
        else:
            status.update(label="Scored all variants", state="complete", expanded=False)
    st.session_state[RESULT_KEY] = result.to_dict()
    st.session_state["cmp_origin"] = f"scored just now by the {backend.info.name} backend"
    url_state.set_qp(example=None)   # the URL named the demo example these texts no longer are


def inputs() -> None:
    demo.demo_picker("cmp", TEXT_KEYS, RESULT_KEY)
    st.text_input("Query", key="cmp_query")
    st.text_area("Normal response", key=TEXT_KEYS[NORMAL], height=110)
    st.button("Generate missing and wrong from the normal response", on_click=generate_variants,
              help="Uses the active backend: missing drops the key answer, wrong swaps it for a "
                   "plausible wrong one.")
    notice = st.session_state.pop("cmp_notice", None)
    if notice:
        getattr(st, notice[0])(notice[1])
    left, right = st.columns(2)
    left.text_area("Missing variant (key answer removed)", key=TEXT_KEYS[MISSING], height=110)
    right.text_area("Wrong variant (key answer replaced)", key=TEXT_KEYS[WRONG], height=110)
    with st.expander("Evidence (optional)"):
        st.text_area("Evidence documents (separate documents with a line holding only ---)",
                     key="cmp_documents", height=110)
        st.text_area("Reference answer", key="cmp_reference", height=68)
    if st.button("Score all variants", type="primary"):
        run_scoring()


def results() -> None:
    data = st.session_state.get(RESULT_KEY)
    if not data:
        st.info("Nothing compared yet: fill in the responses and press **Score all variants**.")
        return
    example = ExampleResult.from_dict(data)
    names = ordered_conditions(example.variants)
    if NORMAL not in example.variants:
        st.info("The comparison needs a normal response; this result has none.")
        return
    st.divider()
    st.subheader("Comparison")
    st.caption(f"Result {st.session_state.get('cmp_origin', '')}. Query: {escape_md(example.query)}")
    st.markdown(f"**Checked against:** {escape_md(explain.evidence_sentence(example))}")
    current = {n: (st.session_state.get(TEXT_KEYS[n]) or "").strip() for n in TEXT_KEYS}
    if any(n in example.variants and current.get(n) and current[n] != example.variants[n].text.strip()
           for n in TEXT_KEYS):
        st.warning("The texts above changed since this result was scored: press **Score all variants** "
                   "to update it.")
    variant_columns(example, names)
    table = variants.metric_table(example, [k for k in TABLE_METRICS if k in METRICS])
    damage_section(table, names, example)
    variants_chart(table, names, example)


def variant_columns(example: ExampleResult, names: list[str]) -> None:
    """One column per variant: its text with the differences from normal, then its ranked subclaims."""
    normal_text = example.variants[NORMAL].text
    cols = st.columns(len(names))
    for col, name in zip(cols, names):
        v = example.variants[name]
        with col:
            st.markdown(f"#### {escape_md(name)}")
            if name == NORMAL:
                col.html(f'<div class="vx-text">{formatting.escape(v.text)}</div>')
            else:
                segments = textdiff.word_diff(normal_text, v.text)
                stats = textdiff.diff_stats(segments)
                col.html(f'<div class="vx-text">{textdiff.diff_html(normal_text, v.text)}</div>')
                st.caption(f"vs normal: {stats['inserted']} words new (highlighted), "
                           f"{stats['deleted']} removed (struck through)")
            st.markdown("**Ranked subclaims**")
            claims.show_subclaims(v, compact=True, height=560)


def damage_section(table: pd.DataFrame, names: list[str], example: ExampleResult) -> None:
    """Which metrics noticed the damage: the story in one sentence per variant, why the normal response
    scores low when it does, then every metric with its change."""
    st.markdown("#### Which metrics noticed the damage?")
    for line in variants.headlines(table):
        st.markdown(f"- **{escape_md(line.variant)}**: {escape_md(line.body)}")
    st.caption(stats.NOTICED_RULE.capitalize() + " (the same rule as the detection rate on Sensitivity).")
    reasons = explain.why_normal_scores_low(example)
    if reasons:
        st.markdown("**Why the normal response scores low** (if it is correct, this is how the metrics count, "
                    "not a fault in it):")
        for reason in reasons:
            st.markdown(f"- {escape_md(reason)}")
    shown = pd.DataFrame({"metric": table["metric"]})
    for name in names:
        shown[explain.column_label(name, example)] = [formatting.format_value(k, v)
                                                       for k, v in zip(table["key"], table[name])]
    for name in names:
        if f"change {name}" in table:
            shown[f"Δ {name}"] = [("" if c is None or pd.isna(c) else f"{c:+.3f}") for c in table[f"change {name}"]]
            shown[f"{name}: reaction"] = table[f"reaction {name}"]

    def reaction_style(value):
        return {variants.NOTICED: "background-color:#D6E9F8;font-weight:600",
                variants.BARELY: "background-color:#FFF1B8",
                variants.NOT_NOTICED: "background-color:#FDE0DD"}.get(value, "color:#555")

    st.dataframe(shown.style.map(reaction_style, subset=[c for c in shown.columns if c.endswith("reaction")]),
                 hide_index=True, width="stretch", height=36 * (len(shown) + 1) + 4)


def variants_chart(table: pd.DataFrame, names: list[str], example: ExampleResult) -> None:
    """The headline scores per variant as grouped bars (patterns as a second cue to colour); the CSV and
    the JSON download say what the claims were checked against."""
    data = variants.chart_data(table, CHART_METRICS, names, example)
    fig = go.Figure()
    for i, name in enumerate(names):
        part = data[data["variant"] == name]
        fig.add_bar(x=part["metric"], y=part["value"], name=explain.column_label(name, example),
                    marker_color=palette.condition_colour(name, i),
                    marker_pattern_shape=palette.CONDITION_PATTERNS.get(name, ""),
                    text=[("" if v is None or pd.isna(v) else f"{v:.2f}") for v in part["value"]],
                    textposition="outside", cliponaxis=False)
    fig.update_layout(barmode="group", title="Metrics per variant (no bar and no label = undefined)",
                      yaxis=dict(range=[0, 1.12], title="score"), uniformtext=dict(minsize=9, mode="hide"))
    charts.chart(fig, "compare-variants", data, key="compare")
    st.download_button("Download comparison (JSON)", json.dumps(example.to_dict(), indent=1).encode("utf-8"),
                       file_name="compare-result.json", mime="application/json", key="compare-json",
                       help="Every variant with its subclaims, verdicts and evidence_mode.")


def render() -> None:
    st.title("Compare variants")
    st.markdown("A normal response next to a **missing** variant (key answer left out) and a **wrong** "
                "variant (key answer replaced). FactScore-style precision often barely moves; the "
                "VITAL metrics should.")
    backend_panel.backend_caption()
    inputs()
    results()


shell.run_page(render)
