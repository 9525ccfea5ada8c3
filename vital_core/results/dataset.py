"""A loaded set of scored results as a columnar per-record frame, cached on disk.

``load_dataset(path)`` streams the input files once, turns each raw record
into integer label codes and computes every metric for all records at once
(the frame and its columns: ``frame``), keeping only a pandas frame and a flat
subclaim table (for the cumulative-precision and decay curves).
Full ``ExampleResult`` objects are rebuilt on demand by ``Dataset.example``
from remembered byte offsets, so opening the whole release stays fast and small.

The frame, the subclaim table and what ``example`` needs are cached on disk as
Parquet and JSON (``dataset_cache``: nothing in it can run code), keyed by the
absolute path, size and mtime of every input file, the tier weights, F1@K's K,
the skip-bad flag and a hash of the scoring code, so any change rebuilds.
"""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import numpy as np
import pandas as pd

from vital_core import __version__
from vital_core.files.errors import InputError
from vital_core.loaders.codes import ConditionScan, scan_condition
from vital_core.loaders.discover import FACTSCORE, NEW_METRIC, RECORDS, ConditionSource, Discovery, discover
from vital_core.loaders.examples import (
    OriginalRecord,
    iter_results_file,
    match_original,
    merge_condition,
    read_original,
    read_results_line,
    response_from_record,
)
from vital_core.loaders.load import describe, group_sources
from vital_core.loaders.records import LoadLog, ReleaseRecord, check_variants_agree, parse_line, read_line_at
from vital_core.metrics.formulas import DEFAULT_WEIGHTS, TierWeights
from vital_core.results import dataset_cache
from vital_core.results.frame import ID_COLUMNS, METRIC_COLUMNS, Rows
from vital_core.results.model import EVIDENCE_NORMAL, ExampleResult, ordered_conditions

# The code a cached frame depends on: these modules and every module of these packages.
# Paths under vital_core/ whose code shapes a loaded set.
_CODE_MODULES = ("results/dataset.py", "results/frame.py", "results/dataset_cache.py", "results/model.py",
                 "results/labels.py", "files/errors.py")
_CODE_PACKAGES = ("metrics", "loaders")


def default_cache_dir() -> Path:
    return Path(os.environ.get("VITAL_CACHE_DIR") or Path.home() / ".cache" / "vital-explorer")


def examples_against_normal(frame: pd.DataFrame) -> int:
    """Examples whose variants were checked against their normal response (no evidence given)."""
    if "evidence_mode" not in frame:
        return 0
    return int(frame.loc[frame["evidence_mode"] == EVIDENCE_NORMAL, "example_id"].nunique())


def warning_counts(frame: pd.DataFrame) -> pd.Series:
    """Per condition, how many responses carry warnings (something a model's reply lost, named there)."""
    return (frame["warnings"] > 0).groupby(frame["condition"]).sum().astype(int)


def failed_counts(frame: pd.DataFrame) -> pd.Series:
    """Per condition, how many responses failed to score (``error`` set): left out of every mean."""
    return frame["error"].notna().groupby(frame["condition"]).sum().astype(int)


