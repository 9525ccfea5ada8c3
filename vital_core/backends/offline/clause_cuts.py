"""Parse-based cuts of one claim into atomic claims, each standing alone with its subject restored.

``decompose`` first cuts a sentence at coordinated clauses, ", which/who" and lists with word rules;
this module reads the remaining claim's dependency parse and cuts off, as claims of their own (the
clause-sized shapes are ``clause_shapes``'s; the verb's modifiers and the adverbial detail are here):

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

import re

from vital_core.backends.offline import descriptions
from vital_core.backends.offline.clause_shapes import (
    SHAPES,
    SUBJECT_DEPS,
    UNMARKED_INSIDE_SUBJECT,
    Cut,
    enough,
)
from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.claim_parse import (
    ClaimParse,
    be_form,
    measured_from,
    measures,
    noun_phrase,
    with_commas,
)
from vital_core.backends.offline.language.lexicon import (
    KEPT_ADVERBS,
    MONTHS,
    PHRASAL_VERBS,
    SENTENTIAL_VERBS,
    SUBORDINATORS,
    TIMES_OF_DAY,
    said_by_verb_phrase,
)
from vital_core.backends.offline.language.nlp import Tok

# Cuts nest this deep: a clause or a description cut off at most three times, then the verb's modifiers once more
# ("... Willem Kolff, a young Dutch doctor who built it in the hospital at Kampen during the German occupation")
MAX_DEPTH = 4


def _structural_cut(parse: ClaimParse) -> Cut | None:
    """The first clause-sized piece to cut off."""
    root = parse.root
    subject = parse.child(root.i, *SUBJECT_DEPS)
    for shape in SHAPES + descriptions.SHAPES:
        for t in parse.toks:
            if t.i == root.i:
                continue
            span = parse.subtree(t.i)
            if root.i in span:
                continue
            # a piece between the subject and its verb must be set off by commas on both sides
            if subject is not None and subject.i < min(span) < root.i \
                    and shape not in UNMARKED_INSIDE_SUBJECT + descriptions.INSIDE_SUBJECT \
                    and not (parse.comma_before(span) is not None and parse.comma_after(span) is not None):
                continue
            cut = shape(parse, t, span)
            if cut is not None:
                return cut
    return None


# What a verb's modifiers may be, for one claim per modifier; any other child keeps the claim whole.
_MODIFIERS = {"prep", "npadvmod", "agent", "advcl", "ccomp"}
_CORE = {"nsubj", "nsubjpass", "aux", "auxpass", "neg", "dobj", "attr", "acomp", "oprd", "dative", "prt",
         "punct", "advmod", "expl"}


# "the 1660s", which the parser reads as a noun
_DECADE = re.compile(r"\d{3,4}s")


def modifier_split(parse: ClaimParse) -> list[str] | None:
    """One claim per modifier of the main verb: "was launched on 5 September 1977 from Cape Canaveral on a
    Titan rocket" -> "... was launched on 5 September 1977", "... from Cape Canaveral", "... on a Titan
    rocket". Only for a verb whose other children are its subject, objects and auxiliaries."""
    root = parse.root
    # a "be" of place ("are in Maranello beside the Fiorano circuit") has modifiers as a verb has
    locative = root.lemma == "be" and parse.child(root.i, "attr", "acomp", "auxpass", "aux") is None
    if root.pos != "VERB" and not locative or parse.child(root.i, *SUBJECT_DEPS) is None:
        return None
    kids = [parse.toks[c] for c in parse.children[root.i]]
    subject = parse.child(root.i, *SUBJECT_DEPS)
    # "On 17 May 1875, in front of a crowd ..., the Derby was run": when one of the phrases opening the
    # sentence before its subject dates it, they are modifiers of the verb like those after it; without a
    # date ("In the east the wall reaches ...") they stay with the sentence, whose claims keep them
    opening = [k for k in kids if k.dep in ("prep", "npadvmod") and max(parse.subtree(k.i)) < subject.i]
    dated = any(parse.toks[i].pos == "NUM" or parse.toks[i].lemma in MONTHS or _DECADE.fullmatch(parse.toks[i].text)
                for k in opening for i in parse.subtree(k.i))
    # "..., just south of the border": an adverb of place with its "of" is a modifier like a preposition
    mods = [k for k in kids if ((k.dep in _MODIFIERS or k.dep == "advmod" and parse.child(k.i, "prep") is not None)
                                and k.i > root.i or dated and k in opening)
            and (k.dep != "npadvmod" or measures(parse, k))]
    if any(m.dep == "prep" and m.text[:1].isupper() and m.i > 0 for m in mods):
        return None     # a capitalised preposition is inside a title ("the Strength Through Joy programme")
    kept: set[int] = set()
    own = next((m for m in mods if m.i > root.i), None)
    if own is not None and (root.lemma in PHRASAL_VERBS or _phrase_with(parse, root, own)):
        # "went on the air on 1 August": "on the air" belongs to "went" and stays in every claim; a first
        # modifier that holds a value or a name ("ran for ten seasons") is a fact of its own
        obj = parse.child(own.i, "pobj")
        if obj is None or not (obj.pos in ("NUM", "PROPN") or parse.child(obj.i, "nummod") is not None):
            kept, mods = parse.subtree(own.i), [m for m in mods if m is not own]
    return _split_modifiers(parse, kids, mods, kept)


