"""The method's steps on any OpenAI-compatible chat endpoint (OpenAI, Azure
OpenAI's v1 endpoint, vLLM, Ollama, llama.cpp server, ...).

Calls per response, by design (the reference pipeline makes one call per
sentence and one per subclaim):

- decompose: one call for the whole response (a long one is split into windows
  of ``decompose_window`` sentences); claims come back grouped by the sentence
  numbers the backend assigned, pronouns resolved;
- rank and label: one call for all subclaims (the VITAL paper's ranking step);
  the reply is validated (every id exactly once, a valid label) and a reply
  that breaks the rules is sent back with the problems stated, up to
  ``validation_attempts`` times; after that whatever parsed is kept and the
  rest is marked ``unlabelled`` with a warning - never silently less-important;
- decompose, verify: a sentence or claim id the reply leaves out is asked for
  again, alone, in one more call; still missing, the response carries a
  warning naming it (a decomposition that loses every sentence fails);
- verify: windows of at most ``verify_window`` subclaims (``--claims-per-call``;
  1 = FActScore's one fact per call), run concurrently; evidence passages
  retrieved per window within ``evidence_token_budget`` (``--evidence-tokens``).
  When the client knows the model's context window, a window whose prompt and
  reply would not fit is split into fewer claims per call, then given fewer
  evidence tokens; when one claim with the least evidence still does not fit,
  the step fails with a sentence naming the options to change;
- nuggets: created once per query from windows of ``nugget_doc_window``
  documents (at most ``max_nuggets``), labelled vital/okay in one call;
  assigned per response in windows of ``assign_window`` nuggets;
- perturb: the paper's appendix-A style rewrite, checked by
  ``vital_core.scoring.perturbation`` (a failing variant is sent back once with the
  failed check stated, then reported as an error).

Settings come from arguments, else the environment: ``OPENAI_API_KEY``,
``OPENAI_BASE_URL``, ``VITAL_MODEL``, ``VITAL_CACHE_DIR``.
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable

from vital_core.backends.base import Backend, BackendInfo, DecomposedSentence, Evidence, Ranking, Verdict
from vital_core.backends.config import MAX_CLAIMS_PER_CALL, BackendSettings
from vital_core.backends.openai import prompts
from vital_core.backends.openai.call_plan import CallPlanning, ContextWindowError, balanced_windows
from vital_core.backends.openai.client import LLMClient
from vital_core.backends.openai.endpoint import LLMCallError, LLMSettings
from vital_core.backends.openai.parsing import (
    ParsedItems,
    ParsedRanking,
    parse_assignments,
    parse_decomposition,
    parse_modified_response,
    parse_nugget_labels,
    parse_nugget_texts,
    parse_ranking,
    parse_verdicts,
)
from vital_core.backends.openai.reply_json import ReplyParseError, extract_json
from vital_core.backends.openai.retrieval import BM25, chunk_documents, estimate_tokens, select_passages
from vital_core.backends.sentences import split_sentences
from vital_core.results.model import EVIDENCE_NONE, NOT_JUDGED, UNLABELLED, Document, Nugget, Subclaim, order_by_tier
from vital_core.safety.redaction import public_host
from vital_core.scoring.perturbation import PerturbationCheckError, check_variant


class LLMValidationError(ValueError):
    """The model kept breaking a step's rules after every follow-up."""


