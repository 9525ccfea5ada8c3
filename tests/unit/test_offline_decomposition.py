"""Rule-based decomposition: sentences, lists and clauses cut into stand-alone claims."""
from __future__ import annotations

from tests.support.paths import REPO
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


# Sentences that used to come out as fragments (issue 10), and sentences of the same shapes.
GARBLES = [
    ("The Amazon River flows for about 6,400 kilometres, which makes it the second-longest river in the world.",
     ["Kilometres makes", "kilometres makes"]),
    ("It is about 6,650 kilometres long, which makes it the second-longest river in the world.",
     ["Kilometres long makes", "kilometres long makes"]),
    ("World Athletics is the sport's governing body, which was formerly called the IAAF.", ["S governing body"]),
    ("There are four bases: adenine, thymine, cytosine and guanine.", ["bases: guanine.", "bases: adenine."]),
    ("DNA uses four bases: adenine, thymine, cytosine and guanine.", ["bases: thymine."]),
    ("It was chosen in 1908 as a compromise between Sydney and Melbourne, the two largest cities.",
     ["between Melbourne, the two", "between Sydney, the two"]),
    ("In 1936 he published a paper describing an abstract computing device, now known as the Turing machine, "
     "which formalised the idea of an algorithm.", ["Uring machine"]),
    ("The Turing machine, which formalised the idea of an algorithm, was described in 1936.",
     ["Uring", "machine, was"]),
    ("Contrary to popular belief, he did not lie on his back; he painted standing on a wooden scaffold.",
     ["Contrary painted"]),
    ("Thousands of East Berliners gathered at checkpoints, and overwhelmed guards eventually opened the gates.",
     ["Thousands of East overwhelmed"]),
    ("About 1.8 million schoolchildren, who became known as the Polio Pioneers, took part in the trial.",
     ["Million schoolchildren", "schoolchildren, took"]),
    ("The treaty was signed between France and Britain, the two great rivals.", ["between Britain, the"]),
    ("The lake covers about 31,500 square kilometres, which makes it the largest lake in Africa.",
     ["Kilometres makes", "square kilometres makes"]),
    # the antecedent of "who"/"which" is a noun phrase, never the verb before it
    ("She never knew her father, who died in Greece when she was eight.", ["Knew her father died"]),
    ("In 1835 she married William King, who became Earl of Lovelace in 1838.", ["Married William King became"]),
    ("She described an algorithm to calculate Bernoulli numbers, which is widely regarded as the first program.",
     ["Calculate Bernoulli numbers is"]),
    # a time or a number inside the relative clause does not end it
    ("The summit was reached by Edmund Hillary, who stood on the top at about 11:30 a.m. on 29 May 1953.",
     ["Hillary:30", "about 11."]),
    # an apposition is no list; the agent of a passive is the antecedent; a verbless opening is no claim;
    # a cleft "it" and a demonym are no subjects (data/dev2)
    ("The opera was composed by Giuseppe Verdi, the Italian master and former organist, in 1871.",
     ["composed by former organist", "composed by the Italian master"]),
    ("The engine was designed around 1880 by Karl Benz, who founded a company in Mannheim.",
     ["Around 1880 by Karl Benz founded", "1880 by Karl Benz founded"]),
    ("Under the new coach Maria Lopez, and with the captain Ana Ruiz fit again, the team won the cup.",
     ["Under the new coach Maria Lopez."]),
    ("The Scottish chemist Joseph Black measured latent heat, but it was James Watt who built the better engine.",
     ["The Scottish was", "Scottish was James Watt"]),
    # a list whose items carry their own lead-in, after another phrase with "and", is left whole
    ("The suite has four dances for flute and harp, one for each of dawn, noon, dusk and night.",
     ["for one for each", "dances for noon", "dances for dusk"]),
    # a list after "The cast of" says who the subject is; an irregular past ends the last item
    ("The crew of Yuri Romanenko, Georgi Grechko and Vladimir Remek became the most famous faces of the decade.",
     ["Romanenko famous", "Grechko famous", "Romanenko the most"]),
]


