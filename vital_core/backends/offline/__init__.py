"""The embedded offline backend (no key, no network). See ``backend.OfflineBackend``."""
from vital_core.backends.offline.backend import OfflineBackend

__all__ = ["OfflineBackend"]
