"""Offline rules of the seventeenth round (issue 19), for wording users write: a verb the parser read as a plural
noun after a name, a capitalised word that ends a name, a name the tagger called plural, "one of ..." set off
after a name, the subject's other name after "or", a verb with no passive after a passive, the quotation a
relative clause speaks of, "it" after a verb that brings a thing out, "drawn by" for "designed by", and a
weekday before a date. Sentences of their own, not the dev sets'."""
from __future__ import annotations

from dataclasses import replace

from tests.support.offline_verdict import contradicted_quoting, verdict_on
from vital_core.backends.offline.decompose import decompose, decompose_sentence
from vital_core.backends.offline.language.analysis import analyse_texts
from vital_core.backends.offline.language.claim_parse import ClaimParse
from vital_core.backends.offline.language.pronouns import sentence_subject_name
from vital_core.results.model import CONTRADICTED, SUPPORTED


def test_a_measure_verb_after_a_name_is_the_verb_not_a_plural_noun():
    # the parser reads "stretches" after "The Øresund Bridge" as a noun, the root of the sentence
    passage = "The Øresund Bridge is 7.8 kilometres long and links Copenhagen with Malmö."
    assert contradicted_quoting("The Øresund Bridge stretches for 8.7 kilometres.", passage, "8.7", "7.8")
    assert verdict_on("The Øresund Bridge stretches for 7.8 kilometres.", passage).verdict == SUPPORTED


def test_a_capitalised_word_after_a_name_ends_the_name():
    # "Most" in lower case is an adverb; here it ends the bridge's name, which "It" then stands for
    assert sentence_subject_name("The Stari Most is a stone bridge in Mostar.") == "The Stari Most"
    claims = [c for _, cs in decompose("The Stari Most is a stone bridge in Mostar. It was finished in 1566.")
              for c in cs]
    assert "The Stari Most was finished in 1566." in claims


def test_a_name_the_tagger_calls_plural_without_an_s_is_one():
    # the tagger sometimes calls a name ending in "-i" a plural proper noun (NNPS)
    parse = ClaimParse("The console was designed by the engineer Gunpei Yokoi.")
    name = next(t for t in parse.toks if t.text == "Yokoi")
    assert not parse.plural(replace(name, tag="NNPS"))
    assert parse.plural(replace(next(t for t in parse.toks if t.text == "console"), text="Beatles", tag="NNPS"))


def test_one_of_set_off_after_a_name_is_a_claim_of_its_own():
    claims = decompose_sentence("Sega, one of the largest game companies, released the console in 1988.")
    assert "Sega released the console in 1988." in claims
    assert any(c.startswith("Sega ") and "one of the largest game companies" in c for c in claims)


def test_the_subjects_other_name_after_or_is_no_second_subject():
    claims = decompose_sentence("The Ponte Vecchio, or Old Bridge, is a stone bridge over the Arno.")
    assert "The Ponte Vecchio is a stone bridge over the Arno." in claims
    assert "The Ponte Vecchio is also called Old Bridge." in claims
    assert not any(c.startswith(("Old Bridge is a", "The Ponte Vecchio,")) for c in claims)
    assert sentence_subject_name("The Ponte Vecchio, or Old Bridge, is a stone bridge.") == "The Ponte Vecchio"


def test_a_verb_with_no_passive_after_a_passive_keeps_its_own_tense():
    claims = decompose_sentence("The old tower was struck by lightning and collapsed in 1902.")
    assert "The old tower collapsed in 1902." in claims
    assert not any("was collapsed" in c for c in claims)
    # a verb that has a passive still shares it
    assert "The ship was launched in 1511." in decompose_sentence("The ship was built in Portsmouth and launched in "
                                                                  "1511.")


def test_a_relative_clause_after_a_quotation_speaks_of_the_quotation():
    claims = decompose_sentence('The motto of the order is "Ich dien", which means "I serve".')
    assert any(c.startswith('"Ich dien" means "I serve"') for c in claims)
    assert not any(c.startswith("The motto") and "which" in c for c in claims)


