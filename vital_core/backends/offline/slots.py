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

import re
from collections.abc import Sequence

from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import Analysis, lemma_found, memo
from vital_core.backends.offline.language.frames import SPANS_OF_TIME, frame
from vital_core.backends.offline.language.instances import same_instance
from vital_core.backends.offline.language.lexicon import (
    LOCATIVE,
    MAKING_VERBS,
    NON_EXCLUSIVE,
    PLACE_HEADS,
    SLOT_PREPOSITIONS,
    STAND_IN_DETERMINERS,
    VENUE_HEADS,
)
from vital_core.backends.offline.language.name_match import name_found
from vital_core.backends.offline.language.nlp import children, role_names, subtree
from vital_core.backends.offline.language.value_match import comparable, consistent, mismatch_reason, name_mismatch
from vital_core.backends.offline.language.values import Value
from vital_core.backends.offline.stated import Context, same_time

SUBJECT_DEPS = ("nsubj", "nsubjpass")


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
        if obj.dep == "prep" and obj.lemma == "for":
            # "worked for almost his entire life in Cremona": the parser hangs the place on the span of time
            out += [slot for t in children(a.toks, obj.i) if t.dep == "pobj" and t.lemma in SPANS_OF_TIME
                    for slot in _preposition_slots(a, t.i, "")]
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
        heads = _listed(a, objects[0].i)
        names = sorted((n for n in names if a.names[n] in heads), key=lambda n: a.names[n])
        article = any(t.dep == "det" and t.lemma == "the" for t in children(a.toks, objects[0].i))
        if names or values:
            out.append((key + prep.lemma, names, values, article))
    return out


def _listed(a: Analysis, head: int) -> list[int]:
    """The heads of the names a slot lists: its object and the names joined to it by "and" ("by Jerry Siegel and
    the artist Joe Shuster" -> Siegel, Shuster; a role before a name is the name's)."""
    out, todo = [], [head]
    while todo:
        i = todo.pop()
        out.append(i)
        out += [c.i for c in role_names(a.toks, i)]
        todo += [c.i for c in children(a.toks, i) if c.dep == "conj"]
    return out


def _subject(a: Analysis, verb: int):
    return next((t for t in children(a.toks, verb) if t.dep in SUBJECT_DEPS), None)


def _apart(noun: str, evidence: Sequence[Analysis]) -> bool:
    """Does the evidence (its sentences, parsed) bring in a ``noun`` of its own, singular with "a" ("A radio
    mast was added")? "The doll" or "one of the films" may be its subject again; "is a painting" calls it one."""
    return any(t.lemma == noun and t.tag == "NN" and t.dep != "attr"
               and any(k.dep == "det" and k.lemma in ("a", "an") for k in children(sentence.toks, t.i))
               for sentence in evidence for t in sentence.toks)


def _same_subject(claim: Analysis, subject, sentence: Analysis, other, evidence: Sequence[Analysis] = ()) -> bool:
    """The sentence's subject is the claim's: the same name, the same head noun, or a name that the claim's
    bare "the painting" stands for - unless the evidence speaks of a painting apart."""
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
    return bool(bare) and other.pos == "PROPN" and not _apart(subject.lemma, evidence)


def _venues(names: list[str]) -> bool:
    """Are these all buildings or institutions ("the Royal Irish Academy", "Trinity College Dublin")? Then
    "the" tells no building from a town."""
    return bool(names) and all({w.lower() for w in n.split()} & VENUE_HEADS for n in names)


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


