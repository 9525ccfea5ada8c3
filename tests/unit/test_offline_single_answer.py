"""Offline importance for a question asking for one thing, answered in words the question does not use.

The fitted weights favour an answer's opening definition; a who question is answered by the claim that names
a person, even when it says the question's verb another way. Sentences of our own.
"""
from __future__ import annotations

from vital_core.backends.base import Evidence
from vital_core.backends.offline import OfflineBackend
from vital_core.results.model import VITAL, Document, Subclaim
from vital_core.scoring.pipeline import run_sync


def labels(query, claims, documents=()):
    subclaims = [Subclaim(id=f"S{i + 1}", text=t, sentence_index=i) for i, t in enumerate(claims)]
    evidence = Evidence("documents", [Document(f"D{i + 1}", d) for i, d in enumerate(documents)]) if documents \
        else None
    return run_sync(OfflineBackend().rank(query, subclaims, evidence)).labels


def test_the_questions_verb_as_a_noun_does_not_make_a_claim_its_answer():
    got = labels("Who designed the Sydney Opera House?", [
        "The Sydney Opera House was drawn by Jørn Utzon.",
        "Its shells made it a landmark of Modernist design in Australia.",
        "It opened in 1973."])
    assert got["S1"] == VITAL and got["S2"] != VITAL


def test_a_claim_that_names_no_person_is_context_beside_one_that_does():
    # "English-speaking" and "Latin" are capitalised, but adjectives, no person
    got = labels("Who devised the Dewey Decimal Classification?", [
        "The Dewey Decimal Classification is the most common scheme for libraries in the English-speaking world.",
        "The Dewey Decimal Classification came from Melvil Dewey.",
        "It sorts books into ten classes."])
    assert got["S2"] == VITAL and got["S1"] != VITAL
    got = labels("Who invented the Rubik's Cube?", [
        "The Rubik's Cube is the best-selling puzzle toy for children using the Latin alphabet.",
        "The Rubik's Cube came from Ernő Rubik.",
        "Ernő Rubik was a professor."])
    assert got["S2"] == VITAL and got["S1"] != VITAL


def test_a_definition_stays_context_beside_an_answer_that_says_the_verb():
    # a guard: the answer saying "designed" was vital before, and the definition is still not
    got = labels("Who designed the Eiffel Tower?", [
        "The Eiffel Tower is a wrought-iron lattice tower in Paris.",
        "It was designed by the engineer Maurice Koechlin.",
        "It opened in 1889."])
    assert got["S2"] == VITAL and got["S1"] != VITAL


def test_a_question_in_a_verb_phrase_is_answered_in_the_verb_it_says():
    # "take place" asks where it is held; the festival's description names no place
    got = labels("Where does the Up Helly Aa fire festival take place?", [
        "Up Helly Aa is a fire festival that ends with the burning of a Viking longship.",
        "The festival is held every January in Lerwick.",
        "Hundreds of torch-bearers march through the streets."])
    assert got["S2"] == VITAL and got["S1"] != VITAL


def test_the_acts_noun_says_the_questions_verb():
    # "Its opening day" says when it opened; a reopening is another event
    got = labels("When did the Golden Gate Bridge open?", [
        "The Golden Gate Bridge reopened to traffic on 28 May 1987 after a celebration.",
        "Its opening day was 27 May 1937.",
        "The bridge is painted a colour called International Orange."])
    assert got["S2"] == VITAL and got["S1"] != VITAL


def test_what_was_the_first_is_answered_by_the_claim_saying_first():
    # "release" is not "film": the claim answers by its ranking word, and the studio's description is context
    got = labels("What was Aardman Animations' first feature film?", [
        "Aardman Animations is a studio in Bristol known for clay animation.",
        "The studio's first full-length release was Chicken Run, a comedy about hens escaping a Yorkshire farm.",
        "It was made with DreamWorks.",
        "It earned over 220 million dollars."])
    assert got["S2"] == VITAL and got["S1"] != VITAL


def test_a_peoples_adjective_names_no_place_and_the_evidence_says_what_is_context():
    # "British history" names no place; the opening statement, which the evidence never speaks of, is context
    # beside the claim that places the event
    got = labels("Where did the Great Stink of 1858 happen?", [
        "The Great Stink of 1858 is one of the most famous episodes in British history.",
        "In the summer of that year, in the city of London, a foul smell of sewage rose from the River Thames and "
        "hung over Parliament.",
        "It lasted for weeks.",
        "Parliament soon approved a new sewer system."],
        ["The Great Stink of 1858 happened in London, in the summer, when the smell of sewage from the Thames "
         "became unbearable."])
    assert got["S2"] == VITAL and got["S1"] != VITAL


def test_the_person_behind_it_names_its_maker():
    got = labels("Who invented the hula hoop toy?", [
        "The hula hoop is a plastic ring that is twirled around the waist.",
        "The man behind the plastic hoop was Arthur Melin.",
        "Arthur Melin was working on toys.",
        "His partner, Richard Knerr, found the name hula hoop in a magazine."])
    assert got["S2"] == VITAL and got["S1"] != VITAL


def test_how_wide_asks_for_a_measure_whatever_nouns_name_its_subject():
    # "dome" is the question's subject, not what it asks: the claim measuring a length answers it
    got = labels("How wide is the dome of the Pantheon?", [
        "The Pantheon is a former Roman temple that became a church.",
        "Its dome measures 43 metres across.",
        "It was completed around 125 AD."])
    assert got["S2"] == VITAL and got["S1"] != VITAL


def test_beside_the_answer_the_evidence_keeps_what_it_speaks_of_and_what_names_the_answer():
    from vital_core.backends.offline.importance import rank_claims
    claims = ["Nessun dorma is the best-known aria of the final act of Giacomo Puccini's Turandot.",
              "Giacomo Puccini's Turandot is an opera he left unfinished around 1924 and that was first staged "
              "in 1926.",
              "The aria became famous far beyond opera in 1990.",
              "The tenor sings it at night in a Peking garden."]
    evidence = ["Nessun dorma is an aria from the final act of Turandot, the opera by Giacomo Puccini.",
                "It is sung by the tenor Calaf."]
    # every claim ranked vital by the fitted scores: what stays vital is what the answer-focused rules keep
    got, _, _ = rank_claims("Which opera does the aria Nessun dorma come from?", ["S1", "S2", "S3", "S4"], claims,
                            [0, 1, 2, 3], claims, thresholds={"vital": -1e9, "okay": -1e9},
                            evidence_sentences=evidence)
    assert got["S1"] == got["S2"] == VITAL, "the answer, and a statement naming what it names"
    assert got["S4"] != VITAL, "a statement the evidence does not speak of, naming nothing of the answer"
