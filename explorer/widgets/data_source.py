"""The loaded data set shared by Explore and Sensitivity: demo, a path or an upload, each held once
per server (st.cache_resource over the core's on-disk cache, keyed by the files' size and mtime)."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pandas as pd
import streamlit as st

from explorer.logic.session_files import SessionFolder, name_in_message
from explorer.logic.text_files import SAMPLE, check_text_file, is_text, not_text
from explorer.paths import DEMO_INPUT, DEMO_RESULTS, DEMO_SOURCE, allowed_path
from explorer.widgets.url_state import qp
from vital_core.files.errors import InputError
from vital_core.results.model import ExampleResult

UPLOAD_PREFIX = "upload:"

def signature(path: Path) -> tuple:
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
    from vital_core.results.dataset import load_dataset
    for name, _size, _mtime in signature:     # a binary file in a folder is named, not fed to the parser
        check_text_file(Path(name))
    return load_dataset(path)




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
    return _demo_jsonl(str(DEMO_INPUT), signature(DEMO_INPUT) if DEMO_INPUT.exists() else ())


def demo_results() -> dict[str, dict]:
    """The bundled demo results (precomputed by the offline backend) by id, as dicts."""
    return _demo_jsonl(str(DEMO_RESULTS), signature(DEMO_RESULTS) if DEMO_RESULTS.exists() else ())


def resolve_source(source: str) -> Path | None:
    """A data-source string from the URL or a text box as a path (None for uploads); a path outside
    the data roots raises ``paths.OutsideDataRoots`` (a PermissionError) naming them."""
    if not source or source == DEMO_SOURCE:
        return DEMO_RESULTS
    if source.startswith(UPLOAD_PREFIX):
        return None
    return allowed_path(source)


def existing_path(source: str) -> Path:
    """The file or folder a path source names, inside the data roots, and not a binary file."""
    path = resolve_source(source)
    if path is None or not path.exists():
        raise FileNotFoundError(f"no file or folder at {source}")
    check_text_file(path, source)
    return path


def source_label(source: str) -> str:
    """How a message names a data source."""
    if not source or source == DEMO_SOURCE:
        return "the bundled demo results"
    if source.startswith(UPLOAD_PREFIX):
        return f"the uploaded file {source[len(UPLOAD_PREFIX):]}"
    return source


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
        return load_upload().dataset
    return _dataset_resource(token[0], token[1])


def take_upload(name: str, data: bytes) -> bool:
    """Keep an uploaded results file in this session; True when it differs from the one kept."""
    kept = st.session_state.get("uploaded_results")
    if kept is not None and kept[1] == data:
        return False
    st.session_state["uploaded_results"] = (name, data)
    return True


def load_upload() -> Loaded:
    """The session's uploaded results file, loaded once from the session's temporary folder."""
    upload = st.session_state.get("uploaded_results")
    if not upload:
        raise FileNotFoundError("the uploaded file is no longer in this session; upload it again")
    name, data = upload
    digest = hashlib.sha256(data).hexdigest()
    held = st.session_state.get("data_upload")
    if held is not None and held.token[1] == digest:
        return held
    st.session_state.pop("data_upload", None)
    if not is_text(data[:SAMPLE]):
        raise InputError(f"{not_text(name)}: upload a results file in JSON Lines", name)
    folder = st.session_state.setdefault("upload_folder", SessionFolder())
    target = folder.place(name, data)
    try:
        from vital_core.results.dataset import load_dataset
        with st.spinner("Reading the uploaded file…"):
            dataset = load_dataset(target, use_cache=False)   # session data stays out of the shared cache
    except (InputError, OSError) as exc:
        raise InputError(name_in_message(str(exc), target, name), name) from None
    loaded = Loaded(f"uploaded file {name}", dataset, ("upload", digest))
    st.session_state["data_upload"] = loaded
    return loaded


def load_source(source: str) -> Loaded:
    """Load the current data source (demo, a path or the uploaded file); raises on bad input."""
    if source.startswith(UPLOAD_PREFIX):
        return load_upload()
    path = existing_path(source)
    sig = signature(path)
    dataset = _dataset_resource(str(path), sig)
    label = "bundled demo results" if path == DEMO_RESULTS else str(path)
    return Loaded(label, dataset, (str(path), sig))


def current_source() -> str:
    """The data source shared by Explore and Sensitivity: session, then URL, then the demo."""
    if "data_source" not in st.session_state:
        st.session_state["data_source"] = qp("dataset", DEMO_SOURCE) or DEMO_SOURCE
    return st.session_state["data_source"]

