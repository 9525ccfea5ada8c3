"""The one rule for every file this project writes or deletes.

Writing: a file is written only when it is absent or recognised as this project's own output *of that
kind* - by a marker the project wrote into it (a format tag, a metadata key), or by an entry in the
folder's own index - never through a symbolic link, and never onto a file (or into a folder) the same
run reads. Deleting: only files the project created, recorded in the folder's index with the size and
time they had when written (a file a person put there since, under the same name, is not ours).
Everything else is refused with one sentence naming the file and the option that chooses another; not
one byte of it changes.
"""
from __future__ import annotations

import json
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator

from vital_core.files.atomic import atomic_replace
from vital_core.files.errors import InputError


@dataclass(frozen=True)
class OutputKind:
    """One kind of output: what it is called and how an existing file is recognised as one."""
    name: str                                   # "a results file", "an export" - for messages
    option: str                                 # the option that chooses another file: "--out", "--figures"
    is_own: Callable[[Path], bool] | None       # None: the writer recognises the file itself (line by line)


def refusal(path: Path, why: str, option: str) -> InputError:
    return InputError(f"{path}: {why}; choose another {option} (nothing was written)", path)


def has_marker(marker: bytes, head: int = 1 << 16) -> Callable[[Path], bool]:
    """A recogniser: the file's first ``head`` bytes hold ``marker`` (a tag only this project writes)."""
    def is_own(path: Path) -> bool:
        try:
            with path.open("rb") as handle:
                return marker in handle.read(head)
        except OSError:
            return False
    return is_own


def _same_or_inside(path: Path, other: Path) -> bool:
    """``path`` is ``other`` (the same file, by any name) or lies in the folder ``other``."""
    try:
        if path.exists() and other.exists() and os.path.samefile(path, other):
            return True
        target, other = path.resolve(), other.resolve()
    except OSError:
        return False
    return other.is_dir() and (target == other or other in target.parents)


def check_target(path: str | Path, kind: OutputKind, avoid: Iterable[tuple[Path, str]] = ()) -> Path:
    """Refuse (``InputError``, nothing changed) a path this project may not write as ``kind``.

    ``avoid``: (path, what it is) of the files and folders the run reads or writes otherwise, e.g.
    ``(input, "the input of this run")`` - the output may be none of them nor lie in one of those folders.
    """
    path = Path(path)
    if path.is_symlink():
        raise refusal(path, "is a symbolic link, and this project never writes through one", kind.option)
    for other, what in avoid:
        if _same_or_inside(path, Path(other)):
            where = "is" if not Path(other).is_dir() else "lies in"
            raise refusal(path, f"{where} {what}", kind.option)
    if path.is_dir():
        raise refusal(path, "is a folder", kind.option)
    if path.exists() and not path.is_file():
        raise refusal(path, "is not a regular file", kind.option)
    if kind.is_own is not None and path.exists() and path.stat().st_size and not kind.is_own(path):
        raise refusal(path, f"exists and is not {kind.name} of this project", kind.option)
    return path


@contextmanager
def replace_output(path: str | Path, kind: OutputKind, mode: str = "w",
                   avoid: Iterable[tuple[Path, str]] = ()) -> Iterator[IO]:
    """``with replace_output(path, kind) as fh``: checked by the rule, then replaced all at once."""
    path = check_target(path, kind, avoid)
    with atomic_replace(path, mode) as handle:
        yield handle


def remove_own(path: Path, kind: OutputKind) -> bool:
    """Delete ``path`` only when it is recognised as this project's ``kind``; True when it was deleted."""
    if path.is_symlink() or not path.is_file() or kind.is_own is None or not kind.is_own(path):
        return False
    path.unlink(missing_ok=True)
    return True


# --------------------------------------------------------------------------- a folder's own index

INDEX_NAME = ".vital-explorer-files.json"
INDEX_FORMAT = "vital-explorer-own-files/1"


