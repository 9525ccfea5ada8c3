"""Offline rules for ordinary answers (issue 19, the fourth dev set `data/user24f`): descriptions said beside a
name (a role before a full name, a place set off after the subject, an indefinite description at the end, a
second complement of "is"), the maker's slot of "is by", measure verbs, a bare "the + noun" subject that stands
for the evidence's named subject, and the false contradictions this round removed. Sentences of their own, not
the dev set's."""
from __future__ import annotations

from tests.support.offline_verdict import contradicted_quoting, verdict_on
from vital_core.backends.offline.decompose import decompose_sentence
from vital_core.backends.offline.language.nlp import analyse
from vital_core.results.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, SUPPORTED


def test_a_role_before_a_full_name_is_a_claim_of_its_own():
    assert decompose_sentence("The opera was written by the Czech composer Antonin Dvorak.") == [
        "The opera was written by Antonin Dvorak.", "Antonin Dvorak was a Czech composer."]
    assert decompose_sentence("The firm was started by the former cyclist Bruno Ferraresi.") == [
        "The firm was started by Bruno Ferraresi.", "Bruno Ferraresi was a former cyclist."]


def test_a_role_is_not_cut_off_a_relative_a_work_or_a_pair():
    for sentence in ("She was trained by their father Peter Holm.",
                     "The novel Great Expectations was written by Charles Dickens.",
                     "The comic was created by the writer Jerry Siegel and the artist Joe Shuster."):
        assert decompose_sentence(sentence) == [sentence], sentence


def test_a_place_set_off_after_the_subject_is_a_claim_of_its_own():
    claims = decompose_sentence("Lake Toba, in northern Sumatra, reaches a depth of 505 metres.")
    assert claims == ["Lake Toba reaches a depth of 505 metres.", "Lake Toba is in northern Sumatra."]
    # a time set off there is not a place
    assert decompose_sentence("The treaty, in 1803, was signed by Jefferson.") == [
        "The treaty, in 1803, was signed by Jefferson."]


def test_an_indefinite_description_at_the_end_and_a_second_complement_are_cut():
    assert decompose_sentence("At first the shop was called Bluebird, a name taken from a song.") == [
        "At first the shop was called Bluebird.", "Bluebird was a name taken from a song."]
    assert decompose_sentence("The carving is only 6 centimetres tall, small enough to fit in a pocket.") == [
        "The carving is only 6 centimetres tall.", "The carving is small enough to fit in a pocket."]
    # a definite description compares, and stays with what it compares
    sentence = "She won 19 titles, the most by any player of her time."
    assert decompose_sentence(sentence) == [sentence]


def test_a_relative_clause_the_parser_hangs_on_the_verb_goes_to_the_noun_before_it():
    toks = analyse("The portrait is by Hans Holbein, the German master from Augsburg whose portraits have no "
                   "equal in his time.")
    verb = next(t for t in toks if t.text == "have")
    assert verb.dep == "relcl" and toks[verb.head].pos in ("NOUN", "PROPN")


def test_is_by_fills_the_makers_slot_of_was_painted_by():
    passage = "The Night Watch was painted by Rembrandt van Rijn in 1642."
    assert verdict_on("The painting is by Frans Hals.", passage).verdict == CONTRADICTED
    assert verdict_on("The painting is by Rembrandt van Rijn.", passage).verdict != CONTRADICTED


def test_a_measure_verb_is_said_by_a_sentence_giving_the_measure():
    passage = "Lake Toba has a maximum depth of 505 metres, the deepest in Indonesia."
    assert verdict_on("Lake Toba reaches a maximum depth of 505 metres.", passage).verdict == SUPPORTED
    assert contradicted_quoting("Lake Toba reaches a maximum depth of 550 metres.", passage, "550 metres", "505 metres")


def test_a_bare_subject_stands_for_the_named_one_only_when_all_the_rest_is_stated():
    passage = "The Lion Man of Hohlenstein is 31 centimetres tall and was carved from mammoth ivory."
    supported = verdict_on("The figure is 31 centimetres tall.", passage)
    assert supported.verdict == SUPPORTED and "Lion Man" in supported.reason
    assert verdict_on("The figure is 31 centimetres wide.", passage).verdict == NOT_ENOUGH_EVIDENCE
    assert verdict_on("The figure is 13 centimetres tall.", passage).verdict == CONTRADICTED


def test_a_word_the_vocabulary_does_not_know_is_stated_only_as_written():
    passage = "The app was originally called grmbl before it was renamed."
    assert verdict_on("At first the service was called grumbler.", passage).verdict != SUPPORTED


