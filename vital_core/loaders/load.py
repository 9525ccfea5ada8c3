"""Read scored results: the VitalErrors release layout, condition files, or our own format.

Accepted inputs (``load_examples`` and ``dataset.load_dataset`` take any of them):

* the official release layout, or any subtree of it (the root, a dataset, a
  subset, one condition folder, or one file)::

      ROOT/{dataset}/{subset}/original.jsonl
      ROOT/{dataset}/{subset}/{normal,missing,wrong}/{data,factscore-out,nuggets-out,new-metric-out}.jsonl

  The four files of a condition folder hold the same queries line by line;
  they are matched by position and their queries must agree.
* a folder of ``{normal,missing,wrong}.jsonl`` files (any condition name) in
  any of the official record shapes, e.g. ``reference-data/vitalerrors-nq/gpt-4o``;
* the project's own results JSON Lines (``model.RESULTS_FORMAT``), one
  ``ExampleResult`` per line.

The variants of an example (normal / missing / wrong) are matched by position
within their folder and their queries must agree too.

Only the files the metrics need are parsed: ``new-metric-out.jsonl`` (else
``factscore-out.jsonl``) and ``nuggets-out.jsonl``. The others of a condition
are checked for their record count and, per line, for the same query (a
byte comparison of the line's start; decoded only when it differs). Lines are
parsed with orjson when it is installed (it is in requirements.txt), else the
stdlib. Unknown labels are errors naming the value, the file and the line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from vital_core.files.errors import InputError, InvalidRecordError
from vital_core.loaders.discover import RECORDS, ConditionSource, Discovery, discover
from vital_core.loaders.examples import (
    iter_results_file,
    match_original,
    merge_condition,
    read_original,
    response_from_record,
)
from vital_core.loaders.records import LoadLog, check_variants_agree, iter_condition
from vital_core.results.model import ExampleResult, InvalidDocumentError, InvalidLabelError

# --------------------------------------------------------------------------- load_examples

@dataclass
class LoadResult:
    examples: list[ExampleResult]
    skipped: int = 0
    problems: list[str] = field(default_factory=list)
    source: str = ""          # human description of what was loaded
    kind: str = ""            # "release" / "condition-files" / "results" / "mixed"
    path: str = ""


def describe(found: Discovery, path: Path) -> tuple[str, str]:
    kinds = set()
    if found.results_files:
        kinds.add("results")
    if any(RECORDS in s.files for s in found.sources):
        kinds.add("condition-files")
    if any(RECORDS not in s.files for s in found.sources):
        kinds.add("release")
    kind = kinds.pop() if len(kinds) == 1 else "mixed"
    groups = len({s.group for s in found.sources})
    parts = []
    if found.sources:
        parts.append(f"{len(found.sources)} condition source(s) in {groups} folder(s)")
    if found.results_files:
        parts.append(f"{len(found.results_files)} results file(s)")
    return f"{kind}: {', '.join(parts)} under {path}", kind


def group_sources(sources: list[ConditionSource]) -> dict[str, list[ConditionSource]]:
    groups: dict[str, list[ConditionSource]] = {}
    for s in sources:
        groups.setdefault(s.group, []).append(s)
    for group, items in groups.items():
        names = [s.condition for s in items]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise InputError(f"{group}: condition {sorted(dup)[0]!r} found twice "
                             f"({', '.join(str(next(iter(s.files.values()))) for s in items if s.condition in dup)})")
    return groups


def load_group(group: str, sources: list[ConditionSource], log: LoadLog) -> list[ExampleResult]:
    """Build full ExampleResults for one folder of condition sources."""
    examples: dict[int, ExampleResult] = {}
    queries: dict[str, tuple[dict[int, str], Callable[[int], str]]] = {}
    for source in sources:
        seen: dict[int, str] = {}
        places: dict[int, str] = {}
        for rec in iter_condition(source, log, full=True):
            try:
                response, nuggets = response_from_record(rec, source.condition)
                examples[rec.index] = merge_condition(examples.get(rec.index), f"{group}/{rec.index}", rec,
                                                      source, response, nuggets)
            except (InvalidLabelError, InvalidRecordError, InvalidDocumentError) as exc:
                log.bad(InputError(str(exc)))
                continue
            seen[rec.index] = rec.query
            places[rec.index] = rec.place(source.primary())
        queries[source.condition] = (seen, lambda i, f=places: f.get(i, f"record {i + 1}"))
    log.problems.extend(check_variants_agree(group, queries))
    original = next((s.original for s in sources if s.original is not None), None)
    if original is not None and examples:
        originals = read_original(original, log)
        matched = match_original(originals, {i: ex.query for i, ex in examples.items()})
        for i, ex in examples.items():
            orig = matched.get(i)
            if orig is None:
                continue
            if orig.documents:
                ex.documents = orig.documents
            ex.reference = orig.reference
        if len(matched) < len(examples):
            log.problems.append(f"{original}: no original record for {len(examples) - len(matched)} "
                                f"example(s) of {group}")
    return [examples[i] for i in sorted(examples)]


def load_examples(path: str | Path, *, skip_bad: bool = False) -> LoadResult:
    """Load every example under ``path`` as full ``ExampleResult`` objects.

    For large sets prefer ``dataset.load_dataset``, which builds the metrics
    frame without materialising every subclaim. Raises ``InputError`` (the
    message names the file and line) unless ``skip_bad`` skips bad records,
    which are then counted in ``.skipped`` and described in ``.problems``.
    """
    path = Path(path)
    found = discover(path)
    log = LoadLog(skip_bad=skip_bad)
    examples: list[ExampleResult] = []
    for group, sources in group_sources(found.sources).items():
        examples.extend(load_group(group, sources, log))
    seen: dict[str, str] = {}
    for file in found.results_files:
        examples.extend(iter_results_file(file, log, seen))
    source, kind = describe(found, path)
    return LoadResult(examples, log.skipped, log.problems, source, kind, str(path))
