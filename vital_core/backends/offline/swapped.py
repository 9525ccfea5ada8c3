"""A changed value read through support: the claim with the evidence's value in place of its own is stated.

``conflicts.value_conflict`` asks that the rest of a claim be stated in the sentence's words, without its
value; a claim worded differently ("Wikipedia went online on 15 January 2004" / "was launched on 15 January
2001", "Over that distance the horses jump 32 fences" / "The Grand National has 30 fences") says too little
besides its value for that. Here the one value the evidence does not state is put back as one of the closest
sentences gives it, and the claim so changed is judged by the support rules (``support``): when that
sentence then supports it, the two differ only in the value, which is a contradiction. The value it puts
back must be the sentence's only rival of the same kind, not one said of another noun, a lifespan or a sum,
and must stand by the same words as the claim's own value. A place name after the same preposition is read
the same way ("Its headquarters are in Modena" / "is headquartered in Maranello"), but never a place the
lexicon knows against one it does not, which may hold it ("in Andalusia" / "in Spain").
"""
from __future__ import annotations

import numpy as np

from vital_core.backends.offline import conflicts, stated
from vital_core.backends.offline.evidence_index import EvidenceIndex
from vital_core.backends.offline.language.analysis import Analysis, analyse_texts, lemma_found
from vital_core.backends.offline.language.embedder import embed
from vital_core.backends.offline.language.frames import frame, frame_of_other_dimension
from vital_core.backends.offline.language.instances import same_instance
from vital_core.backends.offline.language.lexicon import (
    EVENT_QUALIFIERS,
    LOCATIVE,
    MEASURE_VERBS,
    dimension_senses,
    nested,
    place_kind,
)
from vital_core.backends.offline.language.makers import maker_phrase, maker_verbs
from vital_core.backends.offline.language.name_match import name_found
from vital_core.backends.offline.language.nlp import Tok, main_subject
from vital_core.backends.offline.language.roles import agent_verb
from vital_core.backends.offline.language.value_match import (
    comparable,
    consistent,
    in_lifespan,
    mismatch_reason,
    name_mismatch,
    time_offset,
)
from vital_core.backends.offline.language.values import Value, vague
from vital_core.backends.offline.stated import rest_coverage
from vital_core.backends.offline.support import support
from vital_core.backends.offline.verdict import ALIGN_MIN, ClaimVerdict, quote
from vital_core.results.model import CONTRADICTED, SUPPORTED

SWAP_REST_COVERAGE = 0.6   # of the claim's other words (its frame and a stand-in subject left out), stated
SWAP_SENTENCES = 3         # the closest sentences tried, each by itself


def _rival(claim: Analysis, value: Value, sentence: Analysis) -> Value | None:
    """The sentence's one value that fills the claim value's slot with another value, or None."""
    if stated.derivable(value, sentence):
        return None
    rivals = [v for v in sentence.values if comparable(value, v) and not consistent(value, v)
              and not vague(sentence.text, v)    # "a few hundred dollars" is no one number
              # the claim's other end of a span ("from about 1644 to 1737") is no rival; a measure said again in
              # other units ("8,019 metres, or roughly 26,545 feet") is no other end
              and not any(consistent(other, v) for other in claim.values if other is not value and not other.is_measure)
              and not stated.value_found(v, [claim]) and not conflicts.of_another_noun(claim, sentence, v)
              and not in_lifespan(sentence.text, v) and not time_offset(sentence.text, v)
              and not stated.of_another_verb(claim, sentence, v)]
    if len(rivals) != 1 or any(consistent(value, v) for v in sentence.values):
        return None
    anchor = conflicts.anchor(claim, value)
    if anchor is not None and not stated.said_near(anchor, sentence, [stated.token_at(sentence, rivals[0].start)],
                                                   {value.dim.lstrip("#")}):
        return None     # the rival stands by other words than the claim's value does
    return rivals[0]


def _roles_kept(claim: Analysis, sentence: Analysis) -> bool:
    """Each name of the claim that acts or is acted on does so in the sentence too (not "Kasparov beat Deep
    Blue" against "Deep Blue defeated Garry Kasparov")."""
    for name in claim.names:
        mine = conflicts.role(claim, name)
        # the same name written out when the sentence has it, else one it may stand for ("Kasparov" / "Garry
        # Kasparov"), never a longer name that holds one of its words ("the Gulf of Corinth")
        same = [other for other in sentence.names if other.lower() == name.lower()]
        theirs = {conflicts.role(sentence, other) for other in same or [
            other for other in sentence.names
            if name_found(name, stated.as_name(other)) or name_found(other, stated.as_name(name))]}
        if mine in _ACTING and theirs & _ACTING and mine not in theirs:
            return False
    return True


