"""The Python entry points: ``evaluate`` scores records or a DataFrame and returns a DataFrame,
``load`` reads scored results (any layout the loaders accept) as a ``Dataset``.

    import vital_core
    frame = vital_core.evaluate([{"query": "Who wrote Emma?",
                                  "responses": {"normal": "Jane Austen wrote Emma in 1815."},
                                  "documents": ["Emma is a novel by Jane Austen, published in 1815."]}])
    frame[["id", "variant", "factscore_precision", "vital_precision", "undefined"]]

One row per response: its id, variant, query, ``evidence_mode`` (what its
claims were checked against), every metric of the catalog (NaN when undefined)
and ``undefined``, which says for each undefined metric why
(``"fc_f1: needs a reference answer ..."``), plus ``error`` when scoring failed.
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import pandas as pd

from vital_core.backends import Backend, get_backend
from vital_core.dataset import Dataset, dataset_from_examples, load_dataset
from vital_core.inputs import InputRecord, parse_input_record
from vital_core.metrics.catalog import METRICS
from vital_core.export import REASON_COLUMN, export_table
from vital_core.model import ExampleResult, NORMAL
from vital_core.pipeline import run_sync
from vital_core.runs import score_record

FRAME_SOURCE = Path("<DataFrame>")
RECORDS_SOURCE = Path("<records>")


def load(path: str | Path, **options: Any) -> Dataset:
    """Scored results at ``path`` as a ``Dataset`` (``.frame``: one row per response, every metric)."""
    return load_dataset(path, **options)


def _records_from_frame(frame: pd.DataFrame) -> list[dict]:
    """Rows (``query``, ``response``, optional ``id``, ``variant``, ``documents``, ``reference``) grouped by id."""
    missing = {"query", "response"} - set(frame.columns)
    if missing:
        raise ValueError(f"the DataFrame needs the column(s) {', '.join(sorted(missing))}")
    records: dict[str, dict] = {}
    for position, row in enumerate(frame.to_dict(orient="records")):
        example_id = str(row.get("id", position) if pd.notna(row.get("id", position)) else position)
        record = records.setdefault(example_id, {"id": example_id, "query": row["query"], "responses": {}})
        variant = str(row.get("variant") or NORMAL)
        if variant in record["responses"]:
            raise ValueError(f"DataFrame row {position}: id {example_id!r} has variant {variant!r} twice")
        record["responses"][variant] = row["response"]
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


def evaluate(data: Iterable[dict] | pd.DataFrame, backend: str | Backend = "offline", *,
             concurrency: int = 8, **settings: Any) -> pd.DataFrame:
    """Score every response of ``data`` and return one row per response with every metric.

    ``data``: records in the input format of ``score`` (``query``, ``responses``
    {variant: text}, optional ``id``, ``documents``, ``reference``) or a
    DataFrame with ``query`` and ``response`` columns (optional ``id``,
    ``variant``, ``documents``, ``reference``; rows sharing an id are variants
    of one example). ``backend``: a name for ``get_backend`` (``settings`` go to
    it, e.g. ``base_url``, ``model``) or a backend object. Bad input raises
    ``InputError`` / ``ValueError`` naming the record and field.
    """
    return results_frame(score_examples(data, backend, concurrency=concurrency, **settings))


def score_examples(data: Iterable[dict] | pd.DataFrame, backend: str | Backend = "offline", *,
                   concurrency: int = 8, **settings: Any) -> list[ExampleResult]:
    """``evaluate`` before its frame: the scored examples (subclaims, verdicts, reasons, nuggets), in order."""
    records = _input_records(data)
    engine = get_backend(backend, **settings) if isinstance(backend, str) else backend
    return run_sync(_score_all(engine, records, max(1, concurrency)))


def results_frame(examples: list[ExampleResult]) -> pd.DataFrame:
    """The frame ``evaluate`` returns, from scored examples: one row per response, every metric (NaN when
    undefined) and ``undefined`` (why). The harness integrations build their scores from it too."""
    # the frame and its reason column as report --export writes them (one definition)
    frame = export_table(dataset_from_examples(examples)).rename(columns={"example_id": "id", "condition": "variant"})
    frame[REASON_COLUMN] = frame[REASON_COLUMN].astype(object)
    metrics = [k for k in METRICS if k in frame.columns]
    frame[metrics] = frame[metrics].astype("Float64").astype(float)     # undefined = NaN, flags as 0/1
    keep = ["id", "variant", "query", "dataset", "subset", "query_type", "evidence_mode", "error"] + metrics \
        + [REASON_COLUMN]
    return frame[keep]