def _phrase_with(parse: ClaimParse, root: Tok, modifier: Tok) -> bool:
    """Do the verb and its modifier make a phrase of the lexicon ("slipped beneath the waves": sank)?"""
    return bool(said_by_verb_phrase(root.lemma, {parse.toks[i].lemma for i in parse.subtree(modifier.i)}))


# a clause opened by these whose subject is "it" speaks of the sentence's subject ("..., although it was ...");
# after "when" or "after" it may be anything the sentence named ("moved to the city after it was founded")
_SAID_OF_SUBJECT = {"although", "though", "whereas", "because"}


def _split_modifiers(parse: ClaimParse, kids: list[Tok], mods: list[Tok], kept: set[int]) -> list[str] | None:
    """``modifier_split`` once the verb's modifiers are known; ``kept``: a phrasal verb's own modifier."""
    root = parse.root
    spans = [parse.subtree(m.i) for m in mods]
    # "from September 1994 to May 2004" is one span of time, however the parser hangs its "to"
    # and "by" on an active verb is the maker of the noun before it ("grew out of a project by Page"), not a
    # fact of the verb's own ("grew by Page")
    # and "six centuries after its foundation stone was laid" is one time, measured from the clause's
    passive = parse.child(root.i, "auxpass") is not None
    for n in range(len(mods) - 1, 0, -1):
        if (mods[n].lemma in ("to", "until", "till") and mods[n - 1].lemma == "from"
                or mods[n].lemma == "by" and mods[n].dep == "prep" and not passive
                or mods[n].dep == "advcl" and measured_from(parse, min(spans[n]))
                # "rises to 1,085 metres above sea level", parsed with "to" left on its own
                or mods[n - 1].dep == "prep" and not parse.children[mods[n - 1].i]) \
                and min(spans[n]) <= max(spans[n - 1]) + 2:
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
    for t in parse.toks:
        # a word the parser took for punctuation ("the Soviet submarine S-13" with "S-13" hung on the verb) goes
        # with the phrase it ends
        if t.pos == "PUNCT" and any(ch.isalnum() for ch in t.text):
            for span in spans:
                if t.i - 1 in span:
                    span.add(t.i)
    subject = parse.child(root.i, "nsubj", "nsubjpass")
    core = ({t.i for t in parse.toks} - set().union(*spans)) | kept
    core -= {parse.comma_before(span) for span in spans} | {parse.comma_after(span) for span in spans}
    claims = []
    for m, span in zip(mods, spans):
        opening = parse.toks[min(span)]
        subjects = [parse.toks[i] for i in span if parse.toks[i].dep in SUBJECT_DEPS]
        own_subjects = [t for t in subjects if t.head == m.i]
        if m.dep in ("advcl", "ccomp") and opening.lemma in SUBORDINATORS and opening.i != m.i \
                and subjects and not any(t.pos in ("PRON", "DET") for t in subjects):
            claims.append(parse.words(span - {opening.i}))    # a clause with its own subject stands alone
        elif m.dep == "advcl" and opening.lemma in _SAID_OF_SUBJECT and opening.i != m.i and subject is not None \
                and [t.lemma for t in own_subjects] == ["it"] and subject.pos in ("NOUN", "PROPN"):
            # "The site lies south of Uffington, although it was part of Berkshire until 1974": "it" is the
            # sentence's subject ("The site lies although it was ..." was no claim)
            said = noun_phrase(parse, subject, span)
            claims.append(f"{said[:1].upper() + said[1:]} {parse.words(span - {opening.i, own_subjects[0].i})}")
        else:
            claims.append(parse.words(core | span))
    return claims if all(enough(c) for c in claims) else None


def made_thing_split(parse: ClaimParse) -> list[str] | None:
    """What was made, and when and where, apart from who made it: "Gerard Philips and his father Frederik set
    up Philips in 1891 in Eindhoven" -> "Gerard Philips and his father Frederik set up Philips", "Philips was
    set up in 1891", "Philips was set up in Eindhoven". Only for a verb that brings a thing into being (a
    prize won in 1903 is not a prize of 1903), in the past, with a named maker and a named thing made (a thing
    named by a common noun, "designed the tower in 1887", stays with its maker)."""
    root = parse.root
    subject, thing, particle = parse.child(root.i, "nsubj"), parse.child(root.i, "dobj"), parse.child(root.i, "prt")
    if root.pos != "VERB" or root.tag != "VBD" or not lexicon.founding(root.lemma, particle.lemma if particle else "") \
            or subject is None or thing is None or thing.pos != "PROPN" or subject.pos == "PRON" or subject.i > root.i:
        return None
    kids = [parse.toks[c] for c in parse.children[root.i]]
    mods = [k for k in kids if k.dep == "prep" and k.i > thing.i and parse.child(k.i, "pobj") is not None]
    if not mods or any(k.dep not in {"nsubj", "dobj", "prt", "prep", "punct"} for k in kids):
        return None
    spans = [parse.subtree(m.i) for m in mods]
    when_and_where = set().union(*spans)
    made = noun_phrase(parse, thing, when_and_where)
    participle = lexicon.IRREGULAR_PARTICIPLES.get(root.lemma, root.text.lower())
    verb = f"{be_form(parse, thing, True)} {participle}" + (f" {particle.text}" if particle is not None else "")
    maker = parse.words({t.i for t in parse.toks} - when_and_where)
    return [maker] + [f"{made[:1].upper() + made[1:]} {verb} {parse.words(span)}" for span in spans]


