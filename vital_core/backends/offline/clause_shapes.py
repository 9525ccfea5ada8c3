"""The clause-sized pieces a claim's parse can cut off, one function per shape.

Each shape takes the claim's parse, a token and the token's subtree, and returns the tokens to cut off the
main claim (with their commas) and the claims they give, or None: a subordinate clause with its own
subject, a relative clause on a name, a participle phrase, an appositive, a share of the object ("two of
them blank"), a second predicate, a place with its region. ``clause_cuts`` tries them in ``SHAPES``'s order.
"""
from __future__ import annotations

from vital_core.backends.offline.language.claim_parse import (
    ClaimParse,
    be_form,
    between,
    finite_verb,
    lower_first,
    measured_from,
    measures,
    near_of,
    noun_before,
    noun_phrase,
    one_of,
    with_commas,
)
from vital_core.backends.offline.language.lexicon import (
    CLEAR_SUBORDINATORS,
    PLACE_HEADS,
    SENTENTIAL_ADJECTIVES,
    SENTENTIAL_VERBS,
    SUBORDINATORS,
    past_not_participle,
    place_kind,
    shares_passive,
)
from vital_core.backends.offline.language.nlp import Tok

SUBJECT_DEPS = ("nsubj", "nsubjpass")
MIN_CLAUSE_WORDS = 4     # a cut-off clause with fewer words is too little to check on its own


def _subject(parse: ClaimParse) -> Tok | None:
    subj = parse.child(parse.root.i, *SUBJECT_DEPS)
    if subj is None or subj.pos == "PRON" or subj.pos == "DET":
        return None
    subjects = [parse.toks[c] for c in parse.children[parse.root.i] if parse.toks[c].dep in SUBJECT_DEPS]
    if len(subjects) > 1 and subjects[-1].pos == "PRON":
        return None     # "Born Kal-El on ... Krypton, he was sent ...": an opening phrase misread as a subject
    return subj


def enough(text: str) -> bool:
    return len(text.split()) >= MIN_CLAUSE_WORDS - 1


Cut = tuple[set[int], list[str]]    # the tokens cut off the main claim (with their commas), the claims they give


