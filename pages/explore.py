"""Explore results: load a set, filter it, page through it, open one example."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import paths
from explorer.logic import explain, filters, formatting, frame_download, textdiff
from explorer.logic.formatting import escape_md
from explorer.widgets import claims, data_source, shell, url_state
from vital_core.files.errors import InputError
from vital_core.metrics.catalog import HEADLINE, METRICS
from vital_core.metrics.response import compute_response_metrics
from vital_core.results.model import EVIDENCE_UNKNOWN, NORMAL, ordered_conditions, strip_generation_prefix

shell.hand_over_to_entry()   # a fresh server's first request runs through app.py (explorer.widgets.shell)

MODES = {"demo": "Bundled demo results", "path": "A folder or file by path", "upload": "Upload a results file"}
RANGE_METRICS = [k for k, m in METRICS.items() if m.kind == "score"]
FLAG_METRICS = [k for k, m in METRICS.items() if m.kind == "flag"]
PAGE_SIZES = [25, 50, 100]
FULL_RANGE = (0.0, 1.0)


def _mode_of(source: str) -> str:
    if not source or source == paths.DEMO_SOURCE:
        return "demo"
    return "upload" if source.startswith(data_source.UPLOAD_PREFIX) else "path"


def set_source(source: str) -> None:
    st.session_state["data_source"] = source
    for key in ("explore_example", "explore_condition", "explore_page"):
        st.session_state.pop(key, None)
    not_a_path = source.startswith(data_source.UPLOAD_PREFIX) or source == paths.DEMO_SOURCE
    url_state.set_qp(dataset=None if not_a_path else source,
               example=None, condition=None)


def on_mode_change() -> None:
    if st.session_state.get("explore_mode") == "demo":
        set_source(paths.DEMO_SOURCE)


def on_load_path() -> None:
    path = (st.session_state.get("explore_path") or "").strip()
    if path:
        set_source(path)


def source_picker() -> None:
    source = data_source.current_source()
    if "explore_mode" not in st.session_state:
        st.session_state["explore_mode"] = _mode_of(source)
    if "explore_path" not in st.session_state and _mode_of(source) == "path":
        st.session_state["explore_path"] = source
    st.radio("Data", list(MODES), format_func=MODES.get, key="explore_mode", horizontal=True,
             on_change=on_mode_change)
    mode = st.session_state["explore_mode"]
    if mode == "path":
        cols = st.columns([5, 1])
        cols[0].text_input("Path to a release folder (any subtree), a folder of {normal,missing,wrong}.jsonl, "
                           "or a results file", key="explore_path",
                           placeholder=str(paths.REFERENCE / "gpt-4o"))
        cols[1].button("Load", on_click=on_load_path, type="primary", width="stretch")
        roots = ", ".join(f"`{root}`" for root in paths.data_roots())
        st.caption(f"The app reads paths under {roots} (set `{paths.DATA_ROOTS_ENV}` to change them)."
                   + (f" Reference data on this machine: `{paths.REFERENCE / 'gpt-4o'}`" if paths.REFERENCE.is_dir()
                      else ""))
    elif mode == "upload":
        upload = st.file_uploader("A results file (.jsonl): the project's results format or official records",
                                  type=["jsonl"], key="explore_upload")
        if upload is not None and data_source.take_upload(upload.name, upload.getvalue()):
            set_source(f"{data_source.UPLOAD_PREFIX}{upload.name}")


def filters_ui(frame: pd.DataFrame) -> filters.Filters:
    f = filters.Filters()
    with st.expander("Filters", expanded=True):
        cols = st.columns(4)
        for col, column in zip(cols, filters.CATEGORY_COLUMNS):
            options = filters.choices(frame, column)
            setattr(f, column, col.multiselect(column.replace("_", " ").capitalize(), options,
                                               key=f"explore_flt_{column}", placeholder="all"))
        cols = st.columns([2, 2, 1])
        ranged = cols[0].multiselect("Metric ranges", RANGE_METRICS, key="explore_flt_ranges",
                                     format_func=lambda k: METRICS[k].label, placeholder="add a metric range")
        flagged = cols[1].multiselect("Flags", FLAG_METRICS, key="explore_flt_flags",
                                      format_func=lambda k: METRICS[k].label, placeholder="add a flag")
        f.keep_undefined = cols[2].checkbox("Keep undefined", key="explore_flt_keep_undefined",
                                            help="Keep rows whose filtered metric is undefined.")
        for key in ranged:
            # the range starts in session state, not as the widget's default: the preset button sets it
            # there too, and a widget given both logs a warning with a stack trace on the server
            st.session_state.setdefault(f"explore_flt_range_{key}", FULL_RANGE)
            f.ranges[key] = st.slider(METRICS[key].label, 0.0, 1.0, step=0.05, key=f"explore_flt_range_{key}")
        for key in flagged:
            choice = st.radio(METRICS[key].label, ["flagged", "not flagged"], horizontal=True,
                              key=f"explore_flt_flag_{key}")
            f.flags[key] = choice == "flagged"
        f.text = st.text_input("Query contains", key="explore_flt_text")
        st.button("Example: FactScore ≥ 0.8 and RLP flagged", on_click=_preset_high_factscore_rlp,
                  help="Responses that look precise to FactScore yet get a vital claim wrong.")
    return f


def _preset_high_factscore_rlp() -> None:
    st.session_state["explore_flt_ranges"] = ["factscore_precision"]
    st.session_state["explore_flt_range_factscore_precision"] = (0.8, 1.0)
    st.session_state["explore_flt_flags"] = ["rlp"]
    st.session_state["explore_flt_flag_rlp"] = "flagged"


def table_config() -> dict:
    """The table's columns: ids pinned, the query cut to a medium width, each metric under its short
    label with the full one and its meaning on hover."""
    config = {"example_id": st.column_config.TextColumn(pinned=True),
              "condition": st.column_config.TextColumn(pinned=True),
              "query": st.column_config.TextColumn(width="medium")}
    for key in filters.TABLE_METRICS:
        spec = METRICS[key]
        short = spec.short_label
        help_text = f"{spec.label}: {spec.description}"
        config[short] = st.column_config.NumberColumn(short, format="%.3f", help=help_text) \
            if spec.kind == "score" else st.column_config.CheckboxColumn(short, help=help_text)
    return config


def pick_example(filtered: pd.DataFrame) -> tuple[str | None, str | None]:
    total = len(filtered)
    cols = st.columns([1, 1, 4])
    size = cols[0].selectbox("Rows per page", PAGE_SIZES, key="explore_page_size")
    pages = filters.page_count(total, size)
    page = cols[1].number_input(f"Page (of {pages})", 1, pages, key="explore_page", step=1)
    cols[2].caption(f"{total} matching rows (one per example and condition). RLP and RLR: a ticked box is "
                    "flagged, an empty box not flagged, no box undefined; hover a header for its metric.")
    rows = filters.paginate(filtered, page, size)
    event = st.dataframe(filters.table_view(rows), hide_index=True, width="stretch", on_select="rerun",
                         placeholder="undefined", selection_mode="single-row", key=f"explore_table_{page}_{size}",
                         column_config=table_config())
    selected = getattr(getattr(event, "selection", None), "rows", None) or []
    marker = (page, size, tuple(selected))
    if selected and st.session_state.get("explore_last_selection") != marker:
        st.session_state["explore_last_selection"] = marker
        row = rows.iloc[selected[0]]
        st.session_state["explore_example"] = str(row["example_id"])
        st.session_state["explore_condition"] = str(row["condition"])
    wanted = st.session_state.get("explore_example") or url_state.qp("example") or None
    ids = list(dict.fromkeys(rows["example_id"].astype(str)))
    if wanted and wanted not in ids and (filtered["example_id"] == wanted).any():
        ids = [wanted] + ids
    if not ids:
        return None, None
    if wanted not in ids:
        wanted = ids[0]
    choice = st.selectbox("Example", ids, index=ids.index(wanted), key=f"explore_pick_{page}_{size}_{wanted}",
                          help="Or click a row in the table.")
    condition = st.session_state.get("explore_condition") or url_state.qp("condition") or None
    previous = st.session_state.get("explore_example")
    if choice != previous:
        st.session_state["explore_example"] = choice
        if previous is not None:   # another example picked: its condition no longer applies
            condition = None
            st.session_state.pop("explore_condition", None)
    return choice, condition


def show_example(loaded: data_source.Loaded, example_id: str, condition: str | None) -> None:
    try:
        example = loaded.example(example_id)
    except (KeyError, InputError, OSError) as exc:
        st.warning(f"Could not open example {escape_md(example_id)}: {escape_md(exc)}")
        return
    st.subheader(f"Example {escape_md(example_id)}")
    meta = " · ".join(x for x in (example.dataset, example.subset, example.query_type or "query type unknown") if x)
    st.caption(escape_md(meta))
    st.markdown("**Query**")
    st.text(strip_generation_prefix(example.query) or example.query)
    if strip_generation_prefix(example.query) != example.query.strip():
        st.caption(f"Asked as: {escape_md(example.query)}")
    if example.documents or example.reference:
        with st.expander(f"Evidence ({len(example.documents)} document(s)"
                         f"{', reference answer' if example.reference else ''})"):
            if example.reference:
                st.markdown("**Reference answer**")
                st.text(example.reference)
            for d in example.documents[:20]:
                st.markdown(f"**{escape_md(d.title or d.id)}**")
                st.text(d.text[:3000] + ("…" if len(d.text) > 3000 else ""))
    if explain.evidence_mode(example) != EVIDENCE_UNKNOWN:   # a release does not say; our results do
        st.markdown(f"**Checked against:** {escape_md(explain.evidence_sentence(example))}")
    names = ordered_conditions(example.variants)
    normal = example.variants.get(NORMAL)
    cols = st.columns(max(1, len(names)))
    for col, name in zip(cols, names):
        v = example.variants[name]
        with col:
            marker = " ◀ selected row" if condition == name else ""
            st.markdown(f"#### {escape_md(explain.column_label(name, example))}{marker}")
            if normal is not None and name != NORMAL:
                col.html(f'<div class="vx-text">{textdiff.diff_html(normal.text, v.text)}</div>')
            else:
                col.html(f'<div class="vx-text">{formatting.escape(v.text)}</div>')
            values = compute_response_metrics(v, example.nuggets)
            st.dataframe(pd.DataFrame({"metric": [METRICS[k].label for k in HEADLINE],
                                       "value": [formatting.format_value(k, values.get(k)) for k in HEADLINE]}),
                         hide_index=True, width="stretch")
            claims.show_subclaims(v, compact=True, height=560)
    st.markdown("#### Nuggets and their support")
    claims.show_nuggets(example.nuggets, {n: example.variants[n] for n in names})
    url_state.set_qp(example=example_id, condition=condition)


def download_buttons(loaded: data_source.Loaded) -> None:
    """The whole loaded frame as ``report --export`` writes it, with why each undefined metric is undefined."""
    cols = st.columns([2, 2, 7], vertical_alignment="center")
    for col, (fmt, (word, mime)) in zip(cols, frame_download.FORMATS.items()):
        col.download_button(f"Download {word}", frame_download.file_data(loaded.dataset, fmt),
                            file_name=frame_download.file_name(loaded.label, fmt), mime=mime, key=f"explore_dl_{fmt}",
                            icon=":material/download:", on_click="ignore")
    cols[2].caption(f"All {len(loaded.frame)} responses, one row each, every metric (undefined left empty) and an "
                    "`undefined` column saying why: the same file as `report --export --conventions strict`. "
                    "Filters do not apply.")


def render() -> None:
    st.title("Explore results")
    st.markdown("Browse scored results: the bundled demo, a VitalErrors release folder, or a results file.")
    source_picker()
    source = data_source.current_source()
    try:
        loaded = data_source.load_source(source)
    except (InputError, FileNotFoundError, OSError) as exc:
        st.error(f"Could not load {escape_md(data_source.source_label(source))}: {escape_md(exc)}")
        st.info("Upload another file, or pick the bundled demo results above." if _mode_of(source) == "upload"
                else "Check the path, or pick the bundled demo results above.")
        return
    frame = loaded.frame
    problems = getattr(loaded.dataset, "problems", [])
    skipped = getattr(loaded.dataset, "skipped", 0)
    st.success(f"Loaded {escape_md(loaded.label)}: {frame['example_id'].nunique()} examples, {len(frame)} responses.")
    if skipped:
        st.warning(f"{skipped} bad record(s) were skipped.")
    warned = explain.warnings_sentence(frame)
    if warned:
        st.warning(escape_md(warned))
    for p in problems[:5]:
        st.warning(escape_md(p))
    if frame.empty:
        st.info("This source holds no records.")
        return
    download_buttons(loaded)
    chosen = filters_ui(frame)
    filtered = filters.apply_filters(frame, chosen)
    st.caption(f"Showing rows with {escape_md(filters.describe(chosen))}.")
    if filtered.empty:
        st.info("No rows match these filters. Widen a range or clear a filter.")
        return
    example_id, condition = pick_example(filtered)
    if example_id:
        st.divider()
        show_example(loaded, example_id, condition)


render()
