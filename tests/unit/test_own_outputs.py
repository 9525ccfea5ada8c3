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

from tests.support.paths import REPO
from tests.support.release_fixture import make_release
from tests.unit.test_batch import CountingBackend, records_of
from vital_core.files.errors import InputError
from vital_core.results.dataset import load_dataset
from vital_core.scoring.runs import run_batch

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


# ---------------------------------------------------------------- 6 and 9: summaries, results in the input folder

def test_score_refuses_a_summary_path_that_is_its_input_or_a_persons_file(tmp_path):
    src = tmp_path / "o.jsonl.summary.json"
    shutil.copy(REPO / "data" / "demo" / "demo_input.jsonl", src)
    before = src.read_bytes()
    done = cli("score", src, "--out", tmp_path / "o.jsonl", "--backend", "offline", "--no-progress")
    assert done.returncode == 2 and str(src) in done.stderr and "--out" in done.stderr, done.stderr
    assert src.read_bytes() == before and not (tmp_path / "o.jsonl").exists()
    mine = tmp_path / "r.jsonl.summary.json"
    mine.write_text('{"my": "notes"}')
    with pytest.raises(InputError, match=r"r\.jsonl\.summary\.json: exists and is not a run summary.*--out"):
        asyncio.run(run_batch(CountingBackend(), records_of(tmp_path, 2), tmp_path / "r.jsonl", progress=False))
    assert mine.read_text() == '{"my": "notes"}' and not (tmp_path / "r.jsonl").exists()


def test_perturb_refuses_a_persons_file_where_its_summary_goes(tmp_path):
    mine = tmp_path / "v.jsonl.summary.json"
    mine.write_text("my notes\n")
    done = cli("perturb", REPO / "data" / "demo" / "demo_input.jsonl", "--out", tmp_path / "v.jsonl",
               "--backend", "offline", "--no-progress")
    assert done.returncode == 2 and str(mine) in done.stderr, done.stderr
    assert mine.read_text() == "my notes\n"


def test_a_summary_is_tagged_and_replaced_on_the_next_run(tmp_path):
    out = tmp_path / "r.jsonl"
    asyncio.run(run_batch(CountingBackend(), records_of(tmp_path, 2), out, progress=False))
    summary = json.loads((tmp_path / "r.jsonl.summary.json").read_text())
    assert summary["format"] == "vital-explorer-run-summary/1"
    asyncio.run(run_batch(CountingBackend(), records_of(tmp_path, 3), out, progress=False))
    assert json.loads((tmp_path / "r.jsonl.summary.json").read_text())["records_total"] == 3


def _flat_set(tmp_path: Path) -> Path:
    """A folder of records in the release's per-condition shape (as the reference data holds them)."""
    folder = tmp_path / "set"
    release = make_release(tmp_path / "release")
    cond = next(release.glob("*/*/normal")).parent
    folder.mkdir()
    for name in ("normal", "missing", "wrong"):
        rows = [json.loads(line) for line in (cond / name / "data.jsonl").read_text().splitlines()]
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:2]))
    return folder


def test_score_refuses_to_write_into_its_input_folder(tmp_path):
    folder = _flat_set(tmp_path)
    before = snapshot(folder)
    done = cli("score", folder, "--out", folder / "results.jsonl", "--backend", "offline", "--no-progress")
    assert done.returncode == 2 and "lies in the input of this run" in done.stderr and "--out" in done.stderr
    assert snapshot(folder) == before


def test_a_folder_mixing_records_and_their_results_is_one_sentence(tmp_path):
    folder = _flat_set(tmp_path)
    out = tmp_path / "results.jsonl"
    assert cli("score", folder, "--out", out, "--backend", "offline", "--no-progress").returncode == 0
    shutil.copy(out, folder / "results.jsonl")      # put there by hand
    done = cli("report", folder, "--no-cache")
    assert done.returncode == 1 and "unexpected" not in done.stderr and "Traceback" not in done.stderr
    assert "mixes two labellings" in done.stderr and f"{folder / 'results.jsonl'} line 1" in done.stderr
    from vital_core.results.dataset import MixedLabellingsError
    with pytest.raises(MixedLabellingsError, match="load the results file or the records' folder alone"):
        load_dataset(folder, use_cache=False)       # the app's loader: the same sentence


