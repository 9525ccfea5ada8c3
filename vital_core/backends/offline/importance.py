"""Importance of each claim to the query: features, a linear score, calibrated labels.

Each claim of a response gets the features in ``FEATURES``:

- its similarity to the query (MiniLM cosine), as a rank among the
  response's claims and as the gap to the best claim;
- position: of the claim among the claims, of its sentence in the response;
- how much of its source sentence it carries (cosine claim-sentence: the
  sentence's main statement rather than a detail split off from it);
- answer-type matching: the claim carries a mention of the kind the query
  asks for (a person for "who", a date for "when", a number for "how many",
  a place for "where", a name for "what/which") that the query lacks, and is
  among the claims most similar to the query (top 30%); and, for a
  who/when/how-many/where question, whether the claim is one of the two
  closest to the question that name such a thing (the presumed answer);
- background cues: the claim only restates the query's subject, or is a
  bare definition ("Crocodile Dundee is a film"); hedges; meta statements
  ("it is important to check ...").

The score is a weighted sum (``lexicon.IMPORTANCE_WEIGHTS``); labels come from two thresholds
on it (``lexicon.IMPORTANCE_THRESHOLDS``), not from fixed quotas, so a response that lacks the
answer gets few or no vital claims. Both were fitted by ridge regression and
a threshold search on human labels, as ``bench/bench_offline_quality.py
--calibrate`` does and the README reports (with cross-validated figures).
The order puts vital first, then okay, then less-important; inside a tier,
claims of the same sentence stay together.
"""
from __future__ import annotations

import re

import numpy as np

from vital_core.backends.offline.answer import (
    answer_slot,
    answering_claims,
    asked_dimension,
    content_words,
    counted_noun,
    describes_a_person,
    main_verb,
    measures,
    names_asked,
    names_maker,
    new_typed,
    places_a_name,
    presumed_answer,
    question_predicate,
    ranking_words,
    restates_as_subject,
    says_predicate,
    verb_says,
)
from vital_core.backends.offline.decompose import DAY_OF_DATE_CLAIM
from vital_core.backends.offline.language.addressed import addressed_by
from vital_core.backends.offline.language.answer_types import (
    DATE,
    ENTITY,
    META_PATTERNS,
    NUMBER,
    PERSON,
    PLACE,
    SALIENT,
    YESNO,
    Mentions,
    about,
    extract_mentions,
    is_open_ended,
    question_type,
    topic_words,
)
from vital_core.backends.offline.language.embedder import embed
from vital_core.backends.offline.language.lexicon import (
    IMPORTANCE_THRESHOLDS,
    IMPORTANCE_WEIGHTS,
)
from vital_core.backends.offline.language.nlp import analyse
from vital_core.backends.offline.language.text import words
from vital_core.backends.offline.language.values import extract_values
from vital_core.results.model import IMPORTANCE_LABELS, LESS_IMPORTANT, OKAY, VITAL, strip_generation_prefix

FEATURES = ("sim_rank", "sim_gap", "claim_position", "position", "to_sentence", "answer_type",
            "best_answer", "restates_only", "definition", "hedge", "meta")

# "best_answer" marks the BEST_ANSWER_COUNT claims most similar to a who/when/how-many/where
# question that carry a new mention of the asked type, among the upper half by similarity
BEST_ANSWER_COUNT = 2
BEST_ANSWER_MIN_RANK = 0.5
# answer-type matching counts only for claims above this similarity rank (0..1, 1 = best)
ANSWER_TYPE_MIN_RANK = 0.7
# an open-ended request: how many of the claims that date or measure its subject are vital (best scored first)
OPEN_ENDED_FACTS = 1
# a claim ranked vital for an open-ended request stays vital when one evidence sentence holds this share of
# its predicate words, whatever its values (``addressed.addressed_by``)
SPOKEN_OF_SHARE = 0.5
# an open-ended request's evidence singles out what matters when it is about at most this many of its claims
FOCUSED_FACTS = 3
# ... and then, when it speaks of at most NARROW_SPOKEN_OF of them at all (a pasted passage, not a document
# retelling the whole answer in other words), a claim ranked vital stays vital only when one evidence sentence
# holds this share of its predicate words (a definition the passage touches with one word, "island", is not
# what it judges)
NARROW_SPOKEN_OF = 6
NARROW_SPOKEN_OF_SHARE = 0.75

