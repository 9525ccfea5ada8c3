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

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .errors import InputError, where
from .model import (DATASET_QUERY_TYPE, EVIDENCE_UNKNOWN, NOT_ENOUGH_EVIDENCE, NOT_JUDGED,
                    NUGGET_IMPORTANCE, RESULTS_FORMAT, SUPPORTED, UNLABELLED, Document, ExampleResult,
                    InvalidLabelError, Nugget, ResponseResult, Subclaim, condition_order, normalise_assignment,
                    normalise_importance, normalise_verdict, strip_generation_prefix)
from .metrics import (ASSIGNMENT_CODE, ASSIGNMENTS_BY_CODE, TIER_CODE, TIERS_BY_CODE, VERDICT_CODE,
                      VERDICTS_BY_CODE, BatchBuilder, ScoringInput)

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


def _first_record(path: Path) -> dict | None:
    with open(path, "rb") as fh:
        for n, line in enumerate(fh, start=1):
            if line.strip():
                try:
                    rec = loads(line)
                except ValueError as exc:
                    raise InputError(f"{where(path, n)}: malformed JSON: {exc}", path, n) from None
                return rec if isinstance(rec, dict) else None
    return None


def _is_results_file(path: Path) -> bool:
    rec = _first_record(path)
    return bool(rec) and (rec.get("format", "").startswith("vital-explorer-results") or "variants" in rec)


def discover(path: str | Path) -> Discovery:
    """Find every loadable file under ``path`` (a file or a folder)."""
    path = Path(path)
    if not path.exists():
        raise NoDataError(f"{path}: no such file or folder", path)
    found = Discovery()
    if path.is_file():
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


# --------------------------------------------------------------------------- reading lines

class FileLines:
    """The non-blank lines of a JSONL file: its bytes, each line's start and end, line numbers.

    Lines are not copied out of the file's bytes: ``view(i)`` is a zero-copy
    memoryview for the parser, ``lines[i]`` a bytes copy for occasional use.
    """
    __slots__ = ("path", "data", "offsets", "ends", "linenos")

    def __init__(self, path: Path, data: bytes, offsets: list[int], ends: list[int], linenos: list[int] | None):
        self.path, self.data, self.offsets, self.ends = path, data, offsets, ends
        self.linenos = linenos       # None: no blank lines, line i is file line i + 1

    def __len__(self) -> int:
        return len(self.offsets)

    @property
    def lines(self) -> "_LineList":
        return _LineList(self)

    def view(self, i: int) -> memoryview:
        return memoryview(self.data)[self.offsets[i]:self.ends[i]]

    def lineno(self, i: int) -> int:
        return i + 1 if self.linenos is None else self.linenos[i]

    def where(self, i: int) -> str:
        return where(self.path, self.lineno(i))


class _LineList:
    __slots__ = ("fl",)

    def __init__(self, fl: FileLines):
        self.fl = fl

    def __len__(self) -> int:
        return len(self.fl.offsets)

    def __getitem__(self, i: int) -> bytes:
        return self.fl.data[self.fl.offsets[i]:self.fl.ends[i]]

    def __iter__(self):
        return (self[i] for i in range(len(self)))


_BLANK_START = frozenset(b" \t\r\n\x0b\x0c")


def read_lines(path: Path) -> FileLines:
    data = path.read_bytes()
    starts: list[int] = []
    ends: list[int] = []
    linenos: list[int] = []
    blank = False
    find, size, pos, lineno = data.find, len(data), 0, 0
    while pos < size:
        nl = find(b"\n", pos)
        if nl < 0:
            nl = size
        lineno += 1
        # a line starting with whitespace may be blank: look closer only then
        if nl > pos and (data[pos] not in _BLANK_START or not data[pos:nl].isspace()):
            starts.append(pos)
            ends.append(nl)
            linenos.append(lineno)
        else:
            blank = True
        pos = nl + 1
    return FileLines(path, data, starts, ends, linenos if blank else None)


def read_line_at(path: Path, offset: int) -> bytes:
    with open(path, "rb") as fh:
        fh.seek(offset)
        return fh.readline()


