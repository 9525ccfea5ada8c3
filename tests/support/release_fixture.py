"""Write tiny VitalErrors-release trees into a temp folder for loader / report tests.

Records follow the official shapes: data.jsonl, factscore-out.jsonl,
nuggets-out.jsonl, new-metric-out.jsonl per condition, plus original.jsonl.
"""
from __future__ import annotations

import json
from pathlib import Path

CONDITIONS = ("normal", "missing", "wrong")


def subclaims_for(q: int, condition: str) -> list[dict]:
    """Deterministic decomposition: 4 subclaims; the variants lose or break the vital one."""
    claims = [
        {"id": "S1", "text": f"Q{q} vital fact.", "judgment": True, "importance": "vital"},
        {"id": "S2", "text": f"Q{q} okay fact.", "judgment": True, "importance": "okay"},
        {"id": "S3", "text": f"Q{q} detail.", "judgment": None, "importance": "less-important"},
        {"id": "S4", "text": f"Q{q} other detail.", "judgment": False, "importance": "less-important"},
    ]
    if condition == "missing":
        claims = claims[1:]
    elif condition == "wrong":
        claims[0] = {**claims[0], "text": f"Q{q} wrong fact.", "judgment": False}
    return claims


def nuggets_for(q: int) -> list[dict]:
    return [{"id": "N0", "text": f"Q{q} key nugget", "importance": "vital"},
            {"id": "N1", "text": f"Q{q} side nugget", "importance": "okay"},
            {"id": "N2", "text": f"Q{q} extra nugget", "importance": "okay"}]


def assignment_for(condition: str) -> list[str]:
    return {"normal": ["support", "support", "partial_support"],
            "missing": ["not_support", "support", "partial_support"],
            "wrong": ["partial_support", "support", "not_support"]}[condition]


def query_text(dataset: str, q: int) -> str:
    return f"In a paragraph, could you answer: {dataset} question number {q}"


def condition_records(dataset: str, q: int, condition: str) -> dict[str, dict]:
    query = query_text(dataset, q)
    response = {"id": str(q), "text": f"Answer {q} ({condition})."}
    docs = [{"id": f"d{q}", "text": f"Document about question {q}."}]
    claims = subclaims_for(q, condition)
    decomposition = [{"sentence": response["text"], "decomp": claims}]
    fs_decomposition = [{"sentence": response["text"],
                         "decomp": [{"text": c["text"], "judgment": c["judgment"]} for c in claims]}]
    order = [c["id"] for c in sorted(claims, key=lambda c: ("vital", "okay", "less-important").index(c["importance"]))]
    return {
        "data": {"query": query, "response": response, "documents": None},
        "factscore-out": {"query": query, "response": response, "decomposition": fs_decomposition, "score": 0.5},
        "nuggets-out": {"query": query, "response": {**response, "nugget-assignment": assignment_for(condition)},
                        "nuggets": nuggets_for(q), "documents": docs},
        "new-metric-out": {"query": query, "response": response, "decomposition": decomposition,
                           "N2S": {"N0": ["S1"]}, "subclaim-importance-order": order, "scores": {}},
    }


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def make_release(root: Path, datasets: dict[str, int] | None = None, subset: str = "test") -> Path:
    """ROOT/{dataset}/{subset}/... with ``n`` queries per dataset; returns ROOT."""
    datasets = datasets or {"naturalquestions": 3, "factscore": 2}
    for dataset, n in datasets.items():
        base = root / dataset / subset
        write_jsonl(base / "original.jsonl",
                    [{"query": query_text(dataset, q).split(": ", 1)[1],
                      "documents": [{"id": f"orig{q}", "text": f"Original document {q}."}],
                      "gold_response": f"Gold answer {q}."} for q in range(n)])
        for condition in CONDITIONS:
            per_file: dict[str, list[dict]] = {}
            for q in range(n):
                for kind, rec in condition_records(dataset, q, condition).items():
                    per_file.setdefault(kind, []).append(rec)
            for kind, records in per_file.items():
                write_jsonl(base / condition / f"{kind}.jsonl", records)
    return root
