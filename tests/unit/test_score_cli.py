"""``python -m vital_core score`` end to end: the real CLI in a subprocess, the real
openai client, the mock provider on 127.0.0.1. Faults, kill -9 and resume, the
cache, and the API key never written anywhere."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.mock_provider import MockProvider
from tests.support.mock_samples import sample_answers, sample_records
from tests.support.paths import REPO
from vital_core.backends.openai import prompts
from vital_core.backends.openai.backend import OpenAICompatBackend
from vital_core.cli.backend_options import chosen_backend
from vital_core.results.model import ExampleResult
from vital_core.scoring.inputs import read_inputs
from vital_core.scoring.run_summary import summary_path
from vital_core.scoring.runs import run_batch

KEY = "sk-test-DO-NOT-LEAK-1234"
FAST = ["--timeout", "1", "--backoff", "0.01", "--no-progress"]


@pytest.fixture
def mock():
    with MockProvider(answers=sample_answers()) as m:
        yield m


def env(**extra) -> dict:
    e = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    e.update({"OPENAI_API_KEY": KEY, "PYTHONPATH": str(REPO), **extra})
    return e


def score_cmd(inp, out, mock, cache, *extra) -> list[str]:
    return [sys.executable, "-m", "vital_core", "score", str(inp), "--out", str(out), "--base-url",
            mock.base_url, "--cache-dir", str(cache), *FAST, *extra]


def run_cli(args, **env_extra) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=REPO, env=env(**env_extra), capture_output=True, text=True, timeout=120)


def write_input(path: Path, n: int) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in sample_records(n)), encoding="utf-8")
    return path


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_score_end_to_end_then_cached_rerun_makes_zero_requests(mock, tmp_path):
    inp = write_input(tmp_path / "in.jsonl", 4)
    out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
    p = run_cli(score_cmd(inp, out, mock, cache))
    assert p.returncode == 0, p.stderr
    got = lines(out)
    assert [r["id"] for r in got] == ["q1", "q2", "q3", "q4"]
    for rec in got:
        ex = ExampleResult.from_dict(rec)
        assert set(ex.variants) == {"normal", "missing", "wrong"} and ex.nuggets
        assert ex.backend == {"name": "openai", "model": "gpt-4o-mini", "prompt_version": prompts.PROMPT_SET_VERSION,
                              "method": {"claims_per_call": 15, "evidence_tokens": 3000}}
        assert all(v.error is None and v.subclaims for v in ex.variants.values())
    wrong = ExampleResult.from_dict(got[0]).variants["wrong"]
    assert any(s.verdict == "contradicted" for s in wrong.subclaims)
    summary = json.loads(summary_path(out).read_text())
    usage = summary["llm_usage"]
    assert usage["calls"] == mock.count() == usage["requests"] and usage["cache_hits"] == 0
    assert usage["prompt_tokens"] > 0 and usage["cost_usd"] > 0
    assert summary["records_scored"] == 4 and summary["records_failed"] == 0
    assert "LLM: " in p.stdout and "cost $" in p.stdout

    # The output loads in `report` (the project's results format).
    rep = run_cli([sys.executable, "-m", "vital_core", "report", str(out), "--json"])
    assert rep.returncode == 0, rep.stderr
    assert set(json.loads(rep.stdout)["conditions"]) == {"normal", "missing", "wrong"}

    # Same output again: everything is already done.
    again = run_cli(score_cmd(inp, out, mock, cache))
    assert again.returncode == 0 and "0 scored, 4 already done" in again.stdout
    # Another output, same cache: zero HTTP requests, identical results.
    before = mock.count()
    out2 = tmp_path / "results2.jsonl"
    cached = run_cli(score_cmd(inp, out2, mock, cache))
    assert cached.returncode == 0, cached.stderr
    assert mock.count() == before
    assert json.loads(summary_path(out2).read_text())["llm_usage"]["cache_hits"] == usage["calls"]
    assert out2.read_bytes() == out.read_bytes()


def test_api_key_is_written_nowhere(mock, tmp_path):
    inp = write_input(tmp_path / "in.jsonl", 2)
    out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
    mock.inject("server_error", times=2, step=prompts.VERIFY)      # errors and retries get logged
    mock.inject("invalid_json", step=prompts.RANK)
    mock.inject("server_error", times=3, step=prompts.NUGGETS_CREATE)  # one record fails for good
    p = run_cli(score_cmd(inp, out, mock, cache, "--max-attempts", "3", "--concurrency", "1", "--verbose"),
                OPENAI_LOG="debug")
    assert p.returncode == 1                                      # a record failed; the run finished
    assert any(r.authorization == f"Bearer {KEY}" for r in mock.requests)  # the key was really used
    assert "DEBUG" in p.stderr and "failed after 3 attempt(s)" in p.stderr
    needle = KEY.encode()
    files = [f for f in tmp_path.rglob("*") if f.is_file() and f != inp]
    assert any(f.parent == cache for f in files) and out in files and summary_path(out) in files
    for f in files:
        assert needle not in f.read_bytes(), f"API key found in {f}"
    assert KEY not in p.stdout and KEY not in p.stderr


def test_a_record_failing_after_retries_keeps_its_error_and_the_run_goes_on(mock, tmp_path):
    inp = write_input(tmp_path / "in.jsonl", 3)
    out = tmp_path / "results.jsonl"
    mock.inject("server_error", times=2, step=prompts.NUGGETS_CREATE)
    p = run_cli(score_cmd(inp, out, mock, tmp_path / "cache", "--max-attempts", "2", "--concurrency", "1"))
    assert p.returncode == 1
    got = lines(out)
    assert len(got) == 3
    assert "nuggets" in got[0]["error"] and "after 2 attempt(s)" in got[0]["error"]
    assert got[0]["variants"]["normal"]["subclaims"]          # the rest of the record was still scored
    assert got[1]["error"] is None and got[2]["error"] is None
    summary = json.loads(summary_path(out).read_text())
    assert summary["records_failed"] == 1 and summary["failures"][0]["id"] == "q1"
    assert summary["records_scored"] == 2              # a record is scored or failed, never both
    assert "2 scored, 0 already done, 1 failed (of 3)" in p.stdout
    assert "failed q1:" in p.stdout
    # --retry-failed scores it again, now that the endpoint behaves.
    fixed = run_cli(score_cmd(inp, out, mock, tmp_path / "cache", "--retry-failed"))
    assert fixed.returncode == 0 and "1 scored, 2 already done" in fixed.stdout
    assert all(r["error"] is None for r in lines(out))


FAULTS = [("rate_limit", prompts.DECOMPOSE, 1), ("server_error", prompts.VERIFY, 1),
          ("slow", prompts.RANK, 1), ("invalid_json", prompts.ASSIGN, 1),
          ("truncated", prompts.VERIFY, 1), ("missing_ids", prompts.RANK, 0),
          ("duplicate_ids", prompts.VERIFY, 0), ("unknown_label", prompts.NUGGETS_LABEL, 0)]


@pytest.fixture(scope="module")
def clean_run_calls(tmp_path_factory):
    """Calls of a fault-free run of the fault tests' input (the baseline)."""
    tmp = tmp_path_factory.mktemp("baseline")
    with MockProvider(answers=sample_answers()) as m:
        result = _batch(m, tmp, 2)
        assert result.failed == 0
        return {"requests": m.count(), "calls": result.usage["calls"], "lines": lines(tmp / "out.jsonl")}


