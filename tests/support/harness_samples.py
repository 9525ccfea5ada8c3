"""Three demo samples for the harness tests (Inspect, MLflow), each with other evidence, and the rows
``vital_core.evaluate()`` gives for them: what the harnesses' logged scores must equal.

* demo-01: documents and a reference answer: every chosen metric is defined;
* demo-07: documents only: ``fc_f1`` needs a reference answer, so it is undefined;
* demo-03: no evidence at all: nothing was checked, so every chosen metric is undefined.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache

from tests.support.paths import REPO

DEMO_INPUT = REPO / "data" / "demo" / "demo_input.jsonl"
# The story's metrics and a reference-answer one, so that each kind of undefined shows up.
METRICS = ["factscore_precision", "vital_precision", "rlp", "vital_recall", "rlr", "fc_f1"]


def samples() -> list[dict]:
    """{id, query, response, documents, reference} of the three samples."""
    demos = {r["id"]: r for r in map(json.loads, DEMO_INPUT.read_text(encoding="utf-8").splitlines())}
    keep = {"demo-01": ("documents", "reference"), "demo-07": ("documents",), "demo-03": ()}
    return [{"id": key, "query": demos[key]["query"], "response": demos[key]["responses"]["normal"],
             "documents": demos[key]["documents"] if "documents" in evidence else None,
             "reference": demos[key].get("reference") if "reference" in evidence else None}
            for key, evidence in keep.items()]


@lru_cache(maxsize=1)
def expected() -> dict[str, dict]:
    """sample id -> {metric: value or None, "undefined": the evaluate() reason column}, from
    ``vital_core.evaluate`` on the same inputs with the offline backend."""
    import vital_core
    records = [{"id": s["id"], "query": s["query"], "responses": {"normal": s["response"]},
                **({"documents": s["documents"]} if s["documents"] is not None else {}),
                **({"reference": s["reference"]} if s["reference"] is not None else {})} for s in samples()]
    frame = vital_core.evaluate(records, "offline")
    out = {}
    for row in frame.to_dict(orient="records"):
        values = {k: (None if isinstance(row[k], float) and math.isnan(row[k]) else row[k]) for k in METRICS}
        out[row["example_id"]] = {**values, "undefined": row["undefined"]}
    return out
