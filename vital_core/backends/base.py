"""The interface every scoring backend implements.

Two implementations live beside this file: ``offline`` (embedded, no key, no
network; the default) and ``openai`` (any OpenAI-compatible chat endpoint).
``vital_core.scoring.pipeline`` drives a backend through the method's steps (named in
``vital_core.scoring.steps``, one method each); pages and commands never call a backend
step directly.

All steps are ``async`` so the LLM backend can run windows and records
concurrently; the offline backend simply computes and returns.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from vital_core.results.model import Document, Nugget, Subclaim


@dataclass
class DecomposedSentence:
    """A source sentence and the atomic, self-contained claims drawn from it.

    ``warnings``: what was lost about this sentence (left out by the model, claims it gave in a shape
    that could not be read); the pipeline copies them onto the response."""
    text: str
    claims: list[str]
    warnings: list[str] = field(default_factory=list)


@dataclass
class Ranking:
    """Importance labels (id -> label) and the order, most important first.

    Ids the ranker could not label carry ``unlabelled``; ``warnings`` says why.
    """
    labels: dict[str, str]
    order: list[str]
    warnings: list[str] = field(default_factory=list)


@dataclass
class Verdict:
    verdict: str          # supported / contradicted / not_enough_evidence
    reason: str = ""
    evidence: str = ""    # quoted evidence span
    warnings: list[str] = field(default_factory=list)   # no verdict given, a label read only roughly, ...


@dataclass
class Evidence:
    """What claims are checked against. ``mode`` is documents, reference or none."""
    mode: str
    documents: list[Document] = field(default_factory=list)
    reference: str | None = None

    def as_documents(self) -> list[Document]:
        """The evidence as a list of documents (a reference becomes one document)."""
        if self.mode == "reference" and self.reference:
            return [Document(id="reference", text=self.reference)]
        return list(self.documents)


@dataclass
class BackendInfo:
    name: str                 # "offline" / "openai"
    model: str = ""
    prompt_version: str = ""
    description: str = ""     # one line for the app's banner
    # Settings that change the numbers and are not in the model name, e.g. claims_per_call (recorded
    # in results so a reader compares like with like; empty for backends with none).
    method: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        out = {"name": self.name, "model": self.model, "prompt_version": self.prompt_version}
        return {**out, "method": dict(self.method)} if self.method else out


class Backend(ABC):
    """One implementation of the method's model-dependent steps."""

    @property
    @abstractmethod
    def info(self) -> BackendInfo: ...

    @abstractmethod
    async def decompose(self, query: str, response: str) -> list[DecomposedSentence]:
        """Split a response into sentences and atomic claims (pronouns resolved)."""

    @abstractmethod
    async def rank(self, query: str, subclaims: list[Subclaim], evidence: Evidence | None = None) -> Ranking:
        """Label each subclaim vital/okay/less-important by query importance and order them. ``evidence``, when
        given, is what the claims will be checked against; a backend may read it (the offline one does for
        open-ended requests) or rank from the query alone, as the method's prompt does."""

    @abstractmethod
    async def verify(self, query: str, subclaims: list[Subclaim], evidence: Evidence) -> list[Verdict]:
        """One verdict per subclaim, in the same order."""

    @abstractmethod
    async def make_nuggets(self, query: str, documents: list[Document]) -> list[Nugget]:
        """Query-level nuggets (vital/okay) from the documents; ids N0, N1, ..."""

    @abstractmethod
    async def assign_nuggets(self, query: str, nuggets: list[Nugget], response: str) -> dict[str, str]:
        """nugget id -> support / partial_support / not_support for one response."""

    @abstractmethod
    async def perturb(self, query: str, response: str, kind: str) -> str:
        """Return the ``missing`` or ``wrong`` variant of a normal response."""

    async def aclose(self) -> None:  # pragma: no cover - optional hook
        return None
