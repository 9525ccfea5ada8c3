"""Who did what to whom, for asymmetric relations: "Deep Blue beat Kasparov" is not "Kasparov beat Deep Blue".

From the spaCy parse, each verb of a known relation gives (relation, doer,
receiver) with the names of its subject and object; passives ("was defeated
by Wellington"), converse verbs ("Kasparov lost to Deep Blue", "Aristotle
studied under Plato") and role nouns ("Aristotle was Plato's teacher") are
turned round to the same relation. The verifier compares a claim's roles
with the evidence's: the same pair reversed is a contradiction.
"""
from __future__ import annotations

from vital_core.backends.offline.language.analysis import Analysis, memo
from vital_core.backends.offline.language.lexicon import CONVERSE, CONVERSE_PREPS, RELATIONS, ROLE_NOUNS, TRADE_VERBS
from vital_core.backends.offline.language.nlp import Tok, children


def _name_at(a: Analysis, index: int) -> str:
    """The name whose tokens include ``index`` or whose head is it (appositions followed one step)."""
    for name, head in a.names.items():
        if head == index:
            return name
    for t in a.toks:
        if t.head == index and t.dep == "appos":
            return _name_at(a, t.i)
    for name, head in a.names.items():
        if a.toks[head].head == index and a.toks[head].dep in ("compound", "appos", "poss", "amod"):
            return name
    return ""


def _children(toks: tuple[Tok, ...], index: int, deps: tuple[str, ...]) -> list[Tok]:
    return [t for t in children(toks, index) if t.dep in deps]


def _objects(toks: tuple[Tok, ...], verb: Tok, preps: tuple[str, ...] = ()) -> list[int]:
    # the parties of a sale are the seller and the buyer, not the thing sold ("sold the territory to France")
    direct = [t.i for t in _children(toks, verb.i, ("dobj", "attr"))]
    out = [] if verb.lemma in TRADE_VERBS else list(direct)
    for prep in _children(toks, verb.i, ("prep", "agent", "dative")):
        if prep.text.lower() in preps or (not preps and prep.dep == "agent"):
            out += [t.i for t in _children(toks, prep.i, ("pobj",))]
    # "his rematch against Deep Blue", "sold Ruth's contract to the Yankees": the object's own preposition
    for obj in direct:
        for prep in _children(toks, obj, ("prep",)):
            if prep.text.lower() in preps:
                out += [t.i for t in _children(toks, prep.i, ("pobj",))]
    return out


def relations(a: Analysis) -> list[tuple[str, str, str]]:
    """(relation, doer, receiver) triples between names (worked out once per analysis and its names)."""
    return memo(a, "_relations", len(a.names), _relations)


def _relations(a: Analysis) -> list[tuple[str, str, str]]:
    out = []
    toks = a.toks
    for verb in toks:
        if verb.pos not in ("VERB", "AUX", "NOUN"):
            continue
        subjects = [_name_at(a, t.i) for t in _children(toks, verb.i, ("nsubj", "nsubjpass"))]
        if not subjects and verb.dep in ("advcl", "xcomp", "conj") and verb.head != verb.i:
            # "Borg won the title, overcoming McEnroe": the participle's subject is its head verb's
            subjects = [_name_at(a, t.i) for t in _children(toks, verb.head, ("nsubj",))]
        passive = bool(_children(toks, verb.i, ("nsubjpass", "auxpass")))
        if verb.lemma in RELATIONS:
            rel = RELATIONS[verb.lemma]
            preps = ("by",) if passive else ("to",) if rel == "sell" else ()
            objects = _objects(toks, verb, preps)
            others = [_name_at(a, i) for i in objects]
            pairs = [(o, s) if passive else (s, o) for s in subjects for o in others]
        elif verb.lemma in CONVERSE_PREPS:
            rel = CONVERSE.get(verb.lemma, "teach")
            others = [_name_at(a, i) for i in _objects(toks, verb, CONVERSE_PREPS[verb.lemma])]
            pairs = [(o, s) for s in subjects for o in others]
        elif verb.lemma in ROLE_NOUNS and verb.dep == "attr":
            rel, reverse = ROLE_NOUNS[verb.lemma]
            copula = toks[verb.head]
            owners = [_name_at(a, t.i) for t in _children(toks, verb.i, ("poss",))]
            owners += [_name_at(a, t.i) for p in _children(toks, verb.i, ("prep",)) if p.text.lower() == "of"
                       for t in _children(toks, p.i, ("pobj",))]
            holders = [_name_at(a, t.i) for t in _children(toks, copula.i, ("nsubj",))]
            pairs = [(o, h) if reverse else (h, o) for h in holders for o in owners]
        else:
            continue
        out += [(rel, d, r) for d, r in pairs if d and r and d != r]
    return out


def agent_verb(a: Analysis, name: str) -> str:
    """The verb whose "by" names ``name`` ("published by Methuen": "publish"; "by Bill Hewlett and David
    Packard"), or ""."""
    if not a.toks or name not in a.names:
        return ""
    tok = a.toks[a.names[name]]
    while tok.dep in ("conj", "compound", "appos") and tok.head != tok.i:
        tok = a.toks[tok.head]
    by = a.toks[tok.head]
    return a.toks[by.head].lemma if by.lemma == "by" else ""
