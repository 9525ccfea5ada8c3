"""Sentence splitting shared by both backends (pysbd: rule-based, needs no download).

Paragraph breaks and list items always end a sentence; list markers are
dropped and runs of white space folded, so a sentence reads as one line.
"""
from __future__ import annotations

import re
import threading
from typing import Iterator

from vital_core.scoring import deadline

_SEGMENTER = None
_SEGMENTER_LOCK = threading.RLock()   # pysbd's segmenter is not documented as thread-safe


def _segmenter():
    global _SEGMENTER
    with _SEGMENTER_LOCK:
        if _SEGMENTER is None:
            import pysbd
            _SEGMENTER = pysbd.Segmenter(language="en", clean=False)
    return _SEGMENTER


# pysbd's time grows faster than the length of what it segments: a longer paragraph is segmented in
# pieces of about this many characters, cut after a sentence end where there is one (a paragraph this long
# is not prose a person wrote as one block), so a huge document costs time in proportion to its size and
# the record's deadline is checked between pieces.
PIECE_CHARS = 5000
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*\s")


def _pieces(paragraph: str) -> Iterator[str]:
    start = 0
    while len(paragraph) - start > PIECE_CHARS:
        head = paragraph[start:start + PIECE_CHARS]
        ends = [m.end() for m in _SENTENCE_END.finditer(head)]
        cut = ends[-1] if ends else (head.rfind(" ") + 1 or PIECE_CHARS)
        yield head[:cut]
        start += cut
    yield paragraph[start:]


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` in order; empty ones dropped."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*[-*\u2022]|\s*\d+[.)]\s)", text or ""):
        paragraph = " ".join(paragraph.split())
        if not paragraph:
            continue
        pieces = []
        for part in _pieces(paragraph):
            deadline.check()
            with _SEGMENTER_LOCK:
                pieces += _segmenter().segment(part)
        for piece in pieces:
            piece = re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s+", "", piece).strip()
            if re.search(r"\w", piece):
                out.append(piece)
    return out
