"""Offline importance: answers ranked vital, background lower, calibrated labels, stable order."""
from __future__ import annotations

import pytest

from vital_core.backends.offline import OfflineBackend
from vital_core.backends.offline.language.answer_types import DATE, NUMBER, PERSON, PLACE, question_type
from vital_core.results.model import LESS_IMPORTANT, OKAY, TIER_RANK, VITAL, Subclaim
from vital_core.scoring.pipeline import run_sync

QUERY = "In a paragraph, could you answer: who wrote the novel Pride and Prejudice"
CLAIMS = [
    ("Pride and Prejudice was written by Jane Austen.", 0),
    ("Jane Austen wrote Pride and Prejudice.", 0),
    ("Pride and Prejudice is a novel.", 1),
    ("The novel was first published in 1813.", 1),
    ("Film adaptations of the book are popular with audiences.", 2),
    ("Many readers enjoy the witty dialogue.", 2),
    ("It is worth checking a library catalogue for more information.", 3),
]


def rank(query=QUERY, claims=CLAIMS):
    subclaims = [Subclaim(id=f"S{i + 1}", text=t, sentence_index=s) for i, (t, s) in enumerate(claims)]
    return run_sync(OfflineBackend().rank(query, subclaims))


def test_question_types_ignore_the_generation_prefix():
    assert question_type("who wrote hamlet") == PERSON
    assert question_type("when was the first dark tower book published") == DATE
    assert question_type("the chinese dragons are protectors of how many seas") == NUMBER
    assert question_type("where are the san juan mountains in new mexico") == PLACE


def test_who_wrote_ranks_the_author_claims_vital_and_first():
    ranking = rank()
    assert ranking.labels["S1"] == VITAL and ranking.labels["S2"] == VITAL
    assert set(ranking.order[:2]) == {"S1", "S2"}
    assert ranking.labels["S7"] != VITAL          # meta advice
    assert ranking.labels["S6"] != VITAL          # background
    assert LESS_IMPORTANT in ranking.labels.values()


def test_order_is_by_tier_and_keeps_each_sentence_together_within_a_tier():
    ranking = rank()
    tiers = [ranking.labels[i] for i in ranking.order]
    assert tiers == sorted(tiers, key=TIER_RANK.get)
    assert sorted(ranking.order) == sorted(f"S{i + 1}" for i in range(len(CLAIMS)))
    sentence = {f"S{i + 1}": s for i, (_, s) in enumerate(CLAIMS)}
    for tier in (VITAL, OKAY, LESS_IMPORTANT):
        seq = [sentence[i] for i in ranking.order if ranking.labels[i] == tier]
        # a sentence's claims are contiguous inside the tier
        assert all(seq.index(s) + seq.count(s) - 1 == len(seq) - 1 - seq[::-1].index(s) for s in set(seq))


def test_labels_come_from_thresholds_not_quotas():
    # a response without the answer gets fewer vital claims than one with it
    without = [c for c in CLAIMS if "Austen" not in c[0]]
    assert sum(v == VITAL for v in rank(claims=without).labels.values()) < \
        sum(v == VITAL for v in rank().labels.values())


def test_ranking_is_deterministic():
    assert rank() == rank()


def test_empty_input():
    ranking = run_sync(OfflineBackend().rank(QUERY, []))
    assert ranking.labels == {} and ranking.order == []


def _labels_of(query: str, claims: list[str]) -> dict[str, str]:
    from vital_core.backends.offline.importance import rank_claims
    ids = [f"S{i + 1}" for i in range(len(claims))]
    labels, _, _ = rank_claims(query, ids, claims, list(range(len(claims))))
    return dict(zip(claims, (labels[i] for i in ids)))


BIO = ["Grace Hopper was born in New York City in 1906.", "Grace Hopper studied mathematics at Vassar College.",
       "Grace Hopper taught at Vassar for a decade.", "Grace Hopper joined the Naval Reserve in 1943.",
       "Grace Hopper is best known for developing the first compiler.", "Grace Hopper retired in 1986."]


def test_an_open_ended_request_makes_what_the_subject_is_known_for_vital():
    labels = _labels_of("Tell me a bio of Grace Hopper.", BIO)
    assert labels["Grace Hopper is best known for developing the first compiler."] == VITAL
    assert labels["Grace Hopper retired in 1986."] != VITAL


