"""The chat client against the mock provider: cache, retries, fallbacks, concurrency, usage.

The real ``openai`` client talks HTTP to ``tests.support.mock_provider.MockProvider``.
Timeouts and backoff are shortened through settings to keep the tests fast.
"""
from __future__ import annotations

import asyncio
import time

import pytest

from tests.support.mock_provider import MockProvider
from vital_core.backends.openai import prompts
from vital_core.backends.openai.client import LLMClient, cache_key
from vital_core.backends.openai.endpoint import LLMCallError, LLMSettings
from vital_core.backends.openai.parsing import parse_ranking
from vital_core.backends.openai.reply_json import extract_json

KEY = "sk-test-DO-NOT-LEAK-1234"
USER = prompts.render_rank("Of which tribe was Geronimo a leader?",
                           [("S1", "Geronimo was a leader of the Apache."), ("S2", "Geronimo was born in 1829.")])


@pytest.fixture
def mock():
    with MockProvider() as m:
        yield m


def make_client(mock, tmp_path, **overrides) -> LLMClient:
    settings = dict(base_url=mock.base_url, api_key=KEY, model="gpt-4o-mini", cache_dir=tmp_path / "cache",
                    timeout=0.5, backoff_initial=0.01, backoff_max=0.05, max_attempts=4)
    settings.update(overrides)
    return LLMClient(LLMSettings(**settings))


def messages(user: str = USER, prompt=prompts.RANK_PROMPT) -> list[dict]:
    return [{"role": "system", "content": prompt.system()}, {"role": "user", "content": user}]


def rank_parse(reply: str):
    """The rank step's parser: JSON or ``[S1] claim: "label"`` lines."""
    return parse_ranking(reply, ["S1", "S2"])


def call(client: LLMClient, user: str = USER):
    async def go():
        try:
            return await client.complete(prompts.RANK_PROMPT, messages(user), rank_parse)
        finally:
            await client.aclose()
    return asyncio.run(go())


def test_structured_call_counts_usage_and_cost(mock, tmp_path):
    client = make_client(mock, tmp_path)
    result = call(client)
    assert not result.cached and result.attempts == 1
    assert result.value.order == ["S1", "S2"]
    body = mock.requests[0].body
    assert body["response_format"]["json_schema"]["name"] == "vital_rank"
    assert body["temperature"] == 0.0 and body["max_tokens"] == 4000
    assert mock.requests[0].authorization == f"Bearer {KEY}"   # the key does reach the server
    s = client.usage.summary()
    assert s["calls"] == 1 and s["requests"] == 1 and s["cache_hits"] == 0
    assert s["prompt_tokens"] > 0 and s["completion_tokens"] > 0
    assert s["cost_usd"] == pytest.approx((s["prompt_tokens"] * 0.15 + s["completion_tokens"] * 0.60) / 1e6,
                                          abs=1e-6)
    assert s["by_step"]["rank"]["calls"] == 1


def test_unknown_model_cost_is_unknown_not_zero(mock, tmp_path):
    client = make_client(mock, tmp_path, model="my-local-llama")
    call(client)
    s = client.usage.summary()
    assert s["prompt_tokens"] > 0
    assert s["cost_usd"] is None and "my-local-llama" in s["cost_note"]


def test_second_identical_call_comes_from_cache_even_with_another_key(mock, tmp_path):
    call(make_client(mock, tmp_path))
    assert mock.count() == 1
    again = make_client(mock, tmp_path, api_key="sk-a-different-key-5678")
    result = call(again)
    assert result.cached and mock.count() == 1           # zero new HTTP requests
    assert again.usage.summary()["cache_hits"] == 1
    # Anything that changes the reply changes the key.
    base = dict(base_url="http://x/v1", model="m", messages=messages(), temperature=0.0, max_tokens=10,
                response_format=None, prompt_version="rank:1")
    k = cache_key(**base)
    for change in ({"model": "m2"}, {"temperature": 0.2}, {"max_tokens": 11}, {"prompt_version": "rank:2"},
                   {"base_url": "http://y/v1"}, {"response_format": {"type": "json_schema"}},
                   {"messages": messages(USER + " ")}):
        assert cache_key(**{**base, **change}) != k
    assert cache_key(**{**base, "base_url": "http://x/v1/"}) == k


