"""Drive a backend through the method: decompose -> rank -> verify -> nuggets.

``score_example`` turns a query, its evidence and its response variants into
an ``ExampleResult``. A step that fails for one variant records the error on
that variant and the others go on; nothing here raises for a model failure. The
reference answer's shared task is always awaited or cancelled, so its failure
is never left unretrieved.
``on_step`` lets the app show progress step by step.
"""
from __future__ import annotations

import asyncio
import dataclasses
from typing import Awaitable, Callable, Mapping

from vital_core.backends.base import Backend, Evidence
from vital_core.model import (EVIDENCE_DOCUMENTS, EVIDENCE_NONE, EVIDENCE_REFERENCE, UNLABELLED,
                    Document, ExampleResult, ResponseResult, Subclaim)

StepCallback = Callable[[str], None]
# The most words one response may have (``--max-words``): longer ones are refused with a message, not scored.
MAX_WORDS = 20_000


def _noop(_: str) -> None:
    return None


def choose_evidence(documents: list[Document], reference: str | None) -> Evidence:
    """Documents when given, else the reference answer, else the model's own knowledge."""
    if documents:
        return Evidence(mode=EVIDENCE_DOCUMENTS, documents=list(documents), reference=reference)
    if reference and reference.strip():
        return Evidence(mode=EVIDENCE_REFERENCE, reference=reference)
    return Evidence(mode=EVIDENCE_NONE)


def subclaims_from_sentences(sentences, prefix: str = "S") -> list[Subclaim]:
    """Number claims S1..Sn in response order, remembering their source sentence."""
    out: list[Subclaim] = []
    for s_index, sentence in enumerate(sentences):
        for claim in sentence.claims:
            out.append(Subclaim(id=f"{prefix}{len(out) + 1}", text=claim,
                                sentence_index=s_index, sentence=sentence.text))
    return out


def apply_ranking(subclaims: list[Subclaim], ranking) -> list[str]:
    """Write labels and ranks onto the subclaims; return the importance order."""
    known = {s.id for s in subclaims}
    order = [i for i in ranking.order if i in known]
    order += [s.id for s in subclaims if s.id not in set(order)]
    position = {sid: n + 1 for n, sid in enumerate(order)}
    for s in subclaims:
        s.importance = ranking.labels.get(s.id, UNLABELLED)
        s.rank = position[s.id]
    return order


def apply_verdicts(subclaims: list[Subclaim], verdicts) -> None:
    for s, v in zip(subclaims, verdicts):
        s.verdict, s.reason, s.evidence = v.verdict, v.reason, v.evidence


async def rank_reference_claims(backend: Backend, query: str, reference: str) -> list[Subclaim]:
    """The reference answer's claims, decomposed and ranked once per example (R1..Rn)."""
    ref_claims = subclaims_from_sentences(await backend.decompose(query, reference), prefix="R")
    if ref_claims:
        apply_ranking(ref_claims, await backend.rank(query, ref_claims))
    return ref_claims


async def score_response(backend: Backend, query: str, variant: str, text: str,
                         evidence: Evidence, on_step: StepCallback = _noop,
                         reference_claims: Awaitable[list[Subclaim]] | None = None) -> ResponseResult:
    """One variant through the steps. ``reference_claims`` (shared by the variants of an
    example) are checked against this response for factual-correctness recall."""
    result = ResponseResult(variant=variant, text=text, evidence_mode=evidence.mode)
    try:
        on_step(f"{variant}: decomposing into subclaims")
        result.subclaims = subclaims_from_sentences(await backend.decompose(query, text))
        if result.subclaims:
            on_step(f"{variant}: ranking {len(result.subclaims)} subclaims by importance")
            ranking = await backend.rank(query, result.subclaims)
            result.order = apply_ranking(result.subclaims, ranking)
            result.warnings.extend(ranking.warnings)
            on_step(f"{variant}: verifying against {evidence.mode}")
            apply_verdicts(result.subclaims, await backend.verify(query, result.subclaims, evidence))
            if evidence.mode == EVIDENCE_DOCUMENTS and evidence.reference and evidence.reference.strip():
                # Documents decide the verdicts; factual correctness needs the same claims
                # checked against the reference answer too.
                on_step(f"{variant}: checking subclaims against the reference answer")
                against_reference = Evidence(mode=EVIDENCE_REFERENCE, reference=evidence.reference)
                checks = await backend.verify(query, result.subclaims, against_reference)
                result.fc_verdicts = {s.id: v.verdict for s, v in zip(result.subclaims, checks)}
        if reference_claims is not None:
            on_step(f"{variant}: checking the reference's claims against the response")
            ref_claims = [dataclasses.replace(c) for c in await reference_claims]
            if ref_claims:
                as_evidence = Evidence(mode=EVIDENCE_REFERENCE, reference=text)
                apply_verdicts(ref_claims, await backend.verify(query, ref_claims, as_evidence))
            result.reference_claims = ref_claims
    except Exception as exc:  # one variant's failure must not sink the example
        result.error = f"{type(exc).__name__}: {exc}"
    return result


