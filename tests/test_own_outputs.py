"""One rule for every file the project writes or deletes (issue 23): it writes only a file it recognises as
its own output of that kind, never through a symbolic link, never onto an input of the same run, and deletes
only files it created, recorded in its own index. Everything else is refused with one sentence naming the
file and the option that chooses another."""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.release_fixture import make_release
from tests.test_batch import CountingBackend, records_of
from vital_core.dataset import load_dataset
from vital_core.errors import InputError
from vital_core.runs import run_batch

REPO = Path(__file__).resolve().parents[1]
DEMO_RESULTS = REPO / "data" / "demo" / "demo_results.jsonl"


def cli(*args, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vital_core", *map(str, args)], cwd=REPO, capture_output=True,
                          text=True, timeout=300, env={**os.environ, **(env or {})})


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")}


# ---------------------------------------------------------------- 1: the dataset cache deletes only its own

def test_a_cache_folder_holding_a_persons_dataset_files_loses_none(tmp_path, monkeypatch):
    mydata = tmp_path / "mydata"
    mydata.mkdir()
    (mydata / "dataset-model.pkl").write_bytes(b"my model")
    (mydata / "dataset-train.jsonl").write_text('{"text": "mine"}\n')
    monkeypatch.setenv("VITAL_DATASET_CACHE_MB", "0.000001")     # over budget at once
    before = snapshot(mydata)
    for release in (make_release(tmp_path / "one"), make_release(tmp_path / "two")):
        load_dataset(release, cache_dir=mydata)
    after = snapshot(mydata)
    assert {k: after[k] for k in before} == before


def test_report_with_its_input_folder_as_cache_keeps_the_input(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(DEMO_RESULTS, data / "dataset-results.jsonl")
    before = snapshot(data)
    done = cli("report", data, "--cache-dir", data, env={"VITAL_DATASET_CACHE_MB": "0.000001"})
    assert done.returncode == 0, done.stderr
    again = cli("report", data, "--cache-dir", data, env={"VITAL_DATASET_CACHE_MB": "0.000001"})
    assert again.returncode == 0, again.stderr
    after = snapshot(data)
    assert {k: after[k] for k in before} == before


def test_a_persons_file_with_a_cache_files_name_is_neither_read_nor_replaced(tmp_path):
    release = make_release(tmp_path / "release")
    cache = tmp_path / "cache"
    load_dataset(release, cache_dir=cache)
    meta = next(cache.glob("dataset-*.json"))
    meta.write_text('{"mine": true}')             # a person's file now has that name
    again = load_dataset(release, cache_dir=cache)
    assert not again.from_cache and meta.read_text() == '{"mine": true}'
    assert any(str(meta) in p and "--cache-dir" in p for p in again.problems)


# ---------------------------------------------------------------- 2: label --out keeps reference label files

def _label_records(tmp_path: Path) -> tuple[Path, bytes]:
    """An input to label and a release-shaped label file (decomposition + order, as people's files have)."""
    rec = {"query": "who wrote hamlet", "response": "Shakespeare wrote Hamlet.",
           "decomposition": [{"sentence": "Shakespeare wrote Hamlet.",
                              "decomp": [{"id": "S1", "text": "Shakespeare wrote Hamlet.", "importance": "vital"}]}],
           "subclaim-importance-order": ["S1"]}
    src = tmp_path / "gpt.jsonl"
    src.write_text(json.dumps(rec) + "\n")
    human = json.dumps({**rec, "annotator": "person 3"}).encode() + b"\n"
    return src, human


def test_label_refuses_to_replace_a_human_label_file(tmp_path):
    src, human = _label_records(tmp_path)
    out = tmp_path / "human_normal.jsonl"
    out.write_bytes(human)
    done = cli("label", src, "--out", out, "--backend", "offline")
    assert done.returncode == 2 and f"{out} line 1" in done.stderr and "--out" in done.stderr, done.stderr
    assert out.read_bytes() == human


def test_label_replaces_its_own_output_and_refuses_links_and_its_input(tmp_path):
    src, human = _label_records(tmp_path)
    out = tmp_path / "labels.jsonl"
    assert cli("label", src, "--out", out, "--backend", "offline").returncode == 0
    again = cli("label", src, "--out", out, "--backend", "offline")
    assert again.returncode == 0, again.stderr
    target = tmp_path / "important.txt"
    target.write_bytes(b"keep me")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    done = cli("label", src, "--out", link, "--backend", "offline")
    assert done.returncode == 2 and "symbolic link" in done.stderr and target.read_bytes() == b"keep me"


# ---------------------------------------------------------------- 5: report --figures

def test_report_figures_replaces_only_its_own_figures_and_never_writes_through_a_link(tmp_path):
    figs = tmp_path / "figs"
    assert cli("report", DEMO_RESULTS, "--no-cache", "--figures", figs).returncode == 0
    ours = sorted(p.name for p in figs.iterdir())
    assert "detection.png" in ours and "figure-5-single-answer.svg" in ours
    again = cli("report", DEMO_RESULTS, "--no-cache", "--figures", figs)        # our own: replaced
    assert again.returncode == 0, again.stderr
    (figs / "detection.png").write_bytes(b"\x89PNG my chart")                   # a person's file
    done = cli("report", DEMO_RESULTS, "--no-cache", "--figures", figs)
    assert done.returncode == 2 and f"{figs / 'detection.png'}" in done.stderr and "--figures" in done.stderr
    assert (figs / "detection.png").read_bytes() == b"\x89PNG my chart"
    important = tmp_path / "important.txt"
    important.write_text("keep")
    (figs / "detection.png").unlink()
    (figs / "figure-5-single-answer.svg").unlink()
    (figs / "figure-5-single-answer.svg").symlink_to(important)
    linked = cli("report", DEMO_RESULTS, "--no-cache", "--figures", figs)
    assert linked.returncode == 2 and "symbolic link" in linked.stderr
    assert important.read_text() == "keep" and not (figs / "detection.png").exists()   # nothing written
