"""A seeded synthetic VitalErrors release for the paper-convention tests.

``make_paper_release(root, seed)`` writes the official layout
(``ROOT/{dataset}/{subset}/original.jsonl`` and
``ROOT/{dataset}/{subset}/{normal,missing,wrong}/{data,factscore-out,nuggets-out,new-metric-out}.jsonl``)
with subsets of unequal size, so that a record-pooled mean and the paper's mean of subset means differ.

The per-record ``scores`` in ``new-metric-out.jsonl`` are written the way the reference implementation
(vital/metrics.py, as described in notes/paper_conventions.md section 2) computes them: see ``vital_scores``.
That function is also checked against the real records in ../shared by the tests.

Edge cases placed on purpose (see ``RESPONSE_EDGES`` / ``QUERY_EDGES``), each in several subsets and, for the
response-level ones, in every condition of both query types:
  all-null judgments with ``score: null``, ``score: 0.0`` with every judgment false, no vital subclaim,
  an empty decomposition, exactly one subclaim, no vital nugget, exactly one nugget, no nugget at all,
  and ``partial_support`` assignments.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

CONDITIONS = ("normal", "missing", "wrong")
TIERS = ("vital", "okay", "less-important")
PREFIX = "In a paragraph, could you answer: "

# (dataset, subset, number of queries) -- deliberately unequal
SUBSETS: tuple[tuple[str, str, int], ...] = (
    ("naturalquestions", "val_1", 12),
    ("naturalquestions", "val_2", 4),
    ("triviaqa", "rc_1", 8),
    ("bright", "biology", 3),
    ("bright", "robotics", 9),
    ("factscore", "bios", 6),
    ("wildhallucinations", "geographic", 5),
)

# Response-level edge cases: (dataset/subset, query index) -> {condition: edge}.
#   all_null   every judgment null, factscore score null
#   zero       judged, every judgment false, factscore score 0.0 (dropped by the paper's truthy filter)
#   no_vital   no subclaim labelled vital (vital-precision 0, flagged by RLP)
#   empty      no subclaims at all (decomposition [])
#   empty_sent one sentence whose decomp list is empty (also no subclaims)
#   one        exactly one subclaim (linear decay 0 whatever its judgment)
RESPONSE_EDGES: dict[tuple[str, int], dict[str, str]] = {
    ("naturalquestions/val_1", 0): {"normal": "all_null", "missing": "all_null", "wrong": "all_null"},
    ("naturalquestions/val_1", 1): {"normal": "zero", "missing": "one", "wrong": "no_vital"},
    ("naturalquestions/val_1", 3): {"missing": "zero", "wrong": "empty"},
    ("naturalquestions/val_1", 5): {"normal": "no_vital", "wrong": "zero"},
    ("naturalquestions/val_1", 7): {"normal": "one", "missing": "no_vital"},
    ("naturalquestions/val_2", 2): {"normal": "empty", "missing": "empty_sent", "wrong": "one"},
    ("naturalquestions/val_2", 3): {"normal": "all_null", "missing": "all_null", "wrong": "all_null"},
    ("triviaqa/rc_1", 1): {"normal": "zero", "missing": "zero", "wrong": "zero"},
    ("triviaqa/rc_1", 4): {"normal": "no_vital", "missing": "one", "wrong": "all_null"},
    ("bright/biology", 1): {"normal": "zero", "missing": "no_vital", "wrong": "one"},
    ("bright/robotics", 0): {"normal": "all_null", "missing": "all_null", "wrong": "all_null"},
    ("bright/robotics", 2): {"normal": "no_vital", "missing": "zero", "wrong": "zero"},
    ("bright/robotics", 4): {"normal": "one", "missing": "empty", "wrong": "no_vital"},
    ("bright/robotics", 6): {"missing": "one", "wrong": "empty_sent"},
    ("factscore/bios", 0): {"normal": "empty", "missing": "zero", "wrong": "one"},
    ("factscore/bios", 3): {"normal": "zero", "missing": "all_null", "wrong": "zero"},
    ("wildhallucinations/geographic", 1): {"normal": "all_null", "missing": "all_null", "wrong": "all_null"},
    ("wildhallucinations/geographic", 2): {"normal": "one", "missing": "no_vital", "wrong": "zero"},
}

# Query-level (nugget) edge cases: (dataset/subset, query index) -> edge.
#   no_vital_nuggets   nuggets present, none vital (VITAL_REC 0, RLR flagged)
#   one_nugget         exactly one nugget (vital), linear-decay recall 0
#   no_nuggets         nuggets == []
#   partial            every vital nugget partial_support in every condition (strict != lenient)
# (No nugget-assignment list shorter than its nuggets: the authors' scripts zip the two and drop the rest,
#  the project's loader refuses such a record with its file and line, so the two cannot be compared.)
QUERY_EDGES: dict[tuple[str, int], str] = {
    ("naturalquestions/val_1", 2): "no_vital_nuggets",
    ("naturalquestions/val_1", 4): "one_nugget",
    ("naturalquestions/val_1", 6): "partial",
    ("naturalquestions/val_2", 0): "no_vital_nuggets",
    ("naturalquestions/val_2", 1): "partial",
    ("triviaqa/rc_1", 0): "one_nugget",
    ("triviaqa/rc_1", 3): "no_nuggets",
    ("triviaqa/rc_1", 5): "partial",
    ("bright/biology", 0): "no_vital_nuggets",
    ("bright/robotics", 1): "one_nugget",
    ("bright/robotics", 3): "partial",
    ("factscore/bios", 1): "no_vital_nuggets",
    ("factscore/bios", 4): "partial",
    ("wildhallucinations/geographic", 0): "one_nugget",
    ("wildhallucinations/geographic", 3): "no_vital_nuggets",
}

# Tier weights that reproduce the released weighted-precision (shared/README.md).
TIER_WEIGHTS = {"vital": 1.0, "okay": 0.6, "less-important": 0.4}
TOP_K = 5


# ---------------------------------------------------------------- vital/metrics.py, as specified in section 2

def linear_decay(judgments: list[int]) -> float:
    """Weights w_i = (n-i)/i for i = 1..n; score = sum(w*j)/sum(w); 0 when n == 0 or sum(w) == 0."""
    n = len(judgments)
    if n == 0:
        return 0.0
    weights = [(n - i) / i for i in range(1, n + 1)]
    total = sum(weights)
    if total == 0:
        return 0.0
    return sum(w * j for w, j in zip(weights, judgments)) / total


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def vital_scores(decomposition: list[dict], order: list[str] | None,
                 assignment: list[str] | None = None, nuggets: list[dict] | None = None) -> dict:
    """The ``scores`` dict of one new-metric-out record.

    Subclaims count as supported when their judgment is truthy (null and false are unsupported); tier
    precision is 0 for an empty tier; linear-decay precision runs in ``subclaim-importance-order``
    (response order when no order is given); recall is lenient (anything but ``not_support``), over the
    whole nugget-assignment list for linear decay, over vital/okay nuggets (inside the zip) for weighted.
    """
    atoms = [a for sent in decomposition for a in sent["decomp"]]
    by_id = {a["id"]: a for a in atoms}
    out: dict = {}
    num = den = 0.0
    for tier in TIERS:
        members = [a for a in atoms if a["importance"] == tier]
        supported = sum(1 for a in members if a["judgment"])
        out[f"{tier}-precision"] = supported / len(members) if members else 0
        out[f"{tier}-subclaims"] = len(members)
        num += TIER_WEIGHTS[tier] * supported
        den += TIER_WEIGHTS[tier] * len(members)
    precision = num / den if den > 0 else 0
    assignment = assignment or []
    nuggets = nuggets or []
    rnum = rden = 0.0
    for support, nugget in zip(assignment, nuggets):
        if nugget["importance"] in ("vital", "okay"):
            w = TIER_WEIGHTS[nugget["importance"]]
            rden += w
            rnum += w if support != "not_support" else 0.0
    recall = rnum / rden if rden > 0 else 0
    ordered = [by_id[i] for i in order] if order else atoms
    pj = [1 if a["judgment"] else 0 for a in ordered]
    rj = [1 if s != "not_support" else 0 for s in assignment]
    ldp, ldr = linear_decay(pj), linear_decay(rj)
    ldp_k, ldr_k = linear_decay(pj[:TOP_K]), linear_decay(rj[:TOP_K])
    return {
        "weighted-precision": precision, "weighted-recall": recall, "weighted-f1": _f1(precision, recall),
        "vital-precision": out["vital-precision"], "vital-subclaims": out["vital-subclaims"],
        "okay-precision": out["okay-precision"], "okay-subclaims": out["okay-subclaims"],
        "less-important-precision": out["less-important-precision"],
        "less-important-subclaims": out["less-important-subclaims"],
        "linear-decay-precision": ldp, "linear-decay-recall": ldr, "linear-decay-f1": _f1(ldp, ldr),
        "linear-decay-precision-topk": ldp_k, "linear-decay-recall-topk": ldr_k,
        "linear-decay-f1-topk": _f1(ldp_k, ldr_k),
    }


# ---------------------------------------------------------------- generation

def _base_claims(rng: random.Random, q: str) -> list[dict]:
    n = rng.randint(3, 12)
    claims = []
    for i in range(n):
        tier = rng.choices(TIERS, weights=(3, 4, 3))[0]
        supported = rng.random() < (0.96 if tier == "vital" else 0.85)
        claims.append({"text": f"{q} fact {i}.", "importance": tier, "judgment": supported})
    if not any(c["importance"] == "vital" for c in claims):
        claims[0]["importance"] = "vital"
    return claims


def _variant(rng: random.Random, claims: list[dict], condition: str) -> list[dict]:
    claims = [dict(c) for c in claims]
    vital = [i for i, c in enumerate(claims) if c["importance"] == "vital"]
    if condition == "missing":
        drop = set(rng.sample(vital, k=min(len(vital), rng.randint(1, 2))))
        claims = [c for i, c in enumerate(claims) if i not in drop]
        claims = [c for c in claims if rng.random() < 0.85]       # shorter answers
    elif condition == "wrong":
        for i in rng.sample(vital, k=min(len(vital), rng.randint(1, 2))):
            claims[i]["judgment"] = False
            claims[i]["text"] = claims[i]["text"].replace("fact", "wrong fact")
    for c in claims:                                                 # a little judge noise
        if rng.random() < 0.08:
            c["judgment"] = not c["judgment"]
    return claims


def _apply_response_edge(rng: random.Random, claims: list[dict], edge: str | None, q: str) -> list[dict]:
    if edge in ("empty", "empty_sent"):
        return []
    if edge == "one":
        return [{"text": f"{q} lone fact.", "importance": rng.choice(TIERS), "judgment": rng.random() < 0.7}]
    if not claims:
        claims = [{"text": f"{q} filler fact.", "importance": "okay", "judgment": True}]
    if edge == "all_null":
        return [{**c, "judgment": None} for c in claims]
    if edge == "zero":
        return [{**c, "judgment": False} for c in claims]
    if edge == "no_vital":
        return [{**c, "importance": "okay" if c["importance"] == "vital" else c["importance"]} for c in claims]
    return claims


def _decomposition(rng: random.Random, claims: list[dict], edge: str | None, q: str, cond: str):
    """Split claims into sentences; ids S1..Sn in response order; returns (new-metric decomposition, text)."""
    if edge == "empty_sent":
        return [{"sentence": f"{q} ({cond}): nothing to check.", "decomp": []}], f"{q} ({cond}): nothing to check."
    if not claims:
        return [], ""
    sentences, i, sid = [], 0, 1
    while i < len(claims):
        k = rng.randint(1, 4)
        chunk = claims[i:i + k]
        decomp = []
        for c in chunk:
            decomp.append({"id": f"S{sid}", "text": c["text"], "judgment": c["judgment"],
                           "importance": c["importance"]})
            sid += 1
        sentences.append({"sentence": " ".join(c["text"] for c in chunk), "decomp": decomp})
        i += k
    return sentences, " ".join(s["sentence"] for s in sentences)


def _importance_order(rng: random.Random, decomposition: list[dict]) -> list[str]:
    """Most important first: tiers in order, shuffled inside each tier (so it differs from response order)."""
    atoms = [a for s in decomposition for a in s["decomp"]]
    order = []
    for tier in TIERS:
        ids = [a["id"] for a in atoms if a["importance"] == tier]
        rng.shuffle(ids)
        order += ids
    return order


def _nuggets(rng: random.Random, edge: str | None, q: str) -> list[dict]:
    if edge == "no_nuggets":
        return []
    if edge == "one_nugget":
        return [{"id": "N0", "text": f"{q} nugget 0", "importance": "vital"}]
    n = rng.randint(3, 6) if edge in ("truncated", "truncated_missing") else rng.randint(2, 6)
    tiers = [rng.choice(("vital", "okay")) for _ in range(n)]
    if edge == "no_vital_nuggets":
        tiers = ["okay"] * n
    elif "vital" not in tiers:
        tiers[0] = "vital"
    if edge in ("truncated", "truncated_missing"):     # the last two nuggets are okay and get cut off
        tiers[-1] = tiers[-2] = "okay"
        if "vital" not in tiers:
            tiers[0] = "vital"
    return [{"id": f"N{i}", "text": f"{q} nugget {i}", "importance": t} for i, t in enumerate(tiers)]


_SUPPORT_P = {  # (support, partial_support, not_support) probabilities for vital / okay nuggets
    "normal": {"vital": (0.6, 0.15, 0.25), "okay": (0.45, 0.2, 0.35)},
    "missing": {"vital": (0.25, 0.15, 0.6), "okay": (0.4, 0.2, 0.4)},
    "wrong": {"vital": (0.3, 0.2, 0.5), "okay": (0.45, 0.2, 0.35)},
}


def _assignment(rng: random.Random, nuggets: list[dict], cond: str, edge: str | None) -> list[str]:
    labels = []
    for n in nuggets:
        if edge == "partial" and n["importance"] == "vital":
            labels.append("partial_support")
            continue
        p = _SUPPORT_P[cond][n["importance"]]
        labels.append(rng.choices(("support", "partial_support", "not_support"), weights=p)[0])
    if edge == "truncated" or (edge == "truncated_missing" and cond == "missing"):
        labels = labels[:-2]
    return labels


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def make_paper_release(root: Path, seed: int = 7) -> Path:
    """Write the synthetic release under ``root`` and return ``root``."""
    rng = random.Random(seed)
    root = Path(root)
    for dataset, subset, n in SUBSETS:
        key = f"{dataset}/{subset}"
        base = root / dataset / subset
        files: dict[str, dict[str, list[dict]]] = {c: {} for c in CONDITIONS}
        originals = []
        for q in range(n):
            qtext = f"{dataset} {subset} question {q}"
            query = PREFIX + qtext
            docs = [{"id": f"{subset}-d{q}", "text": f"Document about {qtext}."}]
            originals.append({"query": qtext, "documents": docs, "gold_response": f"Gold answer to {qtext}."})
            qedge = QUERY_EDGES.get((key, q))
            nuggets = _nuggets(rng, qedge, qtext)
            base_claims = _base_claims(rng, qtext)
            for cond in CONDITIONS:
                redge = RESPONSE_EDGES.get((key, q), {}).get(cond)
                claims = _variant(rng, base_claims, cond) if cond != "normal" else [dict(c) for c in base_claims]
                claims = _apply_response_edge(rng, claims, redge, qtext)
                decomposition, text = _decomposition(rng, claims, redge, qtext, cond)
                order = _importance_order(rng, decomposition)
                assignment = _assignment(rng, nuggets, cond, qedge)
                response = {"id": str(q), "text": text or f"({cond} response {q})"}
                atoms = [a for s in decomposition for a in s["decomp"]]
                if not atoms or all(a["judgment"] is None for a in atoms):
                    score = None
                else:   # supported / total over the scored facts
                    score = sum(1 for a in atoms if a["judgment"]) / len(atoms)
                fs_decomposition = [{"sentence": s["sentence"],
                                     "decomp": [{"text": a["text"], "judgment": a["judgment"]} for a in s["decomp"]]}
                                    for s in decomposition]
                n2s = {nug["id"]: sorted(rng.sample([a["id"] for a in atoms], k=min(len(atoms), rng.randint(0, 2))))
                       for nug in nuggets}
                recs = {
                    "data": {"query": query, "response": response, "documents": None},
                    "factscore-out": {"query": query, "response": response, "decomposition": fs_decomposition,
                                      "score": score},
                    "nuggets-out": {"query": query, "response": {**response, "nugget-assignment": assignment},
                                    "nuggets": nuggets, "documents": docs},
                    "new-metric-out": {"query": query, "response": response, "decomposition": decomposition,
                                       "N2S": n2s, "subclaim-importance-order": order,
                                       "scores": vital_scores(decomposition, order, assignment, nuggets)},
                }
                for kind, rec in recs.items():
                    files[cond].setdefault(kind, []).append(rec)
        write_jsonl(base / "original.jsonl", originals)
        for cond in CONDITIONS:
            for kind, records in files[cond].items():
                write_jsonl(base / cond / f"{kind}.jsonl", records)
    return root