@dataclass
class Dataset:
    """A loaded set: ``frame`` has one row per (example, condition) and every metric key.

    Undefined metrics are missing values (NaN / NA). ``subclaims`` is a flat
    table of every subclaim (``row`` = frame row, ``position`` in the response
    from 1, ``rank`` in importance order from 1 or 0 when not ranked,
    ``importance`` code 0 vital / 1 okay / 2 less-important / 3 unlabelled,
    ``supported``) for curves over positions. ``skipped``/``problems`` report
    what a ``skip_bad`` load left out and any other oddity found.
    """
    frame: pd.DataFrame
    subclaims: pd.DataFrame
    weights: TierWeights = DEFAULT_WEIGHTS
    f1_k: float | None = None
    skipped: int = 0
    problems: list[str] = field(default_factory=list)
    source: str = ""
    kind: str = ""
    path: str = ""
    from_cache: bool = False
    _sources: dict[str, list[ConditionSource]] = field(default_factory=dict, repr=False)
    _offsets: dict[tuple[str, str], dict[str, list[int]]] = field(default_factory=dict, repr=False)
    _examples: dict[str, ExampleResult] = field(default_factory=dict, repr=False)
    # results-file examples, read again on demand: id -> (file, byte offset, line number)
    _result_lines: dict[str, tuple[str, int, int]] = field(default_factory=dict, repr=False)
    _originals: dict[str, list[OriginalRecord | None]] = field(default_factory=dict, repr=False)   # not cached

    # ------------------------------------------------------------------ access
    @property
    def conditions(self) -> list[str]:
        return ordered_conditions(self.frame["condition"])

    def example(self, example_id: str) -> ExampleResult:
        """The full example (subclaims, nuggets, documents, every variant), read on demand."""
        if example_id in self._examples:
            return self._examples[example_id]
        if example_id in self._result_lines:
            return read_results_line(*self._result_lines[example_id])
        group, _, index_text = example_id.rpartition("/")
        if group not in self._sources or not index_text.isdigit():
            raise KeyError(f"no example {example_id!r} in this dataset")
        index = int(index_text)
        loaded = set(self.frame.loc[self.frame["example_id"] == example_id, "condition"])
        example: ExampleResult | None = None
        for source in self._sources[group]:
            offsets = self._offsets.get((group, source.condition))
            if source.condition not in loaded or offsets is None:
                continue
            rec = self._read_record(source, index, offsets)
            response, nuggets = response_from_record(rec, source.condition)
            example = merge_condition(example, example_id, rec, source, response, nuggets)
        if example is None:
            raise KeyError(f"no example {example_id!r} in this dataset")
        self._attach_original(group, index, example)
        return example

    def subset(self, rows) -> "Dataset":
        """The same set restricted to some frame rows (a boolean mask or positions, e.g. a filter's result).

        The subclaim table follows (renumbered); ``example`` keeps working.
        """
        positions = np.asarray(rows)
        if positions.dtype == bool:
            positions = np.flatnonzero(positions)
        positions = positions.astype(np.int64)
        new_row = np.full(len(self.frame), -1, dtype=np.int64)
        new_row[positions] = np.arange(positions.size)
        sub = self.subclaims
        mapped = new_row[sub["row"].to_numpy(np.int64)] if len(sub) else np.zeros(0, dtype=np.int64)
        keep = mapped >= 0
        subclaims = sub[keep].assign(row=mapped[keep])
        subclaims = subclaims.sort_values(["row", "position"], kind="stable").reset_index(drop=True)
        return Dataset(self.frame.iloc[positions].reset_index(drop=True), subclaims, self.weights, self.f1_k,
                       self.skipped, list(self.problems), self.source, self.kind, self.path, self.from_cache,
                       self._sources, self._offsets, self._examples, self._result_lines, self._originals)

    def _read_record(self, source: ConditionSource, index: int, offsets: dict[str, list[int]]) -> ReleaseRecord:
        parsed, places = {}, {}
        skip_factscore = NEW_METRIC in source.files or RECORDS in source.files
        for kind, path in source.files.items():
            places[kind] = f"{path} record {index + 1}"
            if kind == FACTSCORE and skip_factscore:
                continue
            parsed[kind] = parse_line(read_line_at(path, offsets[kind][index]), places[kind], path)
        primary = parsed.get(source.primary(), {})
        return ReleaseRecord(index, str(primary.get("query") or ""), parsed, places=places)

    def _attach_original(self, group: str, index: int, example: ExampleResult) -> None:
        original = next((s.original for s in self._sources[group] if s.original is not None), None)
        if original is None:
            return
        if group not in self._originals:
            if len(self._originals) >= 2:   # keep memory bounded: originals hold documents
                self._originals.pop(next(iter(self._originals)))
            try:
                self._originals[group] = read_original(original, LoadLog(skip_bad=True))
            except (OSError, InputError):
                self._originals[group] = []
        orig = match_original(self._originals[group], {index: example.query}).get(index)
        if orig is not None:
            if orig.documents:
                example.documents = orig.documents
            example.reference = orig.reference