def parse_line(line: bytes, place: str, path: Path | None = None, lineno: int | None = None) -> dict:
    try:
        rec = loads(line)
    except ValueError as exc:
        raise InputError(f"{place}: malformed JSON: {exc}", path, lineno) from None
    if not isinstance(rec, dict):
        raise InputError(f"{place}: expected a JSON object, got {type(rec).__name__}", path, lineno)
    return rec


def quick_query(line: bytes) -> str | None:
    """The ``query`` of a record without parsing the rest of the line (None if malformed)."""
    m = _QUERY_PREFIX.match(line)
    if m is not None:
        raw = m.group(1)
        return raw.decode("utf-8") if b"\\" not in raw else loads(b'"' + raw + b'"')
    try:
        rec = loads(line)
    except ValueError:
        return None
    return rec.get("query") if isinstance(rec, dict) else None


def _short(text: Any) -> str:
    text = str(text)
    return repr(text if len(text) <= 80 else text[:77] + "...")


# --------------------------------------------------------------------------- records of a condition

class ReleaseRecord:
    """One record of a condition: the parsed lines of its files, matched by position.

    ``fields`` merges them (the first non-null value in ``PRIORITY`` order wins);
    ``places`` names the record's line in each file (for messages).
    """
    __slots__ = ("index", "query", "parsed", "_files", "_fields", "_ordered")

    def __init__(self, index: int, query: str, parsed: dict[str, dict], files: dict[str, "FileLines"] | None = None,
                 places: dict[str, str] | None = None):
        self.index, self.query, self.parsed = index, query, parsed
        self._ordered = [parsed[k] for k in PRIORITY if k in parsed]
        self._files = files
        self._fields: dict | None = None
        if places is not None:
            self._files = {k: _FixedPlace(v) for k, v in places.items()}

    @property
    def fields(self) -> dict:
        if self._fields is None:
            self._fields = merge_fields(self.parsed)
        return self._fields

    def get(self, key: str) -> Any:
        """The first non-null value of ``key`` among the parsed files (cheap ``fields[key]``)."""
        for rec in self._ordered:
            value = rec.get(key)
            if value is not None:
                return value
        return None

    @property
    def places(self) -> dict[str, str]:
        return {kind: fl.where(self.index) for kind, fl in (self._files or {}).items()}

    def place(self, *kinds: str) -> str:
        files = self._files or {}
        for kind in kinds or PRIORITY:
            if kind in files:
                return files[kind].where(self.index)
        return next((fl.where(self.index) for fl in files.values()), f"record {self.index + 1}")


class _FixedPlace:
    def __init__(self, text: str):
        self.text = text

    def where(self, _index: int) -> str:
        return self.text


@dataclass
class LoadLog:
    """What a load skipped and why; shared by every reader of one load."""
    skip_bad: bool = False
    skipped: int = 0
    problems: list[str] = field(default_factory=list)

    def bad(self, exc: InputError) -> None:
        if not self.skip_bad:
            raise exc
        self.skipped += 1
        self.problems.append(f"skipped: {exc}")


def merge_fields(parsed: dict[str, dict]) -> dict:
    merged: dict = {}
    for kind in PRIORITY:
        rec = parsed.get(kind)
        if rec is None:
            continue
        for key, value in rec.items():
            if key == "response" and isinstance(value, dict) and "nugget-assignment" in value:
                if merged.get("nugget-assignment") is None:
                    merged["nugget-assignment"] = value["nugget-assignment"]
            if merged.get(key) is None:
                merged[key] = value
    return merged


def open_condition(source: ConditionSource) -> dict[str, FileLines]:
    """Read the files of a condition and check they hold the same number of records."""
    files = {kind: read_lines(p) for kind, p in source.files.items()}
    ref = files[source.primary()]
    for kind, fl in files.items():
        if len(fl) != len(ref):
            a, b = (ref, fl) if len(ref) > len(fl) else (fl, ref)
            n = len(b)
            raise InputError(
                f"{ref.path} has {len(ref)} records but {fl.path} has {len(fl)}: "
                f"the files of a condition must match line by line; first mismatching line: "
                f"{a.where(n)} has no counterpart in {b.path} (which ends at line "
                f"{b.lineno(n - 1) if n else 0})", fl.path)
    return files