_DEFINITION = re.compile(r"^[\w\"'“”().,\- ]{1,60}\s(is|are|was|were)\s(a|an)\s[\w\-]+(\s[\w\-]+)?\.?$",
                         re.IGNORECASE)


def claim_features(query: str, claims: list[str], sentence_index: list[int],
                   sentences: list[str] | None = None) -> np.ndarray:
    """One row of ``FEATURES`` per claim (claims of one response, in response order)."""
    n = len(claims)
    if n == 0:
        return np.zeros((0, len(FEATURES)))
    question = strip_generation_prefix(query)
    sentences = sentences if sentences is not None else list(claims)
    unique_sentences = list(dict.fromkeys(sentences))
    vectors = embed([question] + list(claims) + unique_sentences)
    qv = vectors[0]
    sims = vectors[1:n + 1] @ qv
    qtype = question_type(question)
    q_mentions = extract_mentions(question)
    q_words = content_words(question)
    q_all_words = set(words(question))
    n_sentences = max(sentence_index) + 1
    order = np.argsort(-sims, kind="stable")
    rank = np.empty(n)
    rank[order] = np.arange(n)
    mentions = [extract_mentions(c) for c in claims]
    # The presumed answer: the claim most similar to the query.
    top = int(order[0])
    # how much of its sentence a claim carries: the main claim of a sentence vs a detail
    sentence_vectors = dict(zip(unique_sentences, vectors[n + 1:]))
    to_sentence = np.array([float(vectors[1 + i] @ sentence_vectors[sentences[i]]) for i in range(n)])
    claim_rank = 1.0 - rank / max(1, n - 1) if n > 1 else np.ones(n)
    typed_kind = qtype if qtype in (PERSON, DATE, NUMBER, PLACE, ENTITY) else None
    # the presumed answer statements: the claims closest to the question that name what it asks for
    best_answer: set[int] = set()
    if qtype in (PERSON, DATE, NUMBER, PLACE):
        candidates = [i for i in order if claim_rank[i] >= BEST_ANSWER_MIN_RANK
                      and new_typed(mentions[i], q_mentions, qtype, q_all_words)]
        best_answer = {int(i) for i in candidates[:BEST_ANSWER_COUNT]}
    rows = []
    for i, claim in enumerate(claims):
        m = mentions[i]
        c_words = content_words(claim)
        overlap = len(q_words & c_words) / len(q_words) if q_words else 0.0
        values = {
            "sim_rank": float(claim_rank[i]),
            "sim_gap": float(sims[i] - sims[top]),
            "claim_position": 1.0 - i / max(1, n - 1),
            "position": 1.0 - sentence_index[i] / max(1, n_sentences - 1) if n_sentences > 1 else 1.0,
            "to_sentence": float(to_sentence[i]),
            # only in claims about the question (top 30% by similarity): elsewhere a name or a
            # year is usually a detail, and in a response that lacks the answer it never is one
            "answer_type": 1.0 if (typed_kind and claim_rank[i] > ANSWER_TYPE_MIN_RANK
                                   and new_typed(m, q_mentions, typed_kind, q_all_words)) else 0.0,
            # for a yes/no question, restating it (affirmed or negated) is the answer
            "best_answer": 1.0 if i in best_answer else 0.0,
            "restates_only": 1.0 if (qtype != YESNO and overlap >= 0.5
                                     and len(c_words - q_words) <= 1) else 0.0,
            "definition": 1.0 if _DEFINITION.match(claim.strip()) and len(claim.split()) <= 9 else 0.0,
            "hedge": 1.0 if m.hedged else 0.0,
            "meta": 1.0 if META_PATTERNS.search(claim) else 0.0,
        }
        rows.append([values[name] for name in FEATURES])
    return np.array(rows, dtype=np.float64)


