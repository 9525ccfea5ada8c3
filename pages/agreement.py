"""Agreement: two importance labellings of the same decompositions, and your own labels."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import plotly.express as px
import streamlit as st

from explorer import paths
from explorer.logic import annotate, palette
from explorer.logic.formatting import escape_md, file_slug
from explorer.widgets import charts, claims, data_source, shell
from vital_core.analysis import agreement
from vital_core.files.errors import InputError
from vital_core.results.model import CONDITIONS, IMPORTANCE_LABELS, UNLABELLED, ExampleResult, ordered_conditions

shell.hand_over_to_entry()   # a fresh server's first request runs through app.py (explorer.widgets.shell)

ALL_CONDITIONS = "all conditions"
DEFAULT_A = paths.REFERENCE / "gpt-4o"
DEFAULT_B = paths.REFERENCE / "labels" / "human"


@st.cache_resource(show_spinner="Reading labels…", max_entries=8)
def _load(path: str, signature: tuple):
    from vital_core.loaders.load import load_examples
    return load_examples(path)


def load(path_text: str):
    path = data_source.existing_path(path_text.strip())
    return _load(str(path), data_source.signature(path))


def available_labellers() -> list[str]:
    found = []
    if (DEFAULT_A).is_dir():
        found.append(str(DEFAULT_A))
    labels = paths.REFERENCE / "labels"
    if labels.is_dir():
        found += [str(p) for p in sorted(labels.iterdir()) if p.is_dir()]
    return found


def tier_style(value) -> str:
    return palette.importance_cell_style(value) if value in palette.IMPORTANCE else ""


def comparison_section(examples_a, examples_b, condition: str) -> None:
    only = None if condition == ALL_CONDITIONS else condition
    a, b = agreement.only_condition(examples_a, only), agreement.only_condition(examples_b, only)
    try:
        result = agreement.compare_labellings(a, b)
    except InputError as exc:
        st.error(f"The two labellings do not label the same records: {escape_md(exc)}")
        return
    for p in result.problems[:5]:
        st.caption(f"Note: {escape_md(p)}")
    if result.n == 0:
        st.info("No subclaim is labelled by both sides, so agreement is undefined.")
        return
    cols = st.columns(5)
    fmt = lambda v: "undefined" if v is None else f"{v:.3f}"  # noqa: E731
    cols[0].metric("Cohen's κ (linear)", fmt(result.kappa), border=True,
                   help="Linear-weighted Cohen's kappa: chance-corrected agreement over "
                        "vital > okay > less-important.")
    cols[1].metric("Exact agreement", fmt(result.exact), border=True)
    cols[2].metric("Kendall tau-b (mean)", fmt(result.kendall_tau), border=True,
                   help="Agreement of the two importance orders, per response, averaged.")
    cols[3].metric("Subclaims compared", f"{result.n}", border=True)
    cols[4].metric("Examples", f"{result.n_examples}", border=True,
                   help=f"{result.n_excluded} subclaim(s) left out: unlabelled or on one side only.")
    if not result.per_condition.empty:
        st.dataframe(result.per_condition, hide_index=True, width="stretch", placeholder="undefined",
                     column_config={c: st.column_config.NumberColumn(format="%.3f")
                                    for c in ("kappa", "exact", "kendall_tau")})
    left, right = st.columns(2)
    with left:
        conf = result.confusion
        fig = px.imshow(conf, text_auto=True, color_continuous_scale="Blues", aspect="auto",
                        labels=dict(x="labelling B", y="labelling A", color="subclaims"),
                        title="Confusion (rows: A, columns: B)")
        data = conf.reset_index(names="A")
        charts.chart(fig, "agreement-confusion", data, key="agr_confusion")
    with right:
        st.markdown("**Per example**")
        per = result.per_example.copy()
        event = st.dataframe(per, hide_index=True, width="stretch", on_select="rerun", placeholder="undefined",
                             selection_mode="single-row", key="agr_per_example", height=320,
                             column_config={c: st.column_config.NumberColumn(format="%.3f")
                                            for c in ("exact", "kendall_tau")})
        rows = getattr(getattr(event, "selection", None), "rows", None) or []
        st.caption("Select a row to compare its labels side by side below.")
    if not per.empty:
        row = per.iloc[rows[0] if rows else 0]
        side_by_side(a[int(row["position"])], b[int(row["position"])], str(row["condition"]))


def side_by_side(ea: ExampleResult, eb: ExampleResult, variant: str) -> None:
    va = ea.variants.get(variant.split("/")[0])
    vb = eb.variants.get(variant.split("/")[-1])
    if va is None or vb is None:
        return
    st.markdown(f"**{escape_md(ea.query)}** — {escape_md(variant)}")
    labels_b = {s.id: s.importance for s in vb.subclaims}
    table = pd.DataFrame([{"id": s.id, "subclaim": s.text, "A": s.importance, "B": labels_b.get(s.id, UNLABELLED),
                           "same": "✓" if s.importance == labels_b.get(s.id) else "✗"}
                          for s in va.ordered_subclaims()])
    st.dataframe(table.style.map(tier_style, subset=["A", "B"]), hide_index=True, width="stretch",
                 row_height=claims.WRAPPED_ROW_HEIGHT,
                 column_config={"subclaim": st.column_config.TextColumn(width="large")})


def annotate_section(examples_a: list[ExampleResult]) -> None:
    st.header("Annotate: your own labels")
    st.markdown("Relabel one response's subclaims yourself and see how far you agree with labelling A. "
                "Export your labels in the official record shape to compare with "
                "`python -m vital_core agreement`.")
    if not examples_a:
        st.info("Load labelling A above to annotate its responses.")
        return
    cols = st.columns([3, 1, 1])
    index = cols[0].selectbox("Example", range(len(examples_a)), key="agr_ann_example",
                              format_func=lambda i: f"{i + 1}. {examples_a[i].query[:90]}")
    example = examples_a[index]
    condition = cols[1].selectbox("Condition", ordered_conditions(example.variants), key="agr_ann_condition")
    start = cols[2].radio("Start from", ["blank", "labelling A"], key="agr_ann_start", horizontal=False,
                          help="Blank: your column starts empty. Labelling A: it starts with A's labels, which "
                               "count as yours (and agree with A) until you change them.")
    response = example.variants[condition]
    if not response.subclaims:
        st.info("This response has no subclaims to label.")
        return
    mine = label_editor(example, condition, response, start)
    agreement_cards(mine, response)
    export_buttons(examples_a)


def label_editor(example: ExampleResult, condition: str, response, start: str) -> dict[str, str]:
    """The editable table of your labels for one response; what you labelled is kept in the session."""
    store = st.session_state.setdefault("agr_labels", {})
    slot = (example.id, condition)
    edited = st.data_editor(
        annotate.editor_rows(response, store.get(slot, {}), start == "labelling A"),
        key=f"agr_ann_editor_{example.id}_{condition}_{start}", hide_index=True, width="stretch",
        disabled=["id", "subclaim", "labelling A"], row_height=claims.WRAPPED_ROW_HEIGHT, placeholder="–",
        column_config={annotate.YOUR_LABEL: st.column_config.SelectboxColumn(
            "Your label", options=list(IMPORTANCE_LABELS), format_func=palette.importance_label),
            "subclaim": st.column_config.TextColumn(width="large")})
    mine = annotate.labels_from_rows(edited.to_dict("records"))
    if mine:
        store[slot] = mine
    elif slot in store:
        del store[slot]
    return mine


def agreement_cards(mine: dict[str, str], response) -> None:
    n_shared, kappa, exact = annotate.agreement_with(mine, response)
    c = st.columns(3)
    c[0].metric("Subclaims you labelled", f"{len(mine)} / {len(response.subclaims)}", border=True)
    c[1].metric("Your kappa with A", "undefined" if kappa is None else f"{kappa:.3f}", border=True,
                help="Undefined when you labelled nothing, or both of you used one single, identical label.")
    if exact is None:
        c[1].caption("Undefined — label at least one subclaim.")
    else:
        c[2].metric("Your exact agreement with A", f"{exact:.3f}", border=True)


def export_buttons(examples_a: list[ExampleResult]) -> None:
    """One JSONL download per condition of every response you labelled."""
    store = st.session_state.get("agr_labels", {})
    annotated = [(eid, cond) for (eid, cond) in store if store[(eid, cond)]]
    by_id = {ex.id: ex for ex in examples_a}
    for cond in ordered_conditions({cond for _, cond in annotated}):
        records = [annotate.release_record(by_id[eid], cond, store[(eid, cond)])
                   for eid, c2 in annotated if c2 == cond and eid in by_id]
        incomplete = sum(1 for eid, c2 in annotated if c2 == cond and eid in by_id
                         and not annotate.complete(store[(eid, c2)], by_id[eid].variants[c2]))
        st.download_button(f"Export your {escape_md(cond)} labels ({len(records)} record(s), JSONL)",
                           annotate.export_jsonl(records).encode("utf-8"),
                           file_name=f"my-labels-{file_slug(cond, 'condition')}.jsonl",
                           mime="application/json", key=f"agr_ann_export_{cond}", on_click="ignore")
        if incomplete:
            st.caption(f"{incomplete} {escape_md(cond)} record(s) are only partly labelled; their unlabelled "
                       "subclaims export with importance null.")


def _use_pick(side: str) -> None:
    picked = st.session_state.get(f"agr_pick_{side}")
    if picked:
        st.session_state[f"agr_{side}"] = picked


def render() -> None:
    st.title("Agreement")
    st.markdown("Compare two importance labellings of the same decompositions — e.g. gpt-4o against a "
                "person — with linear-weighted Cohen's kappa, exact agreement and Kendall tau-b.")
    if "agr_a" not in st.session_state:
        st.session_state["agr_a"] = str(DEFAULT_A) if DEFAULT_A.is_dir() else ""
        st.session_state["agr_b"] = str(DEFAULT_B) if DEFAULT_B.is_dir() else ""
    known = available_labellers()
    if not known:
        st.info(f"The reference labels were not found at {paths.REFERENCE} (the read-only ../shared folder "
                "next to the project). Enter two folders or files that label the same records — a folder "
                "of {normal,missing,wrong}.jsonl in the official record shape, a release folder or a "
                "results file.")
    cols = st.columns(2)
    for col, side, label in ((cols[0], "a", "Labelling A (e.g. a model)"), (cols[1], "b", "Labelling B (e.g. people)")):
        col.text_input(label, key=f"agr_{side}", help="A folder of {normal,missing,wrong}.jsonl in the official "
                                                      "record shape, a release folder or a results file.")
        if known:
            col.selectbox(f"…or pick {side.upper()} from the reference data", known, index=None,
                          key=f"agr_pick_{side}", format_func=lambda p: str(Path(p).relative_to(paths.REFERENCE)),
                          on_change=_use_pick, args=(side,), placeholder="reference labellings")
    condition = st.radio("Condition", [ALL_CONDITIONS] + list(CONDITIONS), horizontal=True, key="agr_condition")
    a_text, b_text = st.session_state["agr_a"].strip(), st.session_state["agr_b"].strip()
    examples_a: list[ExampleResult] = []
    if not a_text:
        st.info("Enter labelling A to begin.")
    else:
        try:
            examples_a = load(a_text).examples
        except (InputError, FileNotFoundError, OSError) as exc:
            st.error(f"Could not read labelling A: {escape_md(exc)}")
    if examples_a and b_text:
        try:
            examples_b = load(b_text).examples
        except (InputError, FileNotFoundError, OSError) as exc:
            st.error(f"Could not read labelling B: {escape_md(exc)}")
        else:
            comparison_section(examples_a, examples_b, condition)
    elif examples_a:
        st.info("Enter labelling B to compare, or annotate labelling A's responses yourself below.")
    st.divider()
    annotate_section(examples_a)


render()
