"""Nuggets from the evidence, and their assignment to a response.

Nuggets are the atomic claims of the evidence sentences most relevant to the
query, scored by the same importance model as response claims: vital when
that model labels the claim vital, otherwise okay; near-duplicates are
merged and at most ``MAX_NUGGETS`` are kept (best first, ids N0, N1, ...).

A nugget is assigned to a response by verifying the nugget against the
response text: supported -> support; closely related but not fully stated
-> partial_support; anything else -> not_support.
"""
from __future__ import annotations

from vital_core.backends.offline.decompose import decompose
from vital_core.backends.offline.importance import rank_claims
from vital_core.backends.offline.language.analysis import Analysis, analyse_texts, lemma_found
from vital_core.backends.offline.language.embedder import embed
from vital_core.backends.offline.language.name_match import name_found
from vital_core.backends.offline.stated import value_found
from vital_core.backends.offline.verify import verify_claims
from vital_core.results.model import (
    CONTRADICTED,
    NOT_SUPPORT,
    OKAY,
    PARTIAL_SUPPORT,
    SUPPORT,
    SUPPORTED,
    VITAL,
    Document,
    Nugget,
    strip_generation_prefix,
)

MAX_NUGGETS = 30
# Evidence claims less similar to the query than this are not nuggets.
MIN_QUERY_SIMILARITY = 0.25
DUPLICATE_SIMILARITY = 0.92
# A nugget aligned at least this closely without being supported is partial.
PARTIAL_SIMILARITY = 0.62
# A nugget is a whole evidence sentence and often carries qualifiers an answer need not repeat ("under the
# definition adopted in 2006, the solar system has 8 planets"): a response sentence this close that states
# the part the query asks about supports it (``states_the_answer``).
CORE_SIMILARITY = 0.60


def make_nuggets(query: str, documents: list[Document]) -> list[Nugget]:
    claims: list[str] = []
    positions: list[int] = []
    texts: list[str] = []
    for doc in documents:
        for s_index, (sentence, sentence_claims) in enumerate(decompose(doc.text)):
            for claim in sentence_claims:
                claims.append(claim)
                positions.append(s_index)
                texts.append(sentence)
    if not claims:
        return []
    ids = [str(i) for i in range(len(claims))]
    labels, _, scores = rank_claims(query, ids, claims, positions, texts, answer_focus=False)
    # the source tells a whole story around the answer, so its own ranking stands; but the claim that answers a
    # one-thing question ("The battle was fought on 7 October 1571") is a vital nugget too, or an answer
    # without it loses nothing vital
    focused, _, _ = rank_claims(query, ids, claims, positions, texts)
    labels = {i: VITAL if VITAL in (labels[i], focused[i]) else labels[i] for i in ids}
    question_vec = embed([strip_generation_prefix(query)])[0]
    vectors = embed(claims)
    query_sims = vectors @ question_vec
    candidates = sorted(range(len(claims)), key=lambda i: (-scores[i], i))
    kept: list[int] = []
    for i in candidates:
        if query_sims[i] < MIN_QUERY_SIMILARITY:
            continue
        if any(float(vectors[i] @ vectors[j]) >= DUPLICATE_SIMILARITY for j in kept):
            continue
        kept.append(i)
        if len(kept) >= MAX_NUGGETS:
            break
    return [Nugget(id=f"N{n}", text=claims[i], importance=VITAL if labels[str(i)] == VITAL else OKAY)
            for n, i in enumerate(kept)]


def states_the_answer(nugget: Analysis, sentence: Analysis, query: Analysis) -> bool:
    """The response sentence states the part of the nugget the query asks about: every word and name the
    nugget shares with the query, and one of the nugget's own names or values beyond them
    ("The tallest mountain in Africa is Kilimanjaro" for "Kilimanjaro, in north-east Tanzania, is Africa's
    highest mountain"; "Kilimanjaro lies in Tanzania" does not state it)."""
    asked = [lemma for lemma in nugget.content if lemma_found(lemma, query)]
    asked_names = [name for name in nugget.names if name_found(name, query)]
    if not asked and not asked_names:
        return False
    if not all(lemma_found(lemma, sentence, soft=True) for lemma in asked) or \
            not all(name_found(name, sentence) for name in asked_names):
        return False
    return any(name_found(n, sentence) for n in nugget.names if n not in asked_names) or \
        any(value_found(v, [sentence]) for v in nugget.values)


def assign_nuggets(nuggets: list[Nugget], response: str, query: str = "") -> dict[str, str]:
    if not nuggets:
        return {}
    verdicts = verify_claims([n.text for n in nuggets], [Document(id="response", text=response)])
    texts = [n.text for n in nuggets] + [v.evidence for v in verdicts] + [strip_generation_prefix(query)]
    analyses = analyse_texts(texts)
    asked = analyses[-1]
    out: dict[str, str] = {}
    for k, (nugget, verdict) in enumerate(zip(nuggets, verdicts)):
        if verdict.verdict == SUPPORTED or (verdict.verdict != CONTRADICTED and verdict.similarity >= CORE_SIMILARITY
                                            and states_the_answer(analyses[k], analyses[len(nuggets) + k], asked)):
            out[nugget.id] = SUPPORT
        elif verdict.verdict != CONTRADICTED and verdict.similarity >= PARTIAL_SIMILARITY:
            out[nugget.id] = PARTIAL_SUPPORT
        else:
            out[nugget.id] = NOT_SUPPORT
    return out


__all__ = ["make_nuggets", "assign_nuggets", "MAX_NUGGETS"]
