"""``vital-explorer check``: the CI gate over scored results, on the bundled demo results and on copies of
them changed the way a broken pipeline would change them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import vital_core
from tests.support.paths import REPO
from vital_core.cli.main import main

DEMO_RESULTS = REPO / "data" / "demo" / "demo_results.jsonl"


def _demo_records() -> list[dict]:
    return [json.loads(line) for line in DEMO_RESULTS.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _check(capsys, *argv) -> tuple[int, str, str]:
    code = main(["check", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture()
def everything_supported(tmp_path) -> Path:
    """The demo results as a verifier that calls every claim supported would leave them (an unparsed
    verdict counted as supported): the wrong answers' vital claims all pass, so VITAL cannot notice."""
    records = _demo_records()
    for record in records:
        for claim in record["variants"]["wrong"]["subclaims"]:
            claim["verdict"] = "supported"
    return _write(tmp_path / "lenient.jsonl", records)


def test_passes_when_wrong_variants_are_noticed(capsys):
    # the demos' bar (issue 20, tests/unit/test_compare_story.py): the wrong story holds on at least 11 of 12
    code, out, _ = _check(capsys, DEMO_RESULTS, "--require-noticed", "wrong=0.9")
    assert code == 0
    assert "ok   wrong variants noticed by VITAL: " in out
    assert out.strip().endswith("check: 0 of 2 check(s) breached -> pass")


def test_fails_when_wrong_variants_are_not_noticed(capsys, everything_supported):
    code, out, _ = _check(capsys, everything_supported, "--require-noticed", "wrong")
    assert code == 1
    fail = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert fail == ["FAIL wrong variants noticed by VITAL: 0 of 12 example(s) (0%; required: all)"]
    # each example says what did not move
    assert "  demo-01: VITAL precision 1.000 -> 1.000 (drop +0.000; noticing needs 0.10); " \
           "RLP (vital error flagged) not flagged -> not flagged" in out


def test_noticed_share(capsys):
    # the demo's missing variants: VITAL recall / RLR notice 11 of 12 (demo-07 does not)
    code, out, _ = _check(capsys, DEMO_RESULTS, "--require-noticed", "missing=0.5")
    assert code == 0 and "11 of 12 example(s) (92%; required: at least 50%)" in out
    code, out, _ = _check(capsys, DEMO_RESULTS, "--require-noticed", "missing")
    assert code == 1 and [line.split(":")[0].strip() for line in out.splitlines() if line.startswith("  ")] == \
        ["demo-07"]


def test_thresholds_one_line_per_breach(capsys):
    # over the wrong answers: their VITAL precision is below 1 and RLP fires on some (the demos' correct
    # answers may carry no flag at all, leaving no threshold between the mean and its bound to breach)
    wrong = vital_core.load(DEMO_RESULTS, use_cache=False).frame.query("condition == 'wrong'")
    vp, rlp = wrong["vital_precision"].astype(float).mean(), wrong["rlp"].astype(float).mean()
    assert vp < 0.99 and rlp > 0.01
    code, out, _ = _check(capsys, DEMO_RESULTS, "--variant", "wrong", "--min", f"vital_precision={vp + 0.01:.3f}",
                          "--max-rlp-rate", f"{rlp - 0.01:.3f}", "--min", "factscore_precision=0.3")
    assert code == 1
    fails = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert len(fails) == 2
    defined = int(wrong["vital_precision"].notna().sum())    # a response without vital claims is left out
    assert fails[0].startswith(f"FAIL vital_precision mean >= {float(f'{vp + 0.01:.3f}'):g}: {vp:.3f} over "
                               f"{defined} wrong")
    assert fails[1].startswith("FAIL rlp share flagged <=") and f"{rlp:.3f}" in fails[1]
    code, out, _ = _check(capsys, DEMO_RESULTS, "--variant", "wrong", "--min", f"vital_precision={vp - 0.01:.3f}")
    assert code == 0


def test_undefined_responses_are_left_out_and_counted(capsys, tmp_path):
    code, out, _ = _check(capsys, DEMO_RESULTS, "--min", "fc_f1=0.0")
    assert code == 0   # demo-07..12 have no reference answer
    assert "over 6 normal response(s); 6 undefined, left out (needs a reference answer" in out
    no_reference = _write(tmp_path / "docs-only.jsonl", [r for r in _demo_records() if not r.get("reference")])
    code, out, _ = _check(capsys, no_reference, "--min", "fc_f1=0.0")
    assert code == 1 and "FAIL fc_f1 mean >= 0: undefined for all 6 normal response(s) (needs a reference" in out


def test_a_failed_response_fails_the_gate(capsys, tmp_path):
    records = _demo_records()
    records[1]["variants"]["normal"]["error"] = "TimeoutError: record timed out"
    code, out, _ = _check(capsys, _write(tmp_path / "failed.jsonl", records), "--min", "vital_precision=0")
    assert code == 1
    assert "FAIL scoring: 1 of 36 response(s) failed to score" in out
    assert "  demo-02 normal: TimeoutError: record timed out" in out


@pytest.mark.parametrize("argv, message", [
    (["--min", "vital_precison=0.8"], "unknown metric 'vital_precison'"),
    (["--min", "vital_precision"], "expected METRIC=NUMBER"),
    (["--max-rlp-rate", "1.5"], "between 0 and 1"),
    (["--require-noticed", "wrongg"], "expected wrong or missing"),
    ([], "nothing to check"),
])
def test_bad_options_exit_2_with_one_sentence(capsys, argv, message):
    code, out, err = _check(capsys, DEMO_RESULTS, *argv)
    assert code == 2 and out == "" and message in err.splitlines()[-1]


def test_bad_input_exits_2(capsys, tmp_path):
    code, _, err = _check(capsys, tmp_path / "absent.jsonl", "--min", "rlp=0.1")
    assert code == 2 and "no such file" in err
    lines = DEMO_RESULTS.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n{not json\n", encoding="utf-8")
    code, _, err = _check(capsys, broken, "--min", "rlp=0.1")
    assert code == 2 and "broken.jsonl line 2" in err and "Traceback" not in err
    normal_only = [{**r, "variants": {"normal": r["variants"]["normal"]}} for r in _demo_records()]
    code, _, err = _check(capsys, _write(tmp_path / "normal.jsonl", normal_only), "--require-noticed", "wrong")
    assert code == 2 and "no 'wrong' variants to check" in err
    code, _, err = _check(capsys, DEMO_RESULTS.with_name("demo_input.jsonl"), "--min", "rlp=0.1")
    assert code == 2 and "score it first" in err


def test_never_judged_responses_are_undefined_not_zero(capsys, tmp_path):
    # a response none of whose subclaims was judged measured nothing: the gate leaves it out of the mean
    # with its reason (strict convention), never counts it as precision 0 and RLP flagged
    records = _demo_records()
    for claim in records[0]["variants"]["normal"]["subclaims"]:
        claim["verdict"] = "not_judged"
    path = _write(tmp_path / "unjudged.jsonl", records)
    code, out, _ = _check(capsys, path, "--max-rlp-rate", "1", "--min", "vital_precision=0")
    assert code == 0
    assert out.count("over 11 normal response(s); 1 undefined, left out (not judged: no subclaim has a verdict") == 2
