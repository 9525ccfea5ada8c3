"""Real browser: Compare tells the story on a bundled demo on which it holds (headless Chromium through
Playwright against `streamlit run app.py`, the server of tests/browser/test_browser.py). The screenshot is saved
as artifacts/screenshots/compare-story.png for a person to look at."""
from __future__ import annotations

import re

import pytest

# The server (and the data folder it is allowed to read), page helpers and the skip without Chromium.
from tests.support.browser import no_error_on_page, settle, shot
from tests.support.demo_story import demo_results, story_demo

pytestmark = pytest.mark.browser

WRONG_LINE = re.compile(r"^wrong: FactScore precision")
# FactScore barely moved; VITAL precision or RLP noticed (the words of vital_core.analysis.story.REACTIONS).
STORY = re.compile(r"^wrong: FactScore precision \d\.\d\d \u2192 \d\.\d\d \([\u2212+]\d\.\d\d\): barely moved; .*"
                   r"\b(VITAL precision|RLP)\b [^;]*: noticed")


def test_compare_headline_says_factscore_barely_moved_and_vital_noticed(server, page):  # noqa: F811
    demo = story_demo()
    page.goto(f"{server}/compare?example={demo}")
    page.get_by_text("Which metrics noticed the damage?").wait_for()
    settle(page, 1000)
    no_error_on_page(page)
    line = page.locator("li").filter(has_text=WRONG_LINE)
    assert line.count() == 1, "one headline sentence for the wrong variant"
    text = line.inner_text().strip()
    assert STORY.search(text), text
    assert page.locator("li").filter(has_text=re.compile(r"^missing: FactScore precision")).count() == 1
    # the sentence sits above the full per-metric table, which stays
    table = page.locator("[data-testid='stDataFrame']").filter(has=page.locator("th", has_text="Δ wrong"))
    table.scroll_into_view_if_needed()
    assert table.count() == 1 and table.bounding_box()["y"] > line.bounding_box()["y"]
    assert page.get_by_text("Checked against:").count() == 1
    assert page.get_by_text(demo_results()[demo].query, exact=False).count() >= 1
    shot(page, "compare-story")


OWN_QUERY = "How many men did the Endurance carry?"
# the key fact sits in a sentence with a partitive relative clause; the evidence states it in fewer words
OWN_ANSWER = ("The Endurance was a three-masted ship built in Norway for polar tourism. "
              "Ernest Shackleton bought her for his expedition across Antarctica. "
              "The Endurance carried 28 men, about half of whom were seamen who had sailed in polar waters before. "
              "The ship was trapped in the ice of the Weddell Sea and slowly crushed. "
              "All of the men survived after a long journey in open boats.")
OWN_EVIDENCE = ("The Endurance carried 28 men when she left South Georgia in December 1914. Pack ice closed around "
                "the ship in the Weddell Sea a few weeks later.")


def test_compare_on_your_own_text_notices_the_generated_wrong_value(server, page):  # noqa: F811
    """A user's own answer and evidence, the wrong variant generated offline (one value changed): a VITAL
    metric notices it."""
    page.goto(f"{server}/compare")
    settle(page)
    inputs = page.get_by_text("Inputs: demo example, query, responses, evidence", exact=False).first
    if not page.get_by_label("Normal response").is_visible():   # folded while a demo's result is on show
        inputs.click()
    page.get_by_label("Query").fill(OWN_QUERY)
    page.get_by_label("Normal response").fill(OWN_ANSWER)
    page.get_by_label("Normal response").press("Tab")
    settle(page)
    page.get_by_role("button", name="Generate missing and wrong from the normal response").click()
    page.get_by_text("Generated the missing and wrong variants", exact=False).wait_for(timeout=90_000)
    settle(page)
    wrong = page.get_by_label("Wrong variant (key answer replaced)").input_value()
    assert wrong != OWN_ANSWER and "28 men" not in wrong, "the generated wrong variant changes the number"
    page.get_by_label("Evidence documents", exact=False).fill(OWN_EVIDENCE)
    page.get_by_label("Reference answer (optional)").fill("")
    page.get_by_role("button", name="Score all variants").click()
    page.get_by_text("Which metrics noticed the damage?").wait_for(timeout=120_000)
    settle(page, 1000)
    no_error_on_page(page)
    line = page.locator("li").filter(has_text=WRONG_LINE)
    assert line.count() == 1, "one headline sentence for the wrong variant"
    text = line.inner_text().strip()
    assert re.search(r"\b(VITAL precision|RLP)\b[^;]*: noticed", text), text
    shot(page, "compare-own-text")