def test_the_open_ended_rule_leaves_questions_to_the_fitted_weights():
    from vital_core.backends.offline.language.answer_types import is_open_ended
    assert is_open_ended("Tell me a bio of Grace Hopper.") and is_open_ended("Describe the Taj Mahal")
    assert not is_open_ended("who wrote pride and prejudice") and not is_open_ended("Tell me who won?")


AIRSHIP = ["The Hindenburg was a German passenger airship built by the Zeppelin company.",
           "The Hindenburg carried passengers across the Atlantic.",
           "The Hindenburg burned on 6 May 1937.",
           "The fire killed 36 people.",
           "Newsreel footage of the fire ended the age of the passenger airship."]


def test_a_question_asking_for_one_thing_makes_the_claim_that_gives_it_vital_and_its_context_okay():
    labels = _labels_of("When did the Hindenburg burn?", AIRSHIP)
    assert labels["The Hindenburg burned on 6 May 1937."] == VITAL
    assert [claim for claim, label in labels.items() if label == VITAL] == ["The Hindenburg burned on 6 May 1937."]


def test_the_question_predicate_falls_back_to_its_nouns_and_survives_a_bare_verb_read_as_a_noun():
    from vital_core.backends.offline.answer import question_predicate
    assert question_predicate("When did the Swedish warship Wasa sink?") == {"sink"}
    assert question_predicate("What was the first Disney feature film?") == {"feature", "film"}


BRIDGE = ["The Golden Gate Bridge is a suspension bridge in San Francisco.",
          "The bridge opened on 27 May 1937.",
          "The towers are painted orange.",
          "Fog often hides the towers."]


def test_an_open_ended_request_makes_a_dated_fact_of_its_subject_vital():
    labels = _labels_of("Tell me about the Golden Gate Bridge.", BRIDGE)
    assert labels["The bridge opened on 27 May 1937."] == VITAL
    assert labels["Fog often hides the towers."] != VITAL


def test_the_other_modifiers_of_the_answers_verb_are_detail_whatever_the_fitted_scores():
    from vital_core.backends.offline.importance import rank_claims
    from vital_core.backends.offline.language.lexicon import IMPORTANCE_WEIGHTS as WEIGHTS
    sentence = "Sputnik 1 was launched on 4 October 1957 from Baikonur on an R-7 rocket."
    claims = ["Sputnik 1 was the first artificial satellite.", "Sputnik 1 was launched on 4 October 1957.",
              "Sputnik 1 was launched from Baikonur.", "Sputnik 1 was launched on an R-7 rocket."]
    ids = [f"S{i}" for i in range(len(claims))]
    everything_vital = dict(WEIGHTS, intercept=10.0)     # scores alone would make every claim vital
    labels, _, _ = rank_claims("When was Sputnik 1 launched?", ids, claims, [0, 1, 1, 1],
                               [claims[0], sentence, sentence, sentence], weights=everything_vital)
    assert [c for c, i in zip(claims, ids) if labels[i] == VITAL] == ["Sputnik 1 was launched on 4 October 1957."]


def test_the_predicate_is_said_by_a_synonym_too():
    labels = _labels_of("Who composed the Nocturnes?",
                        ["The Nocturnes are a set of piano pieces published in Paris and Leipzig.",
                         "The music was written by Frédéric Chopin."])
    assert labels["The music was written by Frédéric Chopin."] == VITAL


def _evidence(text: str):
    from vital_core.backends.base import Evidence
    from vital_core.results.model import Document
    return Evidence(mode="documents", documents=[Document(id="d1", text=text)])


LIGHTHOUSE = [
    ("The Bell Rock Lighthouse stands on a reef off the coast of Angus.", 0),
    ("The Bell Rock Lighthouse is the oldest surviving sea-washed lighthouse in the world.", 0),
    ("The lighthouse was first lit on 1 February 1811.", 1),
    ("Robert Stevenson designed the lighthouse.", 2),
    ("Its light can be seen from about 35 miles away.", 3),
]
LIGHTHOUSE_DOCUMENT = ("The lighthouse was first lit on 1 February 1811, after four summers of building on the "
                       "rock. John Rennie advised on the design.")


