"""Per-step backends: one backend for most steps, another for ranking and/or verification.

A user keeps decomposition offline and sends only verification to a local fact-checking model
(MiniCheck-style models served by Ollama or vLLM), or ranks with a large model and verifies with a
small one. ``PerStepBackend`` delegates each step of the ``Backend`` interface to the backend
chosen for it; results record every backend involved.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from vital_core.backends.base import Backend, BackendInfo, DecomposedSentence, Evidence, Ranking, Verdict
from vital_core.results.model import Document, Nugget, Subclaim
from vital_core.scoring.steps import OWN_BACKEND_STEPS, RANK, STEPS, VERIFY


@dataclass
class PerStepInfo(BackendInfo):
    """``BackendInfo`` plus which backend and model did each step (recorded in every result)."""
    steps: dict[str, dict] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {**super().to_dict(), "steps": {k: dict(v) for k, v in self.steps.items()}}


def merge_usage(parts: list[dict]) -> dict:
    """One usage summary from several endpoints' (counts and tokens added; cost unknown if any is)."""
    merged: dict = {"model": " + ".join(p.get("model", "") for p in parts), "by_step": {}}
    for part in parts:
        for key, value in part.items():
            if isinstance(value, int) and not isinstance(value, bool):
                merged[key] = merged.get(key, 0) + value
        for step, counts in (part.get("by_step") or {}).items():
            into = merged["by_step"].setdefault(step, {})
            for key, value in counts.items():
                into[key] = into.get(key, 0) + value
    costs = [p.get("cost_usd") for p in parts]
    merged["cost_usd"] = None if None in costs else round(sum(costs), 6)
    notes = [p["cost_note"] for p in parts if p.get("cost_note")]
    merged["cost_note"] = "; ".join(notes) or None
    merged["notes"] = [n for p in parts for n in p.get("notes") or ()]
    return merged


class PerStepBackend(Backend):
    def __init__(self, base: Backend, **steps: Backend):
        unknown = set(steps) - set(OWN_BACKEND_STEPS)
        if unknown:
            raise ValueError(f"only {', '.join(OWN_BACKEND_STEPS)} can have a backend of their own "
                             f"(got {', '.join(sorted(unknown))})")
        self.base = base
        self.steps = {name: backend for name, backend in steps.items() if backend is not None}

    def _for(self, step: str) -> Backend:
        return self.steps.get(step, self.base)

    def _distinct(self) -> list:
        return list({id(b): b for b in [self.base, *self.steps.values()]}.values())

    def backends(self) -> list:
        """Each backend the steps use, once."""
        return self._distinct()

    @property
    def info(self) -> PerStepInfo:
        base = self.base.info
        parts = [f"{step}: {b.info.name} {b.info.model}".rstrip() for step, b in self.steps.items()]
        steps = {}
        for step in STEPS:
            used = self._for(step).info
            steps[step] = {"name": used.name, "model": used.model}
        return PerStepInfo(name=base.name, model=" | ".join([base.model] + parts),
                           prompt_version=" | ".join([base.prompt_version] + [b.info.prompt_version
                                                                              for b in self.steps.values()]),
                           description=f"{base.description}; " + "; ".join(
                               f"{step}: {b.info.description or b.info.name}" for step, b in self.steps.items()),
                           steps=steps, method=self._for("verify").info.method)

    def usage_summary(self) -> dict | None:
        """The LLM usage of every endpoint involved, added up (None when none is an endpoint)."""
        parts = [b.usage_summary() for b in self._distinct() if callable(getattr(b, "usage_summary", None))]
        parts = [p for p in parts if p]
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else merge_usage(parts)

    async def decompose(self, query: str, response: str) -> list[DecomposedSentence]:
        return await self.base.decompose(query, response)

    async def rank(self, query: str, subclaims: list[Subclaim], evidence: Evidence | None = None) -> Ranking:
        return await self._for(RANK).rank(query, subclaims, evidence)

    async def verify(self, query: str, subclaims: list[Subclaim], evidence: Evidence) -> list[Verdict]:
        return await self._for(VERIFY).verify(query, subclaims, evidence)

    async def make_nuggets(self, query: str, documents: list[Document]) -> list[Nugget]:
        return await self.base.make_nuggets(query, documents)

    async def assign_nuggets(self, query: str, nuggets: list[Nugget], response: str) -> dict[str, str]:
        return await self.base.assign_nuggets(query, nuggets, response)

    async def perturb(self, query: str, response: str, kind: str) -> str:
        return await self.base.perturb(query, response, kind)

    async def aclose(self) -> None:
        for backend in self._distinct():
            await backend.aclose()