def score_features(features: np.ndarray, weights: dict[str, float] = IMPORTANCE_WEIGHTS) -> np.ndarray:
    w = np.array([weights.get(name, 0.0) for name in FEATURES])
    return features @ w + weights.get("intercept", 0.0) if len(features) else np.zeros(0)


def label_for(score: float, thresholds: dict[str, float] = IMPORTANCE_THRESHOLDS) -> str:
    if score >= thresholds["vital"]:
        return VITAL
    if score >= thresholds["okay"]:
        return OKAY
    return LESS_IMPORTANT


def importance_order(ids: list[str], labels: dict[str, str], scores: list[float],
                     sentence_index: list[int]) -> list[str]:
    """Vital, then okay, then less-important; same-sentence claims stay together in a tier."""
    order: list[str] = []
    for tier in IMPORTANCE_LABELS:   # the method's tier order
        members = [i for i, sid in enumerate(ids) if labels[sid] == tier]
        groups: dict[int, list[int]] = {}
        for i in members:
            groups.setdefault(sentence_index[i], []).append(i)
        # sentences by their best claim's score (ties: earlier sentence first)
        ranked = sorted(groups.items(), key=lambda kv: (-max(scores[i] for i in kv[1]), kv[0]))
        for _, group in ranked:
            group.sort(key=lambda i: (-scores[i], i))
            order.extend(ids[i] for i in group)
    return order


def _raise_to_vital(labels: dict[str, str], scores: list[float], thresholds: dict[str, float], i: int,
                    sid: str) -> None:
    labels[sid] = VITAL
    scores[i] = max(scores[i], thresholds["vital"])


def _lower_to_okay(labels: dict[str, str], scores: list[float], thresholds: dict[str, float], i: int,
                   sid: str) -> None:
    labels[sid] = OKAY
    scores[i] = min(scores[i], thresholds["vital"] - 1e-6)


def _make_vital(ids: list[str], labels: dict[str, str], scores: list[float], thresholds: dict[str, float],
                vital: set[int]) -> None:
    """These claims vital and the others at most okay; nothing changes when there are none."""
    if not vital:
        return
    for i, sid in enumerate(ids):
        if i in vital:
            _raise_to_vital(labels, scores, thresholds, i, sid)
        elif labels[sid] == VITAL:
            _lower_to_okay(labels, scores, thresholds, i, sid)


def _spoken_of(claims: list[str], among: list[int], evidence_sentences: list[str],
               share: float = SPOKEN_OF_SHARE) -> set[int]:
    """Those of ``among`` (claim indices) that the evidence speaks of at all: one sentence holds
    ``SPOKEN_OF_SHARE`` of the claim's predicate words, whatever its values."""
    return {among[n] for n in addressed_by([claims[i] for i in among], evidence_sentences, share,
                                           with_value=False)}


def _beside_the_answer(ids: list[str], labels: dict[str, str], scores: list[float], thresholds: dict[str, float],
                       claims: list[str], evidence_sentences: list[str], staying: set[int]) -> None:
    """The evidence the user gave says what an answer to one thing is judged on: a vital statement it does not
    speak of at all is context, at most okay, when a vital one stays (of ``staying``, the answer and what is
    about it, or one the evidence speaks of)."""
    vital = [i for i, sid in enumerate(ids) if labels[sid] == VITAL]
    kept = _spoken_of(claims, vital, evidence_sentences) | (staying & set(vital))
    for i in set(vital) - kept if kept else ():
        _lower_to_okay(labels, scores, thresholds, i, ids[i])


