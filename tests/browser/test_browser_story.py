"""Real browser: the demo lands in the first screen. On every bundled demo, /compare at 1440x900 shows the
headline strip in the first viewport; Present mode is readable at 1280x720; the one-page HTML report opens
with the network off and shows hostile text as text.

Screenshots go to artifacts/screenshots/ (git-ignored); with VITAL_DOC_IMAGES=1 the ones the docs show are
written to docs/images/ instead."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from explorer.logic.whatif import EDITABLE, EDITOR_COLUMNS
from tests.support.app_helpers import hostile_results_file

# The server (and the data folder it is allowed to read), page helpers and the skip without Chromium.
from tests.support.browser import SHOTS, no_error_on_page, settle
from tests.support.demo_story import demo_inputs, demo_results, stories
from tests.support.paths import REPO
from vital_core.analysis import story

pytestmark = pytest.mark.browser

DOC_IMAGES = REPO / "docs" / "images"
# The story holds on at least this many of the 12 bundled demos (11 with the offline backend at the end of 2026-11-26).
STORY_AT_LEAST = 11


def _folder():
    return DOC_IMAGES if os.environ.get("VITAL_DOC_IMAGES") else SHOTS


def viewport_shot(page, name: str) -> None:
    """What a person sees on opening the page: the first viewport only."""
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


def _open(browser, width: int, height: int):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    pg.set_default_timeout(90_000)
    pg.outside_requests = []
    pg.on("request", lambda r: None if r.url.startswith(("http://127.0.0.1", "data:", "blob:"))
          else pg.outside_requests.append(r.url))
    return context, pg


def _reactions(card) -> dict[str, str]:
    moves = card.locator(".vx-move")
    return {moves.nth(i).get_attribute("data-metric"): moves.nth(i).get_attribute("data-reaction")
            for i in range(moves.count())}


def test_every_demo_leads_with_the_story_in_the_first_viewport(server, browser):  # noqa: F811
    context, page = _open(browser, 1440, 900)
    held = []
    try:
        for demo in demo_inputs():
            page.goto(f"{server}/compare?example={demo}")
            strip = page.locator(".vx-strip")
            strip.wait_for()
            settle(page, 300)
            no_error_on_page(page)
            box = strip.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 900, f"{demo}: strip at {box}, not in 1440x900"
            wrong = _reactions(page.locator(".vx-strip-card[data-variant='wrong']"))
            missing = _reactions(page.locator(".vx-strip-card[data-variant='missing']"))
            assert missing["factscore_precision"] == story.BY_DESIGN, demo
            if wrong["factscore_precision"] == story.BARELY and story.NOTICED in (wrong["vital_precision"],
                                                                                    wrong["rlp"]):
                held.append(demo)
            if os.environ.get("VITAL_DOC_IMAGES") or demo == next(iter(demo_inputs())):
                viewport_shot(page, f"compare-{demo}")
    finally:
        context.close()
    expected = sorted(i for i, judged in stories().items() if judged["wrong_ok"])
    assert sorted(held) == expected, "the strip says what the story's rule (vital_core.analysis.story) says"
    print(f"story holds on {len(held)} of {len(demo_inputs())} demos: {held}")
    assert len(held) >= STORY_AT_LEAST, held
    assert not page.outside_requests, page.outside_requests[:5]


def test_present_mode_is_readable_on_a_projector(server, browser):  # noqa: F811
    context, page = _open(browser, 1280, 720)
    demos = list(demo_inputs())
    try:
        page.goto(f"{server}/compare?example={demos[0]}")     # the button opens Present mode
        page.locator(".vx-strip").wait_for()
        settle(page, 300)
        page.get_by_role("button", name="Present").click()
        page.wait_for_url("**present=1**")
        page.locator(".vx-present-query").wait_for()
        page.goto(f"{server}/compare?example={demos[0]}&present=1")
        page.locator(".vx-strip").wait_for()
        page.locator(".js-plotly-plot").first.wait_for()
        settle(page, 800)
        no_error_on_page(page)
        assert page.locator("[data-testid='stSidebar']").is_hidden(), "nothing but the story"
        query = page.locator(".vx-present-query")
        assert float(query.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 28
        strip = page.locator(".vx-strip")
        assert float(strip.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 20
        assert strip.bounding_box()["width"] <= 1280
        assert page.locator("ins, del").count() >= 1, "the key change is marked in the texts"
        viewport_shot(page, "present")
        page.get_by_role("button", name="Next \u25b6").click()
        page.wait_for_url(f"**example={demos[1]}**")
        page.get_by_text(demo_results()[demos[1]].query).first.wait_for()
        settle(page, 500)
        no_error_on_page(page)
    finally:
        context.close()
    assert not page.outside_requests, page.outside_requests[:5]


def test_the_report_opens_with_the_network_off_and_shows_hostile_text_as_text(browser, tmp_path):  # noqa: F811
    from explorer.logic.report_html import example_report
    from vital_core.results.model import ExampleResult

    example = ExampleResult.from_dict(json.loads(hostile_results_file(tmp_path).read_text().splitlines()[0]))
    report = tmp_path / "report.html"
    report.write_text(example_report(example), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=True,
                                  java_script_enabled=False)
    page = context.new_page()
    tried = []
    page.on("request", lambda r: None if r.url.startswith("file://") else tried.append(r.url))
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(report.as_uri())
        page.wait_for_timeout(500)
        assert not tried and not dialogs, (tried, dialogs)
        assert page.locator("img").count() == 0 and page.locator("a[href]").count() == 0
        text = page.locator("body").inner_text()
        assert "<img src=http://evil.example/query-html.png onerror=alert(1)>" in text
        assert page.locator(".vx-claim").count() >= 2 and page.locator(".vx-strip").count() == 1
        folder = _folder()
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / "report-hostile.png"))
    finally:
        context.close()


def test_the_demo_report_renders_offline(browser, tmp_path):  # noqa: F811
    from explorer.logic.report_html import example_report

    demo = next(iter(demo_results()))
    report = tmp_path / "demo.html"
    report.write_text(example_report(demo_results()[demo]), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=True, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(report.as_uri())
        assert page.locator(".vx-strip-card").count() == 2
        assert page.locator("details.vx-claim[open]").count() == sum(len(v.subclaims) for v in
                                                                    demo_results()[demo].variants.values())
        folder = _folder()
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / "report.png"))
    finally:
        context.close()


# Each page (and Present mode), its URL and what is on screen once it has finished drawing.
PAGES = {"score": ("score", "text=Download result"), "compare": ("compare", ".vx-strip"),
         "explore": ("explore", "text=Nuggets and their support"),
         "sensitivity": ("sensitivity", "text=Decay-weighted precision and recall"),
         "agreement": ("agreement", "text=Annotate: your own labels"),
         "present": ("compare?present=1", ".vx-present-query")}
# Nothing sticks out of the screen, and no badge, card, row or note overflows its own box: its text wraps
# inside it (scrollWidth <= clientWidth).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const boxes = [...document.querySelectorAll(
    '.vx-row, .vx-badge, .vx-tier, .vx-strip-card, .vx-move, .vx-text, .vx-flag-note, .vx-low-note, .vx-key-change,'
    + ' [data-testid="stDataFrame"], [data-testid="stMetric"], [data-testid="stPlotlyChart"]')]
    .filter(e => e.getBoundingClientRect().width > 0);
  const out = boxes.filter(e => e.getBoundingClientRect().right > width + 1)
    .map(e => 'off screen: ' + e.className + ': ' + (e.innerText || '').slice(0, 40));
  out.push(...boxes.filter(e => !e.matches('[data-testid="stDataFrame"], [data-testid="stPlotlyChart"]'))
    .filter(e => e.scrollWidth > e.clientWidth + 1)
    .map(e => 'overflows its box: ' + e.className + ': ' + (e.innerText || '').slice(0, 40)));
  // a chart's title stays inside the chart and its legend does not cover it
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const box = plot.getBoundingClientRect();
    const title = plot.querySelector('.gtitle'), legend = plot.querySelector('.legend');
    if (!title || box.width === 0) continue;
    const t = title.getBoundingClientRect();
    if (t.right > box.right + 1 || t.left < box.left - 1)
      out.push('chart title cut: ' + title.textContent.slice(0, 40));
    if (legend) {
      const l = legend.getBoundingClientRect();
      if (l.left < t.right && t.left < l.right && l.top < t.bottom && t.top < l.bottom)
        out.push('legend covers the chart title: ' + title.textContent.slice(0, 40));
    }
  }
  const main = document.querySelector('[data-testid="stMain"]');
  if (main && main.scrollWidth > main.clientWidth + 1) out.push('page scrolls sideways: ' + main.scrollWidth);
  return out;
}"""
# At 1440 px no table is cut: every grid shows all its columns (scrollWidth <= clientWidth of its scroller),
# except Explore's results table (the one with a query column), which scrolls on purpose, its key columns
# pinned. At 390 px a wide grid scrolls inside its own box, which stays on screen (OVERFLOW).
CUT_TABLES = """() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
  .filter(t => t.getBoundingClientRect().width > 0)
  .map(t => [t.querySelector('.dvn-scroller'), [...t.querySelectorAll('th')].map(h => h.innerText.trim())])
  .filter(([s, heads]) => s && !heads.includes('query') && s.scrollWidth > s.clientWidth + 1)
  .map(([, heads]) => heads.join('|'))"""
