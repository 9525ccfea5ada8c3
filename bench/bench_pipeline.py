"""LLM calls and wall time of the OpenAI-compatible pipeline vs. the reference way of calling.

Runs against the mock provider (tests/mock_provider.py) on 127.0.0.1 with a fixed
latency per call (default 200 ms), on 30 responses (10 queries x normal / missing /
wrong) of ~22 subclaims in ~5 sentences, with 3 short documents per query.

- ours: ``score`` machinery (``batch.run_batch`` + ``OpenAICompatBackend``) at
  concurrency 8 with an empty cache: one decomposition call per response, one
  ranking call, verification in windows of <= 15 subclaims, nuggets once per
  query, one assignment call per response; records and windows run concurrently.
- baseline, measured in the same run: the way the reference pipeline calls the
  model - one decomposition call per sentence, one verification call per
  subclaim, one ranking call, all sequential (nuggets not even included).

Targets: <= 6 calls per response; wall time >= 20x lower than the baseline.

    python -m bench.bench_pipeline [--latency 0.2] [--baseline-responses 30]

``--baseline-responses K`` times the sequential baseline on the first K responses
only and scales linearly (it is strictly sequential, so the scaling is exact up
to noise); the default measures all 30.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from tests.mock_provider import MockProvider
from vital_core.backends.openai.backend import OpenAICompatBackend
from vital_core.runs import run_batch
from vital_core.inputs import read_inputs
from vital_core.backends.openai import prompts
from vital_core.backends.openai.client import LLMClient, LLMSettings
from vital_core.backends.openai.parsing import (extract_json, parse_decomposition, parse_ranking, parse_verdicts)
from vital_core.backends.sentences import split_sentences

CLAIMS_PER_SENTENCE = (5, 4, 5, 4, 4)   # 22 subclaims in 5 sentences
KEY = "sk-bench-not-a-real-key"


def make_records(n_queries: int = 10) -> list[dict]:
    records = []
    for q in range(n_queries):
        topic = f"Topic{q}"
        sentences = []
        for s, k in enumerate(CLAIMS_PER_SENTENCE):
            clauses = [f"{topic} has property{s}x{c} number {q * 100 + s * 10 + c}" for c in range(k)]
            sentences.append("; ".join(clauses) + ".")
        normal = " ".join(sentences)
        documents = [" ".join(sentences[:2]), " ".join(sentences[2:4]), f"{topic} background note {q}."]
        records.append({"id": f"b{q}", "query": f"What are the properties of {topic}?", "documents": documents,
                        "responses": {"normal": normal,
                                      "missing": normal.replace(f"{topic} has property0x0 number {q * 100}; ", ""),
                                      "wrong": normal.replace(f"number {q * 100 + 1}", f"number {q * 100 + 99}")}})
    return records


async def ours(mock: MockProvider, inp: Path, work: Path, concurrency: int) -> tuple[float, int, dict]:
    backend = OpenAICompatBackend(base_url=mock.base_url, api_key=KEY, model="gpt-4o-mini",
                                  cache_dir=work / "cache", concurrency=concurrency, timeout=30)
    start = time.perf_counter()
    try:
        result = await run_batch(backend, read_inputs(inp), work / "out.jsonl", concurrency=concurrency,
                                 progress=False)
    finally:
        await backend.aclose()
    elapsed = time.perf_counter() - start
    assert result.failed == 0, result.failures
    return elapsed, mock.count(), result.usage


async def baseline(mock: MockProvider, records: list[dict], limit: int) -> tuple[float, int, int]:
    """Sequential, one call per sentence (decompose), per subclaim (verify), one ranking call."""
    client = LLMClient(LLMSettings(base_url=mock.base_url, api_key=KEY, model="gpt-4o-mini", use_cache=False,
                                   concurrency=1, timeout=30))
    responses = [(r["query"], text, r["documents"]) for r in records for text in r["responses"].values()][:limit]
    before = mock.count()
    start = time.perf_counter()
    try:
        for query, text, documents in responses:
            claims: list[str] = []
            for sentence in split_sentences(text):
                user = prompts.render_decompose(query, sentence, [(1, sentence)])
                msgs = [{"role": "system", "content": prompts.DECOMPOSE_PROMPT.system()},
                        {"role": "user", "content": user}]
                res = await client.complete(prompts.DECOMPOSE_PROMPT, msgs,
                                            lambda r: parse_decomposition(extract_json(r), [1]))
                claims.extend(res.value[0].get(1, []))
            ids = [f"S{i + 1}" for i in range(len(claims))]
            msgs = [{"role": "system", "content": prompts.RANK_PROMPT.system()},
                    {"role": "user", "content": prompts.render_rank(query, list(zip(ids, claims)))}]
            await client.complete(prompts.RANK_PROMPT, msgs, lambda r: parse_ranking(r, ids))
            evidence = [type("P", (), {"id": f"P{i}", "source": f"D{i}", "text": d}) for i, d in enumerate(documents)]
            for cid, claim in zip(ids, claims):
                msgs = [{"role": "system", "content": prompts.VERIFY_PROMPT.system()},
                        {"role": "user", "content": prompts.render_verify(query, [(cid, claim)], "documents",
                                                                         evidence)}]
                await client.complete(prompts.VERIFY_PROMPT, msgs, lambda r, c=cid: parse_verdicts(extract_json(r), [c]))
    finally:
        await client.aclose()
    return time.perf_counter() - start, mock.count() - before, len(responses)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per mock reply (default 0.2)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--baseline-responses", type=int, default=30,
                        help="responses to time the sequential baseline on (scaled to 30)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()

    records = make_records()
    n_responses = sum(len(r["responses"]) for r in records)
    with tempfile.TemporaryDirectory() as tmp, MockProvider(latency=args.latency) as mock:
        work = Path(tmp)
        inp = work / "in.jsonl"
        inp.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        subclaims = 0
        ours_s, ours_calls, usage = asyncio.run(ours(mock, inp, work, args.concurrency))
        for line in (work / "out.jsonl").read_text().splitlines():
            subclaims += sum(len(v["subclaims"]) for v in json.loads(line)["variants"].values())
        mock.reset()
        rerun = work / "rerun"
        rerun.mkdir()
        (rerun / "cache").symlink_to(work / "cache")
        cached_s, cached_calls, _ = asyncio.run(ours(mock, inp, rerun, args.concurrency))
        mock.reset()
        k = max(1, min(args.baseline_responses, n_responses))
        base_s, base_calls, measured = asyncio.run(baseline(mock, records, k))
    base_total_s = base_s * n_responses / measured
    base_per_response = base_calls / measured
    figures = {
        "latency_s": args.latency, "responses": n_responses, "subclaims_per_response": subclaims / n_responses,
        "ours": {"calls": ours_calls, "calls_per_response": ours_calls / n_responses, "wall_s": ours_s,
                 "concurrency": args.concurrency, "by_step": {s: u["requests"] for s, u in usage["by_step"].items()}},
        "ours_cached_rerun": {"http_requests": cached_calls, "wall_s": cached_s},
        "baseline": {"calls_per_response": base_per_response, "wall_s": base_total_s,
                     "measured_responses": measured, "measured_wall_s": base_s},
        "speedup": base_total_s / ours_s,
    }
    print(f"mock latency {args.latency * 1000:.0f} ms/call; {n_responses} responses, "
          f"{figures['subclaims_per_response']:.1f} subclaims per response")
    print(f"{'':<34}{'calls/response':>15}{'wall time':>12}")
    print(f"{'baseline (reference-style, seq.)':<34}{base_per_response:>15.2f}{base_total_s:>11.1f}s"
          + (f"  (measured on {measured}, scaled)" if measured < n_responses else ""))
    print(f"{'ours (concurrency ' + str(args.concurrency) + ')':<34}{ours_calls / n_responses:>15.2f}{ours_s:>11.1f}s")
    print(f"{'ours, cached re-run':<34}{cached_calls / n_responses:>15.2f}{cached_s:>11.2f}s")
    print(f"calls by step (ours): {figures['ours']['by_step']}")
    ok_calls = ours_calls / n_responses <= 6
    ok_speed = figures["speedup"] >= 20
    print(f"speed-up {figures['speedup']:.1f}x (target >= 20x: {'met' if ok_speed else 'NOT met'}); "
          f"calls/response target <= 6: {'met' if ok_calls else 'NOT met'}")
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
