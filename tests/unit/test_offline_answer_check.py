"""The response's answer checked against the evidence's answer to the same question (issue 19, twentieth
round): a vital claim the word-by-word rules leave undecided agrees or disagrees with the value or name that
an evidence sentence about the question gives, whatever subject and verb each uses. Sentences of their own, not
the dev sets'."""
from __future__ import annotations

from vital_core.backends.offline.answer_check import Question, asked_values
from vital_core.backends.offline.verify import verify_claims
from vital_core.results.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, SUPPORTED, Document

FLOOD = [Document(id="d1", text="The Lindale flood struck on 14 March 1871, when the old mill dam gave way after "
                                "a week of rain. Some forty houses in the lower village were swept away.")]
FLOOD_QUESTION = "When did the Lindale flood happen?"


def verdict(claim: str, documents: list[Document], question: str, vital: bool = True):
    return verify_claims([claim], documents, question=question, vital=[vital])[0]


def test_a_changed_date_answering_the_question_is_contradicted_whatever_its_subject_and_verb():
    wrong = verdict("The first wave reached the valley on the night of 14 April 1871.", FLOOD, FLOOD_QUESTION)
    assert wrong.verdict == CONTRADICTED
    assert "14 April 1871" in wrong.reason and "14 March 1871" in wrong.reason
    right = verdict("The first wave reached the valley on the night of 14 March 1871.", FLOOD, FLOOD_QUESTION)
    assert right.verdict == SUPPORTED and "14 March 1871" in right.reason


def test_only_the_answer_is_checked_so():
    # a claim that is not vital, or a verifier asked without the question, keeps the word-by-word verdict
    claim = "The first wave reached the valley on the night of 14 April 1871."
    assert verdict(claim, FLOOD, FLOOD_QUESTION, vital=False).verdict == NOT_ENOUGH_EVIDENCE
    assert verify_claims([claim], FLOOD)[0].verdict == NOT_ENOUGH_EVIDENCE
    # an open-ended request asks for no one value
    assert verdict(claim, FLOOD, "Tell me about the Lindale flood.").verdict == NOT_ENOUGH_EVIDENCE


def test_a_bound_or_a_part_is_no_answer():
    ferry = [Document(id="d1", text="The first ferry crossing of the sound was made on 2 May 1902 by the steamer "
                                    "Ellen.")]
    question = "When was the first ferry crossing of the sound made?"
    assert verdict("A night ferry has run across the sound since 1931.", ferry, question).verdict != CONTRADICTED
    bridge = [Document(id="d1", text="The old bridge at Carrow has nine arches of red sandstone.")]
    assert verdict("Two of the arches were rebuilt after the storm.", bridge,
                   "How many arches does the old bridge at Carrow have?").verdict != CONTRADICTED
    assert verdict("The crossing rests on seven arches.", bridge,
                   "How many arches does the old bridge at Carrow have?").verdict == CONTRADICTED


def test_a_value_beside_a_name_the_evidence_never_speaks_of_is_no_answer():
    race = [Document(id="d1", text="The first Lindale Marathon was run on 4 May 1981, over a course along the river.")]
    question = "When was the first Lindale Marathon run?"
    assert verdict("Its founder had been inspired after running the Boston Marathon in 1979.", race,
                   question).verdict != CONTRADICTED
    assert verdict("The first race was run on 4 May 1979.", race, question).verdict == CONTRADICTED
    # a name the evidence does not give is more than it says: the answer alone does not support the claim,
    # and a changed answer is still one
    assert verdict("The first race was run on 4 May 1981 past Harrow Mill.", race, question).verdict != SUPPORTED
    assert verdict("The first race was run on 4 May 1979 past Harrow Mill.", race, question).verdict == CONTRADICTED


