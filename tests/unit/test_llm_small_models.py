"""Small local models, as users run them: ``score`` on the 12 demo records against the mock answering
as a small model does (labels in its own words, claims and nuggets as objects, sentences and claim ids
left out). Every response's numbers equal the well-behaved server's, or the response carries a warning
or an error that says why: nothing is lost in silence."""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.mock_provider import MockProvider
from tests.unit.test_score_cli import REPO, lines, run_cli, score_cmd
from vital_core.analysis.report import REPORT_METRICS
from vital_core.results.dataset import load_dataset

DEMO = REPO / "data" / "demo" / "demo_input.jsonl"


def per_response_metrics(path: Path) -> dict[tuple[str, str], dict]:
    frame = load_dataset(path, use_cache=False).frame
    keys = [k for k in REPORT_METRICS if k in frame.columns]
    return {(row["example_id"], row["condition"]): {k: row[k] for k in keys}
            for row in frame.to_dict(orient="records")}


def same(a, b) -> bool:
    missing_a = a is None or (isinstance(a, float) and math.isnan(a))
    missing_b = b is None or (isinstance(b, float) and math.isnan(b))
    if missing_a or missing_b:
        return missing_a and missing_b
    return math.isclose(float(a), float(b), abs_tol=1e-9)


def what_it_says(path: Path) -> dict[tuple[str, str], list[str]]:
    """(example, variant) -> its warnings and errors (the example's error counts for every variant)."""
    out = {}
    for rec in lines(path):
        for name, variant in rec["variants"].items():
            out[(rec["id"], name)] = (list(variant.get("warnings") or []) + [variant.get("error") or ""]
                                      + [rec.get("error") or ""])
    return {k: [x for x in v if x] for k, v in out.items()}


def undisclosed_differences(baseline: Path, other: Path) -> tuple[list, list]:
    """(responses whose numbers differ from the baseline's, those among them that say nothing about it)."""
    base, got, said = per_response_metrics(baseline), per_response_metrics(other), what_it_says(other)
    assert set(base) == set(got)
    differ = [key for key in base if any(not same(base[key][k], got[key].get(k)) for k in base[key])]
    return differ, [key for key in differ if not said.get(key)]


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("baseline")
    with MockProvider() as mock:
        p = run_cli(score_cmd(DEMO, tmp / "results.jsonl", mock, tmp / "cache"))
    assert p.returncode == 0, p.stderr
    assert not any(what_it_says(tmp / "results.jsonl").values())   # the well-behaved server: nothing to say
    return tmp / "results.jsonl"


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    tmp = tmp_path_factory.mktemp("small")
    with MockProvider(small_model=True) as mock:
        p = run_cli(score_cmd(DEMO, tmp / "results.jsonl", mock, tmp / "cache"))
    assert p.returncode in (0, 1), p.stderr
    return tmp / "results.jsonl", p


def test_small_model_replies_lose_nothing_in_silence(baseline, small_run):
    out, p = small_run
    differ, silent = undisclosed_differences(baseline, out)
    assert silent == [], f"{len(silent)} response(s) differ from the baseline without a warning: {silent}"
    said = what_it_says(out)
    assert differ, "the small model's manners change some numbers (else this test checks nothing)"
    assert sum(1 for v in said.values() if v) >= len(differ)
    # what was lost is named, and counted where a person reads it
    warnings = [w for v in said.values() for w in v]
    assert any("the model left out" in w and "also when asked for them alone" in w for w in warnings)
    assert any("'partially supported' was read as 'not_enough_evidence'" in w for w in warnings)
    assert any(w.startswith("ranking: the model broke the rules") and "unlabelled" in w for w in warnings)
    summary = json.loads(out.with_name(out.name + ".summary.json").read_text())
    assert summary["records_with_warnings"] >= 1 and summary["warnings"] == sum(
        len(w["warnings"]) for w in summary["warned"])
    assert "warning(s)" in p.stdout
    # object-shaped claims and nuggets are read: no response lost every claim, every example has nuggets
    for rec in lines(out):
        assert rec["nuggets"], rec["id"]
        for name, variant in rec["variants"].items():
            assert variant["subclaims"] or variant["error"], (rec["id"], name)


def test_the_check_itself_catches_a_silent_difference(baseline, tmp_path):
    """The comparison is not vacuous: a result changed by hand without a warning is caught."""
    changed = tmp_path / "changed.jsonl"
    recs = lines(baseline)
    recs[0]["variants"]["normal"]["subclaims"] = recs[0]["variants"]["normal"]["subclaims"][:1]
    changed.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    differ, silent = undisclosed_differences(baseline, changed)
    assert silent == [(recs[0]["id"], "normal")] == differ


def test_report_counts_the_warnings_and_states_what_scored_the_run(baseline, small_run):
    from vital_core.results.model import PAPER_SETTING
    out, _ = small_run
    with_warnings = sum(1 for said in what_it_says(out).values() if said)
    p = run_cli([sys.executable, "-m", "vital_core", "report", str(out), "--no-cache"])
    assert p.returncode == 0, p.stderr
    assert "scored with: openai gpt-4o-mini, 15 claim(s) per verification call (36 responses)" in p.stdout
    assert PAPER_SETTING in p.stdout
    line = next(x for x in p.stdout.splitlines() if x.startswith("with warnings"))
    assert sum(int(n) for n in re.findall(r": (\d+)", line)) == with_warnings
    p = run_cli([sys.executable, "-m", "vital_core", "report", str(out), "--no-cache", "--json"])
    got = json.loads(p.stdout)
    assert sum(got["with_warnings"].values()) == with_warnings and got["paper_setting"] == PAPER_SETTING
    assert got["scored_with"] == {"openai gpt-4o-mini, 15 claim(s) per verification call": 36}
    # the well-behaved baseline: no warning line
    p = run_cli([sys.executable, "-m", "vital_core", "report", str(baseline), "--no-cache"])
    assert "scored with: openai gpt-4o-mini" in p.stdout and "with warnings" not in p.stdout


def test_what_scored_a_result_in_one_line():
    from vital_core.results.model import backend_label
    assert backend_label({"name": "openai", "model": "gpt-4o", "method": {"claims_per_call": 1}}) == \
        "openai gpt-4o, 1 claim(s) per verification call"
    assert backend_label({"name": "offline", "model": "minilm-int8 + rules"}) == "offline minilm-int8 + rules"
    assert backend_label({}) == backend_label(None) == ""
