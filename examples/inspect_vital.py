"""An Inspect task scored with VITAL metrics: the bundled demo queries (data/demo/demo_input.jsonl), each
with its two evidence documents and, when it has one, its reference answer as the target.

    pip install "vital-explorer[inspect]"
    inspect eval examples/inspect_vital.py --model openai/gpt-4o-mini        # score a real model's answers
    inspect eval examples/inspect_vital.py --model mockllm/model -T replay=wrong   # offline, no key

``replay`` (normal, missing or wrong) answers each query with that bundled demo answer instead of asking
the model, so the whole run needs no key and no network: compare ``-T replay=normal`` with
``-T replay=wrong`` to see VITAL precision fall and RLP rise while FactScore precision barely moves.
``-T backend=openai`` scores with an OpenAI-compatible endpoint instead (key from OPENAI_API_KEY).
"""
from __future__ import annotations

import json
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from vital_core.integrations.inspect import vital_scorer

DEMO_INPUT = Path(__file__).resolve().parent.parent / "data" / "demo" / "demo_input.jsonl"


def demo_samples(path: Path = DEMO_INPUT, limit: int | None = None) -> list[Sample]:
    """One Sample per demo query: documents in metadata, the reference answer (if any) as the target,
    the bundled answers in metadata["responses"] for ``replay``."""
    samples = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            samples.append(Sample(id=record["id"], input=record["query"], target=record.get("reference") or "",
                                  metadata={"documents": record.get("documents") or [],
                                            "responses": record["responses"]}))
    return samples[:limit]


@solver
def replay_answer(variant: str) -> Solver:
    """Answer with the sample's bundled ``variant`` answer (no model call)."""
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        text = (state.metadata.get("responses") or {}).get(variant)
        if text is None:
            raise ValueError(f"sample {state.sample_id} has no {variant!r} answer to replay")
        state.output = ModelOutput.from_content(model="replay", content=text)
        return state
    return solve


@task
def vital_demo(replay: str | None = None, backend: str = "offline", limit: int | None = None) -> Task:
    return Task(dataset=MemoryDataset(demo_samples(limit=limit), name="vital-demo"),
                solver=replay_answer(replay) if replay else generate(),
                scorer=vital_scorer(backend=backend))
