"""``OfflineBackend``: the method's steps with embeddings and rules, no network.

Decomposition (pysbd + clause/list rules), importance (query similarity,
answer type, background/hedge/meta cues, position; calibrated thresholds),
verification (embedding alignment + typed mismatch rules), nuggets and
perturbation. Deterministic: the same input always gives the same output.
"""
from __future__ import annotations

from vital_core.backends.base import Backend, BackendInfo, DecomposedSentence, Evidence, Ranking, Verdict
from vital_core.backends.offline import decompose, importance, nuggets, perturb, verify
from vital_core.backends.offline.language.embedder import get_embedder
from vital_core.results.model import (
    EVIDENCE_NONE,
    EVIDENCE_REFERENCE,
    NOT_ENOUGH_EVIDENCE,
    VITAL,
    Document,
    Nugget,
    Subclaim,
    strip_generation_prefix,
)
from vital_core.scoring import deadline

PROMPT_VERSION = "offline-1"


class OfflineBackend(Backend):
    """Embedded backend: needs no key and never opens a network connection.

    Settings meant for other backends (``model``, ``base_url``, ``cache_dir``
    ...) are accepted and ignored, so callers can pass one settings dict.
    """

    def __init__(self, **_settings_for_other_backends):
        self._info = BackendInfo(
            name="offline", model="minilm-int8 + rules", prompt_version=PROMPT_VERSION,
            description=("Offline backend: MiniLM sentence embeddings (int8 ONNX) and rules; "
                         "no key, no network. Importance and verification are approximate; "
                         "see the README for its measured agreement with people."))

    @property
    def info(self) -> BackendInfo:
        return self._info

    @staticmethod
    def warm_up() -> None:
        """Load the embedding model now rather than on the first request."""
        get_embedder().encode(["warm up"])

    # Every step is CPU work: it runs in a worker thread (``deadline.in_thread``) so the event loop stays
    # free - other records go on (``--concurrency``), the progress bar moves, a deadline can fire; the
    # thread carries the record's deadline (its loops stop once it passes) and never keeps the process alive.

    async def decompose(self, query: str, response: str) -> list[DecomposedSentence]:
        return await deadline.in_thread(self._decompose, response)

    @staticmethod
    def _decompose(response: str) -> list[DecomposedSentence]:
        return [DecomposedSentence(text=s, claims=c) for s, c in decompose.decompose(response)]

    async def rank(self, query: str, subclaims: list[Subclaim], evidence: Evidence | None = None) -> Ranking:
        return await deadline.in_thread(self._rank, query, subclaims, evidence)

    @staticmethod
    def _rank(query: str, subclaims: list[Subclaim], evidence: Evidence | None = None) -> Ranking:
        if not subclaims:
            return Ranking(labels={}, order=[])
        # documents or a reference the user gave: what an open-ended request's answer is judged on
        given = evidence is not None and evidence.mode != EVIDENCE_NONE
        evidence_sentences = [sentence for doc in evidence.as_documents()
                              for sentence in decompose.split_sentences(doc.text)] if given else None
        labels, order, _ = importance.rank_claims(
            query, [s.id for s in subclaims], [s.text for s in subclaims],
            [s.sentence_index for s in subclaims], [s.sentence or s.text for s in subclaims],
            evidence_sentences=evidence_sentences)
        return Ranking(labels=labels, order=order)

    async def verify(self, query: str, subclaims: list[Subclaim], evidence: Evidence) -> list[Verdict]:
        return await deadline.in_thread(self._verify, subclaims, evidence, strip_generation_prefix(query))

    @staticmethod
    def _verify(subclaims: list[Subclaim], evidence: Evidence, question: str = "") -> list[Verdict]:
        claims = [s.text for s in subclaims]
        if evidence.mode == EVIDENCE_NONE:
            documents: list[Document] = []
        else:
            documents = evidence.as_documents()
        reference = evidence.mode == EVIDENCE_REFERENCE
        verdicts = verify.verify_claims(
            claims, documents, reference=reference,
            source_sentences=[s.sentence or s.text for s in subclaims] if reference else None,
            question=question, vital=[s.importance == VITAL for s in subclaims])
        # a vital claim left undecided says what could decide it: these rules match words, not meaning
        return [Verdict(verdict=v.verdict, evidence=v.evidence,
                        reason=f"{v.reason} — {verify.PARAPHRASE_HINT}"
                        if v.verdict == NOT_ENOUGH_EVIDENCE and s.importance == VITAL and documents else v.reason)
                for s, v in zip(subclaims, verdicts)]

    async def make_nuggets(self, query: str, documents: list[Document]) -> list[Nugget]:
        return await deadline.in_thread(nuggets.make_nuggets, query, documents)

    async def assign_nuggets(self, query: str, nugget_list: list[Nugget], response: str) -> dict[str, str]:
        return await deadline.in_thread(nuggets.assign_nuggets, nugget_list, response, query)

    async def perturb(self, query: str, response: str, kind: str) -> str:
        return await deadline.in_thread(perturb.perturb, query, response, kind)
