"""Which claim answers a question: the kind of thing it asks for, the predicate it says, the claim that
gives it ("The Hindenburg burned on 6 May 1937" for "When did the Hindenburg burn?").

``importance`` makes that claim vital and the response's other statements context; the evidence, when
there is some, says which claims name the thing asked in a relation it states (``answering_claims``).
"""
from __future__ import annotations

import re

import numpy as np

from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.addressed import addressed_by, without_subject
from vital_core.backends.offline.language.answer_types import (
    DATE,
    ENTITY,
    NUMBER,
    PERSON,
    PLACE,
    Mentions,
    extract_mentions,
    is_open_ended,
    question_type,
)
from vital_core.backends.offline.language.lexicon import ASKED_DIMENSIONS, LOCATIVE, QUESTION_LIGHT_VERBS, STOPWORDS
from vital_core.backends.offline.language.makers import maker_phrase
from vital_core.backends.offline.language.nlp import analyse, subtree
from vital_core.backends.offline.language.text import act_nouns, stem, words
from vital_core.backends.offline.language.value_match import said_as_bound
from vital_core.backends.offline.language.values import extract_values


def content_words(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in STOPWORDS and len(w) > 1}


def new_typed(mentions: Mentions, query_mentions: Mentions, kind: str,
               query_words: set[str] = frozenset()) -> set[str]:
    """Mentions of ``kind`` in the claim that the query does not already contain.

    Questions are often typed in lower case ("who gives the speech at the end of
    stuck on you"), so a name counts as the query's own when all its words are
    query words, whatever the capitalisation.
    """
    def new_names(names: set[str]) -> set[str]:
        return {n for n in names - query_mentions.names
                if not all(w in query_words for w in words(n))}
    if kind == PERSON:
        return new_names(mentions.names - mentions.places)
    if kind == DATE:
        return (mentions.years - query_mentions.years) | (mentions.dates - query_mentions.dates)
    if kind == NUMBER:
        return ({str(n) for n in mentions.numbers - query_mentions.numbers}
                | {f"#{n}" for n in mentions.ordinals - query_mentions.ordinals})
    if kind == PLACE:
        return new_names(mentions.places - query_mentions.places)
    if kind == ENTITY:
        return new_names(mentions.names) | (mentions.years - query_mentions.years)
    return set()


# a capitalised word joined to a lower-case one: an adjective ("English-speaking", "Paris-based")
_NAME_ADJECTIVE = re.compile(r"\b[A-Z][\w']*-[a-z][\w\-]*")


def names_asked(claim: str, kind: str, query_mentions: Mentions, query_words: set[str]) -> bool:
    """Does the claim name a thing of the kind the question asks for that the question does not name (a date
    for "when", a number for "how many", a person for "who"; ``new_typed`` with the question's mentions and
    words)? A people's or a language's adjective is no person ("the Latin alphabet", "the English-speaking
    world")."""
    found = new_typed(extract_mentions(claim), query_mentions, kind, query_words)
    if kind == PERSON:
        found -= {t.text.lower() for t in analyse(claim) if t.pos == "ADJ"}
        found -= {a.lower() for a in _NAME_ADJECTIVE.findall(claim)}
    return bool(found)


def says_predicate(claim: str, predicate: set[str]) -> bool:
    """Does the claim say the question's predicate (one of its lemmas or their synonyms, as any content word:
    "written by" says "Who composed ...?")?"""
    toks = analyse(claim)
    # a phrase says its one word ("turns liquid at 29.76 °C" says "What is the melting point ...?")
    # ... and so does the act's noun ("Its opening day was 10 June 2000" says "When did it open?")
    return any(t.lemma in predicate or lexicon.synonyms(t.lemma) & predicate
               for t in toks if t.pos in ("VERB", "NOUN", "ADJ", "PROPN")) \
        or any(word in predicate for word, _ in lexicon.phrases_in({t.lemma for t in toks})) \
        or any(t.pos == "NOUN" and any(t.lemma in act_nouns(p) for p in predicate) for t in toks)


