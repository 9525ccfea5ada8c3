"""Errors for bad input data (files, lines, fields), shared by loaders and commands."""
from __future__ import annotations

from pathlib import Path


class InputError(ValueError):
    """Bad input data. The message names the file and line (or the field) at fault.

    ``path`` and ``line`` (1-based) are kept for callers that want to point at
    the spot themselves; either may be None when the problem is not tied to one.
    """

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        super().__init__(message)
        self.path = None if path is None else str(path)
        self.line = line

    def __reduce__(self):   # keep path and line when raised in a worker process
        return (type(self), (str(self), self.path, self.line))


def where(path: str | Path, line: int | None = None) -> str:
    """``"file.jsonl line 12"``: how every message names a place in a file."""
    return f"{path} line {line}" if line is not None else str(path)