def iter_condition(source: ConditionSource, log: LoadLog, *, full: bool = False,
                   files: dict[str, FileLines] | None = None) -> Iterator[ReleaseRecord]:
    """Stream the records of one condition, checking that its files agree line by line.

    Only the files the metrics need are parsed (new-metric-out, else
    factscore-out, plus nuggets-out); the others are checked for length and
    query cheaply. ``full=True`` parses data.jsonl too (documents, response).
    """
    files = files if files is not None else open_condition(source)
    primary = source.primary()
    parse = [k for k in PRIORITY if k in files and (k in (primary, NUGGETS) or (full and k == DATA))]
    check = [k for k in files if k not in parse]
    ref = files[primary]
    for i in range(len(ref)):
        parsed: dict[str, dict] = {}
        try:
            for kind in parse:
                fl = files[kind]
                try:
                    rec = loads(fl.view(i))
                except ValueError as exc:
                    raise InputError(f"{fl.where(i)}: malformed JSON: {exc}", fl.path, fl.lineno(i)) from None
                if not isinstance(rec, dict):
                    raise InputError(f"{fl.where(i)}: expected a JSON object, got {type(rec).__name__}",
                                     fl.path, fl.lineno(i))
                parsed[kind] = rec
        except InputError as exc:
            log.bad(exc)
            continue
        query = parsed[primary].get("query")
        if not isinstance(query, str):
            log.bad(InputError(f"{ref.where(i)}: record has no 'query' string", ref.path, ref.lineno(i)))
            continue
        bad = False
        for kind in parse:
            if kind != primary and parsed[kind].get("query") != query:
                _query_mismatch(ref, files[kind], i, query, parsed[kind].get("query"))
        prefix = None
        for kind in check:
            fl = files[kind]
            if prefix is None:
                m = _QUERY_PREFIX.match(ref.data, ref.offsets[i], ref.ends[i])
                prefix = m.group(0) if m is not None else b""
            if prefix and fl.data.startswith(prefix, fl.offsets[i], fl.ends[i]):
                continue    # byte-identical query: no need to decode it
            line = fl.lines[i]
            other = quick_query(line)
            if other is None:
                try:
                    parse_line(line, fl.where(i), fl.path, fl.lineno(i))
                except InputError as exc:   # a malformed line in a file we do not otherwise parse
                    log.bad(exc)
                    bad = True
                    break
            if other != query:
                _query_mismatch(ref, fl, i, query, other)
        if not bad:
            yield ReleaseRecord(i, query, parsed, files)


def _query_mismatch(ref: FileLines, fl: FileLines, i: int, query: Any, other: Any) -> None:
    raise InputError(f"query mismatch between {ref.where(i)} ({_short(query)}) and {fl.where(i)} "
                     f"({_short(other)}): the files of a condition must match line by line",
                     fl.path, fl.lineno(i))


def check_variants_agree(group: str, queries: dict[str, tuple[dict[int, str], Callable[[int], str]]]) -> list[str]:
    """Variants of one group are matched by position: their queries must agree.

    ``queries``: condition -> ({index: query}, place(index) -> "file line N").
    Raises on the first disagreement (naming both files and lines); returns
    notes about examples missing from some variants.
    """
    notes: list[str] = []
    conditions = list(queries)
    if len(conditions) < 2:
        return notes
    base_cond = conditions[0]
    base, base_place = queries[base_cond]
    for cond in conditions[1:]:
        other, other_place = queries[cond]
        for i in sorted(set(base) & set(other)):
            if base[i] != other[i]:
                raise InputError(
                    f"query mismatch between {base_place(i)} ({_short(base[i])}) and {other_place(i)} "
                    f"({_short(other[i])}): the {base_cond} and {cond} variants of {group} are "
                    f"matched by position and must hold the same queries")
        lengths = (max(base, default=-1) + 1, max(other, default=-1) + 1)
        if lengths[0] != lengths[1]:
            notes.append(f"{group}: {base_cond} has {lengths[0]} records and {cond} has {lengths[1]}; "
                         f"examples beyond the shorter one lack that variant")
    return notes


@dataclass
class ConditionScan:
    """What the frame needs from one condition: per-record identity, label codes, line offsets."""
    index: list[int]
    query: list[str]
    response_id: list[str]
    batch: BatchBuilder
    offsets: dict[str, list[int]]
    primary: Path
    linenos: list[int] | None
    skipped: int = 0
    problems: list[str] = field(default_factory=list)

    def place(self, i: int) -> str:
        return where(self.primary, i + 1 if self.linenos is None else self.linenos[i])


