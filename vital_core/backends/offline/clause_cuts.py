"""Parse-based cuts of one claim into atomic claims, each standing alone with its subject restored.

``decompose`` first cuts a sentence at coordinated clauses, ", which/who" and lists with word rules;
this module reads the remaining claim's dependency parse and cuts off, as claims of their own:

* a subordinate clause with its own named subject ("..., when East German authorities opened the
  border" -> "East German authorities opened the border");
* a participle phrase on the main verb or set off by commas after a noun ("..., separating families"
  -> "The wall separated families"; "Pluto, found in 1930, is ..." -> "Pluto was found in 1930");
* an appositive of a name ("Marie Curie, a Polish physicist, won ..." -> "Marie Curie was a Polish
  physicist");
* a second predicate of the same subject ("... won the prize and became ..." -> "Marie Curie became ...");
* adverbial detail that is a fact of its own: "on the night of 9 November 1989" -> "on 9 November
  1989" and, apart, "at night"; a manner adverb ("unexpectedly opened") -> the claim without it, and
  the claim with it kept as the detail.

The key fact of a sentence thus ends up as a short claim that evidence stating it in fewer words
supports. Cuts that would leave a fragment (a subject that is a pronoun, a clause of fewer than four
words, a participle that stands for the whole statement: "..., making it the largest") are not made.
The parse and the word forms a cut claim needs are ``language.claim_parse``'s.
"""
from __future__ import annotations

from vital_core.backends.offline.language.claim_parse import ClaimParse, be_form, finite_verb, lower_first, noun_phrase
from vital_core.backends.offline.language.lexicon import (
    CLEAR_SUBORDINATORS,
    KEPT_ADVERBS,
    MONTHS,
    PHRASAL_VERBS,
    SENTENTIAL_VERBS,
    SUBORDINATORS,
    TIMES_OF_DAY,
    place_kind,
)
from vital_core.backends.offline.language.nlp import Tok

SUBJECT_DEPS = ("nsubj", "nsubjpass")
MIN_CLAUSE_WORDS = 4     # a cut-off clause with fewer words is too little to check on its own
MAX_DEPTH = 3


def _subject(parse: ClaimParse) -> Tok | None:
    subj = parse.child(parse.root.i, *SUBJECT_DEPS)
    if subj is None or subj.pos == "PRON" or subj.pos == "DET":
        return None
    return subj


def _enough(text: str) -> bool:
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
    own = parse.child(t.i, *SUBJECT_DEPS)
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
    return _with_commas(parse, span), [text.strip()]


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


