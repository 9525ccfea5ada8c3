"""Benchmark: render every page of the app on the full-scale synthetic release.

Generates the synthetic VitalErrors release of ``bench/synthetic_release.py`` (its
own generator, imported; 6,726 queries x 3 conditions at --scale 1), then
renders each page with Streamlit's AppTest (the real page code, no browser):

* baseline: the page's first (cold) render in a fresh process — the loader
  reads the release (or the on-disk dataset cache) and every cached
  computation runs;
* warm: the median of further renders of the same page (what a person waits
  for after each click once the set is loaded).

Explore and Sensitivity load the synthetic release by path (``?dataset=``);
Score and Compare render the bundled demo; Agreement compares the reference
labellings when ../shared is present. Target: warm <= 2 s per page.

    python -m bench.bench_app              # full scale (about a minute)
    python -m bench.bench_app --scale 0.1
    python -m bench.bench_app --browser    # also time real page visits in headless Chromium
    python -m bench.bench_app --story --baseline ../main   # the first impression, alternated with main
"""
from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from bench import synthetic_release

REPO = Path(__file__).resolve().parents[1]

PAGES = [("score", False), ("compare", False), ("sensitivity", False), ("explore", True), ("sensitivity", True),
         ("agreement", False)]
TARGET_WARM_S = 2.0
# Sensitivity's first render (issue 9): the demo, and the full synthetic release
TARGET_SENSITIVITY_COLD_S = {False: 3.0, True: 8.0}


def render_times(page: str, dataset: Path | None, warm_runs: int) -> tuple[float, list[float], str, str]:
    """Cold first render, warm re-renders, any problem shown on the page and what it loaded.

    Cold starts from nothing: Streamlit's in-memory caches are cleared and the on-disk dataset cache is
    a new, empty folder, so a page that loads the release reads it (as a fresh server would)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest
    st.cache_data.clear()
    st.cache_resource.clear()
    os.environ["VITAL_CACHE_DIR"] = tempfile.mkdtemp(prefix="cache-", dir=os.environ.get("VITAL_CACHE_DIR"))
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=900)
    if dataset is not None:
        at.query_params["dataset"] = str(dataset)
    start = time.perf_counter()
    at.run()
    if page != "score":
        at.switch_page(f"pages/{page}.py").run()
    cold = time.perf_counter() - start
    warm = []
    for _ in range(warm_runs):
        start = time.perf_counter()
        at.run()
        warm.append(time.perf_counter() - start)
    problems = [e.value for e in at.exception] + [e.value for e in at.error]
    loaded = next((str(m.value) for m in list(at.success) + list(at.caption) if "responses" in str(m.value)), "")
    return cold, warm, "; ".join(str(p) for p in problems)[:200], loaded


def wilcoxon_choice(rounds: int = 3) -> None:
    """The same paired tests of the demo (both conventions) with the project's Wilcoxon method and with
    scipy's ``auto``, alternated: what the choice saves on a small set (where ``auto`` enumerates)."""
    from vital_core.analysis import stats
    from vital_core.analysis.report import report_tests
    from vital_core.results.dataset import load_dataset
    frame = load_dataset(REPO / "data" / "demo" / "demo_results.jsonl", use_cache=False).frame
    chosen = stats.wilcoxon_method
    times = {"ours": [], "auto": []}
    try:
        for _ in range(rounds):
            for name, method in (("ours", chosen), ("auto", lambda diff: "auto")):
                stats.wilcoxon_method = method
                start = time.perf_counter()
                for convention in ("paper", "strict"):
                    report_tests(frame, convention)
                times[name].append(time.perf_counter() - start)
    finally:
        stats.wilcoxon_method = chosen
    ours, auto = min(times["ours"]), min(times["auto"])
    print(f"paired tests of the demo, both conventions: Wilcoxon method chosen {ours:.2f} s, scipy auto "
          f"{auto:.2f} s (best of {rounds}, alternated) = {auto / ours:.0f}x")


BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = {"score": "text=Download result", "compare": ".vx-strip", "explore": "text=Nuggets and their support",
         "sensitivity": "text=Decay-weighted precision and recall", "agreement": "text=Annotate: your own labels"}
NAV = {"score": "Score", "compare": "Compare variants", "explore": "Explore results",
       "sensitivity": "Sensitivity", "agreement": "Agreement"}
TITLES = {"score": "Score a response", "compare": "Compare variants", "explore": "Explore results",
          "sensitivity": "Sensitivity", "agreement": "Agreement"}