def _statement_called(parse: ClaimParse, t: Tok) -> set[int] | None:
    """The tokens of "..., a fact proved in ..." when ``t`` is the statement it follows: the parser reads the
    statement as the object of "proved", or "a fact" as a second complement of "There are"."""
    root = parse.root
    if t.dep == "ccomp" and t.head == root.i and min(parse.subtree(t.i)) == 0:
        said_of = parse.child(root.i, "nsubj", "nsubjpass")
        if said_of is None or said_of.i < t.i:
            return None
        fact = {i for i in range(max(parse.subtree(t.i)) + 1, len(parse.toks)) if parse.toks[i].text != "."}
    elif t.dep == "attr" and t.head == root.i and parse.child(root.i, "expl") is not None \
            and parse.child(root.i, "attr").i < t.i:
        fact = with_commas(parse, parse.subtree(t.i))
    else:
        return None
    first = min(fact)
    if parse.toks[first].text != "," or first + 1 >= len(parse.toks) or parse.toks[first + 1].lemma not in ("a", "an"):
        return None
    return fact


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
            # "in the early hours of 28 March 1979": the hours go with their adjective, said as written
            said = {det.i, t.i} | {c for c in parse.children[t.i] if parse.toks[c].dep == "amod"}
            # and "late" or "early" before the phrase ("came late in the evening of 9 October 1963")
            early = {prep.i - 1} if parse.toks[prep.i - 1].lemma in ("late", "early") \
                and parse.toks[prep.i - 1].dep == "advmod" else set()
            without_time = everything - said - {of.i} - early
            without_date = everything - parse.subtree(prep.i) - early
            detail = parse.words({i for i in without_date if i < prep.i})
            rest = parse.words({i for i in without_date if i > prep.i})
            time = " ".join(p for p in (parse.words(early), TIMES_OF_DAY[t.lemma] or f"{prep.text} {parse.words(said)}")
                            if p)
            # a day is "on" it ("in the early hours of 28 March" -> "on 28 March")
            on = "on" if prep.lemma == "in" and any(parse.toks[i].pos == "NUM" for i in date) else prep.text
            dated = " ".join(p for p in (parse.words({i for i in without_time if i < prep.i}), on,
                                         parse.words({i for i in without_time if i > prep.i})) if p)
            return dated, f"{detail} {time}" + (f" {rest}" if rest else ""), True
        # "..., which made it the tallest ...": "which" stands for the whole statement, so the statement
        # is a claim without it and the claim as written keeps the consequence
        if t.dep in ("relcl", "advcl", "ccomp") and t.lemma in SENTENTIAL_VERBS \
                and parse.comma_before(parse.subtree(t.i)) is not None \
                and parse.toks[min(parse.subtree(t.i))].lemma == "which":
            return parse.words(everything - with_commas(parse, parse.subtree(t.i))), parse.words(everything), False
        # "There are exactly five Platonic solids, a fact proved in ...": the statement is a claim of its own,
        # and the claim as written keeps what is said of it
        fact = _statement_called(parse, t)
        if fact is not None:
            return parse.words(everything - fact), parse.words(everything), False
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
    structural = _structural_cut(parse) if depth < MAX_DEPTH - 1 else None
    if structural is not None:
        removed, extras = structural
        main = parse.words({t.i for t in parse.toks} - removed)
        if enough(main) and all(enough(e) for e in extras):
            out: list[str] = []
            for piece in [main] + extras:
                for atom in cut_claim(finish(piece), finish, depth + 1):
                    if atom not in out:
                        out.append(atom)
            return out
    pieces = made_thing_split(parse) or modifier_split(parse)
    if pieces is not None:
        out = []
        for piece in pieces:
            for atom in cut_claim(finish(piece), finish, depth + 1):
                if atom not in out:
                    out.append(atom)
        return out
    detail = _detail_cut(parse)
    if detail is not None and enough(detail[0]) and enough(detail[1]):
        main, extra = finish(detail[0]), finish(detail[1])
        out = cut_claim(main, finish, depth + 1)
        for atom in (cut_claim(extra, finish, depth + 1) if detail[2] else [extra]):
            if atom not in out:
                out.append(atom)
        return out
    return [claim]
