"""Sentence splitting for the LLM backend's decomposition windows (pysbd, offline).

The backend numbers the sentences itself and asks the model for the claims of
each numbered sentence, so the source sentence of every claim is exact rather
than whatever the model chose to echo back.
"""
from __future__ import annotations

import re
import threading

_LOCK = threading.Lock()
_SEGMENTER = None


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` in order; paragraphs and list items always break."""
    global _SEGMENTER
    out: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*\u2022]|\d+[.)])\s)", text or ""):
        block = " ".join(block.split())
        if not block:
            continue
        with _LOCK:  # pysbd's segmenter keeps state between calls
            if _SEGMENTER is None:
                import pysbd
                _SEGMENTER = pysbd.Segmenter(language="en", clean=False)
            pieces = _SEGMENTER.segment(block)
        for piece in pieces:
            piece = piece.strip()
            if re.search(r"\w", piece):
                out.append(piece)
    return out
