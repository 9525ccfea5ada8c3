"""Benchmark: load + report a full-scale synthetic VitalErrors release.

Generates (seeded, deterministic) a release in the official layout,
ROOT/{dataset}/{subset}/original.jsonl and
ROOT/{dataset}/{subset}/{normal,missing,wrong}/{data,factscore-out,nuggets-out,new-metric-out}.jsonl,
with 6,726 queries at --scale 1 (~25 subclaims, ~12 nuggets, ~2 KB of documents
per query), then prints:

* the raw-parse floor: the time to parse every line of those bytes with the
  parser the loader uses (orjson), for all files and for the files the loader
  actually parses (new-metric-out + nuggets-out; the others are only checked
  for length and query);
* cold load + report (no dataset cache) in a fresh process, and its ratio to
  the floor; the peak RSS of that process;
* warm load (dataset cache present) in a fresh process;
* a naive baseline in this process: per-line ``json.loads`` and Python loops
  computing the same tables, with its ratio to the cold run, and a check that
  both give the same means.

Targets: cold <= 2x the raw-parse floor, warm <= 1 s, peak RSS <= 3 GB.
All files are read from the page cache (they were just written).

    python bench/bench_report.py            # full scale (~1-2 minutes)
    python bench/bench_report.py --scale 0.1
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

# Queries per dataset/subset at scale 1 (6,726 in all; the split is synthetic).
LAYOUT = {
    ("bright", "biology"): 346, ("bright", "economics"): 346, ("bright", "psychology"): 346,
    ("bright", "earth_science"): 346,
    ("factscore", "bios"): 500,
    ("wildhallucinations", "wiki"): 1342,
    ("hotpotqa", "dev"): 1000, ("naturalquestions", "dev"): 1000, ("triviaqa", "dev"): 1500,
}
CONDITIONS = ("normal", "missing", "wrong")
WORDS = ("river mountain city century treaty empire scientist novel album river species protein planet "
         "election museum language festival island railway battle painter theory engine harbour senate "
         "poet dynasty glacier orchestra bridge village fortress desert comet vaccine temple").split()
PREFIX = {"bright": "Answer the following question in a short paragraph: ",
          "factscore": "In a paragraph, tell me a bio of ",
          "wildhallucinations": "In a paragraph, could you tell me what you know about "}


def dumps(obj) -> bytes:
    try:
        import orjson
        return orjson.dumps(obj)
    except ImportError:  # pragma: no cover
        return json.dumps(obj).encode()


def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def make_query(rng: random.Random, dataset: str, q: int) -> dict:
    """One query's normal response material; variants are derived from it."""
    n_sent = rng.randint(4, 7)
    sentences = []
    sid = 0
    for s in range(n_sent):
        claims = []
        for _ in range(rng.randint(3, 5)):
            sid += 1
            claims.append({"id": f"S{sid}", "text": _words(rng, rng.randint(7, 12)).capitalize() + ".",
                           "judgment": rng.choices([True, False, None], (0.7, 0.1, 0.2))[0],
                           "importance": rng.choices(["vital", "okay", "less-important"], (0.25, 0.35, 0.4))[0]})
        sentences.append({"sentence": _words(rng, 22).capitalize() + ".", "decomp": claims})
    nuggets = [{"id": f"N{i}", "text": _words(rng, 8), "importance": "vital" if i < 4 else "okay"}
               for i in range(rng.randint(9, 15))]
    docs = [{"id": f"doc{q}-{i}", "text": _words(rng, 80)} for i in range(4)]
    return {"query": PREFIX.get(dataset, "In a paragraph, could you answer: ") + _words(rng, 6) + f" #{q}",
            "sentences": sentences, "nuggets": nuggets, "documents": docs}


def variant(rng: random.Random, base: dict, condition: str) -> tuple[list[dict], list[str]]:
    sentences = [dict(s, decomp=[dict(c) for c in s["decomp"]]) for s in base["sentences"]]
    assignment = [rng.choices(["support", "partial_support", "not_support"], (0.6, 0.2, 0.2))[0]
                  for _ in base["nuggets"]]
    if condition == "missing":
        sentences = sentences[1:]
        assignment[0] = "not_support"
    elif condition == "wrong":
        for c in sentences[0]["decomp"]:
            if c["importance"] == "vital":
                c["judgment"] = False
        assignment[0] = rng.choice(["partial_support", "not_support"])
    return sentences, assignment


