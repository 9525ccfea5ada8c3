"""Offline rules of the twelfth round (issue 19): a changed value read through support (``swapped``), the made
thing apart from its maker, the object "it", places said beside the subject, "it" after a thing's name, and
the importance of a narrow passage and of a question restated. Sentences of their own, not the dev sets'."""
from __future__ import annotations

from tests.support.offline_verdict import contradicted_quoting, verdict_on
from vital_core.backends.offline.answer import presumed_answer, restates_as_subject
from vital_core.backends.offline.decompose import decompose, decompose_sentence
from vital_core.backends.offline.language.pronouns import resolve_pronouns
from vital_core.results.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, SUPPORTED


def test_a_changed_value_in_other_words_is_contradicted_quoting_both_values():
    passage = "The Hubble telescope was launched on 24 April 1990 aboard the shuttle Discovery."
    assert contradicted_quoting("The Hubble telescope went up on 24 April 1992.", passage, "1992", "1990")
    assert verdict_on("The Hubble telescope went up on 24 April 1990.", passage).verdict != CONTRADICTED


def test_a_changed_measure_said_of_a_part_or_with_a_unit_said_again():
    passage = "Mount Olympus is 2,917 metres high and is the highest mountain in Greece."
    assert verdict_on("The summit stands at 2,971 metres.", passage).verdict == CONTRADICTED
    assert verdict_on("The summit stands at 2,917 metres.", passage).verdict == SUPPORTED
    # the closest sentence, given the claim with its own value put back, supports it
    passage = "Mount Elbrus rises to 5,642 metres above sea level."
    assert contradicted_quoting("Mount Elbrus rises to 5,462 metres, or roughly 18,510 feet.", passage,
                                "states the rest of the claim")


def test_a_value_of_another_event_or_with_reversed_roles_is_not_a_changed_value():
    # "first staged" is not the anniversary; the rival is another event's date
    passage = "The Proms, which marked their 125th season in 2019, are held each summer in London."
    assert verdict_on("The Proms were first staged in 1895.", passage).verdict != CONTRADICTED
    # the claim's roles are the other way round: not the same statement with another year
    passage = "In 1972 Bobby Fischer defeated Boris Spassky in Reykjavik."
    assert verdict_on("Spassky beat Fischer in their first match in 1970.", passage).verdict != CONTRADICTED
    # a claim whose verb the sentence does not say ("sold" / "launched") keeps its own value
    passage = "The clipper was launched on 12 March 1868 at Greenock."
    assert verdict_on("The clipper was sold in 1890.", passage).verdict == NOT_ENOUGH_EVIDENCE


def test_the_other_end_of_a_span_is_no_rival():
    passage = "The painter died in October 1669 and was buried in the Westerkerk."
    assert verdict_on("The painter lived from 1606 to 1669.", passage).verdict != CONTRADICTED


def test_a_changed_place_after_the_same_preposition_is_contradicted():
    passage = "Lamborghini is headquartered in Sant'Agata Bolognese, where its factory opened in 1963."
    assert verdict_on("Its headquarters are in Castelfranco.", passage).verdict == CONTRADICTED
    # a region the lexicon knows beside a town it does not may hold it; a city it knows in the claim is read as
    # a town, but not in the evidence ("born in Clontarf" / "born in Dublin")
    assert verdict_on("Its headquarters are in Emilia-Romagna.", passage).verdict != CONTRADICTED
    assert verdict_on("Its headquarters are in Bologna.", passage).verdict == CONTRADICTED
    assert verdict_on("He was born in Clontarf.", "Stoker was born in Dublin in 1847.").verdict != CONTRADICTED
    assert verdict_on("Its headquarters are in Sant'Agata Bolognese.", passage).verdict == SUPPORTED


def test_a_region_beside_a_country_is_not_a_changed_place():
    # the lexicon knows Spain and not Catalonia: one may hold the other
    passage = "The Sagrada Familia is a basilica in Spain, designed by Antoni Gaudi."
    assert verdict_on("The Sagrada Familia is in Catalonia.", passage).verdict != CONTRADICTED


