"""Words of a text, and a crude stem: the one tokenisation the rule-based steps share."""
from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z][A-Za-z'\-\.]*[A-Za-z]|[A-Za-z]")
_POSSESSIVE = re.compile(r"'s$")
# Endings a stem drops, tried in this order; a stem keeps at least three letters.
STEM_SUFFIXES = ("ing", "ed", "es", "s")
ADVERB_SUFFIX = "ly"


def words(text: str) -> list[str]:
    """Lower-cased words, possessives dropped ("King's" -> "king")."""
    return [_POSSESSIVE.sub("", w.lower().replace("\u2019", "'")).strip(".'")
            for w in _WORD.findall(text.replace("\u2019", "'"))]


def stem(word: str, adverbs: bool = False) -> str:
    """``word`` without one inflection ("founded" -> "found"); with ``adverbs``, "-ly" too ("rapidly" -> "rapid")."""
    for suffix in STEM_SUFFIXES + ((ADVERB_SUFFIX,) if adverbs else ()):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def act_nouns(verb: str) -> set[str]:
    """The nouns naming a verb's act ("open" -> "opening", "paint" -> "painting", "make" -> "making")."""
    return {verb + "ing", verb[:-1] + "ing"} if len(verb) > 3 else set()
