"""Offline rules of the nineteenth round (issue 19): a claim whose noun the evidence does not say, where the
closest sentence has another word in its place, is never supported however many of its other words are stated;
an indefinite description after a noun is that noun's, not the subject's. Sentences of their own, not the dev
sets'."""
from __future__ import annotations

from tests.support.offline_verdict import claims_of, verdict_on
from vital_core.backends.offline.language.values import extract_values
from vital_core.results.model import CONTRADICTED, SUPPORTED


def test_another_word_in_the_place_of_the_claims_noun_is_no_support():
    passage = "The perfume's warm scent comes from oil of vetiver, distilled from the roots of a grass."
    verdict = verdict_on("The perfume's warm scent comes from oil of patchouli.", passage)
    assert verdict.verdict != SUPPORTED
    assert "vetiver" in verdict.reason and "patchouli" in verdict.reason
    assert verdict_on("The perfume's warm scent comes from oil of vetiver.", passage).verdict == SUPPORTED


def test_another_name_given_to_the_same_thing_is_no_support():
    passage = "At launch the photo app was called glimpsr, a name that left out the last vowel."
    assert verdict_on("At launch the photo app was called snapr.", passage).verdict != SUPPORTED
    assert verdict_on("At launch the photo app was called glimpsr.", passage).verdict == SUPPORTED


def test_a_word_the_claim_also_says_is_no_replacement():
    # "maple" is the claim's own word: the evidence says more, not something else
    passage = "Real syrup is made from the sap of the sugar maple, boiled down for hours."
    assert "where the claim says" not in verdict_on("Real syrup is made from the sap of maple trees.", passage).reason


def test_an_indefinite_description_after_a_noun_describes_that_noun():
    claims = claims_of("Its smoky taste comes from smoke of peat, a dark soil dug from bogs in Scotland.")
    assert "Peat is a dark soil." in claims
    assert not any(c.startswith("Its smoky taste is") for c in claims)
    # a description hung on the subject with no noun before its comma stays the subject's
    claims = claims_of("Each tower is 90 metres tall, roughly the height of a thirty-storey building.")
    assert "Each tower is roughly the height of a thirty-storey building." in claims


def test_a_place_named_for_another_owner_does_not_state_the_claims_place():
    passage = "The summer fair is held every year on Tinker's Green, just outside the market town of Ludlow."
    assert verdict_on("The summer fair is held every year on Miller Green.", passage).verdict != SUPPORTED
    assert verdict_on("The summer fair is held every year on Tinker's Green.", passage).verdict == SUPPORTED


def test_one_counts_a_noun_and_is_no_support_for_two():
    passage = "The old parish church has two spires and a wooden porch built in 1650."
    verdict = verdict_on("The old parish church has one spire.", passage)
    assert verdict.verdict != SUPPORTED and "one" in verdict.reason
    # "one" that picks a thing out counts nothing
    assert not extract_values("One day the church burned, and no one knows why; it is one of the oldest.")
    assert [v.value for v in extract_values("The church has one spire.")] == [1.0]


def test_where_a_person_is_from_is_not_where_they_worked():
    passage = ("The method was described by Niels Lund in 1902, while he was professor of chemistry at the "
               "University of Lyon in France.")
    assert verdict_on("Niels Lund was a Danish chemist then teaching in Lyon.", passage).verdict != CONTRADICTED
    # another people's adjective, or "from" a country, still says another origin
    assert verdict_on("Niels Lund was a Danish chemist.", "Niels Lund, the chemist from Sweden, described the method."
                      ).verdict == CONTRADICTED


def test_a_year_after_of_on_a_name_dates_that_name():
    passage = "The Glass Pavilion was built by Hans Brunner to house the World Fair of 1897 in Turin."
    assert verdict_on("The Glass Pavilion stood there until 1952.", passage).verdict != CONTRADICTED
    assert verdict_on("The World Fair of 1898 was held in Turin.", passage).verdict == CONTRADICTED


def test_the_day_a_date_fell_on_is_a_claim_of_its_own():
    claims = claims_of("The ferry sank on 12 March 1931, a Thursday, after striking a reef.")
    assert "The ferry sank on 12 March 1931." in claims and "12 March 1931 was a Thursday." in claims
    claims = claims_of("The fair opened on 1 May 1851, May Day, in a glass hall.")
    assert "1 May 1851 was May Day." in claims
    assert not any("opened on 1 May 1851, May Day" in c for c in claims)


def test_a_compass_point_after_an_appositive_places_its_noun():
    claims = claims_of("The market is held in Asti, an old town in Piedmont east of Turin.")
    assert "The market is held in Asti." in claims
    assert "Asti is an old town in Piedmont east of Turin." in claims


def test_a_scale_word_that_ends_the_sentence_scales_its_number():
    assert [(v.value, v.text) for v in extract_values("The fund was capped at 45 million.")] == [(45e6, "45 million")]


def test_two_things_something_lies_between_are_no_list():
    claims = claims_of("The ferry crosses the Minch, the strait between Skye and the Outer Hebrides, in two hours.")
    assert "The Minch is the strait between Skye and the Outer Hebrides." in claims
    assert not any(c.endswith("the strait between Skye.") for c in claims)
    assert claims_of("The war was fought between Venice, Genoa and Pisa.") == [
        "The war was fought between Venice, Genoa and Pisa."]


def test_an_opposite_word_inside_a_name_is_no_opposite():
    passage = "The Treaty of Kiel ended Denmark's part in the Great Northern War."
    claim = "The Treaty of Kiel was the peace settlement that took Denmark out of the Great Northern War."
    assert verdict_on(claim, passage).verdict != CONTRADICTED


def test_a_known_word_in_the_claims_place_may_say_it_in_other_words():
    passage = "Its designer also built the iron skeleton inside the great bronze statue."
    assert verdict_on("Its designer also built the iron framework inside the great bronze statue.",
                      passage).verdict == SUPPORTED