def test_the_made_thing_is_split_from_its_maker_when_it_is_named():
    claims = [c for _, cs in decompose("Bosch is a German engineering firm. Robert Bosch set it up in 1886 in "
                                       "Stuttgart.") for c in cs]
    assert "Bosch was set up in 1886." in claims and "Bosch was set up in Stuttgart." in claims
    assert any(c.startswith("Robert Bosch set Bosch up") for c in claims)
    # a thing named by a common noun stays with its maker; a prize won is no thing made
    assert decompose_sentence("Charles Garnier designed the opera house in 1861.") == [
        "Charles Garnier designed the opera house in 1861."]
    assert decompose_sentence("Pearl Buck won the Nobel Prize in 1938.") == ["Pearl Buck won the Nobel Prize in 1938."]
    # after a verb that makes nothing, "it" may be the thing last acted on: it stays
    text = "The Prado bought the altarpiece in 1936. Thieves stole it in 1961."
    claims = [c for _, cs in decompose(text) for c in cs]
    assert "Thieves stole it in 1961." in claims


def test_it_after_a_things_name_is_that_thing_but_not_after_a_persons():
    assert resolve_pronouns(["Lake Baikal is the deepest lake on Earth.", "It holds a fifth of the world's fresh "
                             "water."])[1].startswith("Lake Baikal holds")
    assert resolve_pronouns(["Emily Bronte wrote one novel.", "It was published in 1847."])[1].startswith("It was")


def test_places_said_beside_the_subject_are_claims_of_their_own():
    assert decompose_sentence("Its offices and main warehouse are in Leeds, beside the canal.") == [
        "Its offices are in Leeds.", "Its offices are beside the canal.", "Its main warehouse is in Leeds.",
        "Its main warehouse is beside the canal."]
    claims = decompose_sentence("The abbey lies near the village of Cerne Abbas in Dorset.")
    assert "The abbey lies in Dorset." in claims and "The abbey lies near the village of Cerne Abbas." in claims
    # a singular first subject keeps the claim whole (its verb would not agree), and so does a shared act
    sentence = "The library and the archive are in York."
    assert decompose_sentence(sentence) == [sentence]


def test_a_question_without_a_predicate_word_is_answered_by_the_claim_restating_it():
    question = "What was the first of Agatha Christie's Poirot novels?"
    claims = ["Agatha Christie's Poirot novels are the books that made her the best-selling novelist of all time.",
              "The first of the Poirot novels was The Mysterious Affair at Styles."]
    assert restates_as_subject(claims[1], question)
    assert not restates_as_subject(claims[0], question)     # no "first": it names something else
    import numpy as np
    assert presumed_answer(question, claims, np.array([1.0, 0.0]), set()) == 1


def test_a_split_title_is_one_noun_phrase():
    claims = decompose_sentence("Her second book was Death on the Nile, published in 1937.")
    assert "Death on the Nile was published in 1937." in claims


def test_an_opening_decade_is_a_modifier_of_its_own():
    claims = [c for _, cs in decompose("Since the 1820s the chalice has been kept at the Abbey of Saint-Denis.")
              for c in cs]
    assert "The chalice has been kept at the Abbey of Saint-Denis." in claims
    passage = "The chalice is kept at the Abbey of Saint-Denis."
    assert verdict_on("The chalice has been kept at the Abbey of Saint-Denis.", passage).verdict == SUPPORTED


