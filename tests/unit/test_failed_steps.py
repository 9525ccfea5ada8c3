"""A failed step is never scored as a result: its metrics are undefined with the error, counted and
named through the frame and ``report`` (both conventions); the pipeline never leaves a task's
exception unretrieved (issue 11, items 4 and 5)."""
from __future__ import annotations

import asyncio
import gc

import numpy as np
import pytest

from tests.unit.test_batch import CountingBackend, records_of
from vital_core.analysis.report import build_report, render_text
from vital_core.metrics.catalog import METRICS
from vital_core.metrics.response import compute_response_metrics
from vital_core.metrics.undefined import why_undefined
from vital_core.results.dataset import load_dataset
from vital_core.results.model import ResponseResult, Subclaim
from vital_core.scoring.pipeline import score_example
from vital_core.scoring.runs import run_batch


class FailingStep(CountingBackend):
    """``step`` raises for every response holding ``marker`` (or for all when marker is "")."""

    def __init__(self, step: str, marker: str = ""):
        super().__init__()
        self.step, self.marker = step, marker

    def _maybe_fail(self, step: str, text: str) -> None:
        if step == self.step and self.marker in text:
            raise RuntimeError(f"{step} exploded")

    async def decompose(self, query, response):
        self._maybe_fail("decompose", response)
        return await super().decompose(query, response)

    async def rank(self, query, subclaims, evidence=None):
        self._maybe_fail("rank", " ".join(s.text for s in subclaims))
        return await super().rank(query, subclaims)

    async def verify(self, query, subclaims, evidence):
        self._maybe_fail("verify", " ".join(s.text for s in subclaims))
        return await super().verify(query, subclaims, evidence)

    async def make_nuggets(self, query, documents):
        self._maybe_fail("nuggets", "")
        return await super().make_nuggets(query, documents)

    async def assign_nuggets(self, query, nuggets, response):
        self._maybe_fail("assign", response)
        return await super().assign_nuggets(query, nuggets, response)


def _scored(tmp_path, backend):
    recs = records_of(tmp_path, 4)
    out = tmp_path / "out.jsonl"
    asyncio.run(run_batch(backend, recs, out, progress=False))
    return load_dataset(out, use_cache=False)


@pytest.mark.parametrize("step", ["decompose", "rank", "verify", "assign"])
def test_a_failed_step_leaves_every_metric_undefined_in_the_frame(tmp_path, step):
    # the wrong variants of the sample records hold a wrong answer ("Sioux", "Lyon", ...); make them fail
    backend = FailingStep(step, marker="Sioux")
    frame = _scored(tmp_path, backend).frame
    bad = frame["error"].notna()
    assert bad.sum() == 1 and step in frame.loc[bad, "error"].iloc[0]
    metrics = [k for k in METRICS if k in frame.columns]
    assert frame.loc[bad, metrics].isna().all(axis=None)           # never 0.0 or flagged
    assert frame.loc[~bad, "factscore_precision"].notna().all()


def test_a_failed_nugget_step_fails_every_variant_of_its_example(tmp_path):
    frame = _scored(tmp_path, FailingStep("nuggets")).frame
    assert frame["error"].str.startswith("nuggets:").all()
    assert frame["n_subclaims"].isna().all() and frame["rlp"].isna().all()


@pytest.mark.parametrize("conventions", ["paper", "strict"])
def test_report_counts_failures_and_leaves_them_out_of_every_mean(tmp_path, conventions):
    dataset = _scored(tmp_path, FailingStep("verify", marker="Sioux"))
    report = build_report(dataset, conventions=conventions)
    assert report["failed"] == {"normal": 0, "missing": 0, "wrong": 1}
    wrong = report["conditions"]["wrong"]
    healthy = dataset.frame[(dataset.frame.condition == "wrong") & dataset.frame.error.isna()]
    assert wrong["vital_precision"] == pytest.approx(float(healthy["vital_precision"].astype(float).mean()))
    assert report["undefined"]["wrong"]["vital_precision"] >= 1
    named = [r for r in report["records"] if r["error"]]
    assert len(named) == 1 and named[0]["condition"] == "wrong" and "verify exploded" in named[0]["error"]
    assert named[0]["vital_precision"] is None and named[0]["rlp"] is None
    text = render_text(dataset, conventions=conventions)
    assert "failed (a step failed" in text and "wrong: 1" in text


def test_one_response_metrics_are_undefined_with_the_error():
    response = ResponseResult("wrong", "text", subclaims=[Subclaim("S1", "a", importance="vital")],
                              error="RuntimeError: verify exploded")
    values = compute_response_metrics(response)
    assert all(v is None for v in values.values())
    assert why_undefined("vital_precision", response, None) == "scoring failed: RuntimeError: verify exploded"


def test_the_reference_task_is_always_retrieved():
    gc.collect()   # earlier tests' clients, closed by their finalizers, are not this test's tasks
    async def run() -> tuple[list, object]:
        loop = asyncio.get_running_loop()
        seen: list = []
        loop.set_exception_handler(lambda _loop, context: seen.append(context))
        example = await score_example(FailingStep("decompose"), example_id="x", query="q?",
                                      responses={"normal": "A. B.", "wrong": "C."}, reference="The answer is A.")
        gc.collect()
        await asyncio.sleep(0)
        return seen, example
    seen, example = asyncio.run(run())
    assert seen == []
    assert all("decompose exploded" in v.error for v in example.variants.values())


def test_a_response_over_the_word_limit_is_an_error_not_a_score():
    long_text = "word " * 50
    example = asyncio.run(score_example(CountingBackend(), example_id="x", query="q?",
                                        responses={"normal": "A short answer.", "wrong": long_text}, max_words=20))
    assert example.variants["normal"].error is None
    assert "50 words, more than the limit of 20" in example.variants["wrong"].error
    assert not any("word word" in t for t in CountingBackendTexts(example))


def CountingBackendTexts(example):  # noqa: N802 - the texts a backend decomposed are the variants' subclaims
    return [s.text for v in example.variants.values() for s in v.subclaims]


def test_f1_k_median_ignores_failed_responses(tmp_path):
    dataset = _scored(tmp_path, FailingStep("verify", marker="Sioux"))
    healthy = dataset.frame.loc[dataset.frame.error.isna(), "n_subclaims"].astype(float)
    assert dataset.f1_k == pytest.approx(float(np.median(healthy)))
