"""The on-disk cache of loaded datasets: Parquet for the tables, JSON for the rest - nothing that runs code.

A cached set is three files under the cache folder (``VITAL_CACHE_DIR`` or
``~/.cache/vital-explorer``), named by the set's key (``dataset.cache_key``):
``dataset-KEY.frame.parquet`` (the per-response frame), ``dataset-KEY.subclaims.parquet``
(the flat subclaim table) and ``dataset-KEY.json`` (weights, K, notes, where each
record's line starts). The JSON is written last and names its key, so a set is used
only when all three are there and agree.

Reading a planted file can at worst fail: Parquet and JSON hold data only. The folder is
kept under a size budget (``VITAL_DATASET_CACHE_MB``, default 2048): beyond it the sets used
least recently are removed. The cache reads, overwrites and removes only files it wrote itself,
recorded in the folder's index (``output_files.OwnIndex``), so a ``--cache-dir`` that also holds a
person's files - even ones named ``dataset-*`` - or the input itself loses none of them.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from vital_core.files.outputs import OwnIndex
from vital_core.loaders.discover import ConditionSource
from vital_core.metrics.formulas import TierWeights

CACHE_FORMAT = "vital-explorer-dataset-cache/1"
PREFIX = "dataset-"
BUDGET_MB = 2048
KIND = "a dataset cache file"
OPTION = "--cache-dir"


def budget_bytes() -> int:
    try:
        return int(float(os.environ.get("VITAL_DATASET_CACHE_MB") or BUDGET_MB) * 2 ** 20)
    except ValueError:
        return BUDGET_MB * 2 ** 20


def _paths(folder: Path, key: str) -> tuple[Path, Path, Path]:
    stem = folder / f"{PREFIX}{key}"
    return (stem.with_name(stem.name + ".frame.parquet"), stem.with_name(stem.name + ".subclaims.parquet"),
            stem.with_name(stem.name + ".json"))


def read(folder: Path, key: str) -> dict[str, Any] | None:
    """The cached set's ``Dataset`` fields, or None to rebuild (also when a file is not one the cache wrote)."""
    import time

    import pandas as pd
    frame_path, sub_path, meta_path = _paths(folder, key)
    if not meta_path.is_file():
        return None
    try:
        with OwnIndex(folder, OPTION) as index:
            if not all(index.owns(p) for p in (frame_path, sub_path, meta_path)):
                return None
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if not isinstance(meta, dict) or meta.get("format") != CACHE_FORMAT or meta.get("key") != key:
                return None
            meta["frame"] = pd.read_parquet(frame_path, engine="pyarrow")
            meta["subclaims"] = pd.read_parquet(sub_path, engine="pyarrow")
            fields = dataset_fields(meta)
            index.touch(meta_path, time.time())   # recently used: the budget removes others first
    except Exception:   # missing, stale, damaged, planted or a foreign index: rebuilt, never trusted
        return None
    return fields


def write(folder: Path, key: str, frame, subclaims, meta: dict[str, Any]) -> None:
    """Store a set (tables first, the JSON that names the key last), then keep the folder in budget.

    ``InputError`` (nothing written) when a file of that name, or the index, is not the cache's own."""
    frame_path, sub_path, meta_path = _paths(folder, key)
    with OwnIndex(folder, OPTION) as index:
        for path in (frame_path, sub_path, meta_path):
            index.target(path.name, KIND)           # all three checked before any is written
        for table, path in ((frame, frame_path), (subclaims, sub_path)):
            with index.replace(path.name, KIND, "wb") as fh:
                table.to_parquet(fh, engine="pyarrow", index=False)
        with index.replace(meta_path.name, KIND) as fh:
            json.dump({"format": CACHE_FORMAT, "key": key, **meta}, fh, ensure_ascii=False)
        keep_in_budget(index, budget_bytes(), keep=key)


def keep_in_budget(index: OwnIndex, budget: int, keep: str = "") -> list[str]:
    """Remove whole cached sets, least recently used first, until the cache's own sets fit ``budget`` bytes.

    Only files of the index count and go; ``keep`` (the set just written) is never removed. Returns the
    keys removed.
    """
    sets: dict[str, list[str]] = {}
    for name in index.owned():
        if name.startswith(PREFIX):
            sets.setdefault(name[len(PREFIX):].split(".", 1)[0], []).append(name)

    def used(key: str) -> float:
        return max(index.files[name]["used"] for name in sets[key])
    total = sum(index.files[name]["stamp"][0] for names in sets.values() for name in names)
    removed = []
    for key in sorted(sets, key=used):
        if total <= budget:
            break
        if key == keep:
            continue
        for name in sets[key]:
            total -= index.files[name]["stamp"][0]
            index.remove(name)
        removed.append(key)
    return removed


def meta_of(d) -> dict[str, Any]:
    """Everything of a ``Dataset`` but its two tables, as JSON (paths as strings, tuples as lists)."""
    sources = {group: [{"condition": s.condition, "files": {k: str(p) for k, p in s.files.items()},
                        "dataset": s.dataset, "subset": s.subset,
                        "original": None if s.original is None else str(s.original)} for s in items]
               for group, items in d._sources.items()}
    return {"weights": list(d.weights.as_tuple()), "f1_k": d.f1_k, "skipped": d.skipped,
            "problems": list(d.problems), "source": d.source, "kind": d.kind, "path": d.path, "sources": sources,
            "offsets": [[g, c, offsets] for (g, c), offsets in d._offsets.items()],
            "result_lines": {i: list(v) for i, v in d._result_lines.items()}}


def dataset_fields(m: dict[str, Any]) -> dict[str, Any]:
    """The ``Dataset`` fields of what ``read`` returned."""
    sources = {group: [ConditionSource(s["condition"], {k: Path(p) for k, p in s["files"].items()}, group,
                                       s["dataset"], s["subset"],
                                       None if s["original"] is None else Path(s["original"]))
                       for s in items] for group, items in m["sources"].items()}
    return {"frame": m["frame"], "subclaims": m["subclaims"], "weights": TierWeights(*m["weights"]),
            "f1_k": m["f1_k"], "skipped": m["skipped"], "problems": m["problems"], "source": m["source"],
            "kind": m["kind"], "path": m["path"], "_sources": sources,
            "_offsets": {(g, c): offsets for g, c, offsets in m["offsets"]},
            "_result_lines": {i: tuple(v) for i, v in m["result_lines"].items()}}
