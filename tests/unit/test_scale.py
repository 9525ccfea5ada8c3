"""Scale: the offline backend works off the event loop, one response has a size limit with a clear
message (issue 11, item 11; resume memory: tests/unit/test_output_safety.py)."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

from tests.support.paths import REPO
from vital_core.backends import get_backend

DEMO_INPUT = REPO / "data" / "demo" / "demo_input.jsonl"


def _long_text(words: int) -> str:
    first = json.loads(DEMO_INPUT.read_text(encoding="utf-8").splitlines()[0])["responses"]["normal"]
    text = first
    while len(text.split()) < words:
        text += " " + first
    return text


def test_the_offline_backend_leaves_the_event_loop_free():
    backend = get_backend("offline")
    text = _long_text(3000)

    async def run() -> tuple[list[float], float, float]:
        await backend.decompose("q?", "Warm up. The model loads.")
        ticks: list[float] = []
        stop = asyncio.Event()

        async def ticker():
            while not stop.is_set():
                ticks.append(time.monotonic())
                await asyncio.sleep(0.005)
        tick_task = asyncio.ensure_future(ticker())
        await asyncio.sleep(0)  # the ticker's first tick, before the work starts
        t0 = time.monotonic()
        sentences = await backend.decompose("q?", text)
        t1 = time.monotonic()
        claims = [c for s in sentences for c in s.claims]
        assert claims
        stop.set()
        await tick_task
        return ticks, t0, t1

    ticks, t0, t1 = asyncio.run(run())
    # Work done on the loop would leave no tick between t0 and t1. The rate of ticks depends on
    # how loaded the machine is (the thread and the loop share the interpreter lock), so the test
    # asks that the ticker ran in each half of the work, not for a rate.
    middle = (t0 + t1) / 2
    first = [t for t in ticks if t0 < t < middle]
    second = [t for t in ticks if middle <= t < t1]
    assert t1 - t0 > 0.05 and len(first) >= 2 and len(second) >= 2, (len(first), len(second), t1 - t0)


def test_score_refuses_a_response_over_the_word_limit_with_a_message(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "big", "query": "Who wrote it?",
                               "responses": {"normal": "Jane Austen wrote it. " * 40, "wrong": "Short."}}) + "\n")
    out = tmp_path / "out.jsonl"
    done = subprocess.run([sys.executable, "-m", "vital_core", "score", str(inp), "--out", str(out),
                           "--backend", "offline", "--max-words", "100", "--no-progress"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    (line,) = [json.loads(x) for x in out.read_text().splitlines()]
    assert "160 words, more than the limit of 100" in line["variants"]["normal"]["error"]
    assert line["variants"]["wrong"]["error"] is None and line["variants"]["normal"]["subclaims"] == []
    assert "failed big: normal: TooLong" in done.stdout
