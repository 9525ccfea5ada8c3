"""A hostile OpenAI-compatible server on 127.0.0.1, one fault kind made persistent on one step at a time:
every record is kept with its error, none is lost or written twice, no failure is scored as a number,
no task exception goes unretrieved (issue 11; the full sweep with figures: bench/bench_bad_inputs.py)."""
from __future__ import annotations

import pytest

from tests.support.hostile_provider import ALL_FAULTS, HOSTILE_FAULTS, STEPS, hostile_run, provider, scored_failures
from vital_core.backends.openai import prompts

# every fault kind once, on a rotating step; decompose (shared with the reference answer) gets every kind too
CASES = sorted({(STEPS[i % len(STEPS)], fault) for i, fault in enumerate(ALL_FAULTS)}
               | {(prompts.DECOMPOSE, fault) for fault in HOSTILE_FAULTS})
# faults the client repairs or the backend absorbs (a retry succeeds, or an id is marked unlabelled)
REPAIRABLE = {"missing_ids", "duplicate_ids", "unknown_label"}


@pytest.fixture(scope="module")
def hostile():
    with provider() as server:
        yield server


@pytest.mark.parametrize("step,fault", CASES, ids=[f"{s}-{f}" for s, f in CASES])
def test_every_record_is_kept_with_its_error_and_never_scored(hostile, tmp_path, step, fault):
    run = hostile_run(hostile, tmp_path, step, fault)
    assert run.ids_out == run.ids_in                       # nothing lost, nothing written twice
    assert scored_failures(run.frame) == 0                 # no failure scored as a number
    assert run.unretrieved == []                           # no "Task exception was never retrieved"
    failed = run.frame[run.frame["error"].notna()]
    if fault not in REPAIRABLE:
        assert len(failed) > 0, f"a persistent {fault} on {step} must fail some responses"
    for error in failed["error"]:
        assert step.split("_")[0] in error or "nuggets" in error or "--record-timeout" in error, error


def test_a_day_long_retry_after_is_cut_by_the_record_deadline(hostile, tmp_path):
    # with the default cap a wait is at most two minutes (never a day); the record deadline cuts even that
    run = hostile_run(hostile, tmp_path, prompts.VERIFY, "huge_retry_after", record_timeout=1.5,
                      retry_after_max=120.0)
    assert run.ids_out == run.ids_in and scored_failures(run.frame) == 0
    assert run.elapsed < 15
    assert all("--record-timeout" in line["error"] for line in run.lines)