# What-if at a phone's width: the grid draws the columns at the widths the page gives them
# (explorer.logic.whatif.EDITOR_COLUMNS), and the rank and the two editable columns fit in its visible width.
WHATIF_GRID = """() => {
  const grid = [...document.querySelectorAll('[data-testid="stDataFrame"]')]
    .find(t => [...t.querySelectorAll('th')].some(h => h.innerText.trim() === 'Verdict'));
  const scroller = grid && grid.querySelector('.dvn-scroller');
  return scroller ? {visible: scroller.clientWidth, total: scroller.scrollWidth,
                     heads: [...grid.querySelectorAll('th')].map(h => h.innerText.trim())} : null;
}"""


# Buttons a person must be able to press: nothing (the app's header on a phone) lies over their middle.
COVERED_BUTTONS = """() => [...document.querySelectorAll('[data-testid="stMain"] button')]
  .filter(b => b.innerText.trim() && b.getBoundingClientRect().width > 0 && b.getBoundingClientRect().top >= 0
               && b.getBoundingClientRect().bottom <= window.innerHeight)
  .filter(b => { const r = b.getBoundingClientRect();
                 const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                 return !(hit && (b === hit || b.contains(hit))); })
  .map(b => b.innerText.trim())"""


def _scroll_through(page) -> None:
    """Scroll the page from top to bottom so that every lazily drawn table is laid out, then back up."""
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    for y in range(0, int(height), 700):
        page.evaluate(f"() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, {y})")
        page.wait_for_timeout(120)
    page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")


