"""Benchmark: load + report a full-scale synthetic VitalErrors release.

Generates the synthetic release of ``bench/synthetic_release.py`` (6,726 queries at --scale 1), then
prints:

* three floors: the time to parse every line with the parser the loader uses
  (orjson) of all files, of the files the loader actually parses
  (new-metric-out + nuggets-out; the others are only checked for length and
  query, factscore-out's score read by regex), and of only the fields it uses
  (those records cut down beforehand to the fields ``record_codes`` reads);
  and the files it parses with ``json.loads`` (what orjson buys);
* cold load + text report (no dataset cache; what ``report PATH`` does) in a
  fresh process, with one reading process and with two, and its ratio to the
  floors; whether two processes beat one here; the peak RSS of that process;
* a naive baseline in this process: per-line ``json.loads``, model objects
  and the scalar metric functions (``compute_response_metrics``), then the
  same tables, with its ratio to the cold run, and a check that both paths
  give the same value for every metric of every record;
* the floors, the two cold loads and the naive baseline alternate round by
  round, and the fastest of ``--repeat`` rounds (default 3) of each is kept;
* warm load (dataset cache present) in a fresh process.

Targets: cold <= 2x the raw-parse floor, warm <= 1 s, peak RSS <= 3 GB.
All files are read from the page cache (they were just written).

    python -m bench.bench_report            # full scale (~1-2 minutes)
    python -m bench.bench_report --scale 0.1
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.synthetic_release import dumps, generate

REPO = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------------------- floor

def parse_floor(root: Path, parsed_only: bool, stdlib: bool = False) -> tuple[float, int]:
    """Read and parse every line of all files, or of the files the loader parses (new-metric-out and
    nuggets-out; the others it only checks for length and query, and reads factscore-out's score by regex).
    ``stdlib``: with ``json.loads`` instead of the loader's parser (what choosing orjson buys)."""
    from vital_core.loaders.discover import loads
    loads = json.loads if stdlib else loads
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


def _used_fields(kind: str, rec: dict) -> dict:
    """Only what the loader takes from a record of this kind (vital_core/loaders/codes.py: record_codes)."""
    if kind == "new-metric-out.jsonl":
        return {"query": rec["query"], "response": {"id": rec["response"]["id"]},
                "decomposition": [{"decomp": [{k: c.get(k) for k in ("id", "importance", "judgment")}
                                              for c in s["decomp"]]} for s in rec["decomposition"]],
                "subclaim-importance-order": rec["subclaim-importance-order"]}
    if kind == "nuggets-out.jsonl":
        return {"query": rec["query"], "nuggets": [{"id": n["id"], "importance": n["importance"]}
                                                   for n in rec["nuggets"]],
                "response": {"nugget-assignment": rec["response"]["nugget-assignment"]}}
    return {"score": rec.get("score")}      # factscore-out


def used_field_lines(root: Path) -> tuple[list[bytes], int]:
    """The records the loader parses, cut down to the fields it uses, as JSON lines (built once, untimed)."""
    from vital_core.loaders.discover import loads
    lines = []
    for p in sorted(root.rglob("*.jsonl")):
        if p.name in ("new-metric-out.jsonl", "nuggets-out.jsonl", "factscore-out.jsonl"):
            lines.extend(dumps(_used_fields(p.name, loads(line))) for line in p.read_bytes().split(b"\n") if line)
    return lines, sum(map(len, lines))


def fields_floor(lines: list[bytes]) -> float:
    """Decoding only the fields the loader uses: what a parser that skipped every other field could reach
    (no file reading, no extraction: a floor below any loader of these files)."""
    from vital_core.loaders.discover import loads
    start = time.perf_counter()
    for line in lines:
        loads(line)
    return time.perf_counter() - start


# --------------------------------------------------------------------------- naive baseline

def naive_report(root: Path):
    """The same report the naive way: per-line json.loads, model objects, the scalar metric functions.

    Returns (text report, frame) so the caller can check both paths agree.
    """
    import pandas as pd

    from vital_core.analysis.report import render_text
    from vital_core.metrics.formulas import f1_at_k, median_k
    from vital_core.metrics.response import compute_response_metrics
    from vital_core.results.dataset import Dataset
    from vital_core.results.model import (
        DATASET_QUERY_TYPE,
        Nugget,
        ResponseResult,
        Subclaim,
        normalise_assignment,
        normalise_importance,
        normalise_verdict,
    )

    rows, verdict_lists = [], []
    for nm in sorted(root.rglob("new-metric-out.jsonl")):
        cond_dir = nm.parent
        subset_dir = cond_dir.parent
        dataset = subset_dir.parent.name
        with open(nm, encoding="utf-8") as f_nm, open(cond_dir / "nuggets-out.jsonl", encoding="utf-8") as f_nu, \
                open(cond_dir / "factscore-out.jsonl", encoding="utf-8") as f_fs:
            for i, (l1, l2, l3) in enumerate(zip(f_nm, f_nu, f_fs)):
                r, n, fs = json.loads(l1), json.loads(l2), json.loads(l3)
                claims = []
                for s_index, sent in enumerate(r["decomposition"]):
                    for d in sent["decomp"]:
                        claims.append(Subclaim(id=d["id"], text=d["text"], sentence_index=s_index,
                                               sentence=sent["sentence"],
                                               importance=normalise_importance(d.get("importance")),
                                               verdict=normalise_verdict(d.get("judgment"))))
                nuggets = [Nugget(id=x.get("id", f"N{k}"), text=x["text"], importance=x["importance"])
                           for k, x in enumerate(n["nuggets"])]
                assignment = {g.id: normalise_assignment(a)
                              for g, a in zip(nuggets, n["response"]["nugget-assignment"])}
                response = ResponseResult(variant=cond_dir.name, text=r["response"]["text"], subclaims=claims,
                                          order=list(r["subclaim-importance-order"]), nugget_assignment=assignment)
                rows.append({"example_id": f"{dataset}/{subset_dir.name}/{i}", "index": i,
                             "condition": cond_dir.name, "dataset": dataset, "subset": subset_dir.name,
                             "query_type": DATASET_QUERY_TYPE.get(dataset), "query": r["query"],
                             "released_score": fs.get("score"), "error": None, "scored_with": "", "warnings": 0,
                             **compute_response_metrics(response, nuggets)})
                verdict_lists.append([c.verdict for c in claims])
    k = median_k(row["n_subclaims"] for row in rows)
    for row, verdicts in zip(rows, verdict_lists):
        row["f1_at_k"] = f1_at_k(verdicts, k)
    frame = pd.DataFrame(rows)
    naive = Dataset(frame, pd.DataFrame(), f1_k=k, source=f"naive baseline over {root}")
    return render_text(naive), frame


def frames_agree(fast, naive) -> float:
    """Largest absolute difference over every metric of every record (NaN vs NaN counts as equal)."""
    import numpy as np

    from vital_core.results.frame import METRIC_COLUMNS
    key = ["example_id", "condition"]
    merged = fast.merge(naive, on=key, suffixes=("_fast", "_naive"))
    if len(merged) != len(fast) or len(merged) != len(naive):
        return float("inf")
    worst = 0.0
    for m in METRIC_COLUMNS:
        a = merged[f"{m}_fast"].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
        b = pd_float(merged[f"{m}_naive"])
        if (np.isnan(a) != np.isnan(b)).any():
            return float("inf")
        both = ~np.isnan(a)
        if both.any():
            worst = max(worst, float(np.abs(a[both] - b[both]).max()))
    return worst


def pd_float(series):
    import numpy as np
    import pandas as pd
    return pd.to_numeric(series.astype(object).where(series.notna(), np.nan), errors="coerce").to_numpy(float)


# --------------------------------------------------------------------------- child runs

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from vital_core.results.dataset import load_dataset
from vital_core.analysis.report import build_report, render_text
t_import = time.perf_counter() - t0
root, cache = sys.argv[1], sys.argv[2]
workers = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
t1, c1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
ds = load_dataset(root, cache_dir=cache, workers=workers)
t_load = time.perf_counter() - t1
c2, k2 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu_load = (c2.ru_utime + c2.ru_stime - c1.ru_utime - c1.ru_stime) + k2.ru_utime + k2.ru_stime
t2 = time.perf_counter()
text = render_text(ds)
t_report = time.perf_counter() - t2
t3 = time.perf_counter()
report = build_report(ds)
t_json = time.perf_counter() - t3
if len(sys.argv) > 3 and sys.argv[3]:
    ds.frame.to_pickle(sys.argv[3])
print(json.dumps({"import": t_import, "load": t_load, "cpu_load": cpu_load, "report": t_report, "json": t_json,
                  "from_cache": ds.from_cache, "rows": len(ds.frame),
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "workers_maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def run_child(root: Path, cache: Path, frame_out: Path | None = None, workers: int | None = None) -> dict:
    extra = [str(frame_out) if frame_out else "", str(workers or "")]
    proc = subprocess.run([sys.executable, "-c", CHILD, str(root), str(cache), *extra], cwd=REPO,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure_alternated(root: Path, work: Path, repeat: int, naive: bool) -> dict:
    """The floors, the cold load with one and with two reading processes, and the naive baseline, alternated
    round by round (the best of ``repeat`` each): the same work under the same conditions."""
    field_lines, field_bytes = used_field_lines(root)
    runs: dict[str, list] = {"floor all": [], "floor parsed": [], "floor fields": [], "floor parsed, json": [],
                             "1 process": [], "2 processes": [], "naive": []}
    for r in range(repeat):
        runs["floor all"].append(parse_floor(root, parsed_only=False))
        runs["floor parsed"].append(parse_floor(root, parsed_only=True))
        runs["floor fields"].append((fields_floor(field_lines), field_bytes))
        runs["floor parsed, json"].append(parse_floor(root, parsed_only=True, stdlib=True))
        runs["1 process"].append(run_child(root, work / f"cold-1-{r}", work / "frame.pkl", workers=1))
        runs["2 processes"].append(run_child(root, work / f"cold-2-{r}", workers=2))
        if naive:
            t = time.perf_counter()
            _, naive_frame = naive_report(root)
            runs["naive"].append(time.perf_counter() - t)
    runs["naive_frame"] = naive_frame if naive else None
    return runs


def report_alternated(runs: dict, work: Path) -> None:
    import pandas as pd

    from vital_core.loaders.discover import PARSER
    (f_all, b_all), (f_parsed, b_parsed), (f_fields, b_fields) = (
        min(runs[k]) for k in ("floor all", "floor parsed", "floor fields"))
    print(f"floors ({PARSER}.loads per line, in this process): all files {f_all:.2f} s ({b_all / 1e6:,.0f} MB); "
          f"the files the loader parses {f_parsed:.2f} s ({b_parsed / 1e6:,.0f} MB); only the fields it uses "
          f"{f_fields:.2f} s ({b_fields / 1e6:,.0f} MB, cut down beforehand, no file reading)")
    f_json = min(runs["floor parsed, json"])[0]
    print(f"  the files the loader parses with json.loads instead: {f_json:.2f} s = {f_json / f_parsed:.1f}x "
          f"{PARSER}'s time (isolates the parser: same bytes, same lines)")
    loads = {name: min(c["load"] for c in runs[name]) for name in ("1 process", "2 processes")}
    for name, load in loads.items():
        print(f"cold load, {name} reading (fresh process): {load:.2f} s = {load / f_parsed:.2f}x the floor of the "
              f"files it parses (isolates the loader's work beyond parsing; target <= 2x), {load / f_fields:.1f}x the "
              f"floor of the fields it uses (isolates decoding the fields it ignores, plus its checks and extraction)")
    one = min(runs["1 process"], key=lambda c: c["load"])
    print(f"two reading processes vs one: {loads['1 process'] / loads['2 processes']:.2f}x "
          f"({'two win' if loads['2 processes'] < loads['1 process'] else 'one wins'} on this {os.cpu_count()}-CPU "
          f"machine at load average {os.getloadavg()[0]:.2f}; CPU time of the one-process load "
          f"{one['cpu_load']:.2f} s); {default_workers_note(root_size(runs))}")
    best = min(min(c["load"] + c["report"] for c in runs[n]) for n in loads)
    print(f"cold load + text report (what `report PATH` does): {best:.2f} s; the tables alone {one['report']:.2f} s "
          f"(the paper convention with the authors' tests for three groups), the --json object instead "
          f"{one['json']:.2f} s; imports {one['import']:.2f} s not counted; {one['rows']:,} rows")
    print(f"  peak RSS of the cold process: {one['maxrss_kb'] / 1024:,.0f} MB (target <= 3,072 MB)")
    if runs["naive"]:
        t_naive = min(runs["naive"])
        worst = frames_agree(pd.read_pickle(work / "frame.pkl"), runs["naive_frame"])
        print(f"naive baseline (json.loads per line, model objects, scalar metric functions, same tables; "
              f"in this process, imports warm): {t_naive:.2f} s = {t_naive / best:.1f}x the best cold load + report "
              f"(isolates the columnar path: same files, same tables); largest difference between the two over "
              f"every metric of every record: {worst:.1e}")


def root_size(runs: dict) -> int:
    return min(runs["floor all"])[1]


def default_workers_note(size: int) -> str:
    """What the loader does by default for an input of this size (``dataset._scan_all``), to set beside the
    measurement."""
    from vital_core.results import dataset
    threshold = getattr(dataset, "PARALLEL_MIN_BYTES", None)
    if threshold is None:
        return "the loader's default: one reading process"
    chosen = "two processes" if size >= threshold else "one process"
    return (f"the loader's default for {size / 2 ** 20:,.0f} MiB from the CLI: {chosen} "
            f"(two from {threshold / 2 ** 20:,.0f} MiB)")


def measure_warm(root: Path, cache: Path, repeat: int) -> None:
    run_child(root, cache)   # fills the cache
    warm = min((run_child(root, cache) for _ in range(repeat)), key=lambda c: c["load"])
    assert warm["from_cache"], "the second run did not use the dataset cache"
    print(f"warm load: {warm['load']:.3f} s (target <= 1 s); warm load + text report "
          f"{warm['load'] + warm['report']:.2f} s; peak RSS {warm['maxrss_kb'] / 1024:,.0f} MB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the 6,726 queries (default 1)")
    parser.add_argument("--dir", type=Path, default=None, help="generate here (kept) instead of a temp folder")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--skip-naive", action="store_true", help="do not run the naive baseline")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of the floor, cold and warm measurements; the fastest is reported (default 3)")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="vital-bench-"))
    root = args.dir or (work / "release")
    cache = work / "cache"
    try:
        if root.exists():
            shutil.rmtree(root)
        print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start "
              f"(other work on the machine slows every figure alike)")
        t = time.perf_counter()
        queries, size = generate(root, args.scale, args.seed)
        print(f"generated {queries:,} queries x 3 conditions ({size / 1e6:,.0f} MB) in "
              f"{time.perf_counter() - t:.1f} s under {root}")

        repeat = max(1, args.repeat)
        report_alternated(measure_alternated(root, work, repeat, not args.skip_naive), work)
        measure_warm(root, cache, repeat)
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    finally:
        if args.dir is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            shutil.rmtree(cache, ignore_errors=True)
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