def _whole_words(text: str) -> set[str]:
    import re
    return {w.lower() for w in re.findall(r"[\w'\-]+", text)}


def test_no_fragment_claims_from_the_listed_garbles():
    for sentence, forbidden in GARBLES:
        claims = decompose_sentence(sentence)
        for claim in claims:
            assert not any(bad in claim for bad in forbidden), (sentence, claims)
            # every claim opens with a whole word of its sentence, capitalised, and has a verb's worth of words
            assert claim[0].isupper() and claim.split()[0].strip(",.").lower() in _whole_words(sentence), claims
            assert len(claim.split()) >= 3 and " ," not in claim, claims


def test_claims_of_the_dev_paragraphs_open_with_a_word_of_their_sentence():
    import json
    dev = REPO / "data" / "dev" / "paragraph_triples.jsonl"
    for line in dev.read_text(encoding="utf-8").splitlines()[:6]:
        text = json.loads(line)["responses"]["normal"]
        previous_words: set[str] = set()
        for sentence, claims in decompose(text):
            allowed = _whole_words(sentence) | previous_words
            for claim in claims:
                assert claim.split()[0].strip(",.").lower() in allowed, (sentence, claim)
            previous_words |= _whole_words(sentence)


def test_it_does_not_stand_for_a_person():
    pairs = decompose("Jane Austen wrote Emma. It was published in 1815.")
    assert pairs[1][1] == ["It was published in 1815."]
    pairs = decompose("The Eiffel Tower is in Paris. It was completed in 1889.")
    assert pairs[1][1] == ["The Eiffel Tower was completed in 1889."]


def test_she_is_the_person_named_before_not_a_one_word_subject_in_between():
    from vital_core.backends.offline.language.pronouns import resolve_pronouns
    resolved = resolve_pronouns(["Frida Kahlo was a painter from Mexico.", "Polio struck her when she was six.",
                                 "Confined to bed, she took up painting."])
    assert resolved[2] == "Confined to bed, Frida Kahlo took up painting."
    # a one-word subject that is the person's surname still stands for them
    assert resolve_pronouns(["Charles Darwin was a naturalist.", "Darwin sailed on the Beagle.",
                             "He wrote a book."])[2] == "Darwin wrote a book."


