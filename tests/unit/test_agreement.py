"""Agreement between importance labellings: kappa checked against independent computations."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO
from vital_core.analysis.agreement import compare_labellings, weighted_kappa
from vital_core.files.errors import InputError
from vital_core.loaders.load import load_examples
from vital_core.results.model import ExampleResult, ResponseResult, Subclaim

RANK = {"vital": 0, "okay": 1, "less-important": 2}


def kappa_by_pairs(a: list[str], b: list[str]) -> float:
    """Linear-weighted kappa written differently: mean |a-b| over items vs over all cross pairs."""
    x = [RANK[v] for v in a]
    y = [RANK[v] for v in b]
    observed = sum(abs(i - j) for i, j in zip(x, y)) / len(x)
    chance = sum(abs(i - j) for i, j in itertools.product(x, y)) / (len(x) * len(y))
    return 1 - observed / chance


def test_hand_worked_kappa():
    a = ["vital", "vital", "okay", "less-important"]
    b = ["vital", "okay", "okay", "less-important"]
    # observed mean |diff| = 1/4; chance mean |diff| = 7/8 (worked by hand) -> 1 - 2/7
    assert weighted_kappa(a, b) == pytest.approx(5 / 7)
    assert kappa_by_pairs(a, b) == pytest.approx(5 / 7)
    assert weighted_kappa(a, a) == pytest.approx(1.0)
    assert weighted_kappa(["okay"] * 3, ["okay"] * 3) is None      # no variation: undefined
    assert weighted_kappa([], []) is None


def _labels(path: Path) -> list[ExampleResult]:
    return load_examples(path).examples


@pytest.mark.parametrize("condition, published", [("normal", 0.40), ("missing", 0.19), ("wrong", 0.37)])
def test_gpt4o_vs_human_matches_independent_kappa(reference_dir: Path, condition: str, published: float):
    gpt = _labels(reference_dir / "gpt-4o" / f"{condition}.jsonl")
    human = _labels(reference_dir / "labels" / "human" / f"{condition}.jsonl")
    result = compare_labellings(gpt, human)
    assert result.n_examples == 30 and any("first 30" in p for p in result.problems)
    # independent: read the raw files and pair subclaims by (position, id)
    a_labels, b_labels, unlabelled = [], [], 0
    with open(reference_dir / "gpt-4o" / f"{condition}.jsonl") as fa, \
            open(reference_dir / "labels" / "human" / f"{condition}.jsonl") as fb:
        for line_a, line_b in zip(fa, fb):
            ra, rb = json.loads(line_a), json.loads(line_b)
            la = {d["id"]: d["importance"] for s in ra["decomposition"] for d in s["decomp"]}
            lb = {d["id"]: d["importance"] for s in rb["decomposition"] for d in s["decomp"]}
            for sid in la:
                if la[sid] is None or lb[sid] is None:   # a human left one subclaim unlabelled
                    unlabelled += 1
                    continue
                a_labels.append(la[sid])
                b_labels.append(lb[sid])
    assert result.n == len(a_labels) and result.n_excluded == unlabelled
    assert result.kappa == pytest.approx(kappa_by_pairs(a_labels, b_labels), abs=1e-12)
    assert result.kappa == pytest.approx(published, abs=0.01)
    assert result.exact == pytest.approx(sum(x == y for x, y in zip(a_labels, b_labels)) / len(a_labels))
    assert int(result.confusion.to_numpy().sum()) == result.n
    expected = sum(x == "vital" and y == "okay" for x, y in zip(a_labels, b_labels))
    assert result.confusion.loc["vital", "okay"] == expected
    assert 0 < result.kendall_tau < 1


def _example(order: list[str], labels: list[str], query: str = "q") -> ExampleResult:
    subclaims = [Subclaim(id=f"S{i + 1}", text="c", importance=lab) for i, lab in enumerate(labels)]
    return ExampleResult(id="e", query=query, variants={"normal": ResponseResult("normal", "t", subclaims, order)})


def test_kendall_tau_per_example_and_unlabelled_left_out():
    a = _example(["S1", "S2", "S3", "S4"], ["vital", "okay", "less-important", "unlabelled"])
    b = _example(["S2", "S1", "S3", "S4"], ["vital", "okay", "okay", "okay"])
    result = compare_labellings([a], [b])
    assert result.n == 3 and result.n_excluded == 1
    assert result.exact == pytest.approx(2 / 3)
    # one discordant pair out of six: tau-b = (5 - 1) / 6
    assert result.kendall_tau == pytest.approx(4 / 6)


def test_mismatched_queries_are_an_error():
    with pytest.raises(InputError, match="differs between the labellings"):
        compare_labellings([_example(["S1"], ["vital"], "one")], [_example(["S1"], ["vital"], "two")])


def test_agreement_command(reference_dir: Path, tmp_path: Path):
    a = reference_dir / "gpt-4o" / "normal.jsonl"
    b = reference_dir / "labels" / "human" / "normal.jsonl"
    proc = subprocess.run([sys.executable, "-m", "vital_core", "agreement", str(a), str(b), "--json"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert {"kappa", "exact", "kendall_tau", "n"} <= set(out)
    assert out["kappa"] == pytest.approx(0.40, abs=0.01) and out["n"] == 742
    text = subprocess.run([sys.executable, "-m", "vital_core", "agreement", str(a), str(b)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert text.returncode == 0 and "linear-weighted Cohen's kappa: 0.40" in text.stdout
    bad = subprocess.run([sys.executable, "-m", "vital_core", "agreement", str(a), str(tmp_path / "nope.jsonl")],
                         cwd=REPO, capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "no such file or folder" in bad.stderr
