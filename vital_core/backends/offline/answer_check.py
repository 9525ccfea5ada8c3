"""The response's answer to the question, checked against the evidence's answer to the same question.

A question asking for one thing ("When did the great Lisbon earthquake happen?") fixes the relation and the
subject, whatever words a response and the evidence choose for them: "The first shock hit on the morning of
1 December 1755" and "The Lisbon earthquake struck on 1 November 1755" both answer it, so they disagree even
though they share no subject or verb. ``verify`` asks this only of a vital claim the word-by-word rules left
without a verdict, and only:

- for a date or a number, in a claim that names no other thing of the kind the question names: its value of
  the kind asked (the counted noun of "how many red balls", the measure of "how high"; not a bound, "since
  1927", a part, "two of the bridges", nor the year of a named thing, "the Treaties of 1977") agrees with the
  value of an evidence sentence that speaks of the question (supported, when the claim names nothing else the
  evidence does not) or differs from every such value while the evidence states it nowhere (contradicted);
- for a person or a place: the claim is the response's presumed answer, says the question's predicate and names
  the one it asks for in the place the question asks about ("was written by X", "stands in X"), the evidence
  never names that one, and an evidence sentence that speaks of the question names another in that place
  (contradicted; a name agreeing is left to the support rules, which read the rest of the claim).

A claim that states several values of the kind asked, one of which the evidence states, is never contradicted
(a conversion, "8,091 metres, or roughly 26,545 feet"; a detail, "3,724 metres, 30 metres lower than ...").
"""
from __future__ import annotations

import re

import numpy as np

from vital_core.backends.offline.answer import (
    asked_dimension,
    content_words,
    counted_noun,
    names_maker,
    new_typed,
    places_a_name,
    presumed_answer,
    question_predicate,
    says_predicate,
    verb_says,
)
from vital_core.backends.offline.language.answer_types import (
    DATE,
    ENTITY,
    NUMBER,
    PERSON,
    PLACE,
    extract_mentions,
    is_open_ended,
    question_type,
)
from vital_core.backends.offline.language.lexicon import ASKED_DIMENSIONS
from vital_core.backends.offline.language.nlp import analyse, subtree
from vital_core.backends.offline.language.text import stem, words
from vital_core.backends.offline.language.value_match import (
    comparable,
    compatible,
    consistent,
    mismatch_reason,
    name_mismatch,
    said_as_bound,
)
from vital_core.backends.offline.language.values import Value, extract_values
from vital_core.backends.offline.verdict import ClaimVerdict, quote
from vital_core.results.model import CONTRADICTED, SUPPORTED

CHECKED_KINDS = (DATE, NUMBER, PERSON, PLACE)
# an evidence sentence speaks of the question when it holds this share of the question's content words
ABOUT_QUESTION_SHARE = 0.5
_QUESTION_WORDS = content_words("when what which who whom whose where how many much year date")
# "the Torrijos-Carter Treaties *of* 1977": the year of a named thing, not the answer
_NAMED_YEAR = re.compile(r"\b[A-Z][\w-]*\s+of\s+$")
# "two *of* the original bridges": a part, not the count asked
_PART_OF = re.compile(r"\s+of\b")
# the dimensions a "how high" question may be answered in: "high" and "tall" say the same
_SAME_DIMENSION = {"high", "tall"}


class Question:
    """What a question asks for, read once per response: its kind, predicate and words."""

    def __init__(self, question: str):
        self.text = question
        kind = question_type(question)
        self.kind = kind if kind in CHECKED_KINDS and not is_open_ended(question) else ""
        self.predicate = question_predicate(question) if self.kind else set()
        self.words = set(words(question))
        self.content = content_words(question) - _QUESTION_WORDS
        self.mentions = extract_mentions(question)
        self.values = extract_values(question)
        self.counted = counted_noun(question) if self.kind == NUMBER else ""
        self.adjective, self.dimension = asked_dimension(question) if self.kind == NUMBER else ("", "")
        # the words before a counted noun that narrow it: "how many *red* balls"
        narrowing = re.search(rf"how many ((?:[\w-]+ ){{0,2}}){re.escape(self.counted[:3])}", question.lower()) \
            if self.counted else None
        self.narrowing = set(narrowing.group(1).split()) if narrowing else set()

    def about(self, sentence: str) -> bool:
        """Does an evidence sentence speak of what the question asks about?"""
        return bool(self.content) and \
            len(self.content & content_words(sentence)) / len(self.content) >= ABOUT_QUESTION_SHARE


def asked_values(question: Question, text: str) -> list[Value]:
    """The values in ``text`` of the kind a date or number question asks for, and not already in it."""
    if question.kind == DATE:
        found = [v for v in extract_values(text) if v.kind in ("date", "year")]
    elif question.kind == NUMBER:
        found = [v for v in extract_values(text) if v.kind == "number" and _counts_what_is_asked(question, text, v)]
    else:
        return []
    return [v for v in found if not said_as_bound(text, v) and not _PART_OF.match(text, v.start + len(v.text))
            and not _NAMED_YEAR.search(text[:v.start])
            and not any(comparable(v, q) and consistent(v, q) for q in question.values)]