# Atomic claims: subordinate clauses, participle phrases, appositives, second predicates and adverbial
# detail become claims of their own, so that the key fact of a sentence stands as a short claim.
ATOMIC = [
    ("The Berlin Wall fell on the night of 9 November 1989, when East German authorities unexpectedly "
     "opened the border crossings.",
     ["The Berlin Wall fell on 9 November 1989.", "The Berlin Wall fell at night.",
      "East German authorities opened the border crossings.",
      "East German authorities unexpectedly opened the border crossings."]),
    ("Pluto, found in 1930, is a dwarf planet.", ["Pluto is a dwarf planet.", "Pluto was found in 1930."]),
    ("The wall had divided the city since 1961, separating families and friends for almost three decades.",
     ["The wall had divided the city since 1961.",
      "The wall separated families and friends for almost three decades."]),
    ("Marie Curie, a Polish physicist, won the Nobel Prize in 1903 and became the first woman to do so.",
     ["Marie Curie won the Nobel Prize in 1903.", "Marie Curie was a Polish physicist.",
      "Marie Curie became the first woman to do so."]),
    ("Voyager 1 was launched on 5 September 1977 from Cape Canaveral on a Titan rocket.",
     ["Voyager 1 was launched on 5 September 1977.", "Voyager 1 was launched from Cape Canaveral.",
      "Voyager 1 was launched on a Titan rocket."]),
    ("The army was discovered near Xi'an in 1974, when farmers digging a well broke into one of the pits.",
     ["The army was discovered near Xi'an.", "The army was discovered in 1974.",
      "Farmers digging a well broke into one of the pits."]),
    ("The painting hangs in the Rijksmuseum, where it has its own room.",
     ["The painting hangs in the Rijksmuseum.", "The painting has its own room."]),
    ("Elvis Presley was born in Tupelo, Mississippi, on 8 January 1935.",
     ["Elvis Presley was born in Tupelo.", "Elvis Presley was born on 8 January 1935.", "Tupelo is in Mississippi."]),
    ("The first James Bond film was Dr. No, in which Sean Connery played the British secret agent.",
     ["The first James Bond film was Dr. No.", "Sean Connery played the British secret agent in Dr. No."]),
    ("The Amazon River flows for about 6,400 kilometres, which makes it the second-longest river in the world.",
     ["The Amazon River flows for about 6,400 kilometres.",
      "The Amazon River flows for about 6,400 kilometres, which makes it the second-longest river in the world."]),
    ("Dynamite was invented by Alfred Nobel who patented it in 1867.",
     ["Dynamite was invented by Alfred Nobel.", "Alfred Nobel patented it in 1867."]),
    ("Built between 1473 and 1481, the Sistine Chapel is the pope's own chapel.",
     ["The Sistine Chapel is the pope's own chapel.", "The Sistine Chapel was built between 1473 and 1481."]),
    ("The river flows through Egypt, carrying silt to the delta.",
     ["The river flows through Egypt.", "The river carries silt to the delta."]),
    # a partitive relative clause the parser hangs on the verb: its noun is the one before the comma
    ("The Endurance carried 28 men, about half of whom were seamen who had sailed with Shackleton before.",
     ["The Endurance carried 28 men.", "About half of the men were seamen who had sailed with Shackleton before."]),
    # a participle after the main verb says something of the noun before its comma, not of the subject
    ("The marathon record belongs to Kelvin Kiptum of Kenya, widely regarded as the finest road runner of his time.",
     ["The marathon record belongs to Kelvin Kiptum of Kenya.",
      "Kelvin Kiptum of Kenya is widely regarded as the finest road runner of his time."]),
    # the clause of "after" read as a second verb of the main one still goes with "after"
    ("Voyager 1 was launched on 5 September 1977 from Cape Canaveral, Florida, on a Titan IIIE rocket, about two "
     "weeks after its twin, Voyager 2, had lifted off.",
     ["Voyager 1 was launched on 5 September 1977.", "Voyager 1 was launched from Cape Canaveral.",
      "Voyager 1 was launched on a Titan IIIE rocket.",
      "Voyager 1 was launched about two weeks after its twin, Voyager 2, had lifted off.",
      "Cape Canaveral is in Florida."]),
]


def test_clauses_phrases_and_detail_become_claims_of_their_own():
    for sentence, expected in ATOMIC:
        assert decompose_sentence(sentence) == expected, sentence


def test_cuts_that_would_leave_a_fragment_are_not_made():
    # a pronoun subject, a clause too short to check, a participle standing for the whole statement,
    # an adverb that changes what is said
    for sentence in ("She never knew her father, who died in Greece when she was eight.",
                     "Kobe Bryant won two of them after Shaquille O'Neal left.",
                     "The lake covers about 31,500 square kilometres, making it the largest lake in Africa.",
                     "The tower was nearly destroyed in 1909.",
                     "Voyager 1 was launched from Cape Canaveral, Florida.",
                     "Charles Darwin set out his theory in On the Origin of Species, published in 1859."):
        claims = decompose_sentence(sentence)
        assert not any(c.startswith(("She was", "Shaquille", "The lake made", "The tower was destroyed",
                                     "Cape Canaveral was", "Charles Darwin was published"))
                       for c in claims), claims


