"""Which claims the evidence is about: the same relation, whatever its value.

A claim's relation is read as its predicate words (content words outside its subject, names and values
left out) and the kinds of value it gives (a date, a number, a name). An evidence sentence is about the
claim when it holds (nearly) all those words, its main verb among them, and a value of the same kind - so a
changed year is as much about the evidence as the right one. The offline importance step reads it where
the query alone cannot say what matters ("Tell me about X").
"""
from __future__ import annotations

from functools import lru_cache

from vital_core.backends.offline.language.answer_types import DATE, ENTITY, NUMBER, Mentions, extract_mentions
from vital_core.backends.offline.language.frames import frame
from vital_core.backends.offline.language.lexicon import (
    DIMENSION_WORDS,
    LIGHT,
    LOCATIVE,
    MEASURE_VERBS,
    PHRASES,
    POSITION_VERBS,
    STOPWORDS,
    TIME_FRAME,
)
from vital_core.backends.offline.language.nlp import analyse, children, role_names, subtree
from vital_core.backends.offline.language.text import stem
from vital_core.backends.offline.language.values import extract_values

# the share of a claim's predicate words one evidence sentence must hold, next to a value of the claim's kind
ADDRESSED_SHARE = 0.75
# verbs that carry no relation of their own ("is", "has"): a claim needs another word to be addressed
_LIGHT_PREDICATES = {"be", "have", "do", "become", "make", "get"}
# words that say when or how often, not what ("has *since* been displayed at ..."): no part of the relation
_FRAME = LIGHT | TIME_FRAME | {"since"}


def _subject_span(toks) -> set[int]:
    return next((subtree(toks, t.i) for t in toks if t.dep in ("nsubj", "nsubjpass") and toks[t.head].dep == "ROOT"),
                set())


def without_subject(claim: str) -> str:
    """What a claim says of its subject, as text ("The Great Pyramid was built around 2560 BC" -> "was built
    around 2560 BC"): the subject's own name is no value of the claim."""
    toks = analyse(claim)
    subject = _subject_span(toks)
    return " ".join(t.text for t in toks if t.i not in subject)


def _predicate_words(claim: str, relation_only: bool = True) -> set[str]:
    """The stems of what a claim says of its subject: its content words outside the subject, names and values
    left out ("The show was created by Matt Groening" -> {"creat"}). ``relation_only``: the clause's frame
    left out too ("In its rough state the stone weighed ..."); the looser "spoken of" reading keeps it, as
    fewer words would let any sentence speak of the claim."""
    toks = analyse(claim)
    root = next((t for t in toks if t.dep == "ROOT"), None)
    subject = _subject_span(toks) | _titles(toks)
    if relation_only and root is not None:
        subject |= frame(toks, root.i)
    # a measure or a place, whatever words give it (``_MEASURE_STEMS``)
    loose = _measured(claim) | _placed(toks)
    words = _as_phrases({stem(t.lemma.lower()) for t in toks if t.i not in subject
                         and t.pos in ("VERB", "NOUN", "ADJ", "ADV") and t.text.isalpha()
                         and t.lemma.lower() not in _LIGHT_PREDICATES | STOPWORDS | _FRAME},
                        {t.lemma for t in toks})
    words |= loose
    if not words and root is not None and root.lemma == "be" \
            and any(c.text.lower() == "by" for c in children(toks, root.i)):
        return {"by"}   # "The painting is by Bosch": its maker, which "was painted by" states
    return words


# A measure or a place is its own relation, whatever words give it: "rises to 158 metres", "is 158 metres tall"
# and "stands 2,962 metres above sea level" all say a length ("#length"); "lies in Suffolk" and "is in Suffolk"
# say where it is ("#place"). A sentence that gives the same one says all the words that may give it.
_MEASURE_STEMS = frozenset(stem(w) for w in set(MEASURE_VERBS) | DIMENSION_WORDS | {"altitude", "elevation"})
_POSITION_STEMS = frozenset(stem(w) for w in POSITION_VERBS)
PLACE_RELATION = "#place"


def _measured(text: str) -> set[str]:
    """The dimensions of the text's measures, as pseudo-words ("#length")."""
    return {f"#{v.dim}" for v in extract_values(text) if v.is_measure and v.dim and not v.dim.startswith("#")}


def _placed(toks) -> set[str]:
    """{PLACE_RELATION} when the main verb says only where its subject is, by name ("lies in Suffolk", "is
    located near Woodbridge", "is in Cantabria"), else empty."""
    root = next((t for t in toks if t.dep == "ROOT"), None)
    if root is None or root.lemma not in POSITION_VERBS | {"be"}:
        return set()
    return {PLACE_RELATION} if any(c.dep == "prep" and c.lemma in LOCATIVE and any(
        p.dep == "pobj" and p.pos == "PROPN" for p in children(toks, c.i)) for c in children(toks, root.i)) else set()


