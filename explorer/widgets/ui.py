"""Streamlit widgets shared by the pages: backend, data loading, colour-coded
subclaims, metric cards, charts with PNG/CSV export and URL state.

Pages stay thin: they call ``vital_core`` for every number and this module for
drawing. All user text goes through ``html.escape`` (via ``explorer.logic.palette``)
before any HTML is rendered. With ``st.navigation`` in ``app.py`` the files
in ``pages/`` are not auto-discovered, so this module is never a page.
"""
from __future__ import annotations

import hashlib
import html
import os
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable

import pandas as pd
import streamlit as st

from explorer.logic import palette
from vital_core.backends import config as backend_settings
from vital_core.metrics.catalog import METRICS
from vital_core.model import ExampleResult, Nugget, ResponseResult
from vital_core.metrics.undefined import why_undefined

REPO = Path(__file__).resolve().parents[2]
DEMO_DIR = REPO / "data" / "demo"
DEMO_INPUT = DEMO_DIR / "demo_input.jsonl"
DEMO_RESULTS = DEMO_DIR / "demo_results.jsonl"
SHARED = REPO.parent / "shared"
REFERENCE = SHARED / "reference-data" / "vitalerrors-nq"
DEMO_SOURCE = "demo"

# Metric cards on the Score page, in this order.
CARD_METRICS = ["factscore_precision", "vital_precision", "weighted_precision", "decay_precision",
                "rlp", "nugget_recall", "vital_recall", "rlr", "fc_f1"]


# --------------------------------------------------------------------------- errors

def friendly_error(what: str, exc: BaseException) -> None:
    """A failure shown as a sentence, never a traceback."""
    st.error(f"{what}: {type(exc).__name__}: {exc}", icon=":material/error:")


# The app's pages: (file relative to app.py, title, icon, URL path).
PAGES = [
    ("pages/score.py", "Score", ":material/calculate:", "score"),
    ("pages/compare.py", "Compare variants", ":material/compare_arrows:", "compare"),
    ("pages/explore.py", "Explore results", ":material/table_view:", "explore"),
    ("pages/sensitivity.py", "Sensitivity", ":material/monitoring:", "sensitivity"),
    ("pages/agreement.py", "Agreement", ":material/handshake:", "agreement"),
]


def app_shell(*, navigation: bool = True):
    """Page config, navigation and the shared sidebar; returns the page to run (app.py runs it)."""
    st.set_page_config(page_title="VITAL Explorer", page_icon=":material/fact_check:", layout="wide")
    page = None
    if navigation:
        page = st.navigation([st.Page(path, title=title, icon=icon, url_path=url, default=(n == 0))
                              for n, (path, title, icon, url) in enumerate(PAGES)])
    st.session_state["_vx_shell_ran"] = True
    with st.sidebar:
        sidebar_backend()
        with st.expander("Colour code", expanded=True):
            legend()
    return page


def _ensure_app_shell() -> None:
    """Give a page the app's shell when Streamlit ran it without app.py.

    Streamlit decides from the mere existence of ``pages/`` to use its legacy
    multipage mode until some run has executed ``st.navigation``: on a fresh
    server a shared link such as ``/explore`` would run ``pages/explore.py``
    alone (no sidebar, no page config, helper modules listed as pages). On a
    session's first run the page switches that mode off and reruns, so app.py
    builds the shell. Later legacy runs (Streamlit's AppTest resets the mode
    before every run) draw the shell in place: a rerun or a second
    ``st.navigation`` call there would drop the click that started the run.
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a Streamlit without this internal has no legacy mode
        return
    if not PagesManager.uses_pages_directory:
        return
    PagesManager.uses_pages_directory = False
    if not st.session_state.get("_vx_shell_ran"):
        st.session_state["_vx_shell_ran"] = True
        st.rerun()
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
    ctx = get_script_run_ctx()
    if ctx is None:  # pragma: no cover - pages always run inside a script run
        app_shell(navigation=False)
        return
    # Drawn as app.py draws it (under the main script's hash), so the sidebar's
    # widgets keep the same ids, and their state, whichever way the run started.
    with ctx.run_with_active_hash(ctx.pages_manager.main_script_hash):
        app_shell(navigation=False)


def guarded(render: Callable[[], None]) -> None:
    """Run a page; an unexpected failure becomes a message (reruns and stops pass through)."""
    _ensure_app_shell()
    try:
        render()
    except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
        friendly_error("Something went wrong on this page", exc)
        if os.environ.get("VITAL_DEBUG"):  # developers opt in to the traceback
            st.exception(exc)


# --------------------------------------------------------------------------- demo prefill

def prefill_from_demo(prefix: str, example_id: str, text_keys: dict[str, str], result_key: str) -> None:
    """Fill a page's inputs (session keys ``{prefix}_query`` ...) from a demo example
    and show its precomputed result, restricted to the variants the page edits."""
    item = demo_inputs().get(example_id)
    if item is None:
        return
    state = st.session_state
    state[f"{prefix}_query"] = item["query"]
    for name, key in text_keys.items():
        state[key] = item["responses"].get(name, "")
    state[f"{prefix}_documents"] = "\n---\n".join(d["text"] for d in item.get("documents", []))
    state[f"{prefix}_reference"] = item.get("reference") or ""
    precomputed = demo_results().get(example_id)
    if precomputed is not None:
        example = ExampleResult.from_dict(precomputed)
        example.variants = {k: v for k, v in example.variants.items() if k in text_keys}
        state[result_key] = example.to_dict()
        state[f"{prefix}_origin"] = f"precomputed by the offline backend for demo example {example_id}"
    state[f"{prefix}_loaded_demo"] = example_id


def on_demo_pick(prefix: str, text_keys: dict[str, str], result_key: str) -> None:
    """``on_change`` of a page's demo picker: prefill it and put the example in the URL."""
    picked = st.session_state.get(f"{prefix}_demo_pick")
    if picked:
        prefill_from_demo(prefix, picked, text_keys, result_key)
        set_qp(example=picked)


