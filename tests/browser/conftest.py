"""Fixtures of the browser tests: the app served locally, one Chromium per test file, a page that fails
its test when a request leaves this machine. Every test here is marked ``browser`` and skipped with a
reason when Chromium or Playwright is missing."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.app_helpers import hostile_results_file
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, SHOTS, app_server
from tests.support.paths import REPO, SHARED


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def hostile_dir(tmp_path_factory) -> Path:
    """A data folder the server may read (VITAL_DATA_ROOTS), holding a results file full of markdown payloads."""
    folder = tmp_path_factory.mktemp("data")
    hostile_results_file(folder)
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory, hostile_dir):
    with app_server(tmp_path_factory.mktemp("server"), [REPO, REPO / "data", SHARED, hostile_dir]) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}: browser tests need it (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.dialogs = []
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    pg.outside_requests = []   # the app claims no network: every request must stay on this machine
    pg.on("request", lambda r: None if r.url.startswith(("http://127.0.0.1", "data:", "blob:"))
          else pg.outside_requests.append(r.url))
    yield pg
    assert not pg.outside_requests, f"requests left this machine: {pg.outside_requests[:5]}"
    if os.environ.get("VITAL_DEBUG"):  # the page as the test left it, for a person to look at
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"debug-{request.node.name}.png"))
    context.close()
