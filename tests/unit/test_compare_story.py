"""Compare's headline (explorer.logic.damage.headlines), its explanations (explorer.logic.explain) and the
story's rule (vital_core.analysis.story) - without a running app."""
from __future__ import annotations

import pytest

from explorer.logic import damage, explain
from tests.support.demo_story import demo_results
from tests.support.flagged_answer import flagged_correct_example
from vital_core.analysis import story
from vital_core.analysis.story import judge_story
from vital_core.metrics.catalog import METRICS, VARIANT_TABLE
from vital_core.results.model import (
    EVIDENCE_DOCUMENTS,
    EVIDENCE_NORMAL,
    ExampleResult,
    Nugget,
    ResponseResult,
    Subclaim,
)

MINUS = "\u2212"


def _response(variant, verdicts, tiers=("vital", "okay", "okay", "less-important"), assignment=None,
              mode=EVIDENCE_DOCUMENTS) -> ResponseResult:
    claims = [Subclaim(f"S{i}", f"claim {i}", importance=t, rank=i, verdict=v)
              for i, (t, v) in enumerate(zip(tiers, verdicts), start=1)]
    return ResponseResult(variant, f"{variant} text", claims, order=[c.id for c in claims],
                          nugget_assignment=assignment, evidence_mode=mode)


NUGGETS = [Nugget("N0", "the key fact", "vital"), Nugget("N1", "a side fact", "okay"),
           Nugget("N2", "a fact of the documents only", "okay")]
S, C, N = "supported", "contradicted", "not_enough_evidence"


def _example() -> ExampleResult:
    """The story on a 4-claim answer: the wrong one swaps the vital claim, the missing one drops it."""
    normal = _response("normal", (S, S, S, N), assignment={"N0": "support", "N1": "support", "N2": "not_support"})
    wrong = _response("wrong", (C, S, S, N), assignment={"N0": "not_support", "N1": "support", "N2": "not_support"})
    missing = _response("missing", (S, S, N), tiers=("vital", "okay", "less-important"),
                        assignment={"N0": "not_support", "N1": "support", "N2": "not_support"})
    return ExampleResult("e", "q", {"normal": normal, "missing": missing, "wrong": wrong}, nuggets=NUGGETS)


def _headlines(example) -> dict[str, str]:
    table = damage.metric_table(example, VARIANT_TABLE)
    return {h.variant: h.sentence() for h in damage.headlines(table)}


def test_the_headline_tells_the_story_per_variant():
    lines = _headlines(_example())
    # FactScore 0.75 -> 0.50 noticed here (a 4-claim answer); VITAL precision 1 -> 0 and RLP fires
    assert lines["wrong"] == (f"wrong: FactScore precision 0.75 \u2192 0.50 ({MINUS}0.25): noticed; "
                              f"VITAL precision 1.00 \u2192 0.00 ({MINUS}1.00): noticed; "
                              f"RLP not flagged \u2192 flagged: noticed")
    # the missing answer: precision cannot see a fact left out (by design); recall of the key fact goes
    assert lines["missing"] == (f"missing: FactScore precision 0.75 \u2192 0.67 ({MINUS}0.08): {story.BY_DESIGN}; "
                                f"VITAL recall 1.00 \u2192 0.00 ({MINUS}1.00): noticed; "
                                f"RLR not flagged \u2192 flagged: noticed")


def test_a_flag_already_on_says_so_and_undefined_says_why():
    example = _example()
    example.variants["normal"].subclaims[0].verdict = N       # the normal's vital claim: RLP fires already
    line = _headlines(example)["wrong"]
    assert line.endswith(f"RLP flagged \u2192 flagged: {story.BARELY} ({damage.ALREADY_FLAGGED})")
    example.nuggets = None                                    # no nuggets: recall undefined, and why
    line = _headlines(example)["missing"]
    assert line.endswith("VITAL recall undefined \u2192 undefined: undefined (normal response: needs nuggets, "
                         "which are built from evidence documents; none were given); RLR undefined \u2192 "
                         "undefined: undefined (normal response: needs nuggets, which are built from evidence "
                         "documents; none were given)")


