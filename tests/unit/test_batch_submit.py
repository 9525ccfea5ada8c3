"""``score --batch-submit``: the real CLI in a subprocess and the real openai client, against the mock
provider with its Files + Batches endpoints (``tests/support/mock_batches.py``) on 127.0.0.1."""
from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.batch_runner import RUNNER_AUTH
from tests.support.mock_batches import MockBatches
from tests.support.mock_provider import MockProvider
from tests.support.paths import REPO
from tests.unit.test_score_cli import KEY, env, lines, run_cli, score_cmd

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


def test_summary_counts_the_batches_tokens_and_cost_at_batch_prices(tmp_path: Path):
    out = tmp_path / "results.jsonl"
    with MockProvider() as mock:
        MockBatches(mock)
        p = run_cli(score_cmd(first_demos(tmp_path, 1), out, mock, tmp_path / "cache", *SUBMIT))
    assert p.returncode == 0, p.stderr
    used = json.loads((tmp_path / "results.jsonl.summary.json").read_text())["batch_usage"]
    assert used["batches"] >= 3 and used["replies"] > 0 and used["prompt_tokens"] > 0 and used["completion_tokens"] > 0
    from vital_core.backends.openai.pricing import DEFAULT_PRICES
    live_in, live_out = DEFAULT_PRICES["gpt-4o-mini"]
    live = (used["prompt_tokens"] * live_in + used["completion_tokens"] * live_out) / 1e6
    assert used["cost_usd"] == pytest.approx(live / 2, abs=1e-6), "batch prices: half the live price"
    assert re.search(r"^batch: \d+ batch\(es\), \d+ reply\(ies\) imported; tokens \d+ in \+ \d+ out; "
                     r"estimated cost ~\$[\d.]+ at batch prices$", p.stdout, re.M), p.stdout


def first_demos(tmp_path: Path, n: int) -> Path:
    """The first ``n`` demo records as an input file."""
    path = tmp_path / "in.jsonl"
    path.write_text("".join(DEMO_INPUT.read_text(encoding="utf-8").splitlines(keepends=True)[:n]), encoding="utf-8")
    return path


def test_a_foreign_busy_or_other_backend_out_is_refused_before_anything_is_paid_for(tmp_path: Path, live_results):
    import fcntl
    inp = first_demos(tmp_path, 2)
    notes, other, busy = tmp_path / "notes.jsonl", tmp_path / "other.jsonl", tmp_path / "busy.jsonl"
    notes.write_text('{"my": "notes"}\n')
    theirs = dict(live_results[0], backend=dict(live_results[0]["backend"], model="another-model"))
    other.write_text(json.dumps(theirs) + "\n")
    busy.write_text("")
    with MockProvider() as mock, busy.open("a") as holder:
        batches = MockBatches(mock)
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)    # a run writing busy.jsonl right now
        for out, said in ((notes, "not a results file"), (other, "scored with"),
                          (busy, "another run is writing this file")):
            before = out.read_bytes()
            p = run_cli(score_cmd(inp, out, mock, tmp_path / "cache", *SUBMIT))
            assert p.returncode == 2 and said in p.stderr, p.stderr
            assert out.read_bytes() == before
        assert batches.events == [] and mock.count() == 0, "nothing uploaded, nothing paid for"


def test_records_already_in_out_are_not_collected_even_with_an_emptied_cache(tmp_path: Path):
    import shutil
    inp, out, cache = first_demos(tmp_path, 2), tmp_path / "results.jsonl", tmp_path / "cache"
    with MockProvider() as mock:
        batches = MockBatches(mock)
        assert run_cli(score_cmd(inp, out, mock, cache)).returncode == 0     # scored live
        done = out.read_bytes()
        shutil.rmtree(cache)
        calls = mock.count()
        p = run_cli(score_cmd(inp, out, mock, cache, "--batch-export", str(tmp_path / "requests.jsonl")))
        assert p.returncode == 0 and "nothing left to request" in p.stderr, p.stderr
        assert not (tmp_path / "requests.jsonl").exists()
        p = run_cli(score_cmd(inp, out, mock, cache, *SUBMIT))
        assert p.returncode == 0, p.stderr
        assert batches.events == [] and mock.count() == calls, "nothing asked for records already finished"
        assert "0 scored, 2 already done" in p.stdout
    assert out.read_bytes() == done