def demo_picker(prefix: str, text_keys: dict[str, str], result_key: str) -> None:
    """First visit: prefill from the URL's example (or the first demo); then offer a picker."""
    options = list(demo_inputs())
    if f"{prefix}_loaded_demo" not in st.session_state:
        wanted = qp("example")
        prefill_from_demo(prefix, wanted if wanted in options else (options[0] if options else ""),
                          text_keys, result_key)
    with st.expander("Start from a demo example", expanded=False):
        st.selectbox("Demo example", options, index=None, key=f"{prefix}_demo_pick",
                     on_change=on_demo_pick, args=(prefix, text_keys, result_key),
                     format_func=lambda i: f"{i} — {demo_inputs()[i]['query']}",
                     placeholder="Pick one to fill the fields below")


# --------------------------------------------------------------------------- URL state

def qp(name: str, default: str = "") -> str:
    value = st.query_params.get(name)
    return default if value is None else str(value)


def set_qp(**values: str | None) -> None:
    """Write shareable state (dataset, example, condition) into the URL; None removes it."""
    for name, value in values.items():
        if value is None or value == "":
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get(name) != str(value):
            st.query_params[name] = str(value)


# --------------------------------------------------------------------------- backend

@st.cache_resource(show_spinner="Loading the offline backend…")
def _offline_backend():
    return backend_settings.build_backend(backend_settings.BackendSettings())


def current_settings() -> backend_settings.BackendSettings:
    name = st.session_state.get("backend_name", backend_settings.OFFLINE)
    if name != backend_settings.OPENAI:
        return backend_settings.BackendSettings()
    return backend_settings.BackendSettings(
        name=backend_settings.OPENAI,
        base_url=(st.session_state.get("backend_base_url") or "").strip(),
        model=(st.session_state.get("backend_model") or "").strip())


def current_api_key() -> str:
    """The typed key (session only) or OPENAI_API_KEY; never stored anywhere else."""
    return (st.session_state.get("backend_api_key") or "").strip() or backend_settings.env_api_key()


def active_backend():
    """The backend chosen in the sidebar; raises ValueError with a readable reason if unusable."""
    s = current_settings()
    if s.name == backend_settings.OFFLINE:
        return _offline_backend()
    key = current_api_key()
    problems = backend_settings.validate(s, key)
    if problems:
        raise ValueError("; ".join(problems))
    return backend_settings.build_backend(s, key)


async def close_backend(backend) -> None:
    """Release an endpoint backend's HTTP client; the shared offline backend stays loaded."""
    if backend is not _offline_backend():
        await backend.aclose()


async def scoring_run(backend, coro):
    """Await one coroutine using ``backend``, then release its client in the same event loop."""
    try:
        return await coro
    finally:
        await close_backend(backend)


@contextmanager
def scoring_status(label: str):
    """A status box and an ``on_step`` callback that writes the pipeline's steps into it."""
    script_thread = threading.get_ident()
    with st.status(label, expanded=True) as status:
        def on_step(message: str) -> None:
            if threading.get_ident() == script_thread:  # st calls only from the script thread
                status.write(message)
        yield status, on_step


