"""The resumable batch runner: crash-safe appends, resume, ordering, failures, summary."""
from __future__ import annotations

import asyncio
import json
import os

import pytest

from tests.support.mock_samples import sample_records
from vital_core.backends.base import Backend, BackendInfo, DecomposedSentence, Ranking, Verdict
from vital_core.files.errors import InputError
from vital_core.results.model import ExampleResult, Nugget
from vital_core.scoring.inputs import InputRecord, read_input_jsonl, read_inputs
from vital_core.scoring.runs import (
    AppendOnlyJsonl,
    OutputBusyError,
    record_error,
    run_batch,
    run_resumable,
    summary_path,
)


class CountingBackend(Backend):
    """A deterministic backend: one claim per sentence, first claim vital, every claim supported.

    ``fail_on`` makes decompose raise for responses containing that text (a failed record).
    """

    def __init__(self, fail_on: str | None = None, model: str = "counting-1"):
        self.fail_on, self.model = fail_on, model
        self.scored: list[str] = []

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(name="offline", model=self.model, prompt_version="test/1")

    async def decompose(self, query, response):
        if self.fail_on and self.fail_on in response:
            raise RuntimeError("endpoint exploded")
        self.scored.append(response)
        await asyncio.sleep(0)
        return [DecomposedSentence(s.strip() + ".", [s.strip() + "."]) for s in response.split(".") if s.strip()]

    async def rank(self, query, subclaims, evidence=None):
        labels = {s.id: ("vital" if i == 0 else "okay") for i, s in enumerate(subclaims)}
        return Ranking(labels=labels, order=[s.id for s in subclaims])

    async def verify(self, query, subclaims, evidence):
        return [Verdict("supported", "always", "") for _ in subclaims]

    async def make_nuggets(self, query, documents):
        return [Nugget("N0", "a nugget", "vital")]

    async def assign_nuggets(self, query, nuggets, response):
        return {n.id: "support" for n in nuggets}

    async def perturb(self, query, response, kind):
        raise NotImplementedError


def write_input(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def records_of(tmp_path, n=5) -> list[InputRecord]:
    f = tmp_path / "in.jsonl"
    write_input(f, sample_records(n))
    return read_input_jsonl(f)


def lines(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


# ---------------------------------------------------------------- the append-only file

def test_trailing_partial_line_is_cut_and_whole_lines_kept(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"id": "a"}\n{"id": "b"}\n{"id": "c", "vari')
    f = AppendOnlyJsonl(out)
    assert f.open().ids == {"a", "b"}
    f.append({"id": "c"})
    f.close()
    assert out.read_bytes() == b'{"id": "a"}\n{"id": "b"}\n{"id":"c"}\n'


def test_a_corrupt_whole_line_is_an_error_naming_the_line(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "a"}\nnot json\n{"id": "c"}\n')
    with pytest.raises(InputError, match=r"out.jsonl line 2"):
        AppendOnlyJsonl(out).open()
    assert out.read_text().count("\n") == 3   # nothing destroyed


def test_two_writers_on_one_file_are_refused(tmp_path):
    first = AppendOnlyJsonl(tmp_path / "out.jsonl")
    first.open()
    with pytest.raises(OutputBusyError, match="another run"):
        AppendOnlyJsonl(tmp_path / "out.jsonl").open()
    first.close()
    AppendOnlyJsonl(tmp_path / "out.jsonl").open()


def test_each_record_is_one_write_call(tmp_path, monkeypatch):
    calls = []
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: calls.append(data) or real_write(fd, data))
    f = AppendOnlyJsonl(tmp_path / "out.jsonl")
    f.open()
    f.append({"id": "x", "text": "é" * 10_000})
    f.close()
    assert len(calls) == 1 and calls[0].endswith(b"\n") and calls[0].count(b"\n") == 1


# ---------------------------------------------------------------- run_batch

def test_batch_scores_every_record_in_input_order_with_a_summary(tmp_path):
    recs = records_of(tmp_path, 5)
    out = tmp_path / "out.jsonl"
    result = asyncio.run(run_batch(CountingBackend(), recs, out, concurrency=3, progress=False))
    got = lines(out)
    assert [r["id"] for r in got] == [r.id for r in recs]
    assert result.scored == 5 and result.skipped == 0 and result.failed == 0
    example = ExampleResult.from_dict(got[0])
    assert set(example.variants) == {"normal", "missing", "wrong"}
    assert example.variants["normal"].subclaims[0].importance == "vital"
    summary = json.loads(summary_path(out).read_text())
    assert summary["records_scored"] == 5 and summary["records_total"] == 5
    assert summary["backend"]["model"] == "counting-1"


def test_resume_skips_done_ids_and_finishes_in_input_order(tmp_path):
    recs = records_of(tmp_path, 5)
    full = tmp_path / "full.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs, full, progress=False))
    # A crashed run: records 4 and 2 finished (out of order), record 5 half written.
    out = tmp_path / "out.jsonl"
    done = lines(full)
    out.write_text(json.dumps(done[3]) + "\n" + json.dumps(done[1]) + "\n" + json.dumps(done[4])[:50])
    backend = CountingBackend()
    result = asyncio.run(run_batch(backend, recs, out, progress=False))
    assert result.skipped == 2 and result.scored == 3
    assert len(backend.scored) == 3 * 3                    # 3 records x 3 variants, nothing redone
    assert [r["id"] for r in lines(out)] == [r.id for r in recs]
    assert lines(out) == done


def test_a_failed_record_is_kept_with_its_error_and_the_run_goes_on(tmp_path):
    recs = records_of(tmp_path, 3)
    out = tmp_path / "out.jsonl"
    marker = recs[1].responses["normal"][:20]
    result = asyncio.run(run_batch(CountingBackend(fail_on=marker), recs, out, progress=False))
    got = lines(out)
    assert len(got) == 3 and result.failed == 1
    assert "endpoint exploded" in record_error(got[1])
    assert record_error(got[0]) is None and record_error(got[2]) is None
    assert result.failures[0]["id"] == recs[1].id
    # Re-running skips it; --retry-failed scores it again (and it now succeeds).
    again = asyncio.run(run_batch(CountingBackend(), recs, out, progress=False))
    assert again.scored == 0
    fixed = asyncio.run(run_batch(CountingBackend(), recs, out, progress=False, retry_failed=True))
    assert fixed.scored == 1 and fixed.failed == 0
    assert [r["id"] for r in lines(out)] == [r.id for r in recs] and not any(record_error(r) for r in lines(out))


def test_resuming_with_another_backend_or_model_is_refused(tmp_path):
    recs = records_of(tmp_path, 2)
    out = tmp_path / "out.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs[:1], out, progress=False))
    before = out.read_bytes()
    with pytest.raises(InputError, match="model counting-1.*model counting-2"):
        asyncio.run(run_batch(CountingBackend(model="counting-2"), recs, out, progress=False))
    assert out.read_bytes() == before


def test_redaction_applies_to_lines_and_summary(tmp_path):
    recs = records_of(tmp_path, 2)
    secret = recs[0].query.split()[1]          # pretend a word of the query were a secret
    out = tmp_path / "out.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs, out, progress=False,
                          redact=lambda t: t.replace(secret, "***")))
    assert secret.encode() not in out.read_bytes()