class OpenAICompatBackend(CallPlanning, Backend):
    def __init__(self, base_url: str | None = None, api_key: str | None = None, model: str | None = None,
                 temperature: float = 0.0, max_tokens: int = 4000, cache_dir=None, concurrency: int = 8,
                 *, timeout: float = 60.0, max_attempts: int = 4, backoff_initial: float = 1.0,
                 backoff_max: float = 30.0, retry_after_max: float = 120.0, cache_size_limit: int = 2 ** 30,
                 use_cache: bool = True, structured_output: str = "auto", prices: Any = None,
                 context_window: int | None = None,
                 decompose_window: int = 8, verify_window: int = BackendSettings.claims_per_call,
                 evidence_token_budget: int = BackendSettings.evidence_tokens,
                 context_token_budget: int = 3000, nugget_doc_window: int = 10, nugget_token_budget: int = 6000,
                 max_nuggets: int = 30, assign_window: int = 15, validation_attempts: int = 3,
                 perturb_attempts: int = 2, chunk_words: int = 160):
        self.settings = LLMSettings.from_env(
            base_url=base_url, api_key=api_key, model=model, temperature=temperature, max_tokens=max_tokens,
            timeout=timeout, max_attempts=max_attempts, backoff_initial=backoff_initial,
            backoff_max=backoff_max, retry_after_max=retry_after_max, concurrency=concurrency,
            cache_dir=cache_dir, cache_size_limit=cache_size_limit, use_cache=use_cache,
            structured_output=structured_output, prices=prices, context_window=context_window)
        self.client = LLMClient(self.settings)
        self.decompose_window = max(1, decompose_window)
        self.verify_window = max(1, min(MAX_CLAIMS_PER_CALL, verify_window))
        self.evidence_token_budget = evidence_token_budget
        self.context_token_budget = context_token_budget
        self.nugget_doc_window = max(1, nugget_doc_window)
        self.nugget_token_budget = nugget_token_budget
        self.max_nuggets = max(1, max_nuggets)
        self.assign_window = max(1, assign_window)
        self.validation_attempts = max(1, validation_attempts)
        self.perturb_attempts = max(1, perturb_attempts)
        self.chunk_words = chunk_words

    # ------------------------------------------------------------ info / usage
    @property
    def info(self) -> BackendInfo:
        return BackendInfo(name="openai", model=self.settings.model,
                           prompt_version=prompts.PROMPT_SET_VERSION,
                           description=f"OpenAI-compatible endpoint {public_host(self.settings.base_url)}, "
                                       f"model {self.settings.model}",
                           method={"claims_per_call": self.verify_window,
                                   "evidence_tokens": self.evidence_token_budget})

    def usage_summary(self) -> dict:
        """Calls, cache hits, requests, retries, failures, tokens and cost so far."""
        return self.client.usage.summary()

    async def aclose(self) -> None:
        await self.client.aclose()

    # ------------------------------------------------------------ shared helper
    async def _ask(self, prompt: prompts.Prompt, user: str, parse: Callable[[str], Any],
                   attempts: int, cache_violations: bool = True) -> tuple[list, Any]:
        """Ask, validate, and on a rule violation ask again with the problems stated.

        ``parse(reply)`` returns an object with ``.problems``. Returns (every attempt's
        parsed value in order, the first value without problems or None). Replies with
        problems are cached (a re-run replays the same conversation) unless
        ``cache_violations`` is False.
        """
        messages = [{"role": "system", "content": prompt.system()}, {"role": "user", "content": user}]
        cache_if = None if cache_violations else (lambda value: not value.problems)
        tried = []
        for _ in range(attempts):
            result = await self.client.complete(prompt, messages, parse, cache_if)
            tried.append(result.value)
            if not result.value.problems:
                return tried, result.value
            messages = messages + [{"role": "assistant", "content": result.content},
                                   {"role": "user", "content": prompts.violation_followup(result.value.problems)}]
        return tried, None

    async def _ask_valid(self, prompt: prompts.Prompt, user: str, parse: Callable[[str], Any], what: str):
        """``_ask`` for steps with no partial fallback: still invalid after the attempts is an error."""
        tried, good = await self._ask(prompt, user, parse, self.validation_attempts)
        if good is None:
            raise LLMValidationError(f"{what} still invalid after {len(tried)} attempts: "
                                     f"{'; '.join(tried[-1].problems)}")
        return good

    # ------------------------------------------------------------ 1. decompose
    async def decompose(self, query: str, response: str) -> list[DecomposedSentence]:
        sentences = split_sentences(response)
        if not sentences:
            return []
        numbered = list(enumerate(sentences, start=1))
        whole = estimate_tokens(response) <= self.context_token_budget
        notes: dict[int, list[str]] = {}

        async def ask(part: list[tuple[int, str]], context: str, attempts: int) -> tuple[list[ParsedItems], Any]:
            numbers = [n for n, _ in part]
            user = prompts.render_decompose(query, context, part)
            return await self._ask(prompts.DECOMPOSE_PROMPT, user,
                                   lambda reply: parse_decomposition(extract_json(reply), numbers), attempts)

        async def window(part: list[tuple[int, str]]) -> dict[int, list[str]]:
            if whole:
                context = response
            else:  # a long response: the window and the few sentences before it
                first = part[0][0]
                context = " ".join(s for n, s in numbered[max(0, first - 4):part[-1][0]])
            tried, good = await ask(part, context, self.validation_attempts)
            claims: dict[int, list[str]] = {}
            for value in ([good] if good is not None else tried):  # what the attempts parsed
                claims.update(value.values)
            if good is None:
                notes.setdefault(part[0][0], []).append(
                    f"decomposition: the model broke the rules in all {len(tried)} attempts "
                    f"({'; '.join(tried[-1].problems)}); kept the claims that parsed")
            left_out = [(n, s) for n, s in part if n not in claims]
            if left_out:   # one more call for the sentences the reply left out, alone
                again, _ = await ask(left_out, context, 1)
                claims.update({n: c for n, c in again[-1].values.items() if n not in claims})
            return claims

        results = await asyncio.gather(*(window(part) for part in balanced_windows(numbered, self.decompose_window)))
        claims: dict[int, list[str]] = {}
        for r in results:
            claims.update(r)
        lost = [n for n, _ in numbered if n not in claims]
        if len(lost) == len(numbered):
            raise LLMValidationError(f"decomposition: the model's replies left out every sentence of the "
                                     f"response ({len(numbered)}), also when asked for them again")
        if lost:
            notes.setdefault(lost[0], []).append(
                f"decomposition: the model left out {len(lost)} of {len(numbered)} sentence(s), also when asked "
                "for them alone; their claims are not scored: "
                + "; ".join(f"sentence {n} {_snippet(numbered[n - 1][1])}" for n in lost))
        return [DecomposedSentence(text=s, claims=claims.get(n, []), warnings=notes.get(n, []))
                for n, s in numbered]

    # ------------------------------------------------------------ 2. rank and label
    async def rank(self, query: str, subclaims: list[Subclaim], evidence: Evidence | None = None) -> Ranking:
        # ranked from the query alone, as the method's prompt does (the evidence is for verification)
        if not subclaims:
            return Ranking(labels={}, order=[])
        ids = [s.id for s in subclaims]
        user = prompts.render_rank(query, [(s.id, s.text) for s in subclaims])
        tried, good = await self._ask(prompts.RANK_PROMPT, user, lambda reply: parse_ranking(reply, ids),
                                      self.validation_attempts)
        if good is not None:
            return Ranking(labels=dict(good.labels), order=self._tier_order(good, ids),
                           warnings=[f"ranking: {note}" for note in good.notes])
        best: ParsedRanking = max(reversed(tried), key=lambda r: len(r.labels))
        unlabelled = [i for i in ids if i not in best.labels]
        labels = {i: best.labels.get(i, UNLABELLED) for i in ids}
        order = self._tier_order(best, ids) + unlabelled
        warning = (f"ranking: the model broke the rules in all {len(tried)} attempts "
                   f"({'; '.join(tried[-1].problems)}); kept the labels that parsed"
                   + (f" and marked {len(unlabelled)} subclaim(s) unlabelled: {', '.join(unlabelled)}"
                      if unlabelled else ""))
        return Ranking(labels=labels, order=order, warnings=[warning] + [f"ranking: {n}" for n in best.notes])

    @staticmethod
    def _tier_order(parsed: ParsedRanking, ids: list[str]) -> list[str]:
        """The model's order, made to respect 'all vital first, then okay, then less-important'."""
        return order_by_tier([i for i in parsed.order if i in parsed.labels], parsed.labels)

    # ------------------------------------------------------------ 3. verify
    async def verify(self, query: str, subclaims: list[Subclaim], evidence: Evidence) -> list[Verdict]:
        if not subclaims:
            return []
        mode = evidence.mode
        passages = [] if mode == EVIDENCE_NONE else chunk_documents(evidence.as_documents(), self.chunk_words)
        index = BM25(passages) if passages else None
        if mode != EVIDENCE_NONE and not passages:
            mode = EVIDENCE_NONE  # documents given but all empty: nothing to check against

        async def ask(part: list[Subclaim], budget: int, attempts: int) -> tuple[list[ParsedItems], Any]:
            ids = [s.id for s in part]
            chosen = select_passages(passages, " ".join([query] + [s.text for s in part]),
                                     budget, index) if passages else []
            user = prompts.render_verify(query, [(s.id, s.text) for s in part], mode, chosen)
            return await self._ask(prompts.VERIFY_PROMPT, user,
                                   lambda reply: parse_verdicts(extract_json(reply), ids), attempts)

        async def window(part: list[Subclaim], budget: int) -> dict[str, Verdict]:
            tried, good = await ask(part, budget, self.validation_attempts)
            got: dict[str, dict] = {}
            notes: list[str] = []
            for value in ([good] if good is not None else tried):
                got.update(value.values)
                notes += value.notes
            asked = len(tried)
            left_out = [s for s in part if s.id not in got]
            if left_out:   # one more call for the claims the replies left out, alone
                again, _ = await ask(left_out, budget, 1)
                got.update({k: v for k, v in again[-1].values.items() if k not in got})
                notes += again[-1].notes
                asked += 1
            out = {}
            for s in part:
                v = got.get(s.id)
                mine = [f"verification: {n}" for n in notes if n.startswith(f"{s.id}:")]
                if v:
                    out[s.id] = Verdict(v["verdict"], v["reason"], v["evidence"], warnings=mine)
                else:
                    out[s.id] = Verdict(NOT_JUDGED, f"no valid verdict from the model after {asked} attempts",
                                        warnings=mine + [f"verification: {s.id}: no valid verdict from the model "
                                                         f"in {asked} attempts; counted as not judged"])
            return out

        known = await self._ask_window()
        try:
            results = await asyncio.gather(*(window(part, budget) for part, budget
                                             in self._plan_verify(query, subclaims, mode, bool(passages))))
        except LLMCallError:
            if self._context_window() in (None, known):
                raise
            # the client learnt the window from this very error: fit the calls to it and ask again
            results = await asyncio.gather(*(window(part, budget) for part, budget
                                             in self._plan_verify(query, subclaims, mode, bool(passages))))
        merged: dict[str, Verdict] = {}
        for r in results:
            merged.update(r)
        return [merged[s.id] for s in subclaims]

    # ------------------------------------------------------------ 4. nuggets
    async def make_nuggets(self, query: str, documents: list[Document]) -> list[Nugget]:
        documents = [d for d in documents if d.text.strip()]
        if not documents:
            return []
        await self._ask_window()
        texts: list[str] = []
        for batch in [documents[i:i + self.nugget_doc_window]
                      for i in range(0, len(documents), self.nugget_doc_window)]:
            passages = chunk_documents(batch, self.chunk_words)
            chosen = select_passages(passages, query, self._nugget_budget(query, texts))
            user = prompts.render_nuggets_create(query, texts, _merge_passages(chosen), self.max_nuggets)

            def parse(reply: str) -> ParsedItems:
                return ParsedItems(values={"texts": parse_nugget_texts(extract_json(reply))})

            _, good = await self._ask(prompts.NUGGETS_CREATE_PROMPT, user, parse, 1)
            texts = good.values["texts"][:self.max_nuggets] or texts
        if not texts:
            return []
        ids = [f"N{i}" for i in range(len(texts))]
        user = prompts.render_nuggets_label(query, list(zip(ids, texts)))
        good = await self._ask_valid(prompts.NUGGETS_LABEL_PROMPT, user,
                                     lambda reply: parse_nugget_labels(extract_json(reply), ids), "nugget labels")
        return [Nugget(id=i, text=t, importance=good.values[i]) for i, t in zip(ids, texts)]

    async def assign_nuggets(self, query: str, nuggets: list[Nugget], response: str) -> dict[str, str]:
        if not nuggets:
            return {}

        async def window(part: list[Nugget]) -> dict[str, str]:
            ids = [n.id for n in part]
            user = prompts.render_assign(query, [(n.id, n.text) for n in part], response)
            good = await self._ask_valid(prompts.ASSIGN_PROMPT, user,
                                         lambda reply: parse_assignments(extract_json(reply), ids),
                                         "nugget assignment")
            return good.values

        out: dict[str, str] = {}
        for r in await asyncio.gather(*(window(p) for p in balanced_windows(nuggets, self.assign_window))):
            out.update(r)
        return {n.id: out[n.id] for n in nuggets}

    # ------------------------------------------------------------ 5. perturb
    async def perturb(self, query: str, response: str, kind: str) -> str:
        prompt = prompts.PERTURB_PROMPTS.get(kind)
        if prompt is None:
            raise ValueError(f"unknown perturbation kind {kind!r}; expected missing or wrong")

        def parse(reply: str) -> ParsedItems:
            text = parse_modified_response(extract_json(reply))
            if not text:
                raise ReplyParseError("the modified response is empty")
            check = check_variant(kind, response, text)
            return ParsedItems(values={"text": text, "check": check},
                               problems=[] if check.ok else [f"the modified answer failed its check: {check.message}"])

        # A variant that fails its check is not cached, so trying again really asks again.
        tried, good = await self._ask(prompt, prompts.render_perturb(query, response), parse, self.perturb_attempts,
                                      cache_violations=False)
        if good is None:
            raise PerturbationCheckError(tried[-1].values["check"])
        return good.values["text"]


def _snippet(text: str, words: int = 8) -> str:
    """The start of a sentence, quoted, to name it in a warning."""
    parts = text.split()
    return '"' + " ".join(parts[:words]) + (' ..."' if len(parts) > words else '"')


def _merge_passages(passages):
    """Consecutive passages of one document shown as one document block."""
    from vital_core.backends.openai.retrieval import Passage
    merged: list[Passage] = []
    for p in passages:
        if merged and merged[-1].source == p.source:
            last = merged[-1]
            merged[-1] = Passage(last.id, last.source, last.text + " [...] " + p.text, last.position)
        else:
            merged.append(p)
    return merged


__all__ = ["OpenAICompatBackend", "LLMCallError", "LLMValidationError", "ContextWindowError", "public_host"]
