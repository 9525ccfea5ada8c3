"""AppTest: the Compare variants page."""
from __future__ import annotations

import html
import re

from explorer.logic import explain
from tests.support.app_helpers import assert_clean, html_bodies, open_page, texts
from tests.support.demo_story import demo_inputs, demo_results, stories, story_demo
from tests.support.flagged_answer import MISSED_NUGGET, UNFOUND_CLAIM, flagged_correct_example
from vital_core.analysis import story
from vital_core.results.model import EVIDENCE_NORMAL

# The headline of a wrong variant on which the story holds: FactScore barely moved, a VITAL metric noticed.
STORY_LINE = re.compile(r"^- wrong: FactScore precision \d\.\d\d \u2192 \d\.\d\d \([\u2212+]\d\.\d\d\): barely moved; "
                        r".*\b(VITAL precision|RLP)\b [^;]*: noticed")


def _table(at):
    return next(d.value for d in at.dataframe if "metric" in d.value.columns and "Δ wrong" in d.value.columns)


def _read(at) -> list[str]:
    """Every markdown body as a person reads it: escapes resolved, bold markers gone."""
    return [m.replace("**", "") for m in texts(at, "markdown")]


def _headlines(at) -> dict[str, str]:
    return {m.split("**")[1]: m.replace("**", "") for m in texts(at, "markdown") if m.startswith("- **")}


def _press(at, label: str):
    at.button[[b.label for b in at.button].index(label)].click().run()
    assert_clean(at)
    return at


def test_first_visit_compares_a_demo_on_which_the_story_holds():
    demo = story_demo()
    at = open_page("compare", query_params={"example": demo})
    assert at.text_input(key="cmp_query").value == demo_inputs()[demo]["query"]
    table = _table(at)
    assert {"normal", "missing", "wrong", "Δ missing", "Δ wrong", "wrong: reaction"} <= set(table.columns)
    assert "FactScore precision" in set(table["metric"]), "the full per-metric table stays below the headline"
    lines = _headlines(at)
    assert set(lines) == {"missing", "wrong"}, "one sentence per damaged variant"
    assert STORY_LINE.search(lines["wrong"]), lines["wrong"]
    assert any(m.startswith("Checked against: Every variant's claims were checked against the evidence documents")
               for m in _read(at))
    assert "<ins" in html_bodies(at), "differences from normal are highlighted"
    assert at.get("plotly_chart"), "grouped bar chart"
    # the words are the one vocabulary of the core, each with its meaning on the page
    bodies = html.unescape(html_bodies(at))
    assert all(story.REACTION_MEANING[word] in bodies for word in story.REACTIONS)


def test_results_come_first_and_the_inputs_fold_away():
    at = open_page("compare", query_params={"example": story_demo()})
    inputs = next(e for e in at.get("expander") if e.label.startswith("Inputs"))
    assert not inputs.proto.expanded, "with a result on show, the inputs are one click away"
    strip = next(h for h in at.html if 'class="vx-strip"' in str(h.proto.body))
    body = str(strip.proto.body)
    assert body.index('data-variant="wrong"') < body.index('data-variant="missing"'), "the wrong story leads"
    assert 'data-metric="factscore_precision" data-reaction="barely moved"' in body
    assert f'data-metric="factscore_precision" data-reaction="{story.BY_DESIGN}"' in body, \
        "precision on the missing variant cannot notice a fact left out"
    # the key change is named on the strip card
    assert 'class="vx-key-change"' in body


def test_a_flagged_normal_response_is_explained_on_the_page():
    flagged = [i for i, e in demo_results().items()
               if explain.why_flagged(e.variants["normal"], e.nuggets)]
    if not flagged:   # every bundled normal is clean: nothing to explain
        return
    at = open_page("compare", query_params={"example": flagged[0]})
    bodies = html.unescape(html_bodies(at))
    assert "The normal response carries a flag" in bodies
    assert re.search(r"RL[PR]: \d+ of (this answer's|the evidence's) \d+ vital", bodies)


