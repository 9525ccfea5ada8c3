"""The MLflow scorer in a real ``mlflow.genai.evaluate`` against a local tracking store (a SQLite file in a
temporary folder), offline backend; the assessments read back from the store must hold
``vital_core.evaluate()``'s values, an undefined metric no value with its reason, never 0."""
from __future__ import annotations

import pytest

from tests.support import harness_samples

pytest.importorskip("mlflow", reason="MLflow is not installed (pip install -r requirements-test.txt)")


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """sample id -> {assessment name: Feedback} read back from the store, and the run's metrics."""
    folder = tmp_path_factory.mktemp("mlflow")
    with pytest.MonkeyPatch.context() as patch:
        # nothing leaves the machine: no telemetry; the store and its artifacts are files in ``folder``
        for name, value in {"MLFLOW_DISABLE_TELEMETRY": "true", "DO_NOT_TRACK": "true",
                            "MLFLOW_TRACKING_URI": f"sqlite:///{folder / 'mlflow.db'}"}.items():
            patch.setenv(name, value)
        patch.chdir(folder)
        import mlflow

        from vital_core.integrations.mlflow import vital_scorer
        mlflow.set_tracking_uri(f"sqlite:///{folder / 'mlflow.db'}")
        try:
            experiment = mlflow.create_experiment("vital", artifact_location=(folder / "artifacts").as_uri())
            mlflow.set_experiment(experiment_id=experiment)
            rows = [{"inputs": {"query": s["query"]}, "outputs": s["response"],
                     "expectations": {**({"documents": s["documents"]} if s["documents"] else {}),
                                      **({"expected_response": s["reference"]} if s["reference"] else {}),
                                      "sample": s["id"]}}
                    for s in harness_samples.samples()]
            result = mlflow.genai.evaluate(data=rows, scorers=[vital_scorer(metrics=harness_samples.METRICS)])
            traces = mlflow.search_traces(run_id=result.run_id, return_type="list")
        finally:
            mlflow.set_tracking_uri(None)
    out = {}
    for trace in traces:
        assessments = trace.info.assessments
        sample = next(a.value for a in assessments if a.name == "sample")
        out[sample] = {a.name: a for a in assessments if a.name in harness_samples.METRICS}
    return out, result.metrics


def test_logged_assessments_equal_evaluate(logged):
    feedback, _ = logged
    expected = harness_samples.expected()
    assert set(feedback) == {"demo-01", "demo-07", "demo-03"}
    for sample, values in expected.items():
        assert set(feedback[sample]) == set(harness_samples.METRICS)
        for key in harness_samples.METRICS:
            got = feedback[sample][key]
            assert got.error is None
            if values[key] is None:
                assert got.value is None, (sample, key)           # no value, never 0
            else:
                assert got.value == pytest.approx(values[key]), (sample, key)


def test_rationale_names_the_vital_claims(logged):
    feedback, _ = logged
    rationale = feedback["demo-01"]["vital_precision"].rationale
    assert rationale.startswith("VITAL precision ") and "Vital claims (" in rationale


def test_undefined_metric_has_its_reason(logged):
    feedback, _ = logged
    fc = feedback["demo-07"]["fc_f1"]                 # documents, no reference answer
    assert fc.value is None and "undefined: needs a reference answer" in fc.rationale
    assert "nothing was checked" in feedback["demo-03"]["vital_precision"].rationale


def test_run_metrics_leave_undefined_out(logged):
    _, metrics = logged
    expected = harness_samples.expected()
    assert metrics["fc_f1/mean"] == pytest.approx(expected["demo-01"]["fc_f1"])   # one defined value of three
    vp = [expected[i]["vital_precision"] for i in ("demo-01", "demo-07")]
    assert metrics["vital_precision/mean"] == pytest.approx(sum(vp) / 2)


def test_unreadable_inputs_name_the_field():
    from vital_core.integrations.mlflow import _query
    with pytest.raises(ValueError, match="inputs: no query found"):
        _query({"a": "x", "b": "y"})
