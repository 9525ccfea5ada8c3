"""Perturbation checks and the ``perturb`` command (through the mock provider)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.mock_provider import MockProvider
from tests.support.mock_samples import sample_answers, sample_records
from tests.support.paths import REPO
from vital_core.scoring.inputs import read_inputs
from vital_core.scoring.perturbation import (
    PerturbationCheckError,
    changed_word_count,
    check_missing,
    check_variant,
    check_wrong,
    require_valid,
    word_changes,
)

KEY = "sk-test-DO-NOT-LEAK-1234"
NORMAL = ("Geronimo was a leader of the Apache tribe. He was born in 1829 near the Gila River. "
          "He surrendered in 1886 and became a symbol of resistance.")


# ---------------------------------------------------------------- checks

def test_missing_that_drops_the_key_sentence_passes():
    missing = "He was born in 1829 near the Gila River. He surrendered in 1886 and became a symbol of resistance."
    r = check_missing(NORMAL, missing)
    assert r.ok and r.details["overlap"] == 1.0


@pytest.mark.parametrize("missing,reason", [
    ("", "empty"),
    (NORMAL, "not shorter"),
    (NORMAL + " Extra words here.", "not shorter"),
    ("Apache chiefs led many raids across northern Mexico during that decade.", "rewrites"),
])
def test_bad_missing_variants_fail(missing, reason):
    r = check_missing(NORMAL, missing)
    assert not r.ok and reason in r.message


def test_wrong_that_swaps_one_word_passes():
    wrong = NORMAL.replace("Apache", "Sioux")
    r = check_wrong(NORMAL, wrong)
    assert r.ok and r.details["changed_words"] == 1
    assert [(c.removed, c.added) for c in word_changes(NORMAL, wrong)] == [(["apache"], ["sioux"])]


@pytest.mark.parametrize("wrong,reason", [
    ("", "empty"),
    (NORMAL, "does not differ"),
    (NORMAL.replace(".", "!").upper(), "does not differ"),          # case and punctuation are not changes
    ("Napoleon was an emperor of France who lost at Waterloo in 1815 after returning from exile. "
     "He was born in 1829 near the Gila River. He surrendered in 1886 and became a symbol of resistance.",
     "changes"),
])
def test_bad_wrong_variants_fail(wrong, reason):
    r = check_wrong(NORMAL, wrong)
    assert not r.ok and reason in r.message


def test_wrong_limit_scales_down_for_short_answers():
    short = "Paris is the capital of France."
    assert check_wrong(short, "Lyon is the capital of France.").ok
    r = check_wrong(short, "Lyon was the old capital of Spain.")
    assert not r.ok and r.details["limit"] == 1 and changed_word_count(short, "Lyon was the old capital of Spain.") > 1


def test_require_valid_and_check_variant():
    with pytest.raises(PerturbationCheckError) as info:
        require_valid("wrong", NORMAL, NORMAL)
    assert info.value.result.kind == "wrong"
    assert require_valid("missing", NORMAL, NORMAL.split(". ", 1)[1]).ok
    with pytest.raises(ValueError, match="unknown perturbation kind"):
        check_variant("shuffled", NORMAL, NORMAL)


# ---------------------------------------------------------------- the command

def run_perturb(inp: Path, out: Path, mock: MockProvider, *extra) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    env.update({"OPENAI_API_KEY": KEY, "PYTHONPATH": str(REPO)})
    args = [sys.executable, "-m", "vital_core", "perturb", str(inp), "--out", str(out), "--base-url",
            mock.base_url, "--cache-dir", str(out.parent / "cache"), "--timeout", "2", "--backoff", "0.01",
            "--no-progress", "--concurrency", "1", *extra]
    return subprocess.run(args, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_perturb_fills_variants_and_reports_failed_checks(tmp_path):
    records = sample_records(3, with_variants=False)
    records[2]["responses"]["missing"] = "Kept as given."           # existing variants are kept
    records.append({"id": "no-normal", "query": "Anything?", "responses": {"wrong": "x"}})
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "out.jsonl"
    with MockProvider(answers=sample_answers()) as mock:
        mock.inject("bad_perturbation", times=2)                     # q1's missing fails twice
        p = run_perturb(inp, out, mock)
    assert p.returncode == 1, p.stderr
    got = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert list(got) == ["q1", "q2", "q3", "no-normal"]
    q1 = got["q1"]
    assert "missing" not in q1["responses"]                          # the bad variant is not kept
    assert "not shorter" in q1["perturbation_errors"]["missing"]
    assert "Zanzibar" in q1["responses"]["wrong"] and "Apache" not in q1["responses"]["wrong"]
    q2 = got["q2"]
    assert "perturbation_errors" not in q2
    assert check_missing(q2["responses"]["normal"], q2["responses"]["missing"]).ok
    assert check_wrong(q2["responses"]["normal"], q2["responses"]["wrong"]).ok
    assert got["q3"]["responses"]["missing"] == "Kept as given."
    assert got["no-normal"]["perturbation_errors"] == {"missing": "no normal response to perturb"}
    assert got["q1"]["documents"] == [{"id": "D1", "text": records[0]["documents"][0]},
                                      {"id": "D2", "text": records[0]["documents"][1]}]
    assert "failed q1: missing:" in p.stdout
    # The output is valid input for `score`.
    assert [r.id for r in read_inputs(out)] == ["q1", "q2", "q3", "no-normal"]
    assert KEY.encode() not in out.read_bytes()


def test_perturb_is_resumable_and_can_retry_failures(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in sample_records(2, with_variants=False)))
    out = tmp_path / "out.jsonl"
    with MockProvider(answers=sample_answers()) as mock:
        mock.inject("bad_perturbation", times=2)
        assert run_perturb(inp, out, mock).returncode == 1
        before = mock.count()
        again = run_perturb(inp, out, mock)
        assert again.returncode == 0 and "0 perturbed, 2 already done" in again.stdout and mock.count() == before
        fixed = run_perturb(inp, out, mock, "--retry-failed")
        assert fixed.returncode == 0, fixed.stdout
    got = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["id"] for r in got] == ["q1", "q2"] and all("perturbation_errors" not in r for r in got)