def test_another_person_is_a_rival_only_on_the_same_verb():
    passage = "She was raised in Leeds, and she and her brother were trained from childhood by their uncle, Tom."
    verdict = verdict_on("Ann Lister grew up in Leeds, where she and her brother were coached by their uncle, "
                         "Tom Lister.",
                   passage)
    assert verdict.verdict != CONTRADICTED


def test_a_value_in_a_relative_clause_of_another_noun_is_no_rival():
    passage = "Gerhard Mercator died in December 1594 and was buried in the church of Saint Salvator, which was " \
              "rebuilt in 1752."
    assert verdict_on("Gerhard Mercator lived from 1512 to 1594.", passage).verdict != CONTRADICTED


def test_a_measure_verb_is_not_said_by_a_measure_of_something_else():
    passage = "Grey kangaroos stand about 2 metres tall and can hop at more than 60 km/h."
    assert verdict_on("A grey kangaroo can cover 8 metres in a single bound.", passage).verdict != CONTRADICTED


def test_a_passives_by_after_a_time_is_its_agent_but_not_after_a_work():
    toks = analyse("The abbey was built in the first half of the eleventh century by Edward the Confessor.")
    by = next(t for t in toks if t.text == "by")
    assert by.dep == "agent" and toks[by.head].lemma == "build"
    toks = analyse("It was published in 1865 with illustrations by John Tenniel.")
    by = next(t for t in toks if t.text == "by")
    assert by.dep != "agent"


def test_a_claim_read_over_two_sentences_is_not_supported_when_one_gives_the_act_to_another_person():
    passage = ("The Chola king Rajaraja I had the Brihadeeswarar Temple built in the early 1000s as his royal "
               "temple. A later ruler, Rajendra I, built the new capital of Gangaikonda Cholapuram.")
    verdict = verdict_on("It was built in the early 1000s by Rajendra I as his royal temple.", passage)
    assert verdict.verdict != SUPPORTED
    verdict = verdict_on("The Brihadeeswarar Temple was built in the early 1000s by Rajendra I.", passage)
    assert verdict.verdict == CONTRADICTED and "Rajaraja I" in verdict.reason


def test_the_rival_is_the_person_of_the_same_act_not_one_in_a_coordinated_clause():
    passage = "Valve announced in 2012 that it would buy the studio, and Jansen left the company once the deal closed."
    verdict = verdict_on("Pixelbeard left the company after the sale.", passage)
    assert "names Jansen" in verdict.reason and "names Valve" not in verdict.reason


def test_what_is_a_name_and_what_is_it_known_for_are_open_ended_requests():
    from vital_core.backends.offline.language.answer_types import is_open_ended
    assert is_open_ended("What is the Lion Man of Hohlenstein?")
    assert is_open_ended("What are the Dead Sea Scrolls?")
    assert is_open_ended("What is Krakatoa known for?")
    assert not is_open_ended("What is the capital of Peru?")
    assert not is_open_ended("What was Instagram originally called?")


def test_a_when_clause_with_two_clauses_is_cut_whole():
    claims = decompose_sentence("The storm reached its peak on 9 August 1911, when roofs were torn off across the "
                                "town and boats were thrown onto the quay.")
    assert claims[0] == "The storm reached its peak on 9 August 1911."
    assert not any(c.endswith("and.") for c in claims)


def test_an_indefinite_description_describes_the_noun_before_its_comma():
    claims = decompose_sentence("The chapel is admired for its painted ceiling and for fresco, a way of painting "
                                "on wet plaster.")
    assert "Fresco is a way of painting on wet plaster." in claims
    assert not any(c.startswith("The chapel is a way") for c in claims)


def test_reaching_a_climax_is_peaking():
    passage = "The eruption of Mount Pelee peaked on 8 May 1902, destroying the town of Saint-Pierre."
    assert verdict_on("The eruption reached its climax on 8 May 1902.", passage).verdict == SUPPORTED


def test_a_sum_of_two_different_counts_states_no_value():
    passage = "Over that distance the riders clear 30 fences, taking most of them twice on two circuits."
    verdict = verdict_on("Over that distance the riders clear 32 fences.", passage)
    assert verdict.verdict == CONTRADICTED and "30" in verdict.reason
    # a year and a span of years still add up
    assert verdict_on("The bridge opened in 1838.", "Work began in 1835, and the bridge opened three years "
                                              "later.").verdict == SUPPORTED


def test_one_surname_with_two_first_names_is_two_people():
    passage = "At the end of the film the twin Walt Tenor gives a heartfelt speech to the town."
    verdict = verdict_on("At the end of the film Bob Tenor gives a heartfelt speech to the town.", passage)
    assert verdict.verdict == CONTRADICTED and "Walt Tenor" in verdict.reason