def _batch(mock, tmp: Path, n: int):
    inp = write_input(tmp / "in.jsonl", n)
    backend = OpenAICompatBackend(base_url=mock.base_url, api_key=KEY, model="gpt-4o-mini", cache_dir=tmp / "cache",
                                  timeout=0.5, backoff_initial=0.01, backoff_max=0.05, max_attempts=4)

    async def go():
        try:
            return await run_batch(backend, read_inputs(inp), tmp / "out.jsonl", progress=False)
        finally:
            await backend.aclose()
    return asyncio.run(go())


@pytest.mark.parametrize("fault,step,transport_retries", FAULTS, ids=[f[0] for f in FAULTS])
def test_each_fault_is_survived_with_the_right_retry_count(mock, tmp_path, clean_run_calls, fault, step,
                                                           transport_retries):
    mock.inject(fault, step=step, retry_after=0.2, delay=1.0)
    result = _batch(mock, tmp_path, 2)
    assert result.failed == 0 and result.scored == 2
    got = lines(tmp_path / "out.jsonl")
    assert [r["id"] for r in got] == ["q1", "q2"]
    assert all(not v["warnings"] for r in got for v in r["variants"].values())
    # Exactly one extra request: a transport retry, or one follow-up call stating the violation.
    assert mock.count() == clean_run_calls["requests"] + 1
    assert result.usage["retries"] == transport_retries
    assert result.usage["calls"] == clean_run_calls["calls"] + (1 - transport_retries)
    assert [r for r in mock.requests if r.fault] and [r.fault for r in mock.requests if r.fault] == [fault]
    assert got == clean_run_calls["lines"]       # the fault left no trace in the results


