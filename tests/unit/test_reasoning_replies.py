"""Reasoning models: the answer is read, never the thinking - thinking tags in ``content`` (each spelling
servers pass through), an answer left only in ``message.reasoning_content`` / ``reasoning``, and the
result saying which field the answer came from."""
from __future__ import annotations

import asyncio

import pytest

from tests.support.mock_provider import MockProvider
from vital_core.backends import response_notes
from vital_core.backends.openai import prompts
from vital_core.backends.openai.client import LLMClient
from vital_core.backends.openai.endpoint import LLMSettings
from vital_core.backends.openai.parsing import parse_ranking
from vital_core.backends.openai.reply_json import ReplyParseError, answer_in_reasoning, extract_json, strip_reasoning

DRAFT, ANSWER = '{"verdict": "draft"}', '{"verdict": "answer"}'


@pytest.mark.parametrize("reply", [
    f"<think>\nFirst try: {DRAFT}\n</think>\n\n{ANSWER}",                     # DeepSeek-R1, Qwen3
    f"<think>{DRAFT}</think><think>again {DRAFT}</think>{ANSWER}",             # two blocks
    f"Thinking it over: {DRAFT}\n</think>\n{ANSWER}",                          # the template opened the block
    f"<thinking>{DRAFT}</thinking>\n```json\n{ANSWER}\n```",
    f"<reasoning>{DRAFT}</reasoning>{ANSWER}",
    f"<seed:think>{DRAFT}</seed:think>{ANSWER}",
    f"◁think▷{DRAFT}◁/think▷{ANSWER}",                                         # Kimi
    f"[THINK]{DRAFT}[/THINK]{ANSWER}",                                         # Magistral
    f"<|channel|>analysis<|message|>{DRAFT}<|end|><|start|>assistant<|channel|>final<|message|>{ANSWER}<|return|>",
    f"Here is my thought process: {DRAFT} Here is my response: {ANSWER}",      # Granite
])
def test_the_answer_is_read_never_the_draft_in_the_thinking(reply):
    assert extract_json(reply) == {"verdict": "answer"}


def test_thinking_never_closed_holds_no_answer():
    assert extract_json(f"{ANSWER}<think>cut off while thinking {DRAFT}") == {"verdict": "answer"}
    with pytest.raises(ReplyParseError, match="only the model's reasoning"):
        extract_json(f"<think>cut off while thinking {DRAFT}")


def test_rank_lines_after_thinking_are_read_without_the_drafted_lines():
    reply = '<think>\n[S1] a: "less-important"\n[S2] b: "vital"\n</think>\n[S1] a: "vital"\n[S2] b: "okay"'
    parsed = parse_ranking(reply, ["S1", "S2"])
    assert parsed.labels == {"S1": "vital", "S2": "okay"} and not parsed.problems
    assert strip_reasoning("<think>x</think>") == ""


def test_an_answer_in_the_reasoning_field_is_its_last_json_object():
    text = f'Let me see. A draft: {DRAFT}. Nested {{"a": {{"b": 1}}}} no. Final: {ANSWER} done.'
    assert answer_in_reasoning(text) == ANSWER
    assert answer_in_reasoning("no JSON at all") == "no JSON at all"


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_client_reads_the_reasoning_field_when_content_is_empty_and_says_so(tmp_path, field):
    user = prompts.render_rank("Of which tribe was Geronimo a leader?",
                               [("S1", "Geronimo was a leader of the Apache."), ("S2", "Geronimo was born in 1829.")])
    messages = [{"role": "system", "content": prompts.RANK_PROMPT.system()}, {"role": "user", "content": user}]
    with MockProvider(reasoning=field, answers={"Geronimo": "Apache"}) as mock, \
            MockProvider(answers={"Geronimo": "Apache"}) as plain:
        def ask(server, cache):
            client = LLMClient(LLMSettings(base_url=server.base_url, api_key="k", model="m", cache_dir=cache))

            async def go():
                with response_notes.collecting() as notes:
                    try:
                        result = await client.complete(prompts.RANK_PROMPT, messages,
                                                       lambda r: parse_ranking(r, ["S1", "S2"]))
                    finally:
                        await client.aclose()
                return result, notes, client.usage.summary()
            return asyncio.run(go())

        baseline, _, _ = ask(plain, tmp_path / "plain")
        got, notes, usage = ask(mock, tmp_path / "c")
        assert mock.requests[0].fault is None
        assert got.answer_field == field and got.value.labels == baseline.value.labels
        assert notes == [f"answer_field: {field} (the server left message.content empty; the rank reply was read "
                         f"from message.{field})"]
        assert usage["answers_from_reasoning"] == 1
        again, notes, _ = ask(mock, tmp_path / "c")          # from the cache: the same answer and the same note
        assert again.cached and again.answer_field == field and len(notes) == 1
