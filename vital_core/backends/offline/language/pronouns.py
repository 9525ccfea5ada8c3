"""Who "he", "she", "it" and "they" are: a sentence's subject pronoun read as the last named subject.

``resolve_pronouns`` rewrites a run of sentences; ``Antecedents`` follows the named subjects sentence by
sentence (the decomposer uses it while it cuts each sentence into claims). A pronoun is replaced only
where the parse makes it the main subject and the name fits it (he/she: a person-like name).
"""
from __future__ import annotations

import re

from vital_core.backends.offline.language.lexicon import (
    DEMONYMS,
    FUNCTION_CAPS,
    MAKER_NOUNS,
    MAKING_VERBS,
    ROLE_NOUNS,
    TITLES,
    VESSEL_WORDS,
    founding,
    person_like,
    place_kind,
    said_by_verb_phrase,
)
from vital_core.backends.offline.language.makers import maker_phrase
from vital_core.backends.offline.language.nlp import analyse

# a name of two or more capitalised words, a person's most likely ("Caleb Bradham")
FULL_NAME = r"(?:[A-Z]\.\s+)+[A-Z][\w'\-]*|[A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*)+"     # (or initials: "A. A. Milne")
# A name opened by one of these ("The Berlin Wall") is a thing's, never a person's: no "he" or "she".
DEMONSTRATIVES = ("The", "These", "This", "Those")


# "The Stari Most, or Old Bridge, is ...": the subject's other name, between commas after "or"
_ALIAS = re.compile(r"^((?:The\s+)?[A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*)*),\s+or\s+((?:the\s+)?[A-Z][\w'\-]*"
                    r"(?:\s+[A-Z][\w'\-]*)*),\s+(?=[a-z])")


def drop_alias(sentence: str) -> tuple[str, str | None]:
    """The sentence without its subject's other name, and a claim that gives it ("The Stari Most is also called
    Old Bridge."), or the sentence and None: the two names are one subject, not a list of two."""
    match = _ALIAS.match(sentence)
    if not match:
        return sentence, None
    name, alias = match.group(1), match.group(2)
    return f"{name} {sentence[match.end():]}", f"{name} is also called {alias}."


def sentence_subject_name(sentence: str) -> str | None:
    """The sentence's subject when it is a name ("Kobe Bryant won ...", "The Eiffel Tower is ...").

    The parser must agree that the capitalised words open the subject: "Contrary to popular belief,
    he ..." and "Throughout the war Turing ..." do not have "Contrary" or "Throughout" as subject.
    """
    sentence = drop_alias(sentence)[0]
    match = re.match(r"((?:The|These|This|Those)\s+)?((?:[A-Z][\w'\-]*\.?\s+){0,3}[A-Z][\w'\-]*)\s+[a-z]",
                     sentence)
    if not match or match.group(2).split()[0].lower() in FUNCTION_CAPS or match.group(2).lower() in DEMONYMS:
        return None     # ("The English polymath Thomas Young": "English" is no subject)
    if re.match(r"\s+and\s+[A-Z]", sentence[match.end(2):]):
        return None     # "John and Christine McVie were divorcing": two subjects, and "it" is neither
    title = re.match(r"\s+of\s+(?:the\s+)?[A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*)*(?=\s+[a-z])", sentence[match.end(2):])
    if not match.group(1) and title:
        # "Lord of the Flies is a novel": a title runs on, and "Lord" alone is no one ("The Battle of Hastings"
        # is still "the battle")
        return match.group(2) + title.group(0) if _title_subject(sentence, match.end(2) + title.end()) else None
    toks = analyse(sentence)
    span_end = match.end(2)
    inside = [t for t in toks if t.start < span_end and t.text not in DEMONSTRATIVES]
    # a capitalised adjective may open a name ("The Great Eastern"), not end it
    if not inside or any(t.pos != "PROPN" and not _hyphened(sentence, t)
                         and not (t.pos == "ADJ" and t is not inside[-1]) for t in inside):
        return None
    if not any(t.dep in ("nsubj", "nsubjpass") or toks[t.head].dep in ("nsubj", "nsubjpass") for t in inside):
        return None
    if any(t.dep == "compound" and toks[t.head].pos == "NOUN" and toks[t.head].start >= span_end for t in inside):
        return None     # "The Transvaal government bought it": the subject is the government, not the Transvaal
    return (match.group(1) or "") + match.group(2)


