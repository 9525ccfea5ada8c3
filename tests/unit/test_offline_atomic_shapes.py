"""Offline decomposition shapes (issue 19): an appositive before a past verb the parser misread, a participle on
what a named subject is, the region of a place the subject lies near when the lexicon knows it, a subject name
joined by hyphens, a relative after a name with initials; a simple past after a passive, a second participle
after "by", a relative opening with an aside, a clause after a colon, "late in the evening of", a participle
after a measure, and the antecedents of "she" and "it"; a description after the complement of "is", a phrase
after a relative clause, a statement called "a fact", "whose", an active verb after a passive. Sentences of
their own, not the dev sets'."""
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


def test_a_simple_past_after_a_passive_takes_no_auxiliary():
    claims = decompose_sentence("The console was launched in Japan in 1994 and soon became the best-selling machine "
                                "of its day.")
    assert "The console soon became the best-selling machine of its day." in claims
    assert "The ferry sank in 1931." in decompose_sentence("The ferry was launched in 1912 and sank in 1931.")
    # a form that is also the participle still shares the passive ("was built ... and launched")
    assert "The frigate was launched in 1797." in decompose_sentence("The frigate was built in Boston and "
                                                                     "launched in 1797.")


def test_a_second_participle_after_a_by_phrase_is_said_of_the_subject_not_of_the_maker():
    claims = decompose_sentence("The Savoy was a grand hotel designed by Thomas Collcutt and opened on the Strand "
                                "in 1889.")
    assert "The Savoy was opened in 1889." in claims
    assert not any(c.startswith("Thomas Collcutt was opened") for c in claims)


def test_a_relative_clause_opening_with_an_aside_is_cut_off_with_it():
    claims = decompose_sentence("The crater holds a lake of acid, which, according to local guides, changes colour "
                                "every few years.")
    assert "The crater holds a lake of acid." in claims
    assert any(c.endswith("changes colour every few years.") and "according to local guides" in c for c in claims)


def test_a_clause_after_a_colon_that_opens_with_a_pronoun_is_a_claim_of_its_own():
    claims = decompose_sentence("Mercury is an odd metal: it freezes at minus 38.83 degrees Celsius.")
    assert "Mercury freezes at minus 38.83 degrees Celsius." in claims
    assert "Mercury is an odd metal." in claims


def test_late_in_the_evening_of_a_day_keeps_late_with_the_evening():
    claims = decompose_sentence("The fire broke out late in the evening of 2 September 1666.")
    assert "The fire broke out on 2 September 1666." in claims
    assert "The fire broke out late in the evening." in claims


def test_a_participle_after_a_measure_is_said_of_the_subject():
    claims = decompose_sentence("The rim of the hoop is fixed at 3.05 metres, measured straight up from the playing "
                                "floor.")
    assert "The rim of the hoop is measured straight up from the playing floor." in claims
    assert not any(c.startswith("3.05 metres") for c in claims)


def test_she_stays_with_the_ship_a_text_is_about_and_two_subjects_are_no_antecedent_of_it():
    claims = [c for _, cs in decompose("The Great Britain was a passenger steamship designed by Isambard Brunel. "
                                       "Brunel wanted her to cross the Atlantic. She had six masts.") for c in cs]
    assert "The Great Britain had six masts." in claims
    claims = [c for _, cs in decompose("Abbey Road is an album. John and Paul wrote most of it. It came out in "
                                       "1969.") for c in cs]
    assert "John came out in 1969." not in claims
    # a capitalised adjective opens a name
    assert sentence_subject_name("The Great Britain was a steamship.") == "The Great Britain"


def test_an_adjective_phrase_opening_the_sentence_says_what_the_subject_is():
    claims = decompose_sentence("Famous for its clock, the Elizabeth Tower was finished in 1859.")
    assert claims == ["The Elizabeth Tower was finished in 1859.", "The Elizabeth Tower was famous for its clock."]
    claims = decompose_sentence("Equal to 220 yards, or 660 feet, a furlong makes up one-eighth of a mile.")
    assert "A furlong is equal to 220 yards, or 660 feet." in claims
    assert "A furlong makes up one-eighth of a mile." in claims
    # one that speaks of the statement is no fact of the subject's, nor one with no phrase of its own after it
    assert decompose_sentence("Contrary to a popular myth, the Great Wall cannot be seen from the Moon.") == [
        "Contrary to a popular myth, the Great Wall cannot be seen from the Moon."]
    assert decompose_sentence("Eager to win, the team trained hard for months.") == [
        "Eager to win, the team trained hard for months."]


def test_a_relative_clause_on_what_a_named_subject_is_says_what_the_subject_did():
    claims = decompose_sentence("Gustave Eiffel was a French engineer who also built a bridge in Porto.")
    assert claims == ["Gustave Eiffel was a French engineer.", "Gustave Eiffel also built a bridge in Porto."]
    claims = decompose_sentence("Gustave Eiffel was an engineer, who also built a bridge in Porto.")
    assert "Gustave Eiffel also built a bridge in Porto." in claims
    # a definite description says which one: cut off, the claim would lose its point
    assert decompose_sentence("Marie Curie was the first woman who won a Nobel Prize.") == [
        "Marie Curie was the first woman who won a Nobel Prize."]


