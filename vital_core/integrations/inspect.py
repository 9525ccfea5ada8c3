"""A VITAL scorer for Inspect (``pip install vital-explorer[inspect]``)::

    from vital_core.integrations.inspect import vital_scorer
    Task(dataset=..., solver=generate(), scorer=vital_scorer(backend="offline"))

Each sample's output (``state.output.completion``) is scored for its input (``state.input_text``)
against the sample's documents (``metadata["documents"]``: strings or objects with "text") and/or its
target as the reference answer, the way ``vital_core.evaluate`` scores it (``integrations.harness``).

* The Score's value is a dict of the chosen metrics (flags as 1.0 / 0.0). A metric with nothing to
  measure is NaN in that dict, Inspect's "unscored" for that key (left out of its mean and counted as
  unscored), and its reason is in the explanation and in ``metadata["undefined"]``; when none of the
  chosen metrics is defined the whole Score is ``Score.unscored(reason=...)``. Never 0.
* The explanation lists the vital subclaims with their verdicts and reasons (markdown, escaped); the
  metadata holds the full result (``metadata["result"]``, the project's results record).
* Mean and standard error of every key are registered, so ``inspect eval`` prints them.
* One backend serves every sample of the task: the openai backend's cache and its concurrency are shared.
"""
from __future__ import annotations

import math
from typing import Any, Iterable

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from vital_core.integrations.harness import HarnessScorer

DOCUMENTS_KEY = "documents"   # where a sample keeps its evidence documents (``Sample(metadata=...)``)


def _no_key_argument(settings: dict) -> None:
    # Inspect writes a scorer's arguments into its log: a key given here would be written there.
    if "api_key" in settings:
        raise ValueError("vital_scorer takes no api_key (Inspect writes scorer arguments into its log): "
                         "set OPENAI_API_KEY in the environment instead")


@scorer(metrics={"*": [mean(), stderr()]})
def vital_scorer(backend: str = "offline", evidence: str = "both", metrics: Iterable[str] | None = None,
                 documents_key: str = DOCUMENTS_KEY, concurrency: int = 8, **settings: Any) -> Scorer:
    """Score each sample's output with VITAL metrics.

    Args:
        backend: "offline" (no key, no network) or "openai" (any OpenAI-compatible endpoint; the key
            comes from OPENAI_API_KEY, ``settings`` such as ``base_url``, ``model``, ``cache_dir`` go to it).
        evidence: "both" (whatever the sample has), "documents" (metadata only) or "reference" (target only).
        metrics: metric keys (default: factscore_precision, vital_precision, rlp, vital_recall, rlr).
        documents_key: the metadata key holding the sample's documents.
        concurrency: samples scored at once by this scorer.
    """
    _no_key_argument(settings)
    if not isinstance(backend, str):
        raise ValueError("backend must be a name (\"offline\" or \"openai\"): Inspect records scorer "
                         "arguments in its log, so pass the backend's settings as arguments instead")
    harness = HarnessScorer(backend, metrics=metrics, evidence=evidence, concurrency=concurrency,
                            **settings)

    async def score(state: TaskState, target: Target) -> Score:
        record = harness.record(sample_id=state.sample_id, query=state.input_text,
                                response=state.output.completion,
                                documents=(state.metadata or {}).get(documents_key),
                                reference=target.text or None)
        scored = await harness.score_async(record, source="Inspect sample")
        values = scored.values
        explanation = scored.explanation()
        metadata = scored.metadata()
        if all(v is None for v in values.values()):
            return Score.unscored(reason=scored.reasons_text(), answer=state.output.completion,
                                  explanation=explanation, metadata=metadata)
        return Score(value={k: (math.nan if v is None else v) for k, v in values.items()},
                     answer=state.output.completion, explanation=explanation, metadata=metadata)

    return score