def question_predicate(question: str) -> set[str]:
    """What a question says about its subject, as lemmas: its main verbs ("When did the Vasa *sink*?"),
    or, when it has only a light verb ("What was the first James Bond *film*?"), its common nouns, or the
    light verb when there are none ("What was Google originally *called*?")."""
    toks = [t for t in analyse(question) if t.pos != "PUNCT"]
    verbs = {t.lemma for t in toks if t.pos == "VERB" and t.lemma not in QUESTION_LIGHT_VERBS}
    # a verb phrase says its word: "Where does the race *take place*?" asks where it is held
    lemmas = {t.lemma for t in toks}
    verbs = {word for verb in verbs for word in lexicon.said_by_verb_phrase(verb, lemmas) or [verb]}
    verbs |= {also for verb in verbs for also in lexicon.ASKED_AS.get(verb, ())}
    if not verbs and toks and any(t.lemma == "do" and t.pos == "AUX" for t in toks[:3]) \
            and (toks[-1].pos != "PROPN" or toks[-1].dep == "ROOT"):
        # do-support needs a main verb: the parser sometimes reads a final bare verb as a noun ("did ... sink?")
        verbs = {toks[-1].lemma}
    nouns = {t.lemma for t in toks if t.pos == "NOUN"}
    # "What was Google originally called?": with no noun either, the light verb is all the question says
    return verbs or nouns or {t.lemma for t in toks if t.pos == "VERB" and t.lemma not in ("be", "do", "happen")}


def answer_slot(kind: str) -> str:
    """The kind of mention that names an answer of ``kind``: any new name for a person or a place (the place
    gazetteer is small, and a person question is often answered by a group's name)."""
    return ENTITY if kind in (PERSON, PLACE) else kind


def presumed_answer(question: str, claims: list[str], sim_rank: np.ndarray, predicate: set[str]) -> int | None:
    """The claim that answers a question asking for one thing, or None.

    Of the claims that name what the question asks for (a date for "when", a number for "how many", a name
    it does not already contain for "who", "where" and "which"), the one that says the question's predicate
    ("was *born* in Tupelo" for "Where was Elvis Presley born?"), else the one closest to the question
    (``sim_rank``: each claim's rank by similarity to the question, 1 the closest)."""
    kind = question_type(question)
    if kind not in (PERSON, DATE, NUMBER, PLACE, ENTITY) or not claims:
        return None
    q_mentions, q_words = extract_mentions(question), set(words(question))
    verbal = any(t.pos == "VERB" and t.lemma in predicate for t in analyse(question))
    if kind == ENTITY:
        # "What was the first James Bond film?" is answered by "The first James Bond film was Dr. No", whether
        # or not the answer reads as a name
        shares = [_restated_share(claim, question) for claim in claims]
        restating = [i for i, share in enumerate(shares) if share >= RESTATED_SHARE]
        if restating:
            # the subject that holds more of the question first: "The first of the Extraordinary Voyages was"
            # before "Jules Verne's Extraordinary Voyages is the series ..."
            return max(restating, key=lambda i: (shares[i], sim_rank[i]))
    slot = answer_slot(kind)
    candidates = [i for i, claim in enumerate(claims) if new_typed(extract_mentions(claim), q_mentions, slot, q_words)]
    if not candidates:
        return None
    # ... but a claim that names the very kind asked for comes first ("invented by René Laennec" before
    # "invented in 1816" for "who")
    def names_it(i: int) -> bool:
        if kind == PERSON:
            return names_asked(claims[i], PERSON, q_mentions, q_words)
        mentions = extract_mentions(claims[i])
        # a people's adjective names no place of its own ("one of the strangest episodes in European history")
        return kind != PLACE or any(name not in mentions.years and name not in lexicon.DEMONYMS
                                    for name in new_typed(mentions, q_mentions, ENTITY, q_words))
    exact = {i for i in candidates if names_it(i)}
    asked, counted = _asked_noun(question), counted_noun(question) if kind == NUMBER else ""
    adjective, dimension = asked_dimension(question) if kind == NUMBER else ("", "")
    ranking = ranking_words(question)
    return max(candidates, key=lambda i: (
        # "When was the first boat race held?" is not answered by a bound ("has been held since 1927")
        kind != DATE or dated(claims[i]),
        # "How many *fences* ...?" is answered by the claim that counts fences ("jump 30 fences"), not by one
        # counting runners ("cut from 40 to 34 runners")
        bool(counted) and any(v.dim == f"#{counted}" for v in extract_values(claims[i])),
        # "How *deep* ...?" by a length ("reaches 501 metres"), not a count ("has more than fifty peaks"), and
        # first by the one that says the adjective ("At its *deepest* point it reaches ..." before "Its average
        # depth is ...")
        measures(claims[i], dimension),
        bool(adjective) and adjective in {t.lemma for t in analyse(_before_consequence(claims[i]))},
        # "Which *museum* holds ...?" is answered by the claim naming a museum ("the National Museum of ...")
        bool(asked) and any(asked in words(n) for n in new_typed(extract_mentions(claims[i]), q_mentions,
                                                                   ENTITY, q_words)),
        # "Where ...?" is answered where a name is the place of the verb ("hangs in the Rijksmuseum"), not by
        # one named in passing ("... a project called Operation Night Watch")
        kind == PLACE and places_a_name(claims[i], q_words),
        # "Who composed ...?" by "The composer was Sergei Prokofiev" before "Prokofiev wrote it in 1936"
        kind == PERSON and names_maker(claims[i], predicate),
        says_predicate(claims[i], predicate),
        # "... the *first* Boat Race ... held?" by "The two crews first met on ..." before another dated claim
        bool(ranking) and ranking <= content_words(claims[i]),
        # the question's own verb before a synonym of it ("opened its first store" before "was started by"), as a
        # verb when the question says it as one ("graphic design" does not say "Who designed ...?")
        bool(predicate & {t.lemma for t in analyse(claims[i]) if t.pos == "VERB" or not verbal}),
        i in exact,
        # the statement before its detail ("... reaches 501 metres" before "..., which makes it the ...")
        not any(j != i and claims[j].rstrip(".") in claims[i] for j in candidates), sim_rank[i]))


