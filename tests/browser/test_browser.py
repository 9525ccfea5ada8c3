"""Real-browser tests: headless Chromium (Playwright) against `streamlit run app.py`.

Each flow saves a full-page screenshot under artifacts/screenshots/ (git-ignored)
for a person to look at. Skipped with a reason when /usr/bin/chromium is missing.
"""
from __future__ import annotations

import re

import pytest

from tests.support.browser import no_error_on_page, reference_data, settle, shot

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

HEADER_HEIGHT = 35       # a Streamlit table's header row, in pixels
XSS_RESPONSE = ("The answer is <script>alert(1)</script> and also <img src=x onerror=alert(1)> "
                "which must show as plain text.")


# First on purpose: a shared link must work as the very first request to a fresh server.
def test_explore_reference_folder_by_path_as_first_request(server, page):
    reference = reference_data() / "gpt-4o"
    page.goto(f"{server}/explore?dataset={reference}&example=gpt-4o/7&condition=wrong")
    page.get_by_text("50 examples, 150 responses").wait_for()
    settle(page)
    no_error_on_page(page)
    # a shared link as the server's very first request still gets the app's shell
    assert page.get_by_text("Scoring backend").count() == 1
    sidebar = page.locator("[data-testid='stSidebar']")
    # count() does not wait: on a loaded machine the sidebar's links are drawn after the page's text
    sidebar.get_by_role("link", name="Compare variants").wait_for(timeout=30_000)
    assert sidebar.get_by_role("link", name="Compare variants").count() == 1
    # Streamlit's built-in page list (labelled by file name) stays hidden
    assert page.locator("[data-testid='stSidebarNav']").count() == 0
    assert page.get_by_text("Example gpt-4o/7").count() == 1
    page.locator(".vx-row").nth(9).wait_for()     # the three variants' subclaim lists are drawn last
    shot(page, "explore")
    # the shell's links work after a deep link: Compare opens with the same sidebar
    sidebar.get_by_role("link", name="Compare variants").click()
    page.wait_for_url("**/compare**")
    page.get_by_role("heading", name="Compare variants").wait_for()
    settle(page)
    no_error_on_page(page)
    assert page.get_by_text("Scoring backend").count() == 1


def test_score_flow_offline(server, page):
    # Score is the default page: its URL is the root. demo-07 is open-ended with documents but no
    # reference answer, so factual correctness is undefined and must say why.
    page.goto(f"{server}/?example=demo-07")
    page.get_by_text("Active: offline backend").first.wait_for()
    settle(page)
    page.get_by_role("button", name="Score", exact=True).click()
    page.get_by_text("Scored:").first.wait_for()
    settle(page)
    no_error_on_page(page)
    assert page.get_by_text("scored just now by the offline backend").count() == 1
    assert page.locator(".vx-row").count() >= 3, "coloured subclaim rows"
    assert page.get_by_text("VITAL precision").count() >= 1
    assert page.get_by_text("Undefined — needs a reference answer").count() >= 1, "an undefined metric says why"
    # a row opens to show the verdict's reason
    page.locator("details.vx-claim summary").first.click()
    page.locator("details.vx-claim[open]").get_by_text("Reason:").first.wait_for()
    shot(page, "score")


def test_compare_flow_generates_and_scores(server, page):
    page.goto(f"{server}/compare?example=demo-02")
    settle(page)
    # with a result on show the inputs are folded away: one click brings them back
    page.get_by_text("Inputs: demo example, query, responses, evidence").click()
    page.get_by_role("button", name="Generate missing and wrong from the normal response").click()
    page.get_by_text("Generated the missing and wrong variants").wait_for()
    settle(page)
    page.get_by_role("button", name="Score all variants").click()
    page.get_by_text("Scored all variants").first.wait_for()
    settle(page, 1000)
    no_error_on_page(page)
    assert page.get_by_text("Which metrics noticed the damage?").count() == 1
    assert page.locator("ins").count() >= 1, "text differences from normal are highlighted"
    assert page.locator(".js-plotly-plot").count() >= 1
    shot(page, "compare")


