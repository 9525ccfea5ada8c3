"""An output file is appended to only once it is recognised as this program's own; ids are unique on
every input path; resuming streams the finished ids (issue 11, items 1, 2 and 11)."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO
from tests.unit.test_batch import CountingBackend, lines, records_of
from vital_core.files.errors import InputError
from vital_core.scoring.inputs import read_inputs
from vital_core.scoring.runs import PERTURB_LINES, RESULTS_LINES, AppendOnlyJsonl, run_batch, run_resumable

DEMO_INPUT = REPO / "data" / "demo" / "demo_input.jsonl"


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vital_core", *map(str, args)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


# ---------------------------------------------------------------- item 1: foreign --out files

@pytest.mark.parametrize("content", [b'{"id":"cfg"}', b'{"id": "cfg"}\n', b"hello\nworld",
                                     b'{"format": "other/1", "id": "x"}\n', b"\n\n", b"\xff\xfe binary"])
def test_score_refuses_an_out_file_it_did_not_write_and_changes_no_byte(tmp_path, content):
    out = tmp_path / "c.json"
    out.write_bytes(content)
    with pytest.raises(InputError, match=r"c\.json.*(line \d+)?.*(results|--out)"):
        asyncio.run(run_batch(CountingBackend(), records_of(tmp_path, 2), out, progress=False))
    assert out.read_bytes() == content


@pytest.mark.parametrize("content", [b'{"id":"cfg"}', b"hello\nworld", b'{"id": "q1", "query": "q"}\n'])
def test_perturb_output_must_look_like_its_own_lines(tmp_path, content):
    out = tmp_path / "variants.jsonl"
    out.write_bytes(content)

    async def process(rec):
        return rec.to_dict()
    with pytest.raises(InputError, match="variants.jsonl"):
        asyncio.run(run_resumable(records_of(tmp_path, 2), out, process, progress=False, lines_format=PERTURB_LINES))
    assert out.read_bytes() == content


def test_cli_refusal_is_one_sentence_and_leaves_the_file_alone(tmp_path):
    out = tmp_path / "c.json"
    out.write_bytes(b'{"id":"cfg"}')
    done = cli("score", DEMO_INPUT, "--backend", "offline", "--out", out, "--no-progress")
    assert done.returncode == 2, done.stderr
    assert out.read_bytes() == b'{"id":"cfg"}'
    assert "Traceback" not in done.stderr
    assert f"{out} line 1" in done.stderr and "--out" in done.stderr


def test_a_crash_tail_of_our_own_is_still_cut(tmp_path):
    recs = records_of(tmp_path, 3)
    full = tmp_path / "full.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs, full, progress=False))
    done = full.read_bytes().splitlines(keepends=True)
    out = tmp_path / "out.jsonl"
    out.write_bytes(done[0] + done[1][:40])          # one whole line, then a line cut by a crash
    asyncio.run(run_batch(CountingBackend(), recs, out, progress=False))
    assert out.read_bytes() == full.read_bytes()


def test_a_foreign_tail_is_refused_even_after_own_lines(tmp_path):
    recs = records_of(tmp_path, 2)
    out = tmp_path / "out.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs[:1], out, progress=False))
    before = out.read_bytes() + b"my notes"
    out.write_bytes(before)
    with pytest.raises(InputError, match=r"out\.jsonl line 2"):
        asyncio.run(run_batch(CountingBackend(), recs, out, progress=False))
    assert out.read_bytes() == before


def test_generic_file_keeps_its_whole_lines(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"id": "a"}\n{"id": "c", "vari')
    f = AppendOnlyJsonl(out)
    assert f.open().ids == {"a"}
    f.close()
    assert out.read_bytes() == b'{"id": "a"}\n'


# ---------------------------------------------------------------- item 2: duplicate ids

def _results_file(tmp_path, ids) -> Path:
    recs = records_of(tmp_path, len(ids))
    src = tmp_path / "scored.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs, src, progress=False))
    rows = lines(src)
    for row, new_id in zip(rows, ids):
        row["id"] = new_id
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return src


def test_duplicate_ids_in_a_results_file_used_as_input_are_refused_with_both_lines(tmp_path):
    src = _results_file(tmp_path, ["a", "b", "a"])
    with pytest.raises(InputError, match=r"scored\.jsonl line 3: id 'a' already used at .*scored\.jsonl line 1"):
        read_inputs(src)


def test_duplicate_ids_in_an_existing_output_are_refused(tmp_path):
    recs = records_of(tmp_path, 3)
    out = tmp_path / "out.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs[:2], out, progress=False))
    first = out.read_bytes().splitlines(keepends=True)[0]
    out.write_bytes(out.read_bytes() + first)
    before = out.read_bytes()
    with pytest.raises(InputError, match=r"out\.jsonl line 3: id 'q1' already used at line 1"):
        asyncio.run(run_batch(CountingBackend(), recs, out, progress=False))
    assert out.read_bytes() == before


def test_score_cli_with_duplicate_ids_exits_2_and_writes_nothing(tmp_path):
    src = _results_file(tmp_path, ["a", "b", "a"])
    out = tmp_path / "rescored.jsonl"
    done = cli("score", src, "--backend", "offline", "--out", out, "--no-progress")
    assert done.returncode == 2 and "line 3" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


# ---------------------------------------------------------------- item 11: resume streams the ids

def test_resume_does_not_hold_the_finished_records(tmp_path, monkeypatch):
    recs = records_of(tmp_path, 6)
    out = tmp_path / "out.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs[:4], out, progress=False))
    seen = []
    real = AppendOnlyJsonl.open

    def spy(self, visit=None):
        existing = real(self, visit)
        seen.append(existing)
        return existing
    monkeypatch.setattr(AppendOnlyJsonl, "open", spy)
    result = asyncio.run(run_batch(CountingBackend(), recs, out, progress=False))
    assert result.skipped == 4 and result.scored == 2
    assert not isinstance(seen[0], list) and seen[0].ids == {"q1", "q2", "q3", "q4"}
    assert [r["id"] for r in lines(out)] == [r.id for r in recs]


def test_resume_with_retry_failed_and_reorder_keep_every_record_once(tmp_path):
    recs = records_of(tmp_path, 5)
    out = tmp_path / "out.jsonl"
    marker = recs[2].responses["normal"][:20]
    asyncio.run(run_batch(CountingBackend(fail_on=marker), list(reversed(recs)), out, progress=False))
    fixed = asyncio.run(run_batch(CountingBackend(), recs, out, progress=False, retry_failed=True))
    assert fixed.scored == 1
    got = [r["id"] for r in lines(out)]
    assert got == [r.id for r in recs]


def test_results_lines_format_recognises_only_results(tmp_path):
    assert RESULTS_LINES.is_own({"format": "vital-explorer-results/1", "id": "x"})
    assert not RESULTS_LINES.is_own({"id": "x"})
    assert PERTURB_LINES.is_own({"id": "x", "query": "q", "responses": {}})
    assert not PERTURB_LINES.is_own({"id": "x"})
