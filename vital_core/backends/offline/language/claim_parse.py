"""A claim's dependency parse as the clause cuts read it, and the few word forms a cut claim needs.

``ClaimParse``: the tokens of one claim with their children and subtrees, and the text of any set of
them (spaced as written); ``finite_verb`` / ``be_form``: a participle's verb or a copula in its
subject's tense and number ("separating" -> "separated"); ``noun_phrase``: a noun's phrase without the
pieces set off from it; ``lower_first``: a span that only opened the sentence, in lower case; ``noun_before`` /
``with_commas``: the noun phrase before a comma, a span with the commas that set it off.
"""
from __future__ import annotations

from vital_core.backends.offline.language.lexicon import IRREGULAR_PAST, MEASURE_NOUNS
from vital_core.backends.offline.language.nlp import Tok, analyse


class ClaimParse:
    """A claim's tokens with what the cuts read of them: children, subtrees, text of a token set."""

    def __init__(self, text: str):
        self.text = text
        self.toks: tuple[Tok, ...] = analyse(text)
        self.children: dict[int, list[int]] = {t.i: [] for t in self.toks}
        for t in self.toks:
            if t.head != t.i:
                self.children[t.head].append(t.i)
        self.root = next((t for t in self.toks if t.dep == "ROOT"), None)

    def subtree(self, i: int) -> set[int]:
        out, todo = set(), [i]
        while todo:
            j = todo.pop()
            if j not in out:
                out.add(j)
                todo.extend(self.children[j])
        return out

    def child(self, i: int, *deps: str) -> Tok | None:
        return next((self.toks[c] for c in self.children[i] if self.toks[c].dep in deps), None)

    def indefinite(self, i: int) -> Tok | None:
        """The noun's "a"/"an", when it has one."""
        det = self.child(i, "det")
        return det if det is not None and det.lemma in ("a", "an") else None

    def words(self, keep: set[int]) -> str:
        """The kept tokens as text: spaced as written, loose commas tidied, no final stop."""
        out = ""
        for t in self.toks:
            if t.i not in keep:
                continue
            attached = t.start > 0 and not self.text[t.start - 1].isspace()
            out += ("" if attached or not out else " ") + t.text
        out = out.replace(" ,", ",")
        while ",," in out:
            out = out.replace(",,", ",")
        return out.strip(" ,;:-.")

    def comma_before(self, span: set[int]) -> int | None:
        first = min(span) - 1
        return first if first >= 0 and self.toks[first].text == "," else None

    def comma_after(self, span: set[int]) -> int | None:
        if self.toks[max(span)].text == "," and len(span) > 1:
            return max(span)    # the parser hung the closing comma on the span's last word ("..., off Greece,")
        nxt = max(span) + 1
        return nxt if nxt < len(self.toks) and self.toks[nxt].text == "," else None

    def set_off(self, span: set[int]) -> bool:
        """The span stands between commas (or a comma and the sentence's end)."""
        nxt = max(span) + 1
        ends = nxt >= len(self.toks) or self.toks[nxt].text in (",", ".", ";", "!", "?")
        return self.comma_before(span) is not None and ends

    def past(self, verb: Tok) -> bool:
        return verb.tag == "VBD" or any(self.toks[c].tag == "VBD" and self.toks[c].dep in ("aux", "auxpass")
                                        for c in self.children[verb.i])

    def plural(self, noun: Tok) -> bool:
        """A plural noun, a pair, or the subject of a plural verb ("The Moomins ... *were* created")."""
        # a name the tagger calls plural without an "s" is one ("Akihiro Yokoi")
        if noun.tag == "NNS" or noun.tag == "NNPS" and noun.text.endswith("s") \
                or any(self.toks[c].dep == "conj" for c in self.children[noun.i]):
            return True
        verb = self.toks[noun.head]
        return noun.dep in ("nsubj", "nsubjpass") and any(
            self.toks[i].tag == "VBP" or self.toks[i].text.lower() in ("were", "are")
            for i in [verb.i] + [c for c in self.children[verb.i] if self.toks[c].dep in ("aux", "auxpass")])


def lower_first(parse: ClaimParse, span: set[int]) -> str:
    """The span's words, its first in lower case when it only opened the sentence ("Built in 1481, ...")."""
    text = parse.words(span)
    return text[:1].lower() + text[1:] if min(span) == 0 and parse.toks[0].pos != "PROPN" else text


def finite_verb(verb: Tok, past: bool, plural: bool) -> str:
    """The verb of a participle phrase ("separating", "becoming") as its subject's finite verb."""
    lemma = verb.lemma
    if lemma == "be":
        return ("were" if plural else "was") if past else ("are" if plural else "is")
    if past:
        if lemma in IRREGULAR_PAST:
            return IRREGULAR_PAST[lemma]
        if verb.text.lower().endswith("ing") and len(verb.text) > 5 and verb.text[-4] == verb.text[-5] \
                and not lemma.endswith(verb.text[-4] * 2):
            return verb.text[:-3].lower() + "ed"          # "stopping" -> "stopped"
        if lemma.endswith("e"):
            return lemma + "d"
        if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
            return lemma[:-1] + "ied"
        return lemma + "ed"
    if plural:
        return lemma
    if lemma == "have":
        return "has"
    if lemma.endswith(("s", "x", "z", "ch", "sh", "o")):
        return lemma + "es"
    if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
        return lemma[:-1] + "ies"
    return lemma + "s"