def test_kill_9_midway_then_resume_equals_an_uninterrupted_run(tmp_path):
    n = 6
    inp = write_input(tmp_path / "in.jsonl", n)
    with MockProvider(answers=sample_answers(), latency=0.03) as mock:
        out = tmp_path / "killed.jsonl"
        args = score_cmd(inp, out, mock, tmp_path / "cache-a", "--concurrency", "1")
        proc = subprocess.Popen(args, cwd=REPO, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and out.read_bytes().count(b"\n") >= 2:
                break
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        written = out.read_bytes().count(b"\n")
        assert 2 <= written < n, "the kill must land midway"

        resumed = run_cli(args)
        assert resumed.returncode == 0, resumed.stderr
        assert f"{n - written} scored, {written} already done" in resumed.stdout

        mock.latency = 0
        clean = tmp_path / "clean.jsonl"
        assert run_cli(score_cmd(inp, clean, mock, tmp_path / "cache-b")).returncode == 0
    ids = [r["id"] for r in lines(out)]
    assert ids == [f"q{i}" for i in range(1, n + 1)]           # exactly one result per record
    assert out.read_bytes() == clean.read_bytes()             # identical to the uninterrupted run


def test_usage_errors_are_clear(tmp_path, mock):
    missing = run_cli([sys.executable, "-m", "vital_core", "score", str(tmp_path / "nope.jsonl"),
                       "--out", str(tmp_path / "o.jsonl")])
    assert missing.returncode == 2 and "nope.jsonl" in missing.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "query": "q", "responses": {"normal": "x"}}\n{"id": "b", "responses": {}}\n')
    r = run_cli(score_cmd(bad, tmp_path / "o.jsonl", mock, tmp_path / "c"))
    assert r.returncode == 2 and "bad.jsonl line 2" in r.stderr and '"query"' in r.stderr
    e = env()
    e.pop("OPENAI_API_KEY")
    nokey = subprocess.run([sys.executable, "-m", "vital_core", "score", str(write_input(tmp_path / "i.jsonl", 1)),
                            "--out", str(tmp_path / "o.jsonl"), "--backend", "openai"], cwd=REPO, env=e,
                           capture_output=True, text=True, timeout=60)
    assert nokey.returncode == 2 and "OPENAI_API_KEY" in nokey.stderr


def test_default_backend_is_offline_unless_an_endpoint_is_configured(monkeypatch):
    import argparse
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    args = argparse.Namespace(backend=None, base_url=None)
    assert chosen_backend(args) == "offline"
    assert chosen_backend(argparse.Namespace(backend=None, base_url="http://127.0.0.1:1/v1")) == "openai"
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    assert chosen_backend(args) == "openai"
    assert chosen_backend(argparse.Namespace(backend="offline", base_url=None)) == "offline"


def test_options_are_checked_by_the_same_rules_as_the_app(monkeypatch):
    """backend_options maps the options onto config.BackendSettings; config's checks speak in option names."""
    import argparse

    from vital_core.cli.backend_options import add_backend_arguments, backend_from_args, settings_from_args
    from vital_core.cli.main import UsageError
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    parser = argparse.ArgumentParser()
    add_backend_arguments(parser)
    settings = settings_from_args(parser.parse_args(["--base-url", "http://h/v1", "--cache-size-mb", "2"]))
    assert settings.name == "openai" and settings.cache_size_mb == 2 and KEY not in repr(settings)
    for argv, message in ((["--base-url", "ftp://h"], "--base-url must start with http:// or https://"),):
        with pytest.raises(UsageError, match=message):
            backend_from_args(parser.parse_args(argv))
    for argv in (["--concurrency", "0"], ["--backend", "openai", "--max-attempts", "0"]):
        with pytest.raises(SystemExit):       # out-of-range values are argparse usage errors now
            parser.parse_args(argv)


def test_resuming_with_other_claims_per_call_is_refused(mock, tmp_path):
    inp = write_input(tmp_path / "in.jsonl", 2)
    out = tmp_path / "results.jsonl"
    first = subprocess.run(score_cmd(inp, out, mock, tmp_path / "cache", "--claims-per-call", "1"), cwd=REPO,
                           env=env(), capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    lines_before = out.read_text()
    recs = [json.loads(x) for x in lines_before.splitlines()]
    assert all(r["backend"]["method"] == {"claims_per_call": 1, "evidence_tokens": 3000} for r in recs)
    out.write_text(lines_before.splitlines(keepends=True)[0])          # one record done, one to go
    p = run_cli(score_cmd(inp, out, mock, tmp_path / "cache"))
    assert p.returncode == 2 and "claims per call 1" in p.stderr and "claims per call 15" in p.stderr
    assert "--claims-per-call" in p.stderr
    assert out.read_text() == lines_before.splitlines(keepends=True)[0]