def test_a_measure_said_again_in_other_units_is_stated_by_the_measure_and_excuses_no_changed_value():
    # 1,200 carats are 240 grams: the rough figure beside it agrees with the evidence's exact one
    passage = "The meteorite weighed 1,200 carats when it was found."
    assert verdict_on("The meteorite weighed 1,200 carats, a little over 200 grams.", passage).verdict == SUPPORTED
    assert verdict_on("The meteorite weighed 1,200 carats, about 500 grams.", passage).verdict != SUPPORTED
    # the same rough figure beside the evidence's exact one does not state a changed exact one
    passage = "The meteorite weighed 1,200 carats, a little over 200 grams, when it was found."
    assert contradicted_quoting("The meteorite weighed 1,020 carats, a little over 200 grams.", passage,
                                "1,020", "1,200")


def test_took_place_says_only_that_the_event_happened_so_its_date_is_judged():
    passage = "The Battle of Hastings was fought on 14 October 1066 between the Normans and the English."
    assert verdict_on("The battle took place on 14 October 1066.", passage).verdict == SUPPORTED
    assert contradicted_quoting("The battle took place on 14 October 1067.", passage, "1067", "1066")


def test_the_hours_of_a_day_and_a_place_south_of_somewhere_are_details_of_their_own():
    claims = [c for _, cs in decompose("The fire broke out in the early hours of 2 September 1666 on Pudding Lane, "
                                       "just east of the bridge.") for c in cs]
    assert "The fire broke out on 2 September 1666." in claims
    assert "The fire broke out in the early hours." in claims
    assert "The fire broke out just east of the bridge." in claims
    # the parser ends "of 2 September" at the day when the phrase opens the sentence; the day is the month's
    claims = [c for _, cs in decompose("In the early hours of 15 April 1912 the ship sank.") for c in cs]
    assert "On 15 April 1912 the ship sank." in claims


def test_a_race_run_somewhere_is_held_there():
    passage = "The Derby is held at Epsom Downs every June."
    assert verdict_on("The race is run at Epsom Downs.", passage).verdict == SUPPORTED


def test_a_changed_maker_is_read_against_the_sentence_that_names_the_right_one_though_another_is_closer():
    passage = ("Pong was developed by Atari and released in American arcades in 1972. The game was a hit, and its "
               "designer spent months making more machines by hand.")
    assert contradicted_quoting("The game was made by Namco.", passage, "Namco", "Atari")
    assert verdict_on("The game was made by Atari.", passage).verdict == SUPPORTED


def test_a_height_said_with_a_verb_is_stated_by_a_height_said_with_an_adjective():
    passage = "The Spinnaker Tower is 170 metres tall and was opened in 2005."
    assert verdict_on("The tower rises to 170 metres.", passage).verdict == SUPPORTED
    assert verdict_on("The tower rises to 107 metres.", passage).verdict == CONTRADICTED
    sentence = "Mont Blanc stands 4,806 metres above sea level in the Graian Alps."
    claims = [c for _, cs in decompose(sentence) for c in cs]
    assert "Mont Blanc stands 4,806 metres above sea level." in claims
    assert "Mont Blanc stands in the Graian Alps." in claims


def test_a_maker_noun_names_whom_by_names():
    passage = "The Moonstone was written by Wilkie Collins, who was born in London in 1824."
    assert verdict_on("Its author was Wilkie Collins.", passage).verdict == SUPPORTED
    assert contradicted_quoting("Its author was Charles Reade.", passage, "Charles Reade", "Wilkie Collins")
    # a maker of another kind is not the one "by" names
    assert verdict_on("Its illustrator was Charles Reade.", passage).verdict != CONTRADICTED


def test_it_after_a_name_the_text_defined_as_a_thing_is_that_thing_but_not_after_a_person_or_a_work_of_theirs():
    def claims_of(text):
        return [c for _, cs in decompose(text) for c in cs]
    assert "Maes Howe lies on Mainland." in claims_of("Maes Howe is a chambered cairn. It lies on Mainland.")
    assert "It was published in 1847." in claims_of("Anne Bronte was the author of Agnes Grey. It was published "
                                                     "in 1847.")
    assert "It was published in 1847." in claims_of("Anne Bronte was an English novelist. It was published in 1847.")


