"""AppTest: Explore's Parquet and CSV downloads are the file ``report --export`` writes for the same set,
with the ``undefined`` column saying why a metric is undefined."""
from __future__ import annotations

import io
import os
import subprocess
import sys

import pandas as pd
import pyarrow.parquet as pq
import pytest
from streamlit.runtime.media_file_manager import MediaFileManager

from explorer import paths
from tests.support.app_helpers import REPO, assert_clean, open_page, texts
from vital_core.results.export import REASON_COLUMN, SCHEMA_TAG


@pytest.fixture
def deferred_downloads(monkeypatch) -> dict:
    """file name -> the callable Streamlit runs when the person clicks that download button."""
    seen: dict = {}
    original = MediaFileManager.add_deferred

    def record(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        seen[file_name] = (data_callable, mimetype)
        return original(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", record)
    return seen


def report_export(tmp_path, name: str) -> bytes:
    out = tmp_path / name
    env = {**os.environ, "PYTHONPATH": str(REPO), "VITAL_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "vital_core", "report", str(paths.DEMO_RESULTS), "--export", str(out),
                           "--conventions", "strict"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return out.read_bytes()


def test_explore_downloads_are_the_report_export(deferred_downloads, tmp_path):
    at = open_page("explore")
    labels = [d.label for d in at.get("download_button")]
    assert "Download Parquet" in labels and "Download CSV" in labels, labels
    assert any("the same file as `report --export --conventions strict`" in c for c in texts(at, "caption"))
    files = {name.rsplit(".", 1)[1]: (make, mime) for name, (make, mime) in deferred_downloads.items()
             if name and name.startswith("vital-frame-")}
    assert set(files) == {"parquet", "csv"}
    assert files["csv"][1] == "text/csv"

    parquet = files["parquet"][0]()
    assert (pq.read_schema(io.BytesIO(parquet)).metadata or {}).get(b"vital-explorer") == SCHEMA_TAG
    from_app = pd.read_parquet(io.BytesIO(parquet))
    from_report = pd.read_parquet(io.BytesIO(report_export(tmp_path, "frame.parquet")))
    pd.testing.assert_frame_equal(from_app, from_report)
    assert len(from_app) == 36 and REASON_COLUMN in from_app.columns

    csv = files["csv"][0]()
    assert csv == report_export(tmp_path, "frame.csv"), "byte for byte the CSV report --export writes"
    table = pd.read_csv(io.BytesIO(csv), keep_default_na=False)
    assert list(table.columns) == list(from_app.columns)
    # demo-07 has documents but no reference answer: its factual-correctness scores are empty and say why
    row = table[(table["example_id"] == "demo-07") & (table["condition"] == "normal")].iloc[0]
    assert row["fc_recall"] == "" and "fc_recall: needs a reference answer" in row[REASON_COLUMN]
    defined = table[table[REASON_COLUMN] == ""]
    assert not defined.empty and (defined["factscore_precision"] != "").all()


def test_no_download_for_a_set_that_failed_to_load(deferred_downloads, tmp_path, monkeypatch):
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(tmp_path))
    at = open_page("explore", query_params={"dataset": str(tmp_path / "missing.jsonl")})
    assert_clean(at)
    assert any("Could not load" in e for e in texts(at, "error"))
    assert not [d for d in at.get("download_button") if d.label.startswith("Download ")]
