"""The records of one condition: its files read line by line, matched by position and
checked to agree on the query, and merged into one ReleaseRecord per line."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from vital_core.files.errors import InputError, where
from vital_core.files.text_input import BOM
from vital_core.loaders.discover import (
    _QUERY_PREFIX,
    DATA,
    FACTSCORE,
    NUGGETS,
    PRIORITY,
    RECORDS,
    ConditionSource,
    loads,
)

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
    find, size, pos, lineno = data.find, len(data), len(BOM) if data.startswith(BOM) else 0, 0   # BOM: skipped
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


_SCORE_KEY = re.compile(rb'"score"\s*:\s*(null|-?[0-9][0-9.eE+-]*)')


def released_score(rec: ReleaseRecord) -> float | None:
    """The FactScore ``score`` of a factscore-out record (None: absent or null), read without parsing the
    whole line when the key occurs once; the paper's FactScore column is built from it."""
    if FACTSCORE in rec.parsed:
        value = rec.parsed[FACTSCORE].get("score")
    elif isinstance((rec._files or {}).get(FACTSCORE), FileLines):
        line = rec._files[FACTSCORE].lines[rec.index]
        found = _SCORE_KEY.findall(line)
        if len(found) == 1:
            value = None if found[0] == b"null" else float(found[0])
        else:
            try:
                parsed = loads(line)
            except ValueError:
                return None
            value = parsed.get("score") if isinstance(parsed, dict) else None
    else:
        return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _short(text: Any) -> str:
    text = str(text)
    return repr(text if len(text) <= 80 else text[:77] + "...")


# --------------------------------------------------------------------------- records of a condition

class ReleaseRecord:
    """One record of a condition: the parsed lines of its files, matched by position.

    ``get`` reads a field from them (the first non-null value in ``PRIORITY`` order wins);
    ``places`` names the record's line in each file (for messages).
    """
    __slots__ = ("index", "query", "parsed", "_files", "_ordered")

    def __init__(self, index: int, query: str, parsed: dict[str, dict], files: dict[str, "FileLines"] | None = None,
                 places: dict[str, str] | None = None):
        self.index, self.query, self.parsed = index, query, parsed
        self._ordered = [parsed[k] for k in PRIORITY if k in parsed]
        self._files = files
        if places is not None:
            self._files = {k: _FixedPlace(v) for k, v in places.items()}

    def get(self, key: str) -> Any:
        """The first non-null value of ``key`` among the parsed files."""
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
        problem = _primary_problem(parsed[primary], primary, ref, i)
        if problem is not None:
            log.bad(problem)
            continue
        query = parsed[primary]["query"]
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


def _primary_problem(rec: dict, kind: str, ref: FileLines, i: int) -> InputError | None:
    """What makes a condition's primary record unusable: a line of another format (``responses``,
    ``variants``) in a file of official records, or no query string."""
    foreign = next((k for k in ("responses", "variants") if k in rec), None) if kind == RECORDS else None
    if foreign:
        return InputError(f"{ref.where(i)}: this line has {foreign!r} but the file's first record is in the "
                          "official record shape; one file holds one kind of record", ref.path, ref.lineno(i))
    if not isinstance(rec.get("query"), str):
        return InputError(f"{ref.where(i)}: record has no 'query' string", ref.path, ref.lineno(i))
    return None


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
