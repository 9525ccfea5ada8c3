"""Coordinated clauses and predicates, cut by word rules before the parse's cuts (``clause_cuts``).

A sentence is cut where it coordinates whole clauses ("..., and it ...", "...; ...") and where a second
predicate of the same subject follows "and" ("became a World Heritage Site in 1997 and now draws ...");
a piece without a subject borrows the sentence's.
"""
from __future__ import annotations

import re

from vital_core.backends.offline.language.lexicon import (
    AUXILIARIES,
    NOT_VERBS,
    PRONOUN_SUBJECTS,
    past_not_participle,
    shares_passive,
)
from vital_core.backends.offline.language.nlp import analyse, subtree

_VERB_SUFFIX = re.compile(r"^[a-z]+(ed|es|s)$")


def has_verb(words: list[str]) -> bool:
    for w in words:
        lw = w.lower().strip(",.;:")
        if lw in AUXILIARIES:
            return True
        if lw not in NOT_VERBS and _VERB_SUFFIX.match(lw) and len(lw) > 4:
            return True
    return False


def _starts_clause(fragment: str) -> bool:
    """Does ``fragment`` read as a clause with its own subject and verb?

    Decided by the parser when it finds a subject for the fragment's main verb ("people began chipping
    pieces", "the overwhelmed guards opened the gates"); otherwise by the word rules below.
    """
    words = fragment.split()
    if len(words) < 3:
        return False
    toks = analyse(fragment)
    root = next((t for t in toks if t.dep == "ROOT"), None)
    if root is not None and root.pos in ("VERB", "AUX") and any(
            t.head == root.i and t.dep in ("nsubj", "nsubjpass", "expl") for t in toks):
        return True
    first = words[0].lower()
    if first in PRONOUN_SUBJECTS | {"the", "a", "an", "there", "its", "his", "her", "their", "many",
                                     "some", "most", "each", "several"} or words[0][0].isupper():
        return has_verb(words[1:])
    return False


def _subject(sentence: str) -> str | None:
    """The words before the sentence's first verb, when they form a short subject."""
    words = sentence.split()
    for i, w in enumerate(words[:8]):
        lw = w.lower().strip(",")
        if lw in AUXILIARIES or (i > 0 and w[:1].islower() and lw not in NOT_VERBS and _VERB_SUFFIX.match(lw)
                          and len(lw) > 4):
            if i == 0:
                return None
            subject = " ".join(words[:i]).strip(",")
            if "," in subject:
                return None
            return subject
    return None


# (a colon joins two clauses when a subject pronoun follows it: "best known for a party trick: it turns liquid")
_CLAUSE_SPLIT = re.compile(r";\s+|:\s+(?=(?:it|he|she|they)\s)|,\s+(?:and|but|while|whereas|yet|so)\s+|"
                           r"\s+(?:but|whereas)\s+")


FINITE_VERB_TAGS = {"VBZ", "VBD", "VBP"}
MIN_OBJECT_WORDS = 2    # the words after the first predicate's verb before "and": "bought and sold" is one act


def _and_predicates(sentence: str) -> str:
    """A second predicate joined by "and" alone, marked like one after a comma ("became a World Heritage Site
    in 1997 and now draws two million visitors" -> "..., and now draws ..."), so that it is cut off with the
    sentence's subject: the parse of such sentences is often wrong, the verb's tense is not."""
    toks = analyse(sentence)
    marks = []
    for t in toks:
        if t.lemma != "and" or t.i == 0 or toks[t.i - 1].text == ",":
            continue
        after = [x for x in toks[t.i + 1:t.i + 3] if not (x.pos == "ADV" and x.i == t.i + 1)][:1]
        before = [x for x in toks[:t.i] if x.tag in FINITE_VERB_TAGS and x.pos in ("VERB", "AUX")]
        if before and before[-1].dep == "auxpass" \
                and (not after or shares_passive(after[0].lemma, any(x.dep == "dobj" and x.head == after[0].i
                                                                        for x in toks))):
            continue    # "was built ... and launched ...": the second shares the passive, the parse's cut
        if before and after and any(x.tag == "VBN" and x.dep == "acl" for x in toks[before[-1].i:t.i]) \
                and not past_not_participle(after[0].lemma, after[0].text.lower()):
            continue    # "a steamship designed by Brunel and built on the Thames": a second participle
        # "received ..., was knighted ... and died ...": a list of predicates is the list rule's
        if after and after[0].tag in FINITE_VERB_TAGS and after[0].pos == "VERB" and before \
                and t.i - before[-1].i - 1 >= MIN_OBJECT_WORDS \
                and not any(x.text in (",", ";") or x.lemma in SUBORDINATE_WORDS for x in toks[before[0].i:t.i]):
            marks.append(t.start)
    for at in reversed(marks):
        sentence = sentence[:at].rstrip() + ", " + sentence[at:]
    return sentence


