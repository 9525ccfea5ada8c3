"""AppTest: the Explore results page."""
from __future__ import annotations

import gc
import json
import os
import time

from explorer.logic.formatting import escape_md
from tests.support.app_helpers import (
    assert_clean,
    hostile,
    hostile_results_file,
    leaks,
    markdown_sources,
    open_page,
    texts,
)
from tests.support.paths import REPO


def test_demo_results_load_by_default_with_example_detail():
    at = open_page("explore")
    assert any("bundled demo results" in s and "12 examples" in s for s in texts(at, "success"))
    assert at.dataframe, "the paginated table is shown"
    assert any(h.startswith("Example demo-") for h in texts(at, "subheader"))
    # three variants side by side, each with its ranked subclaims
    markdowns = texts(at, "markdown")
    for name in ("normal", "missing", "wrong"):
        assert any(m.startswith(f"#### {name}") for m in markdowns)
    # our results say what the claims were checked against (the demos: their documents)
    assert any(m.startswith("**Checked against:** Every variant's claims were checked against the evidence documents")
               for m in markdowns)


def test_key_columns_come_first_and_undefined_cells_say_so():
    at = open_page("explore")
    table = next(d for d in at.dataframe if "example_id" in d.value.columns)
    assert list(table.value.columns)[:9] == ["example_id", "condition", "query", "FactScore precision",
                                            "VITAL precision", "RLP", "Nugget recall", "VITAL recall", "RLR"]
    assert table.proto.placeholder == "undefined"


def test_filters_narrow_the_table_and_say_so():
    at = open_page("explore")
    at.multiselect(key="explore_flt_condition").set_value(["wrong"]).run()
    assert_clean(at)
    assert any("12 matching rows" in c for c in texts(at, "caption"))
    assert any("condition in wrong" in c for c in texts(at, "caption"))
    at.button[[b.label for b in at.button].index("Example: FactScore ≥ 0.8 and RLP flagged")].click().run()
    assert_clean(at)
    described = " ".join(texts(at, "caption"))
    assert "FactScore precision 0.80-1.00" in described and "RLP flagged" in described


def test_filters_matching_nothing_explain_it():
    at = open_page("explore")
    at.text_input(key="explore_flt_text").set_value("no query contains this text").run()
    assert_clean(at)
    assert any("No rows match" in i for i in texts(at, "info"))


def test_reference_folder_by_url_query_param(reference_dir):
    path = str(reference_dir / "gpt-4o")
    at = open_page("explore", query_params={"dataset": path, "example": "gpt-4o/3", "condition": "wrong"})
    assert any("50 examples, 150 responses" in s for s in texts(at, "success"))
    assert "Example gpt-4o/3" in texts(at, "subheader")
    assert any("◀ selected row" in m for m in texts(at, "markdown"))
    # nuggets are absent from these records: the page says so instead of failing
    assert any("No nuggets" in i for i in texts(at, "info"))
    # example 3 is one of the 12 queries none of whose subclaims was judged: said on every variant
    assert sum(w.startswith("Not judged: none of these subclaims") for w in texts(at, "warning")) == 3


def test_path_typed_in_loads_and_bad_path_explains(tmp_path, reference_dir, monkeypatch):
    monkeypatch.setenv("VITAL_DATA_ROOTS", os.pathsep.join([str(tmp_path), str(reference_dir)]))
    at = open_page("explore")
    at.radio(key="explore_mode").set_value("path").run()
    at.text_input(key="explore_path").set_value(str(tmp_path / "nothing-here")).run()
    at.button[[b.label for b in at.button].index("Load")].click().run()
    assert_clean(at)
    assert any("Could not load" in e and "nothing-here" in e for e in texts(at, "error"))
    at.text_input(key="explore_path").set_value(str(reference_dir / "gpt-4o")).run()
    at.button[[b.label for b in at.button].index("Load")].click().run()
    assert_clean(at)
    assert any("150 responses" in s for s in texts(at, "success"))
    assert at.query_params.get("dataset") == str(reference_dir / "gpt-4o")


def test_malformed_results_file_names_file_and_line(tmp_path, monkeypatch):
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(tmp_path))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "vital-explorer-results/1", "id": "a", "query": "q", "variants": {}}\n{not json\n')
    at = open_page("explore", query_params={"dataset": str(bad)})
    errors = " ".join(texts(at, "error"))
    assert "bad.jsonl" in errors and "line 2" in errors


def test_uploaded_results_file_is_explored(tmp_path):
    from vital_core.results.model import ExampleResult, ResponseResult, Subclaim
    ex = ExampleResult(id="up-1", query="Who painted the Mona Lisa?", variants={
        "normal": ResponseResult("normal", "Leonardo da Vinci painted it.",
                                 [Subclaim("S1", "Leonardo da Vinci painted the Mona Lisa.", importance="vital",
                                           rank=1, verdict="supported")], order=["S1"])})
    at = open_page("explore")
    at.radio(key="explore_mode").set_value("upload").run()
    at.file_uploader(key="explore_upload").set_value(
        ("mine.jsonl", (json.dumps(ex.to_dict()) + "\n").encode(), "application/json")).run()
    assert_clean(at)
    assert any("uploaded file mine.jsonl" in s and "1 examples" in s for s in texts(at, "success"))
    assert "Example up-1" in texts(at, "subheader")


def test_markdown_in_a_results_file_shows_as_text(tmp_path, monkeypatch):
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(tmp_path))
    path = hostile_results_file(tmp_path)
    at = open_page("explore", query_params={"dataset": str(path)})
    sources = markdown_sources(at)
    assert not leaks(sources), leaks(sources)[:3]
    joined = "\n".join(sources)
    for field in ("id", "dataset", "subset", "querytype", "doctitle", "variant", "normal-warning",
                  "variant-error"):
        assert escape_md(hostile(field)) in joined, field
    # the filters describe a chosen (hostile) subset in the same escaped way
    at.multiselect(key="explore_flt_subset").set_value([hostile("subset")]).run()
    assert_clean(at)
    assert not leaks(markdown_sources(at)), leaks(markdown_sources(at))[:3]