def test_an_open_ended_request_with_evidence_makes_the_facts_it_is_about_vital():
    subclaims = [Subclaim(id=f"S{i + 1}", text=t, sentence_index=s) for i, (t, s) in enumerate(LIGHTHOUSE)]
    query = "Tell me about the Bell Rock Lighthouse."
    alone = run_sync(OfflineBackend().rank(query, subclaims))
    guided = run_sync(OfflineBackend().rank(query, subclaims, _evidence(LIGHTHOUSE_DOCUMENT)))
    assert alone.labels["S3"] != VITAL or [k for k, v in alone.labels.items() if v == VITAL] != ["S3"]
    assert [k for k, v in guided.labels.items() if v == VITAL] == ["S3"]
    # whatever the value: a changed date is as much what the evidence is about
    changed = [Subclaim(id=s.id, text=s.text.replace("1811", "1821"), sentence_index=s.sentence_index)
               for s in subclaims]
    assert run_sync(OfflineBackend().rank(query, changed, _evidence(LIGHTHOUSE_DOCUMENT))).labels["S3"] == VITAL


def test_a_question_ranks_the_same_with_or_without_evidence():
    subclaims = [Subclaim(id=f"S{i + 1}", text=t, sentence_index=s) for i, (t, s) in enumerate(CLAIMS)]
    evidence = _evidence("Pride and Prejudice was written by Jane Austen and published in 1813.")
    assert run_sync(OfflineBackend().rank(QUERY, subclaims, evidence)).labels == rank().labels


def test_who_prefers_the_claim_naming_a_person_to_one_dating_the_same_verb():
    ranking = rank("Who invented the saxophone?", [("The saxophone was invented in 1840.", 0),
                                                   ("The saxophone was invented by Adolphe Sax.", 0),
                                                   ("Adolphe Sax was a Belgian instrument maker.", 1)])
    assert ranking.labels["S2"] == VITAL and ranking.labels["S1"] != VITAL


def test_what_was_the_x_is_answered_by_the_claim_restating_x_whatever_the_answer_looks_like():
    ranking = rank("What was the first Pixar feature film?", [
        ("The first Pixar feature film was Toy Story.", 0),
        ("Much of it was animated in Point Richmond.", 1),
        ("Tom Hanks voiced Woody.", 2)])
    assert ranking.labels["S1"] == VITAL and ranking.labels["S2"] != VITAL


def test_who_is_answered_by_claims_whose_verb_says_the_act_not_by_one_naming_it_in_passing():
    ranking = rank("Who discovered radium?", [
        ("Radium was discovered by the chemist Marie Curie.", 0),
        ("Radium returned to find that a sample had glowed in the dark drawer of Becquerel.", 1),
        ("Radium is a radioactive element.", 2)])
    assert ranking.labels["S1"] == VITAL and ranking.labels["S2"] != VITAL


def test_with_evidence_a_statement_beside_the_answer_that_the_evidence_never_speaks_of_is_context():
    claims = [("The Vasa was a Swedish warship built for King Gustavus Adolphus.", 0),
              ("The Vasa sank on 10 August 1628.", 1),
              ("The Vasa was a symbol of the king's ambitions.", 2)]
    evidence = _evidence("The Vasa sank on 10 August 1628, less than a mile into her maiden voyage.")
    guided = rank("When did the Vasa sink?", claims)
    with_evidence = run_sync(OfflineBackend().rank(
        "When did the Vasa sink?", [Subclaim(id=f"S{i + 1}", text=t, sentence_index=s)
                                    for i, (t, s) in enumerate(claims)], evidence))
    assert guided.labels["S2"] == VITAL and with_evidence.labels["S2"] == VITAL
    assert [k for k, v in with_evidence.labels.items() if v == VITAL] == ["S2"]


