"""Where the app finds its bundled demo and the read-only reference data (../shared)."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEMO_DIR = REPO / "data" / "demo"
DEMO_INPUT = DEMO_DIR / "demo_input.jsonl"
DEMO_RESULTS = DEMO_DIR / "demo_results.jsonl"
SHARED = REPO.parent / "shared"
REFERENCE = SHARED / "reference-data" / "vitalerrors-nq"
DEMO_SOURCE = "demo"
# The tab icon is a file of the app: a named icon would be fetched from an icon service.
FAVICON = Path(__file__).resolve().parent / "assets" / "favicon.png"
