"""Who made a thing, said with a noun rather than a verb: "Its author was Anna Sewell", "The studio behind it
was Maxis", "It was the work of DMA Design" all name whom "written/developed by" names."""
from __future__ import annotations

from vital_core.backends.offline.language.lexicon import MAKER_NOUNS, MAKER_PHRASES, MAKING_VERBS
from vital_core.backends.offline.language.nlp import Tok

MAKER = "maker"    # the word a maker phrase says: any making verb or maker noun states it


def _copula(toks: tuple[Tok, ...]) -> Tok | None:
    root = next((t for t in toks if t.dep == "ROOT"), None)
    return root if root is not None and root.lemma == "be" else None


def maker_phrase(toks: tuple[Tok, ...]) -> Tok | None:
    """The noun of "<company/studio/...> behind it was <name>" or of "... was the work of <name>", or None."""
    root = _copula(toks)
    if root is None:
        return None
    for t in toks:
        if t.head != root.i or t.pos != "NOUN":
            continue
        preps = {p.lemma for p in toks if p.head == t.i and p.dep == "prep"}
        if t.dep == "nsubj" and t.lemma in MAKER_PHRASES["behind"] and "behind" in preps \
                and any(a.head == root.i and a.dep == "attr" and a.pos == "PROPN" for a in toks):
            return t
        if t.dep == "attr" and t.lemma in MAKER_PHRASES["of"] and "of" in preps \
                and any(o.dep == "pobj" and o.pos == "PROPN" and toks[o.head].head == t.i for o in toks):
            return t
    return None


def maker_verbs(toks: tuple[Tok, ...], after_of: bool = False) -> frozenset[str]:
    """The verbs whose "by" names the maker the claim names by a noun: any making verb for a maker noun as the
    main verb's subject ("Its author was ...") or a company "behind" the thing; the noun's own verb for "the
    invention of X"; none for "the work of X", which one of several makers may be (the designer of a game its
    studio developed). ``after_of``: the name follows "of", so only "the invention of X" can name it."""
    phrase = maker_phrase(toks)
    if phrase is not None and phrase.dep == "attr":
        return frozenset(MAKER_PHRASES["of"][phrase.lemma]) if after_of else frozenset()
    if not after_of and (phrase is not None or any(
            t.dep == "nsubj" and toks[t.head].dep == "ROOT" and t.lemma in MAKER_NOUNS for t in toks)):
        return MAKING_VERBS
    return frozenset()
