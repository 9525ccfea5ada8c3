"""A substituted span: the few words a text swaps while following an evidence sentence word for word.

``substitution`` is ``verify``'s reference-mode rule ("rapid, automatic" -> "slow, deliberate");
``word_key`` is the crude lemma it aligns words on. Pure text functions: no vectors, no model.
"""
from __future__ import annotations

from difflib import SequenceMatcher

from vital_core.backends.offline.language.lexicon import STOPWORDS
from vital_core.backends.offline.language.text import stem, words

# Substituted wording: the text shares this share of its content words with the
# sentence, and swaps a span of at most this many words.
SUBSTITUTION_SHARED = 0.60
SUBSTITUTION_SPAN = 3


def word_key(word: str) -> str:
    """A crude lemma: the first five letters ("conserved" ~ "conservation")."""
    return word[:5] if len(word) > 5 else stem(word, adverbs=True)


def _content(word: str) -> bool:
    return len(word) > 2 and word.isalpha() and word not in STOPWORDS


def _same_word(a: str, b: str) -> bool:
    return a[:4] == b[:4]


def substitution(text: str, sentence: str, evidence_text: str) -> tuple[str, str] | None:
    """(new words, replaced words) when ``text`` follows ``sentence`` but swaps a short span.

    Word sequences are aligned (crude lemmas); a "replace" of at most
    ``SUBSTITUTION_SPAN`` words where the text's words occur nowhere in the
    evidence and the sentence's words are not in the text is a substitution
    ("rapid, automatic" -> "slow, deliberate"). Insertions and deletions alone
    (a detail added or dropped) are not.
    """
    a = [w for w in words(text)]
    b = [w for w in words(sentence)]
    a_keys, b_keys = [word_key(w) for w in a], [word_key(w) for w in b]
    text_content = {k for w, k in zip(a, a_keys) if _content(w)}
    if not text_content:
        return None
    shared = len(text_content & set(b_keys)) / len(text_content)
    if shared < SUBSTITUTION_SHARED:
        return None
    evidence_keys = {word_key(w) for w in words(evidence_text)}
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a_keys, b_keys, autojunk=False).get_opcodes():
        if op != "replace" or i2 - i1 > SUBSTITUTION_SPAN or j2 - j1 > SUBSTITUTION_SPAN:
            continue
        new = [a[i] for i in range(i1, i2) if _content(a[i]) and a_keys[i] not in evidence_keys]
        old = [b[j] for j in range(j1, j2) if _content(b[j]) and b_keys[j] not in text_content]
        # another form of the same word ("moving" / "move") is no substitution
        if any(_same_word(x, y) for x in new for y in old):
            continue
        if new and old:
            return " ".join(new), " ".join(old)
    return None
