"""Claim verification against evidence by alignment and typed comparison.

For each claim the evidence sentences best aligned with it (MiniLM cosine;
leading pronouns of evidence sentences resolved first) are retrieved. Then
the first rule that fires decides:

1. ``contradicted`` — number / date / name mismatch: closely aligned
   evidence states another value where the claim's own value appears nowhere
   in the evidence ("around 1600" stays compatible with "1599-1601");
2. ``contradicted`` — title mismatch: a quoted title given differently;
3. ``contradicted`` — negation mismatch: the same statement negated on one
   side only (judged on the matching clause, and only when what is negated is
   what the other side states);
4. ``contradicted`` — opposite wording, from a small list (``ANTONYMS``);
5. ``contradicted`` — substituted wording (reference mode only): the claim's
   response sentence follows a reference sentence closely but swaps a short
   span for words the reference never uses, and the claim carries them;
6. ``supported`` — closely aligned (cosine plus share of the claim's content
   words found), every number, date and name it states found, and no rare
   word that the evidence never uses;
7. ``not_enough_evidence`` otherwise, saying what was not found.

The rules are ``RULES``, in this order, one small function each; the word-level
comparisons they use are in ``wording``. The reason names the rule that fired
and quotes the evidence sentence. With no evidence at all the backend has
nothing to check against and says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from vital_core.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, SUPPORTED, Document
from vital_core.backends.offline.answer_types import Mentions, extract_mentions, words
from vital_core.backends.offline.embedder import embed
from vital_core.backends.offline.importance import STOPWORDS
from vital_core.backends.offline.decompose import resolve_pronouns, split_sentences
from vital_core.backends.offline.word_rarity import is_rare
from vital_core.backends.offline.wording import (antonym_conflict, compatible_number, compatible_year, fmt_num, keys,
                                                 matching_clause, names_missing, negation_mismatch, quoted, stems,
                                                 substitution, typed_conflict, word_key)

NO_EVIDENCE_REASON = "no evidence given (offline backend has no world knowledge)"

# Cosine thresholds (MiniLM): below ALIGN_MIN nothing in the evidence is about
# the claim; above CONFLICT_MIN a typed mismatch is read as a contradiction.
ALIGN_MIN = 0.45
CONFLICT_MIN = 0.55
# Supported: cosine >= 0.60 with >= 80% of the claim's content words found
# in the aligned window, cosine >= 0.85 with >= 60% found, or >= 0.50 with all.
SUPPORT_SIM_WITH_COVERAGE = 0.60
SUPPORT_COVERAGE = 0.80
SUPPORT_SIM = 0.85
SUPPORT_COVERAGE_HIGH_SIM = 0.60
SUPPORT_SIM_ALL_WORDS = 0.50      # every content word found: a looser cosine will do
NEGATION_MIN = 0.70
NEGATION_COVERAGE = 0.70          # share of the claim's words in the aligned sentence
ANTONYM_MIN = 0.65
TOP_K = 3
# Substituted wording (reference mode): the response sentence follows a reference sentence this closely.
SUBSTITUTION_SENTENCE_MIN = 0.75
WINDOW_MARGIN = 0.05


@dataclass
class ClaimVerdict:
    verdict: str
    reason: str
    evidence: str
    similarity: float = 0.0   # cosine of the claim with its best-aligned evidence sentence


@dataclass
class EvidenceIndex:
    """Evidence sentences with their vectors and mentions."""
    sentences: list[str]
    vectors: np.ndarray
    mentions: list[Mentions]
    all_mentions: Mentions
    all_stems: set[str]
    all_text: str


@lru_cache(maxsize=256)
def _mentions(text: str) -> Mentions:
    return extract_mentions(text)


def build_index(documents: list[Document]) -> EvidenceIndex:
    sentences: list[str] = []
    for doc in documents:
        if doc.title.strip():
            sentences.append(doc.title.strip())
        # "It was completed in 1889": the pronoun is replaced by the previous
        # sentence's named subject, so that the sentence aligns with its claims.
        sentences.extend(resolve_pronouns(split_sentences(doc.text)))
    sentences = list(dict.fromkeys(s for s in sentences if s.strip()))
    vectors = embed(sentences) if sentences else np.zeros((0, 384), dtype=np.float32)
    mentions = [_mentions(s) for s in sentences]
    union = Mentions()
    for m in mentions:
        union.years |= m.years
        union.dates |= m.dates
        union.numbers |= m.numbers
        union.ordinals |= m.ordinals
        union.names |= m.names
        union.places |= m.places
    all_text = " ".join(sentences)
    return EvidenceIndex(sentences, vectors, mentions, union, stems(all_text), all_text.lower())


@dataclass
class AlignedClaim:
    """One claim aligned with the evidence: everything the rules read."""
    text: str
    index: EvidenceIndex
    sims: np.ndarray               # cosine with every evidence sentence
    top: list[int]                 # the TOP_K best-aligned sentences, best first
    substitution: bool             # reference mode: rule 5 applies
    source: tuple[str, np.ndarray] | None   # the claim's response sentence and its vector

    def __post_init__(self) -> None:
        self.best_sim = float(self.sims[self.top[0]])
        self.quote = self.index.sentences[self.top[0]]
        self.mentions = _mentions(self.text)
        self.stems = stems(self.text)
        self.keys = keys(self.text)


Rule = Callable[[AlignedClaim], "ClaimVerdict | None"]


def _unaligned(c: AlignedClaim) -> ClaimVerdict | None:
    if c.best_sim < ALIGN_MIN:
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"no evidence sentence is about this claim (best similarity "
                                                 f"{c.best_sim:.2f})", c.quote, c.best_sim)
    return None


def _typed_mismatch(c: AlignedClaim) -> ClaimVerdict | None:
    """Rule 1: a number, date or name the closely aligned evidence gives otherwise."""
    for i in c.top:
        sim = float(c.sims[i])
        if sim < CONFLICT_MIN:
            break
        conflict = typed_conflict(c.mentions, c.index.mentions[i], c.index.all_mentions, c.index.all_text)
        if conflict:
            return ClaimVerdict(CONTRADICTED, f"{conflict} (similarity {sim:.2f})", c.index.sentences[i], sim)
    return None


def _title_mismatch(c: AlignedClaim) -> ClaimVerdict | None:
    """Rule 2: a quoted title that the evidence gives differently."""
    claim_quotes = quoted(c.text)
    if not claim_quotes or c.best_sim < CONFLICT_MIN:
        return None
    missing_quotes = {q for q in claim_quotes if q not in c.index.all_text}
    other_quotes = quoted(c.quote) - claim_quotes
    if missing_quotes and other_quotes:
        return ClaimVerdict(CONTRADICTED, f"title mismatch: the claim says \"{sorted(missing_quotes)[0]}\", "
                            f"the evidence says \"{sorted(other_quotes)[0]}\" (similarity {c.best_sim:.2f})",
                            c.quote, c.best_sim)
    return None


def _negated(c: AlignedClaim) -> ClaimVerdict | None:
    """Rule 3: the same statement, negated on one side only."""
    coverage = len(c.stems & stems(c.quote)) / len(c.stems) if c.stems else 0.0
    if c.best_sim < NEGATION_MIN or coverage < NEGATION_COVERAGE:
        return None
    clause = matching_clause(c.stems, c.quote)
    if clause is None or not negation_mismatch(c.text, clause):
        return None
    said, other = ("negates", "affirms") if c.mentions.negated else ("affirms", "negates")
    return ClaimVerdict(CONTRADICTED, f"negation mismatch: the claim {said} what the evidence {other} "
                                      f"(similarity {c.best_sim:.2f})", c.quote, c.best_sim)


def _opposite_wording(c: AlignedClaim) -> ClaimVerdict | None:
    """Rule 4: an opposite word ("decreased" where the evidence says "increased")."""
    opposite = antonym_conflict(c.keys, c.quote) if c.best_sim >= ANTONYM_MIN else None
    if opposite:
        return ClaimVerdict(CONTRADICTED, f"opposite wording: the claim says '{opposite[0]}...', the evidence "
                                          f"says '{opposite[1]}...' (similarity {c.best_sim:.2f})",
                            c.quote, c.best_sim)
    return None


def _substituted_wording(c: AlignedClaim) -> ClaimVerdict | None:
    """Rule 5 (reference mode): the claim's response sentence follows a reference sentence closely
    but substitutes content words, and the claim carries the substitute. Judged on whole sentences:
    a claim split off its sentence is reworded ("made" for "provided"), whereas the response and
    reference sentences share their wording where they agree."""
    if not c.substitution or c.source is None:
        return None
    sentence, vector = c.source
    if not sentence.strip() or sentence.strip() == c.text.strip():
        return None
    source_sims = c.index.vectors @ vector
    j = int(np.argmax(source_sims))
    sim = float(source_sims[j])
    if sim < SUBSTITUTION_SENTENCE_MIN:
        return None
    swap = substitution(sentence, c.index.sentences[j], c.index.all_text)
    claim_words = set(words(c.text))
    if swap and all(w in claim_words for w in swap[0].split()):
        return ClaimVerdict(CONTRADICTED, f"substituted wording: the claim's sentence says '{swap[0]}' where the "
                                          f"closely matching reference sentence says '{swap[1]}' (sentence "
                                          f"similarity {sim:.2f})", c.index.sentences[j], sim)
    return None


def _unstated_values(c: AlignedClaim) -> list[str]:
    """Years, numbers and names the claim states that the evidence does not."""
    aligned = c.index.mentions[c.top[0]]
    evidence = c.index.all_mentions
    return ([y for y in c.mentions.years if y not in evidence.years and not compatible_year(y, c.mentions, aligned)]
            + [fmt_num(n) for n in c.mentions.numbers
               if n not in evidence.numbers and not compatible_number(n, c.mentions, aligned)]
            + sorted(names_missing(c.mentions.names, c.index.all_text)))


def _supported_or_unstated(c: AlignedClaim) -> ClaimVerdict:
    """Rule 6, else 7: supported when aligned, its words found and no typed value missing; else not enough
    evidence, saying what was not found."""
    unfound = _unstated_values(c)
    # a second sentence counts when nearly as well aligned (a claim merging two sentences)
    window = [i for i in c.top[:2] if float(c.sims[i]) >= c.best_sim - WINDOW_MARGIN]
    uncovered = sorted(c.keys - set().union(*(keys(c.index.sentences[i]) for i in window)))
    key_coverage = 1 - len(uncovered) / len(c.keys) if c.keys else 0.0
    # a specific word ("methane") the evidence never uses is a detail it does not state
    rare_unsaid = sorted({w for w in words(c.text) if w not in STOPWORDS and word_key(w) in uncovered
                          and is_rare(w) and not re.search(rf"\b{re.escape(w)}", c.index.all_text)})
    # NB: as before this split, a rare unsaid word only blocks the first of the three ways to be aligned.
    aligned = ((not rare_unsaid and c.best_sim >= SUPPORT_SIM_WITH_COVERAGE and key_coverage >= SUPPORT_COVERAGE)
               or (c.best_sim >= SUPPORT_SIM and key_coverage >= SUPPORT_COVERAGE_HIGH_SIM)
               or (c.best_sim >= SUPPORT_SIM_ALL_WORDS and key_coverage == 1.0))
    if aligned and not unfound:
        return ClaimVerdict(SUPPORTED, f"aligned with the evidence (similarity {c.best_sim:.2f}, "
                                       f"{key_coverage:.0%} of the claim's words found) and no disagreement",
                            c.quote, c.best_sim)
    if unfound or rare_unsaid:
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"the evidence does not state {', '.join(sorted(unfound) + rare_unsaid)}"
                                                 f" (best similarity {c.best_sim:.2f})", c.quote, c.best_sim)
    return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"evidence is related but does not state the claim (similarity "
                                             f"{c.best_sim:.2f}; not found: {', '.join(uncovered[:5]) or '-'})",
                        c.quote, c.best_sim)


# The rules in order: the first verdict wins; the last always gives one.
RULES: tuple[Rule, ...] = (_unaligned, _typed_mismatch, _title_mismatch, _negated, _opposite_wording,
                           _substituted_wording, _supported_or_unstated)


def verify_claim(claim: str, claim_vector: np.ndarray, index: EvidenceIndex,
                 substitution: bool = False, source: tuple[str, np.ndarray] | None = None) -> ClaimVerdict:
    """The verdict on one claim; ``substitution`` enables rule 5 (reference mode).

    ``source`` is the response sentence the claim comes from, with its vector:
    a claim split off a sentence may align poorly on its own while its sentence
    follows a reference sentence closely.
    """
    if not index.sentences:
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE, "no evidence sentences to compare with", "")
    sims = index.vectors @ claim_vector
    top = [int(i) for i in np.argsort(-sims, kind="stable")[:TOP_K]]
    aligned = AlignedClaim(claim, index, sims, top, substitution, source)
    for rule in RULES:
        verdict = rule(aligned)
        if verdict is not None:
            return verdict
    raise AssertionError("the last rule always gives a verdict")


def verify_claims(claims: list[str], documents: list[Document], *, reference: bool = False,
                  source_sentences: list[str] | None = None) -> list[ClaimVerdict]:
    """Verdicts for ``claims`` against ``documents``.

    ``reference=True`` when the evidence is a reference answer to the same
    question (written in parallel with the response): then the substituted
    wording rule also applies, using ``source_sentences`` (each claim's response
    sentence) when given.
    """
    if not documents or not any(d.text.strip() or d.title.strip() for d in documents):
        return [ClaimVerdict(NOT_ENOUGH_EVIDENCE, NO_EVIDENCE_REASON, "") for _ in claims]
    index = build_index(documents)
    vectors = embed(claims) if claims else np.zeros((0, 384), dtype=np.float32)
    sources: list[tuple[str, np.ndarray] | None] = [None] * len(claims)
    if reference and source_sentences:
        unique = list(dict.fromkeys(t for t in source_sentences if t and t.strip()))
        by_text = dict(zip(unique, embed(unique))) if unique else {}
        sources = [(t, by_text[t]) if t in by_text else None for t in source_sentences]
    return [verify_claim(c, v, index, substitution=reference, source=src)
            for c, v, src in zip(claims, vectors, sources)]