def test_sensitivity_charts_render(server, page):
    page.goto(f"{server}/sensitivity")
    page.get_by_text("Decay-weighted precision and recall").wait_for()
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length >= 5", timeout=60_000)
    settle(page, 1000)
    no_error_on_page(page)
    assert page.locator(".js-plotly-plot").count() >= 5
    assert page.locator(".modebar-btn[data-title='Download plot as a png']").count() >= 1 or \
        page.locator(".modebar").count() >= 1
    shot(page, "sensitivity")


def test_agreement_page_renders(server, page):
    reference_data()
    page.goto(f"{server}/agreement")
    page.get_by_text("Cohen's κ (linear)").wait_for()
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length >= 1", timeout=60_000)
    settle(page, 1000)
    no_error_on_page(page)
    assert page.get_by_text("Annotate: your own labels").count() == 1
    shot(page, "agreement")


def test_xss_text_is_shown_literally(server, page):
    page.goto(f"{server}/")
    settle(page)
    page.get_by_label("Query").fill("What does <b>this</b> page show?")
    page.get_by_label("Response to score").fill(XSS_RESPONSE)
    page.get_by_label("Evidence documents", exact=False).fill("<img src=x onerror=alert(2)> evidence text")
    page.get_by_role("button", name="Score", exact=True).click()
    page.get_by_text("Scored:").first.wait_for()
    settle(page, 1000)
    no_error_on_page(page)
    assert page.dialogs == [], f"a dialog fired: {page.dialogs}"
    assert page.evaluate("() => document.querySelectorAll('.vx-row img, .vx-row script').length") == 0
    assert page.locator(".vx-row").filter(has_text="<script>alert(1)</script>").count() >= 1 or \
        page.locator(".vx-row").filter(has_text="<img src=x onerror=alert(1)>").count() >= 1
    shot(page, "xss")


def test_markdown_in_a_results_file_fetches_nothing(server, page, hostile_dir):
    """Images, links and HTML in every text field of a results file stay text: Chromium fetches nothing
    outside this machine (checked by the page fixture) and no dialog fires."""
    path = hostile_dir / "hostile.jsonl"
    page.goto(f"{server}/explore?dataset={path}")
    page.get_by_text("1 examples, 3 responses").wait_for()
    page.locator(".vx-row").first.wait_for()
    settle(page, 1000)
    no_error_on_page(page)
    page.get_by_text("Evidence (1 document(s)", exact=False).click()
    page.locator("details.vx-claim summary").first.click()
    settle(page, 1000)
    assert page.get_by_text("![x](http://evil.example/id.png)", exact=False).count() >= 1, "the id shows as text"
    shot(page, "explore-markdown")
    page.goto(f"{server}/sensitivity?dataset={path}")
    page.get_by_text("Per-condition means").wait_for()
    settle(page, 1000)
    page.get_by_text("Split by query type").click()
    settle(page, 1000)
    no_error_on_page(page)
    assert page.dialogs == [], f"a dialog fired: {page.dialogs}"
    assert page.evaluate("() => document.querySelectorAll('[data-testid=stMain] img').length") == 0
    shot(page, "sensitivity-markdown")


def _pick_in_last_column(page, grid, row: int, option: str, row_height: int) -> None:
    """Open the select editor of the last column's cell in ``row`` (0-based) and pick ``option``.

    The grid is a canvas: a click lands on a cell only once it is laid out, so the click is tried
    again (up to three times) until the editor's options show."""
    def open_editor(attempt: int) -> None:
        grid.wait_for()
        grid.scroll_into_view_if_needed()
        page.wait_for_timeout(500 + 500 * attempt)
        box = grid.bounding_box()
        page.mouse.click(box["x"] + box["width"] - 40, box["y"] + HEADER_HEIGHT + row_height * row + row_height / 2)
        page.wait_for_timeout(300)
        page.keyboard.press("Enter")

    _pick_once_shown(page, open_editor, page.get_by_role("option", name=option), timeout=5_000)


