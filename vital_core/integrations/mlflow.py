"""A VITAL scorer for MLflow's ``mlflow.genai.evaluate`` (``pip install vital-explorer[mlflow]``)::

    from vital_core.integrations.mlflow import vital_scorer
    mlflow.genai.evaluate(data=rows, scorers=[vital_scorer(backend="offline")])

Each row's ``inputs`` give the query, its ``outputs`` the response and its ``expectations`` the evidence
(``documents``: strings or objects with "text"; ``reference`` or ``expected_response``: the reference
answer). The row is scored the way ``vital_core.evaluate`` scores it (``integrations.harness``).

The scorer returns one ``Feedback`` per chosen metric, named by its key (``vital_precision``, ``rlp``
...; a flag as 1.0 / 0.0), whose rationale gives the metrics and the vital claims with their verdicts
and reasons. A metric with nothing to measure gets a Feedback with no value and the reason as its
rationale (MLflow leaves it out of the metric's mean); never 0. A row whose inputs cannot be read gets
MLflow's scorer error, one sentence naming the field.
"""
from __future__ import annotations

from typing import Any, Iterable

from mlflow.entities import AssessmentSource, Feedback
from mlflow.genai.scorers import scorer

from vital_core.integrations.harness import HarnessScorer
from vital_core.metrics.catalog import METRICS
from vital_core.safety.markdown import escape_md
from vital_core.scoring.runs import RECORD_TIMEOUT

QUERY_KEYS = ("query", "question", "request", "input")     # the inputs key read as the query, first found
REFERENCE_KEYS = ("reference", "expected_response")       # the expectations key read as the reference answer
DOCUMENTS_KEY = "documents"


def _query(inputs: Any) -> str:
    if isinstance(inputs, str):
        return inputs
    if isinstance(inputs, dict):
        for key in QUERY_KEYS:
            if isinstance(inputs.get(key), str):
                return inputs[key]
        texts = [v for v in inputs.values() if isinstance(v, str)]
        if len(texts) == 1:
            return texts[0]
        raise ValueError(f"inputs: no query found; give it as inputs[\"query\"] (one of {', '.join(QUERY_KEYS)}), "
                         f"got the keys {', '.join(map(str, inputs)) or '(none)'}")
    raise ValueError(f"inputs must be a string or a dict with \"query\", got {type(inputs).__name__}")


def _response(outputs: Any) -> str:
    if isinstance(outputs, str):
        return outputs
    if isinstance(outputs, dict) and isinstance(outputs.get("response"), str):
        return outputs["response"]
    raise ValueError("outputs must be the response text or a dict with a \"response\" string, "
                     f"got {type(outputs).__name__}")


def _evidence(expectations: Any) -> tuple[Any, str | None]:
    """(documents, reference) of a row's expectations; either may be missing."""
    if expectations is None:
        return None, None
    if not isinstance(expectations, dict):
        raise ValueError(f"expectations must be a dict, got {type(expectations).__name__}")
    reference = next((expectations[k] for k in REFERENCE_KEYS if expectations.get(k) is not None), None)
    if reference is not None and not isinstance(reference, str):
        raise ValueError("expectations: the reference answer must be a string")
    return expectations.get(DOCUMENTS_KEY), reference


def vital_scorer(backend: str = "offline", *, metrics: Iterable[str] | None = None, evidence: str = "both",
                 concurrency: int = 8, name: str = "vital", **settings: Any):
    """An MLflow scorer returning one Feedback per chosen metric.

    ``backend``: "offline" (no key, no network) or "openai" (``settings`` such as ``base_url``,
    ``model``, ``cache_dir`` go to it; the key from OPENAI_API_KEY unless ``api_key`` is given) or a
    backend object. ``metrics``: metric keys (default: factscore_precision, vital_precision, rlp,
    vital_recall, rlr). ``evidence``: "both", "documents" or "reference". One backend serves every row: its
    cache is shared, and at most
    ``concurrency`` rows are scored at once whatever MLflow's number of workers.
    """
    harness = HarnessScorer(backend, metrics=metrics, evidence=evidence, concurrency=concurrency, **settings)
    source = AssessmentSource(source_type="CODE", source_id=f"vital-explorer:{harness.backend.info.name}")

    def vital(inputs, outputs, expectations) -> list[Feedback]:
        documents, reference = _evidence(expectations)
        record = harness.record(sample_id="row", query=_query(inputs), response=_response(outputs),
                                documents=documents, reference=reference)
        scored = harness.score(record, source="MLflow row")
        claims = scored.explanation()
        reasons = scored.reasons
        out = []
        for key, value in scored.values.items():
            lead = (f"{METRICS[key].label} undefined: {escape_md(reasons[key])}" if value is None
                    else scored.summary([key]))
            out.append(Feedback(name=key, value=value, rationale=f"{lead}\n\n{claims}", source=source,
                                metadata={"evidence_mode": str(scored.row.get("evidence_mode") or ""),
                                          "backend": harness.backend.info.name}))
        return out

    # our own deadline (RECORD_TIMEOUT, recorded as the record's error) comes before MLflow's
    return scorer(vital, name=name, timeout=RECORD_TIMEOUT + 60)