def test_run_resumable_with_a_custom_process(tmp_path):
    recs = records_of(tmp_path, 4)
    out = tmp_path / "out.jsonl"

    async def process(rec):
        return {"id": rec.id, "error": "odd" if rec.id in ("q1", "q3") else None}
    result = asyncio.run(run_resumable(recs, out, process, progress=False,
                                       error_of=lambda line: line.get("error")))
    assert result.failed == 2 and [r["id"] for r in lines(out)] == ["q1", "q2", "q3", "q4"]


# ---------------------------------------------------------------- inputs

def test_input_errors_name_file_line_and_field(tmp_path):
    f = tmp_path / "in.jsonl"
    cases = [('{"id": "a", "query": "q", "responses": {"normal": "x"}}\n{"id": "b", "query": ""}\n',
              r"in.jsonl line 2: field \"query\""),
             ('{"query": "q", "responses": ["x"]}\n', r"line 1: field \"responses\""),
             ('{"query": "q", "responses": {"normal": 3}}\n', r"responses.normal must be a string"),
             ('{"query": "q", "responses": {"normal": "x"}, "documents": [1]}\n', r"documents\[0\]"),
             ('{"id": "a", "query": "q", "responses": {}}\n{"id": "a", "query": "q", "responses": {}}\n',
              r"line 2: id 'a' already used at .*line 1"),
             ('{"query": "q", "responses": {"normal": "x"}}\n{broken\n', r"line 2: not valid JSON")]
    for text, pattern in cases:
        f.write_text(text)
        with pytest.raises(InputError, match=pattern):
            read_inputs(f)


def test_inputs_defaults_and_extra_fields_round_trip(tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text('\n{"query": "q?", "responses": {"normal": "x", "wrong": null}, "documents": ["d1", '
                 '{"id": "X", "title": "T", "text": "d2"}], "note": 7}\n')
    (rec,) = read_inputs(f)
    assert rec.id == "2" and rec.texts() == {"normal": "x"}
    assert [d.id for d in rec.documents] == ["D1", "X"] and rec.extra == {"note": 7}
    assert rec.to_dict()["note"] == 7 and rec.to_dict()["responses"] == {"normal": "x", "wrong": None}


def test_release_layout_inputs_come_through_the_loaders(reference_dir):
    recs = read_inputs(reference_dir / "gpt-4o")
    assert len(recs) == 50
    assert set(recs[0].responses) == {"normal", "missing", "wrong"}
    assert recs[0].query.startswith("In a paragraph")
    assert len({r.id for r in recs}) == 50
