"""``export_frame`` replaces an export written by an earlier version (before the ``undefined`` column), and
still refuses anything else."""
from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from vital_core.files.errors import InputError
from vital_core.results.export import REASON_COLUMN, SCHEMA_TAG, export_frame


def frame() -> pd.DataFrame:
    return pd.DataFrame({"example_id": ["e1", "e1"], "condition": ["normal", "wrong"],
                         "vital_precision": [1.0, None], "evidence_mode": ["documents", "documents"],
                         REASON_COLUMN: pd.array(["", "vital_precision: no vital subclaim"], dtype="string")})


@pytest.mark.parametrize("dropped", [[REASON_COLUMN], ["evidence_mode", REASON_COLUMN], ["evidence_mode"]])
def test_a_csv_written_before_later_columns_is_recognised_and_replaced(tmp_path, dropped):
    old = tmp_path / "frame.csv"
    frame().drop(columns=dropped).to_csv(old, index=False)     # an earlier version's shape
    export_frame(frame(), old)
    assert pd.read_csv(old).columns.tolist() == frame().columns.tolist()


def test_a_parquet_with_the_previous_tag_is_recognised_and_replaced(tmp_path):
    old = tmp_path / "frame.parquet"
    table = pa.Table.from_pandas(frame().drop(columns=[REASON_COLUMN]), preserve_index=False)
    pq.write_table(table.replace_schema_metadata({b"vital-explorer": b"vital-explorer-frame/1"}), old)
    export_frame(frame(), old)
    assert pq.read_schema(old).metadata[b"vital-explorer"] == SCHEMA_TAG != b"vital-explorer-frame/1"
    assert REASON_COLUMN in pd.read_parquet(old).columns


@pytest.mark.parametrize("header", ["example_id,condition", "example_id,condition,vital_precision,notes", "a,b",
                                    "condition,example_id,vital_precision"])
def test_any_other_csv_is_still_refused(tmp_path, header):
    foreign = tmp_path / "notes.csv"
    foreign.write_text(header + "\n1,2\n")
    with pytest.raises(InputError, match="not an export of this project"):
        export_frame(frame(), foreign)
    assert foreign.read_text() == header + "\n1,2\n"
