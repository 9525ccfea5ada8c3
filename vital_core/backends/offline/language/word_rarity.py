"""How rare a word is, from the frequency order of the BERT-uncased vocabulary.

The WordPiece vocabulary shipped in ``data/vocab.txt`` lists whole words
roughly from most to least frequent (from id 1996, "the", onwards), so a
word's position there is a usable frequency rank with no extra data. A word
that is not in it at all is split into pieces by the tokenizer: rarer still.
"""
from __future__ import annotations

import threading

from vital_core.backends.offline.language.embedder import VOCAB_PATH

FIRST_WORD_ID = 1996          # whole words start here in the BERT-uncased vocabulary
UNKNOWN_RANK = 30_000

_RANKS: dict[str, int] | None = None
_LOCK = threading.Lock()


def _ranks() -> dict[str, int]:
    global _RANKS
    if _RANKS is None:
        with _LOCK:
            if _RANKS is None:
                ranks: dict[str, int] = {}
                with VOCAB_PATH.open(encoding="utf-8") as handle:
                    for i, token in enumerate(handle):
                        token = token.rstrip("\n")
                        if i >= FIRST_WORD_ID and token.isalpha():
                            ranks.setdefault(token, i - FIRST_WORD_ID + 1)
                _RANKS = ranks
    return _RANKS


def frequency_rank(word: str) -> int:
    """1 for the most frequent word; ``UNKNOWN_RANK`` for words not in the vocabulary."""
    return _ranks().get(word.lower(), UNKNOWN_RANK)
