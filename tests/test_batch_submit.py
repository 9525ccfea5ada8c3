"""``score --batch-submit``: the real CLI in a subprocess and the real openai client, against the mock
provider with its Files + Batches endpoints (``tests/mock_batches.py``) on 127.0.0.1."""
from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.batch_runner import RUNNER_AUTH
from tests.mock_batches import MockBatches
from tests.mock_provider import MockProvider
from tests.test_score_cli import KEY, env, lines, run_cli, score_cmd

REPO = Path(__file__).resolve().parents[1]
DEMO_INPUT = REPO / "data" / "demo" / "demo_input.jsonl"
SUBMIT = ["--batch-submit", "--batch-poll-seconds", "0.01"]


@pytest.fixture(scope="module")
def live_results(tmp_path_factory) -> list[dict]:
    """The demo scored live against the mock: what every batch run must reproduce."""
    folder = tmp_path_factory.mktemp("live")
    with MockProvider() as mock:
        p = run_cli(score_cmd(DEMO_INPUT, folder / "live.jsonl", mock, folder / "cache"))
        assert p.returncode == 0, p.stderr
    return lines(folder / "live.jsonl")


def live_calls(mock: MockProvider) -> int:
    """Chat completions a client sent itself (the batch runner's own calls carry its Authorization)."""
    return sum(1 for r in mock.requests if r.authorization != RUNNER_AUTH)


def uploaded_ids(batches: MockBatches, file_id: str) -> list[str]:
    data = batches.files[file_id]["data"].decode()
    return [json.loads(x)["custom_id"] for x in data.splitlines()]


def assert_no_key_written(folder: Path, batches: MockBatches) -> None:
    for path in folder.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), f"the API key is in {path}"
    assert all(KEY.encode() not in f["data"] for f in batches.files.values()), "the key was uploaded"


def test_submit_walks_every_stage_and_equals_a_live_run(tmp_path: Path, live_results):
    out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
    with MockProvider() as mock:
        batches = MockBatches(mock)
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *SUBMIT))
        assert p.returncode == 0, p.stderr
        assert live_calls(mock) == 0, "every reply came through a batch"
        assert mock.count() > 0 and batches.count("create") >= 3, batches.events
    assert batches.authorizations == {f"Bearer {KEY}"}, "the real client sends the key to Files and Batches"
    assert "input token(s)" in p.stderr and "batch prices" in p.stderr
    for status in ("in_progress", "finalizing", "completed"):
        assert f"(stage 1): {status}, " in p.stderr
    assert re.search(r"\(stage 1\): in_progress, \d+/\d+ completed, 0 failed", p.stderr), p.stderr
    sent = [cid for kind, fid in batches.events if kind == "upload" for cid in uploaded_ids(batches, fid)]
    assert len(sent) == len(set(sent)), "no request is paid for twice"
    assert not (tmp_path / "results.jsonl.batch.json").exists(), "the state goes once the batches are imported"
    assert lines(out) == live_results
    summary = json.loads((tmp_path / "results.jsonl.summary.json").read_text())
    assert summary["llm_usage"]["requests"] == 0 and summary["records_scored"] == 12
    assert_no_key_written(tmp_path, batches)


def wait_for(path: Path, proc: subprocess.Popen, seconds: float = 60) -> None:
    end = time.time() + seconds
    while not path.exists():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.time() < end, f"{path} never appeared"
        time.sleep(0.05)


@pytest.mark.parametrize("how", ["ctrl-c", "kill-9", "batch-id"])
def test_an_interrupted_run_picks_up_its_batch_instead_of_submitting_again(tmp_path: Path, live_results, how):
    out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
    state = tmp_path / "results.jsonl.batch.json"
    with MockProvider() as mock:
        batches = MockBatches(mock)
        slow = score_cmd(DEMO_INPUT, out, mock, cache, "--batch-submit", "--batch-poll-seconds", "30")
        proc = subprocess.Popen(slow, cwd=REPO, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(state, proc)
        proc.send_signal(signal.SIGKILL if how == "kill-9" else signal.SIGINT)   # while it waits for the batch
        _, stderr = proc.communicate(timeout=60)
        if how == "kill-9":
            assert proc.returncode == -signal.SIGKILL
        else:
            assert proc.returncode == 130, stderr
            assert "run the same command again to pick it up" in stderr
        recorded = json.loads(state.read_text())
        assert recorded["batch_id"] == "batch_mock1" and recorded["stage"] == 1
        assert set(recorded) == {"format", "batch_id", "stage", "input_file_id", "created_at"}
        assert mock.base_url not in state.read_text() and "127.0.0.1" not in state.read_text()
        assert batches.count("create") == batches.count("upload") == 1
        extra = SUBMIT
        if how == "batch-id":
            state.unlink()
            extra = SUBMIT + ["--batch-id", recorded["batch_id"]]
        resumed_from = len(batches.events)
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *extra))
        assert p.returncode == 0, p.stderr
        assert "picking up batch batch_mock1" in p.stderr
        assert batches.events[resumed_from] == ("retrieve", "batch_mock1"), "retrieved, not submitted again"
        sent = [cid for kind, fid in batches.events if kind == "upload" for cid in uploaded_ids(batches, fid)]
        assert len(sent) == len(set(sent)), "no request is paid for twice"
        assert live_calls(mock) == 0
    assert lines(out) == live_results
    assert_no_key_written(tmp_path, batches)