_ACTING = {"doer", "undergoer"}


def _same_subject(claim: Analysis, sentence: Analysis) -> bool:
    """The claim's subject is stated in the sentence: its name, its noun, or a bare noun standing for the
    sentence's named subject ("The summit stands at ..." / "Mount Kinabalu is ... high")."""
    subject = main_subject(claim.toks)
    if subject is None or subject.pos == "PRON" or maker_phrase(claim.toks) is subject:
        return True     # (the studio "behind" a thing stands for its maker, whom the changed claim's support reads)
    if _part_of_topic(claim, subject):
        return True
    named = [n for n in claim.names if claim.toks[claim.names[n]].i == subject.i]
    if named:
        return name_found(named[0], sentence)
    return lemma_found(subject.lemma, sentence) or subject.lemma in conflicts.stand_in(claim, sentence)


def _said_alike(claim: Analysis, sentence: Analysis, value: Value | None) -> set[str]:
    """The claim's words the sentence says in its own way around a measure: a measure verb ("rises to 3,798
    metres", "stretches for 6.4 kilometres") and the words of its dimension ("above sea level") are said by the
    sentence's word for that dimension ("is 3,798 metres high"; any dimension word for a verb of any dimension),
    and the part of the thing a possessive names ("Its summit") by the thing itself."""
    if value is None or not value.is_measure or claim.predicate not in MEASURE_VERBS:
        return set()
    theirs = dimension_senses(t.lemma for t in sentence.toks)
    mine = dimension_senses(claim.content) | dimension_senses(MEASURE_VERBS[claim.predicate])
    if not theirs or mine and not mine & theirs:
        return set()
    subject = main_subject(claim.toks)
    part = {subject.lemma} if subject is not None and _part_of_topic(claim, subject) else set()
    return {claim.predicate} | {w for w in claim.content if dimension_senses([w]) & theirs} | part


def _part_of_topic(claim: Analysis, subject: Tok) -> bool:
    """"Its summit rises to ...": a part of what the text is about, as "it" is."""
    return any(t.dep == "poss" and t.head == subject.i and t.pos == "PRON" for t in claim.toks)


def _rival_name(claim: Analysis, name: str, sentence: Analysis) -> str | None:
    """The sentence's one name after the same preposition of place or making as the claim's ``name`` ("in
    Modena" / "in Maranello"), not a name the claim gives, or None."""
    word = _word_before(claim.text, name)
    # "Its author was Elizabeth Gaskell", "They were the invention of Percy Shaw" / "was written by Anna Sewell"
    of_phrase = word == "of"
    makers = maker_verbs(claim.toks, after_of=of_phrase) if word in ("is", "was", "were", "of") else frozenset()
    if makers:
        word = "by"
    # "near Perth" and "near Fremantle" may both be true: nearness names no one place
    if word.split(" ")[0] not in LOCATIVE - {"near"} and word != "by":
        return None
    rivals = [other for other in sentence.names if _word_before(sentence.text, other) == word
              and not name_found(other, claim) and other not in sentence.guessed]
    if word == "by" and (len(rivals) > 1 or of_phrase):
        # "written by A. A. Milne and published by Methuen": the one whose verb is the claim's, or a maker's;
        # "the invention of X" is read only against whom "invented by" names
        verbs = makers or {claim.predicate}
        rivals = [other for other in rivals if agent_verb(sentence, other) in verbs]
    if len(rivals) != 1:
        return None
    # a place the lexicon knows beside one it does not may hold it ("in Andalusia" / "in Spain"; "born in
    # Clontarf" / "in Dublin"), but a city it knows in the claim is read as an unknown one is (a changed place is
    # most often a better-known city: "in Munich" / "in Stuttgart"); two it knows must be of one kind and apart;
    # two it does not know are read as two places of one kind
    kinds = (place_kind(name), place_kind(rivals[0]))
    if any(kinds) and (kinds[0] != kinds[1] and kinds != ("city", "") or nested(name, rivals[0])):
        return None
    return rivals[0]


