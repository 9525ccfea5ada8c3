"""Which one of several a subject is: "The third Eddystone Lighthouse" and "The present lighthouse" are two
towers, and what one sentence says of one is no contradiction of what a claim says of the other."""
from __future__ import annotations

import re

from vital_core.backends.offline.language.analysis import Analysis
from vital_core.backends.offline.language.lexicon import EVENT_QUALIFIERS, FIRST_WORDS, ORDINAL_WORDS
from vital_core.backends.offline.language.nlp import main_subject

# words that pick one of a series out: the ordinals and "first"-like words, and these of time
INSTANCE_WORDS = frozenset(ORDINAL_WORDS) | EVENT_QUALIFIERS | {"present", "current", "modern", "new", "old",
                                                               "later", "earlier", "former", "today"}


def instance_words(a: Analysis) -> frozenset[str]:
    """The words of the main subject that say which one it is ("The *third* Eddystone Lighthouse")."""
    subject = main_subject(a.toks)
    if subject is None:
        return frozenset()
    # "the inaugural race" is "the first race"
    return frozenset("first" if t.lemma in FIRST_WORDS else t.lemma for t in a.toks
                     if t.head == subject.i and t.dep in ("amod", "compound", "nummod") and t.lemma in INSTANCE_WORDS)


def same_instance(claim: Analysis, target: Analysis) -> bool:
    """Not two subjects that each pick out one of a series, and different ones ("present" / "third"); a subject
    without such a word may be either ("Selma Lagerlöf was the first woman to win ...")."""
    mine, theirs = instance_words(claim), instance_words(target)
    return not mine or not theirs or mine == theirs


_ALIAS_CUES = r"(?:born|née|nee|known as|called|later|formerly|also|alias|or)"


def may_be_one_person(name: str, other: str, evidence: str) -> bool:
    """Two names that may be one person's: a word in common, first names alike ("Marie"/"Maria"), or
    the evidence saying one is the other ("Marie Curie, born Maria Skłodowska")."""
    a, b = [w.lower() for w in name.split()], [w.lower() for w in other.split()]
    if set(a) & set(b) or a[0][:4] == b[0][:4]:
        return True
    first, second = re.escape(name), re.escape(other)
    return bool(re.search(rf"{first}\W+{_ALIAS_CUES}\W+{second}|{second}\W+{_ALIAS_CUES}\W+{first}", evidence))
