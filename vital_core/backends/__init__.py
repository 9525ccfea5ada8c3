"""Scoring backends behind one interface (see ``base.Backend``).

``get_backend("offline")`` needs no key and no network and is the default;
``get_backend("openai", ...)`` talks to any OpenAI-compatible chat endpoint.
"""
from __future__ import annotations

from vital_core.backends.base import Backend, BackendInfo, DecomposedSentence, Evidence, Ranking, Verdict

BACKEND_NAMES = ("offline", "openai")


def get_backend(name: str = "offline", **settings) -> Backend:
    """Build a backend by name; ``settings`` go to the backend's constructor."""
    if name == "offline":
        from vital_core.backends.offline import OfflineBackend
        return OfflineBackend(**settings)
    if name == "openai":
        from vital_core.backends.openai.backend import OpenAICompatBackend
        return OpenAICompatBackend(**settings)
    raise ValueError(f"unknown backend {name!r}; expected one of {', '.join(BACKEND_NAMES)}")


__all__ = ["Backend", "BackendInfo", "DecomposedSentence", "Evidence", "Ranking", "Verdict",
           "get_backend", "BACKEND_NAMES"]