def scan_condition(source: ConditionSource, skip_bad: bool) -> ConditionScan:
    """Read one condition for the frame: check its files, extract every record's label codes.

    A top-level function so that ``dataset`` can run it in worker processes.
    """
    log = LoadLog(skip_bad=skip_bad)
    files = open_condition(source)
    batch = BatchBuilder()
    add_codes = batch.add_codes
    index: list[int] = []
    query: list[str] = []
    response_id: list[str] = []
    for rec in iter_condition(source, log, files=files):
        try:
            codes = record_codes(rec)
        except InvalidLabelError as exc:
            log.bad(InputError(str(exc)))
            continue
        add_codes(codes.tiers, codes.verdicts, codes.ranks, codes.nugget_tiers, codes.assignment)
        index.append(rec.index)
        query.append(rec.query)
        response_id.append(codes.response_id)
    primary = files[source.primary()]
    return ConditionScan(index, query, response_id, batch.freeze(),
                         {kind: fl.offsets for kind, fl in files.items()}, primary.path, primary.linenos,
                         log.skipped, log.problems)


# --------------------------------------------------------------------------- record -> codes / model

# raw value -> code; filled as values are met (unknown values go through the
# model's normalise_* functions once, which raise for a value outside the set)
_TIER_MEMO: dict[Any, int] = {v: c for v, c in TIER_CODE.items()}
_TIER_MEMO[None] = TIER_CODE[UNLABELLED]
_VERDICT_MEMO: dict[Any, int] = {True: VERDICT_CODE[SUPPORTED], False: VERDICT_CODE[NOT_ENOUGH_EVIDENCE],
                                 None: VERDICT_CODE[NOT_JUDGED]}
_NUGGET_TIER_MEMO: dict[Any, int] = {"vital": 0, "okay": 1}
_ASSIGN_MEMO: dict[Any, int] = {v: c for v, c in ASSIGNMENT_CODE.items() if v is not None}


def _tier_code(value: Any, place: Callable[[], str]) -> int:
    code = TIER_CODE[normalise_importance(value, where=place())]
    if isinstance(value, str):
        _TIER_MEMO[value] = code
    return code


def _verdict_code(value: Any, place: Callable[[], str]) -> int:
    code = VERDICT_CODE[normalise_verdict(value, where=place())]
    if isinstance(value, str):
        _VERDICT_MEMO[value] = code
    return code


def _nugget_tier_code(value: Any, place: Callable[[], str]) -> int:
    label = str(value).strip().lower()
    if label not in NUGGET_IMPORTANCE:
        raise InvalidLabelError(f"unknown nugget importance {value!r} in {place()}; "
                                f"expected one of {', '.join(NUGGET_IMPORTANCE)}")
    code = NUGGET_IMPORTANCE.index(label)
    if isinstance(value, str):
        _NUGGET_TIER_MEMO[value] = code
    return code


def _assign_code(value: Any, place: Callable[[], str]) -> int:
    code = ASSIGNMENT_CODE[normalise_assignment(value, where=place())]
    if isinstance(value, str):
        _ASSIGN_MEMO[value] = code
    return code


class RecordCodes:
    """A record's labels as integer codes (see ``metrics.TIER_CODE`` etc.) plus its subclaim dicts."""
    __slots__ = ("items", "sentences", "tiers", "verdicts", "ranks", "nuggets", "nugget_tiers", "assignment",
                 "response_id")

    def scoring_input(self) -> ScoringInput:
        order = None
        if self.ranks is not None:
            order = sorted(range(len(self.ranks)), key=self.ranks.__getitem__)
        return ScoringInput([TIERS_BY_CODE[t] for t in self.tiers], [VERDICTS_BY_CODE[v] for v in self.verdicts],
                            order, None if self.nugget_tiers is None else [NUGGET_IMPORTANCE[t] for t in self.nugget_tiers],
                            None if self.assignment is None else [ASSIGNMENTS_BY_CODE[a] for a in self.assignment],
                            evidence_mode=EVIDENCE_UNKNOWN)