def _word_before(text: str, name: str) -> str:
    """The word a name follows, with its article ("in the Dordogne": "in the", which a city never takes, so "in
    the Teatro Kursaal" is no rival of "in Lugano")."""
    at = text.find(name)
    before = [w.lower() for w in text[:at].split()] if at > 0 else []
    if len(before) >= 2 and before[-1] == "the":
        return " ".join(before[-2:])
    return before[-1] if before else ""


def swapped_value(claim: Analysis, index: EvidenceIndex, top: list[int], sims: np.ndarray) -> ClaimVerdict | None:
    """Contradicted when one of the closest sentences, given the claim with its one unstated value (or name)
    replaced by that sentence's rival, supports it. The changed value lowers the claim's similarity to the
    sentence that gives the right one ("The game was made by Sega" is closer to "Its designer spent about a
    year on the game" than to "... was developed by Taito"), so the closest few are tried, each by itself."""
    # the closest however far (the changed name may be most of the claim), the next ones when aligned
    for k in top[:1] + [i for i in top[1:SWAP_SENTENCES] if float(sims[i]) >= ALIGN_MIN]:
        verdict = _swapped_in(claim, index, k, len(top), sims)
        if verdict is not None:
            return verdict
    return None


def _swapped_in(claim: Analysis, index: EvidenceIndex, k: int, among: int, sims: np.ndarray) -> ClaimVerdict | None:
    """``swapped_value`` for the evidence sentence ``k``."""
    closest = index.analyses[k]
    values = [v for v in claim.values if not stated.value_found(v, [closest])]
    names = [n for n in claim.names if not name_found(n, closest)]
    if len(values) + len(names) != 1 or not claim.toks or not stated.same_time(claim, closest) \
            or not any(t.dep == "ROOT" and t.pos in ("VERB", "AUX") for t in claim.toks):
        return None     # (a claim with no main verb is a fragment the rules left: "Tomb Raider published by ...")
    if any(w in EVENT_QUALIFIERS and not lemma_found(w, closest) for w in claim.content) \
            or not _roles_kept(claim, closest) or not _same_subject(claim, closest) \
            or not same_instance(claim, closest):
        return None     # "first held in 1903" is not "its 100th edition in 2013"; "Kasparov beat Deep Blue"
    if values:
        value, name = values[0], None
        rival = _rival(claim, value, closest)
        mine, theirs = value.text, rival.text if rival is not None else ""
        at = value.start if claim.text[value.start:value.start + len(value.text)] == value.text else -1
    else:
        value, name = None, names[0]
        mine, theirs = name, _rival_name(claim, name, closest) or ""
        at = claim.text.find(name)
    if not theirs or at < 0:
        return None
    # the claim's own words must say most of the rest, its main verb among them: support alone would lean on
    # the value put back ("The Cutty Sark was sold in 1895" is not "was launched on 22 November 1869")
    root = next((t.i for t in claim.toks if t.dep == "ROOT"), 0)
    framed = frame(claim.toks, root)
    if frame_of_other_dimension(claim, framed, closest):
        return None
    skip = set(conflicts.stand_in(claim, closest)) | {claim.toks[i].lemma for i in framed}
    if name:
        skip |= {w.lower() for w in name.split()}     # "was Elizabeth Gaskell": the name is the complement
    skip |= _said_alike(claim, closest, value)
    if claim.predicate and claim.predicate not in skip and not lemma_found(claim.predicate, closest, soft=True) \
            or rest_coverage(claim, closest, tuple(skip), skip_names=(name,) if name else (),
                             skip_value=value) < SWAP_REST_COVERAGE:
        return None
    text = claim.text[:at] + theirs + claim.text[at + len(mine):]
    changed, vector = analyse_texts([text])[0], embed([text])[0]
    changed_sims = index.vectors @ vector
    changed_top = [int(i) for i in np.argsort(-changed_sims, kind="stable")[:among]]
    # that sentence by itself, and the closest to the claim so changed: the rest may not come from another one
    if changed_top[0] != k or support(changed, index, changed_top[:1], changed_sims).verdict != SUPPORTED:
        return None
    why = mismatch_reason(value, rival) if value is not None else name_mismatch(name, theirs)
    return ClaimVerdict(CONTRADICTED, f"{why}, in a sentence that states the rest of the claim — "
                                      f"\"{quote(index.sentences[k])}\"", index.sentences[k], float(sims[k]))