def be_form(parse: ClaimParse, noun: Tok, past: bool) -> str:
    plural = parse.plural(noun)
    return ("were" if plural else "was") if past else ("are" if plural else "is")


def noun_phrase(parse: ClaimParse, head: Tok, cut: set[int]) -> str:
    """The noun phrase of ``head`` without the pieces set off from it (clauses, appositives), and with the
    title it ends when the parser split one ("Five Weeks in a Balloon")."""
    span = set(parse.subtree(head.i))
    for c in parse.children[head.i]:
        tok = parse.toks[c]
        if tok.dep in ("acl", "relcl", "appos", "conj", "cc", "punct") and tok.i > head.i:
            span -= parse.subtree(c)
    if head.text[:1].isupper():
        span |= set(range(_title_start(parse, min(span)), min(span)))
    return parse.words(span - cut)


# the small words a title keeps in lower case between its capitalised words
_TITLE_GLUE = {"in", "a", "an", "the", "of", "to", "on", "and", "for", "at", "from", "with", "under", "around"}


def _title_start(parse: ClaimParse, first: int) -> int:
    """Where a title that the parser cut at a small word starts: "Five Weeks in" before "a Balloon". Only a
    run with a capitalised word that is no proper noun reads as a title ("Robert FitzRoy on the Beagle" is
    two names)."""
    toks, start, titled = parse.toks, first, False
    j = first - 1
    while j > 0:
        k = j
        while k > 0 and toks[k].text in _TITLE_GLUE:
            k -= 1
        if not toks[k].text[:1].isupper() or toks[k].pos == "PUNCT":
            break
        while k > 0 and toks[k - 1].text[:1].isupper() and toks[k - 1].pos != "PUNCT":
            titled |= toks[k].pos != "PROPN"
            k -= 1
        titled |= toks[k].pos != "PROPN"
        start, j = k, k - 1
    return start if titled else first


def near_of(parse: ClaimParse, place: Tok) -> Tok | None:
    """The "near" on the main verb that ``place`` is the object of ("lies near the town of Santillana")."""
    up = place
    for _ in range(4):      # up through "the town of" to "near" on the verb
        if up.head == up.i or up.pos not in ("ADP", "NOUN", "PROPN") or up.lemma == "near":
            break
        up = parse.toks[up.head]
    return up if up.lemma == "near" and up.head == parse.root.i else None


def noun_before(parse: ClaimParse, comma: int) -> Tok | None:
    """The noun phrase that ends just before ``comma``, by its head ("Usain Bolt of Jamaica" -> Bolt)."""
    if comma < 1 or parse.toks[comma].text != ",":
        return None
    tok = parse.toks[comma - 1]
    # up from "Jamaica" through "of" to "Bolt": a name's prepositional complement belongs to the name; a
    # common noun's does not ("oil of bergamot, a small sour orange", "the town of Kampen, a ...")
    while tok.dep == "pobj" and parse.toks[tok.head].dep == "prep" \
            and parse.toks[parse.toks[tok.head].head].pos == "PROPN":
        tok = parse.toks[parse.toks[tok.head].head]
    while tok.dep == "compound" and parse.toks[tok.head].i > tok.i:
        tok = parse.toks[tok.head]
    return tok if tok.pos in ("NOUN", "PROPN") else None


def with_commas(parse: ClaimParse, span: set[int]) -> set[int]:
    """The span with the commas that set it off ("Pluto, found in 1930, is" -> "Pluto is")."""
    return span | {i for i in (parse.comma_before(span), parse.comma_after(span)) if i is not None}


def measured_from(parse: ClaimParse, i: int) -> bool:
    """Is token ``i`` an "after" or "before" that a span of time measures from ("completed six centuries *after*
    its foundation stone was laid")? The span and the clause are one time, not two facts."""
    return parse.toks[i].lemma in ("after", "before") and i > 0 and parse.toks[i - 1].lemma in MEASURE_NOUNS


def measures(parse: ClaimParse, mod: Tok) -> bool:
    """Is a bare noun phrase on the verb a time or a distance ("two years later", "a few steps from the
    market"): a modifier of the verb, a fact of its own?"""
    return any(parse.toks[i].pos == "NUM" or parse.toks[i].lemma in MEASURE_NOUNS for i in parse.subtree(mod.i))


def between(parse: ClaimParse, t: Tok) -> bool:
    """Is ``t`` the second of two things something is between ("the strait between Portsmouth and the Isle of
    Wight")?"""
    first = parse.toks[t.head]
    return first.dep == "pobj" and parse.toks[first.head].lemma == "between"


def one_of(parse: ClaimParse, t: Tok) -> bool:
    """"Bandai, one of Japan's biggest toy companies, ...": the parser tags "one" a numeral."""
    prep = parse.child(t.i, "prep")
    return t.lemma == "one" and prep is not None and prep.lemma == "of"
