"""AppTest: the Sensitivity page."""
from __future__ import annotations

from tests.app_helpers import assert_clean, open_page, texts


def _charts(at):
    return at.get("plotly_chart")


def test_demo_sensitivity_tables_charts_and_downloads():
    at = open_page("sensitivity")
    headers = [h.value for h in at.header]
    assert headers == ["Per-condition means", "Paired tests: each variant against its normal response",
                       "Detection rate per metric", "Cumulative precision over subclaim position (Figures 3-4)",
                       "Decay-weighted precision and recall (Figure 5)"]
    assert len(_charts(at)) == 5
    labels = [d.label for d in at.get("download_button")]
    assert "Paired tests as CSV" in labels and labels.count("Data as CSV") == 5
    # PNG export of every chart is configured with a file name
    for chart in _charts(at):
        assert '"toImageButtonOptions"' in chart.proto.config and '"filename"' in chart.proto.config
    # the paired-test table lists both damaged variants
    tests = next(d.value for d in at.dataframe if "p (Holm)" in d.value.columns)
    assert set(tests["variant"]) == {"missing", "wrong"}
    assert tests["p (t-test / McNemar)"].notna().any()


def test_split_and_filter_by_query_type():
    at = open_page("sensitivity")
    at.radio(key="sens_view").set_value("Split by query type").run()
    assert_clean(at)
    means = at.dataframe[0].value
    assert set(means["query_type"]) == {"open-ended", "single-answer"}
    at.radio(key="sens_view").set_value("single-answer").run()
    assert_clean(at)
    assert list(at.dataframe[0].value["n"]) == [6, 6, 6]


def test_reference_set_without_nuggets_explains_undefined(reference_dir):
    at = open_page("sensitivity", query_params={"dataset": str(reference_dir / "gpt-4o")})
    assert any("150 responses" in c for c in texts(at, "caption"))
    assert any("Decay recall is undefined" in c for c in texts(at, "caption"))
    assert any("Left out of the means as undefined" in c for c in texts(at, "caption"))


def test_single_condition_set_explains_missing_pairs(reference_dir):
    at = open_page("sensitivity", query_params={"dataset": str(reference_dir / "gpt-4o" / "normal.jsonl")})
    assert any("Only one condition is loaded" in i for i in texts(at, "info"))
    assert any("No paired tests" in i for i in texts(at, "info"))