# Inputs larger than this are read by two worker processes (when the process has no other threads).
PARALLEL_MIN_BYTES = 64 * 2 ** 20


def _scan_all(sources: list[ConditionSource], skip_bad: bool, workers: int | None) -> list[ConditionScan]:
    """Scan every condition, in worker processes when it pays off and is safe.

    Workers are forked, so only from a single-threaded process (the CLI, a
    script); inside the app (threads) the scan runs in this process.
    """
    if workers is None:
        size = sum(p.stat().st_size for s in sources for p in s.files.values())
        safe = threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()
        workers = min(2, os.cpu_count() or 1) if safe and size >= PARALLEL_MIN_BYTES and len(sources) > 1 else 1
    if workers <= 1:
        return [scan_condition(s, skip_bad) for s in sources]
    from concurrent.futures import ProcessPoolExecutor
    # biggest first, so the workers finish together; results come back in the given order
    sizes = [sum(p.stat().st_size for p in s.files.values()) for s in sources]
    order = sorted(range(len(sources)), key=lambda i: -sizes[i])
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = {i: pool.submit(scan_condition, sources[i], skip_bad) for i in order}
        return [futures[i].result() for i in range(len(sources))]


def _build(found: Discovery, weights: TierWeights, skip_bad: bool, f1_k: float | None,
           workers: int | None = None) -> Dataset:
    log = LoadLog(skip_bad=skip_bad)
    rows = Rows()
    sources_by_group = group_sources(found.sources)
    ordered = [(g_rank, group, source) for g_rank, (group, sources) in enumerate(sources_by_group.items())
               for source in sources]
    scans = _scan_all([s for _, _, s in ordered], skip_bad, workers)
    offsets: dict[tuple[str, str], dict[str, list[int]]] = {}
    queries: dict[str, dict[str, tuple[dict[int, str], object]]] = {}
    for (g_rank, group, source), scan in zip(ordered, scans):
        log.skipped += scan.skipped
        log.problems.extend(scan.problems)
        offsets[(group, source.condition)] = scan.offsets
        rows.add_scan(group, g_rank, source, scan)
        queries.setdefault(group, {})[source.condition] = (dict(zip(scan.index, scan.query)), scan.place)
    for group, by_condition in queries.items():
        log.problems.extend(check_variants_agree(group, by_condition))
    g_base = len(sources_by_group)
    seen: dict[str, str] = {}
    result_lines: dict[str, tuple[str, int, int]] = {}
    for f_rank, file in enumerate(found.results_files):
        for e_rank, example in enumerate(iter_results_file(file, log, seen, result_lines)):
            rows.add_example(example, _index_of(example.id), (g_base + f_rank, e_rank))
    frame, subclaims, k = rows.finish(weights, f1_k)
    _check_one_labelling(frame, seen, sources_by_group)
    return Dataset(frame, subclaims, weights, k, log.skipped, log.problems, _sources=sources_by_group,
                   _offsets=offsets, _result_lines=result_lines)


class MixedLabellingsError(InputError):
    """A folder holding the same records twice: release-layout files and a results file scored from them."""


