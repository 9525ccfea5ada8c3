"""Per-step keys and URLs: every key of the environment is redacted, the main key goes to the main endpoint
only, and a base URL is never shown with what it may carry (user info, path, query)."""
from __future__ import annotations

import pytest

from explorer.logic.backend_wording import APP_STEP_TERMS, APP_TERMS
from vital_core.backends import config
from vital_core.cli.backend_options import key_redactor

MAIN = config.BackendSettings(name=config.OPENAI, base_url="https://main.example/v1")
SECRET_URL = "https://user:hunter2@verifier.example:8443/v1?api-key=abc123"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", *config.STEP_KEY_ENV.values()):
        monkeypatch.delenv(name, raising=False)


def test_key_redactor_removes_every_step_key_too(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-main-1234")
    monkeypatch.setenv("VITAL_VERIFY_API_KEY", "sk-verify-5678")
    monkeypatch.setenv("VITAL_RANK_API_KEY", "sk-rank-9012")
    redact = key_redactor()
    assert redact("a sk-main-1234 b sk-verify-5678 c sk-rank-9012") == "a *** b *** c ***"
    monkeypatch.delenv("OPENAI_API_KEY")
    assert key_redactor()("sk-verify-5678") == "***", "a step key alone is redacted as well"


@pytest.mark.parametrize("step_url, gets_main_key", [("", True), ("https://main.example/v1/", True),
                                                     ("http://127.0.0.1:8000/v1", False)])
def test_the_main_key_goes_to_the_main_endpoint_only(step_url, gets_main_key):
    step = config.StepSettings(name=config.OPENAI, base_url=step_url)
    assert config.step_key(MAIN, step, "", "sk-main") == ("sk-main" if gets_main_key else "")
    assert config.step_key(MAIN, step, "sk-own", "sk-main") == "sk-own", "a step's own key always wins"


def test_a_step_endpoint_of_its_own_needs_its_own_variable_when_openai_api_key_is_set(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-main")
    terms = APP_STEP_TERMS["verify"]
    step = config.StepSettings(name=config.OPENAI, base_url="http://127.0.0.1:8000/v1")
    [problem] = config.validate_step("verify", step, MAIN, config.step_api_key("verify"), terms)
    assert "VITAL_VERIFY_API_KEY" in problem and "not the main endpoint" in problem
    monkeypatch.setenv("VITAL_VERIFY_API_KEY", "sk-own")
    assert config.validate_step("verify", step, MAIN, config.step_api_key("verify"), terms) == []
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("VITAL_VERIFY_API_KEY")
    assert config.validate_step("verify", step, MAIN, "", terms) == [], "no key to leak: a keyless local server"


def test_build_backend_with_steps_never_sends_the_main_key_to_another_endpoint():
    step = config.StepSettings(name=config.OPENAI, base_url="http://127.0.0.1:8000/v1", model="m")
    backend = config.build_backend_with_steps(MAIN, "sk-main", {"rank": step}, {"rank": ""})
    assert backend.steps["rank"].client.settings.api_key != "sk-main"
    same = config.StepSettings(name=config.OPENAI, model="other")
    backend = config.build_backend_with_steps(MAIN, "sk-main", {"rank": same}, {"rank": ""})
    assert backend.steps["rank"].client.settings.api_key == "sk-main"


def test_labels_and_messages_show_scheme_and_host_only():
    shown = [config.StepSettings(name=config.OPENAI, base_url=SECRET_URL).label(),
             config.BackendSettings(name=config.OPENAI, base_url=SECRET_URL).label(),
             *config.validate(config.BackendSettings(name=config.OPENAI, base_url="user:hunter2@x/v1?k=abc123"),
                              "key", APP_TERMS),
             *config.validate_step("rank", config.StepSettings(name=config.OPENAI,
                                                              base_url="ftp://u:hunter2@x/?k=abc123"),
                                   MAIN, "key", APP_STEP_TERMS["rank"])]
    assert "https://verifier.example:8443" in shown[0] and "https://verifier.example:8443" in shown[1]
    assert len(shown) == 4 and "must start with http://" in shown[2] and "ftp://x" in shown[3]
    for text in shown:
        assert "hunter2" not in text and "abc123" not in text and "user" not in text, text
