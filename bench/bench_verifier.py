"""Quality and speed of the offline verifier on the dev sets in ``data/dev``.

    python -m bench.bench_verifier                    # both parts
    python -m bench.bench_verifier --part cases       # claim/passage cases only
    python -m bench.bench_verifier --part triples     # paragraph triples only
    python -m bench.bench_verifier --errors           # also list every case it gets wrong

1. ``data/dev/verifier_cases.jsonl``: each claim is verified against its
   passage (``verify.verify_claims``, documents mode). Accuracy, the
   false-contradiction rate (share of the cases that are not contradicted
   which the verifier calls contradicted), the confusion matrix and accuracy
   per failure class.
2. ``data/dev/paragraph_triples.jsonl``: each triple's normal / missing /
   wrong responses are scored with their documents (and reference answer)
   through ``vital_core.scoring.pipeline.score_example`` with the offline backend:
   FactScore of the normal answers; the "wrong" story (FactScore moves < 0.10
   while VITAL precision drops >= 0.10 or RLP fires, not on normal); the
   "missing" story (VITAL recall drops >= 0.10 or RLR fires, not on normal);
   the missing variant checked against the normal response as the reference
   (no documents) must get no contradicted claim, neither among its own
   claims nor among the normal's claims checked against it; seconds per
   response (embedding cache cleared before each triple).

The baseline printed beside each figure is the verifier as it was before the
issue-10 work (commit 1eb5ee7), measured with this same script at the start of
that work on the same machine; it is recorded in ``BASELINE`` below, not rerun.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path

from vital_core.analysis.story import judge_story  # the stories' rule, shared with bench_story
from vital_core.backends.offline import OfflineBackend
from vital_core.backends.offline.language.embedder import get_embedder
from vital_core.backends.offline.verify import verify_claims
from vital_core.metrics import compute_response_metrics
from vital_core.results.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, SUPPORTED, Document
from vital_core.scoring.pipeline import run_sync, score_example

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"
SETS = ("dev", "dev2", "train_a", "train_b", "holdout", "holdout2")
# written without reading the verifier, and their errors never read: the figure a user should believe
UNSEEN_SETS = ("train_a", "train_b", "holdout", "holdout2")
LABELS = (SUPPORTED, CONTRADICTED, NOT_ENOUGH_EVIDENCE)
SHORT = {SUPPORTED: "sup", CONTRADICTED: "con", NOT_ENOUGH_EVIDENCE: "nee"}

TARGETS = {
    "accuracy": ">= 0.80", "false_contradictions": "<= 0.05",
    "normal_factscore": ">= 14 of 16 with FactScore >= 0.8", "wrong_story": ">= 13 of 16",
    "missing_story": ">= 10 of 16", "missing_vs_normal_contradicted": "0 triples",
    "seconds_per_response": "<= 0.5 s", "normal_contradicted": "0 (the worst error)",
}
# The verifier before this work (commit 1eb5ee7), measured by this script at the start of the work.
BASELINE = {
    "accuracy": 0.406, "false_contradictions": 0.473, "normal_factscore": "0 of 16", "wrong_story": "3 of 16",
    "missing_story": "2 of 16", "missing_vs_normal_contradicted": "7 of 16", "seconds_per_response": 0.558,
}


def load_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def row(name: str, value: str, key: str) -> None:
    base = BASELINE.get(key)
    base_text = "-" if base is None else (f"{base:.3f}" if isinstance(base, float) else str(base))
    print(f"   {name:<58} {value:>14}   target {TARGETS[key]:<34} baseline {base_text}")


# --------------------------------------------------------------------------- part 1: cases

def run_cases(cases: list[dict]) -> list[tuple[dict, object]]:
    out = []
    for case in cases:
        verdict = verify_claims([case["claim"]], [Document(id="passage", text=case["passage"])])[0]
        out.append((case, verdict))
    return out


def case_figures(results: list[tuple[dict, object]]) -> dict:
    confusion = Counter((c["label"], v.verdict) for c, v in results)
    correct = sum(n for (gold, got), n in confusion.items() if gold == got)
    not_contra = [(c, v) for c, v in results if c["label"] != CONTRADICTED]
    false_contra = sum(v.verdict == CONTRADICTED for _, v in not_contra)
    per_class: dict[str, list[bool]] = defaultdict(list)
    for c, v in results:
        per_class[c["class"]].append(c["label"] == v.verdict)
    return {"n": len(results), "accuracy": correct / len(results),
            "false_contradictions": false_contra / max(1, len(not_contra)),
            "false_contradiction_count": false_contra, "not_contradicted": len(not_contra),
            "confusion": {f"{g}->{p}": confusion.get((g, p), 0) for g in LABELS for p in LABELS},
            "per_class": {k: sum(v) / len(v) for k, v in sorted(per_class.items())},
            "per_class_n": {k: len(v) for k, v in sorted(per_class.items())}}


def unseen_case_figures() -> dict:
    """The cases of every unseen set pooled: what the verifier gets right on wording it was not tuned on."""
    results = [r for name in UNSEEN_SETS for r in run_cases(load_jsonl(DATA / name / "verifier_cases.jsonl"))]
    figures = case_figures(results)
    return {"accuracy_unseen": figures["accuracy"], "false_contradictions_unseen": figures["false_contradictions"],
            "cases": figures["n"], "sets": list(UNSEEN_SETS)}


def print_cases(fig: dict, results, show_errors: bool) -> None:
    print(f"\n1. Claim/passage cases (verifier_cases.jsonl, {fig['n']} cases)")
    row("accuracy", f"{fig['accuracy']:.3f}", "accuracy")
    row(f"false contradictions ({fig['false_contradiction_count']} of {fig['not_contradicted']} "
        "not-contradicted)", f"{fig['false_contradictions']:.3f}", "false_contradictions")
    print("   confusion (rows gold, columns verifier):      sup   con   nee")
    for g in LABELS:
        print(f"     {g:<42}" + "".join(f"{fig['confusion'][f'{g}->{p}']:>6}" for p in LABELS))
    print("   accuracy per class:")
    for name, acc in fig["per_class"].items():
        print(f"     {name:<22} {acc:.2f}  ({fig['per_class_n'][name]} cases)")
    if show_errors:
        print("   cases it gets wrong:")
        for c, v in results:
            if c["label"] != v.verdict:
                print(f"     {c['id']} [{c['class']}] gold {SHORT[c['label']]} got {SHORT[v.verdict]}: "
                      f"{c['claim']}\n        reason: {v.reason}")


# --------------------------------------------------------------------------- part 2: triples

def metrics_of(example, variant: str) -> dict:
    return compute_response_metrics(example.variants[variant], example.nuggets)


def score_triple(backend: OfflineBackend, t: dict) -> tuple[dict, float, int]:
    """The variants' metrics, seconds per response, and the correct answer's contradicted claims."""
    docs = [Document(id=d["id"], title=d.get("title", ""), text=d["text"]) for d in t["documents"]]
    get_embedder().clear_cache()
    start = time.perf_counter()
    example = run_sync(score_example(backend, example_id=t["id"], query=t["query"], responses=t["responses"],
                                     documents=docs, reference=t.get("reference")))
    seconds = (time.perf_counter() - start) / len(t["responses"])
    errors = [v.error for v in example.variants.values() if v.error]
    if errors:
        raise RuntimeError(f"{t['id']}: {errors}")
    contradicted = sum(s.verdict == CONTRADICTED for s in example.variants["normal"].subclaims)
    return {v: metrics_of(example, v) for v in t["responses"]}, seconds, contradicted


def missing_against_normal(backend: OfflineBackend, t: dict) -> int:
    """Contradicted claims when the missing variant is checked against the normal response as reference:
    its own claims, and the normal's claims checked against it."""
    example = run_sync(score_example(backend, example_id=t["id"], query=t["query"],
                                     responses={"missing": t["responses"]["missing"]},
                                     reference=t["responses"]["normal"]))
    result = example.variants["missing"]
    own = sum(s.verdict == CONTRADICTED for s in result.subclaims)
    theirs = sum(s.verdict == CONTRADICTED for s in (result.reference_claims or []))
    return own + theirs


