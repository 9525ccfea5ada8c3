"""What the harness integrations share (vital_core.integrations.harness), without either harness."""
from __future__ import annotations

import math

import pytest

import vital_core
from tests.support import harness_samples
from tests.support.paths import REPO
from vital_core.integrations.harness import HarnessScorer, check_evidence, check_metrics


def test_evaluate_with_nothing_checked_leaves_f1_at_k_undefined_with_its_reason():
    # a response with no evidence: nothing is checked, so n_supported is undefined; F1@K used to crash on it
    frame = vital_core.evaluate([{"query": "Who wrote Emma?", "responses": {"normal": "Jane Austen wrote Emma."}}])
    row = frame.iloc[0]
    assert math.isnan(row["f1_at_k"]) and math.isnan(row["factscore_precision"])
    assert "f1_at_k: nothing was checked" in row["undefined"]


def test_harness_scores_equal_evaluate_and_say_why_undefined():
    scorer = HarnessScorer("offline", metrics=harness_samples.METRICS)
    try:
        expected = harness_samples.expected()
        for sample in harness_samples.samples():
            record = scorer.record(sample_id=sample["id"], query=sample["query"], response=sample["response"],
                                   documents=sample["documents"], reference=sample["reference"])
            scored = scorer.score(record)
            for key in harness_samples.METRICS:
                want = expected[sample["id"]][key]
                assert scored.values[key] == (None if want is None else pytest.approx(want)), (sample["id"], key)
                if want is None:   # the same reason evaluate() gives
                    assert f"{key}: {scored.reasons[key]}" in expected[sample["id"]]["undefined"]
    finally:
        scorer.close()


def test_explanation_escapes_the_response_text():
    scorer = HarnessScorer("offline", metrics=["factscore_precision"])
    try:
        record = scorer.record(sample_id="x", query="Who wrote Emma?",
                               response="Jane Austen wrote [Emma](javascript:alert(1)) in 1815.",
                               documents=["Emma is a novel by Jane Austen, published in 1815."])
        text = scorer.score(record).explanation(["factscore_precision"])
    finally:
        scorer.close()
    assert "](javascript" not in text and "\\[Emma\\]" in text


def test_evidence_choice_keeps_only_what_it_names():
    scorer = HarnessScorer("offline", evidence="reference")
    record = scorer.record(sample_id=1, query="q", response="r", documents=["d"], reference="a")
    assert "documents" not in record and record["reference"] == "a"
    with pytest.raises(ValueError, match="evidence must be one of"):
        check_evidence("retrieved")


def test_unknown_metric_is_named():
    with pytest.raises(ValueError, match="'vital_precison'"):
        check_metrics(["vital_precison"])
    with pytest.raises(ValueError, match="list of metric keys"):
        check_metrics("vital_precision")


def test_app_install_pulls_no_harness_and_the_test_install_both():
    import tomllib
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    names = " ".join(project["dependencies"]).lower()
    assert "inspect" not in names and "mlflow" not in names
    extras = project["optional-dependencies"]
    assert any(d.startswith("inspect-ai") for d in extras["inspect"])
    assert any(d.startswith("mlflow-skinny") for d in extras["mlflow"])
    assert "vital-explorer[inspect,mlflow]" in extras["test"]


def test_scoring_path_imports_neither_harness():
    import subprocess
    import sys
    code = ("import sys, vital_core.api, vital_core.analysis.check, vital_core.testing, "
            "vital_core.integrations.harness; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('inspect_ai', 'mlflow')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_one_backend_one_loop_and_the_concurrency_limit_across_threads(monkeypatch):
    """MLflow calls from its worker threads, Inspect from its own loop: every call lands on the scorer's
    loop, with its backend, and at most ``concurrency`` responses are scored at once."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from vital_core.results.model import ExampleResult
    from vital_core.scoring import runs
    seen = {"now": 0, "most": 0, "loops": set(), "backends": set()}

    async def fake_score_record(backend, record):
        seen["loops"].add(id(asyncio.get_running_loop()))
        seen["backends"].add(id(backend))
        seen["now"] += 1
        seen["most"] = max(seen["most"], seen["now"])
        await asyncio.sleep(0.05)
        seen["now"] -= 1
        return ExampleResult(id=record.id, query=record.query, error="not scored in this test")

    monkeypatch.setattr(runs, "score_record", fake_score_record)
    scorer = HarnessScorer("offline", concurrency=2)
    try:
        records = [scorer.record(sample_id=n, query="q", response="r") for n in range(6)]
        with ThreadPoolExecutor(6) as pool:
            results = list(pool.map(scorer.score, records))

        async def from_another_loop():
            return await scorer.score_async(records[0])
        results.append(asyncio.run(from_another_loop()))
    finally:
        scorer.close()
    assert seen["most"] == 2 and len(seen["loops"]) == 1 and seen["backends"] == {id(scorer.backend)}
    # a record that failed: every metric undefined, with the failure as its reason, never 0
    assert all(v is None for v in results[0].values.values())
    assert set(results[0].reasons.values()) == {"scoring failed: not scored in this test"}
    assert results[0].reasons_text() == "scoring failed: not scored in this test (" + ", ".join(scorer.metrics) + ")"
