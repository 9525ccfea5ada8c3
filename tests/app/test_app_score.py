"""AppTest: the Score page (inputs, offline scoring, undefined metrics, what-if, download, XSS)."""
from __future__ import annotations

import html

from streamlit.proto.Metric_pb2 import Metric

from tests.support.app_helpers import assert_clean, html_bodies, metric_values, open_page, texts
from tests.support.demo_story import demo_inputs
from tests.support.flagged_answer import MISSED_NUGGET, UNFOUND_CLAIM, flagged_correct_example

XSS = "It is <script>alert(1)</script> and <img src=x onerror=alert(1)> indeed."


def _score(at, query: str, response: str, documents: str = "", reference: str = ""):
    at.text_input(key="score_query").set_value(query)
    at.text_area(key="score_response").set_value(response)
    at.text_area(key="score_documents").set_value(documents)
    at.text_area(key="score_reference").set_value(reference)
    at.button[[b.label for b in at.button].index("Score")].click().run()
    assert_clean(at)
    return at


def test_first_visit_shows_a_precomputed_demo_result():
    at = open_page("score")
    values = metric_values(at)
    assert set(values) >= {"FactScore precision", "VITAL precision", "Weighted precision", "Decay precision",
                           "RLP (vital error flagged)", "Nugget recall (All Strict)", "Factual correctness F1"}
    landing = at.session_state["score_loaded_demo"]   # the landing demo (a clean story when there is one)
    assert any(f"precomputed by the offline backend for demo example {landing}" in c for c in texts(at, "caption"))
    assert "vx-row" in html_bodies(at)
    assert any(d.label.startswith("Download result (JSON)") for d in at.get("download_button"))


def test_url_example_prefills_the_inputs():
    at = open_page("score", query_params={"example": "demo-04"})
    assert at.text_input(key="score_query").value == demo_inputs()["demo-04"]["query"]
    assert at.text_area(key="score_response").value == demo_inputs()["demo-04"]["responses"]["normal"]


def test_offline_scoring_with_documents_shows_subclaims_and_metrics():
    at = open_page("score")
    _score(at, "When did the Berlin Wall fall?",
           "The Berlin Wall fell on 9 November 1989. Germany was reunified on 3 October 1990.",
           documents="The Berlin Wall fell on 9 November 1989.\n---\nGermany was reunified on 3 October 1990.")
    assert [s.label for s in at.status] and at.status[0].label.startswith("Scored:"), \
        "st.status reports the finished steps"
    steps = [m.value for m in at.status[0].markdown]
    assert any("decomposing" in m for m in steps) and any("verifying" in m for m in steps)
    assert any("scored just now by the offline backend" in c for c in texts(at, "caption"))
    values = metric_values(at)
    assert values["FactScore precision"] != "undefined"
    assert values["Nugget recall (All Strict)"] != "undefined", "documents give nuggets"
    # documents but no reference: factual correctness is undefined and says why
    assert values["Factual correctness F1"] == "undefined"
    assert any("Undefined — needs a reference answer to check the response's claims against" in c
               for c in texts(at, "caption"))


def test_no_evidence_leaves_recall_undefined_and_explained():
    at = open_page("score")
    _score(at, "Who wrote Hamlet?", "Hamlet was written by William Shakespeare around 1600.")
    values = metric_values(at)
    assert values["Nugget recall (All Strict)"] == "undefined"
    assert values["VITAL recall (Vital Strict)"] == "undefined"
    captions = " ".join(texts(at, "caption"))
    assert "needs nuggets, which are built from evidence documents; none were given" in captions
    # the offline backend judged nothing without evidence: precision is undefined, not 0
    assert values["FactScore precision"] == "undefined"
    assert "nothing was checked" in captions
    # the user's own text: no word about the release, no "checked against none"
    said = " ".join(texts(at, "caption") + texts(at, "warning"))
    assert "the release" not in said and "against none" not in said, said
    assert "no evidence documents or reference answer were given" in said