# ---------------------------------------------------------------- lesser: --batch-export equal to --out

def test_batch_export_onto_the_runs_out_is_refused(tmp_path):
    from tests.support.mock_provider import MockProvider
    from tests.support.mock_samples import sample_answers
    from tests.unit.test_score_cli import run_cli, score_cmd, write_input
    inp = write_input(tmp_path / "in.jsonl", 1)
    out = tmp_path / "r.jsonl"
    with MockProvider(answers=sample_answers()) as mock:
        p = run_cli(score_cmd(inp, out, mock, tmp_path / "cache", "--batch-export", str(out)))
        assert p.returncode == 2 and "this run's --out" in p.stderr and "--batch-export" in p.stderr, p.stderr
        assert not out.exists()
        p = run_cli(score_cmd(inp, out, mock, tmp_path / "cache", "--batch-export", str(inp)))
        assert p.returncode == 2 and "the input of this run" in p.stderr, p.stderr


# ---------------------------------------------------------------- lesser: permissions kept on rewrite; links

def test_a_rewrite_keeps_the_files_permissions_and_a_new_file_gets_the_usual_ones(tmp_path):
    from vital_core.files.atomic import atomic_replace
    kept = tmp_path / "kept.json"
    kept.write_text("{}")
    kept.chmod(0o644)
    with atomic_replace(kept) as fh:
        fh.write("{}")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o644
    kept.chmod(0o640)
    with atomic_replace(kept) as fh:
        fh.write("{}")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
    mask = os.umask(0o022)
    os.umask(mask)
    with atomic_replace(tmp_path / "new.json") as fh:
        fh.write("{}")
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o666 & ~mask


def test_results_summary_and_export_are_never_written_through_a_link(tmp_path):
    target = tmp_path / "important.txt"
    target.write_text("keep")
    link = tmp_path / "r.jsonl"
    link.symlink_to(target)
    with pytest.raises(InputError, match="symbolic link.*--out"):
        asyncio.run(run_batch(CountingBackend(), records_of(tmp_path, 1), link, progress=False))
    (tmp_path / "s.jsonl.summary.json").symlink_to(target)
    with pytest.raises(InputError, match="symbolic link.*--out"):
        asyncio.run(run_batch(CountingBackend(), records_of(tmp_path, 1), tmp_path / "s.jsonl", progress=False))
    export = tmp_path / "frame.csv"
    export.symlink_to(target)
    done = cli("report", DEMO_RESULTS, "--no-cache", "--export", export)
    assert done.returncode == 2 and "symbolic link" in done.stderr and "--export" in done.stderr
    assert target.read_text() == "keep"


# ---------------------------------------------------------------- lesser: an unusable reply cache, once

def test_an_unwritable_reply_cache_is_one_usage_error_before_any_record(tmp_path):
    from tests.support.mock_provider import MockProvider
    from tests.support.mock_samples import sample_answers
    from tests.unit.test_score_cli import run_cli, score_cmd, write_input
    inp = write_input(tmp_path / "in.jsonl", 2)
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "o.jsonl"
    with MockProvider(answers=sample_answers()) as mock:
        p = run_cli(score_cmd(inp, out, mock, tmp_path / "afile" / "sub"))
        assert p.returncode == 2 and mock.count() == 0, p.stderr
    assert p.stderr.count("cannot be written") == 1 and "--cache-dir" in p.stderr and "--no-cache" in p.stderr
    assert not out.exists()


def test_the_apps_explore_page_says_the_folder_mixes_two_labellings(tmp_path, monkeypatch):
    from tests.support.app_helpers import open_page, texts
    folder = _flat_set(tmp_path)
    out = tmp_path / "results.jsonl"
    assert cli("score", folder, "--out", out, "--backend", "offline", "--no-progress").returncode == 0
    shutil.copy(out, folder / "results.jsonl")
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(tmp_path))
    monkeypatch.setenv("VITAL_CACHE_DIR", str(tmp_path / "cache"))
    at = open_page("explore", query_params={"dataset": str(folder)})
    errors = " ".join(texts(at, "error"))
    assert "mixes two labellings" in errors and "results.jsonl line 1" in errors and "unexpected" not in errors
