"""Loaders and the dataset frame: layouts, record matching, bad input, cache."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.release_fixture import make_release, write_jsonl
from vital_core.files.errors import InputError
from vital_core.loaders.discover import NoDataError
from vital_core.loaders.load import load_examples
from vital_core.metrics.formulas import TierWeights
from vital_core.metrics.response import compute_response_metrics
from vital_core.results.dataset import dataset_from_examples, load_dataset
from vital_core.results.model import (
    NOT_ENOUGH_EVIDENCE,
    NOT_JUDGED,
    OPEN_ENDED,
    SINGLE_ANSWER,
    SUPPORTED,
    ExampleResult,
    ResponseResult,
    Subclaim,
)


@pytest.fixture()
def release(tmp_path: Path) -> Path:
    return make_release(tmp_path / "release")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _by_id(examples):
    return {e.id: e for e in examples}


# --------------------------------------------------------------------------- layouts

def test_release_root_loads_every_example_with_its_parts(release: Path):
    result = load_examples(release)
    assert result.skipped == 0 and result.kind == "release"
    examples = _by_id(result.examples)
    assert len(examples) == 5
    nq = examples["naturalquestions/test/0"]
    assert (nq.dataset, nq.subset, nq.query_type) == ("naturalquestions", "test", SINGLE_ANSWER)
    assert examples["factscore/test/1"].query_type == OPEN_ENDED
    assert list(nq.variants) == ["normal", "missing", "wrong"]
    normal = nq.variants["normal"]
    assert [s.id for s in normal.subclaims] == ["S1", "S2", "S3", "S4"]
    assert [s.verdict for s in normal.subclaims] == [SUPPORTED, SUPPORTED, NOT_JUDGED, NOT_ENOUGH_EVIDENCE]
    assert normal.order == ["S1", "S2", "S3", "S4"] and normal.subclaims[0].rank == 1
    assert [n.importance for n in nq.nuggets] == ["vital", "okay", "okay"]
    assert normal.nugget_assignment == {"N0": "support", "N1": "support", "N2": "partial_support"}
    # documents and the gold answer come from original.jsonl (matched without the prompt prefix)
    assert [d.id for d in nq.documents] == ["orig0"] and nq.reference == "Gold answer 0."
    assert normal.response_id == "0" and normal.text == "Answer 0 (normal)."


@pytest.mark.parametrize("sub, expected", [
    ("naturalquestions", 3), ("naturalquestions/test", 3), ("naturalquestions/test/wrong", 3),
    ("naturalquestions/test/wrong/new-metric-out.jsonl", 3), ("naturalquestions/test/normal/nuggets-out.jsonl", 3),
])
def test_any_subtree_of_the_release_loads(release: Path, sub: str, expected: int):
    result = load_examples(release / sub)
    assert len(result.examples) == expected
    assert all(e.dataset == "naturalquestions" and e.query_type == SINGLE_ANSWER for e in result.examples)


def test_single_condition_folder_and_single_file_keep_their_condition(release: Path):
    examples = load_examples(release / "naturalquestions/test/missing").examples
    assert all(list(e.variants) == ["missing"] for e in examples)
    one_file = load_examples(release / "naturalquestions/test/wrong/nuggets-out.jsonl").examples
    assert list(one_file[0].variants) == ["wrong"]
    assert one_file[0].variants["wrong"].subclaims == []   # nuggets-out has no decomposition
    assert one_file[0].variants["wrong"].nugget_assignment["N0"] == "partial_support"


def test_flat_condition_files_folder(tmp_path: Path):
    from tests.support.release_fixture import condition_records
    folder = tmp_path / "vitalerrors-nq" / "mine"
    for cond in ("normal", "missing", "wrong"):
        write_jsonl(folder / f"{cond}.jsonl", [condition_records("nq", q, cond)["new-metric-out"] for q in range(4)])
    examples = load_examples(folder).examples
    assert [e.id for e in examples] == [f"mine/{i}" for i in range(4)]
    # the dataset is guessed from the folder names ("vitalerrors-nq")
    assert examples[0].dataset == "naturalquestions" and examples[0].query_type == SINGLE_ANSWER
    assert set(examples[0].variants) == {"normal", "missing", "wrong"}


def test_own_results_format_round_trips(tmp_path: Path):
    example = ExampleResult(id="ex1", query="q?", variants={"normal": ResponseResult(
        variant="normal", text="t", subclaims=[Subclaim(id="S1", text="c", importance="vital", verdict=SUPPORTED)],
        order=["S1"])})
    path = write_jsonl(tmp_path / "results.jsonl", [example.to_dict()])
    loaded = load_examples(path)
    assert loaded.kind == "results" and loaded.examples == [example]
    ds = load_dataset(path, cache_dir=tmp_path / "cache")
    assert ds.example("ex1") == example
    assert ds.frame.loc[0, "vital_precision"] == 1.0


def test_bad_path_and_empty_folder(tmp_path: Path, release: Path):
    with pytest.raises(NoDataError, match="no such file"):
        load_examples(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(NoDataError, match="no results found"):
        load_examples(tmp_path / "empty")
    with pytest.raises(NoDataError, match="no responses"):
        load_examples(release / "naturalquestions/test/original.jsonl")


# --------------------------------------------------------------------------- bad input

def test_malformed_line_names_file_and_line_and_skip_bad_counts(release: Path, tmp_path: Path):
    target = release / "naturalquestions/test/missing/new-metric-out.jsonl"
    lines = _lines(target)
    lines[1] = lines[1][:40]          # truncated record on line 2
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_examples(release)
    assert f"{target} line 2" in str(info.value) and "malformed JSON" in str(info.value)
    assert info.value.line == 2
    with pytest.raises(InputError, match="line 2"):
        load_dataset(release, use_cache=False)
    result = load_examples(release, skip_bad=True)
    assert result.skipped == 1 and "line 2" in result.problems[0]
    example = _by_id(result.examples)["naturalquestions/test/1"]
    assert "missing" not in example.variants and "normal" in example.variants   # nothing else lost
    ds = load_dataset(release, cache_dir=tmp_path / "c", skip_bad=True)
    assert ds.skipped == 1 and len(ds.frame) == 5 * 3 - 1


def test_malformed_line_in_a_file_only_checked_for_queries(release: Path):
    target = release / "naturalquestions/test/normal/factscore-out.jsonl"
    lines = _lines(target)
    lines[2] = "{not json"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=f"{target} line 3"):
        load_dataset(release, use_cache=False)


def test_files_of_different_lengths_name_both_files(release: Path):
    target = release / "factscore/test/wrong/nuggets-out.jsonl"
    target.write_text("\n".join(_lines(target)[:1]) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_examples(release)
    message = str(info.value)
    assert str(target) in message and str(target.parent / "new-metric-out.jsonl") in message
    assert "line 2" in message


def test_disagreeing_queries_name_both_files_and_first_mismatching_line(release: Path):
    target = release / "naturalquestions/test/normal/data.jsonl"
    records = [json.loads(x) for x in _lines(target)]
    records[2]["query"] = "a different question"
    write_jsonl(target, records)
    for load in (load_examples, lambda p: load_dataset(p, use_cache=False)):
        with pytest.raises(InputError) as info:
            load(release)
        message = str(info.value)
        assert f"{target} line 3" in message
        assert f"{target.parent / 'new-metric-out.jsonl'} line 3" in message


def test_variants_with_different_queries_at_one_position_are_an_error(release: Path):
    for name in ("new-metric-out", "data", "factscore-out", "nuggets-out"):
        target = release / f"naturalquestions/test/wrong/{name}.jsonl"
        records = [json.loads(x) for x in _lines(target)]
        records[0]["query"] = "swapped"
        write_jsonl(target, records)
    with pytest.raises(InputError, match="must hold the same queries"):
        load_examples(release)


def _edit_record(path: Path, index: int, edit) -> None:
    records = [json.loads(x) for x in _lines(path)]
    edit(records[index])
    write_jsonl(path, records)


def test_unknown_subclaim_importance_is_listed(release: Path):
    target = release / "naturalquestions/test/normal/new-metric-out.jsonl"
    _edit_record(target, 1, lambda r: r["decomposition"][0]["decomp"][1].update(importance="crucial"))
    with pytest.raises(InputError, match=r"unknown importance label 'crucial' in .*new-metric-out.jsonl line 2"):
        load_examples(release)
    with pytest.raises(InputError, match="crucial"):
        load_dataset(release, use_cache=False)
    assert load_examples(release, skip_bad=True).skipped == 1


def test_unknown_nugget_importance_and_assignment_are_listed(release: Path):
    target = release / "factscore/test/normal/nuggets-out.jsonl"
    _edit_record(target, 0, lambda r: r["nuggets"][1].update(importance="failed"))
    with pytest.raises(InputError, match=r"unknown nugget importance 'failed' in .*nuggets-out.jsonl line 1"):
        load_examples(release)
    _edit_record(target, 0, lambda r: r["nuggets"][1].update(importance="okay"))
    _edit_record(target, 1, lambda r: r["response"]["nugget-assignment"].__setitem__(0, "maybe"))
    with pytest.raises(InputError, match=r"unknown nugget assignment 'maybe'.*line 2"):
        load_dataset(release, use_cache=False)


def test_empty_or_missing_decomposition_gives_undefined_metrics(release: Path):
    target = release / "naturalquestions/test/normal/new-metric-out.jsonl"
    _edit_record(target, 0, lambda r: r.update(decomposition=[], **{"subclaim-importance-order": []}))
    _edit_record(target, 1, lambda r: r.pop("decomposition"))
    fs = release / "naturalquestions/test/normal/factscore-out.jsonl"
    _edit_record(fs, 1, lambda r: r.pop("decomposition"))
    examples = _by_id(load_examples(release).examples)
    for i in (0, 1):
        response = examples[f"naturalquestions/test/{i}"].variants["normal"]
        assert response.subclaims == []
        m = compute_response_metrics(response, examples[f"naturalquestions/test/{i}"].nuggets)
        assert m["factscore_precision"] is None and m["vital_precision"] is None and m["rlp"] is None
        assert m["weighted_precision"] is None and m["decay_precision"] is None and m["n_subclaims"] == 0
        assert m["nugget_recall"] is not None   # the nuggets are still there
    frame = load_dataset(release, use_cache=False).frame
    row = frame[(frame.example_id == "naturalquestions/test/0") & (frame.condition == "normal")].iloc[0]
    assert row.isna()["factscore_precision"] and row["n_subclaims"] == 0


# --------------------------------------------------------------------------- dataset frame

def test_frame_matches_compute_response_metrics_and_example_rebuilds(release: Path, tmp_path: Path):
    ds = load_dataset(release, cache_dir=tmp_path / "cache")
    examples = _by_id(load_examples(release).examples)
    assert len(ds.frame) == 15 and ds.conditions == ["normal", "missing", "wrong"]
    assert list(ds.frame.columns[:7]) == ["example_id", "index", "condition", "dataset", "subset", "query_type",
                                          "query"]
    for row in ds.frame.to_dict(orient="records"):
        example = examples[row["example_id"]]
        expected = compute_response_metrics(example.variants[row["condition"]], example.nuggets)
        for key, value in expected.items():
            got = row[key]
            if value is None:
                assert got is None or got != got, (key, row["example_id"])   # None / NaN / NA
            else:
                assert got == pytest.approx(value, abs=1e-12), (key, row["example_id"])
        assert ds.example(row["example_id"]) == example


def test_frame_values_on_the_fixture(release: Path):
    frame = load_dataset(release, use_cache=False).frame.set_index(["example_id", "condition"])
    normal = frame.loc[("naturalquestions/test/0", "normal")]
    assert normal["factscore_precision"] == 0.5 and normal["vital_precision"] == 1.0
    assert normal["weighted_precision"] == pytest.approx(1.6 / 2.4)
    assert normal["nugget_recall"] == pytest.approx(2 / 3) and normal["vital_recall"] == 1.0
    assert normal["weighted_recall"] == pytest.approx(1.0) and not normal["rlr"]
    missing = frame.loc[("naturalquestions/test/0", "missing")]
    assert missing.isna()["vital_precision"] and missing.isna()["rlp"] and missing["rlr"]
    wrong = frame.loc[("naturalquestions/test/0", "wrong")]
    assert wrong["rlp"] and wrong["vital_recall"] == 0 and wrong["vital_recall_partial"] == 0.5
    assert wrong["weighted_recall"] == pytest.approx(1.6 / 2.2)


def test_cache_is_reused_and_invalidated(release: Path, tmp_path: Path):
    cache = tmp_path / "cache"
    first = load_dataset(release, cache_dir=cache)
    assert not first.from_cache
    second = load_dataset(release, cache_dir=cache)
    assert second.from_cache and second.frame.equals(first.frame)
    assert second.example("factscore/test/1") == first.example("factscore/test/1")
    heavier = load_dataset(release, TierWeights(1, 1, 1), cache_dir=cache)
    assert not heavier.from_cache
    assert heavier.frame.loc[0, "weighted_precision"] == pytest.approx(0.5)
    target = release / "naturalquestions/test/normal/new-metric-out.jsonl"
    _edit_record(target, 0, lambda r: r["decomposition"][0]["decomp"][3].update(judgment=True))
    stat = target.stat()
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
    third = load_dataset(release, cache_dir=cache)
    frame = third.frame.set_index(["example_id", "condition"])
    assert not third.from_cache
    assert frame.loc[("naturalquestions/test/0", "normal"), "factscore_precision"] == 0.75


def test_cache_dir_from_environment(release: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("VITAL_CACHE_DIR", str(tmp_path / "envcache"))
    load_dataset(release)
    assert list((tmp_path / "envcache").glob("dataset-*.frame.parquet"))


def test_dataset_from_examples(release: Path):
    examples = load_examples(release).examples
    ds = dataset_from_examples(examples)
    assert len(ds.frame) == 15 and ds.example(examples[2].id) is examples[2]
    assert ds.frame["index"].tolist()[:3] == [0, 0, 0]
    with pytest.raises(InputError, match="appears twice"):
        dataset_from_examples(examples + examples[:1])


def test_two_worker_processes_give_the_same_frame_and_errors(release: Path):
    one = load_dataset(release, use_cache=False, workers=1)
    two = load_dataset(release, use_cache=False, workers=2)
    assert one.frame.equals(two.frame) and one.subclaims.equals(two.subclaims)
    assert two.example("factscore/test/1") == one.example("factscore/test/1")
    target = release / "factscore/test/wrong/new-metric-out.jsonl"
    lines = _lines(target)
    lines[1] = "{"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_dataset(release, use_cache=False, workers=2)
    assert info.value.line == 2 and f"{target} line 2" in str(info.value)
    assert load_dataset(release, use_cache=False, workers=2, skip_bad=True).skipped == 1