def test_a_description_the_parser_hangs_on_the_verb_after_a_name_and_its_comma_is_the_names():
    from dataclasses import replace

    from vital_core.backends.offline.language.nlp import _stray_appositives, analyse
    toks = list(analyse("Jarlshof lies on the south tip of Mainland, the largest island in Shetland."))
    island = next(t for t in toks if t.text == "island")
    root = next(t for t in toks if t.dep == "ROOT")
    # as the parser reads it in some sentences: a bare noun phrase on the verb
    toks[island.i] = replace(island, dep="npadvmod", head=root.i)
    mainland = next(t for t in toks if t.text == "Mainland")
    repaired = _stray_appositives(toks)[island.i]
    assert repaired.dep == "appos" and repaired.head == mainland.i


def test_a_changed_measure_after_an_opening_frame_of_its_dimension_is_contradicted():
    passage = "Crater Lake has a maximum depth of 594 metres. It sits at an elevation of 1,883 metres."
    assert contradicted_quoting("At its deepest point it reaches 494 metres.", passage, "494", "594")
    # a frame of another dimension does not make the depth its measure
    passage = "Crater Lake has a maximum depth of 594 metres."
    assert verdict_on("At its highest point it reaches 494 metres.", passage).verdict != CONTRADICTED


def test_the_by_rival_is_the_one_of_the_claims_verb_or_of_a_maker():
    passage = "The Hobbit was written by J. R. R. Tolkien and published by Allen & Unwin in 1937."
    assert contradicted_quoting("Its author was C. S. Lewis.", passage + " The Hobbit is a novel.",
                                "C. S. Lewis", "Tolkien")


def test_two_cities_the_lexicon_knows_are_two_places_and_a_region_it_knows_may_hold_a_town():
    passage = "The Regata Storica is held in Venice every September."
    assert verdict_on("The race is run in Verona.", passage).verdict == CONTRADICTED
    passage = "The Palio di Asti is held in Asti every September."
    assert verdict_on("The race is run in Piedmont.", passage).verdict != CONTRADICTED


def test_a_supported_reason_quotes_the_sentence_that_holds_the_value():
    passage = ("Crater Lake has a maximum depth of 594 metres (1,949 feet), and no other lake in the country is "
               "deeper. About 9 kilometres across, it sits at an elevation of 1,883 metres.")
    v = verdict_on("At its deepest point it reaches 594 metres.", passage)
    assert v.verdict == SUPPORTED and "594" in v.reason.split("—")[-1]


def test_a_reason_names_the_rival_in_the_claims_slot():
    passage = "The Hobbit was written by J. R. R. Tolkien and published by Allen & Unwin in 1937."
    v = verdict_on("The Hobbit was published by Faber.", passage)
    assert v.verdict == CONTRADICTED and "Allen" in v.reason and "Tolkien" not in v.reason.split("—")[0]


def test_a_stand_in_subject_with_a_measure_is_said_by_the_same_dimension_in_other_words():
    passage = "The CN Tower is 553 metres tall and was finished in 1976."
    assert verdict_on("The structure reaches a height of 553 metres.", passage).verdict == SUPPORTED
    assert verdict_on("The structure is 553 metres wide.", passage).verdict != SUPPORTED
    assert verdict_on("The structure reaches a height of 535 metres.", passage).verdict != SUPPORTED


def test_a_name_the_evidence_gives_as_the_agent_of_another_verb_does_not_support_the_claim():
    passage = "Doom was developed by id Software and published by GT Interactive in 1993."
    v = verdict_on("Doom was published by id Software.", passage)
    assert v.verdict == NOT_ENOUGH_EVIDENCE and "GT Interactive" in v.reason
    assert verdict_on("Doom was published by GT Interactive.", passage).verdict == SUPPORTED


def test_a_decade_holds_a_date_inside_it():
    passage = "Designed by William Symington, the Charlotte Dundas was first tried on the canal on 4 January 1803."
    assert verdict_on("The Charlotte Dundas was tried in the 1800s.", passage).verdict != CONTRADICTED
    assert contradicted_quoting("The Charlotte Dundas was first tried on 4 January 1805.", passage, "1805", "1803")


