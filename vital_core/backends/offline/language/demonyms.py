"""What a people's adjective says in a claim: where a thing is from when it describes a noun on the subject's
side ("the German foundry Stempel"), where the subject is from when it describes the complement ("was a Swedish
explorer"). ``conflicts`` reads a rival accordingly: another people's adjective, or a country after "from", not
a country named in passing ("at the University of Ghent in Belgium")."""
from __future__ import annotations

from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import Analysis


def describes_a_noun(a: Analysis, name: str) -> bool:
    """Does a people's adjective of the claim describe a noun of its subject side ("the German foundry Stempel"),
    not its complement ("was a Swedish explorer", which says where the subject is from)?"""
    if not a.toks or name not in a.names or name.lower() not in lexicon.DEMONYMS:
        return False
    tok = a.toks[a.names[name]]
    head = a.toks[tok.head]
    return tok.dep in ("amod", "compound") and head.pos in ("NOUN", "PROPN") and head.dep != "attr"


def says_where_from(a: Analysis, name: str) -> bool:
    """Is the name a people's adjective on the complement ("was a Swedish explorer"): where the subject is
    from?"""
    if not a.toks or name not in a.names or name.lower() not in lexicon.DEMONYMS:
        return False
    tok = a.toks[a.names[name]]
    return tok.dep == "amod" and a.toks[tok.head].dep == "attr"