def test_paths_outside_the_data_roots_are_refused(tmp_path, monkeypatch):
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir(), outside.mkdir()
    (outside / "secret.jsonl").write_text("{}\n")
    (inside / "link").symlink_to(outside)          # a link out of a root does not open it
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(inside))
    for wanted in ("/", str(outside / "secret.jsonl"), str(inside / "link"), str(inside / ".." / "outside")):
        started = time.monotonic()
        at = open_page("explore", query_params={"dataset": wanted})
        assert time.monotonic() - started < 30, "nothing is walked before the path is checked"
        errors = texts(at, "error")
        assert len(errors) == 1 and f"{wanted} is outside the folders this app reads ({inside.resolve()})" in errors[0]
        assert not texts(at, "success")
    at = open_page("explore")
    at.radio(key="explore_mode").set_value("path").run()
    assert any(str(inside.resolve()) in c for c in texts(at, "caption")), "the page names the roots"
    at.text_input(key="explore_path").set_value("/etc").run()
    at.button[[b.label for b in at.button].index("Load")].click().run()
    assert_clean(at)
    assert any("/etc is outside the folders this app reads" in e for e in texts(at, "error"))


def _upload(at, name: str, data: bytes):
    at.radio(key="explore_mode").set_value("upload").run()
    at.file_uploader(key="explore_upload").set_value((name, data, "application/json")).run()
    assert_clean(at)
    return at


def test_bad_upload_names_the_file_never_the_temporary_path():
    at = _upload(open_page("explore"), "mine.jsonl",
                 b'{"format": "vital-explorer-results/1", "id": "a", "query": "q", "variants": {}}\n{oops\n')
    errors, infos = " ".join(texts(at, "error")), " ".join(texts(at, "info"))
    assert "the uploaded file mine.jsonl" in errors and "mine.jsonl line 2" in errors
    assert "vital-session-" not in errors and "/tmp" not in errors and "check the path" not in (errors + infos).lower()
    assert "Upload another file" in infos


def test_binary_upload_and_binary_path_are_refused_with_a_sentence(tmp_path, monkeypatch):
    noise = bytes(range(256)) * 40
    at = _upload(open_page("explore"), "noise.jsonl", noise)
    errors = " ".join(texts(at, "error"))
    assert "noise.jsonl is not a text file" in errors and "surrogates" not in errors
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(tmp_path))
    (tmp_path / "noise.jsonl").write_bytes(noise)
    for source in (tmp_path / "noise.jsonl", tmp_path):       # the file, and a folder holding it
        at = open_page("explore", query_params={"dataset": str(source)})
        errors = " ".join(texts(at, "error"))
        assert f"{tmp_path / 'noise.jsonl'} is not a text file" in errors and "surrogates" not in errors
    at = open_page("explore", query_params={"dataset": "bad\x00path"})
    assert any("is not a valid path" in e for e in texts(at, "error"))


def test_upload_lives_in_a_session_folder_removed_with_the_session(tmp_path):
    data = hostile_results_file(tmp_path).read_bytes()      # any valid results file
    at = _upload(open_page("explore"), "mine.jsonl", data)
    assert any("uploaded file mine.jsonl" in s for s in texts(at, "success"))
    folder = at.session_state["upload_folder"].path
    assert folder.name.startswith("vital-session-") and [p.name for p in folder.iterdir()] == ["mine.jsonl"]
    del at
    gc.collect()
    assert not folder.exists(), "the session's uploads go when its state is dropped"


def test_responses_with_warnings_are_counted_on_load(tmp_path, monkeypatch):
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(tmp_path))
    lines = (REPO / "data" / "demo" / "demo_results.jsonl").read_text().splitlines()
    recs = [json.loads(x) for x in lines[:2]]
    recs[0]["variants"]["normal"]["warnings"] = ["decomposition: the model left out 1 of 9 sentence(s)"]
    recs[1]["variants"]["wrong"]["warnings"] = ["verification: no valid verdict (S2)", "ranking: x"]
    path = tmp_path / "warned.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    at = open_page("explore", query_params={"dataset": str(path)})
    assert_clean(at)
    assert any(s.startswith("2 response(s) carry warnings (normal 1, wrong 1)") for s in texts(at, "warning"))
