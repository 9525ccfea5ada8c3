"""Offline decomposition shapes of the fourteenth round (issue 19): an appositive before a past verb the parser
misread, a participle on what a named subject is, the region of a place the subject lies near when the lexicon
knows it, a subject name joined by hyphens, and a relative after a name with initials.
Sentences of their own, not the dev sets'."""
from __future__ import annotations

from vital_core.backends.offline.decompose import decompose, decompose_sentence
from vital_core.backends.offline.language.pronouns import sentence_subject_name


def test_an_appositive_before_a_past_verb_the_parser_read_as_an_adjective_is_cut_off():
    # the parser hangs the object on the name in the appositive
    claims = decompose_sentence("Markus Persson, a Swedish programmer known as Notch, created Minecraft.")
    assert "Markus Persson created Minecraft." in claims
    assert any(c.startswith("Markus Persson is a Swedish programmer") for c in claims)


def test_a_participle_on_what_a_named_subject_is_is_said_of_the_subject():
    claims = decompose_sentence("Band Aid was a pair of charity concerts held on 14 June 1984, at Hyde Park.")
    assert "Band Aid was held on 14 June 1984." in claims
    claims = decompose_sentence("The Flying Scotsman is a steam locomotive built in Doncaster in 1923.")
    assert "The Flying Scotsman was built in 1923." in claims
    # a pronoun subject and "one of" keep the sentence's reading
    assert "It was sold in Europe." not in decompose_sentence("It was one of the first games sold in Europe.")


def test_the_region_of_a_place_the_subject_lies_near_is_the_subjects_when_the_lexicon_knows_it():
    claims = decompose("The Cave of Lascaux is a cave. It lies near the village of Montignac in Aquitaine, "
                       "in the south-west of France.")[1][1]
    assert "The Cave lies in Aquitaine." in claims
    assert "The village of Montignac is in Aquitaine." in claims


def test_a_name_joined_by_hyphens_opens_the_subject():
    assert sentence_subject_name("Stratford-upon-Avon is a market town.") == "Stratford-upon-Avon"
    claims = [c for _, cs in decompose("Stratford-upon-Avon is a market town. It lies on the River Avon.") for c in cs]
    assert "Stratford-upon-Avon lies on the River Avon." in claims


def test_a_relative_after_a_name_with_initials_and_its_appositive_is_the_names():
    claims = decompose_sentence("The play was written by J. M. Barrie, a novelist and former editor of Punch, "
                                "who wrote it for the Llewelyn Davies boys.")
    assert "J. M. Barrie wrote it for the Llewelyn Davies boys." in claims


def test_a_title_running_on_through_of_is_the_subject_whole():
    claims = [c for _, cs in decompose("Pirates of Penzance is a comic opera. It was first staged in 1879.")
              for c in cs]
    assert "Pirates of Penzance was first staged in 1879." in claims
    # "The Battle of ..." is still "the battle"
    assert "The Battle ended Saxon rule." in decompose("The Battle of Hastings was fought in 1066. It ended Saxon "
                                                       "rule.")[1][1]
