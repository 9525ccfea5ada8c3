"""Where the app finds its bundled demo and the read-only reference data (../shared), and which
folders a path typed in the app or given in the URL may point into (``VITAL_DATA_ROOTS``)."""
from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"
DEMO_DIR = DATA / "demo"
DEMO_INPUT = DEMO_DIR / "demo_input.jsonl"
DEMO_RESULTS = DEMO_DIR / "demo_results.jsonl"
SHARED = REPO.parent / "shared"
REFERENCE = SHARED / "reference-data" / "vitalerrors-nq"
DEMO_SOURCE = "demo"
# The tab icon is a file of the app: a named icon would be fetched from an icon service.
FAVICON = Path(__file__).resolve().parent / "assets" / "favicon.png"
DATA_ROOTS_ENV = "VITAL_DATA_ROOTS"


class OutsideDataRoots(PermissionError):
    """A path typed in the app or given in the URL that lies outside every data root."""


def data_roots() -> list[Path]:
    """The folders the app reads paths from: ``VITAL_DATA_ROOTS`` (os.pathsep-separated), else the
    working folder, the project's data/ folder and ../shared next to the project."""
    listed = [p.strip() for p in os.environ.get(DATA_ROOTS_ENV, "").split(os.pathsep) if p.strip()]
    roots = [Path(p).expanduser() for p in listed] if listed else [Path.cwd(), DATA, SHARED]
    return list(dict.fromkeys(r.resolve() for r in roots))


def allowed_path(text: str) -> Path:
    """The path ``text`` names, resolved (symbolic links followed), when it lies inside a data root;
    otherwise ``OutsideDataRoots`` with one sentence naming the roots."""
    if "\x00" in text:
        raise FileNotFoundError(f"{text!r} is not a valid path (it holds a NUL character)")
    path = Path(text).expanduser().resolve()
    roots = data_roots()
    if any(path.is_relative_to(root) for root in roots):
        return path
    raise OutsideDataRoots(f"{text} is outside the folders this app reads ({', '.join(map(str, roots))}); "
                           f"set {DATA_ROOTS_ENV} to change them")
