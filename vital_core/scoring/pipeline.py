"""Drive a backend through the method's steps (``vital_core.scoring.steps``): decompose -> rank -> verify -> nuggets
-> assign.

``score_example`` turns a query, its evidence and its response variants into
an ``ExampleResult``. A step that fails for one variant records the error on
that variant and the others go on; nothing here raises for a model failure. The
reference answer's shared task is always awaited or cancelled, so its failure
is never left unretrieved.
``on_step`` lets the app show progress step by step; ``progress_messages`` says how many messages to expect.

Evidence (``choose_evidence``): the documents when given, else the reference
answer, else - when the example has a normal response and another variant - the
normal response taken as correct (``EVIDENCE_NORMAL``): the other variants are
checked against it as against a reference answer, the nuggets are built from
it, and its own claims and nuggets count as supported with the reason
``TAKEN_AS_CORRECT`` (nothing independent checks it; it is the baseline the
variants' changes are measured from). Else none (the model's own knowledge).
"""
from __future__ import annotations

import asyncio
import dataclasses
import re
from typing import Awaitable, Callable, Mapping

from vital_core.backends import response_notes
from vital_core.backends.base import Backend, Evidence
from vital_core.results.model import (
    EVIDENCE_DOCUMENTS,
    EVIDENCE_NONE,
    EVIDENCE_NORMAL,
    EVIDENCE_REFERENCE,
    NORMAL,
    NOT_JUDGED,
    SUPPORT,
    SUPPORTED,
    TAKEN_AS_CORRECT,
    UNLABELLED,
    Document,
    ExampleResult,
    ResponseResult,
    Subclaim,
)

# MAX_WORDS is also the app's limit for one response (it reads it from here)
from vital_core.scoring.limits import MAX_WORDS, evidence_limit_mb, too_long, too_much_evidence

StepCallback = Callable[[str], None]


def _noop(_: str) -> None:
    return None


def progress_messages(n_responses: int, documents: bool, reference: bool, against_normal: bool = False) -> int:
    """How many messages ``score_example`` announces through ``on_step`` at most (the app's progress bar):
    per response decompose, rank and verify (and, with a reference, its claims checked against the
    response, plus the response's claims against the reference when documents decide the verdicts); per
    example the reference's decomposition, and with documents building and assigning the nuggets.
    ``against_normal`` (no documents, no reference, ``EVIDENCE_NORMAL``): the normal is decomposed and
    ranked only, every other response is also checked for the normal's claims, and the nuggets are built
    from the normal. Kept next to the announcements below; tests/app/test_app_core.py counts them."""
    if against_normal:
        return 2 + (n_responses - 1) * 4 + 2
    per_response = 3 + (1 if reference else 0) + (1 if reference and documents else 0)
    per_example = (1 if reference else 0) + (2 if documents else 0)
    return max(1, n_responses * per_response + per_example)


def choose_evidence(documents: list[Document], reference: str | None,
                    responses: Mapping[str, str] | None = None) -> Evidence:
    """Documents when given, else the reference answer, else the normal response (taken as correct) when
    ``responses`` has another variant to check against it, else the model's own knowledge."""
    if documents:
        return Evidence(mode=EVIDENCE_DOCUMENTS, documents=list(documents), reference=reference)
    if reference and reference.strip():
        return Evidence(mode=EVIDENCE_REFERENCE, reference=reference)
    texts = {name: text for name, text in (responses or {}).items() if text and text.strip()}
    if NORMAL in texts and len(texts) > 1:
        return Evidence(mode=EVIDENCE_NORMAL, reference=texts[NORMAL])
    return Evidence(mode=EVIDENCE_NONE)


def for_backend(evidence: Evidence) -> Evidence:
    """What a backend checks claims against: the normal response is given to it as a reference answer
    (backends know documents, reference and none; the result records the mode itself)."""
    if evidence.mode == EVIDENCE_NORMAL:
        return Evidence(mode=EVIDENCE_REFERENCE, reference=evidence.reference)
    return evidence


def _mode_words(evidence: Evidence) -> str:
    return "the normal response" if evidence.mode == EVIDENCE_NORMAL else evidence.mode


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


def apply_verdicts(subclaims: list[Subclaim], verdicts) -> list[str]:
    """Write the verdicts onto the subclaims; return the warnings they carry (what a reply lost)."""
    out: list[str] = []
    for s, v in zip(subclaims, verdicts):
        s.verdict, s.reason, s.evidence = v.verdict, v.reason, v.evidence
        out += getattr(v, "warnings", None) or []
    return out


