"""The Python entry points: ``evaluate`` scores records or a DataFrame and returns a DataFrame,
``load`` reads scored results (any layout the loaders accept) as a ``Dataset``, ``table`` gives a
loaded set's DataFrame.

    import vital_core
    frame = vital_core.evaluate([{"query": "Who wrote Emma?",
                                  "responses": {"normal": "Jane Austen wrote Emma in 1815."},
                                  "documents": ["Emma is a novel by Jane Austen, published in 1815."]}])
    frame[["example_id", "condition", "factscore_precision", "vital_precision", "undefined"]]

One row per response: its ``example_id``, ``condition`` (the variant: normal, missing, wrong, ...),
query, ``evidence_mode`` (what its claims were checked against), every metric of the catalog (NaN
when undefined) under a convention (default ``strict``: a response none of whose subclaims was judged
has its verdict-based metrics undefined, never 0; ``paper`` keeps the authors' 0) and ``undefined``,
which says for each undefined metric why (``"fc_f1: needs a reference answer ..."``), plus ``error``
when scoring failed. The names are those of ``report --json`` records and ``report --export``.
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import pandas as pd

from vital_core.analysis.conventions import STRICT, check_conventions
from vital_core.backends import Backend, get_backend
from vital_core.metrics.catalog import METRICS
from vital_core.results.dataset import Dataset, dataset_from_examples, load_dataset
from vital_core.results.export import REASON_COLUMN, export_table
from vital_core.results.model import NORMAL, ExampleResult
from vital_core.scoring.inputs import InputRecord, parse_input_record
from vital_core.scoring.pipeline import run_sync
from vital_core.scoring.runs import score_record

FRAME_SOURCE = Path("<DataFrame>")
RECORDS_SOURCE = Path("<records>")
# A DataFrame given to ``evaluate`` names an example and its condition like the frame it returns;
# the names of earlier versions (``id``, ``variant``) are still read.
ID_NAMES, CONDITION_NAMES = ("example_id", "id"), ("condition", "variant")


def load(path: str | Path, **options: Any) -> Dataset:
    """Scored results at ``path`` as a ``Dataset`` (``.frame``: one row per response, every metric)."""
    return load_dataset(path, **options)


def _column(frame: pd.DataFrame, names: tuple[str, ...]) -> str | None:
    """The one column of ``names`` the frame has (``None`` if none); two of them is ambiguous."""
    present = [n for n in names if n in frame.columns]
    if len(present) > 1:
        raise ValueError(f"the DataFrame has both {present[0]!r} and {present[1]!r}; keep {names[0]!r}")
    return present[0] if present else None


def _records_from_frame(frame: pd.DataFrame) -> list[dict]:
    """Rows (``query``, ``response``, optional ``example_id``, ``condition``, ``documents``, ``reference``)
    grouped by example id."""
    missing = {"query", "response"} - set(frame.columns)
    if missing:
        raise ValueError(f"the DataFrame needs the column(s) {', '.join(sorted(missing))}")
    id_col, condition_col = _column(frame, ID_NAMES), _column(frame, CONDITION_NAMES)
    records: dict[str, dict] = {}
    for position, row in enumerate(frame.to_dict(orient="records")):
        given = row.get(id_col) if id_col else None
        example_id = str(given if given is not None and pd.notna(given) else position)
        record = records.setdefault(example_id, {"id": example_id, "query": row["query"], "responses": {}})
        condition = str((row.get(condition_col) if condition_col else None) or NORMAL)
        if condition in record["responses"]:
            raise ValueError(f"DataFrame row {position}: example_id {example_id!r} has condition {condition!r} twice")
        record["responses"][condition] = row["response"]
        for key in ("documents", "reference"):
            value = row.get(key)
            if isinstance(value, str) and key == "documents":
                value = [value]
            if value is not None and not (isinstance(value, float) and np.isnan(value)):
                record.setdefault(key, value)
    return list(records.values())


def _input_records(data: Iterable[dict] | pd.DataFrame) -> list[InputRecord]:
    source = FRAME_SOURCE if isinstance(data, pd.DataFrame) else RECORDS_SOURCE
    raw = _records_from_frame(data) if isinstance(data, pd.DataFrame) else list(data)
    records = [parse_input_record(obj, source, n) for n, obj in enumerate(raw, start=1)]
    seen: set[str] = set()
    for record in records:
        if record.id in seen:
            raise ValueError(f"{record.place}: id {record.id!r} appears twice")
        seen.add(record.id)
    return records


async def _score_all(backend: Backend, records: list[InputRecord], concurrency: int) -> list[ExampleResult]:
    gate = asyncio.Semaphore(concurrency)

    async def one(record: InputRecord) -> ExampleResult:
        async with gate:
            return await score_record(backend, record)

    try:
        return list(await asyncio.gather(*(one(r) for r in records)))
    finally:
        await backend.aclose()


def table(data: Dataset | str | Path, conventions: str = STRICT) -> pd.DataFrame:
    """A loaded set (a ``Dataset`` or a path ``load`` accepts) as the API's DataFrame: one row per
    response, every metric under ``conventions`` (NaN when undefined) and ``undefined`` (why)."""
    dataset = data if isinstance(data, Dataset) else load(data)
    frame = export_table(dataset, conventions)
    frame[REASON_COLUMN] = frame[REASON_COLUMN].astype(object)
    metrics = [k for k in METRICS if k in frame.columns]
    frame[metrics] = frame[metrics].astype("Float64").astype(float)     # undefined = NaN, flags as 0/1
    return frame


def evaluate(data: Iterable[dict] | pd.DataFrame, backend: str | Backend = "offline", *,
             conventions: str = STRICT, concurrency: int = 8, **settings: Any) -> pd.DataFrame:
    """Score every response of ``data`` and return one row per response with every metric.

    ``data``: records in the input format of ``score`` (``query``, ``responses``
    {condition: text}, optional ``id``, ``documents``, ``reference``) or a
    DataFrame with ``query`` and ``response`` columns (optional ``example_id``,
    ``condition``, ``documents``, ``reference``; rows sharing an example_id are the conditions
    of one example). ``backend``: a name for ``get_backend`` (``settings`` go to
    it, e.g. ``base_url``, ``model``) or a backend object. ``conventions``: ``strict``
    or ``paper`` (``conventions.per_record``). Bad input raises
    ``InputError`` / ``ValueError`` naming the record and field.
    """
    check_conventions(conventions)   # before the scoring, which may take minutes and cost money
    return results_frame(score_examples(data, backend, concurrency=concurrency, **settings), conventions)


def score_examples(data: Iterable[dict] | pd.DataFrame, backend: str | Backend = "offline", *,
                   concurrency: int = 8, **settings: Any) -> list[ExampleResult]:
    """``evaluate`` before its frame: the scored examples (subclaims, verdicts, reasons, nuggets), in order."""
    records = _input_records(data)
    engine = get_backend(backend, **settings) if isinstance(backend, str) else backend
    return run_sync(_score_all(engine, records, max(1, concurrency)))


def results_frame(examples: list[ExampleResult], conventions: str = STRICT) -> pd.DataFrame:
    """The frame ``evaluate`` returns, from scored examples: one row per response, every metric under
    ``conventions`` (NaN when undefined) and ``undefined`` (why). The harness integrations build their
    scores from it too."""
    # the frame and its reason column as report --export writes them (one definition)
    frame = table(dataset_from_examples(examples), conventions)
    metrics = [k for k in METRICS if k in frame.columns]
    keep = ["example_id", "condition", "query", "dataset", "subset", "query_type", "evidence_mode", "error"] \
        + metrics + [REASON_COLUMN]
    return frame[keep]
