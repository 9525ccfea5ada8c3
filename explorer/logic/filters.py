"""Filtering and pagination over the per-record frame (one row per example and condition).

The Explore page builds a ``Filters`` from its widgets and shows one page of
``apply_filters``' result. Range filters leave out rows whose metric is
undefined unless asked to keep them, and ``describe`` says so in words.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from vital_core.metrics.catalog import HEADLINE, METRICS
from vital_core.results.model import strip_generation_prefix

CATEGORY_COLUMNS = ("dataset", "subset", "query_type", "condition")
# Explore's table: the ids, the query, then the metrics a reader compares first (precision, the vital
# error flag, recall and the vital nugget flag), so that they fit on a 1440-pixel screen; the other
# headline metrics and the metadata follow.
TABLE_FIRST = ["factscore_precision", "vital_precision", "rlp", "nugget_recall", "vital_recall", "rlr"]
TABLE_METRICS = TABLE_FIRST + [k for k in HEADLINE if k not in TABLE_FIRST]
QUERY_CHARS = 120


def table_view(rows: pd.DataFrame) -> pd.DataFrame:
    """One page of rows: ids, the query (without the generation prefix), the metrics by short label
    in ``TABLE_METRICS`` order, then the metadata."""
    view = rows[["example_id", "condition"]].copy()
    view["query"] = [strip_generation_prefix(str(q))[:QUERY_CHARS] for q in rows["query"]]
    for key in TABLE_METRICS:
        if key in rows:
            view[METRICS[key].short_label] = rows[key]
    for column in ("dataset", "subset", "query_type"):
        view[column] = rows[column]
    return view


@dataclass
class Filters:
    dataset: list[str] = field(default_factory=list)      # empty = all
    subset: list[str] = field(default_factory=list)
    query_type: list[str] = field(default_factory=list)
    condition: list[str] = field(default_factory=list)
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)   # score metrics
    flags: dict[str, bool] = field(default_factory=dict)                   # flag metrics
    keep_undefined: bool = False
    text: str = ""                                                          # substring of the query


def choices(frame: pd.DataFrame, column: str) -> list[str]:
    """Distinct non-empty values of a category column, sorted (unknown shown as '(unknown)')."""
    if column not in frame.columns or frame.empty:
        return []
    values = frame[column].fillna("(unknown)").astype(str).replace("", "(unknown)")
    return sorted(values.unique().tolist())


def _category_mask(frame: pd.DataFrame, column: str, wanted: list[str]) -> pd.Series:
    values = frame[column].fillna("(unknown)").astype(str).replace("", "(unknown)")
    return values.isin(wanted)


def apply_filters(frame: pd.DataFrame, filters: Filters) -> pd.DataFrame:
    mask = pd.Series(True, index=frame.index)
    for column in CATEGORY_COLUMNS:
        wanted = getattr(filters, column)
        if wanted and column in frame.columns:
            mask &= _category_mask(frame, column, wanted)
    for key, (lo, hi) in filters.ranges.items():
        if key not in frame.columns:
            continue
        values = pd.to_numeric(frame[key], errors="coerce")
        inside = values.between(lo, hi)
        mask &= inside | (values.isna() if filters.keep_undefined else False)
    for key, wanted in filters.flags.items():
        if key not in frame.columns:
            continue
        values = frame[key].astype("boolean")   # nullable: undefined stays NA
        hit = (values == wanted).fillna(False).astype(bool)
        mask &= hit | (values.isna() if filters.keep_undefined else False)
    if filters.text.strip() and "query" in frame.columns:
        mask &= frame["query"].astype(str).str.contains(filters.text.strip(), case=False, regex=False)
    return frame[mask]


def page_count(n_rows: int, page_size: int) -> int:
    return max(1, math.ceil(n_rows / max(1, page_size)))


def paginate(frame: pd.DataFrame, page: int, page_size: int) -> pd.DataFrame:
    """Rows of 1-based ``page`` (clamped into range)."""
    page = min(max(1, int(page)), page_count(len(frame), page_size))
    start = (page - 1) * page_size
    return frame.iloc[start:start + page_size]


def describe(filters: Filters) -> str:
    """The active filters in words, e.g. 'FactScore precision 0.80-1.00 and RLP flagged'."""
    parts = []
    for column in CATEGORY_COLUMNS:
        wanted = getattr(filters, column)
        if wanted:
            parts.append(f"{column.replace('_', ' ')} in {', '.join(wanted)}")
    for key, (lo, hi) in filters.ranges.items():
        label = METRICS[key].label if key in METRICS else key
        parts.append(f"{label} {lo:.2f}-{hi:.2f}")
    for key, wanted in filters.flags.items():
        parts.append(f"{METRICS[key].short_label} {'flagged' if wanted else 'not flagged'}")
    if filters.text.strip():
        parts.append(f"query contains {filters.text.strip()!r}")
    if not parts:
        return "no filters"
    return " and ".join(parts) + ("" if not (filters.ranges or filters.flags) else
                                  (" (undefined values kept)" if filters.keep_undefined
                                   else " (undefined values left out)"))

