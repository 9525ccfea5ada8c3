"""Offline rules on the longer sentences of users' own answers (issue 19, the third dev set `data/user24e`):
appositives and relative clauses that the first cuts left whole, a changed value inside a list, a place the
parser hangs on a span of time, the words that frame a relation, and the answer to "When was X?"."""
from __future__ import annotations

from tests.support.offline_verdict import verdict_on
from vital_core.backends.base import Evidence
from vital_core.backends.offline import OfflineBackend
from vital_core.backends.offline.decompose import decompose, decompose_sentence
from vital_core.backends.offline.language.answer_types import is_open_ended
from vital_core.results.model import CONTRADICTED, SUPPORTED, VITAL, Document, Subclaim
from vital_core.scoring.pipeline import run_sync


def test_a_plural_appositive_after_two_names_describes_both():
    claims = decompose_sentence("The studio was founded by the animator Ub Iwerks and the producer Roy Disney, "
                                "two partners from Kansas City.")
    assert claims == ["The studio was founded by the animator Ub Iwerks and the producer Roy Disney.",
                      "The animator Ub Iwerks and the producer Roy Disney were two partners from Kansas City."]


def test_a_plural_subjects_appositive_is_cut_with_a_plural_verb():
    claims = decompose_sentence("The Wombles, the tidy furry creatures of Wimbledon Common, were created by "
                                "Elisabeth Beresford.")
    assert "The Wombles were created by Elisabeth Beresford." in claims
    assert "The Wombles were the tidy furry creatures of Wimbledon Common." in claims


def test_a_relative_clause_without_a_verb_after_it_runs_to_the_end_and_who_is_the_person_described():
    claims = decompose_sentence("The stories were written by Richmal Crompton, a schoolteacher from Bury, who "
                                "published the first collection, Just William, in 1922.")
    assert claims[0] == "The stories were written by Richmal Crompton."
    assert "Richmal Crompton was a schoolteacher from Bury." in claims
    assert any(c.startswith("Richmal Crompton published the first collection") and "1922" in c for c in claims)
    assert not any("Bury published" in c or c.endswith("Just William.") for c in claims)


def test_after_as_a_preposition_leaves_the_next_clause_its_own():
    claims = decompose_sentence("At first it was sold as Dr Pemberton's Tonic, after its maker, but in 1887 "
                                "he changed the name.")
    assert claims[0] == "At first it was sold as Dr Pemberton's Tonic, after its maker."
    assert not any(" and in 1887" in c for c in claims)


def test_he_after_a_thing_made_by_a_described_person_is_that_person():
    pairs = decompose("Bovril was created in the 1870s by John Lawson Johnston, a butcher from Scotland. "
                      "He sold it to soldiers in Canada.")
    assert pairs[1][1] == ["John Lawson Johnston sold it to soldiers in Canada."]
    # a person's own subject keeps its "he"
    pairs = decompose("Darwin sailed with Robert FitzRoy, a captain of the navy. He later wrote a book.")
    assert pairs[1][1] == ["Darwin later wrote a book."]


def test_a_name_modifying_a_noun_is_no_subject_for_it():
    pairs = decompose("The Cullinan is a large diamond. The Transvaal government bought it in 1907. "
                      "It was cut in Amsterdam.")
    assert pairs[2][1] == ["The Cullinan was cut in Amsterdam."]


def test_descriptions_the_parser_hangs_on_the_subject_are_said_of_it():
    assert decompose_sentence("Each statue is 40 feet tall, roughly the height of a four-storey house.") == [
        "Each statue is 40 feet tall.", "Each statue is roughly the height of a four-storey house."]
    claims = decompose_sentence("Its highest point, Scafell Pike at the southern end of the range, rises to "
                                "978 metres above sea level.")
    assert "Its highest point rises to 978 metres above sea level." in claims
    assert "Its highest point is Scafell Pike at the southern end of the range." in claims


def test_a_measure_before_an_after_clause_is_one_time_and_no_preposition_is_stranded():
    claims = decompose_sentence("The abbey was finally consecrated in 1220 more than four centuries after its "
                                "first stone was laid.")
    assert claims == ["The abbey was finally consecrated in 1220.",
                      "The abbey was finally consecrated more than four centuries after its first stone was laid."]
    assert not any(c.endswith(" to.") for c in decompose_sentence(
        "Its summit, Carn Mor at the western end of the ridge, rises to 1,085 metres above sea level."))


def test_a_changed_name_in_a_list_of_two_is_contradicted_and_initials_are_no_name():
    passage = "The comic was created by Alan Moore and Dave Gibbons."
    v = verdict_on("The comic was created by the writer Alan Moore and the artist Brian Bolland.", passage)
    assert v.verdict == CONTRADICTED and "Brian Bolland" in v.reason and "Dave Gibbons" in v.reason
    assert verdict_on("The comic was created by the writer Alan Moore and the artist Dave Gibbons.",
                      passage).verdict == SUPPORTED
    # "John Smith" and "Jane Stone" share initials, "J. S. Bach" is written with them
    verdict = verdict_on("The song was written by Jane Stone.", "The song was written by John Smith.")
    assert verdict.verdict == CONTRADICTED
    assert verdict_on("Johann Sebastian Bach was born in Eisenach.",
                      "The composer J. S. Bach was born at Eisenach in Thuringia.").verdict == SUPPORTED