def test_strip_sentence_table_and_chart_say_the_same_word():
    """One vocabulary: every word the strip shows is the table's reaction and the chart data's reaction."""
    example = _example()
    table = damage.metric_table(example, VARIANT_TABLE)
    heads = damage.headlines(table)
    html = damage.strip_html(heads)
    chart = damage.chart_data(table, ["factscore_precision", "vital_precision", "vital_recall"],
                              list(example.variants), example)
    for head in heads:
        for move in head.moves:
            row = table[table["key"] == move.key].iloc[0]
            assert move.word == row[f"reaction {head.variant}"] in story.REACTIONS
            assert f'data-metric="{move.key}" data-reaction="{move.word}"' in html
            assert f"{move.label} " in head.body and f": {move.word}" in head.body
            label = METRICS[move.key].label
            in_chart = chart[(chart["variant"] == head.variant) & (chart["metric"] == label)]
            if not in_chart.empty:
                assert in_chart.iloc[0]["reaction"] == move.word
    assert set(table["reaction missing"]) - {""} <= set(story.REACTIONS)


def test_the_strip_escapes_user_text():
    example = _example()
    example.variants["<img src=x onerror=alert(1)>"] = example.variants.pop("wrong")
    heads = damage.headlines(damage.metric_table(example, VARIANT_TABLE))
    html = damage.strip_html(heads, changes={"<img src=x onerror=alert(1)>": "<script>alert(2)</script>"})
    assert "<img" not in html and "<script" not in html and "&lt;img src=x" in html


def test_a_flagged_normal_is_explained_in_plain_words():
    example = _example()
    normal = example.variants["normal"]
    assert explain.why_flagged(normal, NUGGETS) == []
    normal.subclaims[0].verdict = N
    normal.nugget_assignment = {"N0": "partial_support", "N1": "support", "N2": "not_support"}
    rlp, rlr = explain.why_flagged(normal, NUGGETS)
    assert rlp.startswith("RLP: 1 of this answer's 1 vital claims was not found in the evidence documents "
                          "(VITAL precision 0.00): \u201cclaim 1\u201d \u2014 RLP fires when any vital claim")
    assert rlr.startswith("RLR: 1 of the evidence's 1 vital nuggets is not in this answer (VITAL recall 0.00): "
                          "\u201cthe key fact\u201d (only partly) \u2014 RLR fires when any vital nugget is missed")


def test_a_flag_quotes_each_claim_with_how_it_failed_and_counts_the_rest():
    tiers = ("vital",) * 5
    normal = _response("normal", (C, N, N, "not_judged", S), tiers=tiers)
    (rlp,) = explain.why_flagged(normal, None)
    assert rlp.startswith("RLP: 4 of this answer's 5 vital claims are not supported by the evidence documents "
                          "(VITAL precision 0.20): \u201cclaim 1\u201d (contradicted by it); \u201cclaim 2\u201d "
                          "(not found in it); \u201cclaim 3\u201d (not found in it); and 1 more \u2014")


def test_a_low_factual_correctness_f1_says_what_it_compares_and_why():
    example = flagged_correct_example()
    reasons = explain.why_normal_scores_low(example)
    fc = next(r for r in reasons if r.startswith("Factual correctness F1"))
    assert fc.startswith("Factual correctness F1 0.33 compares this answer with the reference answer "
                         "(\u201cThere are eight planets in the solar system\u201d) both ways: 1 of the reference's "
                         "1 claims is in the answer (recall 1.00), and 1 of the answer's 5 claims is stated in the "
                         "reference (precision 0.20): the other 4 are details the reference does not mention")
    # the reference's own claim missed: recall is the low side, and the claim is quoted
    example.variants["normal"].reference_claims[0].verdict = N
    fc = next(r for r in explain.why_normal_scores_low(example) if r.startswith("Factual correctness F1"))
    assert "0 of the reference's 1 claims are in the answer (recall 0.00)" in fc
    assert "the answer does not state 1 of the reference's claims, e.g. \u201cThere are eight planets" in fc


