"""What frames a clause rather than states its relation: the words a relation is compared without.

"In its rough state the stone weighed 3,106 carats, a little over 600 grams" states the weight; "in its rough
state" opens it, "a little over 600 grams" says the same weight again. "Antonio Stradivari worked for almost his
entire life in Cremona" states where he worked; "for almost his entire life" says how long. The changed-value
rule (``slots``) asks that the rest of a claim be stated without its frame, so that evidence stating the
relation in fewer words ("The Cullinan diamond weighed 3,106 carats") can show a changed value of it.
"""
from __future__ import annotations

from vital_core.backends.offline.language.analysis import Analysis
from vital_core.backends.offline.language.lexicon import MEASURE_NOUNS, dimension_senses
from vital_core.backends.offline.language.nlp import Tok, children, subtree

# nouns for a span of time after "for": "for ten years", "for most of his career"
SPANS_OF_TIME = MEASURE_NOUNS | {"life", "lifetime", "career"}


def frame(toks: tuple[Tok, ...], verb: int) -> set[int]:
    """The tokens of the clause of ``verb`` that frame it: a phrase that opens the sentence or follows a comma
    and names nothing ("In its rough state ...", "..., after its inventor"), a span of time ("for almost his
    entire life", without a place hung on it), a measure said again ("3,106 carats, a little over 600 grams"), the
    ends a measure is taken between ("from bow to stern")."""
    out: set[int] = set()
    for t in children(toks, verb):
        span = subtree(toks, t.i)
        named = any(toks[i].pos == "PROPN" for i in span)
        fronted = min(span) == 0 and max(span) < verb and t.dep in ("prep", "advmod", "npadvmod")
        set_off = min(span) > verb and toks[min(span) - 1].text == "," and t.dep == "prep"
        if (fronted or set_off) and not named:
            out |= span
        elif t.dep == "prep" and t.lemma == "for":
            for span_of_time in (c for c in children(toks, t.i) if c.dep == "pobj" and c.lemma in SPANS_OF_TIME):
                hung = [subtree(toks, p.i) for p in children(toks, span_of_time.i) if p.dep == "prep"]
                out |= span - set().union(*hung)
    out |= measured_between(toks, verb)
    for t in toks:
        # "3,106 carats, a little over 600 grams": a measure in apposition to a measure
        if t.dep == "appos" and any(c.dep == "nummod" for c in children(toks, t.i)) \
                and any(c.dep == "nummod" for c in children(toks, t.head)):
            out |= subtree(toks, t.i)
    return out


def measured_between(toks: tuple[Tok, ...], verb: int) -> set[int]:
    """The ends a measure of the clause of ``verb`` is taken between, naming nothing: "692 feet *from bow to
    stern*", "328 metres tall *from its base to the tip of its mast*"."""
    clause = subtree(toks, verb)
    if not any(t.dep == "nummod" and toks[t.head].lemma in MEASURE_NOUNS for t in toks if t.i in clause):
        return set()
    out: set[int] = set()
    for t in toks:
        if t.i in clause and t.dep == "prep" and t.lemma == "from":
            span = subtree(toks, t.i)
            # the "to" end may hang on the "from" phrase or come right after it
            after = max(span) + 1
            if after < len(toks) and toks[after].lemma == "to" and toks[after].dep == "prep":
                span |= subtree(toks, after)
            if any(toks[i].lemma == "to" for i in span) and not any(toks[i].pos in ("PROPN", "NUM") for i in span):
                out |= span
    return out


def measure_frame(claim: Analysis, target: Analysis) -> tuple[str, ...]:
    """The words of a measure's opening frame ("At its deepest point, it reaches 501 metres"), when the sentence
    gives a measure of the same dimension ("has a maximum depth of 501 metres") and need not say them."""
    root = next((t.i for t in claim.toks if t.dep == "ROOT"), None)
    if root is None or not any(v.is_measure for v in claim.values):
        return ()
    span = frame(claim.toks, root)
    senses = dimension_senses(claim.toks[i].lemma for i in span)
    if not senses or not senses & dimension_senses(t.lemma for t in target.toks):
        # where it is measured from and to is said of no dimension ("from its base to the tip of its mast")
        span = measured_between(claim.toks, root) if any(v.is_measure for v in target.values) else set()
    return tuple(claim.toks[i].lemma for i in span)


def frame_of_other_dimension(claim: Analysis, span: set[int], target: Analysis) -> bool:
    """The frame speaks of a dimension the sentence does not ("At its highest point" / "a maximum depth")."""
    senses = dimension_senses(claim.toks[i].lemma for i in span)
    return bool(senses) and not senses & dimension_senses(t.lemma for t in target.toks)