def _title_subject(sentence: str, end: int) -> bool:
    """Do the words up to ``end`` make the main verb's subject ("Lord of the Flies is ...")?"""
    toks = analyse(sentence)
    return any(t.dep in ("nsubj", "nsubjpass") and t.start < end and toks[t.head].dep == "ROOT" for t in toks)


def _hyphened(sentence: str, t) -> bool:
    """A hyphen or a word joined by one inside a name ("Winnie-the-Pooh")."""
    end = t.start + len(t.text)
    return t.text == "-" or sentence[t.start - 1:t.start] == "-" or sentence[end:end + 1] == "-"


_VESSEL = re.compile(r"\b(?:" + "|".join(VESSEL_WORDS) + r")s?\b", re.IGNORECASE)
LEADING_PRONOUN = re.compile(r"^(He|She|It|They)\b")
CLEFT = re.compile(r"^[Ii]t\s+(?:was|is)\b.*\b(?:who|that)\b")   # "it was Champollion who ...": no antecedent


def _a_person(name: str) -> bool:
    """A full name that is likely a person's, whom "it" never stands for ("Lake Superior" is a thing: a
    generic head, "lake", makes no person; "Philips" alone may be a company)."""
    return name.split()[0] not in DEMONSTRATIVES and len(name.split()) >= 2 and person_like(name)


def replace_subject_pronoun(sentence: str, previous: str | None, vessel: bool = False, defined: bool = False) -> str:
    """The sentence with its main subject pronoun replaced by ``previous`` (a name).

    A leading He/She/It/They always; after an opening phrase ("In 1936 he published ...") he, she and they
    for a person, "it" (or a ship's "she") for a thing ("The Battle of ..."; only right after the phrase's
    comma), and only when the parser makes the pronoun the main verb's subject. He/she stand only for a
    person-like name (not "The Berlin Wall"), but "she" also for a thing the text called a ship
    (``vessel``: "The Cutty Sark is a clipper ship. ... she was launched in 1869"). A leading "It" stands for
    a person-like name only when the text said what that name is (``defined``: "Skara Brae is a Neolithic
    village. It lies ..."), for "It" names no person.
    """
    if not previous:
        return sentence
    if LEADING_PRONOUN.match(sentence):
        personal = sentence.split()[0] in ("He", "She")
        person_name = _a_person(previous)
        if personal and previous.split()[0] in DEMONSTRATIVES and not (vessel and sentence.split()[0] == "She"):
            return sentence   # a thing is "it"; a ship is "she" ("The Mary Rose was a warship ... She sank ...")
        if sentence.split()[0] == "It" and person_name and not defined:
            return sentence   # "Jane Austen wrote Emma. It was published ...": "it" is not Jane Austen
        return LEADING_PRONOUN.sub(previous, sentence, count=1)
    a_thing = previous.split()[0] in DEMONSTRATIVES
    for_thing = ("it", "she") if vessel else ("it",)     # the pronouns a thing named before may be
    if not re.search(rf"\b({'|'.join(for_thing) if a_thing else 'he|she'}|they)\b", sentence):
        return sentence
    toks = analyse(sentence)
    for t in toks:
        if t.dep not in ("nsubj", "nsubjpass") or toks[t.head].dep != "ROOT":
            continue
        if t.text in ("he", "she", "they") and not a_thing:
            return sentence[:t.start] + previous + sentence[t.start + len(t.text):]
        # "Fought on 7 October 1571 ..., it ended in ...": the thing named before, right after the opening
        # phrase's comma ("it was decided that ..." and its like stand for no thing)
        if t.text in for_thing and a_thing and t.i > 0 and toks[t.i - 1].text == "," \
                and not any(k.dep in ("ccomp", "xcomp", "csubj") and k.head == t.head for k in toks):
            return sentence[:t.start] + previous[:1].lower() + previous[1:] + sentence[t.start + len(t.text):]
    return sentence


