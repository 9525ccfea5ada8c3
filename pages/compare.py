"""Compare variants: normal vs missing vs wrong, side by side, with which metrics noticed."""
from __future__ import annotations

import asyncio
import json

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from explorer.logic import damage, explain, formatting, glossary, long_runs, palette, report_html, textdiff
from explorer.logic.evidence_input import documents_from_text
from explorer.logic.formatting import escape_md
from explorer.widgets import backend_panel, charts, claims, demo, explanations, scoring_run, shell, url_state
from vital_core.analysis import story
from vital_core.files.errors import InputError
from vital_core.metrics.catalog import HEADLINE, METRICS, VARIANT_TABLE
from vital_core.results.model import MISSING, NORMAL, WRONG, ExampleResult, ordered_conditions
from vital_core.scoring.perturbation import PerturbationCheckError
from vital_core.scoring.pipeline import run_sync

shell.hand_over_to_entry()   # a fresh server's first request runs through app.py (explorer.widgets.shell)

RESULT_KEY = "cmp_result"
TEXT_KEYS = {NORMAL: "cmp_normal", MISSING: "cmp_missing", WRONG: "cmp_wrong"}
TABLE_METRICS = VARIANT_TABLE
CHART_METRICS = [k for k in HEADLINE if METRICS[k].kind == "score"]
REACTION_HELP = "; ".join(f"{word}: {meaning}" for word, meaning in story.REACTION_MEANING.items())


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
    result = scoring_run.score_with_progress(backend, example_id="compare", query=query, responses=responses,
                                             documents=docs, reference=reference)
    st.session_state[RESULT_KEY] = result.to_dict()
    st.session_state["cmp_origin"] = f"scored just now by the {backend.info.name} backend"
    url_state.set_qp(example=None)   # the URL named the demo example these texts no longer are


def inputs() -> None:
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
    st.text_area("Evidence documents (optional; separate documents with a line holding only ---)",
                 key="cmp_documents", height=110)
    st.text_area("Reference answer (optional)", key="cmp_reference", height=68)
    if st.button("Score all variants", type="primary"):
        run_scoring()


def current_example() -> ExampleResult | None:
    """The comparison on show (a demo's precomputed result or one scored here), None when there is none
    (``results`` says so, and says when it has no normal response)."""
    data = st.session_state.get(RESULT_KEY)
    return ExampleResult.from_dict(data) if data else None


def story_order(heads: list) -> list:
    """The wrong variant's story first: it is the one FactScore misses."""
    return sorted(heads, key=lambda h: (h.variant != WRONG, h.variant != MISSING))


def results(example: ExampleResult | None) -> None:
    if example is None:
        st.info("Nothing compared yet: fill in the responses and press **Score all variants**.")
        return
    names = ordered_conditions(example.variants)
    if NORMAL not in example.variants:
        st.info("The comparison needs a normal response; this result has none.")
        return
    table = damage.metric_table(example, [k for k in TABLE_METRICS if k in METRICS])
    st.markdown(f"**Query:** {escape_md(example.query)}")
    story_strip(example, table)
    current = {n: (st.session_state.get(TEXT_KEYS[n]) or "").strip() for n in TEXT_KEYS}
    if any(n in example.variants and current.get(n) and current[n] != example.variants[n].text.strip()
           for n in TEXT_KEYS):
        st.warning("The texts under Inputs changed since this result was scored: press **Score all variants** "
                   "to update it.")
    st.caption(f"Result {escape_md(st.session_state.get('cmp_origin', ''))}.")
    st.markdown(f"**Checked against:** {escape_md(explain.evidence_sentence(example))}")
    variant_texts(example, names)
    damage_section(table, names, example)
    variants_chart(table, names, example)
    variant_claims(example, names)
    report_download(example, "cmp")


def story_strip(example: ExampleResult, table: pd.DataFrame, *, scale: float = 1.0) -> None:
    """The headline strip: per damaged variant, FactScore precision and the metrics that carry its story,
    before -> after, each with its reaction word; then the flags a normal response carries, in plain words."""
    heads = story_order(damage.headlines(table))
    changes = {n: textdiff.change_sentence(example.variants[NORMAL].text, v.text)
               for n, v in example.variants.items() if n != NORMAL}
    st.html(damage.strip_html(heads, changes=changes, scale=scale))
    flags = explain.why_flagged(example.variants[NORMAL], example.nuggets)
    if flags:
        st.html(damage.flag_note_html(flags, scale=scale))


