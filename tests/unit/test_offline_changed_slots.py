"""Offline rules of the sixteenth round (issue 19): a changed place after an article, a
changed measure said with a measure verb and the sentence's dimension word, a changed maker named as the subject
of an active making verb, and a "for" phrase cut off as a modifier. Sentences of their own, not the dev sets'."""
from __future__ import annotations

from tests.support.offline_verdict import contradicted_quoting, verdict_on
from vital_core.backends.offline.decompose import decompose_sentence
from vital_core.results.model import CONTRADICTED, SUPPORTED, VITAL


def test_a_changed_place_after_an_article_is_contradicted():
    passage = "Lascaux is in the Dordogne, near the village of Montignac, and was found in 1940."
    assert contradicted_quoting("The cave lies in the Ardèche.", passage, "Ardèche", "Dordogne")
    assert verdict_on("The cave lies in the Dordogne.", passage).verdict != CONTRADICTED


def test_a_place_with_an_article_is_no_rival_of_a_city_without_one():
    # a hall inside the city, not another city
    passage = "The first Proms concert was held in London on 10 August 1895."
    assert verdict_on("The first Proms concert was held in the Queen's Hall.", passage).verdict != CONTRADICTED


def test_a_changed_measure_said_with_a_measure_verb_and_the_sentences_dimension_word():
    passage = "The Gotthard Road Tunnel is 16.9 kilometres long and opened in 1980."
    assert contradicted_quoting("The Gotthard Road Tunnel stretches for 19.6 kilometres.", passage, "19.6", "16.9")
    assert verdict_on("The Gotthard Road Tunnel stretches for 16.9 kilometres.", passage).verdict != CONTRADICTED
    passage = "Mont Blanc is 4,806 metres high and is the highest mountain in the Alps."
    assert contradicted_quoting("Its summit rises to 4,608 metres above sea level.", passage, "4,608", "4,806")


def test_a_for_phrase_after_a_date_is_a_modifier_of_its_own():
    claims = decompose_sentence("George Frideric Handel wrote the suite in 1717 for King George I.")
    assert "George Frideric Handel wrote the suite in 1717." in claims
    assert "George Frideric Handel wrote the suite for King George I." in claims
    # so the maker with the date is read alone: a changed maker is contradicted
    claims = decompose_sentence("Antonio Salieri wrote it in 1786 for the Burgtheater in Vienna.")
    passage = "The Marriage of Figaro was composed by Wolfgang Amadeus Mozart in 1786, shortly after he married."
    assert any(contradicted_quoting(c, passage, "Antonio Salieri", "Wolfgang Amadeus Mozart") for c in claims)


def test_a_changed_complement_of_be_is_never_supported_however_close_the_sentences():
    passage = "The official currency of Peru is the sol."
    assert verdict_on("The official currency of Peru is the peso.", passage).verdict != SUPPORTED
    assert verdict_on("The official currency of Peru is the sol.", passage).verdict == SUPPORTED


def test_near_one_town_does_not_contradict_near_another():
    passage = "Lundy is a small island in the Bristol Channel, about 19 kilometres off the coast near Hartland Point."
    assert verdict_on("Lundy is a small island off the coast near Ilfracombe.", passage).verdict != CONTRADICTED


def test_one_of_a_series_is_not_contradicted_by_what_another_one_is():
    passage = "The second Tay Bridge was designed by William Henry Barlow and opened in 1887."
    assert verdict_on("The first bridge was designed by Thomas Bouch.", passage).verdict != CONTRADICTED
    assert verdict_on("The present bridge opened in 1878.", passage).verdict != CONTRADICTED


def test_a_peoples_adjective_on_a_noun_is_not_a_place_another_country_contradicts():
    passage = ("The typeface was renamed in 1962 when the Bauer foundry began selling it abroad; the new name "
               "came from Lutetia, the Latin name for Paris in France.")
    assert verdict_on("The Dutch foundry Bauer renamed it in 1962.", passage).verdict != CONTRADICTED


def test_a_date_of_the_other_joined_verb_or_a_time_after_something_is_no_rival():
    passage = "Verdana was designed by Matthew Carter and released by Microsoft in 1996."
    assert verdict_on("Verdana was made in 1994.", passage).verdict != CONTRADICTED
    assert contradicted_quoting("Verdana was released in 1994.", passage, "1994", "1996")
    passage = "The probe reached orbit three days after the launch and spent 14 months mapping the surface."
    assert verdict_on("For over a year the probe mapped the surface.", passage).verdict != CONTRADICTED
    assert verdict_on("For almost nine months the probe mapped the surface.", passage).verdict != CONTRADICTED


def test_the_only_claim_giving_the_asked_date_is_the_answer_and_how_many_counts_past_an_adjective():
    from vital_core.backends.offline.answer import counted_noun
    from vital_core.backends.offline.importance import rank_claims
    from vital_core.backends.offline.language.lexicon import IMPORTANCE_WEIGHTS as WEIGHTS
    claims = ["Ireland had used its own pound for decades.", "The pound was tied to sterling at first.",
              "The big day came on Tuesday 1 January 2002.", "Shops gave change in both currencies."]
    ids = [f"S{i}" for i in range(len(claims))]
    nothing_vital = dict(WEIGHTS, intercept=-10.0)      # scores alone would make no claim vital
    labels, _, _ = rank_claims("When did Ireland switch to the euro?", ids, claims, [0, 1, 2, 3],
                               weights=nothing_vital)
    assert [c for c, i in zip(claims, ids) if labels[i] == VITAL] == ["The big day came on Tuesday 1 January 2002."]
    assert counted_noun("How many red balls are used in snooker?") == "ball"
    assert counted_noun("How many moons does Mars have?") == "moon"


def test_taking_to_the_air_says_flying():
    from vital_core.backends.offline.answer import says_predicate
    assert says_predicate("The prototype took to the air for the first time on 27 July 1949.", {"fly"})
    passage = "The de Havilland Comet first flew on 27 July 1949."
    assert verdict_on("The Comet took to the air on 27 July 1949.", passage).verdict == SUPPORTED
