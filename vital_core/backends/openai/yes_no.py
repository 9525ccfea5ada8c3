"""A yes/no verifier: a fact-checking model (MiniCheck-style, served by Ollama or vLLM) asked, for
each claim and its best passages, whether the passage supports the claim.

Mapped honestly: "yes" for any passage -> supported (quoting it); "no" for every passage ->
not enough evidence. Such a model cannot say that a document contradicts a claim, so this
verifier never answers "contradicted" (the RLP flag then counts unsupported vital claims).
"""
from __future__ import annotations

import re

from vital_core.backends.base import BackendInfo, Evidence, Verdict
from vital_core.backends.openai.backend import public_host
from vital_core.backends.openai.client import LLMClient
from vital_core.backends.openai.endpoint import LLMSettings
from vital_core.backends.openai.prompts import Prompt
from vital_core.backends.openai.reply_json import ReplyParseError, strip_reasoning
from vital_core.backends.openai.retrieval import BM25, chunk_documents
from vital_core.results.model import NOT_ENOUGH_EVIDENCE, SUPPORTED, Subclaim

YES_NO_STEP = "yes_no_verify"
_ANSWER = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)


class PlainPrompt(Prompt):
    """A prompt answered in one word, not JSON."""

    def system(self) -> str:
        return f"{self.marker}\n{self.instructions.strip()}"


YES_NO_PROMPT = PlainPrompt(
    step=YES_NO_STEP, version="1",
    instructions="Decide whether the document supports the claim. Answer with one word: Yes if every part "
                 "of the claim is stated or directly implied by the document, otherwise No.",
    schema={}, example_reply={})


def parse_yes_no(reply: str) -> bool:
    m = _ANSWER.match(strip_reasoning(reply or ""))
    if m is None:
        raise ReplyParseError(f"expected Yes or No, got {reply[:60]!r}")
    return m.group(1).lower() == "yes"


class YesNoVerifier:
    """The ``verify`` step of the Backend interface, through a yes/no fact-checking model."""

    def __init__(self, *, base_url: str | None = None, api_key: str | None = None, model: str | None = None,
                 passages_per_claim: int = 3, **client_settings):
        # One word back, as plain text, whatever the shared endpoint settings say.
        client_settings = {**client_settings, "max_tokens": 5, "structured_output": "off"}
        settings = LLMSettings.from_env(base_url=base_url, api_key=api_key, model=model, **client_settings)
        self.client = LLMClient(settings)
        self.passages_per_claim = max(1, passages_per_claim)

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(name="openai-yes-no", model=self.client.settings.model,
                           prompt_version=f"{YES_NO_STEP}:{YES_NO_PROMPT.version}",
                           description=f"yes/no fact-checking model {self.client.settings.model} at "
                                       f"{public_host(self.client.settings.base_url)}")

    def usage_summary(self) -> dict:
        """Calls, cache hits, requests, retries, failures, tokens and cost so far."""
        return self.client.usage.summary()

    async def _supported_by(self, claim: str, passage: str) -> bool:
        messages = [{"role": "system", "content": YES_NO_PROMPT.system()},
                    {"role": "user", "content": f"Document: {passage}\nClaim: {claim}"}]
        return (await self.client.complete(YES_NO_PROMPT, messages, parse_yes_no)).value

    async def _verdict(self, claim: Subclaim, index: BM25) -> Verdict:
        scores = index.scores(claim.text)      # the best passages first, ties in document order
        best = [index.passages[i] for i in sorted(range(len(scores)), key=lambda i: (-scores[i], i))]
        best = best[:self.passages_per_claim]
        for passage in best:
            if await self._supported_by(claim.text, passage.text):
                return Verdict(SUPPORTED, "the fact-checking model says this passage supports it",
                               passage.text[:400])
        return Verdict(NOT_ENOUGH_EVIDENCE, f"the fact-checking model found no support in the "
                                            f"{len(best)} best passage(s); "
                                            "it cannot tell a contradiction from a gap")

    async def verify(self, query: str, subclaims: list[Subclaim], evidence: Evidence) -> list[Verdict]:
        passages = chunk_documents(evidence.as_documents())
        if not passages:
            return [Verdict(NOT_ENOUGH_EVIDENCE, "no evidence to check against") for _ in subclaims]
        index = BM25(passages)
        return [await self._verdict(claim, index) for claim in subclaims]

    async def aclose(self) -> None:
        await self.client.aclose()