def variant_texts(example: ExampleResult, names: list[str]) -> None:
    """The three texts side by side, each variant's change from normal marked."""
    normal_text = example.variants[NORMAL].text
    for col, name in zip(st.columns(len(names)), names):
        v = example.variants[name]
        with col:
            st.markdown(f"**{escape_md(name)}**")
            if name == NORMAL:
                st.html(f'<div class="vx-text">{formatting.escape(v.text)}</div>')
            else:
                segments = textdiff.word_diff(normal_text, v.text)
                counts = textdiff.diff_stats(segments)
                st.html(f'<div class="vx-text">{textdiff.diff_html(normal_text, v.text)}</div>')
                st.caption(f"vs normal: {counts['inserted']} words new (highlighted), "
                           f"{counts['deleted']} removed (struck through)")


def variant_claims(example: ExampleResult, names: list[str]) -> None:
    """One column per variant: its ranked, coloured subclaims (click a row for the reason and quote)."""
    st.markdown("#### Ranked subclaims per variant")
    for col, name in zip(st.columns(len(names)), names):
        with col:
            st.markdown(f"**{escape_md(name)}**")
            claims.show_subclaims(example.variants[name], compact=True, height=560)


def damage_section(table: pd.DataFrame, names: list[str], example: ExampleResult) -> None:
    """The story in one sentence per variant (the strip's words), why the normal response scores low when it
    does, then every metric with its change and reaction."""
    st.markdown("#### Which metrics noticed the damage?")
    for line in story_order(damage.headlines(table)):
        st.markdown(f"- **{escape_md(line.variant)}**: {escape_md(line.body)}")
    st.html(damage.legend_html())
    explanations.low_scores(explain.why_normal_scores_low(example), "the normal response")
    shown = pd.DataFrame({"metric": table["metric"]})
    for name in names:
        shown[explain.column_label(name, example)] = [formatting.format_value(k, v)
                                                       for k, v in zip(table["key"], table[name])]
    reaction_columns = []
    for name in names:
        if f"change {name}" in table:
            shown[f"Δ {name}"] = [("" if c is None or pd.isna(c) else f"{c:+.3f}") for c in table[f"change {name}"]]
            shown[f"{name}: reaction"] = [f"{r}: {n}" if r == story.UNDEFINED and n else r
                                          for r, n in zip(table[f"reaction {name}"], table[f"note {name}"])]
            reaction_columns.append(f"{name}: reaction")

    def reaction_style(value):
        return palette.reaction_cell_style(str(value).split(":")[0])

    st.dataframe(shown.style.map(reaction_style, subset=reaction_columns), hide_index=True, width="stretch",
                 height=36 * (len(shown) + 1) + 4,
                 column_config={c: st.column_config.TextColumn(c, help=REACTION_HELP) for c in reaction_columns})
    with st.expander("Glossary: what each metric in this table measures, in one line"):
        st.dataframe(glossary.frame(list(table["key"]), statistics=False), hide_index=True, width="stretch",
                     column_config={"what it means": st.column_config.TextColumn(width="large")})


def story_chart(table: pd.DataFrame, names: list[str], example: ExampleResult, keys: list[str], *,
                font: int = 13, key: str = "cmp_chart") -> None:
    """Scores per variant as grouped bars (patterns as a second cue to colour); each damaged variant's bar
    says its reaction word in its hover text, an undefined one says "undefined" where its bar would be."""
    data = damage.chart_data(table, keys, names, example)
    fig = go.Figure()
    for i, name in enumerate(names):
        part = data[data["variant"] == name]
        values = [0.0 if v is None or pd.isna(v) else v for v in part["value"]]
        fig.add_bar(x=part["metric"], y=values, name=explain.column_label(name, example),
                    marker_color=palette.condition_colour(name, i),
                    marker_pattern_shape=palette.CONDITION_PATTERNS.get(name, ""),
                    text=[("undefined" if v is None or pd.isna(v) else f"{v:.2f}") for v in part["value"]],
                    customdata=[r or "the reference point" for r in part["reaction"]],
                    hovertemplate="%{x}: %{text} (%{customdata})<extra>" + formatting.escape(name) + "</extra>",
                    textposition="outside", cliponaxis=False)
    fig.update_layout(barmode="group", title="Scores per variant",
                      yaxis=dict(range=[0, 1.15], title="score"), uniformtext=dict(minsize=9, mode="hide"))
    charts.chart(fig, "compare-variants", data, key=key, font=font,
                 caption="Hover a bar for its reaction word; an undefined score says “undefined” where its bar "
                         "would be.")


def variants_chart(table: pd.DataFrame, names: list[str], example: ExampleResult) -> None:
    story_chart(table, names, example, CHART_METRICS)
    st.download_button("Download comparison (JSON)", json.dumps(example.to_dict(), indent=1).encode("utf-8"),
                       file_name="compare-result.json", mime="application/json", key="cmp_json", on_click="ignore",
                       help="Every variant with its subclaims, verdicts and evidence_mode.")


