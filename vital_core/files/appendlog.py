"""An output JSONL file written one whole line at a time, recognised before it is touched.

Each finished record is appended as one complete line written with a single
``os.write`` on an ``O_APPEND`` descriptor and then ``fsync``-ed, so after
Ctrl-C, ``kill -9`` or a power cut the file holds whole records plus at most
one partial last line.

Before anything is written, ``open`` reads the whole file, one line at a time
(the records are not kept: only their ids), and checks that every whole line
is one this program writes (``LineFormat``) with an id used once, and that a
partial last line is the start of one. Only then is that partial line cut off.
Any other file - a config file, notes, another program's JSON - is refused with
one sentence naming the file and line, and not one byte of it changes.
"""
from __future__ import annotations

import errno
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from vital_core.files.atomic import atomic_replace
from vital_core.files.errors import InputError, where

LEAVE = "the file was left unchanged; choose another --out"


@dataclass(frozen=True)
class LineFormat:
    """What the lines of one kind of output look like, so that a file is recognised as that output."""
    name: str                          # "results file" - for messages
    is_own: Callable[[dict], bool]     # a parsed line this program could have written
    prefix: bytes                      # how every line this program writes begins
    needs: str                         # what a line must hold, for messages


ANY_RECORDS = LineFormat("JSON Lines file of records", lambda r: isinstance(r.get("id"), (str, int)), b"{",
                         'a JSON object with an "id"')


class OutputBusyError(InputError):
    """Another process is writing the same output file."""


@dataclass
class Existing:
    """What an output file already held: the ids of its records (never the records themselves)."""
    ids: set[str] = field(default_factory=set)
    end: int = 0                 # where the whole lines end (a partial line after it is cut)
    tail: int = 0                # bytes of a partial last line


def _lock(fd: int) -> None:
    """Lock ``fd`` exclusively without waiting; OSError when another process holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock on this platform
        return
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def compact_json(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _record_id(record: dict) -> str:
    return str(record["id"])


class AppendOnlyJsonl:
    """A JSONL output of one ``LineFormat``, locked (one writer at a time), appended to line by line."""

    def __init__(self, path: str | Path, lines: LineFormat = ANY_RECORDS):
        self.path = Path(path)
        self.lines = lines
        self._fd: int | None = None

    # ------------------------------------------------------------ open: recognise, then recover
    def open(self, visit: Callable[[dict, int], None] | None = None) -> Existing:
        """Lock the file, check every line (``visit(record, line)`` may refuse one too), then cut a
        partial last line. Raises ``InputError`` - with the file unchanged - for a file that is not ours."""
        if self.path.exists() and not self.path.is_file():
            raise InputError(f"{self.path} is not a regular file; {LEAVE}", self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0),
                               0o666)   # never through a link; the umask decides as for any new file
        except OSError as exc:
            raise InputError(f"{self.path}: cannot write here ({exc.strerror or exc}); choose another --out",
                             self.path) from None
        try:
            _lock(self._fd)
        except OSError as exc:
            self.close()
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise OutputBusyError(f"{self.path}: another run is writing this file; wait for it "
                                      "or choose another --out", self.path) from None
            raise
        try:
            existing = self._scan(visit)
            if existing.tail:  # a line cut short by a crash: it was never a finished record
                os.truncate(self.path, existing.end)
        except BaseException:
            self.close()
            raise
        return existing

    def _refuse(self, line_no: int, why: str) -> InputError:
        return InputError(f"{where(self.path, line_no)}: {why}, so this is not a {self.lines.name} this command "
                          f"wrote; {LEAVE}", self.path, line_no)

    def _parse(self, raw: bytes, line_no: int) -> dict:
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            raise self._refuse(line_no, "the line is not JSON") from None
        if not isinstance(record, dict) or "id" not in record or not self.lines.is_own(record):
            raise self._refuse(line_no, f"the line is not {self.lines.needs}")
        return record

    def _check_tail(self, raw: bytes, line_no: int) -> None:
        """A last line without a newline: ours only if it is the start of a line this program writes."""
        try:
            json.loads(raw)
        except (ValueError, RecursionError):
            prefix, start = self.lines.prefix, raw[:256].replace(b" ", b"")   # spacing aside
            if start[:len(prefix)] == prefix[:len(start)]:
                return
            raise self._refuse(line_no, "the last line is neither whole nor the start of a record") from None
        self._parse(raw, line_no)   # whole JSON without its newline: ours (cut, redone) or refused

    def _scan(self, visit: Callable[[dict, int], None] | None) -> Existing:
        existing = Existing()
        first_line: dict[str, int] = {}
        with open(self.path, "rb") as fh:
            for line_no, raw in enumerate(fh, start=1):
                if not raw.endswith(b"\n"):
                    self._check_tail(raw, line_no)
                    existing.tail = len(raw)
                    break
                existing.end += len(raw)
                if not raw.strip():
                    continue
                record = self._parse(raw, line_no)
                rid = _record_id(record)
                if rid in first_line:
                    raise InputError(f"{where(self.path, line_no)}: id {rid!r} already used at line "
                                     f"{first_line[rid]}; ids must be unique; {LEAVE}", self.path, line_no)
                first_line[rid] = line_no
                if visit is not None:
                    visit(record, line_no)
        if existing.end and not first_line:
            raise self._refuse(1, "it holds only blank lines")
        existing.ids = set(first_line)
        return existing

    # ------------------------------------------------------------ reading back, line by line
    def _whole_lines(self) -> Iterator[tuple[str, int, int]]:
        """(id, offset, length) of every record line, streamed."""
        offset = 0
        with open(self.path, "rb") as fh:
            for raw in fh:
                if raw.strip() and raw.endswith(b"\n"):
                    yield _record_id(json.loads(raw)), offset, len(raw)
                offset += len(raw)

    # ------------------------------------------------------------ writing
    def append(self, record: dict, transform: Callable[[str], str] | None = None) -> None:
        """Write one record as one line: a single write on an O_APPEND descriptor, then fsync.

        ``transform`` may rewrite the serialised line (the command uses it to redact a key).
        """
        assert self._fd is not None, "open() first"
        text = compact_json(record)
        if transform is not None:
            text = transform(text)
        data = (text + "\n").encode("utf-8")
        written = os.write(self._fd, data)
        while written < len(data):  # regular files do not short-write in practice; be safe anyway
            written += os.write(self._fd, data[written:])
        os.fsync(self._fd)

    def drop(self, ids: set[str]) -> None:
        """Remove the lines of ``ids`` (atomically), copying the others as they are."""
        if ids:
            self._copy(span for span in self._whole_lines() if span[0] not in ids)

    def reorder(self, wanted: list[str]) -> bool:
        """Put the lines of ``wanted`` first, in that order, then any others; False when one is missing."""
        spans = {rid: (offset, length) for rid, offset, length in self._whole_lines()}
        if not all(rid in spans for rid in wanted):
            return False
        wanted_set = set(wanted)
        order = list(wanted) + [rid for rid in spans if rid not in wanted_set]
        if order != list(spans):
            self._copy((rid, *spans[rid]) for rid in order)
        return True

    def _copy(self, spans: Iterable[tuple[str, int, int]]) -> None:
        """Replace the file with the given line spans of itself (temporary file, fsync, rename)."""
        with open(self.path, "rb") as src, atomic_replace(self.path, "wb") as dst:
            for _, offset, length in spans:
                src.seek(offset)
                dst.write(src.read(length))
        old = self._fd   # keep appending (and holding the lock) on the new file
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            _lock(self._fd)
        except OSError:
            pass
        if old is not None:
            os.close(old)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