def test_no_cache_means_every_call_is_sent(mock, tmp_path):
    call(make_client(mock, tmp_path, use_cache=False))
    call(make_client(mock, tmp_path, use_cache=False))
    assert mock.count() == 2 and not (tmp_path / "cache").exists()


def test_rate_limit_honours_retry_after(mock, tmp_path):
    mock.inject("rate_limit", retry_after=1)
    client = make_client(mock, tmp_path)
    t0 = time.monotonic()
    result = call(client)
    elapsed = time.monotonic() - t0
    assert result.attempts == 2 and mock.count() == 2
    assert elapsed >= 1.0, "Retry-After: 1 must be honoured"
    gap = mock.requests[1].at - mock.requests[0].at
    assert gap >= 1.0
    assert client.usage.summary()["retries"] == 1


@pytest.mark.parametrize("fault,times", [("server_error", 2), ("slow", 1), ("invalid_json", 1),
                                         ("truncated", 1)])
def test_transient_faults_are_retried(mock, tmp_path, fault, times):
    mock.inject(fault, times=times, delay=1.0)
    client = make_client(mock, tmp_path)
    result = call(client)
    assert result.attempts == times + 1 and mock.count() == times + 1
    assert result.value.order == ["S1", "S2"]
    s = client.usage.summary()
    assert s["retries"] == times and s["failures"] == 0
    if fault in ("invalid_json", "truncated"):
        # The retry says what was wrong with the previous reply.
        last = mock.requests[-1].body["messages"][-1]
        assert last["role"] == "user" and ("JSON" in last["content"] or "cut off" in last["content"])


def test_giving_up_after_max_attempts_raises_a_redacted_error(mock, tmp_path):
    mock.inject("server_error", times=10)
    client = make_client(mock, tmp_path, max_attempts=3)
    with pytest.raises(LLMCallError) as info:
        call(client)
    assert mock.count() == 3 and info.value.attempts == 3
    assert "rank call failed after 3 attempt(s)" in str(info.value) and KEY not in str(info.value)
    assert client.usage.summary()["failures"] == 1
    # A failed call is not cached: the next run asks again and succeeds.
    mock.clear_faults()
    assert call(make_client(mock, tmp_path)).cached is False


def test_rejected_response_format_falls_back_to_text_and_is_remembered(tmp_path):
    with MockProvider(reject_response_format=True) as mock:     # refuses json_schema and json_object alike
        client = make_client(mock, tmp_path)
        first = call(client)
        assert first.value.order == ["S1", "S2"] and not first.value.problems   # parsed from plain text
        sent = [r.body.get("response_format", {}).get("type") for r in mock.requests]
        assert sent == ["json_schema", "json_object", None]
        assert client.usage.summary()["notes"] == [
            "this server does not accept json_schema; using json_object",
            "this server accepts neither json_schema nor json_object; using plain text with the tolerant parser"]
        call(make_client(mock, tmp_path), user=USER + "\n")              # a new call, same endpoint
        assert mock.count() == 4 and "response_format" not in mock.requests[3].body
        # Remembered across runs too (stored in the cache) and the reply is cached under the text request.
        LLMClient._learnt.clear()
        again = make_client(mock, tmp_path)
        assert call(again).cached
        assert mock.count() == 4
        assert all("learnt earlier" in n for n in again.usage.summary()["notes"])


def test_endpoints_wanting_max_completion_tokens_and_no_temperature_are_handled(tmp_path):
    with MockProvider(reject_params=("max_tokens", "temperature")) as mock:
        result = call(make_client(mock, tmp_path))
        assert result.value.order == ["S1", "S2"]
        final = mock.requests[-1].body
        assert "max_tokens" not in final and final["max_completion_tokens"] == 4000 and "temperature" not in final
        sent = mock.count()
        call(make_client(mock, tmp_path), user=USER + "\n")      # remembered: no rejected request again
        assert mock.count() == sent + 1


