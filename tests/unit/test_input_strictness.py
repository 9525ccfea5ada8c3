"""The input format is decided from every line, and wrong types are refused at the loader and input
boundary with the file, line and field (issue 11, items 3 and 6)."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.support.paths import REPO
from tests.unit.test_batch import CountingBackend, records_of
from vital_core.files.errors import InputError
from vital_core.loaders.load import load_examples
from vital_core.results.dataset import load_dataset
from vital_core.scoring.inputs import read_inputs
from vital_core.scoring.runs import run_batch

DEMO_INPUT = REPO / "data" / "demo" / "demo_input.jsonl"


def demo_lines() -> list[dict]:
    return [json.loads(x) for x in DEMO_INPUT.read_text(encoding="utf-8").splitlines() if x.strip()]


def write(path: Path, rows) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


# ---------------------------------------------------------------- item 3: format per line

def test_a_typo_on_line_1_is_refused_naming_the_line(tmp_path):
    rows = demo_lines()
    rows[0]["response"] = rows[0].pop("responses")
    src = write(tmp_path / "in.jsonl", rows)
    with pytest.raises(InputError, match=r'in\.jsonl line 1: field "responses".*did you mean "responses"'):
        read_inputs(src)


def test_a_record_with_no_response_text_is_an_error_not_zero_subclaims(tmp_path):
    rows = demo_lines()[:3]
    rows[1]["responses"] = {"normal": None, "missing": "  "}
    src = write(tmp_path / "in.jsonl", rows)
    with pytest.raises(InputError, match=r"in\.jsonl line 2: no response with text"):
        read_inputs(src)


def test_official_records_whose_response_has_no_text_are_refused(tmp_path):
    rows = [{"query": f"q{i}?", "response": {"normal": "x"}} for i in range(3)]
    src = write(tmp_path / "normal.jsonl", rows)
    with pytest.raises(InputError, match=r"normal\.jsonl line 1: no response with text"):
        read_inputs(src)


def test_a_results_line_in_a_file_of_official_records_is_named(tmp_path):
    src = write(tmp_path / "normal.jsonl", [{"query": "q?", "response": "a."},
                                            {"query": "q2?", "variants": {}}])
    with pytest.raises(InputError, match=r"normal\.jsonl line 2: this line has 'variants'"):
        load_examples(src)


def test_every_line_of_a_results_file_must_be_a_results_record(tmp_path):
    recs = records_of(tmp_path, 2)
    out = tmp_path / "res.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs, out, progress=False))
    lines = out.read_text().splitlines()
    write(out, [lines[0], json.dumps({"id": "x", "query": "q?"})])
    with pytest.raises(InputError, match=r'res\.jsonl line 2: a results record needs a "variants"'):
        load_examples(out)


# ---------------------------------------------------------------- item 6: types at the boundary

def _results_with(tmp_path, mutate) -> Path:
    recs = records_of(tmp_path, 2)
    out = tmp_path / "res.jsonl"
    asyncio.run(run_batch(CountingBackend(), recs, out, progress=False))
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    mutate(rows[1])
    return write(out, rows)


@pytest.mark.parametrize("mutate,field", [
    (lambda r: r.update(variants=["normal"]), "'variants'"),
    (lambda r: r.update(nuggets="N0 N1"), "'nuggets'"),
    (lambda r: r.update(documents="one long document"), '"documents"'),
    (lambda r: r["variants"]["normal"].update(subclaims="S1"), "'subclaims'"),
    (lambda r: r["variants"]["normal"].update(subclaims=["S1"]), r"subclaims\[0\]"),
    (lambda r: r["variants"]["normal"].update(text=["a"]), "'text'"),
    (lambda r: r.update(query={"q": 1}), "'query'"),
])
def test_results_fields_of_the_wrong_type_name_file_line_and_field(tmp_path, mutate, field):
    src = _results_with(tmp_path, mutate)
    for load in (load_examples, lambda p: load_dataset(p, use_cache=False)):
        with pytest.raises(InputError, match=rf"res\.jsonl line 2: .*{field}"):
            load(src)


@pytest.mark.parametrize("record,field", [
    ({"query": "q?", "response": "a.", "decomposition": "abc"}, "'decomposition'"),
    ({"query": "q?", "response": "a.", "decomposition": [{"sentence": "a.", "decomp": "abc"}]}, r"decomp'"),
    ({"query": "q?", "response": "a.", "decomposition": [{"sentence": "a.", "decomp": [3]}]}, "claim"),
    ({"query": "q?", "response": "a.", "documents": "one document"}, '"documents"'),
    ({"query": "q?", "response": ["a."]}, "'response'"),
    ({"query": "q?", "response": "a.", "nuggets": "N0"}, "'nuggets'"),
])
def test_official_records_of_the_wrong_type_name_file_line_and_field(tmp_path, record, field):
    good = {"query": "g?", "response": "b.", "decomposition": [{"sentence": "b.", "decomp": [
        {"id": "S1", "text": "b.", "importance": "vital", "judgment": True}]}]}
    src = write(tmp_path / "normal.jsonl", [good, record])
    for load in (load_examples, lambda p: load_dataset(p, use_cache=False)):
        with pytest.raises(InputError, match=rf"normal\.jsonl line 2: .*{field}"):
            load(src)


def test_documents_as_a_string_in_the_input_format_is_refused(tmp_path):
    src = write(tmp_path / "in.jsonl", [{"query": "q?", "responses": {"normal": "a."}, "documents": "abc"}])
    with pytest.raises(InputError, match=r'in\.jsonl line 1: field "documents" must be a list'):
        read_inputs(src)


def test_deeply_nested_json_is_one_sentence(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text('{"query": "q?", "responses": {"normal": "a."}, "x": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with pytest.raises(InputError, match=r"in\.jsonl line 1"):
        read_inputs(src)
