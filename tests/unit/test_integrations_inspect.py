"""The Inspect scorer in a real ``inspect_ai.eval``: three samples answered by Inspect's mock model,
scored by the offline backend; the log read back from disk must hold ``vital_core.evaluate()``'s values,
undefined metrics as unscored with their reasons, never 0."""
from __future__ import annotations

import importlib.util
import math

import pytest

from tests.support import harness_samples
from tests.support.paths import REPO

pytest.importorskip("inspect_ai", reason="Inspect is not installed (pip install -r requirements-test.txt)")

from inspect_ai import Task  # noqa: E402
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample  # noqa: E402
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate  # noqa: E402

from vital_core.integrations.inspect import vital_scorer  # noqa: E402

EXAMPLE = REPO / "examples" / "inspect_vital.py"


def _mock_model():
    """Inspect's mock model answering each demo query with the demo's normal answer."""
    answers = {s["query"]: s["response"] for s in harness_samples.samples()}

    def answer(messages, tools, tool_choice, config):
        output = ModelOutput.from_content(model="mockllm", content=answers[messages[-1].text])
        # usage given, so the mock model does not count tokens (tiktoken would download its encoding)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output
    return get_model("mockllm/model", custom_outputs=answer)


@pytest.fixture(scope="module")
def eval_log(tmp_path_factory):
    samples = [Sample(id=s["id"], input=s["query"], target=s["reference"] or "",
                      metadata={"documents": s["documents"]} if s["documents"] else {})
               for s in harness_samples.samples()]
    task = Task(dataset=MemoryDataset(samples), solver=generate(),
                scorer=vital_scorer(backend="offline", metrics=harness_samples.METRICS))
    logs = inspect_eval(task, model=_mock_model(), log_dir=str(tmp_path_factory.mktemp("inspect-logs")),
                        display="none")
    assert logs[0].status == "success", logs[0].error
    return read_eval_log(logs[0].location)    # what is on disk, not the object in memory


def _score(log, sample_id):
    sample = next(s for s in log.samples if s.id == sample_id)
    return sample.scores["vital_scorer"]


def test_logged_scores_equal_evaluate(eval_log):
    expected = harness_samples.expected()
    score = _score(eval_log, "demo-01")
    assert set(score.value) == set(harness_samples.METRICS)
    for key in harness_samples.METRICS:
        assert expected["demo-01"][key] is not None
        assert score.value[key] == pytest.approx(expected["demo-01"][key]), key
    # the full result and the vital claims with their verdicts and reasons
    result = score.metadata["result"]
    vital = [c for c in result["variants"]["normal"]["subclaims"] if c["importance"] == "vital"]
    assert vital and all(c["reason"] for c in vital)
    assert f"Vital claims ({len(vital)} of" in score.explanation
    assert score.metadata["undefined"] == {}


def test_undefined_metric_is_unscored_with_its_reason(eval_log):
    expected = harness_samples.expected()
    score = _score(eval_log, "demo-07")           # documents, no reference answer
    assert math.isnan(score.value["fc_f1"])       # Inspect's unscored, never 0
    assert expected["demo-07"]["fc_f1"] is None
    assert "reference answer" in score.metadata["undefined"]["fc_f1"]
    assert "undefined Factual correctness F1" in score.explanation
    for key in harness_samples.METRICS:
        if expected["demo-07"][key] is not None:
            assert score.value[key] == pytest.approx(expected["demo-07"][key]), key


def test_nothing_defined_is_score_unscored(eval_log):
    score = _score(eval_log, "demo-03")           # no evidence at all
    assert isinstance(score.value, float) and math.isnan(score.value)
    assert all(harness_samples.expected()["demo-03"][k] is None for k in harness_samples.METRICS)
    assert "nothing was checked" in str(score.reason)
    assert score.metadata["vital"] == {k: None for k in harness_samples.METRICS}


def test_aggregates_leave_undefined_out(eval_log):
    expected = harness_samples.expected()
    by_name = {s.name: s for s in eval_log.results.scores}
    assert set(by_name) == set(harness_samples.METRICS)
    fc = by_name["fc_f1"]
    assert (fc.scored_samples, fc.unscored_samples) == (1, 2)
    assert fc.metrics["mean"].value == pytest.approx(expected["demo-01"]["fc_f1"])
    vp = [expected[i]["vital_precision"] for i in ("demo-01", "demo-07")]
    assert by_name["vital_precision"].metrics["mean"].value == pytest.approx(sum(vp) / 2)


def test_scorer_refuses_a_key_argument_and_logs_no_key(monkeypatch):
    from inspect_ai._util.registry import registry_params
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        vital_scorer(backend="openai", api_key="sk-not-a-real-key")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    made = vital_scorer(backend="openai", base_url="http://127.0.0.1:9/v1", model="m")
    assert "sk-from-the-environment" not in repr(registry_params(made))   # what Inspect writes into its log


def test_example_task_replays_the_demo_offline(tmp_path):
    spec = importlib.util.spec_from_file_location("inspect_vital_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    task = module.vital_demo(replay="wrong", limit=1)
    log = inspect_eval(task, model="mockllm/model", log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success", log.error
    value = log.samples[0].scores["vital_scorer"].value
    assert value["rlp"] == 1.0 and value["vital_precision"] < 1.0   # demo-01's wrong answer: nine planets
