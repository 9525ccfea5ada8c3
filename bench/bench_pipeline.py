"""LLM calls, tokens, cost and wall time of the OpenAI-compatible pipeline vs. the reference way of calling.

Against the mock provider (tests/support/mock_provider.py) on 127.0.0.1, on 30 responses (10 queries x
normal / missing / wrong) of ~22 subclaims in ~5 sentences, 3 short documents per query. The mock's
time per call grows with its reply: ``--latency`` (default 0.2 s) plus ``--latency-per-token``
(default 5 ms) per reply token, so a call that writes more costs more time.

- ours: ``score``'s machinery (``runs.run_batch`` + ``OpenAICompatBackend``), empty cache: one
  decomposition call per response, one ranking call, verification in windows of <= 15
  subclaims, nuggets once per query, one assignment call per response.
- ours, same steps: the same, doing only the steps the reference pipeline does (decompose, rank,
  verify; no nuggets, so no assignment): every ratio compares this run with the baseline.
- baseline: the way the reference pipeline calls the model - one decomposition call per
  sentence, one verification call per subclaim, one ranking call (no nuggets) - at the SAME
  concurrency (responses in parallel, each response's calls in sequence, as the reference code).
- batch: the same run through --batch-export / a batch runner / --batch-import, stage by stage.

Runs alternate (ours, same steps, baseline, ours, ...; best of ``--rounds``). Each ratio names what it
isolates: calls, input tokens, output tokens and cost per response compare the work; wall time
compares the two at equal concurrency under the latency model; batch vs live compares price.

    python -m bench.bench_pipeline [--latency 0.2] [--latency-per-token 0.005] [--rounds 2]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path

from tests.support.batch_runner import run_batch_file
from tests.support.mock_provider import MockProvider
from vital_core.backends.openai import prompts
from vital_core.backends.openai.backend import OpenAICompatBackend
from vital_core.backends.openai.batch import BATCH_PRICE_FACTOR, BatchCollector, import_results, write_requests
from vital_core.backends.openai.client import LLMClient
from vital_core.backends.openai.endpoint import LLMSettings
from vital_core.backends.openai.parsing import parse_decomposition, parse_ranking, parse_verdicts
from vital_core.backends.openai.pricing import cost_usd, load_prices
from vital_core.backends.openai.reply_json import extract_json
from vital_core.backends.sentences import split_sentences
from vital_core.scoring.inputs import read_inputs
from vital_core.scoring.runs import run_batch, score_record

MODEL = "gpt-4o-mini"
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


class SameStepsBackend(OpenAICompatBackend):
    """Ours doing only the reference pipeline's steps (decompose, rank, verify): no nuggets, so no assignment
    either (the pipeline assigns only nuggets it has). The baseline's work, done our way."""

    async def make_nuggets(self, query, documents):
        return None


async def ours(mock: MockProvider, inp: Path, work: Path, concurrency: int, nuggets: bool = True) -> dict:
    backend = (OpenAICompatBackend if nuggets else SameStepsBackend)(
        base_url=mock.base_url, api_key=KEY, model=MODEL, cache_dir=work / "cache", concurrency=concurrency,
        timeout=60)
    before, start = mock.count(), time.perf_counter()
    try:
        result = await run_batch(backend, read_inputs(inp), work / "out.jsonl", concurrency=concurrency,
                                 progress=False)
    finally:
        await backend.aclose()
    assert result.failed == 0, result.failures
    usage = result.usage
    sent = [json.dumps(r.body, sort_keys=True) for r in mock.requests[before:]]
    return {"wall_s": time.perf_counter() - start, "calls": mock.count() - before,
            "repeats": len(sent) - len(set(sent)),   # requests identical to one sent earlier in the run
            "prompt_tokens": usage["prompt_tokens"], "completion_tokens": usage["completion_tokens"],
            "by_step": {s: u["requests"] for s, u in usage["by_step"].items()}}


async def _reference_calls(client: LLMClient, query: str, text: str, documents: list[str]) -> None:
    """One response the reference way: a call per sentence, one ranking call, a call per subclaim."""
    claims: list[str] = []
    for sentence in split_sentences(text):
        msgs = [{"role": "system", "content": prompts.DECOMPOSE_PROMPT.system()},
                {"role": "user", "content": prompts.render_decompose(query, sentence, [(1, sentence)])}]
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
                {"role": "user", "content": prompts.render_verify(query, [(cid, claim)], "documents", evidence)}]
        await client.complete(prompts.VERIFY_PROMPT, msgs, lambda r, c=cid: parse_verdicts(extract_json(r), [c]))


