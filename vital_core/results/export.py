"""The per-response frame of a loaded set, with why each undefined metric is undefined, as a Parquet or
CSV file (``report --export``, Explore's download).

An existing file is replaced only when it is recognised as this project's own export (a Parquet
file carrying our schema tag, or a CSV whose header is our columns); anything else is refused, so
a typo in the file name never overwrites a person's data.
"""
from __future__ import annotations

import io
from pathlib import Path

import pandas as pd

from vital_core.analysis.conventions import per_record
from vital_core.files.errors import InputError
from vital_core.files.outputs import OutputKind, replace_output
from vital_core.metrics.catalog import METRICS
from vital_core.metrics.undefined import undefined_reasons

FORMATS = {".parquet": "parquet", ".csv": "csv"}
REASON_COLUMN = "undefined"                # why each undefined metric of the row is undefined ("" if none)
SCHEMA_TAG = b"vital-explorer-frame/2"     # Parquet key-value metadata: {b"vital-explorer": SCHEMA_TAG}
# Exports of earlier versions are ours too: /1 had no ``undefined`` column.
OWN_TAGS = (b"vital-explorer-frame/1", SCHEMA_TAG)
# Columns added after the first export: an earlier CSV's header is ours without any of them.
LATER_COLUMNS = ("evidence_mode", "warnings", "scored_with", REASON_COLUMN)


def export_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InputError(f"{path}: export to a .parquet or .csv file (the name decides the format)", path)
    return fmt


def export_table(dataset, conventions: str, keys: list[str] | None = None) -> pd.DataFrame:
    """The exported frame: every column of ``dataset.frame`` with its metrics under ``conventions``
    (``conventions.per_record``: under strict a never-judged response's verdict-based metrics are empty),
    then ``undefined`` ("key: reason; ...").

    The one definition of what ``report --export`` writes, Explore downloads, ``report --json`` records
    and ``evaluate()`` returns. A reason needs the full record, so only rows with an undefined metric are
    read back, one example at a time. ``keys``: the metrics to explain (default: every one in the frame).
    """
    frame = per_record(dataset.frame, conventions)
    metrics = [k for k in (METRICS if keys is None else keys) if k in frame.columns]
    missing = frame[metrics].isna().to_numpy()
    reasons = [""] * len(frame)
    current: tuple = (None, None)
    for row, (example_id, condition) in enumerate(zip(frame["example_id"], frame["condition"])):
        if not missing[row].any():
            continue
        if current[0] != example_id:      # rows of one example are adjacent: read each once
            try:
                current = (example_id, dataset.example(example_id))
            except (KeyError, InputError, OSError) as exc:
                current = (example_id, f"the record could not be read to say why ({exc})")
        example = current[1]
        keys = [k for k, gone in zip(metrics, missing[row]) if gone]
        reasons[row] = example if isinstance(example, str) else \
            undefined_reasons(keys, example.variants.get(condition), example.nuggets)
    out = frame.copy()
    out[REASON_COLUMN] = pd.array(reasons, dtype="string")
    return out


def frame_bytes(frame: pd.DataFrame, fmt: str) -> bytes:
    """The frame as Parquet (tagged as ours) or CSV bytes; undefined values stay empty, never 0."""
    if fmt == "csv":
        return frame.to_csv(index=False).encode("utf-8")
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), b"vital-explorer": SCHEMA_TAG})
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def is_own_export(path: Path, frame: pd.DataFrame) -> bool:
    """Whether ``path`` holds an export written by this project (so replacing it loses nothing)."""
    try:
        if export_format(path) == "csv":
            with path.open(encoding="utf-8") as handle:
                header = handle.readline().rstrip("\r\n")
            given = header.split(",")
            return [c for c in frame.columns if c in given or c not in LATER_COLUMNS] == given
        import pyarrow.parquet as pq
        return (pq.read_schema(path).metadata or {}).get(b"vital-explorer") in OWN_TAGS
    except Exception:   # unreadable or not Parquet (pyarrow raises its own errors): not ours
        return False


def export_frame(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write ``frame`` to ``path`` (format by suffix), all at once; refuses to replace a foreign file."""
    path = Path(path)
    fmt = export_format(path)
    if path.is_dir():
        raise InputError(f"{path}: is a folder; give a file name such as results.{fmt}", path)
    kind = OutputKind("an export", "--export file", lambda existing: is_own_export(existing, frame))
    data = frame_bytes(frame, fmt)
    with replace_output(path, kind, "wb") as handle:
        handle.write(data)
    return path