@contextmanager
def streamlit_server(repo: Path = REPO, data_roots: list[Path] = ()):
    """``streamlit run app.py`` of ``repo`` on a free port of 127.0.0.1, allowed to read ``data_roots`` too;
    yields its URL once healthy."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(repo)}   # the server imports the code of ``repo``, not this one
    if data_roots:
        env["VITAL_DATA_ROOTS"] = os.pathsep.join(str(r) for r in [repo, repo / "data", REPO.parent / "shared",
                                                                   *data_roots])
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                             "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--browser.gatherUsageStats", "false"], cwd=repo,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError("streamlit did not start") from None
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _finished(tab, page_name: str) -> None:
    """The script run has finished and the page's last section is on screen (Sensitivity: five charts)."""
    tab.locator(READY[page_name]).first.wait_for()
    tab.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')")
    if page_name == "sensitivity":
        tab.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length >= 5")


def _new_tab(browser):
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    tab = context.new_page()
    tab.set_default_timeout(600_000)
    return context, tab


def _first_visit(browser, url: str, page_name: str) -> float:
    """A new tab (new session) opened on the page's URL: loads the app's code too."""
    context, tab = _new_tab(browser)
    start = time.perf_counter()
    tab.goto(url)
    _finished(tab, page_name)
    elapsed = time.perf_counter() - start
    context.close()
    return elapsed


def _warm_visits(browser, start_url: str, names: list[str], runs: int) -> dict[str, list[float]]:
    """One session moving between pages with the sidebar links, as a person does."""
    context, tab = _new_tab(browser)
    tab.goto(start_url)
    _finished(tab, "explore")
    warm: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(runs):
        for name in names:
            start = time.perf_counter()
            tab.locator("[data-testid='stSidebar']").get_by_role("link", name=NAV[name]).first.click()
            tab.get_by_role("heading", name=TITLES[name]).first.wait_for()
            _finished(tab, name)
            warm[name].append(time.perf_counter() - start)
    context.close()
    return warm


def browser_times(root: Path, warm_runs: int) -> list[tuple[str, float, float]]:
    """Per page, in headless Chromium: the first visit and the median warm visit (see the helpers)."""
    from playwright.sync_api import sync_playwright
    dataset = quote(str(root))
    paths = {"score": "/score", "compare": "/compare", "explore": f"/explore?dataset={dataset}",
             "sensitivity": f"/sensitivity?dataset={dataset}", "agreement": "/agreement"}
    names = list(dict.fromkeys(name for name, _ in PAGES))
    with streamlit_server(data_roots=[root]) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=BROWSER_ARGS)
        cold = {name: _first_visit(browser, url + paths[name], name) for name in names}
        warm = _warm_visits(browser, url + paths["explore"], names, warm_runs)
        browser.close()
    return [(name, cold[name], statistics.median(warm[name])) for name in names]


# The story's first impression (Compare leads with it): a settled Score page on a first visit, and the story
# strip on screen after the sidebar link to Compare. A baseline checkout, if given, shows its story heading.
TARGET_FIRST_SCORE_S, TARGET_COMPARE_STORY_S = 3.0, 2.0
STORY_READY = ".vx-strip, h4:has-text('Which metrics noticed the damage?')"


def _story_round(browser, url: str) -> tuple[float, float]:
    """One new session: the first visit to /score until settled, then the sidebar link to Compare until the
    story is on screen."""
    context, tab = _new_tab(browser)
    tab.set_viewport_size({"width": 1440, "height": 900})
    try:
        start = time.perf_counter()
        tab.goto(url + "/score")
        _finished(tab, "score")
        first = time.perf_counter() - start
        start = time.perf_counter()
        tab.locator("[data-testid='stSidebar']").get_by_role("link", name=NAV["compare"]).first.click()
        tab.locator(STORY_READY).first.wait_for()
        story = time.perf_counter() - start
    finally:
        context.close()
    return first, story


