"""The mock provider (tests/support/mock_provider.py) also answering the yes/no fact-checking prompt
(``vital_core.backends.openai.yes_no``) in one word, like a MiniCheck-style model served by Ollama or vLLM.
A real HTTP server on 127.0.0.1; shared by the per-step CLI, app and browser tests."""
from __future__ import annotations

import pytest

from tests.support.mock_answers import content_words
from tests.support.mock_provider import MockProvider
from vital_core.backends.openai.yes_no import YES_NO_STEP


class YesNoMock(MockProvider):
    """Yes when every content word of the claim is in the passage (a crude fact-checker), else No."""

    def _answer(self, step, system, user, fault):
        if step != YES_NO_STEP:
            return super()._answer(step, system, user, fault)
        document, _, claim = user.partition("\nClaim: ")
        words = content_words(claim)
        return "Yes" if words and words <= content_words(document) else "No"

    @staticmethod
    def _render(step, reply, structured):
        return reply if step == YES_NO_STEP else MockProvider._render(step, reply, structured)


@pytest.fixture
def yes_no_mock():
    with YesNoMock() as mock:
        yield mock