def test_present_mode_shows_the_story_and_steps_through_the_demos():
    demos = list(demo_inputs())
    at = open_page("compare", query_params={"example": demos[0], "present": "1"})
    assert not [t for t in texts(at, "title")], "no page title in present mode: nothing but the story"
    assert not [e for e in at.get("expander") if e.label.startswith("Inputs")]
    assert 'class="vx-strip"' in html_bodies(at) and at.get("plotly_chart")
    assert demo_results()[demos[0]].query.split()[0] in html_bodies(at)
    _press(at, "Next \u25b6")
    assert at.query_params.get("example") == demos[1]
    assert at.session_state["cmp_result"]["id"] == demos[1]
    _press(at, "\u25c0 Previous")
    _press(at, "\u25c0 Previous")
    assert at.query_params.get("example") == demos[-1], "previous wraps round"
    _press(at, "Exit")
    assert "present" not in at.query_params


def _low_note(at) -> list[str]:
    """The items of the note saying why the normal response scores low ([] without one), as a person reads them."""
    bodies = [str(h.proto.body) for h in at.html if 'class="vx-low-note"' in str(h.proto.body)]
    if not bodies:
        return []
    body = html.unescape(bodies[0])
    assert "Why the normal response scores low" in body
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", bodies[0], re.S)]


def test_a_normal_that_scores_low_is_explained_from_its_own_result():
    low = [i for i, judged in stories().items() if not judged["normal_ok"]]
    if not low:   # every bundled normal scores well: then the page must not explain anything
        at = open_page("compare", query_params={"example": "demo-01"})
        assert not any(r.startswith("FactScore precision") for r in _low_note(at))
        return
    demo = low[0]
    at = open_page("compare", query_params={"example": demo})
    reasons = _low_note(at)
    normal = demo_results()[demo].variants["normal"]
    unstated = sum(s.verdict == "not_enough_evidence" for s in normal.subclaims)
    assert any(r.startswith("FactScore precision ") and f": {unstated} of its {len(normal.subclaims)} claims"
               in r for r in reasons), reasons


def test_no_evidence_checks_the_variants_against_the_normal_response():
    at = open_page("compare")
    at.text_input(key="cmp_query").set_value("Who wrote the novel Emma?")
    at.text_area(key="cmp_normal").set_value(
        "Jane Austen wrote Emma. It was published in 1815. It is a comic novel about a matchmaker.")
    at.text_area(key="cmp_missing").set_value("It was published in 1815. It is a comic novel about a matchmaker.")
    at.text_area(key="cmp_wrong").set_value(
        "Charlotte Bronte wrote Emma. It was published in 1815. It is a comic novel about a matchmaker.")
    at.text_area(key="cmp_documents").set_value("")
    at.text_area(key="cmp_reference").set_value("")
    _press(at, "Score all variants")
    said = [m for m in _read(at) if m.startswith("Checked against:")]
    assert said == [f"Checked against: {explain.EVIDENCE_SENTENCES[EVIDENCE_NORMAL]}"]
    table = _table(at).set_index("metric")
    assert table.loc["FactScore precision", "normal (taken as correct)"] == "1.000", "the normal is taken as correct"
    assert table.loc["Nugget recall (All Strict)", "missing"] != "undefined", "nuggets from the normal"
    saved = at.session_state["cmp_result"]
    assert {v["evidence_mode"] for v in saved["variants"].values()} == {EVIDENCE_NORMAL}
    assert any(d.label == "Download comparison (JSON)" for d in at.get("download_button"))
    assert "wrong" in _headlines(at)
    assert _low_note(at) == []


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
    _press(at, "Generate missing and wrong from the normal response")
    assert any("Generated the missing and wrong variants" in s for s in texts(at, "success"))
    missing, wrong = at.text_area(key="cmp_missing").value, at.text_area(key="cmp_wrong").value
    assert missing and wrong and wrong != at.text_area(key="cmp_normal").value
    _press(at, "Score all variants")
    assert any("scored just now by the offline backend" in c for c in texts(at, "caption"))
    assert not any("changed since this result was scored" in w for w in texts(at, "warning"))
    assert set(_table(at).columns) >= {"normal", "missing", "wrong"}


def test_stale_result_and_missing_normal_are_explained():
    at = open_page("compare")
    at.text_area(key="cmp_wrong").set_value("Something else entirely.").run()
    assert any("changed since this result was scored" in w for w in texts(at, "warning"))
    at.text_area(key="cmp_normal").set_value("")
    at.button[[b.label for b in at.button].index("Score all variants")].click().run()
    assert_clean(at)
    assert any("at least the normal response" in w for w in texts(at, "warning"))