def test_a_place_hung_on_a_span_of_time_and_two_venues_are_compared():
    v = verdict_on("Andrea Amati worked for almost his entire life in Brescia.", "Andrea Amati worked in Cremona.")
    assert v.verdict == CONTRADICTED and "Brescia" in v.reason
    v = verdict_on("Since 1753 the codex has been kept at Trinity College Library.",
                   "The Codex Leicester is kept at the Bodleian Library.")
    assert v.verdict == CONTRADICTED
    # a building may stand in a town: no conflict without both being buildings
    assert verdict_on("The codex has been kept at the Bodleian Library.",
                      "The Codex Leicester is kept in Oxford.").verdict != CONTRADICTED


def test_a_frame_is_no_part_of_the_relation_a_changed_value_is_compared_on():
    from vital_core.backends.offline.language.frames import frame
    from vital_core.backends.offline.language.nlp import analyse
    toks = analyse("In its rough state the stone weighed 3,106 carats, a little over 600 grams.")
    framed = {toks[i].text for i in frame(toks, next(t.i for t in toks if t.dep == "ROOT"))}
    assert {"rough", "state", "600", "grams"} <= framed and "weighed" not in framed
    v = verdict_on("In its rough state the stone weighed 3,016 carats.",
                   "The Cullinan diamond weighed 3,106 carats when it was found.")
    assert v.verdict == CONTRADICTED and "3,106" in v.reason


def test_requests_asked_as_questions_are_open_ended():
    assert is_open_ended("What should I know about the Book of Kells?")
    assert is_open_ended("Can you tell me about the Moomins?")
    assert not is_open_ended("Can you tell me when the Book of Kells was stolen?")
    # "What is the Book of Kells?" asks to describe a name: open-ended since the fourth dev set (user24f)
    assert not is_open_ended("What is the shelfmark of the Book of Kells?")


def test_when_was_x_is_answered_by_the_claim_with_the_date_not_by_its_sentences_other_modifiers():
    claims = [Subclaim(id="S1", text="The Battle of Bannockburn was fought on 24 June 1314.", sentence_index=0),
              Subclaim(id="S2", text="The Battle of Bannockburn was fought beside the Bannock Burn.",
                       sentence_index=0),
              Subclaim(id="S3", text="Robert the Bruce led the Scots.", sentence_index=1)]
    evidence = Evidence(mode="documents", documents=[Document(
        id="d1", text="The Battle of Bannockburn was fought on 24 June 1314 south of Stirling.")])
    labels = run_sync(OfflineBackend().rank("When was the Battle of Bannockburn?", claims, evidence)).labels
    assert [k for k, v in labels.items() if v == VITAL] == ["S1"]


def test_a_time_of_day_is_one_value_compared_as_a_time_not_two_numbers():
    from vital_core.backends.offline.language.answer_types import extract_mentions
    from vital_core.backends.offline.language.values import extract_values
    assert [(v.kind, v.text) for v in extract_values("The storm struck at 4:15 a.m. on 2 May 1933.")] == [
        ("time", "4:15 a.m."), ("date", "2 May 1933")]
    assert extract_mentions("The storm struck at 4:15.").numbers == set()
    v = verdict_on("The storm struck at 4:15.", "The storm struck at 5:40 in the morning.")
    assert v.verdict == CONTRADICTED and v.reason.startswith("time mismatch") and "5:40" in v.reason
    assert verdict_on("The storm struck at 4:15.", "The storm struck at 4:15 a.m.").verdict == SUPPORTED


def test_how_tall_is_answered_by_a_height_not_by_a_span_of_time():
    from vital_core.scoring.pipeline import score_example
    text = ("Ulm Minster, which was finally completed in 1890 more than five centuries after its foundation stone "
            "was laid, is 161.5 metres tall, measured to the tip of its spire. For a few years after completion it "
            "was the tallest building in the world. Work began in 1377 but stopped in 1543.")
    example = run_sync(score_example(OfflineBackend(), example_id="ulm", query="How tall is Ulm Minster?",
                                     responses={"normal": text}, documents=[Document(
                                         id="d", text="Ulm Minster is 161.5 metres tall and has 768 steps.")]))
    claims = example.variants["normal"].subclaims
    assert [c.text for c in claims if c.importance == VITAL] == [
        "Ulm Minster is 161.5 metres tall, measured to the tip of its spire."]
    # "five centuries after its foundation stone was laid" is one time: no "Its foundation stone was laid."
    assert any(c.text.endswith("more than five centuries after its foundation stone was laid.") for c in claims)


def test_making_it_a_noun_says_what_the_subject_is_and_a_word_read_as_punctuation_stays_in_its_phrase():
    assert decompose_sentence("The lake reaches a depth of 1,642 metres, making it the deepest lake on Earth.") == [
        "The lake reaches a depth of 1,642 metres.", "The lake is the deepest lake on Earth."]
    # "making it possible ..." says nothing more of the lake
    assert not any(c.startswith("The dam is possible") for c in decompose_sentence(
        "The dam opened in 1936, making it possible to irrigate the valley."))
    claims = decompose_sentence("The liner sank on the night of 30 January 1945, after being hit by three torpedoes "
                                "from the submarine S-13 while carrying refugees from the port.")
    assert claims[0] == "The liner sank on 30 January 1945." and sum("S-13" in c for c in claims) == 1