def test_it_after_a_verb_that_brings_the_thing_out_is_the_thing_named_before():
    text = "The Game Boy is a handheld console. Nintendo put it on sale in April 1989."
    claims = [c for _, cs in decompose(text) for c in cs]
    assert "Nintendo put the Game Boy on sale in April 1989." in claims
    passage = "The Game Boy was released by Nintendo in Japan on 21 April 1989."
    assert contradicted_quoting("Sega put the Game Boy on sale in April 1989.", passage, "Sega", "Nintendo")
    text = "The Forth Bridge is a railway bridge. The Prince of Wales declared it open on 4 March 1890."
    claims = [c for _, cs in decompose(text) for c in cs]
    assert any("declared the Forth Bridge open" in c for c in claims)
    passage = "The Forth Bridge opened on 4 March 1890, in a ceremony led by the Prince of Wales."
    assert verdict_on("The Prince of Wales declared the Forth Bridge open on 4 March 1890.", passage).verdict \
        == SUPPORTED
    # after a verb that does not bring it out, "it" may be anything last acted on
    text = "The Louvre is a museum. Thieves stole it in 1911."
    assert "Thieves stole it in 1911." in [c for _, cs in decompose(text) for c in cs]


def test_drawn_by_says_what_designed_by_says():
    passage = "Futura was designed by Paul Renner and released by the Bauer foundry in 1927."
    assert verdict_on("Futura was drawn by Paul Renner.", passage).verdict == SUPPORTED
    assert contradicted_quoting("Futura was drawn by Eric Gill.", passage, "Eric Gill", "Paul Renner")


def test_a_weekday_before_a_date_says_no_more_than_the_date():
    dated, undated = analyse_texts(["Sweden switched sides on Sunday 3 September 1967.", "Sweden voted on Sunday."])
    assert "sunday" not in dated.content and "sunday" in undated.content
    passage = "Sweden switched to driving on the right on 3 September 1967, a day known as Dagen H."
    assert verdict_on("Sweden switched to driving on the right on Sunday 4 September 1967.", passage).verdict \
        == CONTRADICTED


def test_what_the_subject_has_set_off_after_it_is_a_claim_of_its_own():
    claims = decompose_sentence("The engine, with the running number 4472, left King's Cross in 1928.")
    assert "The engine left King's Cross in 1928." in claims
    assert "The engine had the running number 4472." in claims


def test_a_named_region_after_the_complement_of_be_is_where_the_complement_is():
    claims = decompose_sentence("The crash site was Lockerbie in the Dumfries region.")
    assert "The crash site was Lockerbie." in claims
    assert "Lockerbie is in the Dumfries region." in claims
    # a country after "was" names a title, and a noun that names no place is no region
    assert decompose_sentence("Her second novel was Summer in Italy.") == ["Her second novel was Summer in Italy."]
    assert decompose_sentence("The winner was Roger Federer in the final.") == ["The winner was Roger Federer in the "
                                                                                 "final."]


def test_a_measure_verb_and_the_ends_of_a_measure_need_not_be_said_by_a_sentence_giving_the_measure():
    passage = "The Titanic was 882 feet long and carried about 2,200 people on her maiden voyage."
    assert verdict_on("The Titanic measured 882 feet from bow to stern.", passage).verdict == SUPPORTED
    assert verdict_on("The Titanic towed 882 feet of cable.", passage).verdict != SUPPORTED


def test_slipped_beneath_the_waves_says_sank_and_stays_with_its_date():
    claims = decompose_sentence("The liner rolled over and slipped beneath the waves on the morning of 12 May 1915.")
    assert "The liner slipped beneath the waves on 12 May 1915." in claims
    passage = "The Lusitania sank on 12 May 1915 off the south coast of Ireland."
    assert verdict_on("The Lusitania slipped beneath the waves on 12 May 1915.", passage).verdict == SUPPORTED


def test_it_after_behind_in_a_maker_phrase_is_the_thing_made():
    text = "Minecraft is a sandbox game. The studio behind it was Mojang, which later made Scrolls."
    claims = [c for _, cs in decompose(text) for c in cs]
    assert "The studio behind Minecraft was Mojang." in claims
    # the relative clause is the name's, not "Minecraft was Mojang"'s
    assert "Mojang later made Scrolls." in claims
    passage = "Minecraft was developed by Mojang and released in November 2011."
    assert contradicted_quoting("The studio behind Minecraft was Bungie.", passage, "Bungie", "Mojang")


def test_a_score_is_one_phrase():
    claims = decompose_sentence("Leeds won 3-0 with two goals from Allan Clarke.")
    assert "Leeds won 3-0." in claims
    assert "Leeds won with two goals from Allan Clarke." in claims
    assert not any("won-0" in c for c in claims)