def too_long(text: str, max_words: int | None) -> str | None:
    """Why ``text`` is over the size limit for one response, or None."""
    if not max_words:
        return None
    words = len(text.split())
    if words <= max_words:
        return None
    return (f"the response has {words:,} words, more than the limit of {max_words:,} for one response "
            f"(--max-words); shorten it or raise the limit")


async def _settle(task: asyncio.Future | None) -> None:
    """Await or cancel a shared task so that its exception is always retrieved."""
    if task is None:
        return
    if not task.done():
        task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def score_example(backend: Backend, *, example_id: str, query: str,
                        responses: Mapping[str, str], documents: list[Document] | None = None,
                        reference: str | None = None, dataset: str = "", subset: str = "",
                        query_type: str | None = None, on_step: StepCallback = _noop,
                        max_words: int | None = MAX_WORDS) -> ExampleResult:
    """Score every variant of one example. A variant over ``max_words`` words is not sent to the backend:
    it keeps an error saying so, and the others go on."""
    documents = list(documents or [])
    evidence = choose_evidence(documents, reference)
    example = ExampleResult(id=example_id, query=query, documents=documents, reference=reference,
                            dataset=dataset, subset=subset, query_type=query_type,
                            backend=backend.info.to_dict())
    texts = {name: text for name, text in responses.items() if text is not None}
    reference_claims = None
    if reference and reference.strip() and any(not too_long(t, max_words) for t in texts.values()):
        on_step("decomposing and ranking the reference answer")
        reference_claims = asyncio.ensure_future(rank_reference_claims(backend, query, reference))
    try:
        await _score_variants(backend, example, texts, evidence, on_step, reference_claims, max_words)
    finally:
        await _settle(reference_claims)
    if example.nuggets is not None:
        on_step(f"assigning {len(example.nuggets)} nuggets to each response")
        await asyncio.gather(*(_assign(backend, query, example.nuggets, v) for v in example.variants.values()
                               if not v.error))
    return example


async def _score_variants(backend: Backend, example: ExampleResult, texts: dict[str, str], evidence: Evidence,
                          on_step: StepCallback, reference_claims, max_words: int | None) -> None:
    """Every variant (and the nuggets, when there are documents) at once; failures kept as errors."""
    async def one(name: str, text: str) -> ResponseResult:
        reason = too_long(text, max_words)
        if reason:
            return ResponseResult(variant=name, text=text, evidence_mode=evidence.mode, error=f"TooLong: {reason}")
        return await score_response(backend, example.query, name, text, evidence, on_step, reference_claims)

    jobs = [one(name, text) for name, text in texts.items()]
    if example.documents:
        on_step("building nuggets from the documents")
        jobs.append(backend.make_nuggets(example.query, example.documents))
    results = await asyncio.gather(*jobs, return_exceptions=True)
    for name, res in zip(texts, results):
        if isinstance(res, BaseException):
            res = ResponseResult(variant=name, text=texts[name], error=f"{type(res).__name__}: {res}")
        example.variants[name] = res
    if example.documents:
        nuggets = results[-1]
        if isinstance(nuggets, BaseException):
            example.error = f"nuggets: {type(nuggets).__name__}: {nuggets}"
        else:
            example.nuggets = nuggets


async def _assign(backend: Backend, query: str, nuggets, variant: ResponseResult) -> None:
    """Assign the nuggets to one response; a failure is that response's error (its recall is not 0)."""
    try:
        variant.nugget_assignment = await backend.assign_nuggets(query, nuggets, variant.text)
    except Exception as exc:
        variant.error = f"nugget assignment: {type(exc).__name__}: {exc}"


def run_sync(coro):
    """Run a coroutine from synchronous code (the app, the CLI), even inside a running loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
