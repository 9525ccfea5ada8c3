"""AppTest: the Compare variants page."""
from __future__ import annotations

from tests.app_helpers import assert_clean, html_bodies, open_page, texts
from vital_core.stats import NOTICED_RULE


def _table(at):
    return next(d.value for d in at.dataframe if "metric" in d.value.columns and "Δ wrong" in d.value.columns)


def test_first_visit_compares_a_precomputed_demo_example():
    at = open_page("compare", query_params={"example": "demo-03"})
    assert at.text_input(key="cmp_query").value == "What is the capital of Australia?"
    table = _table(at)
    assert {"normal", "missing", "wrong", "Δ missing", "Δ wrong", "wrong: reaction"} <= set(table.columns)
    assert "FactScore precision" in set(table["metric"])
    verdicts = [m for m in texts(at, "markdown") if m.startswith("- The ")]
    assert any(v.startswith("- The missing response:") for v in verdicts)
    assert any(v.startswith("- The wrong response:") for v in verdicts)
    assert "<ins" in html_bodies(at), "differences from normal are highlighted"
    assert at.get("plotly_chart"), "grouped bar chart"
    # "noticed" is the one rule of the core, said on the page as on Sensitivity
    assert any(c.startswith(NOTICED_RULE.capitalize()) for c in texts(at, "caption"))


def test_generate_variants_and_score_with_offline_backend():
    at = open_page("compare")
    at.text_input(key="cmp_query").set_value("Who painted the Mona Lisa?")
    at.text_area(key="cmp_normal").set_value(
        "The Mona Lisa was painted by Leonardo da Vinci. He worked on it from about 1503. "
        "It hangs in the Louvre in Paris.")
    at.text_area(key="cmp_missing").set_value("")
    at.text_area(key="cmp_wrong").set_value("")
    at.text_area(key="cmp_documents").set_value(
        "Leonardo da Vinci painted the Mona Lisa, starting around 1503. The painting is in the Louvre, Paris.")
    at.button[[b.label for b in at.button].index("Generate missing and wrong from the normal response")].click().run()
    assert_clean(at)
    assert any("Generated the missing and wrong variants" in s for s in texts(at, "success"))
    missing, wrong = at.text_area(key="cmp_missing").value, at.text_area(key="cmp_wrong").value
    assert missing and wrong and wrong != at.text_area(key="cmp_normal").value
    at.button[[b.label for b in at.button].index("Score all variants")].click().run()
    assert_clean(at)
    assert any("scored just now by the offline backend" in c for c in texts(at, "caption"))
    assert not any("texts above changed" in w for w in texts(at, "warning"))
    assert set(_table(at).columns) >= {"normal", "missing", "wrong"}


def test_stale_result_and_missing_normal_are_explained():
    at = open_page("compare")
    at.text_area(key="cmp_wrong").set_value("Something else entirely.").run()
    assert any("texts above changed" in w for w in texts(at, "warning"))
    at.text_area(key="cmp_normal").set_value("")
    at.button[[b.label for b in at.button].index("Score all variants")].click().run()
    assert_clean(at)
    assert any("at least the normal response" in w for w in texts(at, "warning"))


def test_scoring_your_own_texts_takes_the_demo_out_of_the_url():
    at = open_page("compare", query_params={"example": "demo-03"})
    at.text_area(key="cmp_normal").set_value("Canberra is the capital of Australia.")
    at.text_area(key="cmp_missing").set_value("Australia has a capital.")
    at.text_area(key="cmp_wrong").set_value("Sydney is the capital of Australia.")
    at.button[[b.label for b in at.button].index("Score all variants")].click().run()
    assert_clean(at)
    assert "example" not in at.query_params
