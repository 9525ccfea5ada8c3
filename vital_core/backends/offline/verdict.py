"""One claim's verdict and how a reason quotes evidence, shared by the two verdict paths (``verify``: the
order of the rules and the contradictions; ``support``: when the aligned evidence states a claim)."""
from __future__ import annotations

import re
from dataclasses import dataclass

ALIGN_MIN = 0.30            # below this no evidence sentence is about the claim
WINDOW_MARGIN = 0.20        # sentences this close to the best one join the window that supports a claim


@dataclass
class ClaimVerdict:
    verdict: str
    reason: str
    evidence: str
    similarity: float = 0.0   # cosine of the claim with its best-aligned evidence sentence


_WORD = re.compile(r"[\w'’\-]+")


def written_in(item: str, text: str) -> bool:
    """Is ``item`` (a word, name or value as a reason writes it) written in ``text``, as whole words?"""
    wanted = _WORD.findall(item.lower())
    return bool(wanted) and f" {' '.join(wanted)} " in f" {' '.join(_WORD.findall(text.lower()))} "


def quote(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."
