"""``python -m vital_core report``: JSON shape, text tables, options and bad input."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO
from tests.support.release_fixture import make_release


def run_cli(*args: str, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vital_core", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "VITAL_CACHE_DIR": str(cache)})


@pytest.fixture()
def release(tmp_path: Path) -> Path:
    return make_release(tmp_path / "release")


def test_report_json_shape_and_values(release: Path, tmp_path: Path):
    proc = run_cli("report", str(release), "--json", "--conventions", "strict", cache=tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert {"conditions", "records", "tests"} <= set(report)
    assert report["conventions"] == "strict" and report["convention_note"].startswith("Strict convention")
    keys = ["factscore_precision", "vital_precision", "weighted_precision", "decay_precision", "rlp", "n_vital",
            "n_okay", "n_less_important", "nugget_recall", "vital_recall", "weighted_recall", "rlr"]
    for cond in ("normal", "missing", "wrong"):
        assert report["conditions"][cond]["n"] == 5
        assert set(keys) <= set(report["conditions"][cond])
    assert report["conditions"]["normal"]["factscore_precision"] == pytest.approx(0.5)
    assert report["conditions"]["missing"]["vital_precision"] is None     # no vital subclaim in any missing response
    assert report["undefined"]["missing"]["vital_precision"] == 5
    assert report["conditions"]["wrong"]["rlp"] == 1.0
    assert report["conditions"]["normal"]["rlr"] == 0.0 and report["conditions"]["missing"]["rlr"] == 1.0
    assert len(report["records"]) == 15
    first = report["records"][0]
    assert {"condition", "index", "query", *keys} <= set(first)
    assert isinstance(first["rlp"], bool) and isinstance(first["n_vital"], int)
    tests = {(t["condition"], t["metric"]): t for t in report["tests"]}
    assert tests[("wrong", "rlp")]["mcnemar_b"] == 5 and tests[("wrong", "rlp")]["n_pairs"] == 5
    assert ("missing", "rlp") not in tests        # never defined for the missing variant: no pair to test
    assert set(report["by_query_type"]) == {"open-ended", "single-answer"}


def test_report_weights_change_weighted_precision(release: Path, tmp_path: Path):
    proc = run_cli("report", str(release), "--json", "--weights", "1,1,1", "--conventions", "strict",
                   cache=tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["weights"] == [1.0, 1.0, 1.0]
    assert report["conditions"]["normal"]["weighted_precision"] == pytest.approx(0.5)


def test_report_text_tables(release: Path, tmp_path: Path):
    proc = run_cli("report", str(release), cache=tmp_path / "cache")     # the paper convention by default
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for title in ("Paper convention:", "Table 3:", "Table 4:", "Table 5:", "Figure 5:",
                  "Paired tests as the authors' stat_sig.py", "Query type: open-ended", "Query type: single-answer"):
        assert title in out
    assert "VITAL precision" in out and "Nugget recall (All Strict)" in out and "normal vs wrong" in out
    proc = run_cli("report", str(release), "--conventions", "strict", cache=tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for title in ("Strict convention:", "cf. paper Table 3", "cf. paper Table 4", "cf. paper Table 5",
                  "Paired tests against the normal response"):
        assert title in out
    assert "undef" in out and "left out" in out


@pytest.mark.parametrize("args, message", [
    (["report", "/no/such/path"], "no such file or folder"),
    (["report", "{tmp}/empty"], "no results found"),
    (["report", "{release}", "--weights", "1,2"], "--weights"),
])
def test_report_usage_errors(release: Path, tmp_path: Path, args, message):
    (tmp_path / "empty").mkdir()
    args = [a.format(tmp=tmp_path, release=release) for a in args]
    proc = run_cli(*args, cache=tmp_path / "cache")
    assert proc.returncode == 2
    assert message in proc.stderr and "usage:" in proc.stderr


def test_report_bad_line_then_skip_bad(release: Path, tmp_path: Path):
    target = release / "factscore/test/normal/new-metric-out.jsonl"
    lines = target.read_text().splitlines()
    lines[0] = "{oops"
    target.write_text("\n".join(lines) + "\n")
    proc = run_cli("report", str(release), "--json", cache=tmp_path / "cache")
    assert proc.returncode == 1
    assert f"{target} line 1" in proc.stderr and "--skip-bad" in proc.stderr
    proc = run_cli("report", str(release), "--json", "--skip-bad", cache=tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["skipped"] == 1 and "line 1" in report["problems"][0]
    assert report["conditions"]["normal"]["n"] == 4
    assert "skipped 1 bad record" in proc.stderr


def test_report_figures_writes_svg_and_png(tmp_path: Path):
    import xml.etree.ElementTree as ET

    from tests.support.paper_release import make_paper_release
    release = make_paper_release(tmp_path / "release")     # enough responses per curve point
    out = tmp_path / "figures"
    proc = run_cli("report", str(release), "--figures", str(out), cache=tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in out.iterdir())
    for stem in ("figure-3-single-answer", "figure-4-open-ended", "figure-5-single-answer",
                 "figure-5-open-ended", "detection"):
        assert f"{stem}.svg" in names and f"{stem}.png" in names, names
        assert (out / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert ET.parse(out / f"{stem}.svg").getroot().tag.endswith("svg")
    assert "figures: 10 file(s)" in proc.stderr
    # a file where the folder should be is a usage error, and the file is left alone
    (tmp_path / "taken").write_text("mine")
    proc = run_cli("report", str(release), "--figures", str(tmp_path / "taken"), cache=tmp_path / "cache")
    assert proc.returncode == 2 and "is a file" in proc.stderr
    assert (tmp_path / "taken").read_text() == "mine"


def test_report_export_parquet_and_csv_never_overwrites_a_foreign_file(release: Path, tmp_path: Path):
    import pandas as pd
    for name in ("frame.parquet", "frame.csv"):
        out = tmp_path / name
        proc = run_cli("report", str(release), "--export", str(out), cache=tmp_path / "cache")
        assert proc.returncode == 0, proc.stderr
        frame = pd.read_parquet(out) if name.endswith("parquet") else pd.read_csv(out)
        assert len(frame) == 15 and {"example_id", "condition", "vital_precision", "rlp"} <= set(frame.columns)
        assert frame["vital_precision"].isna().sum() == 5      # undefined stays empty, never 0
        # our own export is replaced on the next run
        proc = run_cli("report", str(release), "--export", str(out), cache=tmp_path / "cache")
        assert proc.returncode == 0, proc.stderr
    for name in ("notes.csv", "data.parquet"):
        foreign = tmp_path / name
        foreign.write_text("someone's data\n")
        proc = run_cli("report", str(release), "--export", str(foreign), cache=tmp_path / "cache")
        assert proc.returncode == 2 and "not an export of this project" in proc.stderr
        assert foreign.read_text() == "someone's data\n"
    proc = run_cli("report", str(release), "--export", str(tmp_path / "x.xlsx"), cache=tmp_path / "cache")
    assert proc.returncode == 2 and ".parquet or .csv" in proc.stderr