def replace_object_pronoun(sentence: str, previous: str | None) -> str:
    """The sentence with the main verb's object "it" replaced by ``previous`` when that is a thing's name, the
    subject is someone else and the verb brings the thing into being or out ("Philips is a company. Gerard
    Philips set it up in 1891" -> "... set Philips up in 1891"; "Bandai put it on sale", "The Queen declared it
    open"; and after "behind" in "The studio behind it was Maxis"), so that when and where it was made can be said
    of it. After another verb "it" is as often the thing last acted on ("The Louvre bought the painting. Thieves
    stole it"), so it stays."""
    if not previous or not re.search(r"\bit\b", sentence) or _a_person(previous):
        return sentence
    toks = analyse(sentence)
    name = previous[:1].lower() + previous[1:] if previous.split()[0] in DEMONSTRATIVES else previous
    maker = maker_phrase(toks)
    for t in toks:
        # "The studio behind it was Maxis": the thing it made
        if maker is not None and t.text == "it" and t.dep == "pobj" and toks[t.head].head == maker.i:
            return sentence[:t.start] + name + sentence[t.start + len(t.text):]
    subject = next((t for t in toks if t.dep in ("nsubj", "nsubjpass") and toks[t.head].dep == "ROOT"), None)
    for t in toks:
        verb = toks[t.head]
        if t.dep == "nsubj" and verb.dep in ("ccomp", "oprd") and verb.pos == "ADJ":
            verb = toks[verb.head]      # "declared it open": the parser makes "it" the subject of "open"
        elif t.dep != "dobj":
            continue
        if t.text != "it" or verb.dep != "ROOT" or subject is None or subject.pos == "PRON":
            continue
        particle = next((p.lemma for p in toks if p.dep == "prt" and p.head == verb.i), "")
        if founding(verb.lemma, particle) or verb.lemma in MAKING_VERBS or _releases(verb, toks):
            return sentence[:t.start] + name + sentence[t.start + len(t.text):]
    return sentence


# verbs that bring a made thing out or into use: "Bandai released it", "The Queen opened it"
_BRINGING_OUT = ("release", "open", "inaugurate", "unveil", "launch")


def _releases(verb, toks) -> bool:
    """"released it", "put it on sale", "declared it open" (or a phrase of the lexicon for such a verb)."""
    return verb.lemma in _BRINGING_OUT or any(word in _BRINGING_OUT
                                              for word in said_by_verb_phrase(verb.lemma, {t.lemma for t in toks}))


