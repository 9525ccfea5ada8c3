"""AppTest: the sidebar's OpenAI-compatible backend against the mock provider; the key
stays in the session and appears in no result, URL or cache file."""
from __future__ import annotations

import json

from tests.support.app_helpers import assert_clean, metric_values, open_page, texts
from tests.support.mock_provider import mock_provider  # noqa: F401 - pytest fixture

SECRET = "sk-app-test-secret-0123456789"


def test_openai_compatible_backend_scores_and_never_leaks_the_key(mock_provider, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("VITAL_CACHE_DIR", str(tmp_path / "cache"))
    at = open_page("score")
    at.radio(key="backend_name").set_value("openai").run()
    assert_clean(at)
    assert any("no API key" in w for w in texts(at, "warning")), "a missing key is explained"
    at.text_input(key="backend_base_url").set_value(mock_provider.base_url)
    at.text_input(key="backend_model").set_value("mock-model")
    at.text_input(key="backend_api_key").set_value(SECRET).run()
    assert not any("no API key" in w for w in texts(at, "warning"))
    assert any("Active: OpenAI-compatible" in i and "mock-model" in i for i in texts(at, "info"))
    at.text_input(key="score_query").set_value("Who wrote the novel Pride and Prejudice?")
    at.text_area(key="score_response").set_value(
        "Pride and Prejudice was written by Jane Austen. It was published in 1813.")
    at.text_area(key="score_documents").set_value("Pride and Prejudice was written by Jane Austen in 1813.")
    at.text_area(key="score_reference").set_value("")
    at.form_submit_button[0].click().run()
    assert_clean(at)
    assert mock_provider.count() > 0, "the app called the endpoint"
    assert at.status[0].label.startswith("Scored:")
    assert metric_values(at)["FactScore precision"] != "undefined"
    result = at.session_state["score_result"]
    assert result["backend"]["name"] == "openai"
    assert SECRET not in json.dumps(result)
    assert SECRET not in json.dumps(at.query_params)
    for path in (tmp_path / "cache").rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


def test_openai_compatible_backend_generates_variants_on_compare(mock_provider, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("VITAL_CACHE_DIR", str(tmp_path / "cache"))
    at = open_page("compare", session={"backend_name": "openai", "backend_base_url": mock_provider.base_url,
                                       "backend_model": "mock-model", "backend_api_key": SECRET})
    at.text_input(key="cmp_query").set_value("Who wrote the novel Pride and Prejudice?")
    at.text_area(key="cmp_normal").set_value(
        "Pride and Prejudice was written by Jane Austen. It was published in 1813 by Thomas Egerton.")
    at.text_area(key="cmp_missing").set_value("")
    at.text_area(key="cmp_wrong").set_value("")
    at.button[[b.label for b in at.button].index("Generate missing and wrong from the normal response")].click().run()
    assert_clean(at)
    notices = texts(at, "success") + texts(at, "error")
    assert any("Generated the missing and wrong variants with the openai backend" in n for n in notices), notices
    assert at.text_area(key="cmp_missing").value and at.text_area(key="cmp_wrong").value
    assert mock_provider.count() > 0


def test_the_offline_box_says_what_to_expect_with_the_figures_one_click_away():
    from explorer.logic import backend_wording
    from vital_core.backends.config import offline_quality
    figures = offline_quality()
    at = open_page("score")
    assert_clean(at)
    [box] = [i for i in texts(at, "info") if "Active: offline backend" in i]
    assert box.endswith(backend_wording.plain_quality(figures)), box
    assert "right on text it has not seen" in box and "fact checks right on" not in box, \
        "the figures are not in the box"
    [expander] = [e for e in at.sidebar.get("expander") if e.label == backend_wording.MEASURED_FIGURES]
    assert [c.value for c in expander.caption] == [f"{backend_wording.describe_quality(figures)}."]
