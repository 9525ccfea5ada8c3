"""The scoring run Score and Compare share: the pipeline on a thread of its own while a status box shows
each step as it starts, a bar of the steps started out of those expected and the seconds so far; then the
outcome in the box's label (how many subclaims, or which response failed and why)."""
from __future__ import annotations

import queue
import time

import streamlit as st

from explorer.logic import long_runs
from explorer.logic.background import BackgroundRun
from explorer.logic.formatting import escape_md
from explorer.widgets.backend_panel import scoring_run
from vital_core.results.model import EVIDENCE_NORMAL, ExampleResult
from vital_core.scoring.pipeline import choose_evidence, progress_messages, score_example

POLL_SECONDS = 0.25   # how often the box looks for a new step


def _run_with_progress(status, backend, make_coro, total_steps: int):
    """Run ``make_coro(on_step)`` with ``backend`` and return its result, writing each step into ``status``.
    If the page stops (the person clicked elsewhere), the run is cancelled at its next step."""
    steps: queue.SimpleQueue[str] = queue.SimpleQueue()   # on_step runs on the scoring thread
    run = BackgroundRun(scoring_run(backend, make_coro(steps.put)))
    bar = status.progress(0.0, text="starting")
    started, last, began = 0, "", time.monotonic()
    try:
        while True:
            finished = run.future.done()
            while not steps.empty():
                last = steps.get()
                started += 1
                status.write(escape_md(last))
            if finished:
                break
            bar.progress(*long_runs.progress(started, total_steps, escape_md(last), time.monotonic() - began))
            time.sleep(POLL_SECONDS)
    except BaseException:
        run.future.cancel()
        raise
    bar.progress(1.0, text=f"done in {time.monotonic() - began:.0f} s")
    return run.future.result()


def score_with_progress(backend, *, example_id: str, query: str, responses: dict[str, str], documents,
                        reference: str | None) -> ExampleResult:
    """Score ``responses`` (variant -> text) of one query with ``backend`` in a status box; returns the
    result, whose failed responses the box's label names with their reasons."""
    against_normal = choose_evidence(documents, reference, responses).mode == EVIDENCE_NORMAL
    total = progress_messages(len(responses), bool(documents), bool(reference), against_normal)
    single = len(responses) == 1
    label = f"Scoring{'' if single else f' {len(responses)} variants'} with the {backend.info.name} backend…"
    with st.status(label, expanded=True) as status:
        result = _run_with_progress(status, backend, lambda on_step: score_example(
            backend, example_id=example_id, query=query, responses=responses, documents=documents,
            reference=reference, on_step=on_step), total)
        failed = {name: v.error for name, v in result.variants.items() if v.error}
        if failed and single:
            status.update(label=f"Scoring failed: {escape_md(next(iter(failed.values())))}", state="error")
        elif failed:
            status.update(label="Some variants failed: " + "; ".join(f"{escape_md(k)}: {escape_md(e)}"
                                                                     for k, e in failed.items()), state="error")
        else:
            n = sum(len(v.subclaims) for v in result.variants.values())
            done = f"Scored: {n} subclaims" if single else f"Scored all variants: {n} subclaims"
            status.update(label=done, state="complete", expanded=False)
    return result
