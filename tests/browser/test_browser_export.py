"""Real browser (headless Chromium through Playwright against ``streamlit run app.py``): Explore's Parquet
download arrives as a file that parses, and the sidebar's "Per-step backends" expander lays out its
endpoint fields. Server, browser and page fixtures are tests/browser/test_browser.py's (skipped the same way
without /usr/bin/chromium). Screenshots in artifacts/screenshots/."""
from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from tests.support.browser import SHOTS, no_error_on_page, settle, shot
from vital_core.results.export import REASON_COLUMN, SCHEMA_TAG

pytestmark = pytest.mark.browser


def test_explore_parquet_download_parses(server, page, tmp_path):  # noqa: F811
    page.goto(f"{server}/explore")
    page.get_by_text("12 examples, 36 responses").wait_for()
    settle(page)
    no_error_on_page(page)
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="Download Parquet").click()
    download = info.value
    assert download.suggested_filename.endswith(".parquet")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    assert (pq.read_schema(path).metadata or {}).get(b"vital-explorer") == SCHEMA_TAG
    table = pq.read_table(path).to_pandas()
    assert len(table) == 36 and {"example_id", "condition", "vital_precision", REASON_COLUMN} <= set(table.columns)
    assert table[REASON_COLUMN].str.contains("needs a reference answer").any()
    no_error_on_page(page)
    shot(page, "explore-download")


def test_per_step_expander_layout(server, page):  # noqa: F811
    page.goto(f"{server}/score")
    page.get_by_text("Active: offline backend").first.wait_for()
    settle(page)
    sidebar = page.locator("[data-testid='stSidebar']")
    sidebar.get_by_text("Per-step backends").click()
    sidebar.get_by_text("Verification", exact=True).wait_for()
    sidebar.locator("[data-testid='stSelectbox']").filter(has_text="Verification").click()
    page.get_by_role("option", name="Endpoint (OpenAI API)").click()
    sidebar.get_by_text("Yes/no fact-checking model").wait_for()
    settle(page)
    no_error_on_page(page)
    assert sidebar.get_by_role("textbox", name="Verification: base URL").count() == 1
    assert sidebar.get_by_role("textbox", name="Verification: model").count() == 1
    # no key anywhere: a local server needs none, and the message says where a key would come from
    assert sidebar.get_by_text("VITAL_VERIFY_API_KEY", exact=False).count() >= 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1440, "height": 2000})   # the whole sidebar, expander included
    page.wait_for_timeout(500)
    sidebar.locator("[data-testid='stExpander']").filter(has_text="Per-step backends").screenshot(
        path=str(SHOTS / "sidebar-per-step.png"))
