"""Claim verification against evidence: supported, contradicted or not enough evidence.

For each claim the evidence sentences best aligned with it (MiniLM cosine;
leading pronouns resolved; ``evidence_index``) are retrieved and compared word
by word with the spaCy analysis of ``language.analysis``: lemmas, synonyms,
names with their other forms (abbreviations, demonyms), normalised numbers,
units and dates. The first rule that fires decides:

1. ``contradicted`` when an aligned sentence (or one of its clauses) states
   the same thing as the claim except for one slot: roles reversed, the
   statement negated, an opposite word, another value for the claim's
   number/date/measure, or another name of the same kind (person, country,
   city) — see ``conflicts``; each needs the rest of the claim stated there
   (``stated``);
2. ``supported`` when the aligned sentences state every name and value of
   the claim and most of its words, unless a clause says it of another person
   in the claim's person's role (then not enough evidence) — see ``support``;
3. ``contradicted`` — substituted wording, against a reference answer only
   (the claim's response sentence follows a reference sentence closely but
   swaps a short span for words the reference never uses);
4. for a vital claim still undecided, the evidence's answer to the question
   (``answer_check``): the same date or count of the kind asked supports it,
   another one (or another person or place where the question asks)
   contradicts it, whatever subject and verb each side uses;
5. ``not_enough_evidence`` otherwise, naming what the evidence does not say.

A fact the evidence is silent about is never contradicted: every
contradiction needs a sentence that states the rest of the claim. Reasons
quote the claim's words as written and the evidence sentence.
"""
from __future__ import annotations

import numpy as np

from vital_core.backends.offline import stated
from vital_core.backends.offline.answer_check import Question, answer_verdict, answering_claim
from vital_core.backends.offline.conflicts import (
    antonym_conflict,
    name_conflict,
    negation_conflict,
    role_conflict,
    value_conflict,
)
from vital_core.backends.offline.evidence_index import EvidenceIndex, build_index, joined
from vital_core.backends.offline.language.analysis import Analysis, analyse_texts, lemma_found
from vital_core.backends.offline.language.embedder import embed
from vital_core.backends.offline.language.evidence_units import clauses_of
from vital_core.backends.offline.language.text import words
from vital_core.backends.offline.language.wording import substitution
from vital_core.backends.offline.slots import slot_conflict, worded_slot_conflict
from vital_core.backends.offline.support import rivalled, support, window_of
from vital_core.backends.offline.swapped import swapped_value
from vital_core.backends.offline.verdict import ALIGN_MIN, ClaimVerdict, quote
from vital_core.results.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED, SUPPORTED, Document
from vital_core.scoring import deadline

NO_EVIDENCE_REASON = "not judged: no evidence was given and the offline backend has no world knowledge"
# Added to a vital claim's "not enough evidence": the offline rules compare words, not meaning.
PARAPHRASE_HINT = ("the offline checker only matches wording; an LLM endpoint can judge whether the evidence "
                   "says this in other words")

CONFLICT_MIN = 0.45         # a sentence this close may contradict the claim
TOP_K = 4            # sentences aligned with a claim: a paragraph's fact may sit in its fourth-closest
VERBATIM_SIM = 0.50          # a sentence this close that holds the claim's words in order states it
SUBSTITUTION_SENTENCE_MIN = 0.75
CLAUSE_MIN_ITEMS = 3         # words, names and values a clause of a claim needs to be compared on its own


_SKIP_POS = {"DET", "PUNCT", "AUX", "CCONJ", "SCONJ", "PART", "SPACE"}


def verbatim(claim: Analysis, sentence: Analysis, max_gap: int = 3) -> bool:
    """The claim's words, in order, with at most ``max_gap`` other words between two of them."""
    wanted = [t.lemma for t in claim.toks if t.pos not in _SKIP_POS]
    have = [t.lemma for t in sentence.toks if t.pos not in _SKIP_POS]
    if not wanted or not claim.toks or claim.negated != sentence.negated and not (claim.negated <= sentence.negated):
        return False
    for start in (i for i, lemma in enumerate(have) if lemma == wanted[0]):
        at, ok = start, True
        for lemma in wanted[1:]:
            nxt = next((j for j in range(at + 1, min(len(have), at + 2 + max_gap)) if have[j] == lemma), None)
            if nxt is None:
                ok = False
                break
            at = nxt
        if ok:
            return True
    return False


RULES = (("roles", role_conflict), ("negation", negation_conflict), ("opposite wording", antonym_conflict),
         ("value", value_conflict), ("name", name_conflict), ("slot", slot_conflict))


