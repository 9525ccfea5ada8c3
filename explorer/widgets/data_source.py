"""The loaded data set shared by Explore and Sensitivity: demo, a path or an upload, each held once
per server (st.cache_resource over the core's on-disk cache, keyed by the files' size and mtime)."""
from __future__ import annotations

from pathlib import Path
import hashlib
import os
import tempfile

import pandas as pd
import streamlit as st

from explorer.paths import DEMO_INPUT
from explorer.paths import DEMO_RESULTS
from explorer.paths import DEMO_SOURCE
from explorer.widgets.url_state import qp
from vital_core.model import ExampleResult

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
    return _demo_jsonl(str(DEMO_INPUT), signature(DEMO_INPUT) if DEMO_INPUT.exists() else ())


def demo_results() -> dict[str, dict]:
    """The bundled demo results (precomputed by the offline backend) by id, as dicts."""
    return _demo_jsonl(str(DEMO_RESULTS), signature(DEMO_RESULTS) if DEMO_RESULTS.exists() else ())


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
    sig = signature(path)
    dataset = _dataset_resource(str(path), sig)
    label = "bundled demo results" if path == DEMO_RESULTS else str(path)
    return Loaded(label, dataset, (str(path), sig))


def current_source() -> str:
    """The data source shared by Explore and Sensitivity: session, then URL, then the demo."""
    if "data_source" not in st.session_state:
        st.session_state["data_source"] = qp("dataset", DEMO_SOURCE) or DEMO_SOURCE
    return st.session_state["data_source"]

