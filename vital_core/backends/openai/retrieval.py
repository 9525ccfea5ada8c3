"""Keeping prompts within a token budget: chunk documents, pick the best passages.

Long documents are cut into overlapping passages of about ``chunk_words``
words; for each verification window the passages are scored with BM25 against
the query and the window's claims, and the best ones are kept until the token
budget is spent. Tokens are estimated as characters / 4 (no tokenizer download
needed; the budget is a guard, not an exact count).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from vital_core.results.model import Document

_TOKEN = re.compile(r"[a-z0-9]+")
# Very common words carry no retrieval signal.
_STOP = frozenset("""a an and are as at be but by for from has have he her his in is it its of on or she
that the their them they this to was were which who will with not no do does did than then there these
those been being into also can could would should may might""".split())


def estimate_tokens(text: str) -> int:
    return (len(text or "") + 3) // 4


def terms(text: str) -> list[str]:
    return [t for t in _TOKEN.findall((text or "").lower()) if t not in _STOP]


@dataclass(frozen=True)
class Passage:
    id: str         # P1, P2, ... (stable for a given evidence list)
    source: str     # the document id it came from
    text: str
    position: int   # index in document order, to restore reading order

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


def chunk_documents(documents: Iterable[Document], chunk_words: int = 160,
                    overlap_words: int = 30) -> list[Passage]:
    """Split each document into passages of at most ``chunk_words`` words (short ones stay whole)."""
    passages: list[Passage] = []
    step = max(1, chunk_words - overlap_words)
    for doc in documents:
        body = f"{doc.title}. {doc.text}" if doc.title and doc.title not in doc.text[:200] else doc.text
        words = body.split()
        if not words:
            continue
        starts = [0] if len(words) <= chunk_words else list(range(0, len(words) - overlap_words, step))
        for start in starts:
            text = " ".join(words[start:start + chunk_words])
            passages.append(Passage(id=f"P{len(passages) + 1}", source=doc.id, text=text,
                                    position=len(passages)))
    return passages


class BM25:
    """Okapi BM25 over a fixed list of passages."""

    def __init__(self, passages: list[Passage], k1: float = 1.5, b: float = 0.75):
        self.passages = passages
        self.k1, self.b = k1, b
        self.tfs = [Counter(terms(p.text)) for p in passages]
        self.lengths = [sum(tf.values()) for tf in self.tfs]
        self.avg_len = (sum(self.lengths) / len(self.lengths)) if passages else 0.0
        df: Counter = Counter()
        for tf in self.tfs:
            df.update(tf.keys())
        n = len(passages)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def scores(self, query: str) -> list[float]:
        q = Counter(terms(query))
        out = []
        for tf, length in zip(self.tfs, self.lengths):
            s = 0.0
            norm = self.k1 * (1 - self.b + self.b * length / (self.avg_len or 1.0))
            for t, qf in q.items():
                f = tf.get(t)
                if f:
                    s += self.idf[t] * f * (self.k1 + 1) / (f + norm)
            out.append(s)
        return out


def select_passages(passages: list[Passage], query: str, budget_tokens: int,
                    index: BM25 | None = None) -> list[Passage]:
    """Best passages for ``query`` within ``budget_tokens``, returned in document order.

    Everything is kept when it all fits. At least one passage is always kept
    (cut to the budget) so a single huge document still gives evidence.
    """
    if not passages:
        return []
    if sum(p.tokens for p in passages) <= budget_tokens:
        return list(passages)
    index = index or BM25(passages)
    ranked = _rank(index, query)
    chosen, used = [], 0
    for i in ranked:
        p = passages[i]
        if used + p.tokens <= budget_tokens:
            chosen.append(p)
            used += p.tokens
    if not chosen:
        best = passages[ranked[0]]
        chosen = [Passage(best.id, best.source, best.text[:max(1, budget_tokens) * 4], best.position)]
    return sorted(chosen, key=lambda p: p.position)


def _rank(index: BM25, query: str) -> list[int]:
    scores = index.scores(query)
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))
