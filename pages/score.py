"""Score page: one query and response, optional evidence; subclaims, metrics, what-if."""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from explorer.logic import damage, explain, long_runs, report_html, whatif
from explorer.logic.evidence_input import documents_from_text, documents_from_upload
from explorer.logic.formatting import escape_md, file_slug
from explorer.logic.palette import importance_label, verdict_label
from explorer.widgets import backend_panel, claims, demo, explanations, metric_cards, scoring_run, shell, url_state
from explorer.widgets.uploads import read_uploaded_text
from vital_core.files.errors import InputError
from vital_core.metrics import catalog
from vital_core.metrics.response import compute_response_metrics
from vital_core.results.model import NORMAL, ExampleResult, InvalidLabelError, ResponseResult

shell.hand_over_to_entry()   # a fresh server's first request runs through app.py (explorer.widgets.shell)

RESULT_KEY = "score_result"          # ExampleResult as a dict (never holds a key)
TEXT_KEYS = {NORMAL: "score_response"}   # the Score page edits the normal response only


def collect_documents(pasted: str, uploads) -> list:
    docs = documents_from_text(pasted)
    for up in uploads or []:
        docs.extend(documents_from_upload(up.name, read_uploaded_text(up)))
    return docs


def run_scoring(query: str, response: str, documents, reference: str) -> None:
    backend = backend_panel.active_backend()
    result = scoring_run.score_with_progress(backend, example_id="my-example", query=query,
                                             responses={NORMAL: response}, documents=documents,
                                             reference=reference or None)
    st.session_state[RESULT_KEY] = result.to_dict()
    st.session_state["score_origin"] = (f"scored just now by the {backend.info.name} backend (your own text: "
                                        "the page's URL does not hold it; download the result to share it)")
    url_state.set_qp(example=None)   # the URL named the demo example this text no longer is
    st.session_state["score_run"] = st.session_state.get("score_run", 0) + 1


def inputs() -> None:
    demo.demo_picker("score", TEXT_KEYS, RESULT_KEY)
    with st.form("score_form"):
        st.text_input("Query", key="score_query", placeholder="e.g. Who wrote Pride and Prejudice?")
        st.text_area("Response to score", key="score_response", height=140)
        left, right = st.columns(2)
        with left:
            st.text_area("Evidence documents (optional; separate documents with a line holding only ---)",
                         key="score_documents", height=140)
            uploads = st.file_uploader("…or upload documents (.txt: one document; .jsonl: one per line)",
                                       type=["txt", "jsonl"], accept_multiple_files=True,
                                       key="score_uploads")
        with right:
            st.text_area("Reference answer (optional)", key="score_reference", height=140,
                         help="Adds factual-correctness recall; with no documents the claims are "
                              "checked against the reference.")
            st.caption("With documents, claims are checked against them and nuggets are built "
                       "(recall metrics). With only a reference answer, claims are checked against "
                       "it (factual correctness). With neither, the backend's own knowledge is "
                       "used: the offline backend has none, so claims stay “not judged” and the "
                       "scores they decide are undefined.")
        submitted = st.form_submit_button("Score", type="primary")
    if submitted:
        query = (st.session_state.get("score_query") or "").strip()
        response = (st.session_state.get("score_response") or "").strip()
        if not query or not response:
            st.warning("Enter a query and a response to score.")
            return
        if problem := long_runs.too_long({NORMAL: response}):
            st.error(problem)
            return
        stale = demo.without_stale_demo_evidence("score", TEXT_KEYS[NORMAL])
        if stale:
            st.info(demo.STALE_EVIDENCE_NOTE)
        try:
            docs = collect_documents("" if stale else st.session_state.get("score_documents") or "", uploads)
        except InputError as exc:
            st.error(f"Could not read the evidence: {escape_md(exc)}")
            return
        reference = "" if stale else (st.session_state.get("score_reference") or "").strip()
        try:
            run_scoring(query, response, docs, reference)
        except ValueError as exc:
            st.error(f"The backend cannot run: {escape_md(exc)}")


def editor_frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["rank", "id", "subclaim", "importance", "verdict"])


def results() -> None:
    data = st.session_state.get(RESULT_KEY)
    if not data:
        st.info("Nothing scored yet: enter a query and a response above and press **Score**.")
        return
    example = ExampleResult.from_dict(data)
    response = example.variants.get(NORMAL) or next(iter(example.variants.values()), None)
    if response is None:
        st.info("The result holds no response.")
        return
    st.divider()
    st.subheader("Result")
    st.caption(f"Query: {escape_md(example.query)}")
    st.caption(f"Result {st.session_state.get('score_origin', '')}; evidence: {response.evidence_mode}.")
    if example.error:
        st.warning(f"Part of the scoring failed: {escape_md(example.error)}")
    scored_metrics = compute_response_metrics(response, example.nuggets)
    cards = st.container()
    claims_box = st.container()
    edited = whatif_editor(example, response)
    edited_metrics = compute_response_metrics(edited, example.nuggets)
    has_edits = whatif.has_edits(response, edited)
    with claims_box:
        st.markdown("#### Subclaims in importance order"
                    + (" — with your what-if edits" if has_edits else ""))
        claims.show_subclaims(edited)
    with cards:
        metric_cards.metric_cards(edited_metrics, edited, example.nuggets,
                                  before=scored_metrics if has_edits else None)
        flags = explain.why_flagged(edited, example.nuggets)
        if flags:
            st.html(damage.flag_note_html(flags, who="This response"))
        explanations.low_scores(explain.why_scores_low(edited, example.nuggets, example.reference), "this response")
        if has_edits:
            changed = whatif.changed_metrics(scored_metrics, edited_metrics)
            st.info(f"What-if: {len(changed)} metric value(s) changed by your edits "
                    "(arrows show the change from the scored result).")
    details(example, edited, scored_metrics, edited_metrics, has_edits)