def slot_conflict(claim: Analysis, target: Analysis, context: Context | None = None,
                  evidence: Sequence[Analysis] = ()) -> str | None:
    """The sentence fills the slot of the claim's relation with another name or value. ``evidence``: every
    evidence sentence, parsed (else the context's)."""
    evidence = evidence or (context.parsed if context is not None else ())
    root = next((t for t in claim.toks if t.dep == "ROOT"), None)
    if root is None or root.lemma in NON_EXCLUSIVE or root.pos != "VERB" and root.lemma != "be" \
            or not same_instance(claim, target):
        return None     # (the third lighthouse is not the present one)
    slots = _slots(claim, root.i)
    # "The painting is by Bosch": the maker's slot of "was painted by", nothing else of the copula
    made_by = root.lemma == "be" and [s for s in slots if s[0] == "by"]
    if made_by:
        slots = made_by
    elif root.pos != "VERB":
        return None
    subject = _subject(claim, root.i)
    if subject is None or not slots:
        return None
    for verb in target.toks:
        if verb.pos != "VERB" or verb.lemma != root.lemma and not (made_by and verb.lemma in MAKING_VERBS):
            continue
        theirs = _slots(target, verb.i)
        if not _same_subject(claim, subject, target, _subject(target, verb.i), evidence):
            continue
        for prep, names, values, article in slots:
            for other_prep, other_names, other_values, other_article in theirs:
                if other_prep == prep and (article == other_article or values or prep.split()[-1] not in LOCATIVE
                                           or _venues(names + other_names)):
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
    if len(names) > 1 and len(other_names) == len(names):
        # two lists of the same length that differ in one name: "by Jerry Siegel and Jack Kirby" / "by Jerry
        # Siegel and Joe Shuster"
        mine = [n for n in names if not name_found(n, target)]
        theirs = [o for o in other_names if not name_found(o, claim)]
        if len(mine) == 1 and len(theirs) == 1 and not _may_nest(mine[0], theirs[0]):
            return name_mismatch(mine[0], theirs[0])
        return None
    if any(name_found(n, target) for n in names) or any(name_found(o, claim) for o in other_names):
        return None     # the sentence names the claim's own value too, or the claim the sentence's
    if any(_may_nest(n, o) for n in names for o in other_names):
        return None
    return name_mismatch(names[0], other_names[0])


# --- the same words before another value --------------------------------------------------------------------
# The parse does not always give the slot a preposition ("contains 100 tiles", "was originally called BackRub",
# "His first adventure was Tintin in ..."), and a pronoun or a description may stand for the evidence's name
# ("She sank in the Solent" / "The Mary Rose sank in the Solent"). Then the slot is read on the words: the
# claim's value and the sentence's value follow the same words ("sank in", "originally called"), one of
# them a content word, and the rest of the claim is stated in the sentence.
LEAD_WORDS = 6              # words read back from a value, within its clause
LEAD_GAP = 3                # words of either side skipped between two shared ones
SWAP_REST_COVERAGE = 0.75   # the claim's other words the sentence must state
_QUOTES = {"\"", "\u201c", "\u201d", "'"}
_BOUNDARY = {",", ";", ":", "(", ")", "—", "–", "-"}
_PRONOUNS = {"he", "she", "it", "they"}
_TITLE_GLUE = {"in", "of"}
_OTHER_CLAUSES = {"advcl", "relcl", "acl", "conj", "appos", "parataxis", "ccomp"}


def _span(a: Analysis, start: int, end: int) -> list[int]:
    return [t.i for t in a.toks if start <= t.start < end]


def _items(a: Analysis) -> list[tuple[str, object, list[int]]]:
    """("value", Value, tokens), ("name", name, tokens) and ("title", words, tokens) for what fills a slot in
    ``a``: names joined by "in" or "of" make one title too ("Tintin in the Land of the Soviets"). Read once per
    analysis: every claim left unsupported reads every evidence sentence's."""
    return memo(a, "_slot_items", len(a.names) + len(a.values), _read_items)


def _read_items(a: Analysis) -> list[tuple[str, object, list[int]]]:
    out = []
    for v in a.values:
        toks = _span(a, v.start, v.start + len(v.text))
        if toks:
            out.append(("value", v, toks))
    spans = []
    for name, head in a.names.items():
        # the occurrence that holds the name's head ("The first Tintin adventure was Tintin in ...")
        found = [_span(a, m.start(), m.end()) for m in re.finditer(re.escape(name), a.text)]
        toks = next((f for f in found if head in f), found[0] if found else [])
        if toks:
            spans.append(toks)
    spans.sort()
    for k, toks in enumerate(spans):
        out.append(("name", _words(a, toks), toks))
        if any(a.toks[i].lemma in _TITLE_GLUE for i in toks[1:-1]):
            out.append(("title", _words(a, toks), toks))     # read as one name ("Tales of the River")
        if lexicon.place_kind(_words(a, toks)):
            continue    # "Vienna in Austria" is two places
        j, joined = k, toks
        while j + 1 < len(spans):
            glue = a.toks[joined[-1] + 1:spans[j + 1][0]]
            if not glue or glue[0].lemma not in _TITLE_GLUE \
                    or not all(t.lemma in _TITLE_GLUE or t.pos == "DET" for t in glue):
                break
            j += 1
            joined = list(range(toks[0], spans[j][-1] + 1))
        if j > k:
            out.append(("title", _words(a, joined), joined))
    # a whole title before the names inside it ("Songs in Blue" before "Songs")
    return sorted(out, key=lambda item: item[0] != "title")


