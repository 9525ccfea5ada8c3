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
   the claim and most of its words (``SUPPORT_COVERAGE``), unless a clause of
   the closest sentence says it of another person in the claim's person's
   role (then not enough evidence, ``_rivalled``);
3. ``contradicted`` — substituted wording, against a reference answer only
   (the claim's response sentence follows a reference sentence closely but
   swaps a short span for words the reference never uses);
4. ``not_enough_evidence`` otherwise, naming what the evidence does not say.

A fact the evidence is silent about is never contradicted: every
contradiction needs a sentence that states the rest of the claim. Reasons
quote the claim's words as written and the evidence sentence.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from vital_core.backends.offline import conflicts, stated
from vital_core.backends.offline.conflicts import (
    antonym_conflict,
    name_conflict,
    negation_conflict,
    role_conflict,
    stand_in,
    value_conflict,
)
from vital_core.backends.offline.evidence_index import EvidenceIndex, build_index, joined
from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import Analysis, analyse_texts, lemma_found, name_found
from vital_core.backends.offline.language.embedder import embed
from vital_core.backends.offline.language.evidence_units import clauses_of
from vital_core.backends.offline.language.text import words
from vital_core.backends.offline.language.values import Value
from vital_core.backends.offline.language.wording import substitution
from vital_core.backends.offline.slots import slot_conflict, worded_slot_conflict
from vital_core.backends.offline.stated import rest_coverage
from vital_core.results.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED, SUPPORTED, Document
from vital_core.scoring import deadline

NO_EVIDENCE_REASON = "not judged: no evidence was given and the offline backend has no world knowledge"
# Added to a vital claim's "not enough evidence": the offline rules compare words, not meaning.
PARAPHRASE_HINT = ("the offline checker only matches wording; an LLM endpoint can judge whether the evidence "
                   "says this in other words")

ALIGN_MIN = 0.30            # below this no evidence sentence is about the claim
CONFLICT_MIN = 0.45         # a sentence this close may contradict the claim
SUPPORT_SIM = 0.40          # and this close may support it ...
# ... stating this share of its words (names count 1.5, values 1), less when the sentence is closer
SUPPORT_COVERAGE = ((0.85, 0.55), (0.75, 0.65), (-1.0, 0.75))
# A long claim (this many content words) whose names and values are all stated is a paraphrase when
# its closest sentence is this close and states half its words: rewording a long sentence drops words,
# while the claims that add one unsupported detail are short ("Antonio Salieri taught Beethoven").
LONG_CLAIM_WORDS, LONG_CLAIM_SIM, LONG_CLAIM_COVERAGE = 4, 0.65, 0.50
TOP_K = 4            # sentences aligned with a claim: a paragraph's fact may sit in its fourth-closest
VERBATIM_SIM = 0.50          # a sentence this close that holds the claim's words in order states it
PREDICATE_FREE = 0.75       # this close, the main verb may be paraphrased beyond the lexicon
WINDOW_MARGIN = 0.20        # sentences this close to the best one join the window that supports a claim
SUBSTITUTION_SENTENCE_MIN = 0.75
CLAUSE_MIN_ITEMS = 3         # words, names and values a clause of a claim needs to be compared on its own


@dataclass
class ClaimVerdict:
    verdict: str
    reason: str
    evidence: str
    similarity: float = 0.0   # cosine of the claim with its best-aligned evidence sentence


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


_WORD = re.compile(r"[\w'’\-]+")


def written_in(item: str, text: str) -> bool:
    """Is ``item`` (a word, name or value as a reason writes it) written in ``text``, as whole words?"""
    wanted = _WORD.findall(item.lower())
    return bool(wanted) and f" {' '.join(wanted)} " in f" {' '.join(_WORD.findall(text.lower()))} "


def _quote(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."


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
                                                          f"\"{_quote(index.sentences[i])}\"", index.sentences[i], sim)
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


CLAUSE_BINDING = 0.6   # a clause holding the claim's value and this share of its other words states the value


def _bound_in_clause(value: Value, claim: Analysis, clauses: list[Analysis]) -> bool:
    """The value stands in a clause that says most of the rest of the claim: "Official dismantling got under
    way in June 1990" states "demolition started in June 1990" though the sentence goes on to 3 October."""
    return any(stated.value_found(value, [clause]) and
               rest_coverage(claim, clause, skip_value=value, soft=True) >= CLAUSE_BINDING for clause in clauses)