def generate(root: Path, scale: float, seed: int) -> tuple[int, int]:
    """Write the release; returns (queries, bytes written)."""
    rng = random.Random(seed)
    total_queries = total_bytes = 0
    for (dataset, subset), n in LAYOUT.items():
        n = max(1, round(n * scale))
        total_queries += n
        base_dir = root / dataset / subset
        bases = [make_query(rng, dataset, q) for q in range(n)]
        files = {"original": [dumps({"query": b["query"].split(": ", 1)[-1], "documents":
                                     [{"text": d["text"]} for d in b["documents"]] if dataset == "factscore"
                                     else b["documents"], **({"gold_response": "gold"} if dataset != "bright" else {})})
                              for b in bases]}
        for cond in CONDITIONS:
            out = {k: [] for k in ("data", "factscore-out", "nuggets-out", "new-metric-out")}
            for q, b in enumerate(bases):
                sentences, assignment = variant(rng, b, cond)
                response = {"id": str(q), "text": " ".join(s["sentence"] for s in sentences)}
                claims = [c for s in sentences for c in s["decomp"]]
                order = [c["id"] for c in sorted(claims, key=lambda c: (
                    ("vital", "okay", "less-important").index(c["importance"]), rng.random()))]
                out["data"].append(dumps({"query": b["query"], "response": response,
                                          "documents": b["documents"] if dataset == "bright" else None}))
                out["factscore-out"].append(dumps({
                    "query": b["query"], "response": response,
                    "decomposition": [{"sentence": s["sentence"], "decomp": [
                        {"text": c["text"], "judgment": c["judgment"]} for c in s["decomp"]]} for s in sentences],
                    "score": sum(c["judgment"] is True for c in claims) / max(1, len(claims))}))
                out["nuggets-out"].append(dumps({
                    "query": b["query"], "response": {**response, "nugget-assignment": assignment},
                    "nuggets": b["nuggets"], "documents": b["documents"]}))
                out["new-metric-out"].append(dumps({
                    "query": b["query"], "response": response, "decomposition": sentences,
                    "N2S": {n["id"]: [] for n in b["nuggets"]}, "subclaim-importance-order": order,
                    "scores": {}}))
            for kind, lines in out.items():
                files[f"{cond}/{kind}"] = lines
        for name, lines in files.items():
            path = base_dir / f"{name}.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            data = b"\n".join(lines) + b"\n"
            path.write_bytes(data)
            total_bytes += len(data)
    return total_queries, total_bytes


# --------------------------------------------------------------------------- floor

def parse_floor(root: Path, parsed_only: bool) -> tuple[float, int]:
    from vital_core.loaders import loads
    names = ("new-metric-out.jsonl", "nuggets-out.jsonl") if parsed_only else None
    files = [p for p in sorted(root.rglob("*.jsonl")) if names is None or p.name in names]
    start = time.perf_counter()
    size = 0
    for p in files:
        data = p.read_bytes()
        size += len(data)
        for line in data.split(b"\n"):
            if line:
                loads(line)
    return time.perf_counter() - start, size


# --------------------------------------------------------------------------- naive baseline

def naive_report(root: Path) -> dict:
    """Per-line json.loads and plain loops: per-condition means of the headline metrics + paired t-tests."""
    from scipy.stats import ttest_rel
    weights = {"vital": 1.0, "okay": 0.6, "less-important": 0.4}
    per: dict[str, dict[str, list]] = {}
    for nm in sorted(root.rglob("new-metric-out.jsonl")):
        cond = nm.parent.name
        group = str(nm.parent.parent)
        with open(nm) as f_nm, open(nm.parent / "nuggets-out.jsonl") as f_nu:
            for i, (l1, l2) in enumerate(zip(f_nm, f_nu)):
                r, n = json.loads(l1), json.loads(l2)
                claims = [c for s in r["decomposition"] for c in s["decomp"]]
                sup = [c["judgment"] is True for c in claims]
                vital = [s for c, s in zip(claims, sup) if c["importance"] == "vital"]
                wden = sum(weights[c["importance"]] for c in claims)
                wnum = sum(weights[c["importance"]] for c, s in zip(claims, sup) if s)
                assign = n["response"]["nugget-assignment"]
                vn = [a for nug, a in zip(n["nuggets"], assign) if nug["importance"] == "vital"]
                m = {"factscore_precision": sum(sup) / len(sup) if sup else None,
                     "vital_precision": sum(vital) / len(vital) if vital else None,
                     "weighted_precision": wnum / wden if wden else None,
                     "rlp": (not all(vital)) if vital else None,
                     "nugget_recall": sum(a == "support" for a in assign) / len(assign) if assign else None,
                     "vital_recall": sum(a == "support" for a in vn) / len(vn) if vn else None,
                     "rlr": any(a != "support" for a in vn) if vn else None}
                for k, v in m.items():
                    per.setdefault(cond, {}).setdefault(k, []).append(((group, i), v))
    means = {c: {k: statistics.fmean(v for _, v in vals if v is not None) for k, vals in ms.items()}
             for c, ms in per.items()}
    tests = {}
    for cond in ("missing", "wrong"):
        for k in per["normal"]:
            base = dict(per["normal"][k])
            pairs = [(base[key], v) for key, v in per[cond][k] if v is not None and base.get(key) is not None]
            tests[(cond, k)] = ttest_rel([float(b) for b, _ in pairs], [float(v) for _, v in pairs]).pvalue
    return {"means": means, "tests": tests}


