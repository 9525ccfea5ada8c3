"""Per-step backends from the command line: ``--verify-*`` / ``--rank-*`` end to end (the real CLI in a
subprocess, the real openai client, the mock provider on 127.0.0.1 answering a yes/no fact-checking
prompt), and every bad combination refused with one sentence naming the flag."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.mock_samples import sample_records
from tests.support.paths import REPO
from tests.support.yes_no_mock import yes_no_mock  # noqa: F401 - pytest fixture
from vital_core.backends.openai.yes_no import YES_NO_STEP
from vital_core.results.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, SUPPORTED
from vital_core.scoring.run_summary import summary_path

MAIN_KEY = "sk-main-DO-NOT-LEAK-5678"
VERIFY_KEY = "sk-verify-DO-NOT-LEAK-9012"
FAST = ["--timeout", "5", "--backoff", "0.01", "--no-progress"]


def env(**extra) -> dict:
    e = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    e.update({"PYTHONPATH": str(REPO), **extra})
    return e


def run_cli(*args, **env_extra) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vital_core", *map(str, args)], cwd=REPO, env=env(**env_extra),
                          capture_output=True, text=True, timeout=300)


def write_input(path: Path, n: int = 2) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in sample_records(n)), encoding="utf-8")
    return path


def test_offline_decomposition_and_ranking_with_yes_no_verification_through_the_mock(yes_no_mock, tmp_path):  # noqa: F811
    inp, out, cache = write_input(tmp_path / "in.jsonl"), tmp_path / "out.jsonl", tmp_path / "cache"
    proc = run_cli("score", inp, "--out", out, "--backend", "offline", "--verify-backend", "openai",
                   "--verify-base-url", yes_no_mock.base_url, "--verify-model", "minicheck-mock",
                   "--verify-mode", "yes-no", "--cache-dir", cache, *FAST,
                   OPENAI_API_KEY=MAIN_KEY, VITAL_VERIFY_API_KEY=VERIFY_KEY)
    assert proc.returncode == 0, proc.stderr
    steps = {r.step for r in yes_no_mock.requests}
    assert yes_no_mock.requests and steps == {YES_NO_STEP}, f"the mock saw only verify calls, got {steps}"
    assert {r.body["model"] for r in yes_no_mock.requests} == {"minicheck-mock"}
    assert {r.authorization for r in yes_no_mock.requests} == {f"Bearer {VERIFY_KEY}"}, "the step's own key"
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    verdicts = [c["verdict"] for r in records for v in r["variants"].values() for c in v["subclaims"]]
    assert verdicts and set(verdicts) <= {SUPPORTED, NOT_ENOUGH_EVIDENCE}
    assert SUPPORTED in verdicts and NOT_ENOUGH_EVIDENCE in verdicts
    assert CONTRADICTED not in verdicts, "a yes/no model never says contradicted"
    # the run metadata says which backend and model did which step, in each record and the summary
    summary = json.loads(summary_path(out).read_text(encoding="utf-8"))
    for backend in [r["backend"] for r in records] + [summary["backend"]]:
        assert backend["steps"]["verify"] == {"name": "openai-yes-no", "model": "minicheck-mock"}
        assert backend["steps"]["decompose"]["name"] == backend["steps"]["rank"]["name"] == "offline"
    assert summary["llm_usage"]["requests"] == len(yes_no_mock.requests), "the run counts the step endpoint's usage"
    for path in [out, summary_path(out), *cache.rglob("*")]:
        if path.is_file():
            data = path.read_bytes()
            assert MAIN_KEY.encode() not in data and VERIFY_KEY.encode() not in data, path
    assert MAIN_KEY not in proc.stdout + proc.stderr and VERIFY_KEY not in proc.stdout + proc.stderr


def test_ranking_through_the_mock_and_the_rest_offline(yes_no_mock, tmp_path):  # noqa: F811
    inp, out = write_input(tmp_path / "in.jsonl", 1), tmp_path / "out.jsonl"
    proc = run_cli("score", inp, "--out", out, "--backend", "offline", "--rank-backend", "openai",
                   "--rank-base-url", yes_no_mock.base_url, "--rank-model", "ranker",
                   "--cache-dir", tmp_path / "cache", *FAST)
    assert proc.returncode == 0, proc.stderr
    assert {r.step for r in yes_no_mock.requests} == {"rank"}
    record = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert record["backend"]["steps"]["rank"] == {"name": "openai", "model": "ranker"}
    assert record["backend"]["steps"]["verify"]["name"] == "offline"


@pytest.mark.parametrize("argv, message", [
    (["--verify-base-url", "http://127.0.0.1:9/v1"], "--verify-base-url needs --verify-backend openai"),
    (["--verify-mode", "yes-no"], "--verify-mode yes-no needs --verify-backend openai"),
    (["--verify-backend", "offline", "--verify-mode", "yes-no"], "--verify-mode yes-no needs --verify-backend openai"),
    (["--rank-model", "m"], "--rank-model needs --rank-backend openai"),
    (["--verify-backend", "openai", "--verify-base-url", "ftp://127.0.0.1/v1"],
     "--verify-base-url must start with http:// or https://"),
    (["--rank-backend", "openai", "--rank-base-url", "localhost:8000"],
     "--rank-base-url must start with http:// or https://"),
    (["--verify-backend", "openai"], "no API key for verification: set VITAL_VERIFY_API_KEY or OPENAI_API_KEY"),
])
def test_bad_flag_combinations_are_one_sentence_naming_the_flag(tmp_path, argv, message):
    inp, out = write_input(tmp_path / "in.jsonl", 1), tmp_path / "out.jsonl"
    proc = run_cli("score", inp, "--out", out, "--backend", "offline", *argv)
    assert proc.returncode == 2, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and message in errors[0], proc.stderr     # argparse's usage, then one sentence
    assert "Traceback" not in proc.stderr
    assert not out.exists(), "nothing is written on a usage error"


@pytest.mark.parametrize("batch", [["--batch-export", "requests.jsonl"], ["--batch-submit"]])
def test_per_step_flags_are_refused_with_batches(tmp_path, batch):
    inp, out = write_input(tmp_path / "in.jsonl", 1), tmp_path / "out.jsonl"
    proc = run_cli("score", inp, "--out", out, "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1",
                   "--verify-backend", "offline", *[tmp_path / a if a.endswith(".jsonl") else a for a in batch])
    assert proc.returncode == 2, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and f"--verify-backend cannot be combined with {batch[0]}" in errors[0], proc.stderr
    assert "unexpected" not in proc.stderr and not out.exists()


def test_each_command_offers_the_step_flags_it_uses():
    helps = {command: run_cli(command, "--help").stdout for command in ("score", "label", "perturb")}
    assert all(flag in helps["score"] for flag in ("--verify-backend", "--verify-mode", "--rank-base-url"))
    assert "--rank-base-url" in helps["label"] and "--verify-" not in helps["label"], "label only ranks"
    assert "--rank-" not in helps["perturb"] and "--verify-" not in helps["perturb"]


def test_the_main_key_is_never_sent_to_a_step_endpoint_of_its_own(yes_no_mock, tmp_path):  # noqa: F811
    inp, out = write_input(tmp_path / "in.jsonl", 1), tmp_path / "out.jsonl"
    proc = run_cli("score", inp, "--out", out, "--backend", "offline", "--verify-backend", "openai",
                   "--verify-base-url", yes_no_mock.base_url, "--verify-mode", "yes-no",
                   "--cache-dir", tmp_path / "cache", *FAST, OPENAI_API_KEY=MAIN_KEY)
    assert proc.returncode == 2, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "--verify-base-url is not the main endpoint" in errors[0] \
        and "set VITAL_VERIFY_API_KEY" in errors[0], proc.stderr
    assert not yes_no_mock.requests and MAIN_KEY not in proc.stderr and not out.exists()


@pytest.mark.parametrize("command, argv, flag", [
    ("perturb", ["--verify-backend", "openai"], "--verify-backend"),
    ("perturb", ["--rank-model", "m"], "--rank-model"),
    ("label", ["--verify-mode", "yes-no"], "--verify-mode")])
def test_a_command_refuses_the_step_flags_it_never_uses(tmp_path, command, argv, flag):
    inp, out = write_input(tmp_path / "in.jsonl", 1), tmp_path / "out.jsonl"
    proc = run_cli(command, inp, "--out", out, "--backend", "offline", *argv, OPENAI_API_KEY=MAIN_KEY)
    assert proc.returncode == 2, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and flag in errors[0], proc.stderr
    assert not out.exists()