def story_times(rounds: int, baseline: Path | None) -> None:
    """The story's first impression in headless Chromium, alternated round by round with ``baseline`` (another
    checkout of the app, e.g. the main branch) so both see the same machine load; prints medians and load."""
    from playwright.sync_api import sync_playwright
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    servers = [("this tree", REPO)] + ([("baseline", baseline)] if baseline else [])
    times: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in servers}
    with contextlib.ExitStack() as stack, sync_playwright() as p:
        urls = {name: stack.enter_context(streamlit_server(repo)) for name, repo in servers}
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=BROWSER_ARGS)
        for name in urls:              # each server loads its code and models once, untimed
            _story_round(browser, urls[name])
        for _ in range(rounds):
            for name in urls:
                times[name].append(_story_round(browser, urls[name]))
        browser.close()
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'server':<10} {'first visit, Score settled':>27} {'Compare story on screen':>24}"
          f"  ({rounds} rounds, median)")
    for name, runs in times.items():
        first = statistics.median(r[0] for r in runs)
        story = statistics.median(r[1] for r in runs)
        ok = (f"target <= {TARGET_FIRST_SCORE_S:.0f} s / <= {TARGET_COMPARE_STORY_S:.0f} s: "
              f"{'ok' if first <= TARGET_FIRST_SCORE_S else 'OVER'} / "
              f"{'ok' if story <= TARGET_COMPARE_STORY_S else 'OVER'}")
        print(f"{name:<10} {first:>26.2f}s {story:>23.2f}s  {ok}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the 6,726 queries (default 1)")
    parser.add_argument("--warm-runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None, help="generate here (kept) instead of a temp folder")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--browser", action="store_true",
                        help="also time real page visits in headless Chromium (/usr/bin/chromium)")
    parser.add_argument("--story", action="store_true",
                        help="only time the story's first impression in Chromium (first Score visit, then Compare)")
    parser.add_argument("--rounds", type=int, default=5, help="--story: rounds (default 5)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="--story: another checkout of the app, timed alternately with this one")
    args = parser.parse_args(argv)
    if args.story:
        story_times(args.rounds, args.baseline)
        return 0

    workdir = Path(tempfile.mkdtemp(prefix="bench-app-"))
    root = args.dir or workdir / "release"
    os.environ["VITAL_CACHE_DIR"] = str(workdir / "cache")   # start from an empty dataset cache
    (workdir / "cache").mkdir()
    # the pages rendered here may read the generated release (the browser's server gets the same roots)
    from explorer import paths
    os.environ[paths.DATA_ROOTS_ENV] = os.pathsep.join(str(r) for r in [*paths.data_roots(), root])
    try:
        if not (root.exists() and any(root.iterdir())):
            start = time.perf_counter()
            queries, size = synthetic_release.generate(root, args.scale, args.seed)
            print(f"generated {queries} queries x 3 conditions, {size / 1e6:.0f} MB in "
                  f"{time.perf_counter() - start:.1f} s -> {root}")
        print(f"{'page':<12} {'data':<10} {'cold (baseline)':>16} {'warm median':>12} {'warm max':>9} "
              f"{'cold/warm':>9}  target")
        worst = 0.0
        for page, uses_dataset in PAGES:
            cold, warm, problems, loaded = render_times(page, root if uses_dataset else None, args.warm_runs)
            median = statistics.median(warm)
            worst = max(worst, median)
            ok = "ok" if median <= TARGET_WARM_S else f"OVER {TARGET_WARM_S:.0f} s"
            if page == "sensitivity":
                limit = TARGET_SENSITIVITY_COLD_S[uses_dataset]
                ok += f"; cold {'ok' if cold <= limit else 'OVER'} (<= {limit:.0f} s)"
            print(f"{page:<12} {'synthetic' if uses_dataset else 'demo/ref':<10} {cold:>15.2f}s {median:>11.2f}s "
                  f"{max(warm):>8.2f}s {cold / median:>8.1f}x  {ok}")
            if uses_dataset:
                print(f"  {loaded[:110]}")
            if problems:
                print(f"  page shows a problem: {problems}")
        print(f"worst warm median: {worst:.2f} s (target <= {TARGET_WARM_S:.0f} s per page)")
        wilcoxon_choice()
        if args.browser:
            print("\nreal browser (headless Chromium): first visit = new tab on the URL; "
                  "warm = sidebar navigation in one session")
            print(f"{'page':<12} {'first visit':>12} {'warm median':>12} {'first/warm':>10}  target")
            for page_name, cold, warm in browser_times(root, max(1, min(args.warm_runs, 3))):
                ok = "ok" if warm <= TARGET_WARM_S else f"OVER {TARGET_WARM_S:.0f} s"
                print(f"{page_name:<12} {cold:>11.2f}s {warm:>11.2f}s {cold / warm:>9.1f}x  {ok}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