async def baseline(mock: MockProvider, records: list[dict], concurrency: int) -> dict:
    """The reference way of calling, responses in parallel at ``concurrency``."""
    client = LLMClient(LLMSettings(base_url=mock.base_url, api_key=KEY, model=MODEL, use_cache=False,
                                   concurrency=concurrency, timeout=60))
    gate = asyncio.Semaphore(concurrency)

    async def one(query, text, documents):
        async with gate:
            await _reference_calls(client, query, text, documents)

    before, start = mock.count(), time.perf_counter()
    try:
        await asyncio.gather(*(one(r["query"], text, r["documents"]) for r in records
                               for text in r["responses"].values()))
    finally:
        await client.aclose()
    usage = client.usage.summary()
    return {"wall_s": time.perf_counter() - start, "calls": mock.count() - before,
            "prompt_tokens": usage["prompt_tokens"], "completion_tokens": usage["completion_tokens"]}


def _billed_usage(output: Path) -> tuple[int, int]:
    """Input and output tokens the provider reports in a Batch output file: what a batch is billed for."""
    prompt = completion = 0
    for line in output.read_text(encoding="utf-8").splitlines():
        usage = ((json.loads(line).get("response") or {}).get("body") or {}).get("usage") or {}
        prompt, completion = prompt + usage.get("prompt_tokens", 0), completion + usage.get("completion_tokens", 0)
    return prompt, completion


async def batch_stages(mock: MockProvider, inp: Path, work: Path) -> dict:
    """Export -> batch runner -> import, stage by stage, then the final run: what batch mode sends.

    Wall time is not compared (a batch may take up to 24 h), so the mock answers the runner without
    latency; every request still goes through it, so calls and tokens are counted as for a live run."""
    backend = OpenAICompatBackend(base_url=mock.base_url, api_key=KEY, model=MODEL, cache_dir=work / "cache")
    records, stages, requests, estimate, prompt, completion = read_inputs(inp), 0, 0, 0, 0, 0
    latency, mock.latency, mock.latency_per_token = (mock.latency, mock.latency_per_token), 0.0, 0.0
    before = mock.count()
    try:
        while True:
            collector = backend.client.collector = BatchCollector()
            await asyncio.gather(*(score_record(backend, r) for r in records))
            if not collector.requests:
                break
            stages, requests = stages + 1, requests + len(collector.requests)
            estimate += collector.input_tokens()
            write_requests(collector, work / "requests.jsonl")
            run_batch_file(work / "requests.jsonl", work / "output.jsonl", mock.base_url)
            import_results(work / "output.jsonl", backend.client.cache, MODEL)
            billed = _billed_usage(work / "output.jsonl")
            prompt, completion = prompt + billed[0], completion + billed[1]
    finally:
        backend.client.collector = None
        mock.latency, mock.latency_per_token = latency
        await backend.aclose()
    return {"stages": stages, "requests": requests, "input_tokens_estimate": estimate,
            "prompt_tokens": prompt, "completion_tokens": completion,
            "live_calls": mock.count() - before - requests}   # calls that did not go through the runner


def _per_response(run: dict, n: int, prices: dict) -> dict:
    cost = cost_usd(MODEL, run["prompt_tokens"], run["completion_tokens"], prices) or 0.0
    return {"calls": run["calls"] / n, "input_tokens": run["prompt_tokens"] / n,
            "output_tokens": run["completion_tokens"] / n, "cost_usd": cost / n}


def measure(args, records: list[dict]) -> dict:
    n = sum(len(r["responses"]) for r in records)
    runs: dict[str, list[dict]] = {"ours": [], "same steps": [], "baseline": []}
    with tempfile.TemporaryDirectory() as tmp, \
            MockProvider(latency=args.latency, latency_per_token=args.latency_per_token) as mock:
        work = Path(tmp)
        inp = work / "in.jsonl"
        inp.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        for round_no in range(args.rounds):           # alternate the three under the same conditions
            round_dir = work / f"round{round_no}"
            (round_dir / "same").mkdir(parents=True)
            runs["ours"].append(asyncio.run(ours(mock, inp, round_dir, args.concurrency)))
            runs["same steps"].append(asyncio.run(ours(mock, inp, round_dir / "same", args.concurrency, False)))
            runs["baseline"].append(asyncio.run(baseline(mock, records, args.concurrency)))
        cached = asyncio.run(ours(mock, inp, work / "round0", args.concurrency))  # the cache of round 0
        (work / "batch").mkdir()
        batch = asyncio.run(batch_stages(mock, inp, work / "batch"))
    best = {name: min(rs, key=lambda r: r["wall_s"]) for name, rs in runs.items()}
    return {"responses": n, "best": best, "cached": cached, "batch": batch}