def test_structured_output_off_sends_no_response_format(mock, tmp_path):
    call(make_client(mock, tmp_path, structured_output="off"))
    assert "response_format" not in mock.requests[0].body


def test_concurrency_is_bounded_by_the_shared_semaphore(tmp_path):
    with MockProvider(latency=0.15) as mock:
        client = make_client(mock, tmp_path, concurrency=3, timeout=5, use_cache=False)

        async def go():
            try:
                await asyncio.gather(*(client.complete(prompts.RANK_PROMPT, messages(USER + f" {i}"),
                                                       extract_json) for i in range(9)))
            finally:
                await client.aclose()
        t0 = time.monotonic()
        asyncio.run(go())
        elapsed = time.monotonic() - t0
        assert mock.count() == 9
        assert mock.max_in_flight == 3
        assert elapsed >= 3 * 0.15


def test_client_works_across_event_loops(mock, tmp_path):
    client = make_client(mock, tmp_path, use_cache=False)
    for _ in range(2):  # the app runs each scoring in a fresh loop (pipeline.run_sync)
        asyncio.run(client.complete(prompts.RANK_PROMPT, messages(), extract_json))
    assert mock.count() == 2


def test_missing_key_and_url_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        LLMClient(LLMSettings.from_env())


def test_settings_repr_never_shows_the_key():
    assert KEY not in repr(LLMSettings(api_key=KEY, base_url="http://x/v1"))


def test_identical_requests_in_flight_at_once_are_sent_once(tmp_path):
    # two variants sharing a verification window ask the same thing at the same moment
    with MockProvider(latency=0.2) as mock:
        client = make_client(mock, tmp_path, timeout=5)

        async def go():
            try:
                return await asyncio.gather(*(client.complete(prompts.RANK_PROMPT, messages(), rank_parse)
                                              for _ in range(3)))
            finally:
                await client.aclose()
        results = asyncio.run(go())
        assert len(mock.requests) == 1
        assert len({r.content for r in results}) == 1 and all(r.value.order == ["S1", "S2"] for r in results)
        assert sum(not r.cached for r in results) == 1
        # a different request is still sent on its own
        call(make_client(mock, tmp_path / "other", timeout=5), USER + " ")
        assert len(mock.requests) == 2


def test_a_failed_shared_request_fails_every_caller_once(tmp_path):
    with MockProvider(latency=0.1) as mock:
        mock.inject("server_error", times=50)
        client = make_client(mock, tmp_path, timeout=5, max_attempts=1)

        async def go():
            try:
                return await asyncio.gather(*(client.complete(prompts.RANK_PROMPT, messages(), rank_parse)
                                              for _ in range(2)), return_exceptions=True)
            finally:
                await client.aclose()
        results = asyncio.run(go())
        assert all(isinstance(r, LLMCallError) for r in results) and len(mock.requests) == 1


def test_a_client_its_loop_left_open_leaves_no_task_exception_in_the_next_loop(mock, tmp_path):
    # One loop per scoring (the app, run_sync) may end without aclose: the HTTP client it opened is dropped
    # by the next loop. Dropped, it must not schedule its closing on that next loop, where it fails
    # ("Event loop is closed") as a "Task exception was never retrieved" of an unrelated run.
    import gc
    client = make_client(mock, tmp_path, use_cache=False)

    async def ask():
        return await client.complete(prompts.RANK_PROMPT, messages(), rank_parse)
    asyncio.run(ask())                      # its loop ends with the HTTP client still open
    seen: list[str] = []

    async def next_run():
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: seen.append(str(ctx.get("message"))))
        await ask()                         # a new loop: the first loop's client is dropped here
        gc.collect()
        await asyncio.sleep(0.2)            # what the dropped client scheduled runs now
        gc.collect()
        await client.aclose()
    asyncio.run(next_run())
    gc.collect()
    assert seen == []
    assert mock.count() == 2