def _claims_fast(decomposition: Any) -> tuple[list[int], list[int], list[Any]] | None:
    """The common case in a few list comprehensions: well-formed sentences with known labels.

    Returns None when anything is unusual; the careful path then handles it.
    """
    tmemo, vmemo = _TIER_MEMO, _VERDICT_MEMO
    try:
        claims = [d for sent in decomposition for d in sent["decomp"]]
        return ([tmemo[d.get("importance")] for d in claims], [vmemo[d["judgment"]] for d in claims],
                [d.get("id") for d in claims])
    except (KeyError, TypeError, AttributeError):
        return None


def _claims_careful(rec: ReleaseRecord, place: Callable[[], str], keep_items: bool):
    tmemo, vmemo = _TIER_MEMO, _VERDICT_MEMO
    tiers: list[int] = []
    verdicts: list[int] = []
    ids: list[Any] = []
    items: list[dict] = []
    sentences: list[tuple[int, str]] = []
    for s_index, sent in enumerate(rec.get("decomposition") or ()):
        if isinstance(sent, dict):
            decomp = sent.get("decomp") or ()
        else:   # a bare list of claims
            decomp = sent if isinstance(sent, list) else [sent]
        for d in decomp:
            if not isinstance(d, dict):
                d = {"text": str(d)}
            imp = d.get("importance")
            try:
                tiers.append(tmemo[imp])
            except (KeyError, TypeError):
                tiers.append(_tier_code(imp, place))
            j = d["judgment"] if "judgment" in d else d.get("verdict")
            try:
                verdicts.append(vmemo[j])
            except (KeyError, TypeError):
                verdicts.append(_verdict_code(j, place))
            ids.append(d.get("id"))
            if keep_items:
                items.append(d)
                sentences.append((s_index, str(sent.get("sentence") or "") if isinstance(sent, dict) else ""))
    return tiers, verdicts, ids, items, sentences


def _ranks(ids: list[Any], ranked: list) -> list[int]:
    """1-based rank of each subclaim in the importance order; ids missing from it follow, in response order."""
    n = len(ids)
    try:   # the common case: string ids, the order a permutation of them
        position = dict(zip(ids, range(n)))
        ks = [position[x] for x in ranked]
        if len(ks) == n == len(position) == len(set(ks)) and None not in position:
            ranks = [0] * n
            for r, k in enumerate(ks, start=1):
                ranks[k] = r
            return ranks
    except (KeyError, TypeError):
        pass
    sids = [x if isinstance(x, str) else (str(x) if x is not None else f"S{k + 1}") for k, x in enumerate(ids)]
    position = {sid: k for k, sid in enumerate(sids)}
    ranks = [0] * n
    r = 0
    for x in ranked:
        k = position.get(x if isinstance(x, str) else str(x))
        if k is not None and not ranks[k]:
            r += 1
            ranks[k] = r
    if r < n:
        for k in range(n):
            if not ranks[k]:
                r += 1
                ranks[k] = r
    return ranks


def record_codes(rec: ReleaseRecord, keep_items: bool = False) -> RecordCodes:
    """Extract the metrics' input from a raw record (the hot loop of loading the release).

    Raises InvalidLabelError (naming the file and line) for an unknown label.
    """
    place = lambda: rec.place(NEW_METRIC, RECORDS, FACTSCORE)   # noqa: E731 - built only on error
    fast = None if keep_items else _claims_fast(rec.get("decomposition") or ())
    if fast is not None:
        tiers, verdicts, ids = fast
        items, sentences = [], []
    else:
        tiers, verdicts, ids, items, sentences = _claims_careful(rec, place, keep_items)
    out = RecordCodes()
    out.items, out.sentences, out.tiers, out.verdicts = items, sentences, tiers, verdicts
    ranked = rec.get("subclaim-importance-order")
    out.ranks = _ranks(ids, ranked) if ranked and ids else None
    nuggets = rec.get("nuggets")
    out.nuggets = out.nugget_tiers = out.assignment = None
    if nuggets is not None:
        nuggets = nuggets if isinstance(nuggets, list) else []
        nplace = lambda: rec.place(NUGGETS, RECORDS, NEW_METRIC)   # noqa: E731
        nmemo = _NUGGET_TIER_MEMO
        try:
            ntiers = [nmemo[n["importance"]] for n in nuggets]
        except (KeyError, TypeError):
            ntiers = []
            for n in nuggets:
                imp = n.get("importance") if isinstance(n, dict) else None
                try:
                    ntiers.append(nmemo[imp])
                except (KeyError, TypeError):
                    ntiers.append(_nugget_tier_code(imp, nplace))
        out.nuggets, out.nugget_tiers = nuggets, ntiers
        raw = _raw_assignment(rec)
        if raw is not None:
            if isinstance(raw, dict):   # nugget id -> value
                nids = [str(n.get("id", f"N{i}")) if isinstance(n, dict) else f"N{i}" for i, n in enumerate(nuggets)]
                raw = [raw.get(i) for i in nids]
                out.assignment = [3 if a is None else _assign_lookup(a, nplace) for a in raw]
            else:
                if len(raw) != len(nuggets):
                    raise InvalidLabelError(f"{nplace()}: {len(nuggets)} nuggets but {len(raw)} "
                                            f"nugget-assignment values")
                try:
                    out.assignment = [_ASSIGN_MEMO[a] for a in raw]
                except (KeyError, TypeError):
                    out.assignment = [_assign_lookup(a, nplace) for a in raw]
    response = rec.get("response")
    out.response_id = str(response.get("id", "")) if isinstance(response, dict) else ""
    return out