def test_the_answer_is_found_by_the_question_light_verb_and_the_noun_asked_for():
    from vital_core.backends.offline.answer import question_predicate
    assert question_predicate("What was Nike originally called?") == {"call"}
    ranking = rank("What was Nike originally called?", [
        ("Nike grew out of a partnership between Phil Knight and Bill Bowerman.", 0),
        ("The company was originally called Blue Ribbon Sports.", 1),
        ("Blue Ribbon Sports imported running shoes from Japan.", 2)])
    assert ranking.labels["S2"] == VITAL
    # "Which museum ...?" is answered by the claim naming a museum, whatever its verb
    ranking = run_sync(OfflineBackend().rank("Which museum holds the Rosetta Stone?", [
        Subclaim(id="S1", text="The Rosetta Stone was found by French soldiers in 1799.", sentence_index=0),
        Subclaim(id="S2", text="It has been on show at the British Museum in London since 1802.", sentence_index=1),
        Subclaim(id="S3", text="Its three scripts helped Jean-François Champollion read hieroglyphs.",
                 sentence_index=2)],
        _evidence("The Rosetta Stone has been on show at the British Museum since 1802.")))
    assert [k for k, v in ranking.labels.items() if v == VITAL] == ["S2"]
    # the question's own verb before a synonym of it
    from vital_core.backends.offline.answer import presumed_answer
    from vital_core.backends.offline.importance import FEATURES, claim_features
    question = "Where did Tesco open its first store?"
    claims = ["Tesco was started by Jack Cohen in London.", "In 1931 the company opened its first store in Burnt Oak."]
    features = claim_features(question, claims, [0, 1])
    assert presumed_answer(question, claims, features[:, FEATURES.index("sim_rank")], question_predicate(question)) == 1


def test_an_open_ended_request_whose_evidence_speaks_of_no_claim_leaves_none_vital_that_it_cannot_judge():
    claims = [Subclaim(id="S1", text="The Bell Rock Lighthouse is the oldest surviving sea-washed lighthouse in "
                                     "the world.", sentence_index=0),
              Subclaim(id="S2", text="Robert Stevenson designed the lighthouse.", sentence_index=1)]
    query = "Tell me about the Bell Rock Lighthouse."
    unrelated = _evidence("Keepers lived at the station in shifts until the light was automated in 1988.")
    assert VITAL not in run_sync(OfflineBackend().rank(query, claims, unrelated)).labels.values()
    assert VITAL in run_sync(OfflineBackend().rank(query, claims)).labels.values()


def test_the_nugget_that_answers_a_one_thing_question_is_vital_beside_the_sources_own_ranking():
    from vital_core.backends.offline.nuggets import make_nuggets
    from vital_core.results.model import Document
    text = ("The Battle of Navarino was a naval clash between an allied fleet of British, French and Russian ships "
            "and the Ottoman-Egyptian navy in the bay of Navarino. The battle was fought on 20 October 1827. It "
            "ended in a decisive allied victory, and most of the Ottoman ships were sunk or burned.")
    nuggets = {n.text: n.importance for n in make_nuggets("When was the Battle of Navarino fought?",
                                                          [Document(id="d", text=text)])}
    assert nuggets["The battle was fought on 20 October 1827."] == VITAL
    assert list(nuggets.values()).count(VITAL) < len(nuggets)


def test_where_is_answered_where_a_name_is_the_place_of_what_the_question_asks_about():
    from vital_core.backends.offline.answer import presumed_answer, question_predicate
    from vital_core.backends.offline.importance import FEATURES, claim_features
    question = "Where can I see Vermeer's The Milkmaid?"
    claims = ["Since 2022 it has been studied in full public view, a project called Operation Milkmaid.",
              "The Rijksmuseum is in Amsterdam.",
              "The painting hangs in the Rijksmuseum."]
    features = claim_features(question, claims, [0, 1, 1])
    assert presumed_answer(question, claims, features[:, FEATURES.index("sim_rank")], question_predicate(question)) == 2


def test_a_question_for_a_measure_asks_for_a_number():
    assert question_type("What is the women's marathon world record?") == NUMBER
    assert question_type("What is the height of Aconcagua?") == NUMBER
    assert question_type("What is the record label of Adele?") != NUMBER


GROTTO = ["The Grotto of Ferrand is known for its painted walls.",
          "The Grotto lies near the village of Orsac.",
          "The Grotto lies in Ardeche.",
          "The Grotto lies on the eastern edge of the plateau.",
          "The paintings were found in 1921."]


def test_where_is_with_no_verb_is_answered_by_the_claim_placing_it_by_name_and_the_loose_places_are_detail():
    labels = _labels_of("Where is the Grotto of Ferrand?", GROTTO)
    assert labels["The Grotto lies in Ardeche."] == VITAL
    assert [c for c, label in labels.items() if label == VITAL] == ["The Grotto lies in Ardeche."]


