"""Errors for bad input data (files, lines, fields), shared by loaders and commands."""
from __future__ import annotations

from pathlib import Path
from typing import Any


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


class InvalidRecordError(ValueError):
    """A field of a results record with the wrong JSON type (the message names the place and field)."""


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "a list", str: "a string"}.get(type(value), "a number"
                                                                  if isinstance(value, (int, float)) else "a value")


def typed(d: dict, key: str, kind: type, where: str = "", *, default: Any = None) -> Any:
    """``d[key]`` when it is a ``kind`` (or absent / null: ``default``); anything else raises
    ``InvalidRecordError`` naming ``where`` and the field."""
    value = d.get(key)
    if value is None:
        return default
    if isinstance(value, kind) and not isinstance(value, bool):
        return value
    raise InvalidRecordError(f"{where + ': ' if where else ''}field {key!r} must be "
                             f"{json_type(kind())} or null, got {json_type(value)}")


def typed_objects(items: list, key: str, where: str) -> list[dict]:
    """The items of a list field, each of which must be an object."""
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InvalidRecordError(f"{where + ': ' if where else ''}{key}[{i}] must be an object, "
                                     f"got {json_type(item)}")
    return items


def check_unique_ids(ids: list, field: str, place: str) -> None:
    """``InvalidRecordError`` when an id (``None`` aside) appears twice in the list ``field`` of a record at
    ``place``: two subclaims with one id would be counted once or twice depending on the metric."""
    first: dict = {}
    for i, value in enumerate(ids):
        if value is None:
            continue
        key = str(value)
        if key in first:
            raise InvalidRecordError(f"{place}: {field}: id {key!r} is used by items {first[key] + 1} and {i + 1}; "
                                     "ids must be unique, so give each its own")
        first[key] = i