def test_a_definite_noun_set_off_after_the_subject_says_what_it_is():
    claims = decompose_sentence("Its currency, the krona, has the code SEK and is issued by the Riksbank.")
    assert "Its currency has the code SEK." in claims
    assert "Its currency is the krona." in claims
    # the named currency is said in its own word or not at all
    passage = "The currency of Sweden is the krona, with the code SEK."
    assert verdict_on("Its currency is the forint.", passage).verdict != SUPPORTED
    assert verdict_on("Its currency is the krona.", passage).verdict == SUPPORTED


def test_created_and_devised_are_said_by_designed_and_a_changed_creator_is_contradicted():
    passage = "Carcassonne was designed by Klaus-Jürgen Wrede and published by Ravensburger in 2000."
    assert verdict_on("Klaus-Jürgen Wrede created Carcassonne.", passage).verdict == SUPPORTED
    assert contradicted_quoting("Uwe Rosenberg created Carcassonne.", passage, "Uwe Rosenberg", "Klaus-Jürgen Wrede")
    passage = "The Dvorak layout was devised by August Dvorak and his brother-in-law William Dealey."
    assert contradicted_quoting("The Dvorak layout was devised by Christopher Sholes.", passage, "Christopher Sholes",
                                "August Dvorak")


def test_the_subject_of_an_active_verb_named_there_for_another_verb_is_not_supported():
    # the publisher is no creator, whichever voice the claim speaks in
    passage = "Carcassonne was designed by Klaus-Jürgen Wrede and published by Ravensburger in 2000."
    assert verdict_on("Ravensburger created Carcassonne.", passage).verdict != SUPPORTED
    assert verdict_on("Klaus-Jürgen Wrede published Carcassonne.", passage).verdict != SUPPORTED
    assert verdict_on("Ravensburger published Carcassonne.", passage).verdict == SUPPORTED


def test_another_definite_noun_after_be_is_no_paraphrase_of_the_evidences():
    # "euro" is a common word, close enough to "krona" for a loose match: the sentence's own "the krona" rules
    passage = "The currency of Denmark is the krone, with the code DKK."
    assert verdict_on("Denmark's currency is the euro.", passage).verdict != SUPPORTED
    assert verdict_on("Denmark's currency is the krone.", passage).verdict == SUPPORTED


def test_which_is_why_opens_a_statement_of_its_own():
    claims = decompose_sentence("Each molecule holds exactly 70 carbon atoms, which is why chemists write it as C70.")
    assert "Each molecule holds exactly 70 carbon atoms." in claims
    assert "Chemists write it as C70." in claims


def test_a_number_in_words_is_no_score():
    claims = decompose_sentence("Alfred Dreyfus was held for twenty-three years before his release in 1906.")
    assert "Alfred Dreyfus was held for twenty-three years." in claims
    assert not any("twenty-three before" in c for c in claims)


def test_a_name_without_an_initial_is_stated_by_the_same_name_with_one():
    # twenty-second round (user24n): "Roy J. Plunkett" had left "Roy Plunkett" unstated
    passage = "Mauveine is a purple dye. The dye was first made in 1856 by the chemist William H. Perkin."
    assert verdict_on("Mauveine was first made by William Perkin.", passage).verdict == SUPPORTED


def test_held_is_stated_by_takes_place_one_way():
    passage = "The Highland games take place at Braemar every September, before a large crowd."
    assert verdict_on("The games are held at Braemar.", passage).verdict == SUPPORTED


def test_initials_are_the_name_they_abbreviate():
    # twenty-second round (user24j): cut off from its "whose" clause, "designed by R. J. Mitchell" was
    # contradicted by "Designed by Reginald Mitchell"
    passage = "Designed by Reginald Mitchell at Supermarine, the fighter first flew in 1936."
    assert verdict_on("The fighter was designed by R. J. Mitchell.", passage).verdict == SUPPORTED
    assert verdict_on("The fighter was designed by T. J. Mitchell.", passage).verdict == CONTRADICTED


def test_the_end_of_a_range_is_no_rival_of_a_day_inside_its_year():
    passage = "In the trials, 19 people were hanged, the first on 10 June 1692 and the last on 22 September."
    assert verdict_on("Between June and September 1692, 19 people were hanged.", passage).verdict != CONTRADICTED
    assert verdict_on("Between June and September 1693, 19 people were hanged.", passage).verdict == CONTRADICTED