# A warning about one claim or nugget: "STEP: ID: what happened" (ids as the pipeline numbers them).
_ABOUT_ONE_ID = re.compile(r"^(?P<step>.*?: )?(?P<id>[SRN]\d+): (?P<what>.+)$")


def group_warnings(warnings: list[str]) -> list[str]:
    """One warning per kind of loss, naming every id it hit ("...: the model's verdict 'false' was read as
    'not_enough_evidence' (S2, S5)"), in first-seen order; other warnings kept as they are, once."""
    groups: dict[tuple[str, str], list[str]] = {}
    for w in warnings:
        m = _ABOUT_ONE_ID.match(w)
        key = (m.group("step") or "", m.group("what")) if m else ("", w)
        ids = groups.setdefault(key, [])
        if m and m.group("id") not in ids:
            ids.append(m.group("id"))
    return [f"{step}{what} ({', '.join(ids)})" if ids else f"{step}{what}" for (step, what), ids in groups.items()]


def step_warnings(sentences) -> list[str]:
    """The warnings a decomposition carries, sentence by sentence."""
    return [w for s in sentences for w in (getattr(s, "warnings", None) or [])]


@dataclasses.dataclass
class ReferenceClaims:
    """The reference answer's claims, ranked, and what its decomposition and ranking lost."""
    claims: list[Subclaim]
    warnings: list[str] = dataclasses.field(default_factory=list)


async def rank_reference_claims(backend: Backend, query: str, reference: str) -> ReferenceClaims:
    """The reference answer's claims, decomposed and ranked once per example (R1..Rn)."""
    sentences = await backend.decompose(query, reference)
    ref = ReferenceClaims(subclaims_from_sentences(sentences, prefix="R"), step_warnings(sentences))
    if ref.claims:
        ranking = await backend.rank(query, ref.claims)
        apply_ranking(ref.claims, ranking)
        ref.warnings += ranking.warnings
    return ref


async def score_response(backend: Backend, query: str, variant: str, text: str,
                         evidence: Evidence, on_step: StepCallback = _noop,
                         reference_claims: Awaitable[ReferenceClaims] | None = None) -> ResponseResult:
    """One variant through the steps. ``reference_claims`` (shared by the variants of an
    example) are checked against this response for factual-correctness recall."""
    result = ResponseResult(variant=variant, text=text, evidence_mode=evidence.mode)
    with response_notes.collecting() as notes:
        await _score_response(backend, query, result, evidence, on_step, reference_claims)
    response_notes.add_to(result.warnings, notes)
    result.warnings = group_warnings(result.warnings)
    return result


async def _score_response(backend: Backend, query: str, result: ResponseResult, evidence: Evidence,
                          on_step: StepCallback, reference_claims: Awaitable[ReferenceClaims] | None) -> None:
    variant, text = result.variant, result.text
    try:
        # the normal response taken as the evidence says nothing of what matters: the query alone ranks then
        await _decompose_and_rank(backend, query, result, on_step,
                                  None if evidence.mode == EVIDENCE_NORMAL else evidence)
        if result.subclaims:
            on_step(f"{variant}: verifying against {_mode_words(evidence)}")
            result.warnings += apply_verdicts(result.subclaims,
                                              await backend.verify(query, result.subclaims, for_backend(evidence)))
            if evidence.mode == EVIDENCE_DOCUMENTS and evidence.reference and evidence.reference.strip():
                # Documents decide the verdicts; factual correctness needs the same claims
                # checked against the reference answer too.
                on_step(f"{variant}: checking subclaims against the reference answer")
                against_reference = Evidence(mode=EVIDENCE_REFERENCE, reference=evidence.reference)
                checks = await backend.verify(query, result.subclaims, against_reference)
                result.fc_verdicts = {s.id: v.verdict for s, v in zip(result.subclaims, checks)}
                result.warnings += [f"check against the reference answer: {w}"
                                    for v in checks for w in (getattr(v, "warnings", None) or [])]
        if reference_claims is not None:
            on_step(f"{variant}: checking the reference's claims against the response")
            ref = await reference_claims
            result.warnings += [f"reference answer: {w}" for w in ref.warnings]
            ref_claims = [dataclasses.replace(c) for c in ref.claims]
            if ref_claims:
                as_evidence = Evidence(mode=EVIDENCE_REFERENCE, reference=text)
                result.warnings += [f"reference claims checked against this response: {w}" for w in
                                    apply_verdicts(ref_claims, await backend.verify(query, ref_claims, as_evidence))]
            result.reference_claims = ref_claims
    except Exception as exc:  # one variant's failure must not sink the example
        result.error = f"{type(exc).__name__}: {exc}"