def _assign_lookup(value: Any, place: Callable[[], str]) -> int:
    try:
        return _ASSIGN_MEMO[value]
    except (KeyError, TypeError):
        return _assign_code(value, place)


def _raw_assignment(rec: ReleaseRecord) -> Any:
    for r in rec._ordered:
        resp = r.get("response")
        if isinstance(resp, dict) and resp.get("nugget-assignment") is not None:
            return resp["nugget-assignment"]
        if r.get("nugget-assignment") is not None:
            return r["nugget-assignment"]
    return None


def merge_condition(example: ExampleResult | None, example_id: str, rec, source, response: ResponseResult,
                    nuggets) -> ExampleResult:
    """Add one condition's record to its example, creating the example on first sight."""
    if example is None:
        example = ExampleResult(id=example_id, query=rec.query, dataset=source.dataset, subset=source.subset,
                                query_type=source.query_type, documents=documents_from(rec.get("documents")))
    elif not example.documents:
        example.documents = documents_from(rec.get("documents"))
    if nuggets is not None and example.nuggets is None:
        example.nuggets = nuggets
    example.variants[source.condition] = response
    return example


def documents_from(raw: Any) -> list[Document]:
    """Documents in any release shape: {id,text}, {text} (factscore) or {status_code,text,url}."""
    docs = []
    for i, d in enumerate(raw or []):
        if isinstance(d, dict):
            docs.append(Document(id=str(d.get("id") or f"D{i + 1}"), text=str(d.get("text") or ""),
                                 title=str(d.get("title") or d.get("url") or "")))
        else:
            docs.append(Document(id=f"D{i + 1}", text=str(d)))
    return docs


def response_from_record(rec: ReleaseRecord, condition: str) -> tuple[ResponseResult, list[Nugget] | None]:
    """The full ``ResponseResult`` (and the example's nuggets) of one record."""
    codes = record_codes(rec, keep_items=True)
    subclaims = [Subclaim(id=str(d.get("id") or f"S{k + 1}"), text=str(d.get("text") or ""),
                          sentence_index=s_index, sentence=sentence, importance=TIERS_BY_CODE[codes.tiers[k]],
                          verdict=VERDICTS_BY_CODE[codes.verdicts[k]], reason=str(d.get("reason") or ""),
                          evidence=str(d.get("evidence") or ""))
                 for k, (d, (s_index, sentence)) in enumerate(zip(codes.items, codes.sentences))]
    order: list[str] = []
    if codes.ranks is not None:
        for k, rank in enumerate(codes.ranks):
            subclaims[k].rank = rank
        order = [s.id for s in sorted(subclaims, key=lambda s: s.rank)]
    nuggets = None
    assignment = None
    if codes.nugget_tiers is not None:
        nuggets = [Nugget(id=str(n.get("id", f"N{i}")) if isinstance(n, dict) else f"N{i}",
                          text=str(n.get("text") or "") if isinstance(n, dict) else str(n),
                          importance=NUGGET_IMPORTANCE[t])
                   for i, (n, t) in enumerate(zip(codes.nuggets, codes.nugget_tiers))]
        if codes.assignment is not None:
            assignment = {n.id: ASSIGNMENTS_BY_CODE[a] for n, a in zip(nuggets, codes.assignment) if a != 3}
    response = rec.get("response")
    text = str(response.get("text") or "") if isinstance(response, dict) else str(response or "")
    n2s = rec.get("N2S")
    result = ResponseResult(variant=condition, text=text, subclaims=subclaims, order=order,
                            nugget_assignment=assignment, evidence_mode=EVIDENCE_UNKNOWN,
                            response_id=codes.response_id, n2s=n2s if isinstance(n2s, dict) else None)
    return result, nuggets


