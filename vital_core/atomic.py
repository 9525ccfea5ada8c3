"""Replace a file all at once: write a temporary file beside it, fsync, rename.

A reader (or a run killed midway) sees either the old file or the new one,
never a half-written one.
"""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator


@contextmanager
def atomic_replace(path: Path | str, mode: str = "w") -> Iterator[IO]:
    """``with atomic_replace(path) as fh: fh.write(...)``; ``mode`` is "w" (UTF-8 text) or "wb"."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
