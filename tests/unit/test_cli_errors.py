"""One sentence, never a traceback: user errors, a full disk, quiet logging with --verbose, capped
waits and a per-record deadline (issue 11, items 5, 6 and 7)."""
from __future__ import annotations

import asyncio
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.mock_provider import MockProvider
from tests.support.mock_samples import sample_answers, sample_records
from tests.support.paths import REPO
from tests.unit.test_batch import CountingBackend, lines, records_of
from vital_core.backends.openai.retries import BackoffWait
from vital_core.cli.commands.perturb import perturb_record
from vital_core.scoring.runs import run_batch, score_record

DEMO_INPUT = REPO / "data" / "demo" / "demo_input.jsonl"
HUMAN = REPO.parent / "shared" / "reference-data" / "vitalerrors-nq" / "labels" / "human" / "normal.jsonl"


def cli(*args, env_extra: dict | None = None, limit_bytes: int | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    env.update(env_extra or {})

    def limit():   # a "disk" that takes at most limit_bytes per file (writes beyond fail with EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    return subprocess.run([sys.executable, "-m", "vital_core", *map(str, args)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300,
                          preexec_fn=limit if limit_bytes else None)


def label_input(tmp_path) -> Path:
    rows = [{"query": "Who wrote Emma?", "decomposition": [{"sentence": "Austen wrote Emma.", "decomp": [
        {"id": "S1", "text": "Jane Austen wrote Emma.", "importance": "vital"}]}]}]
    path = tmp_path / "human.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


# ---------------------------------------------------------------- item 7: waits and deadlines

def _state(headers: dict):
    exc = SimpleNamespace(response=SimpleNamespace(headers=headers))
    return SimpleNamespace(outcome=SimpleNamespace(exception=lambda: exc), attempt_number=1)


@pytest.mark.parametrize("after,low,high", [("86400", 120, 120), ("119", 119, 120), ("10", 10, 10.5),
                                            ("0", 0, 0.005)])
def test_retry_after_is_capped_jitter_included(after, low, high):
    wait = BackoffWait(1.0, 30.0, 120.0)
    waits = [wait(_state({"retry-after": after})) for _ in range(200)]
    assert low <= min(waits) and max(waits) <= high


class Hanging(CountingBackend):
    async def decompose(self, query, response):
        await asyncio.sleep(30)

    async def perturb(self, query, response, kind):
        await asyncio.sleep(30)


def test_a_record_past_its_deadline_is_kept_with_its_error(tmp_path):
    recs = records_of(tmp_path, 2)
    out = tmp_path / "out.jsonl"
    t0 = time.monotonic()
    result = asyncio.run(run_batch(Hanging(), recs, out, progress=False, record_timeout=0.3))
    assert time.monotonic() - t0 < 5
    assert result.failed == 2 and [r["id"] for r in lines(out)] == ["q1", "q2"]
    assert all("--record-timeout" in r["error"] and not r["variants"] for r in lines(out))


def test_perturb_past_its_deadline_names_each_kind():
    (rec,) = records_of_one()
    line = asyncio.run(perturb_record(Hanging(), rec, ["missing", "wrong"], False, timeout=0.2))
    assert set(line["perturbation_errors"]) == {"missing", "wrong"}
    assert "--record-timeout" in line["perturbation_errors"]["missing"]


def records_of_one():
    from vital_core.scoring.inputs import parse_input_record
    return [parse_input_record(sample_records(1, with_variants=False)[0], Path("in.jsonl"), 1)]


def test_score_record_default_deadline_is_600_seconds():
    assert score_record.__kwdefaults__["timeout"] == 600.0


# ---------------------------------------------------------------- item 5: no tracebacks, one logging setup