# --------------------------------------------------------------------------- original.jsonl

def normalised_query(query: str) -> str:
    text = strip_generation_prefix(query or "")
    return " ".join(text.casefold().split()).rstrip("?.! ")


@dataclass
class OriginalRecord:
    query: str
    documents: list[Document]
    reference: str | None


def read_original(path: Path, log: LoadLog) -> list[OriginalRecord | None]:
    """original.jsonl: the query, its documents and (when given) the gold response."""
    out: list[OriginalRecord | None] = []
    fl = read_lines(path)
    for i, line in enumerate(fl.lines):
        try:
            rec = parse_line(line, fl.where(i), fl.path, fl.lineno(i))
        except InputError as exc:
            log.bad(exc)
            out.append(None)
            continue
        gold = rec.get("gold_response")
        if isinstance(gold, list):
            gold = "\n".join(str(g) for g in gold)
        out.append(OriginalRecord(str(rec.get("query") or ""), documents_from(rec.get("documents")),
                                  None if gold is None else str(gold)))
    return out


def match_original(originals: list[OriginalRecord | None], queries: dict[int, str]) -> dict[int, OriginalRecord]:
    """Pair examples with original.jsonl records: by position when the queries agree, else by query.

    original.jsonl may hold the bare query while the condition files hold the
    generation prompt, so queries are compared without the prompt prefix.
    """
    def same(a: str, b: str) -> bool:
        na, nb = normalised_query(a), normalised_query(b)
        return bool(na) and bool(nb) and (na == nb or na in nb or nb in na)

    matched: dict[int, OriginalRecord] = {}
    by_query: dict[str, OriginalRecord] | None = None
    for i, query in queries.items():
        orig = originals[i] if i < len(originals) else None
        if orig is not None and same(orig.query, query):
            matched[i] = orig
            continue
        if by_query is None:
            by_query = {normalised_query(o.query): o for o in originals if o is not None}
        found = by_query.get(normalised_query(query))
        if found is not None:
            matched[i] = found
    return matched


# --------------------------------------------------------------------------- own results format

def iter_results_file(path: Path, log: LoadLog) -> Iterator[ExampleResult]:
    fl = read_lines(path)
    for i, line in enumerate(fl.lines):
        place = fl.where(i)
        try:
            rec = parse_line(line, place, fl.path, fl.lineno(i))
            fmt = rec.get("format")
            if fmt is not None and fmt != RESULTS_FORMAT:
                raise InputError(f"{place}: unsupported results format {fmt!r} (this version reads "
                                 f"{RESULTS_FORMAT!r})", fl.path, fl.lineno(i))
            example = ExampleResult.from_dict(rec, where=place)
        except InvalidLabelError as exc:
            log.bad(InputError(str(exc), fl.path, fl.lineno(i)))
            continue
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                log.bad(exc)
            else:
                log.bad(InputError(f"{place}: not a valid results record ({type(exc).__name__}: {exc})",
                                   fl.path, fl.lineno(i)))
            continue
        if not example.id:
            example.id = f"{path.stem}/{i}"
        yield example


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
            except InvalidLabelError as exc:
                log.bad(InputError(str(exc)))
                continue
            seen[rec.index] = rec.query
            places[rec.index] = rec.place(source.primary())
            examples[rec.index] = merge_condition(examples.get(rec.index), f"{group}/{rec.index}", rec,
                                                  source, response, nuggets)
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
    for file in found.results_files:
        examples.extend(iter_results_file(file, log))
    source, kind = describe(found, path)
    return LoadResult(examples, log.skipped, log.problems, source, kind, str(path))