def test_the_report_downloads_from_score_self_contained():
    at = open_page("score")
    report = next(d for d in at.get("download_button") if d.label.startswith("Download one-page report"))
    assert report.proto.label and at.session_state["score_result"]


def test_empty_inputs_ask_for_text_not_a_traceback():
    at = open_page("score")
    _score(at, "", "")
    assert any("Enter a query and a response" in w for w in texts(at, "warning"))


def test_bad_uploaded_jsonl_names_file_and_line():
    at = open_page("score")
    at.file_uploader(key="score_uploads").set_value(
        [("evidence.jsonl", b'{"text": "fine"}\n{oops\n', "application/json")])
    _score(at, "Who?", "Someone.")
    errors = " ".join(texts(at, "error"))
    assert "evidence.jsonl line 2" in errors and "not valid JSON" in errors


def test_whatif_edit_changes_the_metrics():
    at = open_page("score", query_params={"example": "demo-01"})
    before = metric_values(at)
    editor = at.data_editor[0]
    rows = editor.value
    assert list(rows.columns) == ["rank", "id", "subclaim", "importance", "verdict"]
    vital_rows = [i for i, (imp, ver) in enumerate(zip(rows["importance"], rows["verdict"]))
                  if imp == "vital" and ver == "supported"]
    assert vital_rows, "the demo example has a supported vital subclaim"
    at.session_state[editor.key] = {"edited_rows": {vital_rows[0]: {"verdict": "contradicted"}},
                                    "added_rows": [], "deleted_rows": []}
    at.run()
    assert_clean(at)
    after = metric_values(at)
    assert after["VITAL precision"] != before["VITAL precision"]
    assert after["FactScore precision"] != before["FactScore precision"]
    assert after["RLP (vital error flagged)"] == "flagged"
    if before["RLP (vital error flagged)"] == "not flagged":   # a flag that newly fires shows as worse (red)
        rlp = next(m for m in at.metric if m.label == "RLP (vital error flagged)")
        assert rlp.proto.delta == "now flagged (was not)" and rlp.proto.color == Metric.MetricColor.RED, rlp.proto
    assert any(i.startswith("What-if:") for i in texts(at, "info"))
    assert any(d.label.endswith("with your what-if edits") for d in at.get("download_button"))


def test_whatif_relabel_to_vital_defines_vital_precision():
    at = open_page("score")
    _score(at, "What is it?", "It is blue. It is round. It is small.", documents="It is blue and round.")
    editor = at.data_editor[0]
    n = len(editor.value)
    at.session_state[editor.key] = {"edited_rows": {i: {"importance": "okay"} for i in range(n)},
                                    "added_rows": [], "deleted_rows": []}
    at.run()
    assert metric_values(at)["VITAL precision"] == "undefined"
    assert any("none of this response's subclaims is vital" in c for c in texts(at, "caption"))
    at.session_state[editor.key] = {"edited_rows": {0: {"importance": "vital"}}, "added_rows": [],
                                    "deleted_rows": []}
    at.run()
    assert metric_values(at)["VITAL precision"] != "undefined"


def test_user_text_is_escaped():
    at = open_page("score")
    _score(at, "Q <b>bold</b>?", XSS, documents="<img src=x onerror=alert(2)> evidence")
    body = html_bodies(at)
    assert "<script>" not in body and "<img" not in body
    assert "&lt;script&gt;" in body or "&lt;img src=x onerror=alert(1)&gt;" in body


def test_demo_picker_fills_inputs_and_the_url():
    at = open_page("score")
    at.selectbox(key="score_demo_pick").set_value("demo-09").run()
    assert_clean(at)
    assert at.text_input(key="score_query").value == demo_inputs()["demo-09"]["query"]
    assert at.query_params.get("example") == "demo-09"
    assert any("demo example demo-09" in c for c in texts(at, "caption"))


def test_documents_and_reference_together_define_factual_correctness():
    at = open_page("score")
    _score(at, "When did the Berlin Wall fall?",
           "The Berlin Wall fell on 9 November 1989. Germany was reunified on 3 October 1990.",
           documents="The Berlin Wall fell on 9 November 1989.\n---\nGermany was reunified on 3 October 1990.",
           reference="The Berlin Wall fell on 9 November 1989.")
    values = metric_values(at)
    assert values["Factual correctness F1"] != "undefined", "documents decide verdicts; the reference gives FC"