@pytest.mark.parametrize("demo", sorted(demo_results()))
def test_every_flag_and_low_score_of_a_bundled_correct_answer_is_explained(demo):
    """Whatever the demos' flags: each flag of a correct answer has its sentence, quoting what set it off,
    and a low factual-correctness F1 says what it compares."""
    example = demo_results()[demo]
    normal = example.variants["normal"]
    values = damage.variant_metrics(example)["normal"]
    flags = explain.why_flagged(normal, example.nuggets)
    assert [f[:3] for f in flags] == [k.upper() for k in ("rlp", "rlr") if values.get(k)]
    for sentence in flags:
        assert "\u201c" in sentence, sentence
    low_fc = values.get("fc_f1") is not None and values["fc_f1"] < story.NORMAL_OK
    assert low_fc == any(r.startswith("Factual correctness F1") for r in explain.why_normal_scores_low(example))


def test_the_bundled_correct_answers_carry_almost_no_flag_and_the_story_holds():
    """Issue 20's bar for the demos a presenter opens: RLP on at most 1 and RLR on at most 2 of the 12 correct
    answers, while the wrong story holds on at least 11 and the missing one on at least 7 (as before the
    demo texts were checked against their evidence). Counts, not one demo's numbers."""
    results = demo_results()
    normals = [damage.variant_metrics(example)["normal"] for example in results.values()]
    judged = [judge_story(damage.variant_metrics(example)) for example in results.values()]
    assert len(results) == 12
    assert sum(bool(n.get("rlp")) for n in normals) <= 1
    assert sum(bool(n.get("rlr")) for n in normals) <= 2
    assert sum(bool(j["wrong_ok"]) for j in judged) >= 11
    assert sum(bool(j["missing_ok"]) for j in judged) >= 7


def test_the_headline_escapes_nothing_itself_and_keeps_the_variant_name_apart():
    example = _example()
    example.variants["[x](javascript:1)"] = example.variants.pop("wrong")
    heads = damage.headlines(damage.metric_table(example, VARIANT_TABLE))
    assert {h.variant for h in heads} == {"missing", "[x](javascript:1)"}   # the page escapes it


def test_why_a_normal_scores_low_is_counted_from_the_result():
    example = _example()
    normal = example.variants["normal"]
    normal.subclaims[1].verdict = N
    normal.subclaims[2].verdict = C                          # FactScore 1/4
    reasons = explain.why_normal_scores_low(example)
    assert reasons[0].startswith("FactScore precision 0.25: 2 of its 4 claims (0 of them vital) are not stated "
                                 "in the evidence documents")
    assert "1 is contradicted by the evidence documents" in reasons[0]
    # nugget recall 2/3: the documents' own fact is not covered, and is quoted
    assert reasons[1].startswith("Nugget recall 0.67: 1 of the 3 nuggets built from the evidence (0 of them "
                                 "vital) is not covered")
    assert "\u201ca side fact\u201d" not in reasons[1] and "\u201ca fact of the documents only\u201d" in reasons[1]


def test_a_normal_that_scores_well_or_is_the_reference_needs_no_explanation():
    example = _example()
    for claim in example.variants["normal"].subclaims:
        claim.verdict = S
    example.variants["normal"].nugget_assignment = {n.id: "support" for n in NUGGETS}
    assert explain.why_normal_scores_low(example) == []
    example = _example()
    example.variants["normal"].evidence_mode = EVIDENCE_NORMAL
    assert explain.why_normal_scores_low(example) == []


def test_the_evidence_sentence_names_the_mode():
    example = _example()
    assert "evidence documents" in explain.evidence_sentence(example)
    for v in example.variants.values():
        v.evidence_mode = EVIDENCE_NORMAL
    assert "checked against the normal response, taken as correct" in explain.evidence_sentence(example)


