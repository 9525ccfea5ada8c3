"""Descriptions said beside a name without a clause of their own, cut off as claims of their own.

* a role before a person's full name: "written by the Scottish author Robert Louis Stevenson" -> "written by
  Robert Louis Stevenson" and "Robert Louis Stevenson was a Scottish author";
* a place set off after the subject: "Crater Lake, in the Cascade Range of southern Oregon, reaches ..." ->
  "Crater Lake reaches ..." and "Crater Lake is in the Cascade Range of southern Oregon";
* what the subject has, set off after it: "The prototype, with the serial number K5054, flew ..." -> "The
  prototype flew ..." and "The prototype had the serial number K5054";
* an indefinite description set off at the end ("was called twttr, a name written without vowels");
* a second complement of "is" after a comma ("is 11.1 centimetres tall, small enough to hold in one hand");
* a second subject of a "be" of place ("Its headquarters and main factory are in Maranello");
* the region of a place the subject lies near ("lies near the town of Santillana del Mar in Cantabria");
* what a named person, described after "is", did or does ("was a French composer who also wrote ...");
* a description after the complement of "is", said of the subject ("is a board game, one of a family of ...");
* what is a name's, after "whose" ("Robert Oppenheimer, whose team built ...").

Evidence that states the relation names the person or the subject, seldom the description too; left in,
the description sinks the claim ("the evidence does not mention Scottish"). ``clause_cuts`` tries these after
``clause_shapes.SHAPES``.
"""
from __future__ import annotations

from vital_core.backends.offline.clause_shapes import SUBJECT_DEPS, Cut
from vital_core.backends.offline.language.claim_parse import (
    ClaimParse,
    be_form,
    near_of,
    noun_before,
    noun_phrase,
    with_commas,
)
from vital_core.backends.offline.language.lexicon import LOCATIVE, MONTHS, TITLE_NOUNS
from vital_core.backends.offline.language.nlp import Tok, analyse

_ROLE_WORDS = {"det", "amod", "compound", "advmod", "nmod", "npadvmod"}
# a person's role by its ending ("author", "programmer", "artist", "physician") or one of a few others; not
# "the first official Ryder Cup"
_AGENT_ENDINGS = ("er", "or", "ist", "ian", "ant", "ent")
_OTHER_ROLES = {"poet", "monk", "nun", "priest", "king", "queen", "chef", "pilot", "saint", "bishop", "judge"}


def _a_role(noun: Tok) -> bool:
    return noun.lemma.endswith(_AGENT_ENDINGS) and len(noun.lemma) > 4 or noun.lemma in _OTHER_ROLES


def _full_name_after(parse: ClaimParse, i: int) -> tuple[Tok, int] | None:
    """The head of a name of two or more capitalised proper nouns starting at ``i``, and where it ends."""
    end = i
    while end < len(parse.toks) and parse.toks[end].pos == "PROPN" and parse.toks[end].text[:1].isupper():
        end += 1
    heads = [k for k in range(i, end) if not i <= parse.toks[k].head < end]
    return (parse.toks[heads[0]], end) if end - i >= 2 and len(heads) == 1 else None