def test_binary_evidence_is_refused_with_a_sentence_and_nothing_is_scored():
    at = open_page("score")
    for name in ("photo.txt", "archive.jsonl"):
        at.file_uploader(key="score_uploads").set_value([(name, bytes(range(256)) * 40, "text/plain")])
        _score(at, "Who?", "Someone did it.")
        errors = " ".join(texts(at, "error"))
        assert f"Could not read the evidence: {name} is not a text file" in errors
        assert "surrogates" not in errors and not at.status, "nothing was scored"


def test_scoring_your_own_text_takes_the_demo_out_of_the_url():
    at = open_page("score", query_params={"example": "demo-03"})
    assert at.query_params.get("example") == "demo-03"
    _score(at, "Who wrote Hamlet?", "Hamlet was written by William Shakespeare.")
    assert "example" not in at.query_params, "a shared link would open another example"
    assert any("the page's URL does not hold it" in c for c in texts(at, "caption"))


def test_a_response_over_the_size_limit_is_refused_with_a_sentence():
    from vital_core.scoring.limits import MAX_WORDS
    at = open_page("score")
    _score(at, "What is it?", "word " * (MAX_WORDS + 1))
    errors = texts(at, "error")
    assert errors == [f"The response has {MAX_WORDS + 1:,} words, more than the limit of {MAX_WORDS:,} for one "
                      "response (scoring it would take minutes); shorten it and score again."]
    assert not at.status, "nothing was sent to the backend"


def test_scoring_shows_progress_step_by_step():
    at = open_page("score")
    _score(at, "When did the Berlin Wall fall?", "The Berlin Wall fell on 9 November 1989.",
           documents="The Berlin Wall fell on 9 November 1989.", reference="It fell in 1989.")
    bars = at.status[0].get("progress")
    assert bars and bars[0].proto.value == 100 and bars[0].proto.text.startswith("done in ")
    steps = [m.value for m in at.status[0].markdown]
    assert any("building nuggets" in m for m in steps) and any("verifying" in m for m in steps)


def test_own_text_is_not_checked_against_the_demo_evidence_left_in_the_fields():
    at = open_page("score")
    assert at.text_area(key="score_documents").value, "the demo's documents fill the evidence field"
    at.text_input(key="score_query").set_value("Who wrote Hamlet?")
    at.text_area(key="score_response").set_value("Hamlet was written by William Shakespeare around 1600.")
    at.button[[b.label for b in at.button].index("Score")].click().run()
    assert_clean(at)
    assert any("the demo's evidence documents and reference answer were left out" in i.value for i in at.info)
    assert metric_values(at)["FactScore precision"] == "undefined"
    at.run()
    assert at.text_area(key="score_documents").value == "" and at.text_area(key="score_reference").value == ""


def test_a_flagged_correct_answer_and_its_low_factual_correctness_are_explained_in_plain_words():
    example = flagged_correct_example()
    at = open_page("score", session={"score_loaded_demo": "", "score_result": example.to_dict()})
    bodies = html.unescape(html_bodies(at))
    assert "This response carries a flag" in bodies
    assert f"RLP: 1 of this answer's 2 vital claims was not found in the evidence documents (VITAL precision " \
           f"0.50): \u201c{UNFOUND_CLAIM}\u201d" in bodies
    assert f"RLR: 1 of the evidence's 2 vital nuggets is not in this answer (VITAL recall 0.50): " \
           f"\u201c{MISSED_NUGGET}\u201d (only partly)" in bodies
    note = next(html.unescape(str(h.proto.body)) for h in at.html if 'class="vx-low-note"' in str(h.proto.body))
    assert "Why this response scores low" in note
    assert "<li>Factual correctness F1 0.33 compares this answer with the reference answer" in note
    assert "1 of the answer's 5 claims is stated in the reference (precision 0.20)" in note
