"""Secrets stay secret: credentials in a URL (``http://alice:secret@host/v1``, ``?api-key=``) are shown as
scheme and host only and redacted from every message, log line, result and summary; the app never sends a
key of the server's environment to an endpoint a visitor typed (a real HTTP server on 127.0.0.1 records
the Authorization header it receives)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.logic import per_step_choice
from tests.support.app_helpers import assert_clean, markdown_sources, open_page
from tests.support.mock_provider import MockProvider
from tests.support.mock_samples import sample_records
from tests.support.paths import REPO
from tests.support.yes_no_mock import yes_no_mock  # noqa: F401 - pytest fixture
from vital_core.backends import config
from vital_core.safety.redaction import redact, redactor, shown_url, url_secrets

PASSWORD, QUERY_KEY = "s3cret-pass", "qk-0123456789"
SERVER_KEY = "sk-server-env-key-0123456789"
STEP_KEY = "sk-server-verify-key-0123456789"
K = per_step_choice.key


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", *config.STEP_KEY_ENV.values(), *config.STEP_URL_ENV.values()):
        monkeypatch.delenv(name, raising=False)


def with_credentials(base_url: str) -> str:
    return base_url.replace("http://", f"http://alice:{PASSWORD}@")


def test_one_redaction_for_urls_and_texts():
    url = f"https://alice:{PASSWORD}@host.example:8443/v1?api-key={QUERY_KEY}&x=1"
    assert shown_url(url) == "https://host.example:8443"
    assert set(url_secrets(url)) == {"alice", PASSWORD, QUERY_KEY}
    text = redact(f"POST {url}/chat failed; the server said: no route /v1?api-key={QUERY_KEY}", ["sk-abcd"])
    assert PASSWORD not in text and QUERY_KEY not in text and "host.example" in text
    assert redact(f"echo {PASSWORD} and sk-abcd", [PASSWORD, "sk-abcd"]) == "echo *** and ***"
    assert shown_url("http://h:99999/v1") == "http://h:?", "an out-of-range port never raises"


def test_a_lone_key_is_redacted_whole_not_letter_by_letter():
    assert redact("the key sk-abcd leaked", "sk-abcd") == "the key *** leaked"
    assert redactor("sk-abcd")("sk-abcd and sk-abcd") == "*** and ***"


def _run_cli(tmp_path: Path, env_extra: dict, *argv: str) -> subprocess.CompletedProcess:
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in sample_records(1)))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    env.update(PYTHONPATH=str(REPO), VITAL_CACHE_DIR=str(tmp_path / "cache"), **env_extra)
    return subprocess.run([sys.executable, "-m", "vital_core", "score", str(inp), "--out", str(tmp_path / "o.jsonl"),
                           "--no-progress", "-v", "--no-cache", "--max-attempts", "1", *argv],
                          env=env, capture_output=True, text=True, timeout=300)


def test_verbose_log_results_and_summary_never_show_url_credentials(tmp_path):
    # the endpoint refuses response_format, so the client logs that it learnt a downgrade for the endpoint
    with MockProvider(reject_response_format=True) as mock:
        done = _run_cli(tmp_path, {"OPENAI_BASE_URL": with_credentials(mock.base_url)})
        port = mock.port
    assert "using plain text" in done.stderr, done.stderr   # the downgrade it learnt, logged with the endpoint
    assert f"http://127.0.0.1:{port}" in done.stderr
    written = done.stderr + done.stdout + (tmp_path / "o.jsonl").read_text() \
        + (tmp_path / "o.jsonl.summary.json").read_text()
    assert PASSWORD not in written and "alice" not in written


def test_a_key_in_the_query_string_is_redacted_even_when_the_server_echoes_it(tmp_path):
    with MockProvider() as mock:
        done = _run_cli(tmp_path, {}, "--base-url", f"{mock.base_url}?api-key={QUERY_KEY}")
    assert "no route" in done.stderr, "the mock echoes the path it was sent"
    written = done.stderr + (tmp_path / "o.jsonl").read_text() + (tmp_path / "o.jsonl.summary.json").read_text()
    assert QUERY_KEY not in written


def test_the_base_url_box_shows_scheme_and_host_only(monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://alice:{PASSWORD}@127.0.0.1:9/v1?api-key={QUERY_KEY}")
    at = open_page("score")
    at.radio(key="backend_name").set_value("openai").run()
    assert_clean(at)
    box = at.text_input(key="backend_base_url")
    assert box.value == "" and box.placeholder == "the server's: http://127.0.0.1:9"
    page = " ".join(markdown_sources(at)) + " ".join(str(t.value) + str(t.placeholder) for t in at.text_input)
    assert PASSWORD not in page and QUERY_KEY not in page and "alice" not in page


def _score(at, year: int = 1813) -> None:
    at.text_input(key="score_query").set_value("Who wrote the novel Pride and Prejudice?")
    at.text_area(key="score_response").set_value(f"Pride and Prejudice was written by Jane Austen in {year}.")
    at.text_area(key="score_documents").set_value("Pride and Prejudice was written by Jane Austen in 1813.")
    at.text_area(key="score_reference").set_value("")
    at.form_submit_button[0].click().run()
    assert_clean(at)


def test_the_servers_key_never_goes_to_an_endpoint_a_visitor_typed(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SERVER_KEY)          # the server's key, for api.openai.com
    monkeypatch.setenv("VITAL_CACHE_DIR", str(tmp_path / "cache"))
    with MockProvider() as visitors:
        at = open_page("score", session={"backend_name": "openai", "backend_base_url": visitors.base_url,
                                         "backend_model": "mock-model"})
        _score(at)
        assert visitors.requests, "the visitor's endpoint was called"
        assert all(SERVER_KEY not in r.authorization for r in visitors.requests), \
            {r.authorization for r in visitors.requests}
        # with the visitor's own key typed, that key is the one sent
        visitors.requests.clear()
        at.text_input(key="backend_api_key").set_value("sk-visitor-own-key").run()
        _score(at, 1814)     # another text: not answered from the reply cache
        assert {r.authorization for r in visitors.requests} == {"Bearer sk-visitor-own-key"}


def test_the_servers_key_goes_to_the_servers_endpoint(tmp_path, monkeypatch):
    monkeypatch.setenv("VITAL_CACHE_DIR", str(tmp_path / "cache"))
    with MockProvider() as server:
        monkeypatch.setenv("OPENAI_API_KEY", SERVER_KEY)
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        at = open_page("score", session={"backend_name": "openai", "backend_model": "mock-model"})
        _score(at)
        assert server.requests and {r.authorization for r in server.requests} == {f"Bearer {SERVER_KEY}"}


def test_a_steps_key_never_goes_to_a_step_endpoint_a_visitor_typed(yes_no_mock, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("VITAL_VERIFY_API_KEY", STEP_KEY)    # configured for another endpoint
    monkeypatch.setenv("VITAL_VERIFY_BASE_URL", "https://verifier.example/v1")
    monkeypatch.setenv("VITAL_CACHE_DIR", str(tmp_path / "cache"))
    at = open_page("score", session={K("verify", "choice"): per_step_choice.ENDPOINT,
                                     K("verify", "base_url"): yes_no_mock.base_url,
                                     K("verify", "model"): "minicheck-mock", K("verify", "yes_no"): True})
    _score(at)
    assert yes_no_mock.requests, "the visitor's verification endpoint was called"
    assert all(STEP_KEY not in r.authorization for r in yes_no_mock.requests)


def test_server_key_is_for_the_configured_endpoint_only(monkeypatch):
    assert config.server_key("k", "") == "k" and config.server_key("k", "https://api.openai.com/v1/") == "k"
    assert config.server_key("k", "http://127.0.0.1:8000/v1") == ""
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    assert config.server_key("k", "http://127.0.0.1:8000/v1") == "k" and config.server_key("k", "") == "k"
    assert config.server_key("k", "https://api.openai.com/v1") == ""
    assert config.server_key("k", "http://127.0.0.1:8000/v1", "verify") == "k", "a step defaults to the main one"
    monkeypatch.setenv("VITAL_VERIFY_BASE_URL", "http://127.0.0.1:9000/v1")
    assert config.server_key("k", "http://127.0.0.1:8000/v1", "verify") == ""
    assert config.server_key("k", "http://127.0.0.1:9000/v1", "verify") == "k"
