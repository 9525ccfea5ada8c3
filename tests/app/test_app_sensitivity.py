"""AppTest: the Sensitivity page."""
from __future__ import annotations

import json

from tests.support.app_helpers import (
    assert_clean,
    hostile,
    hostile_results_file,
    leaks,
    markdown_sources,
    open_page,
    texts,
)
from vital_core.analysis.conventions import DESCRIPTION
from vital_core.analysis.stats import NOTICED_RULE


def _charts(at):
    return at.get("plotly_chart")


def _table_with(at, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_demo_sensitivity_tables_charts_and_downloads():
    at = open_page("sensitivity")
    headers = [h.value for h in at.header]
    assert headers == ["Per-condition means", "Paired tests", "Detection rate per metric",
                       "Cumulative precision over subclaim position (Figures 3-4)",
                       "Decay-weighted precision and recall (Figure 5)"]
    assert len(_charts(at)) == 5
    labels = [d.label for d in at.get("download_button")]
    assert "Paired tests as CSV" in labels and labels.count("Data as CSV") == 5
    # PNG export of every chart is configured with a file name
    for chart in _charts(at):
        assert '"toImageButtonOptions"' in chart.proto.config and '"filename"' in chart.proto.config
    # the paper convention by default, said in its sentence; the authors' tests compare every pair
    assert DESCRIPTION["paper"] in texts(at, "caption")
    assert any(c.startswith(NOTICED_RULE.capitalize()) for c in texts(at, "caption"))     # the detection chart
    tests = _table_with(at, "p t (Holm)")
    assert set(tests["comparison"]) == {"normal vs missing", "normal vs wrong", "missing vs wrong"}
    # the strict convention: each variant against its normal, with its own sentence
    at.radio(key="sens_conventions").set_value("strict").run()
    assert_clean(at)
    assert DESCRIPTION["strict"] in texts(at, "caption")
    tests = _table_with(at, "p (Holm)")
    assert set(tests["condition"]) == {"missing", "wrong"}
    assert tests["p (t-test / McNemar)"].notna().any()


def test_split_and_filter_by_query_type():
    at = open_page("sensitivity")
    at.radio(key="sens_view").set_value("Split by query type").run()
    assert_clean(at)
    assert [s for s in texts(at, "subheader") if s.startswith("Query type")] == [
        "Query type: open-ended", "Query type: single-answer"]
    at.radio(key="sens_view").set_value("single-answer").run()
    assert_clean(at)
    counts = at.dataframe[0].value.iloc[0]
    assert counts["metric"] == "Responses" and list(counts[["normal", "missing", "wrong"]]) == ["6", "6", "6"]


def test_reference_set_says_what_was_not_judged_and_left_out(reference_dir):
    at = open_page("sensitivity", query_params={"dataset": str(reference_dir / "gpt-4o")})
    assert any("150 responses" in c for c in texts(at, "caption"))
    assert any("Decay recall is undefined" in c for c in texts(at, "caption"))
    assert any("Not judged: 36 response(s)" in w for w in texts(at, "warning"))
    table4 = at.dataframe[1].value     # the second tab: FactScore skips the 12 never-judged responses
    assert table4.iloc[1]["metric"] == "FactScore precision" and "(12 left out)" in table4.iloc[1]["normal"]
    means_chart = _charts(at)[0]
    title = means_chart.proto.spec.replace("\\u003cbr\\u003e", " ")   # a long title wraps onto lines
    assert "no recall: this set has no nuggets" in title


def test_single_condition_set_explains_missing_pairs(reference_dir):
    at = open_page("sensitivity", query_params={"dataset": str(reference_dir / "gpt-4o" / "normal.jsonl")})
    assert any("Only one condition is loaded" in i for i in texts(at, "info"))
    assert any("No paired tests" in i for i in texts(at, "info"))


def test_markdown_in_query_types_shows_as_text(tmp_path, monkeypatch):
    monkeypatch.setenv("VITAL_DATA_ROOTS", str(tmp_path))
    path = hostile_results_file(tmp_path)
    at = open_page("sensitivity", query_params={"dataset": str(path)})
    at.radio(key="sens_view").set_value("Split by query type").run()
    assert_clean(at)
    assert not leaks(markdown_sources(at)), leaks(markdown_sources(at))[:3]
    assert any(h.endswith(hostile("querytype")) for h in texts(at, "subheader"))
    # plotly reads tags in legend names, facet titles and hover text: they reach it escaped
    specs = [c.proto.spec for c in _charts(at)]
    assert specs and not [s for s in specs if "<img" in s or "\\u003cimg" in s]
    assert any("&lt;img" in s or "\\u0026lt;img" in s for s in specs)


def test_every_statistic_and_metric_name_has_a_one_line_explanation():
    at = open_page("sensitivity")
    glossary = next(d.value for d in at.dataframe if list(d.value.columns) == ["name", "what it means"])
    names = set(glossary["name"])
    assert {"d_z", "r", "Holm", "McNemar", "ROC AUC", "WIMPE WPA", "F1@K (SAFE)", "RLP (vital error flagged)"} <= names
    assert all(len(line) > 20 for line in glossary["what it means"])
    helped = {c: cfg.get("help") for d in at.dataframe
              for c, cfg in (json.loads(d.proto.columns or "{}") or {}).items() if cfg.get("help")}
    assert {"effect", "p t (Holm)"} <= set(helped) or {"p (Holm)", "detection rate"} <= set(helped), helped