def _pick_once_shown(page, open_list, option, timeout: int) -> None:
    """Call ``open_list(attempt)`` until ``option`` shows and takes the click (up to four times: a click before
    the page is laid out leaves the list closed, and a rerun that ends after it closes the open list under the
    click); the last try's error is the test's."""
    for attempt in range(4):
        open_list(attempt)
        try:
            option.wait_for(timeout=timeout)
            option.click(timeout=timeout)
            return
        except PlaywrightTimeout:
            if attempt == 3:
                raise
            page.keyboard.press("Escape")


def test_annotate_keeps_every_edit(server, page):
    """Three labels set one after another in Annotate's editor all stay (the second one used to vanish)."""
    reference_data()
    from explorer.widgets.claims import WRAPPED_ROW_HEIGHT
    page.goto(f"{server}/agreement")
    page.get_by_text("Annotate: your own labels").first.wait_for()
    settle(page)
    grid = page.locator("[data-testid='stDataFrame']").last
    grid.scroll_into_view_if_needed()
    labelled = page.locator("[data-testid='stMetric']").filter(has_text="Subclaims you labelled")
    for n, option in enumerate(("★ vital", "● okay", "○ less important"), start=1):
        _pick_in_last_column(page, grid, n - 1, option, WRAPPED_ROW_HEIGHT)
        labelled.filter(has_text=f"{n} / ").wait_for(timeout=30_000)
        settle(page)
    cells = [grid.locator(f"[data-testid='glide-cell-3-{row}']").inner_text() for row in range(4)]
    assert [c.strip() for c in cells[:3]] == ["vital", "okay", "less-important"], cells
    assert "None" not in cells[3]
    no_error_on_page(page)
    shot(page, "agreement-annotate")


def visible_columns(page, header: str) -> list[str]:
    """The header texts of the columns a table draws on screen (its accessibility rows hold only the
    columns in view), for the table that shows a column named ``header``."""
    grid = page.locator("[data-testid='stDataFrame']").filter(
        has=page.locator("th", has_text=re.compile(f"^{re.escape(header)}$")))
    grid.first.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    return grid.first.locator("th").all_inner_texts()


def fully_visible(columns: list[str], wanted: list[str]) -> list[str]:
    """The wanted columns that are missing from view or only partly in it (the last column drawn)."""
    return [c for c in wanted if c not in columns[:-1]]


def test_explore_key_columns_show_at_1440_and_the_preset_logs_nothing(server, page):
    page.goto(f"{server}/explore")
    page.get_by_text("12 examples, 36 responses").wait_for()
    settle(page, 1000)
    columns = visible_columns(page, "example_id")
    assert not fully_visible(columns, ["example_id", "condition", "FactScore precision", "VITAL precision", "RLP",
                                       "Nugget recall", "VITAL recall", "RLR"]), columns
    logged = server.log.read_text()
    page.get_by_role("button", name="Example: FactScore ≥ 0.8 and RLP flagged").click()
    page.get_by_text("FactScore precision 0.80-1.00 and RLP flagged").wait_for()
    settle(page, 1000)
    no_error_on_page(page)
    new = server.log.read_text()[len(logged):]
    assert "Traceback" not in new and "File \"" not in new and "default value" not in new, new[-2000:]
    shot(page, "explore-preset")


def test_sensitivity_key_columns_show_at_1440(server, page):
    page.goto(f"{server}/sensitivity")
    page.get_by_text("Decay-weighted precision and recall").wait_for()
    settle(page, 1000)
    columns = visible_columns(page, "comparison")
    assert not fully_visible(columns, ["metric", "comparison", "p t", "p Wilcoxon", "p McNemar"]), columns
    page.get_by_text("Strict (undefined left out)").click()
    page.get_by_text("Each variant against its normal response").wait_for()
    settle(page, 1000)
    columns = visible_columns(page, "condition")
    assert not fully_visible(columns, ["condition", "metric", "p (Holm)", "detection rate", "ROC AUC"]), columns
    no_error_on_page(page)


