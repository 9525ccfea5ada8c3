"""One step vocabulary, published by the pipeline (``vital_core.scoring.steps``): per-step backends, the results'
``backend.steps``, the prompts' marker lines and the app's progress all read it."""
from __future__ import annotations

from vital_core.backends.base import Backend
from vital_core.backends.offline import OfflineBackend
from vital_core.backends.openai import prompts
from vital_core.backends.per_step import PerStepBackend
from vital_core.scoring import steps


def test_every_step_is_a_method_of_the_backend_interface():
    assert steps.STEPS == tuple(steps.BACKEND_METHODS)
    for step, method in steps.BACKEND_METHODS.items():
        assert callable(getattr(Backend, method, None)), (step, method)
    assert set(steps.OWN_BACKEND_STEPS) <= set(steps.STEPS)


def test_results_record_each_step_by_its_name():
    backend = PerStepBackend(OfflineBackend(), verify=OfflineBackend())
    assert tuple(backend.info.steps) == steps.STEPS


def test_prompt_names_are_step_names():
    marked = {p.step for p in (prompts.DECOMPOSE_PROMPT, prompts.RANK_PROMPT, prompts.VERIFY_PROMPT,
                               prompts.NUGGETS_CREATE_PROMPT, prompts.NUGGETS_LABEL_PROMPT, prompts.ASSIGN_PROMPT,
                               *prompts.PERTURB_PROMPTS.values())}
    # each prompt is named by its step; the nuggets step asks twice (create, label)
    assert {name.split("_")[0] for name in marked} == set(steps.STEPS)
    assert marked - set(steps.STEPS) == {f"{steps.NUGGETS}_create", f"{steps.NUGGETS}_label"}
