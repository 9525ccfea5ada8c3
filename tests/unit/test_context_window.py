"""The reply budget fitted to the model's context window: given (``context_window``), served (vLLM's
``/v1/models`` ``max_model_len``, llama.cpp's ``/props``) or read from the first context error; a context
error is never learnt as a capability, and when nothing fits the error names the option to change."""
from __future__ import annotations

import asyncio

import pytest

from tests.support.mock_provider import MockProvider
from vital_core.backends.openai import prompts
from vital_core.backends.openai.client import LLMClient
from vital_core.backends.openai.endpoint import LLMCallError, LLMSettings
from vital_core.backends.openai.parsing import parse_ranking

USER = prompts.render_rank("Of which tribe was Geronimo a leader?",
                           [("S1", "Geronimo was a leader of the Apache."), ("S2", "Geronimo was born in 1829.")])


def client_for(mock, tmp_path, **overrides) -> LLMClient:
    settings = dict(base_url=mock.base_url, api_key="k", model="mock-model", cache_dir=tmp_path / "cache",
                    timeout=2, backoff_initial=0.01, backoff_max=0.05, max_attempts=3)
    return LLMClient(LLMSettings(**{**settings, **overrides}))


def call(client: LLMClient, user: str = USER):
    messages = [{"role": "system", "content": prompts.RANK_PROMPT.system()}, {"role": "user", "content": user}]

    async def go():
        try:
            return await client.complete(prompts.RANK_PROMPT, messages, lambda r: parse_ranking(r, ["S1", "S2"]))
        finally:
            await client.aclose()
    return asyncio.run(go())


def budgets(mock) -> list[int]:
    return [r.body.get("max_tokens", r.body.get("max_completion_tokens")) for r in mock.requests]


def test_a_context_error_teaches_the_window_and_leaves_no_capability_behind(tmp_path):
    with MockProvider(context_window=4096) as mock:      # vLLM: "'max_tokens' or 'max_completion_tokens' is too large"
        client = client_for(mock, tmp_path)
        result = call(client)
        assert result.value.labels and not result.value.problems
        first, second = mock.requests
        assert first.body["max_tokens"] == 4000 and "max_completion_tokens" not in second.body
        assert 256 <= second.body["max_tokens"] < 4096 - len(USER) // 4     # fitted, same parameter
        assert client.context_window == 4096
        assert client.capabilities() == set()
        assert client.cache.get(client._caps_key()) is None                  # nothing stored for the endpoint
        assert any("4,096 tokens" in n for n in client.usage.summary()["notes"])


def test_a_served_window_fits_the_first_request(tmp_path):
    with MockProvider(context_window=4096, serve_window=True) as mock:
        client = client_for(mock, tmp_path)
        call(client)
        assert mock.count() == 1 and budgets(mock)[0] < 4000
        assert client.context_window == 4096


def test_llama_cpp_props_window(tmp_path):
    class Props:
        def handle(self, handler, method):
            if method == "GET" and handler.path == "/props":
                MockProvider._send(handler, 200, {"default_generation_settings": {"n_ctx": 3000}})
                return True
            return False
    with MockProvider(context_window=3000) as mock:
        mock.extra_routes = Props()
        client = client_for(mock, tmp_path)
        call(client)
        assert mock.count() == 1 and client.context_window == 3000


def test_a_given_window_is_used_and_the_servers_smaller_one_wins(tmp_path):
    with MockProvider(context_window=4096) as mock:
        call(client_for(mock, tmp_path, context_window=4096))
        assert mock.count() == 1 and budgets(mock)[0] < 4000
    with MockProvider(context_window=4096) as mock:     # a wrong setting: the server's number is learnt
        client = client_for(mock, tmp_path / "b", context_window=100_000)
        call(client)
        assert mock.count() == 2 and client.context_window == 4096


def test_when_nothing_fits_the_error_names_the_option(tmp_path):
    with MockProvider(context_window=700) as mock:
        with pytest.raises(LLMCallError, match="--evidence-tokens") as info:
            call(client_for(mock, tmp_path), USER + " filler" * 400)
        assert "700-token context window" in str(info.value) and mock.count() <= 2
        assert LLMClient._learnt.get((mock.base_url, "mock-model"), set()) == set()


def test_a_context_error_without_numbers_asks_for_the_window(tmp_path):
    class OldLlamaCpp(MockProvider):
        def _overflow(self, prompt_tokens, budget):
            return "the request exceeds the available context size, try increasing it" if budget > 100 else None
    with OldLlamaCpp(context_window=4096) as mock:
        with pytest.raises(LLMCallError, match="--context-window") as info:
            call(client_for(mock, tmp_path))
        assert "--max-tokens" in str(info.value) and mock.count() == 1      # not retried as an outage


def test_the_apps_endpoint_settings_take_a_context_window(tmp_path, monkeypatch):
    from tests.support.app_helpers import assert_clean, open_page
    monkeypatch.setenv("VITAL_CACHE_DIR", str(tmp_path / "cache"))
    with MockProvider(context_window=4096) as mock:
        at = open_page("score", session={"backend_name": "openai", "backend_base_url": mock.base_url,
                                         "backend_model": "mock-model", "backend_api_key": "k"})
        at.number_input(key="backend_context_window").set_value(4096)
        at.text_input(key="score_query").set_value("Who wrote the novel Pride and Prejudice?")
        at.text_area(key="score_response").set_value("Pride and Prejudice was written by Jane Austen.")
        at.text_area(key="score_documents").set_value("Pride and Prejudice was written by Jane Austen in 1813.")
        at.text_area(key="score_reference").set_value("")
        at.form_submit_button[0].click().run()
        assert_clean(at)
        assert mock.count() > 0 and all(b < 4000 for b in budgets(mock))    # fitted from the first request
