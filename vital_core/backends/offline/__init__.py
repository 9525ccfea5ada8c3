"""The embedded offline backend (no key, no network). See ``backend.OfflineBackend``."""
from .backend import OfflineBackend

__all__ = ["OfflineBackend"]