def test_a_long_response_shows_its_progress(server, page):
    """A long response (6,000 words) shows which step runs and the seconds so far while it is scored."""
    sentences = ["The Berlin Wall fell on 9 November 1989.", "Germany was reunified on 3 October 1990.",
                 "Crowds gathered at the checkpoints that night.", "The border opened after an announcement."]
    text = " ".join(sentences[i % len(sentences)] for i in range(6000 // 7))
    page.goto(f"{server}/?example=demo-05")
    page.get_by_text("Active: offline backend").first.wait_for()
    settle(page)
    page.get_by_label("Response to score").fill(text)
    page.get_by_role("button", name="Score", exact=True).click()
    bar = page.locator("[data-testid='stProgress']")
    bar.filter(has_text=re.compile(r"step \d+ of \d+: .* s so far")).wait_for(timeout=60_000)
    page.get_by_text("Scored:").first.wait_for(timeout=120_000)
    settle(page)
    assert "done in" in bar.first.text_content(), "the folded status box keeps how long it took"
    no_error_on_page(page)


def _no_image_and_no_dialog(page) -> None:
    no_error_on_page(page)
    assert page.dialogs == [], f"a dialog fired: {page.dialogs}"
    assert page.evaluate("() => document.querySelectorAll('[data-testid=stMain] img').length") == 0
    assert page.evaluate("() => document.querySelectorAll('.katex').length") == 0, "LaTeX rendered"


def test_a_hostile_results_file_on_every_page_fetches_nothing(server, page, hostile_dir):
    """Condition names, queries and claims holding ``<img src=http://evil.example/..>``, ``:red[..]`` and
    ``$x^2$`` stay text on every page - widget labels, buttons and download names included - and Chromium
    requests nothing off 127.0.0.1 (the page fixture checks every request)."""
    path = hostile_dir / "hostile.jsonl"
    page.goto(f"{server}/agreement")
    settle(page)
    for label in ("Labelling A (e.g. a model)", "Labelling B (e.g. people)"):
        box = page.get_by_role("textbox", name=label)
        box.fill(str(path))
        box.press("Enter")
        settle(page)
    page.get_by_text("Annotate: your own labels").first.wait_for()   # a rerun may still show the old one
    def open_conditions(attempt: int) -> None:
        settle(page, 500 + 500 * attempt)
        page.locator("[data-testid='stSelectbox']").filter(has_text="Condition").click()

    _pick_once_shown(page, open_conditions, page.get_by_role("option", name=re.compile("evil.example")),
                     timeout=10_000)
    settle(page)
    page.get_by_role("radiogroup", name="Start from").get_by_text("labelling A").click()
    settle(page, 1000)
    export = page.get_by_role("button", name=re.compile("^Export your"))
    export.wait_for()
    assert ":red[variant] $x^2$" in export.inner_text(), "the condition's name shows as written"
    with page.expect_download() as download:
        export.click()
    assert re.fullmatch(r"my-labels-[A-Za-z0-9._-]+\.jsonl", download.value.suggested_filename)
    _no_image_and_no_dialog(page)
    shot(page, "agreement-hostile")
    for name, shows in (("explore", "1 examples, 3 responses"), ("sensitivity", "Per-condition means"),
                        ("compare", "Compare"), ("score", "Response to score")):
        page.goto(f"{server}/{name}?dataset={path}")
        page.get_by_text(shows).first.wait_for()
        settle(page, 1000)
        _no_image_and_no_dialog(page)
    hostile_text = "<img src=http://evil.example/x> :red[x] $x^2$"
    page.get_by_label("Query").fill(f"Who is {hostile_text}?")
    page.get_by_label("Response to score").fill(f"The answer is {hostile_text}. It is a long story.")
    page.get_by_role("button", name="Score", exact=True).click()
    page.get_by_text("Scored:").first.wait_for()
    settle(page, 1000)
    _no_image_and_no_dialog(page)
    shot(page, "score-hostile")