def whatif_editor(example: ExampleResult, response: ResponseResult) -> ResponseResult:
    """The editable table of importance and verdict; returns the response with the edits applied."""
    st.markdown("#### What-if")
    st.caption("Change any subclaim's importance or verdict in the table: the metric cards and the list "
               "above recompute at once.")
    rows = whatif.edit_rows(response)
    if not rows:
        st.caption("No subclaims to edit.")
        return response
    token = f"{example.id}-{st.session_state.get('score_run', 0)}-{st.session_state.get('score_loaded_demo', '')}"
    table = st.data_editor(
        editor_frame(rows), key=f"score_whatif_{token}", hide_index=True, width="stretch",
        row_height=claims.WRAPPED_ROW_HEIGHT,
        disabled=[c for c in whatif.EDITOR_COLUMNS if c not in whatif.EDITABLE],
        column_order=list(whatif.EDITOR_COLUMNS),
        column_config={
            "rank": st.column_config.NumberColumn("Rank", width=whatif.EDITOR_COLUMNS["rank"]),
            "id": st.column_config.TextColumn("Id", width=whatif.EDITOR_COLUMNS["id"]),
            "subclaim": st.column_config.TextColumn("Subclaim", width=whatif.EDITOR_COLUMNS["subclaim"]),
            "importance": st.column_config.SelectboxColumn(
                "Importance", options=whatif.IMPORTANCE_CHOICES, required=True,
                format_func=importance_label, width=whatif.EDITOR_COLUMNS["importance"]),
            "verdict": st.column_config.SelectboxColumn(
                "Verdict", options=whatif.VERDICT_CHOICES, required=True,
                format_func=verdict_label, width=whatif.EDITOR_COLUMNS["verdict"]),
        })
    try:
        return whatif.apply_edits(response, table.to_dict("records"))
    except InvalidLabelError as exc:
        st.error(f"That edit was not applied: {escape_md(exc)}")
        return response


def details(example: ExampleResult, edited: ResponseResult, scored_metrics: dict, edited_metrics: dict,
            has_edits: bool) -> None:
    """Every metric before and after the edits, the nuggets, the reference's claims, the download."""
    if has_edits:
        with st.expander("What-if: every metric, scored vs. edited", expanded=False):
            keys = [k for k in scored_metrics if k in catalog.METRICS]
            st.dataframe(metric_cards.metrics_frame({"scored": scored_metrics, "what-if": edited_metrics}, keys),
                         hide_index=True, width="stretch")
    if example.nuggets is not None:
        with st.expander(f"Nuggets ({len(example.nuggets)}) and their support", expanded=False):
            claims.show_nuggets(example.nuggets, {NORMAL: edited})
    if edited.reference_claims:
        with st.expander("Reference answer's claims checked against the response (factual-correctness recall)"):
            claims.show_subclaims(ResponseResult(variant="reference", text=example.reference or "",
                                                 subclaims=edited.reference_claims))
    out = whatif.with_variant(example, NORMAL, edited)
    st.download_button("Download result (JSON)" + (" with your what-if edits" if has_edits else ""),
                       json.dumps(out.to_dict(), ensure_ascii=False, indent=2).encode("utf-8"),
                       file_name=f"vital-result-{file_slug(example.id, 'example')}.json", mime="application/json",
                       key="score_download", on_click="ignore")
    origin = st.session_state.get("score_origin", "")
    # made when clicked, and a click does not rerun the page: see report_download in pages/compare.py
    st.download_button("Download one-page report (HTML)" + (" with your what-if edits" if has_edits else ""),
                       lambda: report_html.example_report(out, origin=origin).encode("utf-8"),
                       file_name=f"vital-report-{report_html.file_stem(example.id)}.html", mime="text/html",
                       key="score_report", on_click="ignore",
                       help="One self-contained page to send to someone who will not run the app: "
                       "the text, coloured subclaims with reasons and quotes, and every metric.")


def render() -> None:
    st.title("Score a response")
    st.markdown("Split a response into subclaims, rank them by how much they matter to the query, "
                "check each against the evidence, and see every metric — including what a "
                "FactScore-style precision misses.")
    backend_panel.backend_caption()
    inputs()
    results()


render()
