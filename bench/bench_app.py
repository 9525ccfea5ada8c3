"""Benchmark: render every page of the app on the full-scale synthetic release.

Generates the synthetic VitalErrors release of ``bench/bench_report.py`` (its
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

    python bench/bench_app.py              # full scale (a few minutes)
    python bench/bench_app.py --scale 0.1
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PAGES = [("score", False), ("compare", False), ("explore", True), ("sensitivity", True), ("agreement", False)]
TARGET_WARM_S = 2.0


def _bench_report():
    """bench/bench_report.py as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_report", REPO / "bench" / "bench_report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def render_times(page: str, dataset: Path | None, warm_runs: int) -> tuple[float, list[float], str, str]:
    """Cold first render, warm re-renders, any problem shown on the page and what it loaded."""
    from streamlit.testing.v1 import AppTest
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the 6,726 queries (default 1)")
    parser.add_argument("--warm-runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None, help="generate here (kept) instead of a temp folder")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)

    workdir = Path(tempfile.mkdtemp(prefix="bench-app-"))
    root = args.dir or workdir / "release"
    os.environ["VITAL_CACHE_DIR"] = str(workdir / "cache")   # start from an empty dataset cache
    try:
        if not (root.exists() and any(root.iterdir())):
            start = time.perf_counter()
            queries, size = _bench_report().generate(root, args.scale, args.seed)
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
            print(f"{page:<12} {'synthetic' if uses_dataset else 'demo/ref':<10} {cold:>15.2f}s {median:>11.2f}s "
                  f"{max(warm):>8.2f}s {cold / median:>8.1f}x  {ok}")
            if uses_dataset:
                print(f"  {loaded[:110]}")
            if problems:
                print(f"  page shows a problem: {problems}")
        print(f"worst warm median: {worst:.2f} s (target <= {TARGET_WARM_S:.0f} s per page)")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
