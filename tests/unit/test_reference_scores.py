"""Reproduce the released ``scores`` of all 150 gpt-4o records (abs 1e-9).

The reference implementation returns 0 where a denominator is empty; we return
None (undefined). Such a case is accepted only when the reference says 0 *and*
the record really has nothing to measure, checked from the record itself.
Checked through the Python API, the dataset frame and ``report --json`` (under both conventions).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO
from vital_core.loaders.load import load_examples
from vital_core.metrics.formulas import TierWeights
from vital_core.metrics.response import compute_response_metrics
from vital_core.results.dataset import load_dataset

CONDITIONS = ("normal", "missing", "wrong")
# released score key -> our metric key
SCORE_KEYS = {
    "weighted-precision": "weighted_precision",
    "vital-precision": "vital_precision",
    "okay-precision": "okay_precision",
    "less-important-precision": "less_important_precision",
    "vital-subclaims": "n_vital",
    "okay-subclaims": "n_okay",
    "less-important-subclaims": "n_less_important",
    "linear-decay-precision": "decay_precision",
    "linear-decay-precision-topk": "decay_precision_top5",
}
# the ones ``report --json`` carries by default
REPORT_KEYS = {"weighted-precision", "vital-precision", "vital-subclaims", "okay-subclaims",
               "less-important-subclaims", "linear-decay-precision"}


def released(reference_dir: Path) -> dict[str, list[dict]]:
    out = {}
    for cond in CONDITIONS:
        with open(reference_dir / "gpt-4o" / f"{cond}.jsonl", encoding="utf-8") as fh:
            out[cond] = [json.loads(line) for line in fh]
    return out


def nothing_to_measure(record: dict, score_key: str) -> bool:
    """True when the record (read independently here) gives the metric an empty denominator."""
    claims = [d for s in record["decomposition"] for d in s["decomp"]]
    tier = {"vital-precision": "vital", "okay-precision": "okay",
            "less-important-precision": "less-important"}.get(score_key)
    if tier is not None:
        return not any(c["importance"] == tier for c in claims)
    if score_key == "weighted-precision":
        return not claims
    if score_key == "linear-decay-precision":
        return len(record["subclaim-importance-order"]) <= 1     # (n-i)/i weights sum to 0
    if score_key == "linear-decay-precision-topk":
        return min(5, len(record["subclaim-importance-order"])) <= 1
    return False


def check(expected_record: dict, score_key: str, ours) -> str | None:
    """None when ``ours`` reproduces the released value, else a description of the difference."""
    ref = expected_record["scores"][score_key]
    if ours is None or ours != ours:   # None / NaN / NA: undefined
        if ref == 0 and nothing_to_measure(expected_record, score_key):
            return None
        return f"{score_key}: released {ref}, ours undefined"
    if isinstance(ref, int) and score_key.endswith("-subclaims"):
        return None if int(ours) == ref else f"{score_key}: released {ref}, ours {ours}"
    return None if abs(float(ours) - ref) <= 1e-9 else f"{score_key}: released {ref!r}, ours {ours!r}"


def test_python_api_reproduces_every_released_score(reference_dir: Path):
    expected = released(reference_dir)
    examples = load_examples(reference_dir / "gpt-4o").examples
    assert len(examples) == 50
    failures, undefined_cases, checked = [], 0, 0
    for cond in CONDITIONS:
        for index, record in enumerate(expected[cond]):
            example = examples[index]
            assert example.query == record["query"]
            metrics = compute_response_metrics(example.variants[cond], example.nuggets, TierWeights(1.0, 0.6, 0.4))
            for score_key, key in SCORE_KEYS.items():
                checked += 1
                undefined_cases += metrics[key] is None
                problem = check(record, score_key, metrics[key])
                if problem:
                    failures.append(f"{cond} line {index + 1}: {problem}")
    assert not failures, "\n".join(failures[:20])
    assert checked == 150 * len(SCORE_KEYS)
    # the released set has such cases (e.g. a missing response with no vital subclaim): they were compared
    assert undefined_cases >= 1


def test_dataset_frame_reproduces_every_released_score(reference_dir: Path, tmp_path: Path):
    expected = released(reference_dir)
    frame = load_dataset(reference_dir / "gpt-4o", cache_dir=tmp_path).frame
    assert len(frame) == 150
    failures = []
    for row in frame.to_dict(orient="records"):
        record = expected[row["condition"]][row["index"]]
        assert row["query"] == record["query"]
        for score_key, key in SCORE_KEYS.items():
            problem = check(record, score_key, row[key])
            if problem:
                failures.append(f"{row['condition']} line {row['index'] + 1}: {problem}")
    assert not failures, "\n".join(failures[:20])


def test_wrong_weights_do_not_reproduce(reference_dir: Path):
    """Guard: the test above can fail. The reference CLI's default 1/0.5/0.1 misses some records."""
    expected = released(reference_dir)
    examples = load_examples(reference_dir / "gpt-4o").examples
    misses = sum(
        check(record, "weighted-precision",
              compute_response_metrics(examples[i].variants["normal"], None, TierWeights(1.0, 0.5, 0.1))
              ["weighted_precision"]) is not None
        for i, record in enumerate(expected["normal"]))
    assert misses > 0


