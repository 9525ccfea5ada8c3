"""AppTest: the Agreement page (compare labellings, annotate, export)."""
from __future__ import annotations

from tests.support.app_helpers import (
    assert_clean,
    hostile_results_file,
    leaks,
    markdown_sources,
    metric_values,
    open_page,
    shown,
    tables_showing_none,
    texts,
)


def test_gpt4o_vs_human_by_default(reference_dir):
    at = open_page("agreement")
    values = metric_values(at)
    assert values["Subclaims compared"] != "0"
    assert float(values["Cohen's κ (linear)"]) < 1.0
    assert values["Examples"] == "30"
    assert at.get("plotly_chart"), "confusion heatmap"
    assert any("first 30 are compared" in c for c in texts(at, "caption"))


def test_condition_filter_changes_the_comparison(reference_dir):
    at = open_page("agreement")
    everything = metric_values(at)["Subclaims compared"]
    at.radio(key="agr_condition").set_value("normal").run()
    assert_clean(at)
    assert int(metric_values(at)["Subclaims compared"]) < int(everything)


def test_missing_paths_are_explained(tmp_path, monkeypatch):
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(tmp_path))
    at = open_page("agreement", session={"agr_a": str(tmp_path / "nope"), "agr_b": ""})
    assert any("Could not read labelling A: no file or folder at" in e for e in texts(at, "error"))
    at = open_page("agreement", session={"agr_a": "/etc", "agr_b": ""})
    assert any(f"Could not read labelling A: /etc is outside the folders this app reads ({tmp_path.resolve()})" in e
               for e in texts(at, "error"))
    at = open_page("agreement", session={"agr_a": "", "agr_b": ""})
    assert any("Enter labelling A" in i for i in texts(at, "info"))


def test_annotate_agreement_and_export(reference_dir):
    at = open_page("agreement")
    editor = next(d for d in at.data_editor if d.key and d.key.startswith("agr_ann_editor_"))
    rows = editor.value
    model = list(rows["labelling A"])
    # agree on the first three subclaims, disagree (maximally) on the fourth
    opposite = {"vital": "less-important", "okay": "vital", "less-important": "vital"}
    edits = {i: {"your label": model[i]} for i in range(3)}
    edits[3] = {"your label": opposite[model[3]]}
    at.session_state[editor.key] = {"edited_rows": edits, "added_rows": [], "deleted_rows": []}
    at.run()
    assert_clean(at)
    values = metric_values(at)
    assert values["Subclaims you labelled"].startswith("4 / ")
    assert values["Your exact agreement with A"] == "0.750"
    export = next(d for d in at.get("download_button") if d.label.startswith("Export your normal labels"))
    assert "1 record" in export.label


def test_pick_a_reference_labelling_fills_the_path(reference_dir):
    at = open_page("agreement")
    human_kappa = metric_values(at)["Cohen's κ (linear)"]
    llama = str(reference_dir / "labels" / "llama-3.3-70b")
    at.selectbox(key="agr_pick_b").set_value(llama).run()
    assert_clean(at)
    assert at.text_input(key="agr_b").value == llama
    assert metric_values(at)["Cohen's κ (linear)"] != human_kappa


def _annotate(at, edits: dict[int, str]):
    editor = next(d for d in at.data_editor if d.key and d.key.startswith("agr_ann_editor_"))
    at.session_state[editor.key] = {"edited_rows": {i: {"your label": v} for i, v in edits.items()},
                                    "added_rows": [], "deleted_rows": []}
    at.run()
    assert_clean(at)
    return editor


def test_annotate_keeps_every_edit_and_exports_only_yours(reference_dir):
    at = open_page("agreement")
    editor = next(d for d in at.data_editor if d.key and d.key.startswith("agr_ann_editor_"))
    # the column of your labels keeps one type, blank or not: a change of type makes the editor a new
    # widget in the browser, which dropped the edit in flight (tests/browser/test_browser.py shows it live)
    assert str(editor.value["your label"].dtype) == "string"
    assert editor.proto.row_height > 64, "long subclaims wrap instead of being cut to one line"
    assert editor.proto.placeholder and editor.proto.placeholder != "None"
    _annotate(at, {0: "vital"})
    editor = _annotate(at, {0: "vital", 1: "okay"})
    assert str(editor.value["your label"].dtype) == "string"
    assert metric_values(at)["Subclaims you labelled"].startswith("2 / ")
    # what the export button writes: the labels you set, nothing of labelling A's
    (slot, labels), = at.session_state["agr_labels"].items()
    assert labels == {editor.value["id"][0]: "vital", editor.value["id"][1]: "okay"}


def test_no_table_prints_none(reference_dir):
    at = open_page("agreement")
    assert not tables_showing_none(at), tables_showing_none(at)
    at = open_page("explore", query_params={"dataset": str(reference_dir / "gpt-4o")})
    assert not tables_showing_none(at), tables_showing_none(at)
    at = open_page("sensitivity")
    assert not tables_showing_none(at), tables_showing_none(at)
    at.radio(key="sens_conventions").set_value("strict").run()
    assert not tables_showing_none(at), tables_showing_none(at)


def test_a_hostile_condition_name_is_escaped_on_every_label_and_file_name(tmp_path, monkeypatch):
    """A condition named with markdown, LaTeX and HTML payloads reaches the export button's label and its
    caption as text (Annotate, "Start from: labelling A"); its file name: tests/browser/test_browser.py."""
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(tmp_path))
    path = str(hostile_results_file(tmp_path))
    at = open_page("agreement", session={"agr_a": path, "agr_b": path})
    condition = next(c for c in at.selectbox(key="agr_ann_condition").options if "evil.example" in c)
    at.selectbox(key="agr_ann_condition").set_value(condition)
    at.radio(key="agr_ann_start").set_value("labelling A").run()
    assert_clean(at)
    [export] = [d for d in at.get("download_button") if d.label.startswith("Export your")]
    assert "evil.example" in shown(export.label), "the condition's name is on the button, as text"
    assert not leaks([export.label] + markdown_sources(at))