def test_a_list_of_names_in_another_order_is_no_changed_name():
    # (a clause cut before "the island of ..." once left each side one of the names)
    passage = "Denmark gave up control of Iceland, the island of Heligoland, Norway and Greenland."
    claim = "Under the treaty Denmark gave up Norway, the island of Heligoland, Iceland and Greenland."
    assert verdict_on(claim, passage).verdict == SUPPORTED


def test_a_maker_said_by_a_phrase_is_whom_by_names():
    passage = "Tetris was developed by Alexey Pajitnov and published by Elorg in 1984."
    assert verdict_on("The company behind Tetris was Elorg.", passage).verdict == SUPPORTED
    assert verdict_on("It was the work of Alexey Pajitnov.", passage).verdict == SUPPORTED
    assert contradicted_quoting("The studio behind Tetris was Nintendo.", passage, "Nintendo")
    passage = "The safety lamp was invented by Humphry Davy in 1815."
    assert verdict_on("It was the invention of Humphry Davy.", passage).verdict == SUPPORTED
    assert contradicted_quoting("It was the invention of George Stephenson.", passage, "George Stephenson",
                                "Humphry Davy")
    # "the invention of" is read against whom "invented by" names, not a designer
    assert verdict_on("The vacuum flask was the invention of Reinhold Burger.",
                      "The vacuum flask was designed by James Dewar in 1892.").verdict != CONTRADICTED
    # "the work of" one of several makers is never another's changed name
    assert verdict_on("It was the work of Shigeru Miyamoto.", "Tetris was developed by Alexey Pajitnov and "
                      "published by Elorg in 1984.").verdict != CONTRADICTED
    passage = "The Menai Suspension Bridge was engineered by Thomas Telford and opened in 1826."
    assert verdict_on("The engineer in charge was Thomas Telford.", passage).verdict == SUPPORTED


def test_turning_liquid_is_melting_and_climbing_to_a_height_is_being_that_high():
    passage = "Caesium melts at 28.5 °C and reacts violently with water."
    assert verdict_on("It turns liquid at 28.5 °C.", passage).verdict == SUPPORTED
    assert contradicted_quoting("It turns liquid at 25.8 °C.", passage, "25.8 °C", "28.5 °C")
    passage = "Mount Kosciuszko is 2,228 metres high and is the highest mountain in mainland Australia."
    assert verdict_on("The mountain climbs to 2,228 metres above sea level.", passage).verdict == SUPPORTED
    assert contradicted_quoting("The mountain climbs to 2,282 metres above sea level.", passage, "2,282", "2,228")


def test_a_description_stands_for_a_name_with_its_noun_and_an_owner_for_the_named_work():
    passage = "The Knap of Howar farmsteads are on Papa Westray, near the farm of Holland."
    assert contradicted_quoting("The complex sits near the farm of Holland on Sanday.", passage, "Sanday",
                                "Papa Westray")
    passage = "Kidnapped was written by Robert Louis Stevenson and first published in 1886."
    assert contradicted_quoting("The book's author was Walter Scott.", passage, "Walter Scott",
                                "Robert Louis Stevenson")
    assert verdict_on("The book's author was Robert Louis Stevenson.", passage).verdict == SUPPORTED


def test_the_ends_a_measure_is_taken_between_need_not_be_stated():
    passage = "The Eureka Tower is 297 metres tall and was completed in 2006 in Melbourne."
    assert contradicted_quoting("The Eureka Tower stands 279 metres tall from its base to the top of its roof.",
                                passage, "279 metres", "297 metres")
    passage = "The Mauretania was 790 feet long, with a gross tonnage of 31,938."
    assert contradicted_quoting("The Mauretania measured 709 feet from bow to stern.", passage, "709 feet",
                                "790 feet")
