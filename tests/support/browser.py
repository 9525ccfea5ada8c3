"""Real headless Chromium against `streamlit run app.py`: the server, the browser's flags and the helpers
that browser tests (and benchmarks) share."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.paths import REPO, SHARED

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = REPO / "artifacts" / "screenshots"   # git-ignored: screenshots for a person to look at
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server(str):
    """The app's base URL; ``log`` is the file the server writes its output to."""
    log: Path


@contextmanager
def app_server(work: Path, roots: list[Path]):
    """``streamlit run app.py`` on a free local port, reading only ``roots``, caching under ``work``."""
    port = free_port()
    env = {**os.environ, "VITAL_CACHE_DIR": str(work / "cache"),
           "VITAL_DATA_ROOTS": os.pathsep.join(str(r) for r in roots)}
    log = (work / "streamlit.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                pytest.fail(f"streamlit did not start on {url}; see {log.name}")
            time.sleep(0.3)
        running = Server(url)
        running.log = Path(log.name)
        yield running
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def reference_data() -> Path:
    """The read-only reference labels next to the project; the test is skipped without them."""
    reference = SHARED / "reference-data" / "vitalerrors-nq"
    if not reference.is_dir():
        pytest.skip(f"reference data not found at {reference}")
    return reference


def settle(page, extra_ms: int = 400) -> None:
    """Wait until the script run finished (the 'running' indicator is gone)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=90_000)
    page.wait_for_timeout(extra_ms)


def shot(page, name: str) -> Path:
    """Screenshot the whole page: Streamlit scrolls inside its main container, so the
    viewport is grown to the content's height first."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    height = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
        " return Math.max(m ? m.scrollHeight : 0, document.body.scrollHeight); }")
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": min(int(height) + 40, 9000)})
    page.wait_for_timeout(700)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)
    return path


def no_error_on_page(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("Something went wrong").count() == 0