def _check_one_labelling(frame, seen: dict[str, str], sources: dict) -> None:
    """Records both in release-layout files and in a results file (results scored into their own input
    folder) would be two labellings of one example mixed in the tables: one sentence instead."""
    if frame.empty or not seen:
        return
    twice = frame.duplicated(["example_id", "condition"], keep=False).to_numpy()
    if not twice.any():
        return
    example_id = str(frame["example_id"][twice].iloc[0])
    group = example_id.rpartition("/")[0]
    folders = sorted({str(p.parent) for s in sources.get(group, []) for p in s.files.values()}) or ["its records"]
    raise MixedLabellingsError(f"{seen.get(example_id, example_id)}: example {example_id!r} is also in "
                               f"{folders[0]}, so "
                     "this folder mixes two labellings of the same records (results scored into their input "
                     "folder?); load the results file or the records' folder alone")


def _index_of(example_id: str) -> int | None:
    tail = example_id.rpartition("/")[2]
    return int(tail) if tail.isdigit() else None


def dataset_from_examples(examples: Iterable[ExampleResult], weights: TierWeights = DEFAULT_WEIGHTS,
                          f1_k: float | None = None) -> Dataset:
    """A Dataset over in-memory examples (the app's own scoring runs); ``index`` = position."""
    rows = Rows()
    kept: dict[str, ExampleResult] = {}
    for position, example in enumerate(examples):
        if example.id in kept:
            raise InputError(f"example id {example.id!r} appears twice")
        kept[example.id] = example
        rows.add_example(example, position, (position,))
    frame, subclaims, k = rows.finish(weights, f1_k)
    return Dataset(frame, subclaims, weights, k, source="in-memory examples", kind="results", _examples=kept)


# --------------------------------------------------------------------------- cache

def code_version() -> str:
    """Hash of the scoring code: a cache built by other code is never reused."""
    h = hashlib.sha256(__version__.encode())
    here = Path(__file__).parents[1]
    files = [here / name for name in _CODE_MODULES]
    for package in _CODE_PACKAGES:
        files += sorted((here / package).rglob("*.py"))
    for path in files:
        h.update(str(path.relative_to(here)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_key(files: list[Path], weights: TierWeights, skip_bad: bool, f1_k: float | None) -> str:
    h = hashlib.sha256()
    for f in files:
        st = f.stat()
        h.update(f"{f.resolve()}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    h.update(f"weights={weights};skip_bad={skip_bad};k={f1_k};code={code_version()}".encode())
    return h.hexdigest()[:32]


def load_dataset(path: str | Path, weights: TierWeights = DEFAULT_WEIGHTS, cache_dir: str | Path | None = None,
                 *, skip_bad: bool = False, f1_k: float | None = None, use_cache: bool = True,
                 workers: int | None = None) -> Dataset:
    """Load scored results from ``path`` (any layout ``loaders`` accepts) as a Dataset.

    Raises ``loaders.NoDataError`` for a path with nothing to load and
    ``InputError`` for bad data (unless ``skip_bad``). ``workers``: processes
    that read the files (default: 2 for large inputs in a single-threaded
    process, else 1).
    """
    path = Path(path).resolve()
    found = discover(path)
    source, kind = describe(found, path)
    folder = Path(cache_dir or default_cache_dir())
    key = cache_key(found.input_files(), weights, skip_bad, f1_k) if use_cache else ""
    if use_cache:
        cached = dataset_cache.read(folder, key)
        if cached is not None:
            return Dataset(**cached, from_cache=True)
    dataset = _build(found, weights, skip_bad, f1_k, workers)
    dataset.source, dataset.kind, dataset.path = source, kind, str(path)
    if use_cache:
        try:
            dataset_cache.write(folder, key, dataset.frame, dataset.subclaims, dataset_cache.meta_of(dataset))
        except InputError as exc:   # a file there is not the cache's own: left alone, said once
            dataset.problems.append(f"dataset cache not written: {exc}")
        except OSError as exc:
            dataset.problems.append(f"dataset cache not written to {folder}: {exc}")
    return dataset


__all__ = ["Dataset", "load_dataset", "dataset_from_examples", "default_cache_dir", "code_version",
           "ID_COLUMNS", "METRIC_COLUMNS"]
