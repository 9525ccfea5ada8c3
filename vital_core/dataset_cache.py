"""The on-disk cache of loaded datasets: Parquet for the tables, JSON for the rest - nothing that runs code.

A cached set is three files under the cache folder (``VITAL_CACHE_DIR`` or
``~/.cache/vital-explorer``), named by the set's key (``dataset.cache_key``):
``dataset-KEY.frame.parquet`` (the per-response frame), ``dataset-KEY.subclaims.parquet``
(the flat subclaim table) and ``dataset-KEY.json`` (weights, K, notes, where each
record's line starts). The JSON is written last and names its key, so a set is used
only when all three are there and agree.

Reading a planted file can at worst fail: Parquet and JSON hold data only (the old
pickle format ran whatever a planted file asked; ``dataset-*.pkl`` files are removed
when seen). The folder is kept under a size budget (``VITAL_DATASET_CACHE_MB``,
default 2048): beyond it the sets used least recently are removed.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from vital_core.atomic import atomic_replace
from vital_core.loaders.discover import ConditionSource
from vital_core.metrics.formulas import TierWeights

CACHE_FORMAT = "vital-explorer-dataset-cache/1"
PREFIX = "dataset-"
BUDGET_MB = 2048


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
    """The cached set's ``Dataset`` fields, or None to rebuild."""
    import pandas as pd
    remove_pickles(folder)
    frame_path, sub_path, meta_path = _paths(folder, key)
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if not isinstance(meta, dict) or meta.get("format") != CACHE_FORMAT or meta.get("key") != key:
            return None
        meta["frame"] = pd.read_parquet(frame_path, engine="pyarrow")
        meta["subclaims"] = pd.read_parquet(sub_path, engine="pyarrow")
        fields = dataset_fields(meta)
        os.utime(meta_path)            # recently used: the budget removes others first
    except Exception:   # missing, stale, damaged or planted: rebuilt, never trusted
        return None
    return fields


def write(folder: Path, key: str, frame, subclaims, meta: dict[str, Any]) -> None:
    """Store a set (tables first, the JSON that names the key last), then keep the folder in budget."""
    frame_path, sub_path, meta_path = _paths(folder, key)
    for table, path in ((frame, frame_path), (subclaims, sub_path)):
        with atomic_replace(path, "wb") as fh:
            table.to_parquet(fh, engine="pyarrow", index=False)
    with atomic_replace(meta_path) as fh:
        json.dump({"format": CACHE_FORMAT, "key": key, **meta}, fh, ensure_ascii=False)
    remove_pickles(folder)
    keep_in_budget(folder, budget_bytes(), keep=key)


def remove_pickles(folder: Path) -> None:
    """Old caches were pickles, which run code when read: delete any left in the folder."""
    for path in folder.glob(f"{PREFIX}*.pkl"):
        try:
            path.unlink()
        except OSError:
            pass


def keep_in_budget(folder: Path, budget: int, keep: str = "") -> list[str]:
    """Remove whole cached sets, least recently used first, until the folder's sets fit ``budget`` bytes.

    ``keep`` (the set just written) is never removed. Returns the keys removed.
    """
    sets: dict[str, list[Path]] = {}
    for path in folder.glob(f"{PREFIX}*"):
        if path.is_file() and not path.name.startswith("."):
            key = path.name[len(PREFIX):].split(".", 1)[0]
            sets.setdefault(key, []).append(path)

    def used(key: str) -> float:
        return max(p.stat().st_mtime for p in sets[key])
    total = sum(p.stat().st_size for files in sets.values() for p in files)
    removed = []
    for key in sorted(sets, key=used):
        if total <= budget:
            break
        if key == keep:
            continue
        for path in sets[key]:
            total -= path.stat().st_size
            path.unlink(missing_ok=True)
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
                                       s["dataset"], s["subset"], None if s["original"] is None else Path(s["original"]))
                       for s in items] for group, items in m["sources"].items()}
    return {"frame": m["frame"], "subclaims": m["subclaims"], "weights": TierWeights(*m["weights"]),
            "f1_k": m["f1_k"], "skipped": m["skipped"], "problems": m["problems"], "source": m["source"],
            "kind": m["kind"], "path": m["path"], "_sources": sources,
            "_offsets": {(g, c): offsets for g, c, offsets in m["offsets"]},
            "_result_lines": {i: tuple(v) for i, v in m["result_lines"].items()}}