def title_before_name(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A role noun right before a person's full name: the parser makes the name the role's appositive ("the
    author Robert Louis Stevenson") or the role the name's compound ("the racing driver Enzo Ferrari"). Not a
    work's kind ("the novel Pride and Prejudice"), a possessor's relative ("their father Richard Williams")
    or one of a pair ("the writer Jerry Siegel and the artist Joe Shuster")."""
    if t.pos != "NOUN" or not t.text.islower() or t.lemma in TITLE_NOUNS or t.text in TITLE_NOUNS or not _a_role(t):
        return None
    found = _full_name_after(parse, t.i + 1)
    name = found[0] if found else None
    if name is None or not (name.dep == "appos" and name.head == t.i or t.dep == "compound" and t.head == name.i):
        return None
    pair = {parse.toks[c].dep for c in parse.children[name.i] + parse.children[t.i]} & {"conj", "cc"}
    if pair or "conj" in (name.dep, t.dep):
        return None
    start = t.i
    while start > 0 and parse.toks[start - 1].dep in _ROLE_WORDS and parse.toks[start - 1].text[:1] not in ",;":
        start -= 1
    first = parse.toks[start]
    before = parse.toks[start - 1] if start > 0 else None
    if before is not None and (before.dep == "poss" or before.text.lower() in ("and", "or")) \
            or first.pos == "DET" and first.lemma not in ("the", "a", "an") or first.pos == "PRON" \
            or start == t.i and first.pos != "NOUN":
        return None
    role = [parse.toks[k].text for k in range(start, t.i + 1) if parse.toks[k].pos != "DET"]
    article = "an" if role[0][:1].lower() in "aeiou" else "a"
    person = parse.words(set(range(t.i + 1, found[1])))
    said = f"{person} {be_form(parse, name, parse.past(parse.root))} {article} {' '.join(role)}"
    return set(range(start, t.i + 1)), [said]


def had_by_subject(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """What the subject has, set off by commas right after it: "The prototype, with the serial number K5054,
    flew ..." -> "The prototype flew ..." and "The prototype had the serial number K5054"."""
    subject = parse.toks[t.head]
    if t.dep != "prep" or t.lemma != "with" or subject.dep not in SUBJECT_DEPS or subject.head != parse.root.i \
            or subject.pos not in ("NOUN", "PROPN") or not subject.i < t.i < parse.root.i \
            or parse.comma_before(span) != t.i - 1 or parse.comma_after(span) is None \
            or parse.child(t.i, "pobj") is None:
        return None
    cut = with_commas(parse, span)
    verb = "had" if parse.past(parse.root) else ("have" if parse.plural(subject) else "has")
    return cut, [f"{noun_phrase(parse, subject, cut)} {verb} {parse.words(span - {t.i})}"]


def place_of_subject(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A place set off by commas right after the subject: "Crater Lake, in the Cascade Range of southern
    Oregon, reaches ..." -> "Crater Lake is in the Cascade Range of southern Oregon". Not a time ("The
    treaty, in 1803, was ...")."""
    subject = parse.toks[t.head]
    if subject.text == "," and subject.i > 0:
        subject = parse.toks[subject.i - 1]     # the parser may hang the place on the comma after the subject
        while subject.dep == "compound" and subject.head > subject.i:
            subject = parse.toks[subject.head]
    if t.dep != "prep" or t.lemma not in LOCATIVE or subject.dep not in SUBJECT_DEPS \
            or subject.head != parse.root.i or subject.pos not in ("NOUN", "PROPN") \
            or not subject.i < t.i < parse.root.i or parse.comma_before(span) is None \
            or parse.comma_after(span) is None or parse.comma_before(span) != t.i - 1:
        return None
    if any(parse.toks[k].pos == "NUM" or parse.toks[k].lemma in MONTHS for k in span):
        return None
    cut = with_commas(parse, span)
    said = f"{noun_phrase(parse, subject, cut)} {be_form(parse, subject, False)} {parse.words(span)}"
    return cut, [said]


def _one_of(parse: ClaimParse, t: Tok, span: set[int]) -> bool:
    """"one of a family of tables games" (not "one of whom")."""
    prep = parse.child(t.i, "prep")
    return t.i == min(span) and t.lemma == "one" and prep is not None and prep.lemma == "of" \
        and not any(parse.toks[c].lemma in ("whom", "which") for c in parse.children[prep.i])


def _a_description(parse: ClaimParse, t: Tok, span: set[int]) -> bool:
    det = parse.indefinite(t.i)
    return t.pos == "NOUN" and det is not None and det.i == min(span)


def _complement_described(parse: ClaimParse, t: Tok, span: set[int]) -> Tok | None:
    """The subject of "X is a Y, a Z ..." when the description follows the common-noun complement Y, or of
    "X is a Y ..., one of the Zs" wherever the parser hangs it: X is then a Z too ("The Berlin Wall was a
    guarded barrier, a symbol of the Cold War"; "Backgammon is a board game of luck and skill, one of a
    family of tables games"). Not after a name ("The first release was Castle in the Sky, an adventure ..."),
    nor after another noun ("a film based on a novel about the Corleone family, a Mafia dynasty")."""
    root = parse.root
    subject = parse.child(root.i, *SUBJECT_DEPS)
    attr = parse.child(root.i, "attr")
    if root.lemma != "be" or subject is None or subject.pos not in ("NOUN", "PROPN") or attr is None \
            or attr.i >= t.i or attr.pos == "PROPN" \
            or t.i not in parse.subtree(attr.i) and not (t.dep == "attr" and t.head == root.i):
        return None
    if _one_of(parse, t, span):
        return subject
    # after a word that closes the complement ("bog bodies ever found, a man ..."), not after a number or a
    # sign the parser could not place ("appeared in Action Comics #1, an issue dated ...")
    before, closing = noun_before(parse, min(span) - 1), parse.toks[min(span) - 2]
    ends = before.i == attr.i if before is not None else closing.pos in ("VERB", "ADJ", "ADV")
    return subject if _a_description(parse, t, span) and ends else None


def described_value(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """An indefinite description set off at the end after what the claim names: "was called twttr, a name
    written without vowels" -> "twttr was a name written without vowels"; "covers 82,100 square kilometres,
    an area roughly the size of Austria". A definite one ("23 titles, the most by any woman") compares, and
    stays. After the complement of "is", it describes the subject ("Backgammon is a board game, one of a
    family of tables games" -> "Backgammon is one of a family of tables games")."""
    # the parser may read it as a second complement of "was" ("The first release was Castle in the Sky, an
    # adventure about ...")
    first = parse.child(t.head, "attr")
    second = t.dep == "attr" and t.head == parse.root.i and first is not None and first.i < t.i
    if t.dep != "appos" and not second or not parse.set_off(span) or parse.comma_before(span) != min(span) - 1 \
            or parse.child(parse.root.i, "expl") is not None:     # "There are eight planets, a fact ..."
        return None
    subject = _complement_described(parse, t, span)
    if subject is not None:
        cut = with_commas(parse, span)
        return cut, [f"{noun_phrase(parse, subject, cut)} {be_form(parse, subject, parse.past(parse.root))} "
                     f"{parse.words(span)}"]
    # it describes the noun right before its comma, wherever the parser hangs it ("... and for sfumato, a soft
    # blending" on the subject, "by the Buggles, a British duo" on the verb)
    if not _a_description(parse, t, span):
        return None
    before = noun_before(parse, min(span) - 1)
    head = before or parse.toks[t.head]
    if head.i >= t.i or before is None and head.i != min(span) - 2:
        return None
    # a measure is one thing ("82,100 square kilometres is an area ...")
    verb = ("was" if parse.past(parse.root) else "is") if parse.child(head.i, "nummod") is not None \
        else be_form(parse, head, parse.past(parse.root))
    return with_commas(parse, span), [f"{noun_phrase(parse, head, span)} {verb} {parse.words(span)}"]


def second_complement(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A second complement of "is" after a comma: "The figure is only 11.1 centimetres tall, small enough to
    hold in one hand" -> "The figure is small enough to hold in one hand"."""
    root = parse.root
    subject = parse.child(root.i, *SUBJECT_DEPS)
    first = parse.child(root.i, "acomp", "attr")
    body = {i for i in span if parse.toks[i].pos != "PUNCT"}
    if t.dep != "acomp" or t.head != root.i or root.lemma != "be" or subject is None or subject.pos == "PRON" \
            or first is None or first.i >= t.i or not body or parse.toks[min(body) - 1].text != ",":
        return None
    cut = with_commas(parse, span) | {min(body) - 1}
    return cut, [f"{noun_phrase(parse, subject, cut)} {root.text} {parse.words(body)}"]


def shared_place(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A second subject of a "be" of place: "Its headquarters and main factory are in Maranello" -> "Its
    headquarters are in Maranello" and "Its main factory is in Maranello". Only after a plural first subject
    (the verb stays right for it) and for a place ("X and Y met in 1990" did it together)."""
    root, subject = parse.root, parse.toks[t.head]
    if t.dep != "conj" or subject.dep not in SUBJECT_DEPS or subject.head != root.i or root.lemma != "be" \
            or not (subject.tag in ("NNS", "NNPS") or subject.lemma.endswith("s")) or t.pos != "NOUN" \
            or parse.child(t.i, "conj", "cc") is not None \
            or parse.child(root.i, "attr", "acomp", "auxpass", "aux") is not None \
            or not any(parse.toks[c].dep == "prep" and parse.toks[c].lemma in LOCATIVE for c in parse.children[root.i]):
        return None
    cc = parse.child(subject.i, "cc")
    if cc is None or not cc.i < t.i:
        return None
    owner = parse.child(subject.i, "poss", "det")
    second = parse.words(span)
    if owner is not None and parse.child(t.i, "poss", "det") is None:
        second = f"{owner.text} {second}"
    rest = parse.words({k.i for k in parse.toks if k.i > root.i})
    return span | {cc.i}, [f"{second[:1].upper() + second[1:]} {be_form(parse, t, parse.past(root))} {rest}"]


_LYING = {"lie", "be", "stand", "sit"}


def near_place_in_region(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """The region of a place the subject lies near is the subject's too: "The cave lies near the town of
    Santillana del Mar in Cantabria" -> "The cave lies near the town of Santillana del Mar", "The cave lies in
    Cantabria" and "Santillana del Mar is in Cantabria"."""
    root, subject = parse.root, parse.child(parse.root.i, *SUBJECT_DEPS)
    place = parse.toks[t.head]
    if t.dep != "prep" or t.lemma != "in" or place.pos not in ("PROPN", "NOUN") or root.lemma not in _LYING \
            or subject is None or subject.pos == "PRON" \
            or any(parse.toks[k].pos not in ("PROPN", "ADP", "DET") for k in span):
        return None
    near = near_of(parse, place)
    if near is None or max(span) != max(parse.subtree(near.i)):
        return None     # (the region ends the phrase of the place the subject lies near)
    region = parse.words(span - {t.i})
    town = noun_phrase(parse, place, span)
    rest = {k.i for k in parse.toks if k.i not in span and (k.i <= root.i or k.i in parse.subtree(subject.i))}
    return span, [f"{parse.words(rest - {k.i for k in parse.toks if k.pos == 'PUNCT'})} in {region}",
                  f"{town[:1].upper() + town[1:]} is in {region}"]


def done_to_subject(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A participle on what a named subject is: "Live Aid was a pair of benefit concerts held on 13 July 1985"
    -> "Live Aid was a pair of benefit concerts" and "Live Aid was held on 13 July 1985" — what was done to
    the concerts was done to Live Aid, which they are."""
    root = parse.root
    subject = parse.child(root.i, *SUBJECT_DEPS)
    noun = parse.toks[t.head]
    if noun.dep == "pobj" and parse.toks[noun.head].lemma == "of":
        noun = parse.toks[parse.toks[noun.head].head]     # "a pair of concerts held ..."
    if t.dep != "acl" or t.tag != "VBN" or min(span) != t.i or root.lemma != "be" or subject is None \
            or not subject.text[:1].isupper() or subject.pos == "PRON" or noun.dep != "attr" or noun.head != root.i \
            or noun.lemma == "one" or noun.lemma in _WORDING_NOUNS \
            or not any(parse.toks[c].dep in ("prep", "agent") for c in parse.children[t.i]):
        return None
    cut = span | ({min(span) - 1} if parse.toks[min(span) - 1].text == "," else set())
    # what was done is past ("The Mallard is a locomotive built in 1938"); a state keeps the verb's tense
    past = parse.past(root) or t.lemma not in STATE_PARTICIPLES
    return cut, [f"{noun_phrase(parse, subject, cut)} {be_form(parse, subject, past)} {parse.words(span)}"]


def _named_and_described(parse: ClaimParse, noun: Tok) -> Tok | None:
    """The named subject of "X is a/an <noun> ..." ("Adolphe Adam was a French composer"), or None."""
    root, subject = parse.root, parse.child(parse.root.i, *SUBJECT_DEPS)
    if root.lemma != "be" or noun.dep != "attr" or noun.head != root.i or parse.indefinite(noun.i) is None \
            or subject is None or not subject.text[:1].isupper() or subject.pos == "PRON":
        return None
    return subject


def done_by_subject(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A relative clause on what a named subject is: "Adolphe Adam was a French composer who also wrote O Holy
    Night" -> "Adolphe Adam was a French composer" and "Adolphe Adam also wrote O Holy Night". A definite
    description ("the first woman who won ...") says which one, and stays whole; so does "a game that follows
    ..." (cut there too, open-ended answers on the dev sets gained RLPs: the kind of thing is no fact to judge)."""
    root, noun, first = parse.root, parse.toks[t.head], parse.toks[min(span)]
    subject = _named_and_described(parse, noun)
    if t.dep != "relcl" or subject is None or first.lemma != "who" or first.dep not in SUBJECT_DEPS \
            or parse.plural(subject) != parse.plural(noun) or len(span) < 4:
        return None
    # a phrase set off after the clause hangs on the noun or the verb, but says when or where the clause happened ("a
    # woman who wrote the first program, in 1843"; "a man who lived in Denmark, about 2,400 years ago")
    after = {i for i in parse.subtree(noun.i) | parse.subtree(root.i) if i > max(span) and parse.toks[i].pos != "PUNCT"}
    if after and parse.toks[max(span) + 1].text == "," and not any(parse.toks[i].pos in ("VERB", "AUX")
                                                                    for i in after):
        span = span | after | set(range(max(span) + 1, max(after)))
    cut = with_commas(parse, span)
    return cut, [f"{noun_phrase(parse, subject, cut)} {parse.words(span - {first.i})}"]


def whose_clause(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A relative clause opened by "whose" on a name set off by a comma, or on what a named subject is:
    "led by Robert Oppenheimer, whose team built the bomb" -> "Robert Oppenheimer's team built the bomb";
    "Eyjafjallajokull is a volcano in Iceland whose name is hard to pronounce" -> "Eyjafjallajokull's name is
    hard to pronounce". Only when what is owned does the clause's verb ("whose tins students tossed" stays)."""
    first, noun = parse.toks[min(span)], parse.toks[t.head]
    if t.dep != "relcl" or first.lemma != "whose" or first.dep != "poss" or len(span) < 4 \
            or parse.toks[first.head].dep not in SUBJECT_DEPS or parse.toks[first.head].head != t.i:
        return None
    attr = parse.child(parse.root.i, "attr")
    subject = _named_and_described(parse, attr) if attr is not None else None
    # "is one of the few writing systems whose inventor ...", "the master whose ...": the clause says which
    if subject is not None and attr.pos != "PROPN" and noun.i in parse.subtree(attr.i):
        owner = subject     # "a retired architect from Indiana, whose version ...": the architect's
    elif noun.pos == "PROPN" and parse.comma_before(span) is not None:
        owner = noun
    else:
        return None
    cut = with_commas(parse, span)
    said = f"{noun_phrase(parse, owner, cut)}'s {parse.words(span - {first.i})}"
    # a title of ordinary words ("Come as You Are", "Smells Like Teen Spirit") opening a sentence reads as a
    # verb: the claim would lose the name that makes it true or false
    opening = analyse(said)
    owned = next((t.i for t in opening if t.text == "'s"), 0)
    if any(t.pos in ("VERB", "AUX", "ADP", "SCONJ", "PRON") for t in opening[:owned]):
        return None
    return cut, [said]


# "Bluebird was a name taken from a song": what a word is, not what was done to the thing it names
_WORDING_NOUNS = {"name", "nickname", "title", "word", "term", "phrase"}
STATE_PARTICIPLES = {"know", "locate", "situate", "call", "name", "base", "make"}


SHAPES = (title_before_name, place_of_subject, had_by_subject, described_value, second_complement, shared_place,
          near_place_in_region, done_to_subject, done_by_subject, whose_clause)
# shapes whose piece stands between the subject and its verb without commas
INSIDE_SUBJECT = (shared_place,)