def _missing_parts(claim: Analysis, window: list[Analysis], index: EvidenceIndex, aligned: list[Analysis],
                   clauses: list[Analysis]) -> tuple[list[str], list[str], float]:
    """(names and values not stated, words not stated, weighted coverage) of the claim over the window.

    A name the evidence is about (``topics``: "Alan Turing" in a biography, where most sentences say "he")
    counts as stated when it is stated anywhere in the evidence.
    """
    together = joined(window)
    nearby = joined(aligned)
    topic = joined([index.everything, _names_only(index.topics)]) if index.everything else together
    unstated = [n for n in claim.names if not name_found(n, nearby)
                and not (any(name_found(n, _names_only({t})) for t in index.topics) and name_found(n, topic))]
    unstated += [v.text for v in claim.values if not stated.value_bound(v, claim, aligned + [joined(aligned)])
                 and not _bound_in_clause(v, claim, clauses)]
    words = [word for lemma, word in claim.content.items() if not lemma_found(lemma, together, soft=True)]
    coverage = max([rest_coverage(claim, w, soft=True, by_rarity=True) for w in window]
                   + [rest_coverage(claim, together, soft=True, by_rarity=True)])
    return unstated, words, coverage


def _names_only(names) -> Analysis:
    return Analysis(text=" ".join(names), toks=(), names={n: 0 for n in names},
                    words={w.lower() for n in names for w in n.split()})


def _polarity_agrees(claim: Analysis, unit: Analysis) -> bool:
    if claim.negated:
        return bool(unit.negated)
    return not (claim.predicate and claim.predicate in unit.negated)


@dataclass
class SupportSignals:
    """What the aligned evidence says of a claim, measured: the inputs of the support decision."""
    best: float                 # cosine of the closest evidence sentence
    coverage: float             # share of the claim's words stated (rarity-weighted, soft matches)
    unstated: list[str]         # names and values of the claim the evidence does not state
    missing_words: list[str]    # content words not stated in the window, as written in the claim
    predicate_ok: bool
    polarity_ok: bool
    quote: str                  # the closest evidence sentence


def _support_signals(claim: Analysis, index: EvidenceIndex, top: list[int], sims: np.ndarray) -> SupportSignals:
    best = float(sims[top[0]])
    window = [index.analyses[i] for i in top if float(sims[i]) >= max(ALIGN_MIN, best - WINDOW_MARGIN)]
    aligned = [i for i in top if float(sims[i]) >= ALIGN_MIN]
    unstated, words, coverage = _missing_parts(claim, window, index, [index.analyses[i] for i in aligned],
                                               [c for i in aligned for c in index.clauses[i]])
    others_found = sum(lemma_found(w, joined(window), soft=True) for w in claim.content if w != claim.predicate)
    predicate_ok = (not claim.predicate or lemma_found(claim.predicate, joined(window), soft=True)
                    or best >= PREDICATE_FREE or others_found >= 2
                    or claim.predicate in lexicon.DIMENSION_WORDS
                    or any(stated.same_relation(claim, w) for w in window))
    return SupportSignals(best, coverage, unstated, words, predicate_ok,
                          _polarity_agrees(claim, index.analyses[top[0]]), index.sentences[top[0]])


def _support(claim: Analysis, index: EvidenceIndex, top: list[int], sims: np.ndarray) -> ClaimVerdict:
    s = _support_signals(claim, index, top, sims)
    best, coverage, quote = s.best, s.coverage, s.quote
    needed = next(c for sim, c in SUPPORT_COVERAGE if best >= sim)
    long_paraphrase = (len(claim.content) >= LONG_CLAIM_WORDS and best >= LONG_CLAIM_SIM
                       and coverage >= LONG_CLAIM_COVERAGE)
    if best >= SUPPORT_SIM and not s.unstated and (coverage >= needed and s.predicate_ok or long_paraphrase) \
            and s.polarity_ok:
        return ClaimVerdict(SUPPORTED, f"supported: the evidence states it (similarity {best:.2f}, "
                                       f"{coverage:.0%} of its words) — \"{_quote(quote)}\"", quote, best)
    named = _said_of_named_subject(claim, index.analyses[top[0]])
    if best >= SUPPORT_SIM and named and s.polarity_ok:
        return ClaimVerdict(SUPPORTED, f"supported: the evidence states it of {named}, the claim's subject "
                                       f"(similarity {best:.2f}) — \"{_quote(quote)}\"", quote, best)
    # a reason never calls absent what the evidence writes: a value it gives for something else
    # ("Pluto, found in 1930, ..." against "discovered in 1930 by ...") is named as given, not as missing
    evidence_text = index.everything.text if index.everything else quote
    absent = [x for x in s.unstated if not written_in(x, evidence_text)]
    elsewhere = [x for x in s.unstated if written_in(x, evidence_text)]
    verb = claim.content.get(claim.predicate, claim.predicate)
    words_absent = [w for w in s.missing_words if not written_in(w, quote)]
    if absent:
        reason = f"not enough evidence: the evidence does not mention {'; '.join(absent)}"
    elif elsewhere:
        reason = (f"not enough evidence: the evidence gives {'; '.join(elsewhere)}, but not in a sentence that "
                  f"states the rest of the claim")
    elif not s.predicate_ok and not written_in(verb, quote):
        reason = f"not enough evidence: the evidence does not say '{verb}'"
    elif words_absent:
        absent = ", ".join(repr(w) for w in words_absent[:4])
        reason = f"not enough evidence: the closest evidence does not say {absent}"
    else:
        reason = "not enough evidence: the closest evidence does not state the claim the same way"
    return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"{reason} (closest: \"{_quote(quote)}\", similarity {best:.2f})",
                        quote, best)