def test_where_is_keeps_a_second_claim_placing_it_by_name_vital():
    labels = _labels_of("Where is the Grotto of Ferrand?", [
        "The Grotto is not located in Provence.", "The Grotto lies in Ardeche.",
        "The Grotto is known for its painted walls and its bats."])
    # a premise corrected by name is as much the answer as the place itself
    assert labels["The Grotto is not located in Provence."] == VITAL == labels["The Grotto lies in Ardeche."]


CANAL = ["The Ostend Canal runs from the coast to Bruges.", "The canal was dug by hand.",
         "Barges carried coal and timber along it."]


@pytest.mark.parametrize("dated_claim", ["The Ostend Canal was opened in 1827.",
                                         "The Ostend Canal was formally opened by King William in 1827."])
def test_a_narrow_passage_that_speaks_of_a_dated_claim_with_no_date_beside_does_not_make_it_vital(dated_claim):
    claims = [Subclaim(id=f"S{i + 1}", text=t, sentence_index=i) for i, t in enumerate([dated_claim] + CANAL)]
    query = "Tell me about the Ostend Canal."
    # a name beside is no date ("opened by Mayor Jan Peeters" does not judge "opened ... in 1827")
    undated = _evidence("The canal was opened by Mayor Jan Peeters with a ceremony on the quay. Locks came later.")
    dated = _evidence("The canal was opened in the spring of 1827. Locks came later.")
    assert run_sync(OfflineBackend().rank(query, claims, undated)).labels["S1"] != VITAL
    assert run_sync(OfflineBackend().rank(query, claims, dated)).labels["S1"] == VITAL


def test_a_word_of_a_name_in_the_evidence_says_no_relation():
    from vital_core.backends.offline.language.addressed import addressed_by
    claim = ["Spain made peace in the Treaty of Utrecht."]
    assert addressed_by(claim, ["A monument known as the Gate of Peace stands in the square of Madrid."]) == set()
    assert addressed_by(claim, ["Spain made peace with Britain at Utrecht in 1713."]) == {0}


def test_how_deep_is_answered_by_the_claim_giving_a_length_not_by_a_count_nor_its_consequence():
    from vital_core.backends.offline.importance import rank_claims
    claims = ["Loch Morar is a freshwater loch in the Highlands.", "The loch has more than twenty islands.",
              "At its deepest point it reaches 310 metres.",
              "At its deepest point it reaches 310 metres, which makes it the second-deepest loch in Scotland.",
              "A monster is said to live in it."]
    labels, _, _ = rank_claims("How deep is Loch Morar?", [f"S{i}" for i in range(5)], claims, [0, 1, 2, 2, 3])
    assert [sid for sid, label in labels.items() if label == VITAL] == ["S2"]


def test_a_measure_or_a_place_is_what_the_evidence_is_about_whatever_words_give_it():
    from vital_core.backends.offline.language.addressed import addressed_by
    assert addressed_by(["The tower rises to 135 metres."], ["The Spire of Dublin is 120 metres tall."]) == {0}
    assert addressed_by(["The hoard lies in Staffordshire."], ["The Mercian hoard is in Staffordshire."]) == {0}
    # a count is no length, and a verb of its own is not a place
    assert addressed_by(["The tower rises to 135 metres."], ["The Spire of Dublin has 120 steps."]) == set()
    assert addressed_by(["The hoard was found in Staffordshire."], ["The Mercian hoard is in Staffordshire."]) == set()


def _answer(question: str, claims: list[str]) -> int | None:
    from vital_core.backends.offline.answer import presumed_answer, question_predicate
    from vital_core.backends.offline.importance import FEATURES, claim_features
    features = claim_features(question, claims, list(range(len(claims))))
    return presumed_answer(question, claims, features[:, FEATURES.index("sim_rank")], question_predicate(question))


def test_who_made_a_thing_is_answered_by_its_maker_noun_before_what_the_maker_did_with_it():
    claims = ["Gustav Holst wrote it between 1914 and 1916 for a large orchestra.",
              "The composer was Gustav Holst."]
    assert _answer("Who composed The Planets?", claims) == 1
    claims = ["Its inventor was Percy Shaw.", "Percy Shaw patented the design in 1934 in Halifax."]
    assert _answer("Who invented the cat's eye road stud?", claims) == 0