def _relative_of_name(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """"Alfred Nobel who patented it in 1867": a relative clause on a name adds a fact, comma or not."""
    first = parse.toks[min(span)]
    head = parse.toks[t.head]
    if t.dep != "relcl" or head.pos != "PROPN" or first.lemma not in ("who", "which") \
            or first.dep not in SUBJECT_DEPS or len(span) < MIN_CLAUSE_WORDS:
        return None
    return _with_commas(parse, span), [f"{noun_phrase(parse, head, span)} {parse.words(span - {first.i})}"]


def _relative_inside(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A relative clause set off by a comma whose pronoun sits inside it: "102 passengers, about a third of
    whom were separatists" -> "About a third of the passengers were separatists"; "Dr. No, in which Sean
    Connery played the agent" -> "Sean Connery played the agent in Dr. No"."""
    head = parse.toks[t.head]
    if t.dep in ("advcl", "conj") and parse.comma_before(span) is not None:
        # the parser hangs "..., about a third of whom were ..." on the verb: its noun ends before the comma
        head = _noun_before(parse, min(span) - 1) or head
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
        return _with_commas(parse, span), [f"{parse.words(span - {prep.i, pronoun.i})} {prep.text} {noun}"]
    before = parse.words({i for i in span if i < pronoun.i})
    after = parse.words({i for i in span if i > pronoun.i})
    return _with_commas(parse, span), [f"{before} {noun} {after}".strip()]


def _participle(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A participle phrase on the main verb, set off by a comma: the subject did it too."""
    root, subject = parse.root, _subject(parse)
    if t.dep != "advcl" or t.head != root.i or t.tag not in ("VBG", "VBN") \
            or any(i < t.i and not (parse.toks[i].dep == "advmod" and parse.toks[i].head == t.i) for i in span) \
            or subject is None or t.lemma in SENTENTIAL_VERBS or parse.child(t.i, *SUBJECT_DEPS, "mark") is not None \
            or not (parse.set_off(span) or min(span) == 0 and parse.comma_after(span) is not None) \
            or len(span) < MIN_CLAUSE_WORDS - 1:
        return None
    if t.tag == "VBN" and min(span) > root.i:
        # "... belongs to Usain Bolt of Jamaica, widely regarded as the greatest sprinter": the participle
        # says something of the noun just before its comma, not of the subject
        noun = _noun_before(parse, min(span) - 1)
        if noun is None:
            return None
        return _with_commas(parse, span), [f"{noun_phrase(parse, noun, span)} {be_form(parse, noun, parse.past(root))} "
                                           f"{parse.words(span)}"]
    noun = noun_phrase(parse, subject, span)
    if t.tag == "VBN":   # "Built in 1481, the chapel is ...": built then
        said = f"{be_form(parse, subject, True)} {lower_first(parse, span)}"
    else:                # "..., separating families" -> "The wall separated families"
        said = " ".join([finite_verb(t, parse.past(root), parse.plural(subject)), parse.words(span - {t.i})]).strip()
    return _with_commas(parse, span), [f"{noun} {said}"]


def _noun_before(parse: ClaimParse, comma: int) -> Tok | None:
    """The noun phrase that ends just before ``comma``, by its head ("Usain Bolt of Jamaica" -> Bolt)."""
    if comma < 1 or parse.toks[comma].text != ",":
        return None
    tok = parse.toks[comma - 1]
    # up from "Jamaica" through "of" to "Bolt": a noun's prepositional complement belongs to the noun
    while tok.dep == "pobj" and parse.toks[tok.head].dep == "prep" \
            and parse.toks[parse.toks[tok.head].head].pos in ("NOUN", "PROPN"):
        tok = parse.toks[parse.toks[tok.head].head]
    while tok.dep == "compound" and parse.toks[tok.head].i > tok.i:
        tok = parse.toks[tok.head]
    return tok if tok.pos in ("NOUN", "PROPN") else None


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
    return _with_commas(parse, span), [f"{noun_phrase(parse, head, span)} {be_form(parse, head, True)} "
                                       f"{parse.words(span)}"]


def _place_in_region(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """A place with its region or country: "born in Tupelo, Mississippi" -> "... born in Tupelo" and
    "Tupelo is in Mississippi"; "hangs in the Rijksmuseum in Amsterdam" -> "... in the Rijksmuseum" and
    "The Rijksmuseum is in Amsterdam". Only a region the lexicon knows as a place."""
    head = parse.toks[t.head]
    if head.pos != "PROPN" or parse.child(head.i, "conj") is not None or head.dep not in ("pobj", "dobj"):
        return None
    if t.dep == "appos" and t.pos == "PROPN" and parse.child(t.i, "det") is None and parse.set_off(span):
        region = parse.words(span)
    elif t.dep == "prep" and t.lemma == "in" and min(span) == t.i and max(span) == max(parse.subtree(head.i)):
        region = parse.words(span - {t.i})
    else:
        return None
    if not place_kind(region):
        return None
    place = noun_phrase(parse, head, span)
    return _with_commas(parse, span), [f"{place[:1].upper() + place[1:]} is in {region}"]


def _appositive(parse: ClaimParse, t: Tok, span: set[int]) -> Cut | None:
    """An appositive of a name: "Marie Curie, a Polish physicist, won ..."."""
    head = parse.toks[t.head]
    if t.dep != "appos" or head.pos != "PROPN" or t.tag == "NNS" \
            or not (t.pos == "NOUN" or t.pos == "PROPN" and parse.child(t.i, "det") is not None) \
            or not parse.set_off(span) or len(span) < 2 or head.dep == "conj" \
            or parse.child(head.i, "conj") is not None \
            or any(parse.toks[i].text in ("and", "or") for i in range(head.i, min(span))) \
            or any(parse.toks[i].dep == "conj" and parse.toks[i].pos == "PROPN" for i in span - _clauses_in(parse, t)):
        return None      # ("Cape Canaveral, Florida" is a place in its region; a list of people with their
                         # appositives is one the parser often misreads)
    return _with_commas(parse, span), [f"{noun_phrase(parse, head, span)} "
                                       f"{be_form(parse, head, parse.past(parse.root))} {parse.words(span)}"]


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
    return _with_commas(parse, span), [f"{part.text[:1].upper() + part.text[1:]} of the "
                                       f"{(things + ' ' + obj.text).strip()} {verb} {parse.words(rest)}"]


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
    if t.tag in ("VBN", "VBG") and parse.child(t.i, "aux", "auxpass") is None:
        aux = " ".join(parse.toks[c].text for c in parse.children[root.i]
                       if parse.toks[c].dep in ("aux", "auxpass", "neg"))
        if not aux:
            return None    # "won the prize and called ...": no auxiliary to share, so no safe tense
    cut = span | {cc.i} | ({cc.i - 1} if parse.toks[cc.i - 1].text == "," else set())
    return cut, [" ".join(p for p in (noun_phrase(parse, subject, cut), aux, parse.words(span)) if p)]


# Tried in this order over every token: the clause-sized pieces first, so that an appositive inside a
# subordinate clause goes with its clause.
_SHAPES = (_subordinate, _relative_of_name, _relative_inside, _participle, _participle_of_noun, _second_predicate,
           _absolute, _place_in_region, _appositive)


def _structural_cut(parse: ClaimParse) -> Cut | None:
    """The first clause-sized piece to cut off."""
    root = parse.root
    subject = parse.child(root.i, *SUBJECT_DEPS)
    for shape in _SHAPES:
        for t in parse.toks:
            if t.i == root.i:
                continue
            span = parse.subtree(t.i)
            if root.i in span:
                continue
            # a piece between the subject and its verb must be set off by commas on both sides
            if subject is not None and subject.i < min(span) < root.i and not (
                    parse.comma_before(span) is not None and parse.comma_after(span) is not None):
                continue
            cut = shape(parse, t, span)
            if cut is not None:
                return cut
    return None


# What a verb's modifiers may be, for one claim per modifier; any other child keeps the claim whole.
_MODIFIERS = {"prep", "npadvmod", "agent", "advcl", "ccomp"}
_CORE = {"nsubj", "nsubjpass", "aux", "auxpass", "neg", "dobj", "attr", "acomp", "oprd", "dative", "prt",
         "punct", "advmod", "expl"}


def modifier_split(parse: ClaimParse) -> list[str] | None:
    """One claim per modifier of the main verb: "was launched on 5 September 1977 from Cape Canaveral on a
    Titan rocket" -> "... was launched on 5 September 1977", "... from Cape Canaveral", "... on a Titan
    rocket". Only for a verb whose other children are its subject, objects and auxiliaries."""
    root = parse.root
    if root.pos != "VERB" or parse.child(root.i, *SUBJECT_DEPS) is None:
        return None
    kids = [parse.toks[c] for c in parse.children[root.i]]
    subject = parse.child(root.i, *SUBJECT_DEPS)
    # "On 17 May 1875, in front of a crowd ..., the Derby was run": phrases opening the sentence before its
    # subject are modifiers of the verb like those after it
    mods = [k for k in kids if k.dep in _MODIFIERS and k.i > root.i
            or k.dep in ("prep", "npadvmod") and max(parse.subtree(k.i)) < subject.i]
    kept: set[int] = set()
    own = next((m for m in mods if m.i > root.i), None)
    if root.lemma in PHRASAL_VERBS and own is not None:
        # "went on the air on 1 August": "on the air" belongs to "went" and stays in every claim; a first
        # modifier that holds a value or a name ("ran for ten seasons") is a fact of its own
        obj = parse.child(own.i, "pobj")
        if obj is None or not (obj.pos in ("NUM", "PROPN") or parse.child(obj.i, "nummod") is not None):
            kept, mods = parse.subtree(own.i), [m for m in mods if m is not own]
    return _split_modifiers(parse, kids, mods, kept)


def _split_modifiers(parse: ClaimParse, kids: list[Tok], mods: list[Tok], kept: set[int]) -> list[str] | None:
    """``modifier_split`` once the verb's modifiers are known; ``kept``: a phrasal verb's own modifier."""
    root = parse.root
    spans = [parse.subtree(m.i) for m in mods]
    # "from September 1994 to May 2004" is one span of time, however the parser hangs its "to"
    for n in range(len(mods) - 1, 0, -1):
        if mods[n].lemma in ("to", "until", "till") and mods[n - 1].lemma == "from" \
                and min(spans[n]) == max(spans[n - 1]) + 1:
            spans[n - 1] |= spans.pop(n)
            mods = mods[:n] + mods[n + 1:]
    # "... after its twin, Voyager 2, had lifted off": the parser hangs the clause of "after" on the main
    # verb as a second verb without a subject; it belongs to the modifier it follows
    for k in kids:
        if k.dep == "conj" and k.pos == "VERB" and parse.child(k.i, *SUBJECT_DEPS, "cc") is None and spans \
                and parse.child(root.i, "cc") is None:
            before = [n for n, span in enumerate(spans) if max(span) < k.i]
            if before and parse.toks[mods[before[-1]].i].lemma in SUBORDINATORS | {"before", "after"} \
                    and all(parse.toks[i].pos == "PUNCT" or i in parse.subtree(k.i)
                            for i in range(max(spans[before[-1]]) + 1, min(parse.subtree(k.i)))):
                spans[before[-1]] = spans[before[-1]] | parse.subtree(k.i)
                kids = [c for c in kids if c.i != k.i]
    if len(mods) < 2 or any(k.dep not in _MODIFIERS | _CORE for k in kids) \
            or any(k.dep in _MODIFIERS and k.i < root.i and k not in mods for k in kids):
        return None
    core = ({t.i for t in parse.toks} - set().union(*spans)) | kept
    core -= {parse.comma_before(span) for span in spans} | {parse.comma_after(span) for span in spans}
    claims = []
    for m, span in zip(mods, spans):
        opening = parse.toks[min(span)]
        subjects = [parse.toks[i] for i in span if parse.toks[i].dep in SUBJECT_DEPS]
        if m.dep in ("advcl", "ccomp") and opening.lemma in SUBORDINATORS and opening.i != m.i \
                and subjects and not any(t.pos in ("PRON", "DET") for t in subjects):
            claims.append(parse.words(span - {opening.i}))    # a clause with its own subject stands alone
        else:
            claims.append(parse.words(core | span))
    return claims if all(_enough(c) for c in claims) else None


def _with_commas(parse: ClaimParse, span: set[int]) -> set[int]:
    """The span with the commas that set it off ("Pluto, found in 1930, is" -> "Pluto is")."""
    return span | {i for i in (parse.comma_before(span), parse.comma_after(span)) if i is not None}


def _detail_cut(parse: ClaimParse) -> tuple[str, str, bool] | None:
    """(the claim without a detail, the detail as a claim, whether the detail claim may be cut further) for
    a time of day or a manner adverb (whose detail claim is the claim as written: cut no further)."""
    everything = {t.i for t in parse.toks}
    for t in parse.toks:
        # "on the night of 9 November 1989" -> "on 9 November 1989" + "... at night"
        if t.lemma in TIMES_OF_DAY and t.dep == "pobj" and parse.toks[t.head].lemma in ("on", "in", "during"):
            det = parse.child(t.i, "det")
            of = parse.child(t.i, "prep")
            if det is None or of is None or of.lemma != "of" or of.i != t.i + 1:
                continue
            date = parse.subtree(of.i) - {of.i}
            if not any(parse.toks[i].pos == "NUM" or parse.toks[i].lemma in MONTHS for i in date):
                continue
            prep = parse.toks[t.head]
            without_time = everything - {det.i, t.i, of.i}
            without_date = everything - parse.subtree(prep.i)
            detail = parse.words({i for i in without_date if i < prep.i})
            rest = parse.words({i for i in without_date if i > prep.i})
            return (parse.words(without_time), f"{detail} {TIMES_OF_DAY[t.lemma]}" + (f" {rest}" if rest else ""),
                    True)
        # "..., which made it the tallest ...": "which" stands for the whole statement, so the statement
        # is a claim without it and the claim as written keeps the consequence
        if t.dep in ("relcl", "advcl", "ccomp") and t.lemma in SENTENTIAL_VERBS \
                and parse.comma_before(parse.subtree(t.i)) is not None \
                and parse.toks[min(parse.subtree(t.i))].lemma == "which":
            return parse.words(everything - _with_commas(parse, parse.subtree(t.i))), parse.words(everything), False
        # a manner adverb: "unexpectedly opened" -> "opened", and the claim as written is the detail
        if t.dep == "advmod" and t.tag == "RB" and t.lemma.endswith("ly") and len(t.lemma) >= 6 \
                and t.lemma not in KEPT_ADVERBS and parse.toks[t.head].pos == "VERB":
            return parse.words(everything - {t.i}), parse.words(everything), False
    return None


def cut_claim(claim: str, finish, depth: int = 0) -> list[str]:
    """The atomic claims of ``claim`` (itself when nothing can be cut). ``finish`` tidies a claim's text."""
    parse = ClaimParse(claim)
    if depth >= MAX_DEPTH or parse.root is None or parse.root.pos not in ("VERB", "AUX"):
        return [claim]
    structural = _structural_cut(parse)
    if structural is not None:
        removed, extras = structural
        main = parse.words({t.i for t in parse.toks} - removed)
        if _enough(main) and all(_enough(e) for e in extras):
            out: list[str] = []
            for piece in [main] + extras:
                for atom in cut_claim(finish(piece), finish, depth + 1):
                    if atom not in out:
                        out.append(atom)
            return out
    pieces = modifier_split(parse)
    if pieces is not None:
        out = []
        for piece in pieces:
            for atom in cut_claim(finish(piece), finish, depth + 1):
                if atom not in out:
                    out.append(atom)
        return out
    detail = _detail_cut(parse)
    if detail is not None and _enough(detail[0]) and _enough(detail[1]):
        main, extra = finish(detail[0]), finish(detail[1])
        out = cut_claim(main, finish, depth + 1)
        for atom in (cut_claim(extra, finish, depth + 1) if detail[2] else [extra]):
            if atom not in out:
                out.append(atom)
        return out
    return [claim]