def report_download(example: ExampleResult, key: str) -> None:
    # made when clicked (Streamlit calls it then), not on every run of the page; a click must not rerun the
    # page: the rerun would revoke the callable the download is still waiting for (seen as a lost download)
    st.download_button("Download one-page report (HTML)", lambda: report_html.example_report(example).encode("utf-8"),
                       file_name=f"vital-report-{report_html.file_stem(example.id)}.html", mime="text/html",
                       key=f"{key}_report", on_click="ignore",
                       help="One self-contained page to send to someone who will not run the app: "
                       "the texts, coloured subclaims with reasons and quotes, the metrics and the story.")


def present(example: ExampleResult | None) -> None:
    """Present mode: one example's story in large type, readable on a 1280x720 projector."""
    st.html(PRESENT_CSS)
    nav = st.columns([1, 1, 1, 6], gap="small")
    nav[0].button("◀ Previous", on_click=demo.step_demo, args=("cmp", TEXT_KEYS, RESULT_KEY, -1),
                  key="cmp_present_prev")
    nav[1].button("Next ▶", on_click=demo.step_demo, args=("cmp", TEXT_KEYS, RESULT_KEY, 1),
                  key="cmp_present_next")
    nav[2].button("Exit", on_click=url_state.set_qp, kwargs={"present": None}, key="cmp_present_exit",
                  help="Back to the full Compare page.")
    if example is None or NORMAL not in example.variants:
        st.info("Nothing to present: load a demo with Next, or score your own texts on the Compare page.")
        return
    origin = st.session_state.get("cmp_loaded_demo") if "demo" in st.session_state.get("cmp_origin", "") else ""
    origin = f' <span style="color:#666;font-size:0.6em">({formatting.escape(origin)})</span>' if origin else ""
    st.html(f'<div class="vx-present-query">{formatting.escape(example.query)}{origin}</div>')
    table = damage.metric_table(example, [k for k in TABLE_METRICS if k in METRICS])
    names = ordered_conditions(example.variants)
    story_strip(example, table, scale=1.35)
    present_texts(example, names)
    story_chart(table, names, example, PRESENT_CHART, font=20, key="cmp_present_chart")


def present_texts(example: ExampleResult, names: list[str]) -> None:
    """The three texts around the key change: the normal marks the words the wrong (else another) variant
    changed, each variant marks its own change."""
    normal_text = example.variants[NORMAL].text
    other = next((n for n in (WRONG, MISSING) if n in example.variants),
                 next((n for n in names if n != NORMAL), NORMAL))
    with st.container(key="cmp_present_texts"):
        for col, name in zip(st.columns(len(names)), names):
            if name == NORMAL:
                body = textdiff.excerpt_html(normal_text, example.variants[other].text, side="normal")
            else:
                body = textdiff.excerpt_html(normal_text, example.variants[name].text)
            col.html(f'<div class="vx-present-name">{formatting.escape(name)}</div><div class="vx-text">{body}</div>')


# The story's scores only: the chart must be readable from the back of a room.
PRESENT_CHART = ["factscore_precision", "vital_precision", "vital_recall"]
PRESENT_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
[data-testid="stHeader"] {display: none;}
.block-container {padding-top: 1.2rem; max-width: 100%;}
.vx-present-query {font-size: 2rem; font-weight: 700; line-height: 1.2; margin-bottom: 0.2em;}
.st-key-cmp_present_texts .vx-text {font-size: 1.45rem; line-height: 1.4;}
.vx-present-name {font-size: 1.45rem; font-weight: 700;}
</style>"""


def render() -> None:
    demo.load_first_visit("cmp", TEXT_KEYS, RESULT_KEY)
    if url_state.qp("present") == "1":
        present(current_example())
        return
    head = st.columns([6, 1])
    head[0].title("Compare variants")
    head[1].button("Present", icon=":material/slideshow:", on_click=url_state.set_qp, kwargs={"present": "1"},
                   help="The story of this example in large type, for a projector; next/previous example.")
    st.caption("A normal response next to a **missing** variant (key fact left out) and a **wrong** variant "
               "(key fact replaced): does each metric notice?")
    has_result = bool(st.session_state.get(RESULT_KEY))
    with st.expander("Inputs: demo example, query, responses, evidence" + (" (open to edit and score again)"
                                                                            if has_result else ""),
                     expanded=not has_result):
        backend_panel.backend_caption()
        demo.demo_picker("cmp", TEXT_KEYS, RESULT_KEY, folded=False)
        inputs()
    results(current_example())


render()