def _opens_with_verb(piece: str) -> bool:
    """Does the piece open with a finite verb, after at most one adverb ("died in 1955", "now draws ...")?"""
    toks = [t for t in analyse(piece)[:2] if t.pos != "ADV"]
    return bool(toks) and toks[0].tag in FINITE_VERB_TAGS and toks[0].pos == "VERB"


def _parsed_subject(sentence: str) -> str | None:
    """The main verb's subject as the parse reads it ("Pompeii became ..."; "She wrote ..."), without commas."""
    toks = analyse(sentence)
    root = next((t for t in toks if t.dep == "ROOT"), None)
    subject = next((t for t in toks if root is not None and t.head == root.i and t.dep in ("nsubj", "nsubjpass")),
                   None)
    if subject is None:
        return None
    span = subtree(toks, subject.i)
    words = [toks[i] for i in range(min(span), max(span) + 1)]
    if len(words) != len(span) or any(t.text == "," for t in words):
        return None
    return sentence[words[0].start:words[-1].start + len(words[-1].text)]


def split_clauses(sentence: str) -> list[str]:
    """Cut coordinated clauses; a clause without a subject borrows the sentence's."""
    parts = [sentence]
    out: list[str] = []
    subject = _subject(sentence)
    words = analyse(subject) if subject is not None else ()
    if subject is None or any(t.tag in FINITE_VERB_TAGS for t in words):
        subject = _parsed_subject(sentence)     # the word rules miss irregular verbs ("She wrote ... and ...")
    elif words[0].pos in ("ADP", "SCONJ"):
        # an opening phrase with the subject ("In 1817 the group") goes with every predicate; but the word rules
        # read a plural as a verb and stop inside the phrase ("After months of ...", "Within two years ...")
        parsed = _parsed_subject(sentence)
        if parsed is not None and not subject.endswith(parsed):
            subject = parsed
    carry = ""
    # without a subject to give it, a second predicate is left to the parse's cuts
    for piece in _CLAUSE_SPLIT.split(_and_predicates(sentence) if subject else sentence):
        piece = piece.strip()
        if not piece:
            continue
        if carry:
            piece, carry = f"{carry}, and {piece}", ""
        if not out and not any(t.pos in ("VERB", "AUX") for t in analyse(piece)):
            carry = piece      # "Under the chief engineer Goethals, and with Gorgas ..., the Americans succeeded"
            continue
        if out and _open_subordinate(out[-1]):
            out[-1] = f"{out[-1]}, and {piece}"   # "..., when X, a hunter, and Y reached ...": subjects of one clause
            continue
        if out and not _starts_clause(piece):
            words = piece.split()
            # "..., and won two titles": a verb phrase sharing the subject
            if subject and words and (has_verb(words[:2]) or _opens_with_verb(piece)):
                out.append(f"{subject} {piece}")
                continue
            out[-1] = out[-1].rstrip(". ") + ", " + piece
            continue
        out.append(piece)
    if carry:
        out.append(carry)
    return out or parts


SUBORDINATE_WORDS = {"when", "after", "because", "while", "although", "before", "since", "where", "until", "which",
                     "who", "that", "if"}
_ALSO_PREPOSITIONS = {"after", "before", "since", "until"}
_SUBORDINATE_OPENING = re.compile(r"\b(?:when|after|because|while|although|before|since|where|until)\s+(.*)$")


def _open_subordinate(piece: str) -> bool:
    """Does ``piece`` end in a subordinate clause still waiting for its verb ("..., when Jacques Balmat, a
    crystal hunter")?"""
    match = _SUBORDINATE_OPENING.search(piece)
    if not match or any(t.pos in ("VERB", "AUX") for t in analyse(match.group(1))):
        return False
    # "after", "before", "since" and "until" are prepositions too ("called Brad's Drink, after its inventor"):
    # only a subject set off by its appositive still waits for a verb
    return match.group(0).split()[0] not in _ALSO_PREPOSITIONS or "," in match.group(1)
