"""Per-step backends: one backend for most steps, another for ranking and/or verification.

A user keeps decomposition offline and sends only verification to a local fact-checking model
(MiniCheck-style models served by Ollama or vLLM), or ranks with a large model and verifies with a
small one. ``PerStepBackend`` delegates each step of the ``Backend`` interface to the backend
chosen for it; results record every backend involved.
"""
from __future__ import annotations

from vital_core.backends.base import Backend, BackendInfo, DecomposedSentence, Evidence, Ranking, Verdict
from vital_core.model import Document, Nugget, Subclaim

OVERRIDABLE = ("rank", "verify")


class PerStepBackend(Backend):
    def __init__(self, base: Backend, **steps: Backend):
        unknown = set(steps) - set(OVERRIDABLE)
        if unknown:
            raise ValueError(f"only {', '.join(OVERRIDABLE)} can have a backend of their own "
                             f"(got {', '.join(sorted(unknown))})")
        self.base = base
        self.steps = {name: backend for name, backend in steps.items() if backend is not None}

    def _for(self, step: str) -> Backend:
        return self.steps.get(step, self.base)

    @property
    def info(self) -> BackendInfo:
        base = self.base.info
        parts = [f"{step}: {b.info.name} {b.info.model}".rstrip() for step, b in self.steps.items()]
        return BackendInfo(name=base.name, model=" | ".join([base.model] + parts),
                           prompt_version=" | ".join([base.prompt_version] + [b.info.prompt_version
                                                                              for b in self.steps.values()]),
                           description=f"{base.description}; " + "; ".join(parts))

    async def decompose(self, query: str, response: str) -> list[DecomposedSentence]:
        return await self.base.decompose(query, response)

    async def rank(self, query: str, subclaims: list[Subclaim]) -> Ranking:
        return await self._for("rank").rank(query, subclaims)

    async def verify(self, query: str, subclaims: list[Subclaim], evidence: Evidence) -> list[Verdict]:
        return await self._for("verify").verify(query, subclaims, evidence)

    async def make_nuggets(self, query: str, documents: list[Document]) -> list[Nugget]:
        return await self.base.make_nuggets(query, documents)

    async def assign_nuggets(self, query: str, nuggets: list[Nugget], response: str) -> dict[str, str]:
        return await self.base.assign_nuggets(query, nuggets, response)

    async def perturb(self, query: str, response: str, kind: str) -> str:
        return await self.base.perturb(query, response, kind)

    async def aclose(self) -> None:
        for backend in {id(b): b for b in [self.base, *self.steps.values()]}.values():
            await backend.aclose()