# the lexicon's phrases by their stems: "reached its climax" says "peak", "went online" says "launch"
_PHRASE_STEMS = tuple((stem(word), tuple(stem(p) for p in phrase)) for word, phrases in PHRASES.items()
                      for phrase in phrases)


def _as_phrases(stems: set[str], lemmas: set[str]) -> set[str]:
    """The stems with a phrase's words (all among ``lemmas``) read as the one word it says."""
    lemma_stems = {stem(lemma.lower()) for lemma in lemmas}
    for word, parts in _PHRASE_STEMS:
        if all(part in lemma_stems for part in parts):
            stems = (stems - set(parts)) | {word}
    return stems


def _titles(toks) -> set[int]:
    """A common noun that names a person's role in front of the name ("the writer Jerry Siegel", "the artist
    Joe Shuster"): part of the value, not of the relation."""
    return {t.i for t in toks if t.pos == "NOUN" and (t.dep == "compound" and toks[t.head].pos == "PROPN"
                                                       or role_names(toks, t.i))}


def _value_kinds(mentions: Mentions) -> set[str]:
    return {kind for kind, present in ((DATE, mentions.years or mentions.dates), (NUMBER, mentions.numbers),
                                       (ENTITY, mentions.names)) if present}


def addressed_by(claims: list[str], evidence_sentences: list[str], share: float = ADDRESSED_SHARE,
                 with_value: bool = True, kinds_of: frozenset[str] | None = None) -> set[int]:
    """The claims the evidence is about: one evidence sentence holds (nearly) all of the claim's predicate
    words and a value of the same kind (a date, a number, a name) - whatever the value, so that a changed
    year is as much about the evidence as the right one ("The bridge opened on 19 March 1936" against "...
    opened on 19 March 1932"). ``share`` and ``with_value`` loosen it; ``kinds_of`` narrows the kinds of
    value that count (a date or a number only: any sentence names something)."""
    evidence = _read_evidence(tuple(evidence_sentences))
    out = set()
    for i, claim in enumerate(claims):
        predicate, kinds = _predicate_words(claim, with_value), _value_kinds(extract_mentions(without_subject(claim)))
        if kinds_of is not None:
            kinds &= kinds_of
        verb = _relation_verb(claim)
        if predicate and (kinds or not with_value) and any(
                len(_said(predicate, words_)) >= share * len(predicate) and (kinds & ev_kinds or not with_value)
                and (verb is None or verb in words_ or not with_value) for words_, ev_kinds in evidence):
            out.add(i)
    return out


def _said(predicate: set[str], stems: frozenset[str]) -> set[str]:
    """The predicate words a sentence says: its own, and the words of a measure or a place both give."""
    said = predicate & stems
    shared = said & {w for w in said if w.startswith("#")}
    if shared - {PLACE_RELATION}:
        said |= predicate & _MEASURE_STEMS
    if PLACE_RELATION in shared:
        said |= predicate & _POSITION_STEMS
    return said


@lru_cache(maxsize=16)
def _read_evidence(sentences: tuple[str, ...]) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each evidence sentence's word stems (lemmas and forms) and kinds of value, read once for the variants
    of an example, which are ranked against the same evidence."""
    out = []
    for sentence in sentences:
        parsed = analyse(sentence)
        # a word of a name says no relation ("the Cairn of Peace" is not "made peace"), as in a claim
        toks = [t for t in parsed if t.pos != "PROPN"]
        stems = {stem(t.lemma.lower()) for t in toks} | {stem(t.text.lower()) for t in toks}
        stems |= _measured(sentence) | _placed(parsed)
        out.append((frozenset(stems | _as_phrases(set(), {t.lemma for t in toks})),
                    frozenset(_value_kinds(extract_mentions(sentence)))))
    return tuple(out)


def _relation_verb(claim: str) -> str | None:
    """The stem of the claim's main verb, which the same relation must share ("held the top ranking" is not
    "spent 319 weeks at the top"), or None for a light one ("is 2.4 metres across")."""
    toks = analyse(claim)
    root = next((t for t in toks if t.dep == "ROOT"), None)
    if root is None or root.pos != "VERB" or root.lemma.lower() in _LIGHT_PREDICATES \
            or root.lemma in MEASURE_VERBS and _measured(claim) or _placed(toks):
        return None
    verb = stem(root.lemma.lower())
    said = _as_phrases({verb}, {t.lemma for t in toks})     # "reached its climax": the verb is "peak"
    return verb if verb in said else next(iter(said - {verb}), verb)