@pytest.mark.parametrize("wrong, ok", [
    ({"factscore_precision": 0.85, "vital_precision": 0.5, "rlp": True}, True),
    ({"factscore_precision": 0.85, "vital_precision": 1.0, "rlp": False}, False),     # VITAL misses it
    ({"factscore_precision": 0.70, "vital_precision": 0.0, "rlp": True}, False),      # FactScore moved too
    ({"factscore_precision": 1.00, "vital_precision": 0.0, "rlp": True}, False),      # ...either way
    ({"factscore_precision": None, "vital_precision": 0.0, "rlp": True}, False),      # undefined: no story
])
def test_the_wrong_story(wrong, ok):
    normal = {"factscore_precision": 0.9, "vital_precision": 1.0, "rlp": False, "vital_recall": 1.0, "rlr": False}
    judged = judge_story({"normal": normal, "wrong": wrong})
    assert judged["wrong_ok"] is ok and judged["missing_ok"] is None


@pytest.mark.parametrize("missing, normal_rlr, ok", [
    ({"vital_recall": 0.5, "rlr": True}, False, True),
    ({"vital_recall": 0.95, "rlr": True}, False, True),       # the flag alone
    ({"vital_recall": 0.95, "rlr": True}, True, False),       # it fired on the normal too
    ({"vital_recall": None, "rlr": None}, False, False),
])
def test_the_missing_story(missing, normal_rlr, ok):
    normal = {"factscore_precision": 0.9, "vital_precision": 1.0, "rlp": False, "vital_recall": 1.0,
              "rlr": normal_rlr}
    assert judge_story({"normal": normal, "missing": missing})["missing_ok"] is ok


def test_a_change_that_rounds_to_zero_has_no_minus_sign():
    assert damage._signed(-0.001) == "+0.00" and damage._signed(-0.06) == f"{MINUS}0.06"


def test_a_score_that_rose_says_so_beside_barely_moved():
    example = _example()
    example.variants["normal"].subclaims[1].verdict = N       # normal FactScore 0.50, wrong 0.50 -> raise wrong
    example.variants["wrong"].subclaims[3].verdict = S
    example.variants["wrong"].subclaims[0].verdict = S        # wrong FactScore 1.00: up by 0.50
    move = next(m for m in damage.headline(damage.metric_table(example, VARIANT_TABLE), "wrong").moves
                if m.key == "factscore_precision")
    assert move.word == story.BARELY and move.note == damage.WENT_BETTER


def test_a_never_judged_normal_leaves_the_story_undefined_not_barely_moved():
    # none of the normal's subclaims has a verdict: its precision and RLP measured nothing, so the story
    # cannot say the VITAL metrics "barely moved" from a 0 and a flag nobody computed (strict convention)
    example = _example()
    for claim in example.variants["normal"].subclaims:
        claim.verdict = "not_judged"
    table = damage.metric_table(example, ["factscore_precision", "vital_precision", "rlp"])
    for key in ("factscore_precision", "vital_precision", "rlp"):
        row = table[table["key"] == key].iloc[0]
        assert row["normal"] is None and row["reaction wrong"] == story.UNDEFINED
        assert row["note wrong"].startswith("normal response: not judged: no subclaim has a verdict")
    assert explain.why_flagged(example.variants["normal"], example.nuggets) == []   # no RLP note beside "undefined"
    assert not any(r.startswith("FactScore precision") for r in explain.why_normal_scores_low(example))


def test_a_flag_that_stopped_says_it_moved_the_other_way():
    example = _example()
    example.variants["normal"].subclaims[0].verdict = N       # the normal's vital claim unsupported: RLP on
    example.variants["wrong"].subclaims[0].verdict = S        # the wrong one's supported: RLP off
    move = next(m for m in damage.headline(damage.metric_table(example, VARIANT_TABLE), "wrong").moves
                if m.key == "rlp")
    assert (move.before, move.after, move.word) == ("flagged", "not flagged", story.BARELY)
    assert move.note == damage.WENT_BETTER
