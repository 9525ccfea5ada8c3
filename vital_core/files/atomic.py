"""Replace a file all at once: write a temporary file beside it, fsync, rename.

A reader (or a run killed midway) sees either the old file or the new one,
never a half-written one. The new file keeps the old one's permissions (a new
file gets the usual ones under the umask, not the temporary file's 600).
"""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


NEW_FILE_MODE = 0o666 & ~_umask()   # read once, at import: changing the umask is process-wide


@contextmanager
def atomic_replace(path: Path | str, mode: str = "w") -> Iterator[IO]:
    """``with atomic_replace(path) as fh: fh.write(...)``; ``mode`` is "w" (UTF-8 text) or "wb"."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode_bits = path.stat().st_mode & 0o7777 if path.is_file() else NEW_FILE_MODE
    except OSError:
        mode_bits = NEW_FILE_MODE
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, mode_bits)
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