def test_a_phrasal_verb_keeps_its_own_modifier_and_splits_the_others():
    # "went on the air" is one verb: every claim keeps it; "ran for six seasons" holds a value of its own
    assert decompose_sentence("The station went on the air on 3 March 1986 with a news bulletin.") == [
        "The station went on the air on 3 March 1986.", "The station went on the air with a news bulletin."]
    claims = decompose_sentence("The series ran for six seasons on ABC, from October 2001 to May 2007.")
    assert claims[0].startswith("The series ran for six seasons")
    assert claims[-1] == "The series ran from October 2001 to May 2007."     # one span of time, not two


def test_a_list_of_passive_participles_says_what_was_done_to_the_subject():
    claims = decompose_sentence("The opera was commissioned by the Khedive, composed by Verdi in 1870.")
    assert "The opera was commissioned by the Khedive." in claims
    assert any(c.startswith("The opera was composed by Verdi") for c in claims)
    assert not any(c.startswith("The Khedive was composed") or c.startswith("Khedive") for c in claims)


def test_an_opening_phrase_before_the_subject_is_a_claim_of_its_own():
    claims = decompose_sentence("On 4 July 1884, in front of a large crowd, the statue was handed over.")
    assert "On 4 July 1884 the statue was handed over." in claims
    assert not any("crowd" in c and "1884" in c for c in claims)


def test_it_after_an_opening_phrase_is_the_thing_named_before():
    claims = [c for _, cs in decompose("The Treaty of Paris was a peace treaty. Signed on 3 September 1783 in "
                                       "Paris, it ended the American Revolutionary War.") for c in cs]
    assert any(c.startswith("The Treaty") and "3 September 1783" in c for c in claims)
    assert not any(c.startswith("It ") for c in claims)


def test_an_appositive_with_a_clause_and_a_share_of_the_object_are_cut_off():
    claims = decompose_sentence("The museum was founded by Elias Ashmole, a collector who travelled to France "
                                "and the Netherlands.")
    assert claims[0] == "The museum was founded by Elias Ashmole."
    assert decompose_sentence("The box holds 52 cards, two of them jokers.") == [
        "The box holds 52 cards.", "Two of the cards are jokers."]


def test_an_object_relative_puts_its_noun_after_the_verb():
    claims = decompose_sentence("The film drew on the skyline of Chicago, which the director had visited in 1921.")
    assert claims[0] == "The film drew on the skyline of Chicago."
    assert claims[1].startswith("The director had visited ") and claims[1].endswith("Chicago in 1921.")


def test_phrases_between_commas_are_no_list():
    claims = decompose_sentence("The firm was founded in Leeds, Yorkshire, in 1899, when Ada Hart and her brother "
                                "Tom, working in a shed, built their first loom.")
    assert not any(" in in " in c or c.startswith("The firm was founded in when") for c in claims)
    assert not any(c.startswith("The firm was founded in her brother") for c in claims)


def test_a_pair_described_together_stays_together():
    assert decompose_sentence("The company grew out of a project by Ann Lee and Bo Chan, two students at Yale, "
                              "in the 1990s.") == [
        "The company grew out of a project by Ann Lee and Bo Chan.", "The company grew in the 1990s.",
        "Ann Lee and Bo Chan were two students at Yale."]


def test_a_relative_clause_inside_the_subject_is_cut_unless_it_says_which_one():
    assert decompose_sentence("The engine that the pair ran in 1996 was originally called BackRub.") == [
        "The engine was originally called BackRub.", "The pair ran the engine in 1996."]
    assert decompose_sentence("The team that won the first final was Uruguay.") == [
        "The team that won the first final was Uruguay."]
    # a clause the parse tears ("with" inside, its object outside) is left whole, never "... flying the jet with"
    claims = decompose_sentence("The old jet he was flying with an instructor crashed near Moscow.")
    assert not any(c.endswith(" with.") for c in claims)