def dated(claim: str) -> bool:
    """Does the claim give a date or year that is not a bound ("since 1927", "by 1900")?"""
    return any(v.kind in ("date", "year") and not said_as_bound(claim, v) for v in extract_values(claim))


def _before_consequence(claim: str) -> str:
    """The claim up to its ", which ..." consequence ("measures 1,298 metres, which made it the longest ...")."""
    return claim.split(", which ")[0]


def names_maker(claim: str, predicate: set[str]) -> bool:
    """Is the claim "<maker of the question's verb> was <name>" ("The composer was Sergei Prokofiev", "Its
    inventor was Barnes Wallis"), or a maker phrase when the question asks who made it ("The studio behind it was
    Maxis")?"""
    toks = analyse(claim)
    if maker_phrase(toks) is not None:
        return bool(predicate & lexicon.MAKING_VERBS)
    makers = {m for verb in predicate for m in lexicon.MAKERS_BY_VERB.get(verb, ())}
    root = next((t for t in toks if t.dep == "ROOT"), None)
    return root is not None and root.lemma == "be" and any(
        t.dep == "nsubj" and t.head == root.i and t.lemma in makers for t in toks) and any(
        t.dep == "attr" and t.head == root.i and t.pos == "PROPN" for t in toks)


# where a place is said: the lexicon's "in", "at", ..., and "inside"
_LOCATIVE = LOCATIVE | {"inside"}


def places_a_name(claim: str, question_words: set[str]) -> bool:
    """Is a proper name the object of "in"/"at"/... on the claim's main verb, said of what the question asks
    about ("The painting hangs in the Rijksmuseum"; not "The Rijksmuseum is in Amsterdam")?"""
    toks = analyse(claim)
    root = next((t for t in toks if t.dep == "ROOT"), None)
    subject = next((t for t in toks if root is not None and t.head == root.i and t.dep in ("nsubj", "nsubjpass")),
                   None)
    if subject is None or any(toks[i].pos == "PROPN" and toks[i].text.lower() not in question_words
                              for i in subtree(toks, subject.i)):
        return False
    return any(
        t.dep == "pobj" and t.pos == "PROPN" and toks[t.head].lemma in _LOCATIVE and toks[t.head].head == root.i
        for t in toks)


def asked_dimension(question: str) -> tuple[str, str]:
    """(the adjective, its dimension) of a "how <adjective>" question ("How deep is ...?" -> ("deep",
    "length")), or ("", "")."""
    toks = [t for t in analyse(question) if t.pos != "PUNCT"]
    return next(((toks[k + 1].lemma, ASKED_DIMENSIONS[toks[k + 1].lemma]) for k in range(len(toks) - 1)
                 if toks[k].text.lower() == "how" and toks[k + 1].lemma in ASKED_DIMENSIONS), ("", ""))


def measures(claim: str, dimension: str) -> bool:
    """Does the claim give a measure of ``dimension``?"""
    return bool(dimension) and any(v.dim == dimension for v in extract_values(claim))


def counted_noun(question: str) -> str:
    """The lemma of the noun a "how many" question counts ("How many fences ..." -> "fence", "How many red
    balls ..." -> "ball"), or ""."""
    toks = [t for t in analyse(question) if t.pos != "PUNCT"]
    start = next((k + 2 for k in range(len(toks) - 2) if toks[k].text.lower() == "how"
                  and toks[k + 1].text.lower() == "many"), None)
    if start is None:
        return ""
    # past the adjectives before it ("red", "main")
    return next((t.lemma for t in toks[start:start + 3] if t.pos == "NOUN"), "")


