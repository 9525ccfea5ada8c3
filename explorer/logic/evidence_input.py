"""Evidence documents a person pastes or uploads, parsed into ``Document`` objects.

Pasted text: documents separated by a line holding only ``---``. Uploaded
``.txt``: one document per file. Uploaded ``.jsonl``: one document per line,
either a string or an object with ``text`` (and optional ``id``, ``title``).
Bad input raises ``InputError`` naming the file and line; nothing is dropped
silently.
"""
from __future__ import annotations

import json
import re

from vital_core.files.errors import InputError, where
from vital_core.results.model import Document, InvalidDocumentError

_SEPARATOR = re.compile(r"^\s*---+\s*$", re.MULTILINE)


def documents_from_text(text: str, prefix: str = "pasted") -> list[Document]:
    parts = [p.strip() for p in _SEPARATOR.split(text or "")]
    return [Document(id=f"{prefix}-{n}", text=p) for n, p in enumerate((p for p in parts if p), start=1)]


def documents_from_jsonl(text: str, filename: str) -> list[Document]:
    docs = []
    # lines end at \n only: str.splitlines would also cut at U+2028 and the like, which JSON strings may hold
    for line_no, line in enumerate((text or "").split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where(filename, line_no)}: not valid JSON ({exc.msg})", filename, line_no) from None
        place = where(filename, line_no)
        try:
            doc = Document.from_dict(value, where=place, default_id=f"{filename}-{line_no}")
        except InvalidDocumentError:
            doc = None
        if doc is None or not doc.text.strip():
            raise InputError(f"{place}: expected a string or an object with a non-empty \"text\" field",
                             filename, line_no)
        docs.append(doc)
    return docs


def documents_from_upload(filename: str, text: str) -> list[Document]:
    """One uploaded file's documents (``.jsonl`` line by line, anything else as one document)."""
    if filename.lower().endswith((".jsonl", ".ndjson")):
        return documents_from_jsonl(text, filename)
    if not text.strip():
        raise InputError(f"{filename}: the file is empty", filename)
    return [Document(id=filename, text=text.strip(), title=filename)]