def test_a_description_after_the_complement_of_is_is_said_of_the_subject():
    # twenty-second round (user24n): "X is a Y, a Z" and "X is a Y, one of the Zs" say X is a Z
    assert decompose_sentence("The Hoover Dam is a concrete arch-gravity dam, one of the largest in the "
                              "world.") == ["The Hoover Dam is a concrete arch-gravity dam.",
                                            "The Hoover Dam is one of the largest in the world."]
    assert decompose_sentence("The Great Fire was a disaster, a blaze that burned for four days.") == [
        "The Great Fire was a disaster.", "The Great Fire was a blaze that burned for four days."]
    # a description after a name or another noun describes that one
    assert "Europe is a continent of 700 million people." in decompose_sentence(
        "Paris is one of the largest cities in Europe, a continent of 700 million people.")
    assert "Ada Lovelace was a woman of 1843." not in decompose_sentence("Ada Lovelace was a poet, one of whom "
                                                                         "wrote in 1843.")


def test_a_phrase_set_off_after_a_relative_clause_goes_with_the_clause():
    claims = decompose_sentence("Alan Turing was a mathematician who broke the Enigma code, in the Second World "
                                "War.")
    assert claims == ["Alan Turing was a mathematician.", "Alan Turing broke the Enigma code, in the Second World War."]


def test_a_statement_called_a_fact_is_a_claim_of_its_own():
    claims = decompose_sentence("There are exactly eight planets, a fact settled by astronomers in 2006.")
    assert claims == ["There are exactly eight planets.",
                      "There are exactly eight planets, a fact settled by astronomers in 2006."]


def test_a_clause_opened_by_whose_is_said_of_its_owner():
    assert decompose_sentence("The project was led by Robert Oppenheimer, whose team built the first bomb in "
                              "1945.") == ["The project was led by Robert Oppenheimer.",
                                           "Robert Oppenheimer's team built the first bomb in 1945."]
    assert decompose_sentence("Krakatoa is a volcanic island in Indonesia whose eruption was heard far away.") == [
        "Krakatoa is a volcanic island in Indonesia.", "Krakatoa's eruption was heard far away."]
    # what the clause's verb does to the owned thing, and "one of the few ... whose" saying which, stay whole
    assert len(decompose_sentence("The name came from the Gold Pie Company whose tins students tossed.")) == 1
    assert len(decompose_sentence("Hangul is one of the few scripts whose inventor is known.")) == 1


def test_a_verb_with_an_object_of_its_own_after_a_passive_is_active():
    assert decompose_sentence("The bridge was opened in 1932 and carried trains across the harbour.") == [
        "The bridge was opened in 1932.", "The bridge carried trains across the harbour."]
    assert "The ship was launched in 1911." in decompose_sentence("The ship was built in Belfast and launched in "
                                                                  "1911.")
    assert "He awarded a pension in 1920." not in decompose_sentence("He was given a medal and awarded a pension "
                                                                     "in 1920.")


def test_a_second_predicate_takes_the_subject_after_an_opening_phrase():
    # the word rules read "months" as a verb and gave "After" as the subject ("After drew crowds ...")
    assert decompose_sentence("After weeks of small tremors, a gentle eruption began in March and drew crowds of "
                              "tourists.") == ["After weeks of small tremors, a gentle eruption began in March.",
                                               "A gentle eruption drew crowds of tourists."]
    # an opening phrase with the subject goes with each predicate
    assert "In 1817 the club took the name Rovers." in decompose_sentence(
        "In 1817 the club adopted a formal constitution and took the name Rovers.")


def test_it_after_although_is_the_sentences_subject():
    assert decompose_sentence("The town lies on the coast, although it was inland until the sea rose.") == [
        "The town lies on the coast.", "The town was inland until the sea rose."]


def test_a_range_after_between_opening_a_sentence_is_one_thing():
    # "Between" with a capital had been read as a list: "Between June, 19 people ... were hanged"
    claims = decompose_sentence("Between June and August 1816, 40 ships, most of them whalers, were lost.")
    assert claims == ["Between June and August 1816, 40 ships, most of them whalers, were lost."]


def test_a_relative_in_an_appositive_is_cut_down_to_its_modifiers():
    # a fourth level of cuts: sentence -> appositive -> relative clause -> the verb's modifiers
    claims = decompose_sentence("The first engine that really ran came from Karl Benz, a young German engineer "
                                "who built it in a workshop at Mannheim during the winter of 1885.")
    assert "Karl Benz built it during the winter of 1885." in claims
    # a capitalised preposition is inside a title, not a modifier of the verb
    assert not any(c.endswith("Through Joy programme.") and "launched Through" in c for c in decompose_sentence(
        "The liner was launched as a cruise ship for the Strength Through Joy programme in 1937."))
