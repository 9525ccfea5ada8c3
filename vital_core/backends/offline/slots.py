"""A changed value in the same relation: "The probe was built by NASA" against "The Huygens probe was built
by the European Space Agency".

The relation is read on the parse: the claim's main verb, one of its prepositions (or the passive's "by")
and the name or value that fills it — the slot. An evidence sentence states the same relation when it has
the same verb with the same preposition, and a subject that is the claim's: the same name, the same head
noun ("the army" / "the Terracotta Army"), or a name the claim's bare "the painting" or "it" stands for. When
that sentence fills the slot with another name or value of the same kind, the claim is contradicted,
with a reason quoting both. Conservative on purpose: verbs that list ("include", "feature") are left to
the other rules, as are places that may lie inside one another ("born in Tupelo" / "born in
Mississippi"; "held in the Teatro Kursaal", a building, / "held in Lugano", a town without "the"), and a
slot the sentence fills with the claim's own value too.
"""
from __future__ import annotations

from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import Analysis, name_found
from vital_core.backends.offline.language.lexicon import (
    NON_EXCLUSIVE,
    PLACE_HEADS,
    SLOT_PREPOSITIONS,
    STAND_IN_DETERMINERS,
    VENUE_HEADS,
)
from vital_core.backends.offline.language.nlp import children, subtree
from vital_core.backends.offline.language.value_match import comparable, consistent, mismatch_reason
from vital_core.backends.offline.language.values import Value
from vital_core.backends.offline.stated import Context

SUBJECT_DEPS = ("nsubj", "nsubjpass")
LOCATIVE = {"in", "at", "near", "on"}    # where a building may stand inside a town


def _fillers(a: Analysis, span: set[int]) -> tuple[list[str], list[Value]]:
    """The names and values written inside ``span`` (token indices)."""
    names = [n for n, head in a.names.items() if head in span]
    first = min(a.toks[i].start for i in span)
    last = max(a.toks[i].start + len(a.toks[i].text) for i in span)
    values = [v for v in a.values if first <= v.start < last]
    return names, values


def _slots(a: Analysis, verb: int) -> list[tuple[str, list[str], list[Value], bool]]:
    """(preposition, names, values, article) for the slots of the verb at ``verb``: the name that heads the
    preposition's object ("in Reykjavík, Iceland" -> Reykjavík), the values written in it, and whether the
    name takes "the" (a building or an institution: "in the Rijksmuseum"; a town takes none). A preposition
    on the verb's object is a slot of the verb and that object ("opened its first *store in Seattle*"),
    written "store in"."""
    out = _preposition_slots(a, verb, "")
    for obj in children(a.toks, verb):
        if obj.dep == "dobj":
            out += _preposition_slots(a, obj.i, f"{obj.lemma} ")
    return out


def _preposition_slots(a: Analysis, head: int, key: str) -> list[tuple[str, list[str], list[Value], bool]]:
    out = []
    for prep in children(a.toks, head):
        if prep.dep not in ("prep", "agent") or prep.lemma not in SLOT_PREPOSITIONS:
            continue
        objects = [t for t in children(a.toks, prep.i) if t.dep == "pobj"]
        if not objects:
            continue
        names, values = _fillers(a, subtree(a.toks, objects[0].i))
        names = [n for n in names if a.names[n] == objects[0].i]
        article = any(t.dep == "det" and t.lemma == "the" for t in children(a.toks, objects[0].i))
        if names or values:
            out.append((key + prep.lemma, names, values, article))
    return out


def _subject(a: Analysis, verb: int):
    return next((t for t in children(a.toks, verb) if t.dep in SUBJECT_DEPS), None)


def _same_subject(claim: Analysis, subject, sentence: Analysis, other) -> bool:
    """The sentence's subject is the claim's: the same name, the same head noun, or a name that the claim's
    bare "the painting" stands for."""
    if subject is None or other is None:
        return False
    if subject.pos == "PRON":
        # "It has been displayed at the Met" / "The Hope Diamond is displayed at the Smithsonian": a thing's
        # "it" is the name the sentence gives; "he", "she" and "they" may be anyone the text named
        return subject.text.lower() == "it" and other.pos == "PROPN"
    own = subtree(sentence.toks, other.i)
    own_lemmas = {sentence.toks[i].lemma for i in own}
    names, _ = _fillers(claim, subtree(claim.toks, subject.i))
    if names:
        return all(name_found(n, Analysis(text=" ".join(sentence.toks[i].text for i in sorted(own)), toks=(),
                                          names=dict.fromkeys(_fillers(sentence, own)[0], 0),
                                          words={sentence.toks[i].text.lower() for i in own})) for n in names)
    if subject.lemma in own_lemmas:
        return True     # "the army" / "the Terracotta Army"
    kids = children(claim.toks, subject.i)
    bare = all(k.dep == "det" and k.lemma in STAND_IN_DETERMINERS for k in kids) and kids
    return bool(bare) and other.pos == "PROPN"


def _may_nest(name: str, other: str) -> bool:
    """Could one place lie inside the other? Two places of one known kind (two cities, two countries)
    exclude each other unless the lexicon nests them; a country, state or continent may contain a place
    it does not know, and so may a town a building."""
    kinds = lexicon.place_kind(name), lexicon.place_kind(other)
    if kinds[0] and kinds[0] == kinds[1]:
        return lexicon.nested(name, other)
    # a building or site lies inside a town, a town inside a county or valley ("the Teatro Kursaal" /
    # "Lugano"): only names of the same sort exclude each other
    sorts = [bool({w.lower() for w in n.split()} & (VENUE_HEADS | PLACE_HEADS)) for n in (name, other)]
    return bool({"country", "state", "continent"} & set(kinds)) or sorts[0] != sorts[1]


def slot_conflict(claim: Analysis, target: Analysis, context: Context | None = None) -> str | None:
    """The sentence fills the slot of the claim's relation with another name or value."""
    root = next((t for t in claim.toks if t.dep == "ROOT"), None)
    if root is None or root.pos != "VERB" or root.lemma in NON_EXCLUSIVE:
        return None
    subject = _subject(claim, root.i)
    slots = _slots(claim, root.i)
    if subject is None or not slots:
        return None
    for verb in target.toks:
        if verb.lemma != root.lemma or verb.pos != "VERB":
            continue
        theirs = _slots(target, verb.i)
        if not _same_subject(claim, subject, target, _subject(target, verb.i)):
            continue
        for prep, names, values, article in slots:
            for other_prep, other_names, other_values, other_article in theirs:
                if other_prep == prep and (article == other_article or values or prep.split()[-1] not in LOCATIVE):
                    why = _changed(names, values, other_names, other_values, claim, target)
                    if why:
                        return why
    return None


def _changed(names: list[str], values: list[Value], other_names: list[str], other_values: list[Value],
             claim: Analysis, target: Analysis) -> str | None:
    for value in values:
        rivals = [v for v in other_values if comparable(value, v)]
        if rivals and not any(consistent(value, v) for v in rivals):
            return mismatch_reason(value, rivals[0])
    if values or not names or not other_names:
        return None
    if any(name_found(n, target) for n in names) or any(name_found(o, claim) for o in other_names):
        return None     # the sentence names the claim's own value too, or the claim the sentence's
    if any(_may_nest(n, o) for n in names for o in other_names):
        return None
    return f"name mismatch: the claim names {names[0]}, the evidence names {other_names[0]}"