@pytest.mark.parametrize("weights_args, conventions", [([], "strict"), (["--weights", "1,0.6,0.4"], "paper")])
def test_report_json_reproduces_every_released_score(reference_dir: Path, tmp_path: Path, weights_args,
                                                     conventions):
    """Under paper every record keeps its released score (the authors' 0 for a never-judged response);
    under strict the 114 judged records keep theirs and the 36 never-judged ones have every
    verdict-based metric null, each with its reason."""
    from vital_core.metrics.catalog import FROM_VERDICTS
    expected = released(reference_dir)
    proc = subprocess.run(
        [sys.executable, "-m", "vital_core", "report", str(reference_dir / "gpt-4o"), "--json", *weights_args,
         "--conventions", conventions, "--cache-dir", str(tmp_path / "cache")],
        cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    records = report["records"]
    assert len(records) == 150
    assert set(report["conditions"]) == set(CONDITIONS)
    assert all(report["conditions"][c]["n"] == 50 for c in CONDITIONS)
    failures, blank = [], 0
    for rec in records:
        record = expected[rec["condition"]][rec["index"]]
        assert rec["query"] == record["query"]
        if conventions == "strict" and not rec["judged"]:
            blank += 1
            verdict_keys = [k for k in FROM_VERDICTS if k in rec]
            assert verdict_keys and all(rec[k] is None for k in verdict_keys), rec
            assert all(f"{k}: not judged" in rec["undefined"] for k in verdict_keys), rec["undefined"]
            assert rec["n_subclaims"] == rec["n_not_judged"] > 0     # the counts stay
            continue
        for score_key in REPORT_KEYS:
            problem = check(record, score_key, rec[SCORE_KEYS[score_key]])
            if problem:
                failures.append(f"{rec['condition']} line {rec['index'] + 1}: {problem}")
    assert not failures, "\n".join(failures[:20])
    assert blank == (36 if conventions == "strict" else 0)
    assert sum(not r["judged"] for r in records) == 36
    assert report["conventions"] == conventions
    if conventions == "paper":
        assert all(r["vital_precision"] == 0.0 for r in records if not r["judged"] and r["n_vital"])
        return
    # strict means per condition agree with the records: undefined and never-judged ones are left out and counted
    for cond in CONDITIONS:
        values = [r["vital_precision"] for r in records if r["condition"] == cond]
        kept = [v for v in values if v is not None]
        assert report["not_judged"][cond] == 12      # all 12 never-judged queries, in every condition
        assert report["conditions"][cond]["vital_precision"] == pytest.approx(sum(kept) / len(kept))
        assert report["undefined"][cond].get("vital_precision", 0) == len(values) - len(kept)
    # no nuggets in these records: recall metrics are left out of the report
    assert "nugget_recall" not in report["conditions"]["normal"]
    assert {t["condition"] for t in report["tests"]} == {"missing", "wrong"}
