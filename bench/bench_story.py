"""Does the story hold on the bundled demos? Each demo of ``data/demo/demo_input.jsonl`` is scored afresh
with the offline backend (``vital_core.scoring.pipeline.score_example``, its documents and reference answer), and
for each damaged variant the change from normal of FactScore precision, VITAL precision, RLP, VITAL recall
and RLR is printed with whether the story holds (``vital_core.analysis.story.judge_story``, the rule
``bench.bench_verifier`` uses on the paragraph triples):

* wrong: FactScore moves by less than 0.10 while VITAL precision drops by at least 0.10 or RLP fires
  (not on normal);
* missing: VITAL recall drops by at least 0.10 or RLR fires (not on normal).

    python -m bench.bench_story              # the table, then the counts
    python -m bench.bench_story --json out.json
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from vital_core.analysis.story import STORY_METRICS, judge_story
from vital_core.backends.offline import OfflineBackend
from vital_core.metrics import compute_response_metrics
from vital_core.results.model import MISSING, NORMAL, WRONG
from vital_core.scoring.inputs import read_input_jsonl
from vital_core.scoring.pipeline import run_sync, score_example

REPO = Path(__file__).resolve().parents[1]
DEMOS = REPO / "data" / "demo" / "demo_input.jsonl"
HEADER = "dFS    dVP    RLP  dVR    RLR"


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" ({os.cpu_count()} cores)"


def _value(score) -> str:
    return "  -" if score is None else f"{score:.2f}"


def _change(metrics: dict, variant: str, key: str) -> str:
    """A score's change from normal (" -" when undefined), or a flag as normal→variant (0/1, - undefined)."""
    before, after = metrics[NORMAL].get(key), metrics[variant].get(key)
    if key in ("rlp", "rlr"):
        def flag(v):
            return "-" if v is None else str(int(bool(v)))
        return f"{flag(before)}>{flag(after)}"
    if before is None or after is None:
        return "  -  "
    return f"{after - before:+.2f}"


def score_demo(backend: OfflineBackend, record) -> tuple[dict, float]:
    start = time.perf_counter()
    example = run_sync(score_example(backend, example_id=record.id, query=record.query,
                                     responses=record.texts(), documents=record.documents,
                                     reference=record.reference))
    errors = [f"{name}: {v.error}" for name, v in example.variants.items() if v.error]
    if errors:
        raise RuntimeError(f"{record.id}: {errors}")
    metrics = {name: compute_response_metrics(v, example.nuggets) for name, v in example.variants.items()}
    return metrics, time.perf_counter() - start


def row(record_id: str, metrics: dict, judged: dict) -> str:
    cells = []
    for variant, ok in ((WRONG, judged["wrong_ok"]), (MISSING, judged["missing_ok"])):
        if variant not in metrics:
            cells.append(" " * 40)
            continue
        changes = "  ".join(f"{_change(metrics, variant, key):>5}" for key in STORY_METRICS)
        cells.append(f"{changes}  {'Y' if ok else '-'}")
    return f"{record_id:<8} {_value(judged['normal_factscore']):>5}   " + "   |   ".join(cells)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write every demo's metrics and story to this JSON file")
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}")
    backend = OfflineBackend()
    backend.warm_up()
    records = read_input_jsonl(DEMOS)
    print(f"{len(records)} demos of {DEMOS.relative_to(REPO)}, offline backend, documents + reference")
    print(f"{'demo':<8} {'FS':>5}   wrong: {HEADER}  story   |   missing: {HEADER}  story")
    rows, seconds = [], []
    for record in records:
        metrics, took = score_demo(backend, record)
        judged = judge_story(metrics)
        print(row(record.id, metrics, judged))
        rows.append({"id": record.id, "metrics": metrics, **judged})
        seconds.append(took)
    n = len(rows)
    print("FS = the normal response's FactScore precision; d = change from normal; RLP/RLR = flag on normal>variant")
    print(f"wrong story (FactScore moves < 0.10, VITAL precision drops >= 0.10 or RLP fires): "
          f"{sum(bool(r['wrong_ok']) for r in rows)} of {n}")
    print(f"missing story (VITAL recall drops >= 0.10 or RLR fires): {sum(bool(r['missing_ok']) for r in rows)} of {n}")
    print(f"normal answers with FactScore >= 0.8: {sum(bool(r['normal_ok']) for r in rows)} of {n}")
    print(f"seconds per demo (3 responses): median {sorted(seconds)[n // 2]:.2f}, max {max(seconds):.2f}")
    print(f"load average at end: {load_average()}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
