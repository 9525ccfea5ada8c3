"""Shared fixtures: the read-only reference data in ../shared, read in place."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.paths import SHARED

REFERENCE = SHARED / "reference-data" / "vitalerrors-nq"


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """``../shared/reference-data/vitalerrors-nq``; skips when ../shared is absent."""
    if not REFERENCE.is_dir():
        pytest.skip(f"reference data not found at {REFERENCE} (../shared is absent)")
    return REFERENCE