def test_batch_id_never_replaces_a_recorded_pending_batch(tmp_path: Path):
    out, state = tmp_path / "results.jsonl", tmp_path / "results.jsonl.batch.json"
    recorded = '{"format": "vital-explorer-batch-state/1", "batch_id": "batch_mine", "stage": 2, ' \
               '"input_file_id": "file-x", "created_at": "2026-01-01T00:00:00+00:00"}'
    state.write_text(recorded)
    with MockProvider() as mock:
        batches = MockBatches(mock)
        p = run_cli(score_cmd(first_demos(tmp_path, 1), out, mock, tmp_path / "cache", *SUBMIT,
                              "--batch-id", "batch_other"))
        assert batches.events == [] and mock.count() == 0
    assert p.returncode == 2, p.stderr
    errors = [x for x in p.stderr.splitlines() if "error:" in x]
    assert len(errors) == 1 and "--batch-id batch_other" in errors[0] and "batch_mine" in errors[0], p.stderr
    assert state.read_text() == recorded and not out.exists()


def test_a_malformed_output_line_is_a_failed_request_and_a_rerun_sends_it_again(tmp_path: Path, live_results):
    out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
    with MockProvider() as mock:
        batches = MockBatches(mock, garble_lines=1)
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *SUBMIT))
        assert p.returncode == 1, p.stderr
        [garbled] = batches.garbled_ids
        assert f"not imported: {garbled}: malformed JSON" in p.stderr
        assert "error: 1 request(s) got no usable reply from the batch" in p.stderr
        assert not (tmp_path / "results.jsonl.batch.json").exists(), "the batch was imported: nothing to pick up"
        before = len(batches.batches)
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *SUBMIT))
        assert p.returncode == 0, p.stderr
        retried = list(batches.batches)[before]
        assert uploaded_ids(batches, batches.batches[retried].input_file_id) == [garbled]
        assert live_calls(mock) == 0
    assert lines(out) == live_results


def test_an_expired_batch_says_how_many_replies_were_really_imported(tmp_path: Path):
    out = tmp_path / "results.jsonl"
    with MockProvider() as mock:
        batches = MockBatches(mock, end_status="expired", garble_lines=1)
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, tmp_path / "cache", *SUBMIT))
        first = uploaded_ids(batches, batches.batches["batch_mock1"].input_file_id)
    half = len(first) // 2
    assert p.returncode == 1, p.stderr
    assert f"imported {half - 1} reply(ies)" in p.stderr
    assert (f"error: batch batch_mock1 ended expired; {half - 1} of {len(first)} request(s) completed and were "
            "imported") in p.stderr, p.stderr


@pytest.mark.parametrize("fault, said", [
    ("cut_downloads", "error: downloading batch batch_mock1 file file-mock2: RemoteProtocolError"),
    ("fail_retrieves", "error: retrieving batch batch_mock1: the endpoint answered 503")])
def test_a_network_failure_while_waiting_or_downloading_keeps_the_batch_for_a_rerun(tmp_path: Path, live_results,
                                                                                     fault, said):
    out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
    with MockProvider() as mock:
        batches = MockBatches(mock, **{fault: 1})
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *SUBMIT, "--max-attempts", "1"))
        assert p.returncode == 1, p.stderr
        errors = [x for x in p.stderr.splitlines() if x.startswith("error:")]
        assert len(errors) == 1 and errors[0].startswith(said), p.stderr
        assert errors[0].endswith(f"batch batch_mock1 is still recorded in {tmp_path / 'results.jsonl.batch.json'} "
                                  "and will be picked up when you run the same command again"), errors[0]
        assert "unexpected" not in p.stderr
        p = run_cli(score_cmd(DEMO_INPUT, out, mock, cache, *SUBMIT))
        assert p.returncode == 0, p.stderr
        assert "picking up batch batch_mock1" in p.stderr
        assert batches.count("create") == len(batches.batches) and uploaded_ids(batches, "file-mock1")
        sent = [cid for kind, fid in batches.events if kind == "upload" for cid in uploaded_ids(batches, fid)]
        assert len(sent) == len(set(sent)), "no request is paid for twice"
    assert lines(out) == live_results


def test_a_batch_create_is_never_retried_by_the_client(tmp_path: Path):
    out, state = tmp_path / "results.jsonl", tmp_path / "results.jsonl.batch.json"
    with MockProvider() as mock:
        batches = MockBatches(mock, fail_creates=1)
        p = run_cli(score_cmd(first_demos(tmp_path, 1), out, mock, tmp_path / "cache", *SUBMIT))
        assert batches.count("create") == 1, "a retried create would be a second, paid, batch"
    assert p.returncode == 1, p.stderr
    errors = [x for x in p.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("error: creating the batch: the endpoint answered 500"), p.stderr
    assert "pass its id with --batch-id" in errors[0] and not state.exists() and not out.exists()


def test_batch_poll_seconds_needs_batch_submit(tmp_path: Path):
    with MockProvider() as mock:
        p = run_cli(score_cmd(first_demos(tmp_path, 1), tmp_path / "r.jsonl", mock, tmp_path / "cache",
                              "--batch-poll-seconds", "5"))
        assert mock.count() == 0
    assert p.returncode == 2 and "error: --batch-poll-seconds needs --batch-submit" in p.stderr, p.stderr
