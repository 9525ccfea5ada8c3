"""Offline rules of the sixteenth round (issue 19): a changed place after an article, a changed measure said with a
measure verb and the sentence's dimension word, a definite complement of "be" said in its own word, "near", one of
a series, a people's adjective, the value of another joined verb or of a time after something, what "how many"
counts, and "took to the air". Sentences of their own, not the dev sets'."""
from __future__ import annotations

from tests.support.offline_verdict import contradicted_quoting, verdict_on
from vital_core.results.model import CONTRADICTED, SUPPORTED


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


def test_a_changed_complement_of_be_is_never_supported_however_close_the_sentences():
    passage = "The official currency of Peru is the sol."
    assert verdict_on("The official currency of Peru is the peso.", passage).verdict != SUPPORTED
    assert verdict_on("The official currency of Peru is the sol.", passage).verdict == SUPPORTED
    # nor a "the + noun" subject the evidence does not say ("the sol, which is divided ...")
    passage = "The currency of Peru is the sol, which is divided into 100 céntimos."
    assert verdict_on("The peso is divided into 100 céntimos.", passage).verdict != SUPPORTED


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
    # another people's adjective on the same noun still differs
    assert contradicted_quoting("The Norwegian composer Edvard Grieg wrote it.",
                                "Edvard Grieg was a Danish composer who wrote it in 1875.", "Norwegian", "Danish")


def test_a_date_of_the_other_joined_verb_or_a_time_after_something_is_no_rival():
    passage = "Verdana was designed by Matthew Carter and released by Microsoft in 1996."
    assert verdict_on("Verdana was made in 1994.", passage).verdict != CONTRADICTED
    assert contradicted_quoting("Verdana was released in 1994.", passage, "1994", "1996")
    passage = "The probe reached orbit three days after the launch and spent 14 months mapping the surface."
    assert verdict_on("For over a year the probe mapped the surface.", passage).verdict != CONTRADICTED
    assert verdict_on("For almost nine months the probe mapped the surface.", passage).verdict != CONTRADICTED


def test_how_many_counts_the_noun_past_an_adjective():
    from vital_core.backends.offline.answer import counted_noun
    assert counted_noun("How many red balls are used in snooker?") == "ball"
    assert counted_noun("How many moons does Mars have?") == "moon"


def test_taking_to_the_air_says_flying():
    from vital_core.backends.offline.answer import says_predicate
    assert says_predicate("The prototype took to the air for the first time on 27 July 1949.", {"fly"})
    passage = "The de Havilland Comet first flew on 27 July 1949."
    assert verdict_on("The Comet took to the air on 27 July 1949.", passage).verdict == SUPPORTED


def test_a_language_after_in_and_another_named_things_place_are_no_rivals():
    # eighteenth round: a claim cut off a description ("X was a Swiss writer") met these in the evidence
    passage = "Out of Africa was written by Karen Blixen and first published in English in 1937."
    assert verdict_on("Karen Blixen was a Danish writer.", passage).verdict != CONTRADICTED
    passage = "The Seikan Tunnel lost the title of longest railway tunnel to the Gotthard Base Tunnel in Switzerland."
    assert verdict_on("The Seikan Tunnel is a railway tunnel in northern Japan.", passage).verdict != CONTRADICTED
    # guards: the same adjective also said of someone, and the subject's own place, still contradict
    assert contradicted_quoting("Selma Lagerlöf was a Danish writer.",
                                "Selma Lagerlöf was a Swedish writer who wrote in Swedish.", "Danish", "Swedish")
    assert contradicted_quoting("The Kiel Canal is in Denmark.",
                                "The Kiel Canal in Germany links the North Sea and the Baltic.", "Denmark", "Germany")
