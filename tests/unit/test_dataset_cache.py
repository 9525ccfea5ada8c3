"""The dataset cache holds data only (Parquet + JSON), removes old pickles and keeps a size budget
(issue 11, item 10)."""
from __future__ import annotations

import asyncio
import pickle
from pathlib import Path

import pandas as pd
import pytest

from tests.support.release_fixture import make_release
from tests.unit.test_batch import CountingBackend, records_of
from vital_core.files.outputs import OwnIndex
from vital_core.loaders.discover import discover
from vital_core.metrics.formulas import DEFAULT_WEIGHTS
from vital_core.results import dataset_cache
from vital_core.results.dataset import cache_key, load_dataset
from vital_core.scoring.runs import run_batch


class Planted:
    """Unpickling this touches a marker file: proof that a pickle runs code."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _key(path: Path) -> str:
    return cache_key(discover(path.resolve()).input_files(), DEFAULT_WEIGHTS, False, None)


def test_a_planted_pickle_never_runs_and_is_left_alone(tmp_path):
    release = make_release(tmp_path / "release")
    cache = tmp_path / "cache"
    cache.mkdir()
    marker = tmp_path / "ran"
    planted = cache / f"dataset-{_key(release)}.pkl"
    planted.write_bytes(pickle.dumps(Planted(marker)))
    ds = load_dataset(release, cache_dir=cache)
    assert not marker.exists() and planted.exists()      # never read, and not the cache's to delete
    assert not ds.from_cache and len(ds.frame) == 15


@pytest.mark.parametrize("part", ["frame.parquet", "subclaims.parquet", "json"])
def test_damaged_or_planted_cache_files_are_rebuilt(tmp_path, part):
    release = make_release(tmp_path / "release")
    cache = tmp_path / "cache"
    first = load_dataset(release, cache_dir=cache)
    (cache / f"dataset-{_key(release)}.{part}").write_bytes(b"\x80\x04not what it claims")
    again = load_dataset(release, cache_dir=cache)
    assert not again.from_cache and again.frame.equals(first.frame)


def test_a_cached_set_is_the_built_set(tmp_path):
    release = make_release(tmp_path / "release")
    cache = tmp_path / "cache"
    built = load_dataset(release, cache_dir=cache)
    cached = load_dataset(release, cache_dir=cache)
    assert cached.from_cache
    pd.testing.assert_frame_equal(cached.frame, built.frame)
    pd.testing.assert_frame_equal(cached.subclaims, built.subclaims)
    assert (cached.weights, cached.f1_k, cached.source, cached.kind) == (built.weights, built.f1_k, built.source,
                                                                         built.kind)
    assert cached.example("naturalquestions/test/0") == built.example("naturalquestions/test/0")
    assert not list(cache.glob("*.pkl"))


def test_results_examples_are_read_on_demand_not_held(tmp_path):
    recs = records_of(tmp_path, 3)
    out = tmp_path / "res.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs, out, progress=False))
    built = load_dataset(out, cache_dir=tmp_path / "cache")
    cached = load_dataset(out, cache_dir=tmp_path / "cache")
    assert built._examples == {} and cached.from_cache
    assert cached.example("q2") == built.example("q2")
    assert cached.example("q2").variants["normal"].subclaims


def test_the_budget_removes_the_least_recently_used_sets(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    first = make_release(tmp_path / "one")
    second = make_release(tmp_path / "two")
    load_dataset(first, cache_dir=cache)
    one_set = sum(p.stat().st_size for p in cache.glob("dataset-*"))
    monkeypatch.setenv("VITAL_DATASET_CACHE_MB", str(one_set * 1.5 / 2 ** 20))
    load_dataset(second, cache_dir=cache)
    keys = {p.name.split(".")[0] for p in cache.glob("dataset-*")}
    assert keys == {f"dataset-{_key(second)}"}


def test_keep_in_budget_keeps_the_set_just_written(tmp_path):
    with OwnIndex(tmp_path, "--cache-dir") as index:
        for name in ("a", "b"):
            with index.replace(f"dataset-{name}.json", "a dataset cache file") as fh:
                fh.write("x" * 100)
        assert dataset_cache.keep_in_budget(index, 10, keep="b") == ["a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".vital-explorer-files.json", "dataset-b.json"]
