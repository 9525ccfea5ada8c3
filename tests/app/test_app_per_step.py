"""AppTest: the sidebar's "Per-step backends" expander. Verification chosen as a yes/no fact-checking
model on an OpenAI-compatible endpoint (the mock provider, a real HTTP server on 127.0.0.1) reaches the
Score page's run; the choice survives a page change; bad settings are one sentence naming the field; the
step's key (environment only) appears in no result, URL or session value."""
from __future__ import annotations

import json

from explorer.logic import per_step_choice
from tests.support.app_helpers import assert_clean, hostile, leaks, markdown_sources, open_page, shown, texts
from tests.support.yes_no_mock import yes_no_mock  # noqa: F401 - pytest fixture
from vital_core.backends import config
from vital_core.backends.openai.yes_no import YES_NO_STEP
from vital_core.results.model import CONTRADICTED

SECRET = "sk-verify-app-secret-0123456789"
K = per_step_choice.key


def _choose_yes_no_verifier(at, base_url: str):
    at.selectbox(key=K("verify", "choice")).set_value(per_step_choice.ENDPOINT).run()
    assert_clean(at)
    at.text_input(key=K("verify", "base_url")).set_value(base_url)
    at.text_input(key=K("verify", "model")).set_value("minicheck-mock")
    at.checkbox(key=K("verify", "yes_no")).check().run()
    assert_clean(at)


def test_yes_no_verifier_chosen_in_the_sidebar_reaches_the_run(yes_no_mock, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("VITAL_VERIFY_API_KEY", SECRET)
    monkeypatch.setenv("VITAL_VERIFY_BASE_URL", yes_no_mock.base_url)   # the server's verification endpoint
    monkeypatch.setenv("VITAL_CACHE_DIR", str(tmp_path / "cache"))
    at = open_page("score")
    assert any(e.label == "Per-step backends" for e in at.get("expander"))
    _choose_yes_no_verifier(at, yes_no_mock.base_url)
    assert not any("verification" in w for w in texts(at, "warning")), texts(at, "warning")
    # carried to another page and back, like the sidebar's other settings
    at.switch_page("pages/explore.py").run()
    at.switch_page("pages/score.py").run()
    assert at.selectbox(key=K("verify", "choice")).value == per_step_choice.ENDPOINT
    assert at.checkbox(key=K("verify", "yes_no")).value is True
    assert any("verification: yes/no model · minicheck-mock" in c for c in texts(at, "caption"))
    at.text_input(key="score_query").set_value("Who wrote the novel Pride and Prejudice?")
    at.text_area(key="score_response").set_value(
        "Pride and Prejudice was written by Jane Austen. It was published in 1813 in Paris.")
    at.text_area(key="score_documents").set_value("Pride and Prejudice was written by Jane Austen. "
                                                  "It was published in 1813.")
    at.text_area(key="score_reference").set_value("")
    at.form_submit_button[0].click().run()
    assert_clean(at)
    assert at.status[0].label.startswith("Scored:")
    assert yes_no_mock.requests and {r.step for r in yes_no_mock.requests} == {YES_NO_STEP}, \
        "decomposition and ranking stayed offline; only verification went to the endpoint"
    assert {r.authorization for r in yes_no_mock.requests} == {f"Bearer {SECRET}"}
    result = at.session_state["score_result"]
    assert result["backend"]["steps"]["verify"] == {"name": "openai-yes-no", "model": "minicheck-mock"}
    assert result["backend"]["steps"]["rank"]["name"] == "offline"
    verdicts = [c["verdict"] for c in result["variants"]["normal"]["subclaims"]]
    assert "supported" in verdicts and CONTRADICTED not in verdicts
    assert SECRET not in json.dumps(result) and SECRET not in json.dumps(at.query_params)
    assert all(SECRET not in str(at.session_state[k]) for k in per_step_choice.SESSION_KEYS
               if k in at.session_state)


def test_bad_step_settings_say_which_field(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("VITAL_RANK_API_KEY", raising=False)
    at = open_page("score")
    at.selectbox(key=K("rank", "choice")).set_value(per_step_choice.ENDPOINT).run()
    assert_clean(at)
    assert any(w.startswith("no API key for ranking: set VITAL_RANK_API_KEY or OPENAI_API_KEY")
               for w in texts(at, "warning")), texts(at, "warning")
    at.text_input(key=K("rank", "base_url")).set_value("localhost:11434/v1").run()
    assert any(w.startswith("ranking base URL must start with http:// or https://") for w in texts(at, "warning"))
    # the run refuses with the same sentence instead of scoring with the wrong backend
    at.form_submit_button[0].click().run()
    assert any("ranking base URL must start with http://" in e for e in texts(at, "error")), texts(at, "error")


def test_step_choice_as_core_settings():
    values = {K("verify", "choice"): "openai", K("verify", "base_url"): " http://h:1/v1 ",
              K("verify", "yes_no"): True, K("rank", "choice"): "offline", K("rank", "base_url"): "ignored"}
    steps = per_step_choice.step_settings(values)
    assert steps["verify"] == config.StepSettings(name="openai", base_url="http://h:1/v1", mode=config.YES_NO)
    assert steps["rank"] == config.StepSettings(name="offline"), "an endpoint's fields count only when chosen"
    assert per_step_choice.step_settings({}) == {s: config.StepSettings() for s in per_step_choice.STEP_NAMES}
    assert per_step_choice.summary(per_step_choice.step_settings({})) == ""
    # one sentinel for "the main backend's": the sidebar's choice is the setting's own value
    assert per_step_choice.SAME == config.SAME
    assert per_step_choice.step_settings({K("rank", "choice"): per_step_choice.SAME})["rank"].name == config.SAME


def test_hostile_step_settings_are_escaped():
    at = open_page("score", session={K("verify", "choice"): "openai", K("verify", "base_url"): hostile("url"),
                                     K("verify", "model"): hostile("model")})
    assert_clean(at)
    assert any("verification base URL must start" in s for s in texts(at, "warning"))
    assert any("evil.example" in shown(s) for s in markdown_sources(at)), "the payload is on the page (as text)"
    assert not leaks(markdown_sources(at))
