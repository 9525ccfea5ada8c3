"""What a question asks for, and which typed mentions a claim contains.

``question_type`` maps a query onto the kind of answer it expects (a person,
a date, a number, a place, an entity, a description). ``extract_mentions``
finds the typed spans in a text — years, dates, numbers (digits and number
words), capitalised names, places — and whether it hedges. Importance
uses both to tell an answering claim from background; verification compares
the mentions of a claim with those of its aligned evidence; perturbation swaps
one mention for another of the same type.

Everything is rule-based and deterministic; the word lists it reads
(months, number words, places, negations, hedges) are the ``lexicon``'s.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from vital_core.backends.offline.language.lexicon import (
    FUNCTION_CAPS,
    HEDGES,
    MONTHS,
    MULTIWORD_PLACES,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    PLACE_HEADS,
    PLACE_WORDS,
    SCALE_WORDS,
)
from vital_core.backends.offline.language.nlp import analyse
from vital_core.backends.offline.language.text import words
from vital_core.backends.offline.language.values import CLOCK_TIME

PERSON, DATE, NUMBER, PLACE, ENTITY, DESCRIPTION, YESNO = (
    "person", "date", "number", "place", "entity", "description", "yes/no")


# Statements about the answer itself rather than the world.
META_PATTERNS = re.compile(
    r"\b(as of my (last|knowledge)|knowledge cutoff|i (do not|don't|cannot|can't)|i am not|i'm not|"
    r"it is (important|worth|best|advisable|recommended) to|it's (important|worth|best)|"
    r"for (the most )?(accurate|up-to-date|current|latest|more) (and )?(information|details)|"
    r"(check|consult|refer to|visit) (the |an |a |official |local |with )|"
    r"(is|are) (not )?(widely |well |publicly |readily )?(documented|available|known) (in|to|as)|"
    r"in summary|in conclusion|overall,|to summari[sz]e|please note|keep in mind|"
    r"there is no (widely|specific|publicly|definitive|known)|not (widely|publicly|readily|commonly) "
    r"(known|documented|available|recognized|recognised|attributed))", re.IGNORECASE)

_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})s?\b")
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(%|st|nd|rd|th)?(?![\w])")
_CAP_PHRASE = re.compile(
    r"\b([A-Z][\w'\-]*\.?(?:\s+(?:(?:of|the|de|la|von|van|del|da|and|&)\s+)?[A-Z][\w'\-]*\.?)*)")


@dataclass
class Mentions:
    """Typed spans of one text, normalised for comparison."""
    years: set[str] = field(default_factory=set)
    dates: set[str] = field(default_factory=set)        # "march 3", "march" (month names)
    numbers: set[float] = field(default_factory=set)    # cardinal values, years excluded
    ordinals: set[int] = field(default_factory=set)
    names: set[str] = field(default_factory=set)        # lower-cased capitalised phrases
    places: set[str] = field(default_factory=set)
    hedged: bool = False


# A request rather than a question ("Tell me a bio of Ada Lovelace."): no single answer to look for.
_REQUEST_VERBS = r"(tell me|write|give me|describe|summari[sz]e|explain|talk about|introduce)"
_OPEN_ENDED = re.compile(rf"^\s*{_REQUEST_VERBS}\b", re.IGNORECASE)
# What a biography or overview is read for: achievements, records, what the subject is known for.
SALIENT = re.compile(r"\b(best[- ]known|most famous|famous for|known for|renowned|celebrated for|"
                     r"first (\w+ )?(person|woman|man|human|people|player|team|country) to|"
                     r"first (\w+ )?(president|prime minister|leader|king|queen)|regarded as the first|"
                     r"won|awarded|prize|medals?|"
                     r"(leading|key|central|pivotal|decisive) role|(set out|proposed|developed|formulated) the theory|"
                     r"(world's|the) (largest|longest|highest|tallest|biggest|deepest|oldest)|invented|discovered)\b",
                     re.IGNORECASE)


# the same request asked as a question: "What should I know about X?", "Can you tell me about X?"
_OPEN_QUESTION = re.compile(r"^\s*(what (should|do|would|must) (i|we|one) (know|learn) about|"
                            r"what (can|could) you tell me about|what do you know about|what is there to know about|"
                            r"(can|could|would) you (please )?(tell me about|describe|explain|summari[sz]e|give me an? "
                            r"(overview|summary|introduction)))\b", re.IGNORECASE)


# "What is the Venus of Willendorf?", "What are the Lindisfarne Gospels?" (a name, capitalised: not "What is
# the capital of Peru?"), "What is Mount Tambora known for?": a request to describe it
_WHAT_IS_NAME = re.compile(r"^\s*[Ww]hat (is|are|was|were) (the )?[A-Z][\w'’\-]*"
                           r"((\s+(of|in|and|the|de|la|von|van))*\s+[A-Z][\w'’\-]*)*\s*\?\s*$")
_KNOWN_FOR = re.compile(r"^\s*what (is|are|was|were) .+ (best )?(known|famous|remembered) for\s*\??\s*$", re.IGNORECASE)


def is_open_ended(query: str) -> bool:
    return bool(_OPEN_ENDED.search(query)) and not query.strip().endswith("?") or bool(_OPEN_QUESTION.search(query)) \
        or bool(_WHAT_IS_NAME.match(query)) or bool(_KNOWN_FOR.match(query))


def question_type(query: str) -> str:
    """The kind of answer the (prefix-stripped) query asks for."""
    q = " " + re.sub(r"[^\w\s']", " ", query.lower()) + " "
    if re.search(r" (when|what year|which year|what date|which date|what time|what century|"
                 r"what decade|how long ago|since when) ", q):
        return DATE
    if re.search(r" how (many|much|long|old|far|tall|big|high|deep|large|often|fast|wide|heavy) |"
                 r" (what|which) (percentage|percent|number|amount|age|population|size) |"
                 # "What is the men's 100 metres world record?": a measure is a number
                 r" what (is|was) the [\w' ]*(record|height|length|distance|speed|depth|elevation|area|"
                 r"temperature|weight|capacity|duration)( of [\w' ]+)? *$", q):
        return NUMBER
    if re.search(r" (who|whom|whose) | (what|which) (person|actor|actress|singer|author|writer|"
                 r"player|president|king|queen|artist|band|group|character|team|company) ", q):
        return PERSON
    if re.search(r" (where|what country|which country|what city|which city|what state|"
                 r"which state|what place|which place|what part of|in what) ", q):
        return PLACE
    if re.search(r" (why|how (do|does|did|is|are|can|to)|explain|describe|summary|what happened) ", q):
        return DESCRIPTION
    if re.search(r"^ (is|are|was|were|can|could|do|does|did|will|would|should|has|have) ", q):
        return YESNO
    return ENTITY


def _number_value(token: str) -> float | None:
    try:
        return float(token.replace(",", ""))
    except ValueError:
        return None


def extract_mentions(text: str) -> Mentions:
    m = Mentions()
    lowered = text.lower()
    tokens = words(text)
    token_set = set(tokens)
    for match in _YEAR.finditer(text):
        m.years.add(match.group(0).lower())
    for month in MONTHS:
        for match in re.finditer(rf"\b{month}\b(\s+\d{{1,2}}\b)?", lowered):
            if month == "may" and not match.group(1) and not re.search(
                    r"\bmay\s+(\d|of\b|19|20)|\bin may\b", lowered):
                continue  # the modal verb, not the month
            m.dates.add(match.group(0).strip())
    year_values = {y.rstrip("s") for y in m.years}
    # a time of day says when, not how many: its digits are no numbers
    for match in _NUMBER.finditer(CLOCK_TIME.sub(lambda c: " " * len(c.group(0)), text)):
        raw, suffix = match.group(1), match.group(2) or ""
        if raw in year_values and not suffix:
            continue
        value = _number_value(raw)
        if value is None:
            continue
        # "3 million" counts as 3,000,000
        tail = lowered[match.end():match.end() + 12].split()
        if tail and tail[0] in SCALE_WORDS:
            value *= SCALE_WORDS[tail[0]]
        if suffix in ("st", "nd", "rd", "th"):
            m.ordinals.add(int(value))
        else:
            m.numbers.add(value)
    for i, tok in enumerate(tokens):
        if tok in NUMBER_WORDS and tok not in ("once", "single", "both", "pair", "one"):
            value = float(NUMBER_WORDS[tok])
            if i + 1 < len(tokens) and tokens[i + 1] in SCALE_WORDS:
                value *= SCALE_WORDS[tokens[i + 1]]
            m.numbers.add(value)
        elif tok in ORDINAL_WORDS and tok != "last":
            m.ordinals.add(ORDINAL_WORDS[tok])
    m.names = capitalised_phrases(text)
    for phrase in MULTIWORD_PLACES:
        if phrase in lowered:
            m.places.add(phrase)
    for name in m.names:
        parts = name.split()
        if any(p in PLACE_WORDS for p in parts) or (len(parts) > 1 and parts[-1] in PLACE_HEADS):
            m.places.add(name)
    for tok in token_set & PLACE_WORDS:
        # lower-case place words only count in the capitalised form
        if re.search(rf"\b{tok.capitalize()}\b|\b{tok.upper()}\b", text):
            m.places.add(tok)
    m.hedged = bool(token_set & set(HEDGES))
    return m


def capitalised_phrases(text: str) -> set[str]:
    """Lower-cased capitalised word sequences that look like names.

    Words capitalised only because they open a sentence are dropped: leading
    function words ("However", "The"), and a lone sentence-initial word unless
    it is a known place ("Emphasis has been ..." is not a name; "India is ..." is).
    """
    out: set[str] = set()
    for match in _CAP_PHRASE.finditer(text):
        phrase = match.group(1).strip(" .")
        parts = phrase.split()
        at_start = match.start() == 0 or bool(re.search(r"[.!?:;\"“(]\s*$", text[:match.start()]))
        trimmed = 0
        while parts and parts[0].lower().strip(".") in FUNCTION_CAPS:
            parts = parts[1:]
            trimmed += 1
        while parts and parts[-1].lower() in ("of", "the", "de", "la", "and", "&", "von", "van"):
            parts = parts[:-1]
        if not parts:
            continue
        name = re.sub(r"(’s|'s|’|')$", "", " ".join(parts).lower())
        name = re.sub(r"(’s|'s|’|')(?=\s)", "", name)
        if at_start and not trimmed and len(parts) == 1 and name not in PLACE_WORDS:
            continue
        if name and not name.isdigit():
            out.add(name)
    return out


# An open-ended request's lead-in, before the words naming what it is about
_REQUEST = re.compile(rf"^\s*{_REQUEST_VERBS}"
                      r"(\s+(me|us))?(\s+(about|a bio of|a biography of|an overview of|the story of|of))?\s+",
                      re.IGNORECASE)


def topic_words(request: str) -> set[str]:
    """The lemmas of what an open-ended request is about ("Tell me about the Sydney Harbour Bridge")."""
    return {w for t in analyse(_REQUEST.sub("", request)) if t.pos in ("NOUN", "PROPN")
            for w in (t.lemma, t.text.lower())}


def about(claim: str, topic: set[str]) -> bool:
    """Is the claim's subject the request's topic: one of its words ("the bridge", "Hubble's mirror")?"""
    toks = analyse(claim)
    subjects = [t for t in toks if t.dep in ("nsubj", "nsubjpass") and toks[t.head].dep == "ROOT"]
    if not subjects:
        return False
    if subjects[0].text.lower() in ("it", "he", "she", "they"):
        return True     # the decomposition has put back the names it could; what is left speaks of the topic
    first, last = subjects[0], subjects[0]
    span = [t for t in toks if t.i <= last.i and _heads_to(toks, t, first)]
    return any(t.lemma in topic or t.text.lower() in topic for t in span)


def _heads_to(toks, tok, target) -> bool:
    for _ in range(len(toks)):
        if tok.i == target.i:
            return True
        if tok.head == tok.i:
            return False
        tok = toks[tok.head]
    return False