def _counts_what_is_asked(question: Question, text: str, value: Value) -> bool:
    after = text[value.start + len(value.text):]
    if question.counted:
        # the noun as written after the value ("seven arches"), not the value's singular guess of it
        following = words(value.text + after)[:4]
        noun = question.counted
        # the stemmer reads "fence" and "fences" apart: the noun is matched in its plural forms too
        return value.dim.startswith("#") and {stem(noun), stem(noun + "s"), stem(noun + "es")} & {
            stem(w) for w in following} \
            and question.narrowing <= set(following)
    if question.dimension:
        # "18 metres *long*" is no answer to "How high ...?"
        said = re.match(r"\s+(\w+)", after)
        adjective = said.group(1).lower() if said else ""
        other = adjective in ASKED_DIMENSIONS and adjective != question.adjective \
            and not {adjective, question.adjective} <= _SAME_DIMENSION
        return value.dim == question.dimension and not other
    return True


def asked_names(question: Question, text: str) -> list[str]:
    """The names in ``text`` (lower case) that answer a person or place question where the question asks:
    its maker or the doer of its verb for "who", the place of its verb for "where"."""
    mentions = extract_mentions(text)
    names = new_typed(mentions, question.mentions, ENTITY, question.words) - mentions.years
    toks = analyse(text)
    names -= {t.text.lower() for t in toks if t.pos == "ADJ"}
    if question.kind == PLACE:
        return sorted(names) if places_a_name(text, question.words) else []
    if names_maker(text, question.predicate):
        return sorted(names)
    if not verb_says(text, question.predicate):
        return []
    root = next((t for t in toks if t.dep == "ROOT"), None)
    doer: set[int] = set()
    for t in toks:
        if root is not None and (t.head == root.i and t.dep == "nsubj"
                                 or t.dep == "pobj" and toks[t.head].lemma == "by" and toks[t.head].head == root.i):
            doer |= set(subtree(toks, t.i))
    said = {toks[i].text.lower() for i in doer}
    return sorted(n for n in names if all(w in said for w in words(n)))


def answering_claim(question: Question, claims: list[str], claim_vectors: np.ndarray,
                    question_vector: np.ndarray) -> int | None:
    """The response's presumed answer (``answer.presumed_answer``), ranked by closeness to the question."""
    if not question.kind or not claims:
        return None
    return presumed_answer(question.text, claims, claim_vectors @ question_vector, question.predicate)


def answer_verdict(question: Question, claim: str, presumed: bool, sentences: list[str]) -> ClaimVerdict | None:
    """The verdict on a vital claim from the evidence's answer to the question, or None (see the module)."""
    if not question.kind:
        return None
    about = [s for s in sentences if question.about(s)]
    if question.kind in (DATE, NUMBER):
        return _value_verdict(question, claim, sentences, about)
    if presumed and says_predicate(claim, question.predicate):
        return _name_verdict(question, claim, sentences, about)
    return None


def _value_verdict(question: Question, claim: str, sentences: list[str], about: list[str]) -> ClaimVerdict | None:
    said = asked_values(question, claim)
    if not said or _names_another(question, claim):
        return None
    # each sentence's values of the kind asked, read once: those about the question answer it
    given = {s: asked_values(question, s) for s in sentences}
    answers = [(s, v) for s in about for v in given[s]]
    # support reads exact values only: "roughly 26,545 feet" agrees with 8,019 metres as well as with 8,091
    exact = [c for c in said if not c.approx]
    agreeing = [[(s, v) for s, v in answers if not v.approx and comparable(c, v) and compatible(c, v)] for c in exact]
    # ... and a claim naming nothing the question and the evidence do not speak of: "fought on 22 August 1485
    # near Market Bosworth" says more than "The battle was fought on 22 August 1485"
    known = question.words | set(words(" ".join(sentences)))
    if exact and all(agreeing) and all(set(words(n)) <= known for n in extract_mentions(claim).names):
        sentence, value = agreeing[0][0]
        return ClaimVerdict(SUPPORTED, f"supported: the evidence gives the same answer to the question, "
                                       f"{value.text} — \"{quote(sentence)}\"", sentence)
    stated = [v for values in given.values() for v in values]
    if any(comparable(c, v) and consistent(c, v) for c in said for v in stated):
        return None     # one of the claim's values is stated: the other is a conversion or a detail
    for c in said:
        rivals = [(s, v) for s, v in answers if comparable(c, v)]
        if rivals and not any(consistent(c, v) for _, v in rivals):
            sentence, value = rivals[0]
            return ClaimVerdict(CONTRADICTED, f"{mismatch_reason(c, value)} (both answer the question) — "
                                              f"\"{quote(sentence)}\"", sentence)
    return None


def _head(name: str) -> str:
    """What a name names: its word before "of" ("Battle of Bosworth"), or its last ("London Marathon")."""
    return name.lower().split(" of ")[0].split()[-1]


def _names_another(question: Question, claim: str) -> bool:
    """Does the claim name another thing of the kind the question names ("the New York City Marathon" for
    "When was the first London Marathon run?")? Its values may be that thing's."""
    asked = {_head(n) for n in question.mentions.names}
    return any(_head(n) in asked and not set(words(n)) <= question.words
               for n in extract_mentions(claim).names)


def _name_verdict(question: Question, claim: str, sentences: list[str], about: list[str]) -> ClaimVerdict | None:
    said = asked_names(question, claim)
    everything = set(words(" ".join(sentences)))
    if not said or any(set(words(n)) <= everything for n in said):
        return None
    for sentence in about:
        others = asked_names(question, sentence)
        if others:
            why = name_mismatch(_as_written(said[0], claim), _as_written(others[0], sentence))
            return ClaimVerdict(CONTRADICTED, f"{why} (both answer the question) — \"{quote(sentence)}\"", sentence)
    return None


def _as_written(name: str, text: str) -> str:
    """A lower-case name as ``text`` writes it."""
    found = re.search(r"\s+".join(re.escape(w) for w in name.split()), text, re.I)
    return found.group() if found else name
