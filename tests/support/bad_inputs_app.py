"""The app's share of the bad-input corpus: a page opened (Streamlit's AppTest, in this process) on the
hostile results file or with credentials in its environment; its ``AppOutcome`` says whether the page
raised, let markup render or showed a secret. ``tests/unit/test_bad_input_corpus.py`` asserts it."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.bad_inputs import ENV_KEY, PASSWORD, QUERY_KEY


@dataclass
class AppCase:
    """A page opened on hostile data or with secrets in its environment (AppTest, in this process)."""
    name: str
    page: str
    query_params: dict[str, str] = field(default_factory=dict)
    session: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    secret: str = ""                  # must not be on the page: no label, text, box value or placeholder


@dataclass
class AppOutcome:
    case: AppCase
    exceptions: list[str]
    leaks: list[str]                  # labels or bodies in which markup would still render
    shown_secret: bool

    @property
    def ok(self) -> bool:
        return not self.exceptions and not self.leaks and not self.shown_secret

    def why(self) -> str:
        return (f"{self.case.name}: exceptions={self.exceptions}, leaks={self.leaks[:3]}, "
                f"secret shown={self.shown_secret}")


def app_cases(folder: Path) -> list[AppCase]:
    """The hostile results file (tests/support/app_helpers.py) on every page that loads one, Annotate's export of its
    hostile condition, and endpoint URLs with credentials in the server's environment."""
    from tests.support.app_helpers import hostile_results_file
    path = str(hostile_results_file(folder))
    condition = next(name for name in json.loads(Path(path).read_text())["variants"] if "evil.example" in name)
    secret_url = f"http://alice:{PASSWORD}@127.0.0.1:9/v1?api-key={QUERY_KEY}"
    return [
        AppCase("app-explore-hostile-file", "explore", query_params={"dataset": path}),
        AppCase("app-sensitivity-hostile-file", "sensitivity", query_params={"dataset": path}),
        AppCase("app-agreement-hostile-condition", "agreement",
                session={"agr_a": path, "agr_b": path, "agr_ann_condition": condition,
                         "agr_ann_start": "labelling A"}),
        AppCase("app-score-url-credentials", "score", session={"backend_name": "openai"},
                env={"OPENAI_BASE_URL": secret_url, "OPENAI_API_KEY": ENV_KEY}, secret=PASSWORD),
        AppCase("app-compare-step-url-credentials", "compare",
                session={"backend_name": "openai", "step_verify_choice": "openai"},
                env={"VITAL_VERIFY_BASE_URL": secret_url, "VITAL_VERIFY_API_KEY": ENV_KEY}, secret=QUERY_KEY),
    ]


def run_app_case(case: AppCase, folder: Path) -> AppOutcome:
    from streamlit.testing.v1 import AppTest

    from tests.support.app_helpers import APP, TIMEOUT, leaks, markdown_sources
    saved = {k: os.environ.get(k) for k in (*case.env, "VITAL_DATA_ROOTS", "VITAL_CACHE_DIR")}
    os.environ.update(case.env, VITAL_DATA_ROOTS=str(folder), VITAL_CACHE_DIR=str(folder / ".cache"))
    try:
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
        for k, v in case.query_params.items():
            at.query_params[k] = v
        for k, v in case.session.items():
            at.session_state[k] = v
        at.run()
        if case.page != "score":
            at.switch_page(f"pages/{case.page}.py").run()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    sources = markdown_sources(at) + [str(d.label) for d in at.get("download_button")]
    boxes = [f"{t.value} {t.placeholder}" for t in at.text_input]
    return AppOutcome(case, [str(e.value) for e in at.exception], leaks(sources),
                      bool(case.secret) and any(case.secret in text for text in sources + boxes))
