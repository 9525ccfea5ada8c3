"""Warnings a backend call leaves on the response being scored.

A backend step returns values, not the story of how it got them; when a call
learns something the reader of the result must know (the server put its
answer in ``message.reasoning_content``, say), it adds a note here. The
pipeline opens a collection for each response, and one for each example (the
calls its variants share: nuggets, the reference answer's claims), and writes
the notes into the response's ``warnings``. A ``contextvars`` variable carries
the collection, so the asyncio tasks a step starts inherit it; a call made
outside any collection (a bare backend call) notes nothing.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

_current: ContextVar[list[str] | None] = ContextVar("vital_response_notes", default=None)


@contextmanager
def collecting() -> Iterator[list[str]]:
    """Collect the notes of the calls made inside the block (a fresh list, each note once)."""
    notes: list[str] = []
    token = _current.set(notes)
    try:
        yield notes
    finally:
        _current.reset(token)


def note(text: str) -> None:
    """Add ``text`` to the collection open here (once), if any."""
    notes = _current.get()
    if notes is not None and text not in notes:
        notes.append(text)


def add_to(warnings: list[str], notes: list[str]) -> None:
    """Append the notes not already among ``warnings``."""
    warnings.extend(n for n in notes if n not in warnings)