def _asked_noun(question: str) -> str:
    """The noun a "which"/"what" question asks for ("Which museum ..." -> "museum"), or ""."""
    toks = [t for t in analyse(question) if t.pos != "PUNCT"]
    if len(toks) > 1 and toks[0].lemma in ("which", "what") and toks[1].pos == "NOUN":
        return toks[1].text.lower()
    return ""


# the share of a question's content words a claim's subject must hold to restate what the question asks for
RESTATED_SHARE = 0.75
# ... or this share, when the subject holds the question's ordinal or superlative
RANKED_RESTATED_SHARE = 0.5


def restates_as_subject(claim: str, question: str) -> bool:
    """Is the claim "<what the question asks for> is/was <something>": a form of "be" whose subject holds
    (nearly) all the question's content words and whose complement is new?"""
    return _restated_share(claim, question) >= RESTATED_SHARE


def _restated_share(claim: str, question: str) -> float:
    """The share of the question's content words (at least two) that the subject of the claim's "be" holds
    when the claim has a complement; 0 otherwise."""
    toks = analyse(claim)
    root = next((t for t in toks if t.dep == "ROOT"), None)
    subject = next((t for t in toks if t.dep == "nsubj" and root is not None and t.head == root.i), None)
    if root is None or root.lemma != "be" or subject is None or not any(
            t.dep == "attr" and t.head == root.i for t in toks):
        return 0.0
    asked = content_words(question)
    said = content_words(" ".join(toks[i].text for i in sorted(subtree(toks, subject.i))))
    ranking = ranking_words(question)
    if len(asked) < 2 or not ranking <= said:
        return 0.0      # "the first of ..." is asked: a subject without "first" names something else
    share = len(asked & said) / len(asked)
    # the ranking word held, the subject may leave out a name the question gave ("The first of the
    # Extraordinary Voyages was ..." for "... the first of Jules Verne's Extraordinary Voyages?")
    return max(share, RESTATED_SHARE) if ranking and share >= RANKED_RESTATED_SHARE else share


def ranking_words(question: str) -> set[str]:
    """The question's ordinals and superlatives ("first", "largest"), as content-word stems."""
    return {stem(t.text.lower()) for t in analyse(question)
            if t.tag == "JJS" or t.text.lower() in lexicon.ORDINAL_WORDS}


def answering_claims(question: str, kind: str, claims: list[str], evidence_sentences: list[str] | None) -> set[int]:
    """For a question asking for one thing, the claims that name a thing of the kind asked in a relation the
    evidence states (whatever the value); empty without evidence or for an open-ended request."""
    if not evidence_sentences or kind not in (PERSON, DATE, NUMBER, PLACE, ENTITY) or is_open_ended(question):
        return set()
    slot = answer_slot(kind)
    q_mentions, q_words = extract_mentions(question), set(words(question))
    return {i for i in addressed_by(claims, evidence_sentences)
            if new_typed(extract_mentions(without_subject(claims[i])), q_mentions, slot, q_words)}


def verb_says(claim: str, predicate: set[str]) -> bool:
    """Does the claim's main verb say the question's predicate (itself or a synonym)?"""
    root = next((t for t in analyse(claim) if t.dep == "ROOT"), None)
    return root is not None and (root.lemma in predicate or bool(lexicon.synonyms(root.lemma) & predicate))


def main_verb(claim: str) -> str:
    return next((t.lemma for t in analyse(claim) if t.dep == "ROOT"), "")


def describes_a_person(claim: str) -> bool:
    """Is the claim what a named person was ("Walter Hunt was a prolific New York mechanic", "August Kekule was a
    German chemist then working in Ghent")? For "Who ...?" that is context to the answer, not the answer."""
    toks = analyse(claim)
    root = next((t for t in toks if t.dep == "ROOT"), None)
    if root is None or root.lemma != "be":
        return False
    subject = next((t for t in toks if t.head == root.i and t.dep == "nsubj"), None)
    attr = next((t for t in toks if t.head == root.i and t.dep == "attr"), None)
    return subject is not None and subject.pos == "PROPN" and attr is not None and attr.pos == "NOUN" \
        and any(t.head == attr.i and t.dep == "det" and t.lemma in ("a", "an") for t in toks)