def _words(a: Analysis, toks: list[int]) -> str:
    return a.text[a.toks[toks[0]].start:a.toks[toks[-1]].start + len(a.toks[toks[-1]].text)]


def _lead(a: Analysis, first: int) -> list:
    """The words before token ``first`` back to the clause's edge, nearest first, articles and possessives
    left out ("sank in the Solent" -> sink, in)."""
    out = []
    for t in reversed(a.toks[:first]):
        if t.text in _BOUNDARY or len(out) == LEAD_WORDS:
            break
        if t.pos == "DET" or t.dep in ("poss", "case") or t.text in _QUOTES:
            continue
        out.append(t)
    return out


def _anchor(mine: list, theirs: list) -> list:
    """The words both values follow, nearest first. After a verb, the others in order with at most
    ``LEAD_GAP`` words of either side between ("the first music video *it* played was" / "the first music
    video played *on MTV* was"); otherwise word for word."""
    if not mine or not theirs or mine[0].lemma != theirs[0].lemma:
        return []
    if mine[0].pos not in ("VERB", "AUX"):
        # after a preposition the words must follow on ("Prize in" is not "Nobel Prize in Literature" /
        # "Pulitzer Prize for Fiction"); a verb's own complement may have its subject said differently
        out = []
        for a, b in zip(mine, theirs):
            if a.lemma != b.lemma:
                break
            out.append(a)
        return out
    out, j = [mine[0]], 1
    for a in mine[1:]:
        later = [k for k in range(j, min(len(theirs), j + LEAD_GAP + 1)) if theirs[k].lemma == a.lemma]
        if later:
            out.append(a)
            j = later[0] + 1
    return out


def _holds_content(anchor: list) -> bool:
    return any(t.pos in ("VERB", "NOUN", "PROPN", "ADJ", "ADV") and t.lemma not in lexicon.LIGHT for t in anchor)


def _governor(a: Analysis, i: int):
    """The verb (or copula) whose clause holds token ``i``."""
    seen = set()
    while i not in seen:
        seen.add(i)
        t = a.toks[i]
        if t.pos in ("VERB", "AUX") and any(k.dep in SUBJECT_DEPS for k in children(a.toks, i)):
            return t
        if t.head == i:
            return t
        i = t.head
    return a.toks[i]


def _description(a: Analysis, subject) -> bool:
    """A pronoun, or a description without a name ("the search engine", "his first adventure")."""
    if subject.pos == "PRON":
        return subject.text.lower() in _PRONOUNS
    own = subtree(a.toks, subject.i)
    return subject.pos == "NOUN" and not any(a.toks[i].pos == "PROPN" for i in own)


def _stands_for(claim: Analysis, subject, target: Analysis, other, evidence: Sequence[Analysis]) -> tuple[bool, set]:
    """Is the sentence's subject the claim's? Also the claim's subject words to leave out of the rest: a
    pronoun or a description stands for the sentence's name when the evidence never uses its head noun of
    something else."""
    if subject is None or other is None:
        return False, set()
    own = subtree(claim.toks, subject.i)
    if _description(claim, subject) and _named(target, other) and not _apart(subject.lemma, evidence):
        # "the antenna rises to 24 metres" is not said of the tower when the evidence speaks of an antenna
        return True, {claim.toks[i].lemma for i in own}
    if _same_subject(claim, subject, target, other, evidence) or _written_alike(claim, subject, target, other):
        return True, set()
    return False, set()


def _named(a: Analysis, t) -> bool:
    """A name, or a noun its name goes with ("The Cullinan diamond")."""
    return t.pos == "PROPN" or t.pos == "NOUN" and any(k.dep == "compound" and k.pos == "PROPN"
                                                       for k in children(a.toks, t.i))