def test_the_year_of_a_named_thing_is_no_answer():
    # a response checked as the evidence for a reference's claim: "Acts of 1977" dates the Acts, not the opening
    response = [Document(id="r", text="The city ran the Tamsin Bridge until 1999, when control passed to the county "
                                      "under the Harbour Acts of 1977.")]
    assert verdict("The Tamsin Bridge officially opened on 5 May 1932.", response,
                   "When did the Tamsin Bridge open?").verdict != CONTRADICTED


def test_a_count_of_something_else_is_no_answer():
    game = [Document(id="d1", text="The table game of kells is played with 12 red balls and one white ball.")]
    question = "How many red balls are used in kells?"
    assert verdict("A full set holds 13 balls.", game, question).verdict != CONTRADICTED
    wrong = verdict("Each player breaks a rack of ten red balls.", game, question)
    assert wrong.verdict == CONTRADICTED and "ten" in wrong.reason and "12" in wrong.reason
    assert not asked_values(Question(question), "A full set holds 13 balls.")


def test_a_conversion_or_another_dimension_is_no_rival_answer():
    peak = [Document(id="d1", text="Mount Keldor rises to 4,210 metres above the sea and was first climbed in "
                                   "1911.")]
    question = "How high is Mount Keldor?"
    assert verdict("Its summit reaches 4,210 metres, or roughly 13,800 feet.", peak, question).verdict \
        != CONTRADICTED
    assert verdict("The summit ridge is 12 kilometres long.", peak, question).verdict != CONTRADICTED
    assert verdict("Its summit reaches 4,120 metres.", peak, question).verdict == CONTRADICTED
    # a rounded conversion agrees with the changed value as well as the right one: it supports neither
    converted = [Document(id="d1", text="Mount Keldor rises to 4,210 metres, or roughly 13,800 feet, above a ring "
                                        "of glaciers.")]
    assert verdict("Its summit reaches 4,120 metres, or roughly 13,800 feet.", converted, question).verdict \
        != SUPPORTED


def test_another_name_in_the_place_the_question_asks_about():
    book = [Document(id="d1", text="The Salt Road was written by Mara Ellis and first published in 1931 by a "
                                   "small press in Leeds.")]
    question = "Who wrote The Salt Road?"
    wrong = verdict("Its author was Edith Crane.", book, question)
    assert wrong.verdict == CONTRADICTED and "Edith Crane" in wrong.reason and "Mara Ellis" in wrong.reason
    # a name said in passing, or one the evidence states elsewhere, is no rival answer
    assert verdict("Its plain style owes much to Thomas Hardy.", book, question).verdict != CONTRADICTED
    assert verdict("Its author was a teacher in Leeds.", book, question).verdict != CONTRADICTED


def test_the_backend_checks_the_answer_of_a_scored_response():
    from vital_core.backends.offline import OfflineBackend
    from vital_core.scoring.pipeline import run_sync, score_example
    normal = ("The Lindale flood was the worst disaster in the valley's history. It began after a week of heavy "
              "rain. The flood reached the lower village on the night of 14 March 1871. About forty houses "
              "were swept away, and the mill was never rebuilt.")
    example = run_sync(score_example(
        OfflineBackend(), example_id="flood", query=FLOOD_QUESTION, documents=FLOOD,
        responses={"normal": normal, "wrong": normal.replace("14 March", "14 April")}))
    def key(variant: str):
        return next(s for s in example.variants[variant].subclaims if "1871" in s.text)
    assert key("normal").importance == "vital" and key("normal").verdict == SUPPORTED
    assert key("wrong").verdict == CONTRADICTED and "14 March 1871" in key("wrong").reason


def test_the_answer_to_a_first_is_the_claim_that_says_first_and_not_a_bound():
    from vital_core.backends.offline.importance import rank_claims
    claims = ["The Thornby regatta is the oldest rowing race on the river.",
              "A junior regatta has been held there since 1931.",
              "The two clubs first raced on 4 June 1842."]
    labels, _, _ = rank_claims("When was the first Thornby regatta held?", ["a", "b", "c"], claims, [0, 1, 2])
    assert labels["c"] == "vital" and labels["b"] != "vital"