CLAUSE_ONLY = ("negation", "opposite wording")
SLOT_LABELS = ("value", "name", "slot")
SLOT_RULES = tuple((label, rule) for label, rule in RULES if label in SLOT_LABELS)


def _contradiction(claims: list[Analysis], index: EvidenceIndex, top: list[int], sims: np.ndarray
                   ) -> ClaimVerdict | None:
    """The first rule that finds the claim (or one of its clauses) contradicted by an aligned sentence.

    A sentence is compared whole and clause by clause; the rest of the claim may be stated in the
    sentence or together with the best-aligned one (a claim that joins two sentences).
    """
    best = index.analyses[top[0]]
    for i in top:
        sim = float(sims[i])
        if sim < ALIGN_MIN:
            break
        # a changed value or name lowers the cosine ("The film was directed by Howard Hawks" / "Casablanca was
        # directed by Michael Curtiz": 0.36); below CONFLICT_MIN only those two rules judge, and only when the
        # sentence states all the rest of the claim
        close = sim >= CONFLICT_MIN
        sentence = index.analyses[i]

        context = stated.Context(sentence if i == top[0] else joined([sentence, best]),
                                    [sentence] if i == top[0] else [sentence, best],
                                    [index.analyses[j] for j in top if j != i], index.everything,
                                    stated.REST_COVERAGE if close else 1.0, tuple(index.analyses))
        for label, rule in (RULES if close else SLOT_RULES):
            # a negation or an opposite word is read in its own clause ("not in New Mexico; in Colorado")
            units = index.clauses[i] if label in CLAUSE_ONLY and index.clauses[i] else [sentence] + index.clauses[i]
            for claim in claims:
                if not close and not _states_relation(claim, sentence):
                    continue
                for unit in units:
                    why = rule(claim, unit, context)
                    if why:
                        return ClaimVerdict(CONTRADICTED, f"{why} — "
                                                          f"\"{quote(index.sentences[i])}\"", index.sentences[i], sim)
    return None


SLOT_MIN_ITEMS = 3     # words, names and values a claim needs to be judged on a sentence below CONFLICT_MIN


def _states_relation(claim: Analysis, sentence: Analysis) -> bool:
    """Below CONFLICT_MIN another value or name contradicts a claim only when the claim says enough besides
    its slot to tell one statement from another, and the sentence has the claim's main verb (or a soft
    match of it; after "was" whose complement is the slot, "The first film was Goldfinger", "be")."""
    if len(claim.content) + len(claim.names) + len(claim.values) < SLOT_MIN_ITEMS:
        return False
    predicate = claim.predicate
    root = next((t.lemma for t in claim.toks if t.dep == "ROOT"), "")
    if root in ("be", "become") and (not predicate or any(predicate in n.lower().split() for n in claim.names)):
        return bool({"be", "become"} & sentence.lemmas)   # "The first film was Goldfinger": the slot is the name
    return bool(predicate) and lemma_found(predicate, sentence, soft=True)


def _substituted(sentence: str, vector: np.ndarray, claim_text: str, index: EvidenceIndex) -> ClaimVerdict | None:
    """Reference mode: the claim's response sentence follows a reference sentence but swaps a short span."""
    if not sentence.strip() or sentence.strip() == claim_text.strip():
        return None
    source_sims = index.vectors @ vector
    j = int(np.argmax(source_sims))
    sim = float(source_sims[j])
    if sim < SUBSTITUTION_SENTENCE_MIN:
        return None
    swap = substitution(sentence, index.sentences[j], " ".join(index.sentences).lower())
    claim_words = set(words(claim_text))
    if swap and all(w in claim_words for w in swap[0].split()):
        return ClaimVerdict(CONTRADICTED, f"substituted wording: the claim's sentence says "
                                          f"'{swap[0]}' where the matching reference sentence says '{swap[1]}' — "
                                          f"\"{quote(index.sentences[j])}\"", index.sentences[j], sim)
    return None