def _subordinate(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A subordinate clause with its own named subject: "..., when East German authorities opened ..."."""
    first = parse.toks[min(span)]
    if t.dep not in ("advcl", "relcl") or first.lemma not in SUBORDINATORS or first.i == t.i:
        return None
    head = parse.toks[t.head]
    if head.i != parse.root.i and head.pos not in ("NOUN", "PROPN", "NUM"):
        return None      # hangs on a word the parser misread ("... broke into the pits" read as an adjective)
    if measured_from(parse, first.i):
        return None
    own = parse.child(t.i, *SUBJECT_DEPS)
    span = span | _second_clause_of(parse, span)
    body = span - {first.i}
    if own is None or own.pos == "DET" or len(body) < MIN_CLAUSE_WORDS:
        return None
    stands_for = ""
    if own.pos == "PRON":
        stands_for = _pronoun_antecedent(parse, own)
        if not stands_for:
            return None
    if parse.comma_before(span) is None and min(span) != 0 and first.lemma not in CLEAR_SUBORDINATORS:
        return None      # "won two of them after Shaquille O'Neal left": one statement
    if any(parse.toks[i].lemma in SUBORDINATORS and parse.toks[i].dep == "mark" and i != first.i for i in body):
        return None
    text = parse.words(body)
    if stands_for:      # "..., where it has its own place" -> "The painting has its own place"
        text = parse.words({i for i in body if i < own.i}) + f" {stands_for} " + parse.words(
            {i for i in body if i > own.i})
    return with_commas(parse, span), [text.strip()]


def _second_clause_of(parse: ClaimParse, span: set[int]) -> set[int]:
    """"..., when explosions were heard far away and flows of ash swept down to the sea": the parser ends the
    clause at its "and" and makes the second clause the main verb's; "when" governs both."""
    end = max(span)
    # the "and" (or the second subject, "... across the town and boats were thrown ...") went with the clause
    if not any(parse.toks[i].dep in ("cc", "conj") for i in span if i > end - 3):
        return set()
    for verb in parse.children[parse.root.i]:
        tok = parse.toks[verb]
        if tok.dep == "conj" and tok.pos == "VERB" and min(parse.subtree(verb)) == end + 1:
            return parse.subtree(verb)
    return set()


def _pronoun_antecedent(parse: ClaimParse, pronoun: Tok) -> str:
    """The main subject a subordinate clause's "it"/"they" stands for, when it agrees in number and is
    a thing, not a person; "" otherwise ("when she was eight": who she is stays unsaid)."""
    subject = _subject(parse)
    if subject is None or pronoun.text.lower() not in ("it", "they"):
        return ""
    if (pronoun.text.lower() == "they") != parse.plural(subject) or subject.pos == "PROPN" \
            and pronoun.text.lower() == "it" and parse.child(subject.i, "det") is None:
        return ""       # ("Jane Austen wrote Emma when it ...": "it" is no person)
    return noun_phrase(parse, subject, set())


def _relative_on_subject(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A relative clause inside the subject: "The search engine that the pair ran in 1996 was called BackRub"
    -> "The search engine was called BackRub" and "The pair ran the search engine in 1996"."""
    subject = _subject(parse)
    # not in "The team that won the final was Uruguay": there the clause says which team, the claim's point
    if t.dep != "relcl" or subject is None or t.head != subject.i or subject.pos != "NOUN" \
            or parse.root.lemma == "be" \
            or max(span) >= parse.root.i or len(span) < MIN_CLAUSE_WORDS - 1:
        return None
    # whole, and ending where the main verb's phrase begins: otherwise the parse has torn it ("the jet he was
    # flying with an instructor crashed": "with" in the clause, its object outside)
    nxt = parse.toks[max(span) + 1]
    if max(span) - min(span) + 1 != len(span) or parse.toks[max(span)].pos == "ADP" \
            or not (nxt.i == parse.root.i or nxt.head == parse.root.i and nxt.dep in ("aux", "auxpass", "neg",
                                                                               "advmod")):
        return None
    first = parse.toks[min(span)]
    own = parse.child(t.i, *SUBJECT_DEPS)
    noun = noun_phrase(parse, subject, span)
    if first.lemma in ("who", "which", "that") and first.dep in SUBJECT_DEPS:
        said = f"{noun} {parse.words(span - {first.i})}"           # "the man who won the race"
    elif own is not None and own.pos in ("PRON", "PROPN", "NOUN") and own.i < t.i:
        # "that the pair ran on Stanford's servers": the noun is the object, after the verb
        rest = span - ({first.i} if first.lemma in ("which", "that", "whom") else set())
        before, after = {i for i in rest if i <= t.i}, {i for i in rest if i > t.i}
        said = " ".join(p for p in (parse.words(before), noun[:1].lower() + noun[1:] if noun.split()[0] in
                                    ("The", "A", "An") else noun, parse.words(after)) if p)
    else:
        return None
    return span, [said[:1].upper() + said[1:]]


def _relative_of_name(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """"Alfred Nobel who patented it in 1867": a relative clause on a name adds a fact, comma or not."""
    first = parse.toks[min(span)]
    head = parse.toks[t.head]
    if t.dep != "relcl" or head.pos != "PROPN" or first.lemma not in ("who", "which") \
            or first.dep not in SUBJECT_DEPS or len(span) < MIN_CLAUSE_WORDS:
        return None
    return with_commas(parse, span), [f"{noun_phrase(parse, head, span)} {parse.words(span - {first.i})}"]


def _relative_inside(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A relative clause set off by a comma whose pronoun sits inside it: "102 passengers, about a third of
    whom were separatists" -> "About a third of the passengers were separatists"; "Dr. No, in which Sean
    Connery played the agent" -> "Sean Connery played the agent in Dr. No"."""
    head = parse.toks[t.head]
    if t.dep in ("advcl", "conj") and parse.comma_before(span) is not None:
        # the parser hangs "..., about a third of whom were ..." on the verb: its noun ends before the comma
        head = noun_before(parse, min(span) - 1) or head
    elif t.dep != "relcl":
        return None
    if head.pos not in ("NOUN", "PROPN") or parse.comma_before(span) is None or len(span) < MIN_CLAUSE_WORDS:
        return None
    pronoun = next((parse.toks[i] for i in sorted(span) if parse.toks[i].lemma in ("whom", "which", "who")
                    and parse.toks[i].dep == "pobj"), None)
    if pronoun is None:
        return None
    noun = noun_phrase(parse, head, span) if head.pos == "PROPN" else f"the {head.text}"
    prep = parse.toks[pronoun.head]
    if prep.i == min(span):     # "in which ..." -> "... in Dr. No"
        return with_commas(parse, span), [f"{parse.words(span - {prep.i, pronoun.i})} {prep.text} {noun}"]
    before = parse.words({i for i in span if i < pronoun.i})
    after = parse.words({i for i in span if i > pronoun.i})
    return with_commas(parse, span), [f"{before} {noun} {after}".strip()]


def _participle(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A participle phrase on the main verb, set off by a comma: the subject did it too; an adjective phrase
    opening the sentence says what the subject is ("Famous for its clock, the tower ...")."""
    root, subject = parse.root, _subject(parse)
    adjective = t.tag == "JJ" and min(span) == 0 and parse.child(t.i, "prep") is not None \
        and t.lemma not in SENTENTIAL_ADJECTIVES
    if t.dep != "advcl" or t.head != root.i or t.tag not in ("VBG", "VBN") and not adjective \
            or any(i < t.i and not (parse.toks[i].dep == "advmod" and parse.toks[i].head == t.i) for i in span) \
            or subject is None or t.lemma in SENTENTIAL_VERBS or parse.child(t.i, *SUBJECT_DEPS, "mark") is not None \
            or not (parse.set_off(span) or min(span) == 0 and parse.comma_after(span) is not None) \
            or len(span) < MIN_CLAUSE_WORDS - 1:
        return None
    if t.tag == "VBN" and min(span) > root.i:
        # "... belongs to Usain Bolt of Jamaica, widely regarded as the greatest sprinter": the participle
        # says something of the noun just before its comma, not of the subject
        noun = noun_before(parse, min(span) - 1)
        if noun is None:
            return None
        if parse.child(noun.i, "nummod") is not None:
            noun = subject      # "is set at 2.43 metres, measured at the centre": a measure is no one's subject
        return with_commas(parse, span), [f"{noun_phrase(parse, noun, span)} {be_form(parse, noun, parse.past(root))} "
                                           f"{parse.words(span)}"]
    noun = noun_phrase(parse, subject, span)
    if t.tag == "VBN" or adjective:   # "Built in 1481, the chapel is ...": built then; "Equal to 220 yards, ..."
        said = f"{be_form(parse, subject, not adjective or parse.past(root))} {lower_first(parse, span)}"
    else:                # "..., separating families" -> "The wall separated families"
        said = " ".join([finite_verb(t, parse.past(root), parse.plural(subject)), parse.words(span - {t.i})]).strip()
    return with_commas(parse, span), [f"{noun} {said}"]


def _making(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """"..., making it the second deepest lake on Earth": what the subject thereby is, said of it -> "The lake
    is the second deepest lake on Earth". Only a noun ("making it possible to cross" says no more of the
    subject)."""
    subject = _subject(parse)
    said = next((parse.toks[c] for c in parse.children[t.i] if parse.toks[c].dep in ("ccomp", "oprd")), None)
    pronoun = parse.child(said.i, "nsubj") if said is not None else None
    if t.dep != "advcl" or t.lemma != "make" or t.tag != "VBG" or t.head != parse.root.i or subject is None \
            or said is None or said.pos != "NOUN" or pronoun is None \
            or pronoun.text.lower() not in ("it", "him", "her", "them") or not parse.set_off(span):
        return None
    return with_commas(parse, span), [f"{noun_phrase(parse, subject, span)} "
                                       f"{be_form(parse, subject, parse.past(parse.root))} "
                                       f"{parse.words(parse.subtree(said.i) - {pronoun.i})}"]


def _participle_of_noun(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A past participle set off by commas after a noun: "Pluto, found in 1930, is ..."."""
    if t.dep != "acl" or t.tag != "VBN" or min(span) != t.i or not parse.set_off(span) \
            or parse.toks[t.head].pos not in ("PROPN", "NOUN") or len(span) < MIN_CLAUSE_WORDS - 1:
        return None
    head = parse.toks[t.head]
    subject = parse.child(parse.root.i, *SUBJECT_DEPS)
    opening = next((k for k in parse.toks if k.dep == "advcl" and k.head == parse.root.i and k.i == 0), None)
    passive_mods = [c for c in parse.children[parse.root.i] if parse.toks[c].dep in ("agent", "prep")] \
        if parse.child(parse.root.i, "auxpass") is not None else []
    if subject is not None and parse.child(t.i, "agent") is not None and (
            any(t.head in parse.subtree(c) for c in passive_mods)
            or opening is not None and t.head in parse.subtree(opening.i)):
        # "It was produced by A and B, directed by C" and "Produced by A at great cost, directed by C, the film
        # ...": a list of what was done to the subject, not to B or to the cost
        head = subject
    return with_commas(parse, span), [f"{noun_phrase(parse, head, span)} {be_form(parse, head, True)} "
                                       f"{parse.words(span)}"]


def _place_in_region(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A place with its region or country: "born in Tupelo, Mississippi" -> "... born in Tupelo" and
    "Tupelo is in Mississippi"; "hangs in the Rijksmuseum in Amsterdam" -> "... in the Rijksmuseum" and
    "The Rijksmuseum is in Amsterdam". Only a region the lexicon knows as a place."""
    head = parse.toks[t.head]
    if head.pos != "PROPN" or parse.child(head.i, "conj") is not None or head.dep not in ("pobj", "dobj", "attr"):
        return None
    if t.dep == "appos" and t.pos == "PROPN" and parse.child(t.i, "det") is None and parse.set_off(span):
        region = parse.words(span)
    elif t.dep == "prep" and t.lemma == "in" and min(span) == t.i and max(span) == max(parse.subtree(head.i)) \
            and near_of(parse, head) is None:     # (the region of a place the subject lies near is its own too)
        region = parse.words(span - {t.i})
    else:
        return None
    # a region the lexicon knows or a named one ("the Chryse Planitia region"); after "was", only a named one
    words = region.split()
    named = words[-1] in PLACE_HEADS and any(w[:1].isupper() for w in words[:-1])
    if not named and (head.dep == "attr" or not place_kind(region)):
        return None
    place = noun_phrase(parse, head, span)
    return with_commas(parse, span), [f"{place[:1].upper() + place[1:]} is in {region}"]


def _appositive(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """An appositive of a name: "Marie Curie, a Polish physicist, won ..."."""
    head = parse.toks[t.head]
    # "Each face is 60 feet tall, roughly the height of a six-storey building": the parser hangs a description
    # at the end on the subject; and a name may say what a description is ("Its highest point, Maclear's Beacon
    # at the eastern end of the plateau, rises ...")
    of_subject = head.pos == "NOUN" and head.dep in SUBJECT_DEPS and head.head == parse.root.i
    det = parse.child(t.i, "det")      # ... or a definite noun ("Its unit, the candela, has the symbol cd")
    naming = of_subject and (t.pos == "PROPN" or t.pos == "NOUN" and det is not None and det.lemma == "the")
    # but "a ..." right after a noun describes that noun ("comes from oil of bergamot, a small sour orange"):
    # ``descriptions.described_value`` cuts it
    if of_subject and not naming and det is not None and det.lemma in ("a", "an") \
            and noun_before(parse, min(span) - 1) is not None:
        return None
    if t.dep != "appos" or head.pos != "PROPN" and not (of_subject and t.i > parse.root.i or naming) \
            or t.tag == "NNS" and t.text.endswith("s") and not parse.plural(head) \
            or not (t.pos == "NOUN" or t.pos == "PROPN" and (parse.child(t.i, "det") is not None or naming)
                    or one_of(parse, t)) \
            or not parse.set_off(span) or len(span) < 2 or head.dep == "conj" \
            or parse.child(head.i, "conj") is not None \
            or any(parse.toks[i].text in ("and", "or") for i in range(head.i, min(span))) \
            or any(parse.toks[i].dep == "conj" and parse.toks[i].pos == "PROPN" and not between(parse, parse.toks[i])
                   for i in span - _clauses_in(parse, t)):
        return None      # ("Cape Canaveral, Florida" is a place in its region; a list of people with their
                         # appositives is one the parser often misreads)
    return with_commas(parse, span), [f"{noun_phrase(parse, head, span)} "
                                       f"{be_form(parse, head, parse.past(parse.root))} {parse.words(span)}"]


def _appositive_of_pair(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A plural appositive after two names joined by "and": "... by the writer Jerry Siegel and the artist
    Joe Shuster, two friends from Cleveland who ..." -> "... by the writer Jerry Siegel and the artist Joe
    Shuster" and "The writer Jerry Siegel and the artist Joe Shuster were two friends from Cleveland who ...".
    The parser hangs it on the second name or on the subject; it describes both."""
    if t.dep != "appos" or t.tag != "NNS" or not parse.set_off(span) or min(span) < 2:
        return None
    second = parse.toks[min(span) - 2]      # the word before the comma
    while second.dep in ("appos", "compound") and second.head != second.i:
        second = parse.toks[second.head]    # "the artist Joe Shuster": the name is its title's appositive
    first = parse.toks[second.head]
    if second.dep != "conj" or first.pos not in ("PROPN", "NOUN") or second.i < first.i:
        return None
    cc = parse.child(first.i, "cc")
    pair = parse.subtree(first.i) - with_commas(parse, span)
    if cc is None or cc.lemma != "and" or max(pair) != min(span) - 2 \
            or not any(parse.toks[i].pos == "PROPN" for i in parse.subtree(second.i) - span) \
            or parse.toks[min(pair)].dep == "poss":
        return None
    names = parse.words(pair)
    return with_commas(parse, span), [f"{names[:1].upper() + names[1:]} "
                                       f"{be_form(parse, first, parse.past(parse.root))} {parse.words(span)}"]


def _clauses_in(parse: ClaimParse, t: Tok) -> set[int]:
    """The tokens of the clauses hanging on ``t`` ("an engineer *who toured Europe and the United States*")."""
    return set().union(*(parse.subtree(c) for c in parse.children[t.i] if parse.toks[c].dep in ("relcl", "acl")))


def _absolute(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A share of the object said after a comma: "... contains 100 tiles, two of them blank" -> "... contains
    100 tiles" and "Two of the tiles are blank"."""
    root = parse.root
    span = {i for i in span if parse.toks[i].pos != "PUNCT"}   # the parser may hang the comma on the phrase
    part = parse.child(t.i, "nsubj")
    of = parse.child(part.i, "prep") if part is not None else None
    them = parse.child(of.i, "pobj") if of is not None else None
    obj = parse.child(root.i, "dobj", "attr")
    if t.dep not in ("advcl", "acl", "ccomp", "appos") or part is None or part.i != min(span) or them is None \
            or them.text.lower() not in ("them", "which") or obj is None or obj.i > t.i \
            or parse.comma_before(span) is None or not parse.set_off(span):
        return None
    things = " ".join(parse.toks[c].text for c in parse.children[obj.i] if parse.toks[c].dep == "compound")
    rest = span - parse.subtree(part.i)
    verb = ("were" if parse.past(root) else "are") if part.lemma != "one" else ("was" if parse.past(root) else "is")
    return with_commas(parse, span), [f"{part.text[:1].upper() + part.text[1:]} of the "
                                       f"{(things + ' ' + obj.text).strip()} {verb} {parse.words(rest)}"]


def _loose_description(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A description after a comma that the parser hangs on the verb: "directed by Francis Ford Coppola, then
    a filmmaker in his thirties" -> "Francis Ford Coppola was then a filmmaker in his thirties". Not a
    ranking ("won 23 titles, the most by any woman"): it says how the object compares, and stays with it."""
    span = {i for i in span if parse.toks[i].pos != "PUNCT"}
    if t.dep != "npadvmod" or t.head != parse.root.i or t.i < parse.root.i or measures(parse, t) \
            or any(parse.toks[i].tag in ("JJS", "RBS") for i in span) \
            or parse.comma_before(span) is None or len(span) < MIN_CLAUSE_WORDS - 1:
        return None
    noun = noun_before(parse, min(span) - 1)
    if noun is None:
        return None
    said = f"{be_form(parse, noun, parse.past(parse.root))} {parse.words(span)}"
    return with_commas(parse, span), [f"{noun_phrase(parse, noun, span)} {said}"]


def _second_predicate(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A second predicate of the same subject: "... won the prize and became the first woman ..."."""
    root, subject = parse.root, _subject(parse)
    if t.dep != "conj" or t.head != root.i or t.pos not in ("VERB", "AUX") or subject is None \
            or parse.child(t.i, *SUBJECT_DEPS, "expl") is not None or t.i < root.i \
            or len(span) < MIN_CLAUSE_WORDS - 1:
        return None
    cc = parse.child(root.i, "cc")
    if cc is None or not root.i < cc.i < t.i or cc.lemma not in ("and", "but"):
        return None
    aux = ""
    # "was built in Portsmouth and launched in 1511": after a passive, the tagger's past tense is the participle,
    # unless the form is only ever a simple past ("was released ... and quickly became ...")
    passive = t.tag == "VBD" and parse.child(root.i, "auxpass") is not None \
        and not past_not_participle(t.lemma, t.text.lower()) \
        and shares_passive(t.lemma, parse.child(t.i, "dobj") is not None)
    participle = t.tag == "VBG" or t.tag == "VBN" and not past_not_participle(t.lemma, t.text.lower())
    if (participle or passive) and parse.child(t.i, "aux", "auxpass") is None:
        aux = " ".join(parse.toks[c].text for c in parse.children[root.i]
                       if parse.toks[c].dep in ("aux", "auxpass", "neg"))
        if not aux:
            return None    # "won the prize and called ...": no auxiliary to share, so no safe tense
    elif t.tag == "VBD" and _after_described_participle(parse) and parse.child(t.i, "dobj") is None \
            and not past_not_participle(t.lemma, t.text.lower()):
        aux = root.text    # "was an iron steamship designed by Brunel and built on the Thames": "was built"
    cut = span | {cc.i} | ({cc.i - 1} if parse.toks[cc.i - 1].text == "," else set())
    return cut, [" ".join(p for p in (noun_phrase(parse, subject, cut), aux, parse.words(span)) if p)]


def _after_described_participle(parse: ClaimParse) -> bool:
    """Is the main verb a copula whose complement has a passive participle ("was a steamship designed by ...")?"""
    root = parse.root
    return root.lemma == "be" and any(
        parse.toks[c].dep == "attr" and any(parse.toks[a].dep == "acl" and parse.toks[a].tag == "VBN"
                                            for a in parse.children[c]) for c in parse.children[root.i])


# Tried in this order over every token: the clause-sized pieces first, so that an appositive inside a
# subordinate clause goes with its clause.
# a restrictive relative clause sits between its subject and verb without commas ("the engine that they ran
# was called ..."); every other piece there must be set off by commas
UNMARKED_INSIDE_SUBJECT = (_relative_on_subject,)
SHAPES = (_subordinate, _relative_of_name, _relative_on_subject, _relative_inside, _making, _participle,
          _participle_of_noun, _second_predicate, _absolute, _loose_description, _place_in_region, _appositive_of_pair,
          _appositive)
