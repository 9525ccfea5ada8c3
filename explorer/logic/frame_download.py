"""Explore's download of the loaded set's per-response frame: exactly what
``report --export --conventions strict`` writes (``vital_core.results.export.export_table``), as Parquet or CSV,
made only when the person clicks. Strict: a response none of whose subclaims was judged has its
verdict-based metrics empty with the reason, never 0."""
from __future__ import annotations

from typing import Callable

from explorer.logic.formatting import file_slug
from vital_core.analysis.conventions import STRICT
from vital_core.results.export import export_table, frame_bytes

# format -> (button word, MIME type)
FORMATS = {"parquet": ("Parquet", "application/vnd.apache.parquet"), "csv": ("CSV", "text/csv")}


def file_name(source_label: str, fmt: str) -> str:
    """A file name from the set's label ("the bundled demo results" -> vital-frame-the-bundled-demo-results.csv)."""
    return f"vital-frame-{file_slug(source_label)}.{fmt}"


def file_data(dataset, fmt: str) -> Callable[[], bytes]:
    """The file's bytes, computed on click (reading the reasons back can take seconds on a release)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown download format {fmt!r}; expected {' or '.join(FORMATS)}")
    return lambda: frame_bytes(export_table(dataset, STRICT), fmt)
