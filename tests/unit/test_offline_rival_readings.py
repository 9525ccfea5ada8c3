"""Offline rules of the twentieth round (issue 19) on what is and is not a rival: a vague amount is no number, a
distance from a place is no size, a relation said to hold widely names no one place, a name ending like another
is that name's rival, and a word before a noun can stand where a one-word noun does. Sentences of their own,
not the dev sets'."""
from __future__ import annotations

from tests.support.offline_verdict import verdict_on
from vital_core.backends.offline.language.analysis import analyse_texts
from vital_core.backends.offline.language.name_match import name_found
from vital_core.backends.offline.language.values import extract_values, vague
from vital_core.results.model import CONTRADICTED, SUPPORTED


def test_a_few_hundred_is_no_number():
    text = "The inventor sold the rights for a few hundred dollars."
    assert all(vague(text, v) for v in extract_values(text))
    assert all(vague("Several thousand people came.", v) for v in extract_values("Several thousand people came."))
    assert verdict_on("He sold the patent for 400 dollars.",
                      "The inventor sold the rights for a few hundred dollars.").verdict != CONTRADICTED
    # a number before the scale word still is one
    assert not any(vague("It cost two hundred dollars.", v) for v in extract_values("It cost two hundred dollars."))


def test_a_distance_from_a_place_is_no_size():
    passage = "The chalk figure is in Kent, roughly 3 kilometres south of the village that gave it its name."
    assert verdict_on("The chalk figure is about 90 metres long.", passage).verdict != CONTRADICTED
    # two distances from the place still disagree
    assert verdict_on("The chalk figure lies about 6 kilometres south of the village.", passage).verdict \
        == CONTRADICTED


def test_a_relation_said_to_hold_widely_names_no_one_place():
    passage = "Pinochle is a card game first played in nineteenth-century Germany for small stakes."
    assert verdict_on("Pinochle is still widely played in America.", passage).verdict != CONTRADICTED
    assert verdict_on("Pinochle was first played in nineteenth-century France.", passage).verdict == CONTRADICTED


def test_a_name_ending_like_another_is_its_rival_not_stated():
    claim, passage = analyse_texts(["The new signs used a typeface called Weller Grotesk.",
                                    "The new signs used a typeface called Harmon Grotesk, drawn with help from "
                                    "his pupil Anna Weller."])
    assert not any(name_found(n, passage) for n in claim.names)
    # two first names before one surname state each of them; a longer or shorter form is the same name
    pair = analyse_texts(["Irène and Frédéric Joliot won the prize."])[0]
    assert name_found("Irène Joliot", pair)
    assert name_found("Yuri Gagarin", analyse_texts(["Yuri Alekseyevich Gagarin flew."])[0])
    # a title of the place is no rival ("Baron of Holt"), nor a relative named by the first name alone
    assert name_found("Mara Holt", analyse_texts(["Mara married Tom Reed; he was made Baron of Holt, so she became "
                                                  "a baroness."])[0])
    assert name_found("Owen Tanner", analyse_texts(["Nell Tanner was coached from childhood by her father, "
                                                    "Owen."])[0])
    # a name ending in a number ends in no name, and a name that is part of the claim's is no rival
    assert name_found("Tidewater Season 1", analyse_texts(["*Tidewater* Season 1 follows Stoneheart Part 1."])[0])
    assert name_found("Episode 12 of Harbour Lights",
                      analyse_texts(["The finale of *Harbour Lights* is Episode 12 of the series."])[0])


def test_a_person_glued_to_an_office_is_not_stated_by_another_person_in_it():
    passage = "The surveyor who won the contract was Edwin Marsh of the Office of Public Works."
    assert verdict_on("The surveyor who won the contract was Walter Pike of the Office of Public Works.",
                      passage).verdict != SUPPORTED
    assert verdict_on("The surveyor who won the contract was Edwin Marsh of the Office of Public Works.",
                      passage).verdict == SUPPORTED


def test_a_word_before_a_noun_may_stand_where_a_one_word_noun_does():
    passage = "Chemically, the coating is polyoxymethylene, sold under several trade names."
    verdict = verdict_on("Chemically, the coating is polyethylene glycol, sold under several trade names.", passage)
    assert verdict.verdict != SUPPORTED and "polyoxymethylene" in verdict.reason
    assert verdict_on("Chemically, the coating is polyoxymethylene.", passage).verdict == SUPPORTED