def test_how_long_is_answered_by_the_measure_before_its_which_consequence():
    claims = ["The central span measures 1,991 metres, which made it the longest in the world until 2022.",
              "The central span measures 1,991 metres."]
    assert _answer("How long is the central span of the Akashi Kaikyo Bridge?", claims) == 1


def test_a_maker_noun_or_phrase_answers_who_made_it_and_the_makers_other_facts_are_context():
    labels = _labels_of("Who created Peanuts?", [
        "Peanuts is a comic strip about a boy named Charlie Brown and his dog Snoopy.",
        "The strip is named after a word its syndicate chose, which Charles Schulz disliked.",
        "Its creator was Charles Schulz.",
        "Charles Schulz was a cartoonist from Minnesota."])
    assert labels["Its creator was Charles Schulz."] == VITAL
    assert labels["Charles Schulz was a cartoonist from Minnesota."] != VITAL
    labels = _labels_of("Who invented the safety lamp?", [
        "The safety lamp let miners work near firedamp without setting it alight.",
        "It was the invention of Humphry Davy.",
        "Humphry Davy was a chemist from Cornwall."])
    assert labels["It was the invention of Humphry Davy."] == VITAL


def test_a_phrase_says_the_questions_predicate():
    labels = _labels_of("What is the melting point of caesium?", [
        "Caesium is a soft, golden alkali metal with the atomic number 55.",
        "It turns liquid at 28.5 °C.",
        "Caesium was discovered in 1860."])
    assert labels["It turns liquid at 28.5 °C."] == VITAL
    assert labels["Caesium was discovered in 1860."] != VITAL


def test_the_claim_as_written_beside_its_vital_statement_is_detail():
    # twenty-second round (user24n): "a fact proved in ..." adds a detail the evidence seldom states
    query = "What are the Archimedean solids?"
    subclaims = [Subclaim(id="S1", text="There are exactly thirteen Archimedean solids.", sentence_index=0),
                 Subclaim(id="S2", text="There are exactly thirteen Archimedean solids, a fact shown by Kepler "
                                        "in 1619.", sentence_index=0),
                 Subclaim(id="S3", text="Each is built from two or more kinds of regular polygon.", sentence_index=1)]
    evidence = _evidence("There are thirteen Archimedean solids, each built from regular polygons of two or "
                         "more kinds.")
    labels = run_sync(OfflineBackend().rank(query, subclaims, evidence)).labels
    assert labels["S1"] == VITAL and labels["S2"] != VITAL


def test_came_up_with_says_invented():
    # twenty-second round (user24n): the answer's claim did not say the question's verb, so its description
    # ("... was a prolific New York mechanic") stayed vital beside it
    from vital_core.backends.offline.importance import question_predicate, says_predicate
    predicate = question_predicate("Who invented the paper clip?")
    assert says_predicate("Johan Vaaler came up with the paper clip in 1899.", predicate)
    assert not says_predicate("Johan Vaaler was a Norwegian patent clerk.", predicate)


def test_worked_out_asks_who_found_or_proposed_it_and_what_the_person_was_is_context():
    # twenty-second round (user24m): "then working in Ghent" said "worked out", so the description of the
    # person was taken for the answer and the claim that put the idea forward was less important
    from vital_core.backends.offline.answer import describes_a_person
    from vital_core.backends.offline.importance import question_predicate, says_predicate
    predicate = question_predicate("Who worked out that DNA is a double helix?")
    assert says_predicate("Francis Crick put forward the double helix in 1953.", predicate)
    assert not says_predicate("Francis Crick was a British biologist then working in Cambridge.", predicate)
    assert describes_a_person("Francis Crick was a British biologist then working in Cambridge.")
    assert not describes_a_person("Francis Crick was the first to describe the helix.")
    labels = _labels_of("Who worked out that DNA is a double helix?", [
        "Francis Crick was a British biologist then working in Cambridge.",
        "Francis Crick put forward the double helix in 1953.",
        "The structure explained how genes are copied."])
    assert labels["Francis Crick put forward the double helix in 1953."] == VITAL
    assert labels["Francis Crick was a British biologist then working in Cambridge."] != VITAL
