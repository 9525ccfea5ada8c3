"""A full-scale synthetic VitalErrors release in the official layout, seeded and deterministic
(``bench_report`` and ``bench_app`` load it):
ROOT/{dataset}/{subset}/original.jsonl and
ROOT/{dataset}/{subset}/{normal,missing,wrong}/{data,factscore-out,nuggets-out,new-metric-out}.jsonl,
with 6,726 queries at scale 1 (~25 subclaims, ~12 nuggets, ~2 KB of documents per query)."""
from __future__ import annotations

import json
import random
from pathlib import Path

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