async def _decompose_and_rank(backend: Backend, query: str, result: ResponseResult, on_step: StepCallback,
                              evidence: Evidence | None = None) -> None:
    on_step(f"{result.variant}: decomposing into subclaims")
    sentences = await backend.decompose(query, result.text)
    result.subclaims = subclaims_from_sentences(sentences)
    result.warnings.extend(step_warnings(sentences))
    if result.subclaims:
        on_step(f"{result.variant}: ranking {len(result.subclaims)} subclaims by importance")
        ranking = await backend.rank(query, result.subclaims, evidence)
        result.order = apply_ranking(result.subclaims, ranking)
        result.warnings.extend(ranking.warnings)


async def score_taken_as_correct(backend: Backend, query: str, text: str,
                                 on_step: StepCallback = _noop) -> ResponseResult:
    """The normal response in the "normal response" mode: decomposed and ranked, never verified (it is
    what the others are checked against): its claims, and its claims as the reference's, are supported
    with the reason ``TAKEN_AS_CORRECT``."""
    result = ResponseResult(variant=NORMAL, text=text, evidence_mode=EVIDENCE_NORMAL)
    with response_notes.collecting() as notes:
        try:
            await _decompose_and_rank(backend, query, result, on_step)
        except Exception as exc:  # its failure is recorded; the other variants say they lost their reference
            result.error = f"{type(exc).__name__}: {exc}"
    response_notes.add_to(result.warnings, notes)
    if result.error:
        return result
    result.warnings = group_warnings(result.warnings)
    for claim in result.subclaims:
        claim.verdict, claim.reason = SUPPORTED, TAKEN_AS_CORRECT
    result.reference_claims = [dataclasses.replace(c, id=f"R{n}") for n, c in enumerate(result.subclaims, 1)]
    return result


async def _claims_of_normal(normal: Awaitable[ResponseResult]) -> ReferenceClaims:
    """The normal response's claims as the reference claims (R1..Rn) the other variants are checked for."""
    result = await asyncio.shield(normal)   # a variant giving up on it must not cancel the normal's scoring
    if result.error:
        raise RuntimeError(f"the normal response, which this variant is checked against, failed: {result.error}")
    return ReferenceClaims([dataclasses.replace(c, verdict=NOT_JUDGED, reason="", evidence="")
                            for c in result.reference_claims])


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
                        max_words: int | None = MAX_WORDS, max_evidence_mb: float | None = None) -> ExampleResult:
    """Score every variant of one example. A variant over ``max_words`` words is not sent to the backend:
    it keeps an error saying so, and the others go on. Documents and reference over ``max_evidence_mb``
    (None: ``evidence_limit_mb()``) are not read: every variant keeps an error saying so."""
    # Notes of the calls the variants share (nuggets, the reference's claims) go to every variant.
    with response_notes.collecting() as shared:
        example = await _score_example(backend, example_id=example_id, query=query, responses=responses,
                                       documents=documents, reference=reference, dataset=dataset, subset=subset,
                                       query_type=query_type, on_step=on_step, max_words=max_words,
                                       max_evidence_mb=max_evidence_mb)
    for variant in example.variants.values():
        response_notes.add_to(variant.warnings, shared)
    return example


