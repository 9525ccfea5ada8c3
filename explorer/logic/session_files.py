"""Uploaded files on disk for one browser session, and messages that name them as the person does.

The loaders read a results file by path (and reopen it to show an example), so an upload is written
into a temporary folder of its session. The folder is removed when the session's state is dropped
(Streamlit drops it when the session ends) or when the server exits, whichever comes first; a new
upload replaces the session's previous one. Messages never show the temporary path: it is replaced
by the uploaded file's name.
"""
from __future__ import annotations

import re
import shutil
import tempfile
import weakref
from pathlib import Path

PREFIX = "vital-session-"
_SAFE_NAME = re.compile(r"[^\w.\- ]+")


class SessionFolder:
    """A temporary folder that lives as long as this object (kept in one session's state)."""

    def __init__(self) -> None:
        self.path = Path(tempfile.mkdtemp(prefix=PREFIX)).resolve()
        self._remove = weakref.finalize(self, shutil.rmtree, str(self.path), True)

    def place(self, name: str, data: bytes) -> Path:
        """Write an upload as the folder's only file, under its own (cleaned) name."""
        for old in self.path.iterdir():
            shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink(missing_ok=True)
        clean = _SAFE_NAME.sub("_", Path(name).name).strip(". ") or "upload.jsonl"
        target = self.path / clean
        target.write_bytes(data)
        return target

    def remove(self) -> None:
        self._remove()


def name_in_message(message: str, target: Path, name: str) -> str:
    """A loader's message about the file at ``target`` with the upload's ``name`` in place of its path."""
    for text in sorted({str(target), str(target.resolve())}, key=len, reverse=True):
        message = message.replace(text, name)
    return message.replace(str(target.parent), "the upload")
