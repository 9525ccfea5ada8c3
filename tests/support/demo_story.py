"""The bundled demos as the tests need them: their inputs, and a demo on which the story holds, chosen
from the results as they are (the demo results are regenerated whenever the offline backend changes, so
tests check properties of a demo chosen because it has them, never one demo's numbers)."""
from __future__ import annotations

import json

from explorer.logic.damage import variant_metrics
from explorer.paths import DEMO_INPUT, DEMO_RESULTS
from vital_core.analysis.story import judge_story
from vital_core.results.model import ExampleResult


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def demo_inputs() -> dict[str, dict]:
    return {record["id"]: record for record in _lines(DEMO_INPUT)}


def demo_results() -> dict[str, ExampleResult]:
    return {record["id"]: ExampleResult.from_dict(record) for record in _lines(DEMO_RESULTS)}


def stories() -> dict[str, dict]:
    """``vital_core.analysis.story.judge_story`` of every bundled demo result."""
    return {i: judge_story(variant_metrics(example)) for i, example in demo_results().items()}


def story_demo(story: str = "wrong_ok") -> str:
    """The first demo on which ``story`` holds; an AssertionError when none does (the demos are there to
    show it, so that is a failure of the demos or the backend, not of the test)."""
    holding = [i for i, judged in stories().items() if judged[story]]
    assert holding, f"no bundled demo shows the {story} story: see python -m bench.bench_story"
    return holding[0]