def _stamp(path: Path) -> list[int] | None:
    try:
        st = path.lstat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino] if path.is_file() and not path.is_symlink() else None


class OwnIndex:
    """The files this project created in one folder (a cache), with the size, time and inode each had when
    written, and when each was last used. Only they are overwritten or deleted there.

    Use as ``with OwnIndex(folder, "--cache-dir") as index:`` - the folder is locked meanwhile, so two
    processes sharing it (the app and a command) never lose each other's entries.
    """

    def __init__(self, folder: Path, option: str):
        self.folder, self.option = Path(folder), option
        self.path = self.folder / INDEX_NAME
        self.files: dict[str, dict] = {}
        self._lock: int | None = None
        self._changed = False

    def __enter__(self) -> "OwnIndex":
        self.folder.mkdir(parents=True, exist_ok=True)   # a linked folder is a person's choice: files in it are checked
        self._lock = os.open(self.folder, os.O_RDONLY)
        try:
            import fcntl
            fcntl.flock(self._lock, fcntl.LOCK_EX)
        except ImportError:  # pragma: no cover - no flock on this platform
            pass
        try:
            self._read()
        except BaseException:
            self._unlock()
            raise
        return self

    def _read(self) -> None:
        if self.path.is_symlink() or (self.path.exists() and not self.path.is_file()):
            raise refusal(self.path, "is not this project's index of its files", self.option)
        if not self.path.exists():
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT or not isinstance(data.get("files"), dict):
            raise refusal(self.path, "exists and is not this project's index of its files", self.option)
        self.files = {name: entry for name, entry in data["files"].items()
                      if isinstance(entry, dict) and isinstance(entry.get("stamp"), list)}

    def __exit__(self, *exc) -> None:
        try:
            if self._changed and exc[0] is None:
                with atomic_replace(self.path) as handle:
                    json.dump({"format": INDEX_FORMAT, "files": self.files}, handle)
        finally:
            self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def owns(self, path: Path) -> bool:
        """``path`` is a file of this folder the project wrote, unchanged since."""
        entry = self.files.get(path.name)
        return path.parent == self.folder and entry is not None and _stamp(path) == entry["stamp"]

    def target(self, name: str, kind_name: str) -> Path:
        """The path of ``name`` in the folder, refused when a file there is not one this project wrote."""
        path = self.folder / name
        if path.is_symlink():
            raise refusal(path, "is a symbolic link, and this project never writes through one", self.option)
        if path.exists() and not self.owns(path):
            raise refusal(path, f"exists and is not {kind_name} of this project", self.option)
        return path

    @contextmanager
    def replace(self, name: str, kind_name: str, mode: str = "w") -> Iterator[IO]:
        """Write ``name`` all at once (only over a file of the index), then record it."""
        path = self.target(name, kind_name)
        with atomic_replace(path, mode) as handle:
            yield handle
        self.record(path)

    def record(self, path: Path, used: float | None = None) -> None:
        stamp = _stamp(path)
        if stamp is not None:
            self.files[path.name] = {"stamp": stamp, "used": used if used is not None else stamp[1] / 1e9}
            self._changed = True

    def touch(self, path: Path, now: float) -> None:
        """Mark a file as just used (the budget removes the least recently used first)."""
        if self.owns(path):
            self.files[path.name]["used"] = now
            self._changed = True

    def remove(self, name: str) -> bool:
        """Delete ``name`` when the project wrote it and it is unchanged; forget it either way."""
        path = self.folder / name
        gone = False
        if self.owns(path):
            path.unlink(missing_ok=True)
            gone = True
        if self.files.pop(name, None) is not None:
            self._changed = True
        return gone

    def owned(self) -> dict[str, dict]:
        """The entries whose file is still there and unchanged (the others are forgotten)."""
        stale = [name for name in self.files if not self.owns(self.folder / name)]
        for name in stale:
            del self.files[name]
        self._changed |= bool(stale)
        return self.files