def backend_caption() -> None:
    st.caption(f"Active backend: **{current_settings().label()}** (change it in the sidebar).")


def sidebar_backend() -> None:
    """Backend choice, endpoint settings and the banner naming the active backend."""
    sb = st.sidebar
    sb.subheader("Scoring backend")
    sb.radio("Backend", [backend_settings.OFFLINE, backend_settings.OPENAI], key="backend_name",
             format_func=lambda n: "Offline (no key, no network)" if n == backend_settings.OFFLINE
             else "OpenAI-compatible endpoint", label_visibility="collapsed")
    s = current_settings()
    if s.name == backend_settings.OPENAI:
        env = backend_settings.BackendSettings.from_env(backend_settings.OPENAI)
        if "backend_base_url" not in st.session_state:
            st.session_state["backend_base_url"] = env.base_url
        if "backend_model" not in st.session_state:
            st.session_state["backend_model"] = env.model
        sb.text_input("Base URL", key="backend_base_url", placeholder="https://api.openai.com/v1",
                      help="Any OpenAI-compatible server: OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp.")
        sb.text_input("Model", key="backend_model", placeholder="e.g. gpt-4o-mini")
        has_env_key = bool(backend_settings.env_api_key())
        sb.text_input("API key", key="backend_api_key", type="password",
                      placeholder="using OPENAI_API_KEY" if has_env_key else "sk-…",
                      help="Kept only in this browser session; never written to disk, logs, URLs or results.")
        problems = backend_settings.validate(current_settings(), current_api_key())
        for p in problems:
            sb.warning(p)
    s = current_settings()
    if s.name == backend_settings.OFFLINE:
        figures = backend_settings.describe_quality(backend_settings.offline_quality())
        quality = "see the README" if figures == "quality figures: see README" else figures
        sb.info(f"**Active: offline backend** — embedded, deterministic, no network. "
                f"Measured quality: {quality}.", icon=":material/computer:")
    else:
        sb.info(f"**Active: {s.label()}**", icon=":material/cloud:")


def legend(where=None) -> None:
    (where or st).html(palette.legend_html())


# --------------------------------------------------------------------------- data loading

def _signature(path: Path) -> tuple:
    """Size and mtime of a file, or of every file under a folder: invalidates the cache on change."""
    if path.is_file():
        stat = path.stat()
        return ((str(path), stat.st_size, stat.st_mtime_ns),)
    items = []
    for root, _dirs, files in os.walk(path):
        for name in files:
            if name.endswith(".jsonl") or name.endswith(".json"):
                p = Path(root) / name
                stat = p.stat()
                items.append((str(p), stat.st_size, stat.st_mtime_ns))
    return tuple(sorted(items))


@st.cache_resource(show_spinner="Loading results…", max_entries=4)
def _dataset_resource(path: str, signature: tuple):
    from vital_core.dataset import load_dataset
    return load_dataset(path)


@st.cache_resource(show_spinner="Reading the uploaded file…", max_entries=2)
def _uploaded_resource(digest: str, name: str, data: bytes):
    from vital_core.dataset import load_dataset
    folder = Path(tempfile.mkdtemp(prefix="vital-upload-"))
    target = folder / Path(name).name
    target.write_bytes(data)
    return load_dataset(str(target))


def _read_jsonl(path: Path) -> dict[str, dict]:
    import json
    out: dict[str, dict] = {}
    if not path.is_file():
        return out
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                record = json.loads(line)
                out[str(record.get("id"))] = record
    return out


@st.cache_data(show_spinner=False)
def _demo_jsonl(path: str, signature: tuple) -> dict[str, dict]:
    return _read_jsonl(Path(path))


def demo_inputs() -> dict[str, dict]:
    """The bundled demo inputs by id (query, responses, documents, reference)."""
    return _demo_jsonl(str(DEMO_INPUT), _signature(DEMO_INPUT) if DEMO_INPUT.exists() else ())


def demo_results() -> dict[str, dict]:
    """The bundled demo results (precomputed by the offline backend) by id, as dicts."""
    return _demo_jsonl(str(DEMO_RESULTS), _signature(DEMO_RESULTS) if DEMO_RESULTS.exists() else ())


def resolve_source(source: str) -> Path | None:
    """A data-source string from the URL or a text box as a path (None for uploads)."""
    if not source or source == DEMO_SOURCE:
        return DEMO_RESULTS
    if source.startswith("upload:"):
        return None
    return Path(source).expanduser()