@pytest.mark.parametrize("end, sentence", [
    ("failed", r"batch batch_mock1 ended failed \(invalid_request: mock: this batch was refused \(line 1\)\)"),
    ("cancelled", r"batch batch_mock1 ended cancelled; (\d+) of \d+ request\(s\) completed and were imported")])
def test_a_batch_that_does_not_complete_is_one_sentence_and_exit_1(tmp_path: Path, end, sentence):
    out = tmp_path / "results.jsonl"
    with MockProvider() as mock:
        MockBatches(mock, end_status=end)
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, tmp_path / "cache", *SUBMIT))
    assert p.returncode == 1, p.stderr
    errors = [x for x in p.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1, p.stderr
    match = re.fullmatch(f"error: {sentence}; run the same command again to submit a new batch for what is "
                         "missing", errors[0])
    assert match, errors[0]
    if end == "cancelled":
        assert "(stage 1): cancelling, " in p.stderr and f"imported {match[1]} reply(ies)" in p.stderr
    assert not out.exists() and not (tmp_path / "results.jsonl.batch.json").exists()


def test_an_expired_batch_keeps_its_partial_output_and_a_rerun_finishes(tmp_path: Path, live_results):
    out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
    with MockProvider() as mock:
        batches = MockBatches(mock, end_status="expired")
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *SUBMIT))
        assert p.returncode == 1, p.stderr
        first = uploaded_ids(batches, batches.batches["batch_mock1"].input_file_id)
        half = len(first) // 2
        assert f"imported {half} reply(ies)" in p.stderr
        assert f"not imported: {first[half]}: the batch reports an error" in p.stderr and "batch_expired" in p.stderr
        assert (f"error: batch batch_mock1 ended expired; {half} of {len(first)} request(s) completed and were "
                "imported") in p.stderr
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *SUBMIT))
        assert p.returncode == 0, p.stderr
        again = set(uploaded_ids(batches, batches.batches["batch_mock2"].input_file_id))
        assert set(first[half:]) <= again, "what the expired batch left undone is sent again"
        assert not set(first[:half]) & again, "what it returned is not"
        assert live_calls(mock) == 0
    assert lines(out) == live_results


def test_failed_lines_are_named_by_custom_id_and_sent_again_by_a_rerun(tmp_path: Path, live_results):
    out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
    with MockProvider() as mock:
        batches = MockBatches(mock, fail_lines=2)
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *SUBMIT))
        assert p.returncode == 1, p.stderr
        assert len(batches.failed_ids) == 2
        for cid in batches.failed_ids:
            assert f"not imported: {cid}: the batch reports an error" in p.stderr
        assert "error: 2 request(s) got no usable reply from the batch" in p.stderr
        assert not out.exists(), "no results until every reply is in"
        before = len(batches.batches)
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *SUBMIT))
        assert p.returncode == 0, p.stderr
        retried = list(batches.batches)[before]              # the rerun's first batch
        assert set(uploaded_ids(batches, batches.batches[retried].input_file_id)) == set(batches.failed_ids)
        assert live_calls(mock) == 0
    assert lines(out) == live_results


def test_bad_batch_options_and_a_foreign_state_file(tmp_path: Path):
    out = tmp_path / "results.jsonl"
    with MockProvider() as mock:
        MockBatches(mock)
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, tmp_path / "cache", *SUBMIT, "--batch-id", "batch_nope"))
        assert p.returncode == 1
        assert "error: retrieving batch batch_nope: the endpoint answered 404" in p.stderr, p.stderr
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, tmp_path / "cache", "--batch-id", "batch_nope"))
        assert p.returncode == 2 and "--batch-id needs --batch-submit" in p.stderr
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, tmp_path / "cache", *SUBMIT, "--backend", "offline"))
        assert p.returncode == 2 and "need --backend openai" in p.stderr
        mine = tmp_path / "results.jsonl.batch.json"
        mine.write_text('{"my": "notes"}\n')
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, tmp_path / "cache", *SUBMIT))
        assert p.returncode == 2 and "not this project's batch state file" in p.stderr, p.stderr
        assert mine.read_text() == '{"my": "notes"}\n'
        assert mock.count() == 0, "nothing was sent"