class Antecedents:
    """The named subjects seen so far: the last one, and the last full name (a person, most likely).

    "She" after "Polio struck her when she was six." is still Frida Kahlo: a one-word subject stands for
    he/she only when it is the last word of the person named before ("Darwin" for "Charles Darwin") or
    when no full name came before."""

    def __init__(self) -> None:
        self.last: str | None = None
        self.person: str | None = None
        self.vessel = False     # the last named subject is a thing the text called a ship: "she"
        self.ship: str | None = None    # the ship the text is about, whom "she" stays with after a person
        self.defined = False    # the last named subject's sentence said what it is ("X is a village")

    def for_sentence(self, sentence: str) -> tuple[str | None, bool, bool]:
        """(the name a pronoun of the sentence stands for, whether "she" may be that thing as a ship, whether the
        last named subject's sentence said what it is): ``replace_subject_pronoun``'s arguments after the
        sentence."""
        if self.ship and re.search(r"\b[Ss]he\b", sentence) and not re.search(r"\b[Hh](?:e|is|im)\b", sentence):
            # "The Great Eastern was an iron steamship ... Brunel meant her to carry ... She had two paddle
            # wheels": in a text about a ship, "she" is the ship
            return self.ship, True, self.defined
        return self._named(sentence), self.vessel, self.defined

    def _named(self, sentence: str) -> str | None:
        if not re.match(r"^(He|She)\b", sentence) and not re.search(r"\b(he|she)\b", sentence[:60]):
            return self.last
        if self.person and (not self.last or len(self.last.split()) == 1 and self.last != self.person.split()[-1]):
            return self.person
        return self.last

    def saw(self, sentence: str) -> None:
        name = sentence_subject_name(sentence)
        if name and name != self.person and _refers_to_another(sentence):
            # "André Breton championed her ...": she, not Breton, is still the one written about
            if not self.person:
                self.last = None     # and who she is was not said
            return
        described = [m for m in _DESCRIBED_PERSON.findall(sentence)
                     if m.split()[0] not in DEMONSTRATIVES and not place_kind(m) and m != name]
        if described and (not name or len(name.split()) == 1 or name.split()[0] in DEMONSTRATIVES):
            # "Pepsi was created by Caleb Bradham, a pharmacist ...": the next "he" is Bradham, not Pepsi (a
            # thing made by a person; "Darwin sailed with Robert FitzRoy, a captain": he is still Darwin)
            self.person = described[-1]
        if name:
            if name != self.last:
                self.vessel = name.split()[0] in DEMONSTRATIVES and bool(_VESSEL.search(sentence))
                if self.vessel and not self.ship:
                    self.ship = name
            self.defined = _defined_as_thing(sentence)
            self.last = name
            if len(name.split()) >= 2 and name.split()[0] not in DEMONSTRATIVES:
                self.person = name


# the maker of the thing the sentence is about, described as a person: "(created) by Caleb Bradham, a
# pharmacist", "(made) by Antonio Stradivari, who lived ..."
_DESCRIBED_PERSON = re.compile(rf"\bby\s+((?:{FULL_NAME})),\s+(?:who\b|an?\s)")


def _defined_as_thing(sentence: str) -> bool:
    """Does the sentence say what its subject is with a noun for no person and of no other name ("... is a
    stone-built Neolithic village"; not "... was an author", "... was the author of Emma", whose "It" is
    Emma)?"""
    toks = analyse(sentence)
    root = next((t for t in toks if t.dep == "ROOT"), None)
    attr = next((t for t in toks if root is not None and t.head == root.i and t.dep == "attr"), None)
    if root is None or root.lemma != "be" or attr is None or attr.pos != "NOUN" \
            or attr.lemma in MAKER_NOUNS | set(ROLE_NOUNS) | TITLES or attr.lemma.endswith(("ist", "ian")):
        return False    # ("novelist", "historian": a person's)
    return not any(p.lemma == "of" and any(o.pos == "PROPN" for o in toks if o.head == p.i)
                   for p in toks if p.head == attr.i)


def _refers_to_another(sentence: str) -> bool:
    """Does the sentence speak of a person other than its named subject: "him"/"her" as an object, or
    "he"/"she" as the subject of a later clause ("..., but she disputed the label")?"""
    toks = analyse(sentence)
    return any(t.text.lower() in ("her", "him") and t.dep in ("dobj", "pobj", "dative")
               or t.text.lower() in ("he", "she") and t.i > 0 and t.dep in ("nsubj", "nsubjpass")
               for t in toks)


def resolve_pronouns(sentences: list[str]) -> list[str]:
    """Sentences with their subject pronoun replaced by the previous named subject."""
    out = []
    seen = Antecedents()
    for sentence in sentences:
        out.append(replace_subject_pronoun(sentence, *seen.for_sentence(sentence)))
        seen.saw(sentence)
    return out