def triple_figures(backend: OfflineBackend, triples: list[dict]) -> dict:
    rows, seconds = [], []
    for t in triples:
        metrics, per_response, contradicted = score_triple(backend, t)
        judged = judge_story(metrics)
        judged["id"] = t["id"]
        judged["normal_contradicted"] = contradicted
        judged["missing_vs_normal_contradicted"] = missing_against_normal(backend, t)
        rows.append(judged)
        seconds.append(per_response)
    return {"n": len(rows), "rows": rows,
            "normal_factscore": sum(r["normal_ok"] for r in rows),
            "wrong_story": sum(r["wrong_ok"] for r in rows),
            "missing_story": sum(r["missing_ok"] for r in rows),
            "missing_vs_normal_contradicted": sum(r["missing_vs_normal_contradicted"] > 0 for r in rows),
            "normal_contradicted": sum(r["normal_contradicted"] for r in rows),
            "seconds_per_response": statistics.median(seconds),
            "seconds_per_response_max": max(seconds)}


def _fmt(value) -> str:
    return "  -  " if value is None else f"{value:+.2f}"


def print_triples(fig: dict) -> None:
    n = fig["n"]
    print(f"\n2. Paragraph triples (paragraph_triples.jsonl, {n} triples, documents + reference)")
    print("   id   normal-FS  wrong: dFS   dVP  RLP-new ok   missing: dVR  RLR-new ok   missing-vs-normal contra")
    for r in fig["rows"]:
        print(f"   {r['id']:<5} {r['normal_factscore'] or 0:>6.2f}     {_fmt(-(r['fs_move'] or 0)):>6} "
              f"{_fmt(-(r['vp_drop']) if r['vp_drop'] is not None else None):>6}  {str(r['rlp_new']):<5}  "
              f"{'Y' if r['wrong_ok'] else '-'}            "
              f"{_fmt(-(r['vr_drop']) if r['vr_drop'] is not None else None):>6}"
              f"  {str(r['rlr_new']):<5}   {'Y' if r['missing_ok'] else '-'}    {r['missing_vs_normal_contradicted']}")
    row("normal answers with FactScore >= 0.8", f"{fig['normal_factscore']} of {n}", "normal_factscore")
    row("wrong: FactScore moves < 0.10, VITAL precision/RLP notices", f"{fig['wrong_story']} of {n}", "wrong_story")
    row("missing: VITAL recall drops >= 0.10 or RLR fires", f"{fig['missing_story']} of {n}", "missing_story")
    row("missing vs normal as reference: triples with a contradiction",
        f"{fig['missing_vs_normal_contradicted']} of {n}", "missing_vs_normal_contradicted")
    row("contradicted claims in the correct answers", f"{fig['normal_contradicted']}", "normal_contradicted")
    row("seconds per response (median over triples)", f"{fig['seconds_per_response']:.3f}",
        "seconds_per_response")
    print(f"   (slowest triple: {fig['seconds_per_response_max']:.3f} s per response)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("cases", "triples"), action="append")
    parser.add_argument("--errors", action="store_true", help="list the cases the verifier gets wrong")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--set", choices=SETS, default="dev",
                        help="data/dev and data/dev2 (rules were tuned on their errors), data/train_a and "
                             "data/train_b (written without reading the verifier, to fit learned parts on), "
                             "data/holdout and data/holdout2 (written without reading the verifier; measured, "
                             "their errors never read)")
    args = parser.parse_args(argv)
    parts = args.part or ["cases", "triples"]
    folder = DATA / args.set
    print(f"set: {folder.relative_to(REPO)}")
    backend = OfflineBackend()
    backend.warm_up()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    figures: dict = {}
    if "cases" in parts:
        results = run_cases(load_jsonl(folder / "verifier_cases.jsonl"))
        figures["cases"] = case_figures(results)
        print_cases(figures["cases"], results, args.errors)
    if "triples" in parts:
        figures["triples"] = triple_figures(backend, load_jsonl(folder / "paragraph_triples.jsonl"))
        print_triples(figures["triples"])
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
