"""Shared helpers for the AppTest page tests (tests/test_app_*.py)."""
from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "app.py"
TIMEOUT = 90


def open_page(page: str | None = None, *, query_params: dict | None = None, session: dict | None = None) -> AppTest:
    """Run app.py (which opens the Score page) and switch to ``pages/<page>.py``."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in (query_params or {}).items():
        at.query_params[k] = v
    for k, v in (session or {}).items():
        at.session_state[k] = v
    at.run()
    if page and page != "score":
        at.switch_page(f"pages/{page}.py").run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """No exception and no 'something went wrong' fallback message on the page."""
    assert not at.exception, [e.value for e in at.exception]
    broken = [e.value for e in at.error if "Something went wrong" in e.value]
    assert not broken, broken


def texts(at: AppTest, kind: str) -> list[str]:
    return [str(e.value) for e in getattr(at, kind)]


def html_bodies(at: AppTest) -> str:
    return "\n".join(str(h.proto.body) for h in at.html)


def metric_values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}
