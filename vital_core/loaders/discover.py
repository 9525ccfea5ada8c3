"""Find what a path holds: the release layout (any subtree), a folder of condition files, or a
results file; the file names and dataset names of the release."""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from vital_core.files.errors import InputError, where
from vital_core.files.text_input import check_not_binary, without_bom
from vital_core.results.model import DATASET_QUERY_TYPE, condition_order

try:  # orjson parses the release 2-4x faster than the stdlib
    import orjson as _orjson
    loads: Callable[[bytes], Any] = _orjson.loads
    PARSER = "orjson"
except ImportError:  # pragma: no cover - orjson is in requirements.txt
    loads = json.loads
    PARSER = "json"

NEW_METRIC, NUGGETS, FACTSCORE, DATA, RECORDS = (
    "new-metric-out", "nuggets-out", "factscore-out", "data", "records")
CONDITION_FILES = {f"{k}.jsonl": k for k in (NEW_METRIC, NUGGETS, FACTSCORE, DATA)}
ORIGINAL_FILE = "original.jsonl"
# Which file's fields win when several files of a condition hold the same key.
PRIORITY = (NEW_METRIC, RECORDS, FACTSCORE, NUGGETS, DATA)

# Short names used in folder names (e.g. "vitalerrors-nq") -> dataset folder names.
DATASET_ALIASES = {"nq": "naturalquestions", "naturalquestions": "naturalquestions",
                   "hotpot": "hotpotqa", "hotpotqa": "hotpotqa", "trivia": "triviaqa",
                   "triviaqa": "triviaqa", "bright": "bright", "factscore": "factscore",
                   "bios": "factscore", "wildhallucinations": "wildhallucinations",
                   "wildhal": "wildhallucinations"}

_QUERY_PREFIX = re.compile(rb'\s*\{\s*"query"\s*:\s*"([^"\\]*(?:\\.[^"\\]*)*)"')


class NoDataError(InputError):
    """The path exists but holds nothing this tool can load."""


# --------------------------------------------------------------------------- discovery

@dataclass
class ConditionSource:
    """One condition (variant) of one group of examples: the files that hold it."""
    condition: str
    files: dict[str, Path]              # kind (new-metric-out, ..., records) -> file
    group: str                          # example-id prefix (folder relative to the load root)
    dataset: str = ""
    subset: str = ""
    original: Path | None = None

    @property
    def query_type(self) -> str | None:
        return DATASET_QUERY_TYPE.get(self.dataset)

    def primary(self) -> str:
        return next(k for k in PRIORITY if k in self.files)


@dataclass
class Discovery:
    sources: list[ConditionSource] = field(default_factory=list)
    results_files: list[Path] = field(default_factory=list)

    def input_files(self) -> list[Path]:
        """Every file the load depends on (the dataset cache key is built from these)."""
        files = set(self.results_files)
        for s in self.sources:
            files.update(s.files.values())
            if s.original is not None:
                files.add(s.original)
        return sorted(files)


def guess_dataset(folder: Path) -> str:
    """The dataset a folder belongs to, from its own or its ancestors' names ("" if none)."""
    for part in [folder, *folder.parents]:
        name = part.name.lower()
        if name in DATASET_QUERY_TYPE:
            return name
        for token in re.split(r"[^a-z0-9]+", name):
            if token in DATASET_ALIASES:
                return DATASET_ALIASES[token]
    return ""


def _names(subset_dir: Path) -> tuple[str, str]:
    """(dataset, subset) of a folder holding condition folders or condition files."""
    if subset_dir.name in DATASET_QUERY_TYPE:
        return subset_dir.name, ""
    if subset_dir.parent.name in DATASET_QUERY_TYPE:
        return subset_dir.parent.name, subset_dir.name
    return guess_dataset(subset_dir), subset_dir.name


def _group(folder: Path, root: Path) -> str:
    rel = os.path.relpath(folder, root)
    return folder.name if rel == "." else rel.replace(os.sep, "/")


def first_record(path: Path, *, bad_json_raises: bool = True) -> dict | None:
    """The first non-blank line of a JSON Lines file when it is a JSON object, else None.

    Both sniffers read a file's shape from it. A first line that is not JSON
    raises ``InputError`` naming the line (discovery: the user asked to load
    this file) unless ``bad_json_raises`` is False, then it is None (``inputs``
    asks "is this my input shape?" and lets the loaders report the bad line).
    """
    with open(path, "rb") as fh:
        for n, line in enumerate(fh, start=1):
            line = without_bom(line, n == 1)
            if line.strip():
                try:
                    rec = loads(line)
                except ValueError as exc:
                    if not bad_json_raises:
                        return None
                    raise InputError(f"{where(path, n)}: malformed JSON: {exc}", path, n) from None
                return rec if isinstance(rec, dict) else None
    return None


def _is_results_file(path: Path) -> bool:
    rec = first_record(path)
    return bool(rec) and (rec.get("format", "").startswith("vital-explorer-results") or "variants" in rec)


def discover(path: str | Path) -> Discovery:
    """Find every loadable file under ``path`` (a file or a folder)."""
    path = Path(path)
    if not path.exists():
        raise NoDataError(f"{path}: no such file or folder", path)
    found = Discovery()
    if path.is_file():
        check_not_binary(path)        # from its first bytes: a huge binary file is never read whole
        root = path.parent
        if path.name == ORIGINAL_FILE:
            raise NoDataError(f"{path} holds queries and documents but no responses; "
                              f"load its folder instead", path)
        if path.name in CONDITION_FILES:
            subset_dir = path.parent.parent
            dataset, subset = _names(subset_dir)
            original = subset_dir / ORIGINAL_FILE
            found.sources.append(ConditionSource(
                path.parent.name, {CONDITION_FILES[path.name]: path}, subset_dir.name,
                dataset, subset, original if original.is_file() else None))
        elif _is_results_file(path):
            found.results_files.append(path)
        else:
            dataset, subset = _names(path.parent)
            found.sources.append(ConditionSource(path.stem, {RECORDS: path}, root.name, dataset, subset))
        return found

    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        folder = Path(dirpath)
        jsonl = sorted(f for f in filenames if f.endswith(".jsonl"))
        for f in jsonl:
            check_not_binary(folder / f)
        kinds = {CONDITION_FILES[f]: folder / f for f in jsonl if f in CONDITION_FILES}
        if kinds:   # a release condition folder: ROOT/{dataset}/{subset}/{condition}/
            subset_dir = folder.parent
            dataset, subset = _names(subset_dir)
            original = subset_dir / ORIGINAL_FILE
            group = subset_dir.name if folder == path else _group(subset_dir, path)
            found.sources.append(ConditionSource(folder.name, kinds, group, dataset, subset,
                                                 original if original.is_file() else None))
        for f in jsonl:
            if f in CONDITION_FILES or f == ORIGINAL_FILE:
                continue
            file = folder / f
            if _is_results_file(file):
                found.results_files.append(file)
            else:
                dataset, subset = _names(folder)
                found.sources.append(ConditionSource(file.stem, {RECORDS: file}, _group(folder, path),
                                                     dataset, subset))
    found.sources.sort(key=lambda s: (s.group, condition_order(s.condition)))
    if not found.sources and not found.results_files:
        raise NoDataError(f"{path}: no results found (expected the release layout "
                          f"{{dataset}}/{{subset}}/{{condition}}/new-metric-out.jsonl, "
                          f"{{normal,missing,wrong}}.jsonl files or a results .jsonl file)", path)
    return found