def test_scoring_your_own_texts_takes_the_demo_out_of_the_url():
    at = open_page("compare", query_params={"example": "demo-03"})
    assert at.query_params.get("example") == "demo-03"
    at.text_area(key="cmp_normal").set_value("Canberra is the capital of Australia.")
    at.text_area(key="cmp_missing").set_value("Australia has a capital.")
    at.text_area(key="cmp_wrong").set_value("Sydney is the capital of Australia.")
    at.button[[b.label for b in at.button].index("Score all variants")].click().run()
    assert_clean(at)
    assert "example" not in at.query_params


def test_own_text_is_not_checked_against_the_demo_evidence_left_in_the_fields():
    # the page opens on a demo with its documents and reference in the (collapsed) Evidence fields;
    # a user who types their own question and answers must not be checked against them
    at = open_page("compare")
    assert at.text_area(key="cmp_documents").value, "the demo's documents fill the evidence field"
    at.text_input(key="cmp_query").set_value("Who wrote the novel Emma?")
    at.text_area(key="cmp_normal").set_value("Jane Austen wrote Emma. It was published in 1815.")
    at.text_area(key="cmp_missing").set_value("It was published in 1815.")
    at.text_area(key="cmp_wrong").set_value("Charlotte Bronte wrote Emma. It was published in 1815.")
    _press(at, "Score all variants")
    assert any("the demo's evidence documents and reference answer were left out" in i.value for i in at.info)
    saved = at.session_state["cmp_result"]
    assert {v["evidence_mode"] for v in saved["variants"].values()} == {EVIDENCE_NORMAL}
    at.run()
    assert at.text_area(key="cmp_documents").value == "" and at.text_area(key="cmp_reference").value == ""


def test_a_demo_scored_as_it_is_keeps_its_evidence():
    at = open_page("compare")
    _press(at, "Score all variants")
    assert not any("were left out" in i.value for i in at.info)
    saved = at.session_state["cmp_result"]
    assert {v["evidence_mode"] for v in saved["variants"].values()} == {"documents"}


def test_an_undefined_metric_in_the_table_says_undefined_never_nan():
    at = open_page("compare")
    at.text_input(key="cmp_query").set_value("Who wrote the novel Emma?")
    at.text_area(key="cmp_normal").set_value("Jane Austen wrote Emma. It was published in 1815.")
    at.text_area(key="cmp_missing").set_value("It was published in 1815.")
    at.text_area(key="cmp_wrong").set_value("Charlotte Bronte wrote Emma. It was published in 1815.")
    _press(at, "Score all variants")
    table = _table(at)
    cells = {str(v).lower() for column in table.columns for v in table[column]}
    assert not cells & {"nan", "<na>", "none"}, cells
    assert "undefined" in set(table["missing"])   # the missing answer has no vital claim left


def test_a_first_visit_opens_on_a_clean_story():
    from explorer.logic.damage import variant_metrics
    metrics = {i: variant_metrics(e) for i, e in demo_results().items()}
    clean = [i for i, m in metrics.items() if story.clean(m)]
    scoring_well = [i for i in clean if story.judge_story(metrics[i])["normal_ok"]]
    at = open_page("compare")
    loaded = at.session_state["cmp_loaded_demo"]
    if clean:   # a demo whose both stories hold and whose normal response carries no flag (nor a low score)
        assert loaded == (scoring_well or clean)[0]
    else:
        assert stories()[loaded]["wrong_ok"] or not any(s["wrong_ok"] for s in stories().values())


def test_a_flagged_correct_answer_and_its_low_factual_correctness_are_explained_in_plain_words():
    example = flagged_correct_example(("normal", "missing", "wrong"))
    at = open_page("compare", session={"cmp_loaded_demo": "", "cmp_result": example.to_dict()})
    strip = html.unescape(next(str(h.proto.body) for h in at.html if 'class="vx-flag-note"' in str(h.proto.body)))
    assert "The normal response carries a flag" in strip
    assert f"was not found in the evidence documents (VITAL precision 0.50): \u201c{UNFOUND_CLAIM}\u201d" in strip
    assert f"is not in this answer (VITAL recall 0.50): \u201c{MISSED_NUGGET}\u201d (only partly)" in strip
    said = _low_note(at)
    assert any(r.startswith("Factual correctness F1 0.33 compares this answer with the reference answer")
               for r in said), said