def rank_claims(query: str, ids: list[str], claims: list[str], sentence_index: list[int],
                sentences: list[str] | None = None, weights: dict[str, float] = IMPORTANCE_WEIGHTS,
                thresholds: dict[str, float] = IMPORTANCE_THRESHOLDS, answer_focus: bool = True,
                evidence_sentences: list[str] | None = None) -> tuple[dict[str, str], list[str], list[float]]:
    """(labels, order, scores) for one response's claims. ``answer_focus``: a question asking for one
    thing makes its presumed answer the vital claim (a response's; evidence that tells a whole story
    around the answer is ranked by the fitted scores alone). ``evidence_sentences``: the documents or
    reference the claims will be checked against; for an open-ended request they say what is vital."""
    if not claims:
        return {}, [], []
    features = claim_features(query, claims, sentence_index, sentences)
    scores = [float(s) for s in score_features(features, weights)]
    labels = {sid: label_for(s, thresholds) for sid, s in zip(ids, scores)}
    question = strip_generation_prefix(query)
    predicate = question_predicate(question)
    answer = None if is_open_ended(question) or not answer_focus else \
        presumed_answer(question, claims, features[:, FEATURES.index("sim_rank")], predicate)
    kind = question_type(question)
    answering = answering_claims(question, kind, claims, evidence_sentences)
    # only a claim that says the question's predicate answers it for sure: otherwise the fitted labels stand
    # a question with a main verb ("Who *discovered* penicillin?") is answered by claims whose own main verb
    # says it: "... returned to *find* a mould" names the act only in passing
    verbal = bool(predicate) and any(t.pos == "VERB" and t.lemma in predicate for t in analyse(question))
    # "What was the first of Jules Verne's Extraordinary Voyages?" has no predicate word of its own, and "The
    # first of the Extraordinary Voyages was Five Weeks in a Balloon" answers it by restating it
    restated = answer is not None and kind == ENTITY and not predicate and restates_as_subject(claims[answer], question)
    # "Where is the Cave of Altamira?" (no verb of its own) is answered by the claim that places it by name
    # ("The Cave lies in Cantabria"), not by one that places it loosely ("on the northern coast of Spain");
    # another claim placing it by name stays ("... are not located in New Mexico; they are ... in Colorado")
    q_words = set(words(question))
    placed = answer is not None and kind == PLACE and not predicate and places_a_name(claims[answer], q_words)
    # "How deep is Lake Tahoe?" is answered by the claim giving a length ("At its deepest point it reaches 501
    # metres"); one that measures nothing of the kind ("The massif has more than fifty peaks") is context
    # ... when the evidence, if any, is about that claim
    # ... whatever nouns name its subject ("How long is the Vasaloppet ski race?"), when no verb of its own asks
    dimension = asked_dimension(question)[1] if kind == NUMBER and not verbal else ""
    measure_answered = answer is not None and measures(claims[answer], dimension) \
        and (not evidence_sentences or bool(addressed_by([claims[answer]], evidence_sentences)))
    # "Its creator was Bill Watterson" says "Who created ...?" by its maker noun
    said = answer is not None and predicate and (says_predicate(claims[answer], predicate)
                                                  or kind == PERSON and names_maker(claims[answer], predicate))
    # "When was the *first* Boat Race ... held?" is answered by the claim naming a date that says "first" ("The two
    # crews first met on 10 June 1829"), whatever its verb
    ranking = ranking_words(question)
    ranked = answer is not None and kind in (PERSON, DATE, NUMBER, PLACE, ENTITY) and bool(ranking) \
        and ranking <= content_words(claims[answer])
    focused = answer is not None and (said or restated or placed or measure_answered or ranked)
    if focused:
        # A question that asks for one thing (who, when, where, how many, which) is answered by the claim
        # that names it; the response's other statements are context to that answer, at most okay.
        for i, sid in enumerate(ids):
            if i == answer:
                _raise_to_vital(labels, scores, thresholds, i, sid)
            elif labels[sid] == VITAL and (restated or placed and not places_a_name(claims[i], q_words)
                                           or measure_answered and not measures(claims[i], dimension)
                                           # the answer with a consequence ("..., which makes it the ..."),
                                           # a statement of its own
                                           or claims[i].startswith(claims[answer].rstrip(".") + ", which")
                                           or predicate and not says_predicate(claims[i], predicate)
                                           or verbal and kind == PERSON and not verb_says(claims[i], predicate)
                                           or sentence_index[i] == sentence_index[answer]
                                           and main_verb(claims[i]) == main_verb(claims[answer])
                                           and not new_typed(extract_mentions(claims[i]), Mentions(), kind)):
                # the answer's sentence cut at the modifiers of its verb: the other modifiers are detail
                # ("launched on 5 September 1977" answers "when"; "... from Cape Canaveral" does not)
                _lower_to_okay(labels, scores, thresholds, i, sid)
        if evidence_sentences:
            _beside_the_answer(ids, labels, scores, thresholds, claims, evidence_sentences, {answer})
    elif answering:
        # no claim says the question's predicate in its words ("Which museum holds ...?" / "is displayed
        # at ..."): the claims that name what is asked and state a relation the evidence states are the answer;
        # a date or a number named there is the answer, a name is looser (any name is one), so there it only
        # confirms the presumed answer or stands in for a missing one
        # "How many red balls ...?" is answered by the claims that count balls, when some do
        counted = counted_noun(question) if kind == NUMBER else ""
        counting = {i for i in answering if counted and any(v.dim == f"#{counted}" for v in extract_values(claims[i]))}
        if kind in (DATE, NUMBER) or answer is None or answer in answering:
            _make_vital(ids, labels, scores, thresholds, counting or answering)
    elif answer is not None and kind in (DATE, NUMBER, PERSON):
        # "When was the Battle of Culloden?", "How tall is Cologne Cathedral?": no verb to say, but a date or a
        # measure is asked for, and a claim that names none is no answer ("fought on Drummossie Moor"), nor one
        # that measures something else ("completed six centuries after ..." for "How tall?"); "Who devised ...?"
        # is not answered by a claim naming no one ("QWERTY is the most common keyboard layout"). (Not "Where
        # ...?" by any new name: NQ detection fell from 64% to 60%.)
        measured = {v.dim for v in extract_values(claims[answer]) if v.dim and not v.dim.startswith("#")} \
            if kind != PERSON else set()
        vital = [i for i, sid in enumerate(ids) if labels[sid] == VITAL]
        q_mentions = extract_mentions(question)
        answering_kind = {i for i in vital if names_asked(claims[i], kind, q_mentions, q_words)
                          and (not measured or measured & {v.dim for v in extract_values(claims[i])})}
        # the fitted labels stand where none of their vital claims gives what is asked (raising the presumed
        # answer then cost the held-out sets an RLP on a correct answer each)
        for i in set(vital) - answering_kind if answering_kind else ():
            _lower_to_okay(labels, scores, thresholds, i, ids[i])
    if answer is not None and kind == PERSON and not describes_a_person(claims[answer]):
        # "Who invented ...?" is answered by the claim tying the person to the act; what the person was
        # ("Walter Hunt was a prolific New York mechanic") is context beside it
        for i, sid in enumerate(ids):
            if i != answer and labels[sid] == VITAL and describes_a_person(claims[i]):
                _lower_to_okay(labels, scores, thresholds, i, sid)
    if evidence_sentences and answer is not None and not focused:
        # where no claim was found to say the answer, likewise ("The dancing plague of 1518 is one of the
        # strangest episodes in European history" beside "... in the city of Strasbourg, ..."), and a statement
        # naming what the presumed answer names is about the answer, and stays ("Suite bergamasque is a piano
        # work ..." beside "Clair de lune is the third movement of Suite bergamasque")
        slot, q_mentions = answer_slot(kind), extract_mentions(question)
        named = new_typed(extract_mentions(claims[answer]), q_mentions, slot, q_words)
        naming = {i for i, claim in enumerate(claims)
                  if labels[ids[i]] == VITAL and named & new_typed(extract_mentions(claim), q_mentions, slot, q_words)}
        _beside_the_answer(ids, labels, scores, thresholds, claims, evidence_sentences, {answer} | naming)
    if is_open_ended(question):
        # The weights were fitted on questions (the only human labels there are); for a request such as
        # "Tell me a bio of ..." what the subject is known for - an achievement, a record - is vital, and so
        # is the best-scored fact that places the subject itself: a date or a number said of it.
        topic = topic_words(question)
        on_topic = [i for i, claim in enumerate(claims) if about(claim, topic)]
        placing = [i for i in on_topic if any(new_typed(extract_mentions(claims[i]), Mentions(), k)
                                              for k in (DATE, NUMBER))]
        placing = sorted(placing, key=lambda i: -scores[i])[:OPEN_ENDED_FACTS]
        for i, (sid, claim) in enumerate(zip(ids, claims)):
            if i in placing or SALIENT.search(claim):
                _raise_to_vital(labels, scores, thresholds, i, sid)
        addressed = addressed_by(claims, evidence_sentences) if evidence_sentences else set()
        if evidence_sentences and len(addressed) <= FOCUSED_FACTS:
            # "Tell me about X" names no answer to look for, and the offline labeller knows no more of X than
            # the text. Evidence that speaks to one or a few of the answer's facts (a passage a user pasted)
            # says what the answer is judged on: those facts are vital, and so are those ranked vital above
            # when the evidence speaks of them at all; the answer's other statements, which it does not speak
            # of, at most okay - even when that leaves none vital (a definition the evidence never touches
            # is not what this evidence can judge). Evidence that covers many of them singles none out: the
            # ranking above stands.
            ranked = [i for i, sid in enumerate(ids) if labels[sid] == VITAL]
            # each claim is read on its own, so the ranked ones the evidence speaks of are among all it speaks of
            spoken = _spoken_of(claims, list(range(len(claims))), evidence_sentences)
            kept = spoken & set(ranked)
            if len(spoken) <= NARROW_SPOKEN_OF:
                # a date or a number the passage speaks of loosely, beside one of its own kind, is still its fact;
                # one it speaks of with no date or number beside is not ("published by Macmillan" does not
                # judge "It was published in 1865")
                dated = [i for i in ranked if any(new_typed(extract_mentions(claims[i]), Mentions(), kind)
                                                  for kind in (DATE, NUMBER))]
                kept = _spoken_of(claims, [i for i in ranked if i not in dated], evidence_sentences,
                                  NARROW_SPOKEN_OF_SHARE)
                kept |= {dated[n] for n in addressed_by([claims[i] for i in dated], evidence_sentences,
                                                        SPOKEN_OF_SHARE, kinds_of=frozenset((DATE, NUMBER)))}
            for i in set(ranked) - addressed - kept:
                _lower_to_okay(labels, scores, thresholds, i, ids[i])
            for i in addressed:
                _raise_to_vital(labels, scores, thresholds, i, ids[i])
    for i, claim in enumerate(claims):
        if labels[ids[i]] == VITAL and DAY_OF_DATE_CLAIM.match(claim):
            _lower_to_okay(labels, scores, thresholds, i, ids[i])   # "15 April 1912 was a Monday": context
        # the claim as written beside its vital statement ("There are five Platonic solids, a fact proved in
        # ..." beside "There are five Platonic solids"): what it adds is detail
        elif labels[ids[i]] == VITAL and any(labels[ids[j]] == VITAL and claim.startswith(claims[j].rstrip(".") + ",")
                                             for j in range(len(claims)) if j != i):
            _lower_to_okay(labels, scores, thresholds, i, ids[i])
    return labels, importance_order(ids, labels, scores, sentence_index), scores
