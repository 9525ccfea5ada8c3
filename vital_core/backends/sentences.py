"""Sentence splitting shared by both backends (pysbd: rule-based, needs no download).

Paragraph breaks and list items always end a sentence; list markers are
dropped and runs of white space folded, so a sentence reads as one line.
"""
from __future__ import annotations

import re
import threading

_SEGMENTER = None
_SEGMENTER_LOCK = threading.RLock()   # pysbd's segmenter is not documented as thread-safe


def _segmenter():
    global _SEGMENTER
    with _SEGMENTER_LOCK:
        if _SEGMENTER is None:
            import pysbd
            _SEGMENTER = pysbd.Segmenter(language="en", clean=False)
    return _SEGMENTER


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` in order; empty ones dropped."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*[-*\u2022]|\s*\d+[.)]\s)", text or ""):
        paragraph = " ".join(paragraph.split())
        if not paragraph:
            continue
        with _SEGMENTER_LOCK:
            pieces = _segmenter().segment(paragraph)
        for piece in pieces:
            piece = re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s+", "", piece).strip()
            if re.search(r"\w", piece):
                out.append(piece)
    return out