def test_an_appositive_after_a_relative_clause_belongs_to_the_clause():
    claims = decompose_sentence("Her first novel was The Sea of Glass, which ran in Die Woche, the weekly "
                                "supplement of a Berlin paper, starting in May 1931.")
    assert "Her first novel was The Sea of Glass." in claims
    assert "The Sea of Glass ran in Die Woche." in claims
    assert not any("Glass the weekly" in c or c.startswith("Glass ") for c in claims)


def test_a_description_the_parser_hangs_on_the_verb_is_said_of_the_noun_before():
    claims = decompose_sentence("The play was written by Ann Vale, then a teacher in her early twenties, whom "
                                "the theatre paid very little.")
    assert claims[0] == "The play was written by Ann Vale."
    assert any(c.startswith("Ann Vale was then a teacher") for c in claims)
    assert decompose_sentence("Over his career he won 31 titles, the most by any man in the sport.")[0] == \
        "Over his career he won 31 titles, the most by any man in the sport."


def test_a_second_predicate_joined_by_and_alone_is_a_claim_with_the_sentences_subject():
    assert decompose_sentence("The abbey became a listed building in 1985 and now draws thousands of pilgrims a "
                              "year.") == ["The abbey became a listed building in 1985.",
                                           "The abbey now draws thousands of pilgrims a year."]
    assert decompose_sentence("She wrote the novel in 1890 and published it two years later.") == [
        "She wrote the novel in 1890.", "She published it two years later."]
    # one act done twice, and a list of predicates, are left to the other rules
    assert decompose_sentence("He bought and sold shares.") == ["He bought and sold shares."]
    listed = decompose_sentence("Chaplin received an honorary Oscar in 1972, was knighted in 1975 and died in 1977.")
    assert all(c.startswith("Chaplin ") for c in listed) and "1977" in " ".join(listed)


def test_a_regnal_numeral_is_part_of_the_name_not_the_pronoun():
    claims = decompose_sentence("Ranked fifth among the peaks of Asia, Lhotse I rises to 8,516 metres above a wide "
                                "glacier basin.")
    assert "Lhotse I was ranked fifth among the peaks of Asia." in claims
    assert all(c.startswith("Lhotse I ") for c in claims)
    assert decompose_sentence("In Paris I met him in 1990.") == ["In Paris I met him in 1990."]


def test_she_is_a_ship_the_text_named_and_no_other_thing():
    ship = [claims for _, claims in decompose(
        "The Thermopylae was a clipper ship built in Aberdeen. Built for the tea trade, she was launched in 1868. "
        "She was sold to Canada in 1890.")]
    assert "The Thermopylae was launched in 1868." in ship[1]
    assert ship[2][0].startswith("The Thermopylae was sold")
    tomb = [claims for _, claims in decompose("The Gur-e-Amir is a mausoleum in Samarkand. She died in 1405.")]
    assert not any("Gur-e-Amir died" in c for c in tomb[1])


def test_after_a_passive_the_second_participle_shares_the_auxiliary():
    claims = [c for _, cs in decompose("The Endeavour was a Royal Navy research vessel. Built in Whitby and launched "
                                       "in 1764, she carried Cook to the Pacific.") for c in cs]
    assert claims[1:] == ["The Endeavour carried Cook to the Pacific.", "The Endeavour was built in Whitby.",
                          "The Endeavour was launched in 1764."]


def test_a_description_after_a_name_and_a_clause_after_both_are_said_of_the_name():
    # the parser reads the description as a second complement of "was", and hangs "which" on its last noun
    claims = decompose_sentence("The band's first single was Love Me Do, a song about a young couple in a "
                                "northern city, which reached the charts in October 1962.")
    assert claims == ["The band's first single was Love Me Do.",
                      "Love Me Do was a song about a young couple in a northern city.",
                      "Love Me Do reached the charts in October 1962."]
    # an opening adverb before its comma is no name
    claims = decompose_sentence("Curiously, the left lung stops growing when the whale dives, which is one reason "
                                "these animals surface slowly.")
    assert not any(c.startswith("Curiously is") for c in claims), claims