@pytest.mark.parametrize("width, height", [(1440, 900), (390, 844)])
def test_every_page_fits_the_screen(server, browser, width, height):  # noqa: F811
    context, page = _open(browser, width, height)
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for name, (path, ready) in PAGES.items():
            page.goto(f"{server}/{path}")
            page.locator(ready).first.wait_for()
            settle(page, 1200)
            no_error_on_page(page)
            assert page.evaluate(COVERED_BUTTONS) == [], (name, width, "a button in the first screen is covered")
            _scroll_through(page)
            assert page.evaluate(OVERFLOW) == [], (name, width)
            if width == 1440:
                assert page.evaluate(CUT_TABLES) == [], (name, "a table is cut at 1440 px")
            if name == "score":
                page.get_by_role("heading", name="What-if").scroll_into_view_if_needed()   # a grid draws in view
                page.wait_for_timeout(800)
                grid = page.evaluate(WHATIF_GRID)
                assert grid["heads"][:3] == ["Rank", "Importance", "Verdict"], grid
                assert grid["total"] >= sum(EDITOR_COLUMNS.values()), grid    # the widths are honoured
                first = sum(EDITOR_COLUMNS[c] for c in ("rank",) + EDITABLE)
                assert first <= grid["visible"], (width, grid, "What-if's editable columns are off screen")
            size = page.viewport_size
            full = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
            page.set_viewport_size({"width": width, "height": min(int(full) + 40, 9000)})
            page.wait_for_timeout(700)
            page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
            page.set_viewport_size(size)
    finally:
        context.close()
    assert not page.outside_requests, page.outside_requests[:5]


def test_the_report_downloads_from_compare(server, browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(90_000)
    demo = next(iter(demo_inputs()))
    try:
        page.goto(f"{server}/compare?example={demo}")
        page.locator(".vx-strip").wait_for()
        settle(page, 300)
        button = page.get_by_role("button", name="Download one-page report (HTML)")
        button.scroll_into_view_if_needed()
        with page.expect_download() as info:
            button.click()
        body = Path(info.value.path()).read_text(encoding="utf-8")
        assert body.startswith("<!DOCTYPE html>") and 'class="vx-strip"' in body
        assert info.value.suggested_filename == f"vital-report-{demo}.html"
    finally:
        context.close()
