"""The app's pure presentation logic in vital_core: colours, diffs, filters, what-if,
variant verdicts, undefined reasons, evidence input, annotation export, settings."""
from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from explorer.logic import annotate, backend_wording, damage, filters, palette, textdiff, whatif
from explorer.logic.backend_wording import APP_TERMS
from explorer.logic.evidence_input import documents_from_jsonl, documents_from_text, documents_from_upload
from vital_core.analysis import story
from vital_core.backends import config as settings
from vital_core.files.errors import InputError
from vital_core.metrics.response import compute_response_metrics
from vital_core.metrics.undefined import why_undefined
from vital_core.results.model import ExampleResult, Nugget, ResponseResult, Subclaim

XSS = '<script>alert(1)</script> and <img src=x onerror=alert(1)>'


def _response(verdicts=("supported", "supported", "supported"), tiers=("vital", "okay", "less-important"),
              variant="normal") -> ResponseResult:
    claims = [Subclaim(f"S{i + 1}", f"claim {i + 1}", importance=t, rank=i + 1, verdict=v)
              for i, (t, v) in enumerate(zip(tiers, verdicts))]
    return ResponseResult(variant, "text", claims, order=[c.id for c in claims])


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted([_luminance(a), _luminance(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("swatch", list(palette.IMPORTANCE.values()) + list(palette.VERDICT.values())
                         + list(palette.NUGGET_SUPPORT.values()))
def test_every_swatch_keeps_text_readable(swatch):
    assert _contrast(swatch.text, swatch.background) >= 4.5, swatch


def test_colour_code_covers_every_label_with_a_symbol_and_word():
    assert set(palette.IMPORTANCE) == {"vital", "okay", "less-important", "unlabelled"}
    assert set(palette.VERDICT) == {"supported", "contradicted", "not_enough_evidence", "not_judged"}
    symbols = [s.symbol for s in palette.VERDICT.values()]
    assert len(set(symbols)) == len(symbols), "verdicts are told apart without colour"
    legend = palette.legend_html()
    for s in list(palette.IMPORTANCE.values()) + list(palette.VERDICT.values()):
        assert s.label in legend


def test_subclaim_row_escapes_user_text():
    row = palette.subclaim_row_html(rank=1, claim_id='S1"><b>', text=XSS, importance="vital",
                                    verdict="supported")
    assert "<script>" not in row and "<img" not in row and '"><b>' not in row
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in row


def test_word_diff_round_trips_and_marks_the_swap():
    normal = "The capital of Australia is Canberra. It was chosen in 1908."
    wrong = "The capital of Australia is Sydney. It was chosen in 1908."
    segs = textdiff.word_diff(normal, wrong)
    assert [s.text for s in segs if s.op == "delete"] == ["Canberra. "]
    assert [s.text for s in segs if s.op == "insert"] == ["Sydney. "]
    assert "".join(s.text for s in segs if s.op != "delete") == wrong
    assert "".join(s.text for s in segs if s.op != "insert") == normal
    assert textdiff.diff_stats(segs) == {"inserted": 1, "deleted": 1, "kept": 10}
    html = textdiff.diff_html(normal, wrong + " " + XSS)
    assert "<script>" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def _frame():
    return pd.DataFrame({
        "example_id": ["a", "a", "b", "b"], "condition": ["normal", "wrong", "normal", "wrong"],
        "dataset": ["d1", "d1", "d2", None], "subset": ["s"] * 4, "query_type": ["open-ended"] * 4,
        "query": ["Who wrote it?", "Who wrote it?", "When?", "When?"],
        "factscore_precision": [0.9, 0.85, None, 0.5],
        "rlp": pd.array([False, True, None, True], dtype="boolean")})


def test_filters_ranges_flags_and_undefined():
    frame = _frame()
    f = filters.Filters(ranges={"factscore_precision": (0.8, 1.0)}, flags={"rlp": True})
    assert list(filters.apply_filters(frame, f).index) == [1]
    f.keep_undefined = True
    assert list(filters.apply_filters(frame, f).index) == [1, 2]   # row 2: both metrics undefined, kept
    f2 = filters.Filters(ranges={"factscore_precision": (0.8, 1.0)}, keep_undefined=True)
    assert list(filters.apply_filters(frame, f2).index) == [0, 1, 2]
    assert list(filters.apply_filters(frame, filters.Filters(dataset=["(unknown)"])).index) == [3]
    assert list(filters.apply_filters(frame, filters.Filters(text="WROTE")).index) == [0, 1]
    assert "FactScore precision 0.80-1.00 and RLP flagged" in filters.describe(f)
    assert filters.describe(filters.Filters()) == "no filters"


def test_pagination_clamps():
    frame = pd.DataFrame({"x": range(53)})
    assert filters.page_count(53, 25) == 3 and filters.page_count(0, 25) == 1
    assert list(filters.paginate(frame, 3, 25)["x"]) == [50, 51, 52]
    assert list(filters.paginate(frame, 99, 25)["x"]) == [50, 51, 52]


def test_whatif_edit_recomputes_and_reorders_without_mutating():
    response = _response()
    before = compute_response_metrics(response)
    edited = whatif.apply_edits(response, [{"id": "S1", "verdict": "contradicted"},
                                           {"id": "S3", "importance": "vital"}])
    after = compute_response_metrics(edited)
    assert response.subclaims[0].verdict == "supported", "the scored result is untouched"
    assert before["rlp"] is False and after["rlp"] is True
    assert after["vital_precision"] == 0.5 and after["n_vital"] == 2
    assert edited.order == ["S1", "S3", "S2"] and [s.rank for s in edited.ordered_subclaims()] == [1, 2, 3]
    assert set(whatif.changed_metrics(before, after)) >= {"rlp", "vital_precision", "factscore_precision"}
    with pytest.raises(Exception, match="unknown importance"):
        whatif.apply_edits(response, [{"id": "S1", "importance": "crucial"}])


def test_variant_reactions_and_verdict():
    normal = _response()
    wrong = _response(verdicts=("contradicted", "supported", "supported"), variant="wrong")
    ex = ExampleResult("e", "q", {"normal": normal, "wrong": wrong})
    table = damage.metric_table(ex, ["factscore_precision", "vital_precision", "rlp", "nugget_recall"])
    by_key = table.set_index("key")
    assert by_key.loc["vital_precision", "reaction wrong"] == story.NOTICED
    assert by_key.loc["rlp", "reaction wrong"] == story.NOTICED
    assert by_key.loc["nugget_recall", "reaction wrong"] == damage.UNDEFINED
    assert by_key.loc["nugget_recall", "note wrong"].startswith("normal response: needs nuggets")
    assert by_key.loc["vital_precision", "change wrong"] == pytest.approx(-1.0)
    sentence = damage.headlines(table)[0].sentence()
    assert sentence.startswith("wrong: FactScore precision 1.00 \u2192 0.67 (\u22120.33): noticed; VITAL precision "
                               "1.00 \u2192 0.00 (\u22121.00): noticed; RLP not flagged \u2192 flagged: noticed")
    assert damage.reaction("factscore_precision", 0.9, 0.85, "wrong") == damage.BARELY
    assert damage.reaction("factscore_precision", 0.9, 0.95, "wrong") == damage.BARELY
    assert damage.reaction("rlp", True, True, "wrong") == damage.BARELY
    # a precision metric cannot see a fact left out, whatever its value does
    assert damage.reaction("factscore_precision", 0.9, 0.5, "missing") == story.BY_DESIGN
    assert damage.reaction("vital_recall", 0.9, 0.5, "missing") == story.NOTICED
    assert damage.reaction("n_subclaims", 5, 3) == damage.NOT_A_SCORE


def test_undefined_reasons_name_what_is_missing():
    r = _response(tiers=("okay", "okay", "less-important"))
    r.evidence_mode = "documents"
    assert "none of this response's subclaims is vital" in why_undefined("vital_precision", r, None)
    assert "nuggets" in why_undefined("nugget_recall", r, None)
    assert "checked against the evidence documents only" in why_undefined("fc_f1", r, None)
    r.evidence_mode = "none"     # no evidence at all: never "checked against none only"
    assert why_undefined("fc_precision", r, None).endswith("none was given")
    r.evidence_mode = "documents"
    r.nugget_assignment = {"N0": "support"}
    assert "vital nugget" in why_undefined("vital_recall", r, [Nugget("N0", "x", "okay")])
    empty = ResponseResult("normal", "")
    assert "produced none" in why_undefined("factscore_precision", empty, None)


def test_evidence_input_parsing_and_errors():
    docs = documents_from_text("first doc\n---\n\nsecond doc\n---\n")
    assert [d.text for d in docs] == ["first doc", "second doc"]
    docs = documents_from_jsonl('{"id": "a", "text": "one"}\n\n"two"\n', "docs.jsonl")
    assert [(d.id, d.text) for d in docs] == [("a", "one"), ("docs.jsonl-3", "two")]
    with pytest.raises(InputError, match=r"docs\.jsonl line 2: not valid JSON"):
        documents_from_jsonl('{"text": "ok"}\n{broken\n', "docs.jsonl")
    with pytest.raises(InputError, match=r"line 1: expected a string or an object"):
        documents_from_jsonl('{"id": 3}\n', "docs.jsonl")
    assert documents_from_upload("notes.txt", " body ")[0].text == "body"
    with pytest.raises(InputError, match="empty"):
        documents_from_upload("notes.txt", "  ")


def test_annotation_export_is_an_official_record_that_loads_back(tmp_path):
    from vital_core.analysis.agreement import compare_labellings
    from vital_core.loaders.load import load_examples
    r = _response(verdicts=("supported", "not_judged", "contradicted"))
    for i, s in enumerate(r.subclaims):
        s.sentence_index, s.sentence = (0 if i < 2 else 1), f"sentence {0 if i < 2 else 1}"
    ex = ExampleResult("e1", "In a paragraph, could you answer: who?", {"normal": r})
    record = annotate.release_record(ex, "normal", {"S1": "okay", "S2": "vital", "S3": "vital"})
    assert [len(s["decomp"]) for s in record["decomposition"]] == [2, 1]
    assert [c["judgment"] for s in record["decomposition"] for c in s["decomp"]] == [True, None, False]
    assert record["subclaim-importance-order"] == ["S2", "S3", "S1"]
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "normal.jsonl").write_text(annotate.export_jsonl([record]))
    mine = load_examples(folder).examples
    assert [s.importance for s in mine[0].variants["normal"].subclaims] == ["okay", "vital", "vital"]
    result = compare_labellings(mine, [ex])
    assert result.n == 3 and result.exact == pytest.approx(0.0)
    assert annotate.complete({"S1": "okay"}, r) is False


def test_settings_never_hold_the_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    s = settings.BackendSettings.from_env(settings.OPENAI)
    assert "sk-test-secret" not in json.dumps(s.to_dict()) and "sk-test-secret" not in repr(s)
    assert settings.env_api_key() == "sk-test-secret"
    assert settings.validate(settings.BackendSettings(settings.OPENAI), "", APP_TERMS) == [], \
        "an empty base URL means OPENAI_BASE_URL (a local server may need no key)"
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert settings.validate(settings.BackendSettings(settings.OPENAI), "", APP_TERMS) != [], \
        "api.openai.com needs a key"
    assert settings.validate(settings.BackendSettings(settings.OPENAI, base_url="ftp://x"), "k", APP_TERMS) != []
    assert settings.validate(settings.BackendSettings(), "", APP_TERMS) == []
    assert backend_wording.describe_quality(None) == backend_wording.NOT_MEASURED


def test_offline_quality_banner_reads_the_benchmark_json(tmp_path):
    figures = {"importance": {"normal": {"offline": 0.5, "offline_cv": 0.41, "gpt-4o": 0.40},
                              "missing": {"offline": 0.3, "offline_cv": 0.22}},
               "detection": {"rlp_wrong": 0.92, "false_flag_missing": 0.06},
               "verifier": {"accuracy_unseen": 0.576, "cases": 476}, "speed": {"median": 0.21}}
    path = tmp_path / "quality.json"
    path.write_text(json.dumps(figures))
    line = backend_wording.describe_quality(settings.offline_quality(path))
    assert line == ("importance κ vs people (held out) normal 0.41, missing 0.22; wrong key answer flagged 92%; "
                    "false flags 6%; fact checks right on 58% of 476 unseen cases; median 0.21 s per response")
    path.write_text("{broken")
    assert settings.offline_quality(path) is None


@pytest.mark.parametrize("text", [
    "![x](http://evil.example/a.png)", "[click](javascript:alert(1))", "<img src=x onerror=alert(1)>",
    "# heading", "1. item", "> quote", "**bold** _it_ ~~s~~ `code`", "$x^2$", ":red[text] :material/home:",
    "a | b", "&lt;img&gt;", "back\\slash", "    indented code", "see http://evil.example and www.evil.example"])
def test_escape_md_leaves_no_markdown_construct(text):
    from explorer.logic.formatting import escape_md
    out = escape_md(text)
    unescaped = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", out).replace("\u2060", "")
    assert unescaped == text.lstrip(), "a person reads the text as written (indent dropped)"
    assert not re.search(r"[!-/:-@\[-`{-~]", re.sub(r"\\[!-/:-@\[-`{-~]", "", out)), "every punctuation mark is escaped"
    assert not re.search(r"(?i)\b(https?:|www\.)", re.sub(r"\\(.)", r"\1", out)), "no bare link survives"


def test_plot_text_escapes_chart_labels_and_keeps_numbers():
    from explorer.logic.formatting import plot_text
    frame = pd.DataFrame({"condition": ["<a href='http://evil.example'>x</a>"], "mean": [0.5]})
    out = plot_text(frame)
    assert out.loc[0, "condition"] == "&lt;a href='http://evil.example'&gt;x&lt;/a&gt;" and out.loc[0, "mean"] == 0.5
    assert frame.loc[0, "condition"].startswith("<a"), "the CSV keeps the original"


def test_text_files_tell_text_from_binary():
    from explorer.logic.text_files import decode_text, is_text
    assert is_text("plain ASCII\nlines\n".encode()) and is_text("café ☃ naïve".encode())
    assert is_text("café in Latin-1".encode("latin-1")) and is_text("UTF-16 text".encode("utf-16"))
    assert is_text(("é" * 4097).encode()[:8192 - 1]), "a sample cut inside a character is still text"
    assert not is_text(bytes(range(256)) * 8) and not is_text(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    assert decode_text("a.txt", "\ufeffwith a BOM".encode()) == "with a BOM"
    with pytest.raises(InputError, match=r"^notes\.txt is not a text file"):
        decode_text("notes.txt", bytes(range(256)) * 8)


def test_session_folder_holds_one_upload_and_goes_with_its_owner():
    import gc

    from explorer.logic.session_files import SessionFolder, name_in_message
    folder = SessionFolder()
    first = folder.place("../../etc/a b.jsonl", b"1")
    assert first.parent == folder.path and first.name == "a b.jsonl"
    second = folder.place("two.jsonl", b"2")
    assert [p.name for p in folder.path.iterdir()] == ["two.jsonl"], "a new upload replaces the last"
    assert name_in_message(f"{second} line 2: malformed JSON", second, "two.jsonl") \
        == "two.jsonl line 2: malformed JSON"
    path = folder.path
    del folder
    gc.collect()
    assert not path.exists()


def test_annotation_export_holds_only_the_persons_labels():
    r = _response(tiers=("vital", "okay", "less-important"))
    record = annotate.release_record(ExampleResult("e1", "q", {"normal": r}), "normal", {"S3": "vital"})
    labels = {c["id"]: c["importance"] for s in record["decomposition"] for c in s["decomp"]}
    assert labels == {"S1": None, "S2": None, "S3": "vital"}, "untouched subclaims are null, not labelling A's"
    assert record["subclaim-importance-order"] == ["S3", "S1", "S2"]
    rows = annotate.editor_rows(r, {"S2": "okay"}, start_from_theirs=False)
    assert list(rows["your label"].astype(object).where(rows["your label"].notna(), None)) == [None, "okay", None]
    assert str(rows["your label"].dtype) == str(annotate.editor_rows(r, {}, False)["your label"].dtype) == "string"
    assert annotate.labels_from_rows(rows.to_dict("records")) == {"S2": "okay"}


@pytest.mark.parametrize("documents,reference", [(False, False), (True, False), (False, True), (True, True)])
def test_progress_messages_match_what_the_pipeline_announces(documents, reference):
    from explorer.logic import long_runs
    from vital_core.backends.config import BackendSettings, build_backend
    from vital_core.results.model import Document
    from vital_core.scoring.pipeline import progress_messages, run_sync, score_example
    announced = []
    run_sync(score_example(build_backend(BackendSettings()), example_id="e", query="Who wrote Hamlet?",
                           responses={"normal": "Shakespeare wrote Hamlet. It is a play.",
                                      "wrong": "Marlowe wrote Hamlet. It is a play."},
                           documents=[Document("d", "William Shakespeare wrote Hamlet, a play.")] if documents else [],
                           reference="Shakespeare wrote it." if reference else None, on_step=announced.append))
    against_normal = not documents and not reference   # the wrong one is checked against the normal
    assert len(announced) == progress_messages(2, documents, reference, against_normal), announced
    share, line = long_runs.progress(len(announced), len(announced), announced[-1], 3.2)
    assert share < 1.0 and line.startswith(f"step {len(announced)} of {len(announced)}: ")
    assert line.endswith("3 s so far")


def test_the_offline_quality_in_one_plain_sentence():
    assert backend_wording.plain_quality({"verifier": {"accuracy_unseen": 0.58, "cases": 476}}) == (
        "Offline checks: good on the demos, about 6 in 10 right on text it has not seen; use an LLM endpoint "
        "for your own data.")
    assert "not measured" in backend_wording.plain_quality(None)
