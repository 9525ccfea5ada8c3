"""Batch runs: export the requests a run needs, run them as a batch, import the output; repeat per stage."""
from __future__ import annotations

import json
from pathlib import Path

from tests.support.batch_runner import run_batch_file
from tests.support.mock_provider import MockProvider
from tests.support.mock_samples import sample_answers
from tests.unit.test_score_cli import KEY, lines, run_cli, score_cmd, write_input


def test_export_import_walks_the_stages_and_ends_with_zero_live_calls(tmp_path: Path):
    inp = write_input(tmp_path / "in.jsonl", 3)
    with MockProvider(answers=sample_answers()) as live:
        reference_out = tmp_path / "live.jsonl"
        p = run_cli(score_cmd(inp, reference_out, live, tmp_path / "live-cache"))
        assert p.returncode == 0, p.stderr
    with MockProvider(answers=sample_answers()) as mock:
        out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
        requests, results = tmp_path / "requests.jsonl", tmp_path / "output.jsonl"
        stages, exported = 0, []
        while True:
            args = ["--batch-export", str(requests)] + (["--batch-import", str(results)] if stages else [])
            before = mock.count()
            p = run_cli(score_cmd(inp, out, mock, cache, *args))
            assert p.returncode == 0, p.stderr
            assert mock.count() == before, "an export never calls the endpoint"
            assert not out.exists(), "an export writes no results"
            if "nothing left to request" in p.stderr:
                break
            stages += 1
            assert stages <= 8, p.stderr
            batch = [json.loads(x) for x in requests.read_text().splitlines()]
            exported.append(len(batch))
            assert all(r["custom_id"].startswith("reply:") and r["url"] == "/v1/chat/completions" for r in batch)
            assert KEY not in requests.read_text() and mock.base_url not in requests.read_text()
            assert "input token(s)" in p.stderr and "batch prices" in p.stderr
            run_batch_file(requests, results, mock.base_url)
        assert stages >= 3, exported            # decompose, rank / verify, nuggets ...: one stage a round
        before = mock.count()
        p = run_cli(score_cmd(inp, out, mock, cache))
        assert p.returncode == 0, p.stderr
        assert mock.count() == before, "the final run makes no live call"
    assert lines(out) == lines(reference_out), "identical results to a live run against the same mock"


def test_import_names_the_lines_it_could_not_use(tmp_path: Path):
    inp = write_input(tmp_path / "in.jsonl", 1)
    with MockProvider(answers=sample_answers()) as mock:
        out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
        requests, results = tmp_path / "requests.jsonl", tmp_path / "output.jsonl"
        p = run_cli(score_cmd(inp, out, mock, cache, "--batch-export", str(requests)))
        assert p.returncode == 0, p.stderr
        ids = [json.loads(x)["custom_id"] for x in requests.read_text().splitlines()]
        run_batch_file(requests, results, mock.base_url, fail_ids={ids[0]})
        with results.open("a") as handle:
            handle.write(json.dumps({"custom_id": "someone-else", "response": None}) + "\n")
        p = run_cli(score_cmd(inp, out, mock, cache, "--batch-import", str(results), "--batch-export", str(requests)))
        assert p.returncode == 0, p.stderr
        assert f"imported {len(ids) - 1} reply(ies)" in p.stderr
        assert f"not imported: {ids[0]}: the batch reports an error" in p.stderr
        assert "line 4: no custom_id of this project's requests" in p.stderr or "no custom_id" in p.stderr
        # the failed request is asked for again in the next export
        again = [json.loads(x)["custom_id"] for x in requests.read_text().splitlines()]
        assert ids[0] in again


def test_batch_files_need_the_openai_backend_and_never_overwrite_a_foreign_file(tmp_path: Path):
    inp = write_input(tmp_path / "in.jsonl", 1)
    with MockProvider(answers=sample_answers()) as mock:
        mine = tmp_path / "notes.jsonl"
        mine.write_text('{"my": "notes"}\n')
        p = run_cli(score_cmd(inp, tmp_path / "r.jsonl", mock, tmp_path / "cache", "--batch-export", str(mine)))
        assert p.returncode == 2 and "not a batch request file" in p.stderr
        assert mine.read_text() == '{"my": "notes"}\n'
        p = run_cli(score_cmd(inp, tmp_path / "r.jsonl", mock, tmp_path / "cache", "--batch-export",
                              str(tmp_path / "x.jsonl"), "--backend", "offline"))
        assert p.returncode == 2 and "need --backend openai" in p.stderr


def test_a_downloaded_malformed_line_is_counted_as_failed_by_custom_id_or_line():
    import pytest

    from vital_core.backends.openai.batch import import_lines
    from vital_core.files.errors import InputError
    good = {"custom_id": "reply:ok", "response": {"status_code": 200, "body": {
        "choices": [{"message": {"content": "fine"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3}}}, "error": None}
    lines = [json.dumps(good) + "\n", json.dumps(dict(good, custom_id="reply:cut"))[:-30] + "\n", "garbage\n"]
    cache: dict = {}

    class Cache(dict):
        def set(self, key, value):
            cache[key] = value

    report = import_lines(lines, "batch b file f", Cache(), "m", strict=False)
    assert report.imported == 1 and list(cache) == ["reply:ok"]
    assert [cid for cid, _ in report.failed] == ["reply:cut", "batch b file f line 3"]
    assert all(why.startswith("malformed JSON") for _, why in report.failed)
    assert (report.prompt_tokens, report.completion_tokens) == (7, 3)
    with pytest.raises(InputError, match="line 2: malformed JSON"):
        import_lines(lines, "given.jsonl", Cache(), "m")      # a file a person gave: refused, named


def test_what_a_run_still_has_to_do_is_one_rule():
    from vital_core.scoring.inputs import InputRecord
    from vital_core.scoring.runs import todo_records
    records = [InputRecord(id=i, query="q", responses={"normal": "r"}) for i in ("a", "b", "c")]
    assert [r.id for r in todo_records(records, {"a", "b"}, {"b"}, retry_failed=False)] == ["c"]
    assert [r.id for r in todo_records(records, {"a", "b"}, {"b"}, retry_failed=True)] == ["b", "c"]


def test_import_alone_makes_no_live_call_and_says_what_to_run_next(tmp_path: Path):
    inp = write_input(tmp_path / "in.jsonl", 2)
    with MockProvider(answers=sample_answers()) as mock:
        out, cache = tmp_path / "results.jsonl", tmp_path / "cache"
        requests, results = tmp_path / "requests.jsonl", tmp_path / "output.jsonl"
        assert run_cli(score_cmd(inp, out, mock, cache, "--batch-export", str(requests))).returncode == 0
        run_batch_file(requests, results, mock.base_url)          # the first stage's batch
        before = mock.count()
        p = run_cli(score_cmd(inp, out, mock, cache, "--batch-import", str(results)))
        assert p.returncode == 0, p.stderr
        assert mock.count() == before, "importing alone never calls the endpoint for the later stages"
        assert not out.exists()
        assert "No live call was made" in p.stderr and "--batch-export" in p.stderr and "--finish-live" in p.stderr
        # asked for: the later stages are called live and the results written
        p = run_cli(score_cmd(inp, out, mock, cache, "--batch-import", str(results), "--finish-live"))
        assert p.returncode == 0, p.stderr
        assert mock.count() > before and len(lines(out)) == 2
