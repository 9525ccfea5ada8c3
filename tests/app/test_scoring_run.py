"""The scoring run Score and Compare share (explorer.widgets.scoring_run over explorer.logic.background):
the run on its own thread, its cancellation, and the same status box on both pages."""
from __future__ import annotations

import asyncio
import threading
import time

from explorer.logic.background import BackgroundRun
from tests.support.app_helpers import assert_clean, open_page
from tests.support.paths import REPO


def test_a_background_run_returns_its_result_from_another_thread_and_closes_its_loop():
    async def where():
        await asyncio.sleep(0)
        return threading.current_thread().name

    run = BackgroundRun(where())
    assert run.future.result(timeout=10) == "vital-scoring"
    run.thread.join(timeout=10)
    assert run.loop.is_closed()


def test_cancelling_a_background_run_stops_it_at_its_next_step():
    steps = []

    async def long():
        for i in range(100):
            steps.append(i)
            await asyncio.sleep(0.05)

    run = BackgroundRun(long())
    time.sleep(0.2)
    run.future.cancel()
    run.thread.join(timeout=10)
    assert not run.thread.is_alive() and len(steps) < 100


def test_no_page_runs_the_pipeline_or_draws_progress_itself():
    for page in sorted((REPO / "pages").glob("*.py")):
        code = page.read_text(encoding="utf-8")
        for own in ("score_example(", "st.status(", ".progress(", "BackgroundRun", "threading"):
            assert own not in code, f"{page.name} has its own scoring run ({own}); use explorer.widgets.scoring_run"


def test_compare_shows_the_same_step_by_step_progress_as_score():
    at = open_page("compare")
    at.text_input(key="cmp_query").set_value("When did the Berlin Wall fall?")
    at.text_area(key="cmp_normal").set_value("The Berlin Wall fell on 9 November 1989.")
    at.text_area(key="cmp_missing").set_value("The Berlin Wall fell.")
    at.text_area(key="cmp_wrong").set_value("The Berlin Wall fell on 9 November 1991.")
    at.text_area(key="cmp_documents").set_value("The Berlin Wall fell on 9 November 1989.")
    at.text_area(key="cmp_reference").set_value("")
    at.button[[b.label for b in at.button].index("Score all variants")].click().run()
    assert_clean(at)
    status = at.status[0]
    assert status.label.startswith("Scored all variants: ") and status.label.endswith(" subclaims")
    bars = status.get("progress")
    assert bars and bars[0].proto.value == 100 and bars[0].proto.text.startswith("done in ")
    steps = [m.value for m in status.markdown]
    assert any("building nuggets" in m for m in steps) and any("verifying" in m for m in steps)