def _said_of_named_subject(claim: Analysis, sentence: Analysis) -> str:
    """The sentence's named subject, when the claim's bare "the + noun" subject stands for it and the sentence
    states all the rest of the claim, a value or a name among it: "The figure is only 11.1 centimetres tall"
    against "The Venus of Willendorf is 11.1 centimetres tall"."""
    skip = stand_in(claim, sentence) if claim.values or claim.names else ()
    # a measure's word as written ("tall" is no "wide"), every other word at least by a close one
    if skip and rest_coverage(claim, sentence, skip, soft=True) >= 1.0 and all(
            lemma_found(w, sentence, soft=w not in lexicon.DIMENSION_WORDS) for w in claim.content if w not in skip):
        return sentence.subject
    return ""


RIVAL_CLAUSE_COVERAGE = 0.5   # a clause stating this much of the claim with another person in its role
JOINED_RIVAL_COVERAGE = 0.75  # ... in a sentence the closest one is joined with: most of the claim


def _rivalled(claim: Analysis, index: EvidenceIndex, window: list[int], sim: float) -> ClaimVerdict | None:
    """Not supported after all: a clause of a sentence that supports the claim says it with another person in
    the claim's person's role, and that person is named only outside it ("Armstrong was the first to climb
    down onto the surface; Aldrin followed" does not state that Aldrin was first; "Suryavarman II had Angkor
    Wat built ..." beside "Jayavarman VII built Angkor Thom" does not state that Jayavarman VII built it). Too
    little stated for a contradiction, so not enough evidence."""
    best = index.analyses[window[0]]
    own_statement = rest_coverage(claim, best, soft=True) >= JOINED_RIVAL_COVERAGE
    for i in window:
        # the closest sentence clause by clause; one it is joined with (a claim read over two) whole too
        for clause in index.clauses[i] if i == window[0] else index.clauses[i] or [index.analyses[i]]:
            for name in claim.names:
                if name_found(name, clause) or not conflicts.person_like(name) or i != window[0] and own_statement:
                    continue    # (the closest sentence itself states the claim, its person named)
                rivals = [r for r in conflicts.competing_names(claim, clause, name) if conflicts.person_like(r)]
                needed = RIVAL_CLAUSE_COVERAGE if i == window[0] else JOINED_RIVAL_COVERAGE
                if rivals and rest_coverage(claim, clause, skip_names=(name,), soft=True) >= needed:
                    return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"not enough evidence: the evidence says this of "
                                                             f"{rivals[0]}, not of {name} — "
                                                             f"\"{_quote(index.sentences[i])}\"",
                                        index.sentences[i], sim)
    return None


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
                                          f"\"{_quote(index.sentences[j])}\"", index.sentences[j], sim)
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
        changed = _changed_slot(claim, index, sims)
        if changed is not None:
            return changed
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"not enough evidence: no evidence sentence is about this claim "
                                                 f"(best similarity {best:.2f})", index.sentences[top[0]], best)
    for i in top:
        if float(sims[i]) >= VERBATIM_SIM and verbatim(claim, index.analyses[i]):
            quote = index.sentences[i]
            return ClaimVerdict(SUPPORTED, f"supported: the evidence says so in the same words — \"{_quote(quote)}\"",
                                quote, float(sims[i]))
    # a clause of the claim judges alone only when it says enough ("is now in the Louvre in Paris" is
    # one name beside the one in conflict: too little to tell the same statement from another)
    clauses = [c for c in clauses if len(c.content) + len(c.names) + len(c.values) >= CLAUSE_MIN_ITEMS]
    verdict = _contradiction([claim] + clauses, index, top, sims)
    if verdict is not None:
        return verdict
    verdict = _support(claim, index, top, sims)
    if verdict.verdict == SUPPORTED:
        window = [i for i in top if float(sims[i]) >= max(ALIGN_MIN, best - WINDOW_MARGIN)]
        verdict = _rivalled(claim, index, window, best) or verdict
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
            return ClaimVerdict(CONTRADICTED, f"{why} — \"{_quote(index.sentences[i])}\"", index.sentences[i],
                                float(sims[i]))
    return None


def verify_claims(claims: list[str], documents: list[Document], *, reference: bool = False,
                  source_sentences: list[str] | None = None) -> list[ClaimVerdict]:
    """Verdicts for ``claims`` against ``documents``.

    ``reference=True`` when the evidence is a reference answer to the same
    question: then the substituted-wording rule also applies, using
    ``source_sentences`` (each claim's response sentence) when given.
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
    return out