class Loaded:
    """What a page needs of a loaded set: its frame, example lookup and a cache token."""

    def __init__(self, label: str, dataset, token: tuple):
        self.label = label
        self.dataset = dataset
        self.token = token   # (source, file signature): keys st.cache_data results over this set

    @property
    def frame(self) -> pd.DataFrame:
        return self.dataset.frame

    def example(self, example_id: str) -> ExampleResult:
        return self.dataset.example(example_id)


def dataset_for_token(token: tuple):
    """The cached Dataset behind a ``Loaded.token`` (for st.cache_data functions keyed by it)."""
    if token[0] == "upload":
        upload = st.session_state.get("uploaded_results")
        name, data = upload
        return _uploaded_resource(token[1], name, data)
    return _dataset_resource(token[0], token[1])


def load_source(source: str) -> Loaded:
    """Load the current data source (demo, a path or the uploaded file); raises on bad input."""
    if source.startswith("upload:"):
        upload = st.session_state.get("uploaded_results")
        if not upload:
            raise FileNotFoundError("the uploaded file is no longer in this session; upload it again")
        name, data = upload
        digest = hashlib.sha256(data).hexdigest()
        return Loaded(f"uploaded file {name}", _uploaded_resource(digest, name, data), ("upload", digest))
    path = resolve_source(source)
    if not path.exists():
        raise FileNotFoundError(f"no file or folder at {path}")
    sig = _signature(path)
    dataset = _dataset_resource(str(path), sig)
    label = "bundled demo results" if path == DEMO_RESULTS else str(path)
    return Loaded(label, dataset, (str(path), sig))


def current_source() -> str:
    """The data source shared by Explore and Sensitivity: session, then URL, then the demo."""
    if "data_source" not in st.session_state:
        st.session_state["data_source"] = qp("dataset", DEMO_SOURCE) or DEMO_SOURCE
    return st.session_state["data_source"]


# --------------------------------------------------------------------------- subclaims

def subclaims_html(response: ResponseResult, *, details: bool = True, compact: bool = False) -> str:
    """A response's subclaims in importance order, rows tinted by tier with verdict badges.

    Each row opens (``<details>``) to show the verdict's reason and evidence quote.
    """
    rows = []
    for s in response.ordered_subclaims():
        row = palette.subclaim_row_html(rank=s.rank, claim_id=s.id, text=s.text,
                                        importance=s.importance, verdict=s.verdict, compact=compact)
        if not details:
            rows.append(row)
            continue
        extra = []
        if s.reason:
            extra.append(f"<div><b>Reason:</b> {html.escape(s.reason)}</div>")
        if s.evidence:
            extra.append(f'<blockquote style="margin:0.2em 0 0.2em 0.5em;padding-left:0.6em;'
                         f'border-left:3px solid #999;color:#333">{html.escape(s.evidence)}</blockquote>')
        if s.sentence:
            extra.append(f'<div style="color:#555;font-size:0.85em">From the sentence: '
                         f'“{html.escape(s.sentence)}”</div>')
        if not extra:
            extra.append('<div style="color:#555">No reason or evidence recorded for this verdict.</div>')
        indent = "0.8em" if compact else "3.2em"
        rows.append(f'<details class="vx-claim"><summary style="list-style:none;cursor:pointer">{row}'
                    f'</summary><div style="margin:0.2em 0 0.6em {indent};font-size:0.9em">'
                    f'{"".join(extra)}</div></details>')
    if not rows:
        return '<div style="color:#555">No subclaims.</div>'
    return "".join(rows)


def show_subclaims(response: ResponseResult, *, details: bool = True, where=None, compact: bool = False,
                   height: int | None = None) -> None:
    """The colour-coded subclaim list; ``compact`` for narrow columns, ``height`` scrolls long lists."""
    target = where or st
    if response.error:
        target.error(f"Scoring this response failed: {response.error}")
    if not response.subclaims:
        target.info("No subclaims: the response was empty or could not be decomposed, "
                    "so every precision metric is undefined.")
        return
    for w in response.warnings:
        target.warning(w)
    box = target.container(height=height) if height is not None and len(response.subclaims) > 6 else target
    box.html(subclaims_html(response, details=details, compact=compact))
    if details:
        target.caption("Click a row for the verdict's reason and evidence quote.")


