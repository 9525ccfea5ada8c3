"""Rule-based decomposition: sentences, lists and clauses cut into stand-alone claims."""
from __future__ import annotations

from vital_core.backends.offline.sentences import decompose, decompose_sentence, split_sentences


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