# --------------------------------------------------------------------------- child runs

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from vital_core.dataset import load_dataset
from vital_core.report import build_report, render_text
t_import = time.perf_counter() - t0
root, cache = sys.argv[1], sys.argv[2]
t1 = time.perf_counter()
ds = load_dataset(root, cache_dir=cache)
t_load = time.perf_counter() - t1
t2 = time.perf_counter()
report = build_report(ds)
text = render_text(ds)
t_report = time.perf_counter() - t2
print(json.dumps({"import": t_import, "load": t_load, "report": t_report, "from_cache": ds.from_cache,
                  "rows": len(ds.frame), "means": report["conditions"],
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def run_child(root: Path, cache: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, str(root), str(cache)], cwd=REPO,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the 6,726 queries (default 1)")
    parser.add_argument("--dir", type=Path, default=None, help="generate here (kept) instead of a temp folder")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--skip-naive", action="store_true", help="do not run the naive baseline")
    args = parser.parse_args(argv)

    from vital_core.loaders import PARSER
    work = Path(tempfile.mkdtemp(prefix="vital-bench-"))
    root = args.dir or (work / "release")
    cache = work / "cache"
    try:
        if root.exists():
            shutil.rmtree(root)
        t = time.perf_counter()
        queries, size = generate(root, args.scale, args.seed)
        print(f"generated {queries:,} queries x 3 conditions ({size / 1e6:,.0f} MB) in "
              f"{time.perf_counter() - t:.1f} s under {root}")

        floor_all, bytes_all = parse_floor(root, parsed_only=False)
        floor_parsed, bytes_parsed = parse_floor(root, parsed_only=True)
        print(f"raw-parse floor ({PARSER}.loads of every line): all files {floor_all:.2f} s "
              f"({bytes_all / 1e6:,.0f} MB); files the loader parses {floor_parsed:.2f} s "
              f"({bytes_parsed / 1e6:,.0f} MB)")

        cold = run_child(root, cache)
        cold_total = cold["load"] + cold["report"]
        print(f"cold load+report: {cold_total:.2f} s (load {cold['load']:.2f} s + report {cold['report']:.2f} s; "
              f"imports {cold['import']:.2f} s not counted), {cold['rows']:,} rows")
        print(f"  ratio to the all-files floor: {cold_total / floor_all:.2f}x (target <= 2x); "
              f"to the parsed-files floor: {cold_total / floor_parsed:.2f}x")
        print(f"  peak RSS of the cold process: {cold['maxrss_kb'] / 1024:,.0f} MB (target <= 3,072 MB)")
        warm = run_child(root, cache)
        assert warm["from_cache"], "the second run did not use the dataset cache"
        print(f"warm load: {warm['load']:.3f} s (target <= 1 s); warm load+report {warm['load'] + warm['report']:.2f} s;"
              f" peak RSS {warm['maxrss_kb'] / 1024:,.0f} MB")
        if not args.skip_naive:
            t = time.perf_counter()
            naive = naive_report(root)
            t_naive = time.perf_counter() - t
            worst = max(abs(naive["means"][c][k] - cold["means"][c][k])
                        for c in naive["means"] for k in naive["means"][c])
            print(f"naive baseline (json.loads per line + Python loops, same tables): {t_naive:.2f} s = "
                  f"{t_naive / cold_total:.2f}x the cold run; max |difference| of means {worst:.1e}")
    finally:
        if args.dir is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            shutil.rmtree(cache, ignore_errors=True)
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