def nugget_table(nuggets: list[Nugget] | None, variants: dict[str, ResponseResult]) -> pd.DataFrame | None:
    if nuggets is None:
        return None
    rows = []
    for n in nuggets:
        row = {"nugget": n.id, "text": n.text, "importance": n.importance}
        for name, v in variants.items():
            a = (v.nugget_assignment or {}).get(n.id)
            row[name] = palette.NUGGET_SUPPORT[a].symbol + " " + palette.NUGGET_SUPPORT[a].label if a \
                else "– not assigned"
        rows.append(row)
    return pd.DataFrame(rows)


def show_nuggets(nuggets: list[Nugget] | None, variants: dict[str, ResponseResult]) -> None:
    table = nugget_table(nuggets, variants)
    if table is None:
        st.info("No nuggets: they are built from evidence documents, and this example has none. "
                "Recall metrics (nugget recall, VITAL recall, RLR) are undefined.")
        return
    if table.empty:
        st.info("The evidence yielded no nuggets, so recall metrics are undefined.")
        return

    def colour(value: str) -> str:
        for key, sw in palette.NUGGET_SUPPORT.items():
            if isinstance(value, str) and value.endswith(sw.label):
                return f"background-color: {sw.background}; color: {sw.text}"
        return ""

    def tier(value: str) -> str:
        return palette.importance_cell_style(value)

    styled = table.style.map(colour, subset=list(variants)).map(tier, subset=["importance"])
    st.dataframe(styled, hide_index=True, width="stretch")


# --------------------------------------------------------------------------- metrics

def format_value(key: str, value) -> str:
    spec = METRICS.get(key)
    if value is None:
        return "undefined"
    if spec is not None and spec.kind == "flag":
        return "flagged" if value else "not flagged"
    if spec is not None and spec.kind == "count":
        return f"{int(value)}"
    try:
        return f"{float(value):.3f}"
    except (TypeError, ValueError):
        return str(value)


def metric_cards(values: dict, response: ResponseResult, nuggets: list[Nugget] | None,
                 keys: Iterable[str] = CARD_METRICS, before: dict | None = None, columns: int = 3) -> None:
    """One card per metric; undefined ones say so and why; ``before`` adds a change arrow."""
    keys = list(keys)
    for start in range(0, len(keys), columns):
        cols = st.columns(columns)
        for col, key in zip(cols, keys[start:start + columns]):
            spec = METRICS[key]
            value = values.get(key)
            delta = None
            if before is not None and before.get(key) != value:
                old = before.get(key)
                if spec.kind == "score" and old is not None and value is not None:
                    delta = f"{value - old:+.3f}"
                else:
                    delta = f"was {format_value(key, old)}"
            help_text = spec.description
            with col:
                if value is None:
                    reason = why_undefined(key, response, nuggets)
                    st.metric(spec.label, "undefined", delta=delta, delta_color="off",
                              help=f"{spec.description}. Undefined: {reason}.", border=True)
                    st.caption(f"Undefined — {reason}.")
                else:
                    colour = "normal" if spec.higher_is_better else "inverse"
                    if spec.kind == "flag":
                        colour = "off"
                    st.metric(spec.label, format_value(key, value), delta=delta, delta_color=colour,
                              help=help_text, border=True)


def metrics_frame(values_by_name: dict[str, dict], keys: Iterable[str]) -> pd.DataFrame:
    rows = []
    for key in keys:
        row = {"metric": METRICS[key].label}
        for name, values in values_by_name.items():
            row[name] = format_value(key, values.get(key))
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- charts

def chart(fig, name: str, data: pd.DataFrame, *, key: str, caption: str | None = None) -> None:
    """A plotly chart with a PNG download in its toolbar (camera icon) and its data as CSV."""
    fig.update_layout(font=dict(size=13), margin=dict(l=10, r=10, t=50, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="right", x=1))
    config = {"displaylogo": False,
              "toImageButtonOptions": {"format": "png", "filename": name, "scale": 2},
              "modeBarButtonsToRemove": ["lasso2d", "select2d"]}
    st.plotly_chart(fig, config=config, key=f"chart-{key}", width="stretch")
    cols = st.columns([3, 1])
    if caption:
        cols[0].caption(caption + " PNG: camera icon in the chart's toolbar.")
    else:
        cols[0].caption("PNG: camera icon in the chart's toolbar.")
    cols[1].download_button("Data as CSV", data.to_csv(index=False).encode("utf-8"),
                            file_name=f"{name}.csv", mime="text/csv", key=f"csv-{key}")


def escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def read_uploaded_text(upload) -> str:
    raw = upload.getvalue()
    for encoding in ("utf-8-sig", "latin-1"):  # utf-8-sig reads plain UTF-8 too and drops a BOM
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("utf-8", errors="replace")