async def _score_example(backend: Backend, *, example_id: str, query: str, responses: Mapping[str, str],
                         documents: list[Document] | None, reference: str | None, dataset: str, subset: str,
                         query_type: str | None, on_step: StepCallback, max_words: int | None,
                         max_evidence_mb: float | None) -> ExampleResult:
    documents = list(documents or [])
    texts = {name: text for name, text in responses.items() if text is not None}
    oversized = too_much_evidence(documents, reference,
                                  evidence_limit_mb() if max_evidence_mb is None else max_evidence_mb)
    if oversized:
        return ExampleResult(id=example_id, query=query, documents=documents, reference=reference, dataset=dataset,
                             subset=subset, query_type=query_type, backend=backend.info.to_dict(),
                             variants={name: ResponseResult(variant=name, text=text, error=f"TooLong: {oversized}")
                                       for name, text in texts.items()})
    evidence = choose_evidence(documents, reference,
                               {name: text for name, text in texts.items() if not too_long(text, max_words)})
    example = ExampleResult(id=example_id, query=query, documents=documents, reference=reference,
                            dataset=dataset, subset=subset, query_type=query_type,
                            backend=backend.info.to_dict())
    if evidence.mode == EVIDENCE_NORMAL:
        await _score_against_normal(backend, example, texts, evidence, on_step, max_words)
    else:
        reference_claims = None
        if reference and reference.strip() and any(not too_long(t, max_words) for t in texts.values()):
            on_step("decomposing and ranking the reference answer")
            reference_claims = asyncio.ensure_future(rank_reference_claims(backend, query, reference))
        try:
            await _score_variants(backend, example, texts, evidence, on_step, reference_claims, max_words,
                                  documents)
        finally:
            await _settle(reference_claims)
    if example.nuggets is not None:
        on_step(f"assigning {len(example.nuggets)} nuggets to each response")
        await asyncio.gather(*(_assign(backend, query, example.nuggets, v) for v in example.variants.values()
                               if not v.error))
    return example


async def _score_against_normal(backend: Backend, example: ExampleResult, texts: dict[str, str],
                                evidence: Evidence, on_step: StepCallback, max_words: int | None) -> None:
    """The "normal response" mode: the normal taken as correct, the other variants checked against it,
    the nuggets built from it (its own nuggets are assigned ``support`` once built)."""
    normal = asyncio.ensure_future(score_taken_as_correct(backend, example.query, texts[NORMAL], on_step))
    reference_claims = asyncio.ensure_future(_claims_of_normal(normal))
    source = [Document(id=NORMAL, title="the normal response", text=texts[NORMAL])]
    others = {name: text for name, text in texts.items() if name != NORMAL}
    try:
        await _score_variants(backend, example, others, evidence, on_step, reference_claims, max_words, source)
        scored = {**example.variants, NORMAL: await normal}
    finally:
        await _settle(reference_claims)
        await _settle(normal)
    example.variants = {name: scored[name] for name in texts}     # the input's order


async def _score_variants(backend: Backend, example: ExampleResult, texts: dict[str, str], evidence: Evidence,
                          on_step: StepCallback, reference_claims, max_words: int | None,
                          nugget_source: list[Document]) -> None:
    """Every variant (and the nuggets, when there is a source for them) at once; failures kept as errors."""
    async def one(name: str, text: str) -> ResponseResult:
        reason = too_long(text, max_words)
        if reason:
            return ResponseResult(variant=name, text=text, evidence_mode=evidence.mode, error=f"TooLong: {reason}")
        return await score_response(backend, example.query, name, text, evidence, on_step, reference_claims)

    jobs = [one(name, text) for name, text in texts.items()]
    if nugget_source:
        source = "the normal response" if evidence.mode == EVIDENCE_NORMAL else "the documents"
        on_step(f"building nuggets from {source}")
        jobs.append(backend.make_nuggets(example.query, nugget_source))
    results = await asyncio.gather(*jobs, return_exceptions=True)
    for name, res in zip(texts, results):
        if isinstance(res, BaseException):
            res = ResponseResult(variant=name, text=texts[name], error=f"{type(res).__name__}: {res}")
        example.variants[name] = res
    if nugget_source:
        nuggets = results[-1]
        if isinstance(nuggets, BaseException):
            example.error = f"nuggets: {type(nuggets).__name__}: {nuggets}"
        else:
            example.nuggets = nuggets


async def _assign(backend: Backend, query: str, nuggets, variant: ResponseResult) -> None:
    """Assign the nuggets to one response; a failure is that response's error (its recall is not 0).
    The normal response taken as correct is where the nuggets come from: it supports each of them."""
    if variant.evidence_mode == EVIDENCE_NORMAL and variant.variant == NORMAL:
        variant.nugget_assignment = {n.id: SUPPORT for n in nuggets}
        return
    with response_notes.collecting() as notes:
        try:
            variant.nugget_assignment = await backend.assign_nuggets(query, nuggets, variant.text)
        except Exception as exc:
            variant.error = f"nugget assignment: {type(exc).__name__}: {exc}"
    response_notes.add_to(variant.warnings, notes)


def run_sync(coro):
    """Run a coroutine from synchronous code (the app, the CLI), even inside a running loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