def verify_claim(claim: Analysis, claim_vector: np.ndarray, index: EvidenceIndex,
                 source: tuple[str, np.ndarray] | None = None, clauses: list[Analysis] = ()) -> ClaimVerdict:
    """The verdict on one claim; ``source`` (reference mode) is its response sentence and vector."""
    if not index.sentences:
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE, "no evidence sentences to compare with", "")
    sims = index.vectors @ claim_vector
    top = [int(i) for i in np.argsort(-sims, kind="stable")[:TOP_K]]
    best = float(sims[top[0]])
    if best < ALIGN_MIN:
        # a changed name or value lowers the cosine most in a short claim ("The first contest was held in
        # Montreux"): the same relation with another value is still read, on the parse alone
        changed = _changed_slot(claim, index, sims) or swapped_value(claim, index, top, sims)
        if changed is not None:
            return changed
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"not enough evidence: no evidence sentence is about this claim "
                                                 f"(best similarity {best:.2f})", index.sentences[top[0]], best)
    for i in top:
        if float(sims[i]) >= VERBATIM_SIM and verbatim(claim, index.analyses[i]):
            same = index.sentences[i]
            return ClaimVerdict(SUPPORTED, f"supported: the evidence says so in the same words — \"{quote(same)}\"",
                                same, float(sims[i]))
    # a clause of the claim judges alone only when it says enough ("is now in the Louvre in Paris" is
    # one name beside the one in conflict: too little to tell the same statement from another)
    clauses = [c for c in clauses if len(c.content) + len(c.names) + len(c.values) >= CLAUSE_MIN_ITEMS]
    verdict = _contradiction([claim] + clauses, index, top, sims)
    if verdict is not None:
        return verdict
    verdict = support(claim, index, top, sims)
    if verdict.verdict == SUPPORTED:
        verdict = rivalled(claim, index, window_of(top, sims), best) or verdict
    else:
        verdict = swapped_value(claim, index, top, sims) or verdict
    if verdict.verdict != SUPPORTED and source is not None:
        return _substituted(source[0], source[1], claim.text, index) or verdict
    if verdict.verdict == NOT_ENOUGH_EVIDENCE:
        # the same relation with another value may sit in a sentence the wording did not bring close ("The
        # film was directed by F. W. Murnau" / "Metropolis was directed by Fritz Lang"): read on the parse
        return _changed_slot(claim, index, sims) or verdict
    return verdict


def _changed_slot(claim: Analysis, index: EvidenceIndex, sims: np.ndarray) -> ClaimVerdict | None:
    """Contradicted by the first evidence sentence (closest first) that fills the claim's relation with
    another name or value, read on the parse (``slots.slot_conflict``) or after the same words
    (``slots.worded_slot_conflict``)."""
    for i in (int(i) for i in np.argsort(-sims, kind="stable")):
        why = slot_conflict(claim, index.analyses[i], evidence=index.analyses) \
            or worded_slot_conflict(claim, index.analyses[i], index.analyses)
        if why:
            return ClaimVerdict(CONTRADICTED, f"{why} — \"{quote(index.sentences[i])}\"", index.sentences[i],
                                float(sims[i]))
    return None


def verify_claims(claims: list[str], documents: list[Document], *, reference: bool = False,
                  source_sentences: list[str] | None = None, question: str = "",
                  vital: list[bool] | None = None) -> list[ClaimVerdict]:
    """Verdicts for ``claims`` against ``documents``.

    ``reference=True`` when the evidence is a reference answer to the same
    question: then the substituted-wording rule also applies, using
    ``source_sentences`` (each claim's response sentence) when given.
    ``question`` and ``vital`` (the claims labelled vital): a vital claim
    left without a verdict is checked against the evidence's answer to the
    question (``answer_check``).
    """
    if not documents or not any(d.text.strip() or d.title.strip() for d in documents):
        # nothing to check against and no world knowledge: not judged, so the scores are undefined, not 0
        return [ClaimVerdict(NOT_JUDGED, NO_EVIDENCE_REASON, "") for _ in claims]
    index = build_index(documents)
    vectors = embed(claims) if claims else np.zeros((0, 384), dtype=np.float32)
    analyses = analyse_texts(claims)
    pieces = [clauses_of(c) for c in claims]
    flat = analyse_texts([p for ps in pieces for p in ps])
    clause_lists, at = [], 0
    for ps in pieces:
        clause_lists.append(flat[at:at + len(ps)])
        at += len(ps)
    sources: list[tuple[str, np.ndarray] | None] = [None] * len(claims)
    if reference and source_sentences:
        unique = list(dict.fromkeys(t for t in source_sentences if t and t.strip()))
        by_text = dict(zip(unique, embed(unique))) if unique else {}
        sources = [(t, by_text[t]) if t in by_text else None for t in source_sentences]
    # every content word, embedded in one batch for the soft word matches
    embed(sorted({w for a in analyses + index.analyses for w in a.content}))
    out = []
    for a, v, src, cl in zip(analyses, vectors, sources, clause_lists):
        deadline.check()
        out.append(verify_claim(a, v, index, source=src, clauses=cl))
    if question and vital and any(vital):
        asked = Question(question)
        presumed = answering_claim(asked, claims, vectors, embed([question])[0]) if asked.kind else None
        for i, verdict in enumerate(out):
            if vital[i] and verdict.verdict == NOT_ENOUGH_EVIDENCE:
                out[i] = answer_verdict(asked, claims[i], i == presumed, index.sentences) or verdict
    return out
