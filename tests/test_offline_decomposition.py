"""Rule-based decomposition: sentences, lists and clauses cut into stand-alone claims."""
from __future__ import annotations

from vital_core.backends.offline.decompose import decompose, decompose_sentence, split_sentences


def test_sentences_are_split():
    assert split_sentences("Dr. Smith went to Washington. He arrived at 5 p.m. on Monday! Why?") == [
        "Dr. Smith went to Washington.", "He arrived at 5 p.m. on Monday!", "Why?"]


def test_a_list_of_subjects_gives_one_claim_each():
    assert decompose_sentence("Beaumont, Fletcher and Massinger wrote it.") == [
        "Beaumont wrote it.", "Fletcher wrote it.", "Massinger wrote it."]


def test_a_list_of_objects_keeps_the_subject_and_verb():
    assert decompose_sentence("The main crops are corn, soybeans, wheat and cotton.") == [
        "The main crops are corn.", "The main crops are soybeans.", "The main crops are wheat.",
        "The main crops are cotton."]


def test_plural_verb_agrees_with_a_single_subject():
    claims = decompose_sentence("Paris, Lyon and Nice are in France.")
    assert claims == ["Paris is in France.", "Lyon is in France.", "Nice is in France."]


def test_coordinated_clauses_and_relative_clauses_are_cut():
    claims = decompose_sentence("Each sea is guarded by a Dragon King, who rules over aquatic life.")
    assert claims == ["Each sea is guarded by a Dragon King.", "A Dragon King rules over aquatic life."]
    claims = decompose_sentence("Kobe Bryant won five titles, and he was named MVP twice.")
    assert len(claims) == 2 and claims[0] == "Kobe Bryant won five titles."


def test_pronoun_subject_is_resolved_from_the_previous_sentence():
    pairs = decompose("Kobe Bryant won five championships. He won two of them after Shaquille O'Neal left.")
    assert pairs[1][1] == ["Kobe Bryant won two of them after Shaquille O'Neal left."]


def test_parentheses_do_not_cut_lists_and_every_sentence_keeps_a_claim():
    claims = decompose_sentence("It borders France (to the west), Spain and Italy.")
    assert all("(to the west)" not in c or c.count("(") == 1 for c in claims)
    assert decompose("") == []
    assert decompose("Yes.") == [("Yes.", ["Yes."])]


def test_a_title_joined_by_and_is_not_split():
    assert decompose_sentence("Pride and Prejudice was written by Jane Austen.") == [
        "Pride and Prejudice was written by Jane Austen."]
    assert decompose_sentence("The novel Pride and Prejudice was written by Jane Austen.") == [
        "The novel Pride and Prejudice was written by Jane Austen."]
    assert decompose_sentence("She visited the Museum of Arts and Sciences.") == [
        "She visited the Museum of Arts and Sciences."]
    # two separate names are still split
    assert decompose_sentence("Paul Hogan and Linda Kozlowski starred in it.") == [
        "Paul Hogan starred in it.", "Linda Kozlowski starred in it."]


def test_a_list_ending_the_sentence_keeps_its_lead_in_for_every_item():
    assert decompose_sentence("Refugees came from Iraq and Syria.") == [
        "Refugees came from Iraq.", "Refugees came from Syria."]
    assert decompose_sentence("The majority came from Iraq, Syria and Afghanistan.") == [
        "The majority came from Iraq.", "The majority came from Syria.", "The majority came from Afghanistan."]
