"""AppTest: the Agreement page (compare labellings, annotate, export)."""
from __future__ import annotations

from tests.app_helpers import assert_clean, open_page, texts, metric_values


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
    editor = next(d for d in at.data_editor if d.key and d.key.startswith("ann_editor_"))
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