def report(args, figures: dict) -> None:
    n, prices = figures["responses"], load_prices(None)
    best = figures["best"]
    base_r, same_r, ours_r = best["baseline"], best["same steps"], best["ours"]
    b, s, o = (_per_response(r, n, prices) for r in (base_r, same_r, ours_r))
    print(f"mock latency {args.latency * 1000:.0f} ms + {args.latency_per_token * 1000:.1f} ms per reply token; "
          f"{n} responses; concurrency {args.concurrency} for all; best of {args.rounds} alternated rounds")
    print("ratio = baseline / ours on the same steps (decompose, rank, verify: the work the reference pipeline "
          "does); the full pipeline (nuggets built and assigned too) is shown beside, without a ratio")
    print(f"{'per response':<22}{'baseline':>11}{'ours, same':>12}{'ratio':>9}{'ours, full':>12}"
          "  what the ratio isolates")
    for key, label, what in (("calls", "LLM calls", "requests sent for the same work"),
                             ("input_tokens", "input tokens", "prompt work for the same work"),
                             ("output_tokens", "output tokens", "generation work for the same work"),
                             ("cost_usd", f"cost ({MODEL})", "price of the same work, default price table")):
        ratio = b[key] / s[key] if s[key] else float("nan")
        print(f"{label:<22}{b[key]:>11.4g}{s[key]:>12.4g}{ratio:>8.2f}x{o[key]:>12.4g}  {what}")
    print(f"{f'wall time ({n} resp.)':<22}{base_r['wall_s']:>10.1f}s{same_r['wall_s']:>11.1f}s"
          f"{base_r['wall_s'] / same_r['wall_s']:>8.2f}x{ours_r['wall_s']:>11.1f}s  the same work at equal "
          f"concurrency, latency growing with reply tokens")
    print(f"calls by step (ours, full): {ours_r['by_step']}")
    print(f"ours, full, cached re-run: {figures['cached']['calls']} calls, {figures['cached']['wall_s']:.2f} s")
    report_batch(figures["batch"], ours_r, n, prices)
    print(f"targets: <= 6 calls per response (full pipeline): {'met' if o['calls'] <= 6 else 'NOT met'} "
          f"({o['calls']:.2f})")


def report_batch(batch: dict, live: dict, n: int, prices: dict) -> None:
    """Batch mode against the live run: the same requests, priced at batch and at standard prices."""
    live_cost = cost_usd(MODEL, live["prompt_tokens"], live["completion_tokens"], prices) or 0.0
    batch_cost = (cost_usd(MODEL, batch["prompt_tokens"], batch["completion_tokens"], prices) or 0.0) \
        * BATCH_PRICE_FACTOR
    print(f"batch mode (--batch-export / runner / --batch-import, {batch['stages']} stages) vs live, per response:")
    print(f"  calls {batch['requests'] / n:.2f} vs {live['calls'] / n:.2f} live (calls outside the batch: "
          f"{batch['live_calls']}; live sent {live['repeats']} request(s) identical to another, in flight at "
          f"the same time; a batch holds each once); input tokens {batch['prompt_tokens'] / n:.0f} "
          f"vs {live['prompt_tokens'] / n:.0f} "
          f"(the export's own estimate {batch['input_tokens_estimate'] / n:.0f}); output tokens "
          f"{batch['completion_tokens'] / n:.0f} vs {live['completion_tokens'] / n:.0f}")
    standard = batch_cost / BATCH_PRICE_FACTOR   # the batch's tokens at standard prices: its work, priced as live
    print(f"  estimated cost ({MODEL}) ${batch_cost / n:.6f} at batch prices vs ${live_cost / n:.6f} live at "
          f"standard prices = {batch_cost / live_cost if live_cost else float('nan'):.2f}x; of which the work "
          f"(the batch's tokens at standard prices / live) {standard / live_cost if live_cost else float('nan'):.2f}x "
          f"and the price tier x{BATCH_PRICE_FACTOR}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per mock reply (default 0.2)")
    parser.add_argument("--latency-per-token", type=float, default=0.005,
                        help="seconds per reply token on top (default 0.005)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2, help="alternated rounds; the best of each is kept")
    parser.add_argument("--queries", type=int, default=10, help="queries (x3 responses), default 10")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start (runs alternate, "
          f"so other work on the machine slows both paths alike)")
    figures = measure(args, make_records(args.queries))
    report(args, figures)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    if args.json:
        print(json.dumps(figures, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
