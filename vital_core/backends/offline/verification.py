"""Claim verification against evidence by alignment and typed comparison.

For each claim the evidence sentences best aligned with it (MiniLM cosine)
are retrieved. Then, in this order:

1. ``contradicted`` when the claim is aligned with evidence that states a
   different number, year/date or name in the same place, or that says the
   opposite (negation), while the claim's own value appears nowhere in the
   evidence;
2. ``supported`` when the claim is closely aligned (high cosine, or most of
   its content words present with a good cosine) and every number, date and
   name it states is found in the evidence;
3. ``not_enough_evidence`` otherwise.

The reason names the rule that fired and quotes the evidence sentence. With
no evidence at all the backend has nothing to check against and says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, SUPPORTED, Document
from .answer_types import Mentions, extract_mentions, is_negated, name_tokens, words
from .embedder import embed
from .importance import STOPWORDS
from .sentences import split_sentences

NO_EVIDENCE_REASON = "no evidence given (offline backend has no world knowledge)"

# Cosine thresholds (MiniLM): below ALIGN_MIN nothing in the evidence is about
# the claim; above CONFLICT_MIN a typed mismatch is read as a contradiction.
ALIGN_MIN = 0.45
CONFLICT_MIN = 0.55
SUPPORT_SIM = 0.80
SUPPORT_SIM_WITH_COVERAGE = 0.60
SUPPORT_COVERAGE = 0.75
NEGATION_MIN = 0.75
TOP_K = 3


@dataclass
class Verdict:
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


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def stems(text: str) -> set[str]:
    return {_stem(w) for w in words(text) if w not in STOPWORDS}


@lru_cache(maxsize=256)
def _mentions(text: str) -> Mentions:
    return extract_mentions(text)


def build_index(documents: list[Document]) -> EvidenceIndex:
    sentences: list[str] = []
    for doc in documents:
        if doc.title.strip():
            sentences.append(doc.title.strip())
        sentences.extend(split_sentences(doc.text))
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


def _fmt_num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _names_missing(claim_names: set[str], evidence: Mentions, evidence_text: str) -> set[str]:
    """Claim names with no word in common with any evidence name nor in the evidence text."""
    ev_tokens = name_tokens(evidence.names)
    missing = set()
    for name in claim_names:
        toks = name_tokens({name})
        if re.search(rf"\b{re.escape(name)}\b", evidence_text) or (toks and toks & ev_tokens):
            continue
        missing.add(name)
    return missing


_CLAUSE_BREAK = re.compile(r"[;:,]|\s(?:but|while|whereas|although|though|instead|yet)\s")


def _matching_clause(claim_stems: set[str], sentence: str) -> str | None:
    """The clause of ``sentence`` sharing most words with the claim, if it shares at least half.

    Negation is judged on this clause only: "X does not do A; instead X does B"
    must not make the claim "X does B" look negated.
    """
    best, best_share = None, 0.0
    for clause in _CLAUSE_BREAK.split(sentence):
        share = len(claim_stems & stems(clause)) / len(claim_stems) if claim_stems else 0.0
        if share > best_share:
            best, best_share = clause, share
    return best if best_share >= 0.5 else None


def _typed_conflict(claim: Mentions, aligned: Mentions, index: EvidenceIndex) -> str | None:
    """The first typed disagreement between a claim and its aligned evidence, if any."""
    missing_years = {y for y in claim.years if y not in index.all_mentions.years}
    if missing_years and aligned.years - claim.years:
        return (f"date mismatch: the claim says {', '.join(sorted(missing_years))}, the evidence says "
                f"{', '.join(sorted(aligned.years - claim.years))}")
    missing_numbers = {n for n in claim.numbers if n not in index.all_mentions.numbers}
    if missing_numbers and aligned.numbers - claim.numbers:
        return (f"number mismatch: the claim says {', '.join(_fmt_num(n) for n in sorted(missing_numbers))}, "
                f"the evidence says {', '.join(_fmt_num(n) for n in sorted(aligned.numbers - claim.numbers))}")
    missing_ordinals = {n for n in claim.ordinals if n not in index.all_mentions.ordinals}
    if missing_ordinals and aligned.ordinals - claim.ordinals:
        return "ordinal mismatch: the claim's position/rank differs from the evidence"
    missing_dates = {d for d in claim.dates if d not in index.all_mentions.dates}
    if missing_dates and aligned.dates - claim.dates:
        return (f"date mismatch: the claim says {', '.join(sorted(missing_dates))}, the evidence says "
                f"{', '.join(sorted(aligned.dates - claim.dates))}")
    missing_names = _names_missing(claim.names, index.all_mentions, index.all_text)
    other_names = aligned.names - claim.names
    if missing_names and other_names:
        return (f"name mismatch: the claim names {', '.join(sorted(missing_names))}, the evidence names "
                f"{', '.join(sorted(other_names))}")
    return None


def verify_claim(claim: str, claim_vector: np.ndarray, index: EvidenceIndex) -> Verdict:
    if not index.sentences:
        return Verdict(NOT_ENOUGH_EVIDENCE, "no evidence sentences to compare with", "")
    sims = index.vectors @ claim_vector
    top = [int(i) for i in np.argsort(-sims, kind="stable")[:TOP_K]]
    best = top[0]
    best_sim = float(sims[best])
    quote = index.sentences[best]
    if best_sim < ALIGN_MIN:
        return Verdict(NOT_ENOUGH_EVIDENCE,
                       f"no evidence sentence is about this claim (best similarity {best_sim:.2f})", quote,
                       best_sim)
    mentions = _mentions(claim)
    claim_stems = stems(claim)
    for i in top:
        if float(sims[i]) < CONFLICT_MIN:
            break
        conflict = _typed_conflict(mentions, index.mentions[i], index)
        if conflict:
            return Verdict(CONTRADICTED, f"{conflict} (similarity {float(sims[i]):.2f})",
                           index.sentences[i], float(sims[i]))
    best_stems = stems(quote)
    coverage = len(claim_stems & best_stems) / len(claim_stems) if claim_stems else 0.0
    if best_sim >= NEGATION_MIN and coverage >= 0.7:
        clause = _matching_clause(claim_stems, quote)
        if clause is not None and mentions.negated != is_negated(clause.lower()):
            said = "negates" if mentions.negated else "affirms"
            return Verdict(CONTRADICTED, f"negation mismatch: the claim {said} what the evidence "
                           f"{'affirms' if mentions.negated else 'negates'} (similarity {best_sim:.2f})",
                           quote, best_sim)
    unfound = []
    unfound += [y for y in mentions.years if y not in index.all_mentions.years]
    unfound += [_fmt_num(n) for n in mentions.numbers if n not in index.all_mentions.numbers]
    unfound += sorted(_names_missing(mentions.names, index.all_mentions, index.all_text))
    # coverage against the whole top-k window catches claims that merge two sentences
    window_stems = set().union(*(stems(index.sentences[i]) for i in top))
    window_coverage = len(claim_stems & window_stems) / len(claim_stems) if claim_stems else 0.0
    aligned = best_sim >= SUPPORT_SIM or (
        best_sim >= SUPPORT_SIM_WITH_COVERAGE and max(coverage, window_coverage) >= SUPPORT_COVERAGE)
    if aligned and not unfound:
        return Verdict(SUPPORTED, f"aligned with the evidence (similarity {best_sim:.2f}, "
                       f"{coverage:.0%} of the claim's words) and no disagreement", quote, best_sim)
    if aligned:
        return Verdict(NOT_ENOUGH_EVIDENCE, f"aligned evidence does not state {', '.join(sorted(unfound))} "
                       f"(similarity {best_sim:.2f})", quote, best_sim)
    return Verdict(NOT_ENOUGH_EVIDENCE, f"evidence is related but does not state the claim "
                   f"(similarity {best_sim:.2f}, {coverage:.0%} of the claim's words)", quote, best_sim)


def verify_claims(claims: list[str], documents: list[Document]) -> list[Verdict]:
    if not documents or not any(d.text.strip() or d.title.strip() for d in documents):
        return [Verdict(NOT_ENOUGH_EVIDENCE, NO_EVIDENCE_REASON, "") for _ in claims]
    index = build_index(documents)
    vectors = embed(claims) if claims else np.zeros((0, 384), dtype=np.float32)
    return [verify_claim(c, v, index) for c, v in zip(claims, vectors)]