def test_label_checks_out_before_any_model_work(tmp_path):
    src = label_input(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    done = cli("label", src, "--backend", "offline", "--out", blocker / "labels.jsonl")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "is a file, not a folder" in done.stderr and "labelling" not in done.stderr


@pytest.mark.parametrize("out", ["/proc/vital-test.jsonl", "/sys/vital-test.jsonl"])
def test_unwritable_out_is_one_sentence(tmp_path, out):
    done = cli("score", DEMO_INPUT, "--backend", "offline", "--out", out, "--no-progress")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"--out {out}" in done.stderr and "scoring" not in done.stderr


def test_non_utf8_label_input_names_the_line_and_debug_keeps_the_traceback(tmp_path):
    src = tmp_path / "bad.jsonl"
    src.write_bytes(label_input(tmp_path).read_bytes() + b'{"query": "caf\xe9"}\n')
    done = cli("label", src, "--backend", "offline", "--out", tmp_path / "o.jsonl")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "bad.jsonl line 2: not UTF-8 text" in done.stderr
    debug = cli("label", src, "--backend", "offline", "--out", tmp_path / "o.jsonl", env_extra={"VITAL_DEBUG": "1"})
    assert "Traceback" in debug.stderr


def test_disk_full_names_the_first_error_and_the_run_resumes(tmp_path):
    out = tmp_path / "res.jsonl"
    full = cli("score", DEMO_INPUT, "--backend", "offline", "--out", out, "--no-progress", "--concurrency", "1",
               limit_bytes=3000)
    assert full.returncode == 1 and "Traceback" not in full.stderr, full.stderr
    assert "File too large" in full.stderr and "run the same command again" in full.stderr
    again = cli("score", DEMO_INPUT, "--backend", "offline", "--out", out, "--no-progress")
    assert again.returncode == 0, again.stderr
    ids = [r["id"] for r in lines(out)]
    assert ids == [json.loads(x)["id"] for x in DEMO_INPUT.read_text().splitlines() if x.strip()]


def test_failed_calls_are_quiet_by_default_and_shown_with_verbose(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in sample_records(2)))
    with MockProvider(answers=sample_answers()) as mock:
        runs = {}
        for name, extra in (("quiet", []), ("verbose", ["--verbose"])):
            mock.inject("server_error", times=100, step="verify")
            runs[name] = cli("score", inp, "--out", tmp_path / f"{name}.jsonl", "--base-url", mock.base_url,
                             "--cache-dir", tmp_path / f"cache-{name}", "--backoff", "0", "--max-attempts", "2",
                             "--no-progress", *extra, env_extra={"OPENAI_API_KEY": "sk-test-1234"})
            mock.clear_faults()
    quiet, verbose = runs["quiet"], runs["verbose"]
    assert quiet.returncode == 1 and verbose.returncode == 1
    assert "call failed" not in quiet.stderr and "Traceback" not in quiet.stderr
    assert "Task exception was never retrieved" not in quiet.stderr + verbose.stderr
    assert "WARNING: verify call failed" in verbose.stderr


# ---------------------------------------------------------------- item 6: flag values and agreement

@pytest.mark.parametrize("args,flag", [
    (["score", DEMO_INPUT, "--out", "x.jsonl", "--concurrency", "0"], "--concurrency"),
    (["score", DEMO_INPUT, "--out", "x.jsonl", "--timeout", "-1"], "--timeout"),
    (["score", DEMO_INPUT, "--out", "x.jsonl", "--temperature", "7"], "--temperature"),
    (["score", DEMO_INPUT, "--out", "x.jsonl", "--max-tokens", "0"], "--max-tokens"),
    (["score", DEMO_INPUT, "--out", "x.jsonl", "--max-attempts", "0"], "--max-attempts"),
    (["score", DEMO_INPUT, "--out", "x.jsonl", "--backoff", "nan"], "--backoff"),
    (["score", DEMO_INPUT, "--out", "x.jsonl", "--cache-size-mb", "-5"], "--cache-size-mb"),
    (["score", DEMO_INPUT, "--out", "x.jsonl", "--record-timeout", "0"], "--record-timeout"),
    (["perturb", DEMO_INPUT, "--out", "x.jsonl", "--max-words", "0"], "--max-words"),
    (["report", DEMO_INPUT, "--k", "inf"], "--k"),
])
def test_bad_flag_values_are_usage_errors(args, flag):
    done = cli(*args)
    assert done.returncode == 2 and f"argument {flag}" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not HUMAN.is_file(), reason="../shared reference data absent")
def test_agreement_refuses_different_claims_sharing_ids():
    gpt = HUMAN.parents[2] / "gpt-4o"
    done = cli("agreement", gpt / "normal.jsonl", gpt / "wrong.jsonl")
    assert done.returncode == 1 and "hold different claims" in done.stderr
    same = cli("agreement", gpt / "normal.jsonl", HUMAN)
    assert same.returncode == 0 and "kappa: 0.404" in same.stdout


def test_label_replaces_only_its_own_earlier_output(tmp_path):
    src = label_input(tmp_path)
    config = tmp_path / "config.json"
    config.write_bytes(b'{"theme": "dark"}\n')
    done = cli("label", src, "--backend", "offline", "--out", config)
    assert done.returncode == 2 and "config.json line 1" in done.stderr and "labelling" not in done.stderr
    assert config.read_bytes() == b'{"theme": "dark"}\n'
    out = tmp_path / "labels.jsonl"
    assert cli("label", src, "--backend", "offline", "--out", out).returncode == 0
    again = cli("label", src, "--backend", "offline", "--out", out)
    assert again.returncode == 0, again.stderr
