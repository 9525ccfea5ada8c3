"""Time and size bounds that hold: the offline backend's work for a record stops at --record-timeout and the
process exits when the run is over (a 57 MB document ends within --record-timeout + 30 s); documents and
references over the size limit (--max-evidence-mb, VITAL_MAX_EVIDENCE_MB) are refused with a sentence."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.support.paths import REPO
from vital_core.backends.sentences import split_sentences
from vital_core.scoring import deadline

SENTENCE = "Geronimo was a leader of the Apache people and he was born in 1829 near the Gila River. "
RECORD_TIMEOUT = 5
QUERY = "Of which tribe was Geronimo a leader?"
ANSWER = "Geronimo was a leader of the Apache. He surrendered in 1886."


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    env.update(PYTHONPATH=str(REPO), VITAL_CACHE_DIR=str(tmp_path / "cache"), **extra)
    return env


def _score(tmp_path: Path, record: dict, *argv: str, timeout: float = 300, **env: str):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps(record) + "\n")
    out = tmp_path / "out.jsonl"
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "vital_core", "score", str(inp), "--out", str(out), "--no-progress",
                           "--backend", "offline", *argv], env=_env(tmp_path, **env), capture_output=True, text=True,
                          timeout=timeout)
    return done, time.monotonic() - started, out


def _huge_record(megabytes: int) -> dict:
    text = SENTENCE * (megabytes * 1_000_000 // len(SENTENCE))   # one paragraph, the hardest case for pysbd
    return {"id": "huge", "query": QUERY, "responses": {"normal": ANSWER},
            "documents": [{"id": "d1", "title": "a very long page", "text": text}]}


def test_a_57_mb_document_run_ends_within_the_record_timeout_plus_30_s(tmp_path):
    bound = RECORD_TIMEOUT + 30
    try:
        done, seconds, out = _score(tmp_path, _huge_record(57), "--record-timeout", str(RECORD_TIMEOUT),
                                    "--max-evidence-mb", "100", timeout=bound)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the run was still going after {bound} s")
    assert seconds < bound
    [line] = out.read_text().splitlines()
    assert "--record-timeout" in json.loads(line)["error"], "the record says it was stopped, and why"
    assert "1 failed" in done.stdout and "Traceback" not in done.stderr


def test_a_document_over_the_size_limit_gets_a_sentence(tmp_path):
    done, _, out = _score(tmp_path, _huge_record(57))
    error = json.loads(out.read_text())["variants"]["normal"]["error"]
    assert "57.0 MB of text, more than the limit of 1 MB for one record (--max-evidence-mb or " \
           "VITAL_MAX_EVIDENCE_MB)" in error
    assert "1 failed" in done.stdout and "57.0 MB" in done.stdout


def test_the_limit_is_configurable_by_option_and_environment(tmp_path):
    record = {"id": "r", "query": QUERY, "responses": {"normal": ANSWER}, "reference": SENTENCE * 30}
    for argv, env in ((["--max-evidence-mb", "0.001"], {}), ([], {"VITAL_MAX_EVIDENCE_MB": "0.001"})):
        done, _, out = _score(tmp_path, record, *argv, **env)
        assert "more than the limit of 0.001 MB" in out.read_text(), (argv, env, done.stderr)
        out.unlink()
    done, _, _ = _score(tmp_path, record, VITAL_MAX_EVIDENCE_MB="lots")
    assert done.returncode == 2 and "VITAL_MAX_EVIDENCE_MB='lots': expected a number of megabytes above 0" \
        in done.stderr
    done, _, _ = _score(tmp_path, record, "--max-evidence-mb", "nan")
    assert done.returncode == 2 and "--max-evidence-mb" in done.stderr


def test_offline_work_stops_at_its_deadline():
    async def split_with_a_deadline():
        with deadline.within(0.5):   # 17.6 MB, minutes of work; the deadline, not the wait, must end it
            return await asyncio.wait_for(deadline.in_thread(split_sentences, SENTENCE * 200_000), 8)
    started = time.monotonic()
    with pytest.raises(deadline.DeadlinePassed):
        asyncio.run(split_with_a_deadline())
    assert time.monotonic() - started < 10
    assert split_sentences(SENTENCE * 3) == [SENTENCE.strip()] * 3, "no deadline: no check fires"


def test_the_process_exits_when_the_run_is_over_even_while_a_step_still_computes(tmp_path):
    script = textwrap.dedent("""
        import asyncio, time
        from vital_core.scoring import deadline

        def stubborn():                      # CPU work that checks no deadline
            end = time.monotonic() + 120
            while time.monotonic() < end:
                sum(range(10_000))

        async def main():
            try:
                await asyncio.wait_for(deadline.in_thread(stubborn), 0.5)
            except TimeoutError:
                print("timed out")

        asyncio.run(main())
    """)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], env=_env(tmp_path), capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "timed out" and time.monotonic() - started < 30, done.stderr
