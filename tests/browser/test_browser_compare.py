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