def _written_alike(claim: Analysis, subject, target: Analysis, other) -> bool:
    """The words from the clause's edge to the subject are the same ("Annapurna I", parsed "I")."""
    def before(a: Analysis, t) -> list[str]:
        return [x.text.lower() for x in reversed(_lead(a, t.i + 1))]
    return before(claim, subject) == before(target, other)


def _rest_stated(claim: Analysis, target: Analysis, verb, skip: set[int], skip_lemmas: set[str]) -> bool:
    """Most of what the value's clause says besides the value is stated in the sentence."""
    clause = subtree(claim.toks, verb.i)
    for t in claim.toks:
        if t.i in clause and t.i != verb.i and t.dep in _OTHER_CLAUSES:
            clause -= subtree(claim.toks, t.i)
    clause -= frame(claim.toks, verb.i)
    rest = [t.lemma for t in claim.toks if t.i in clause and t.i not in skip and t.lemma not in skip_lemmas
            and t.pos in ("VERB", "NOUN", "ADJ", "ADV") and t.lemma not in lexicon.LIGHT and t.lemma in claim.content]
    return not rest or sum(lemma_found(w, target) for w in rest) / len(rest) >= SWAP_REST_COVERAGE


def _places_apart(mine: str, toks: list[int], claim: Analysis, other: str, other_toks: list[int],
                  target: Analysis) -> bool:
    """Two places after "in" exclude each other only when the lexicon knows both as the same kind, or both
    take "the" ("the Solent" / "the Thames Estuary"): "born in Clontarf" may be inside "born in Dublin"."""
    kinds = lexicon.place_kind(mine), lexicon.place_kind(other)
    if kinds[0] and kinds[0] == kinds[1]:
        return True
    return all(t[0] > 0 and a.toks[t[0] - 1].lemma == "the" for t, a in ((toks, claim), (other_toks, target)))


def _stated(kind: str, item, target: Analysis, exact: bool = False) -> bool:
    if kind == "title":     # a title is stated whole: "Tintin" does not state "Tintin in America"
        return re.search(rf"\b{re.escape(item.lower())}\b", target.lowered) is not None
    if kind == "name":
        return name_found(item, target)
    return any(comparable(item, v) and consistent(item, v) for v in target.values if not (exact and v.approx))


def _differ(kind: str, mine, theirs, claim: Analysis, target: Analysis) -> str | None:
    if kind == "value":
        return mismatch_reason(mine, theirs) if comparable(mine, theirs) and not consistent(mine, theirs) else None
    if _stated(kind, theirs, claim) or (kind == "name" and _may_nest(mine, theirs)):
        return None
    return name_mismatch(mine, theirs)


def worded_slot_conflict(claim: Analysis, target: Analysis, evidence: Sequence[Analysis] = ()) -> str | None:
    """The sentence has another value (or name) where the claim has its own, after the same words, said of
    the claim's subject, with the rest of the claim stated: "She sank in the Thames Estuary" / "The Mary
    Rose sank in the Solent"."""
    if not same_instance(claim, target):
        return None
    theirs, items = _items(target), _items(claim)
    # the claim's values are judged as values, not as words of the rest ("..., or roughly 26,545 feet")
    valued = {i for kind, _, toks in items if kind == "value" for i in toks}
    for kind, mine, toks in items:
        if _stated(kind, mine, target):
            continue
        lead = _lead(claim, toks[0])
        verb = _governor(claim, toks[0])
        for other_kind, other, other_toks in theirs:
            if other_kind != kind or _stated(kind, other, claim, exact=True):
                continue    # the claim says the sentence's value too (a rough conversion does not count)
            anchor = _anchor(lead, _lead(target, other_toks[0]))
            if not _holds_content(anchor):
                continue
            why = _differ(kind, mine, other, claim, target)
            if not why or (kind == "name" and anchor[0].lemma in LOCATIVE
                           and not _places_apart(mine, toks, claim, other, other_toks, target)):
                continue
            other_verb = _governor(target, other_toks[0])
            same, skip_lemmas = _stands_for(claim, _subject(claim, verb.i), target,
                                            _subject(target, other_verb.i), evidence)
            if same and same_time(claim, target) and _rest_stated(claim, target, verb, set(toks) | valued, skip_lemmas):
                words = " ".join(t.text for t in reversed(anchor))
                return f"{why}, both after \"{words}\""
    return None
