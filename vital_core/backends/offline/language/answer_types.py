"""What a question asks for, and which typed mentions a claim contains.

``question_type`` maps a query onto the kind of answer it expects (a person,
a date, a number, a place, an entity, a description). ``extract_mentions``
finds the typed spans in a text — years, dates, numbers (digits and number
words), capitalised names, places — plus negation and hedging. Importance
uses both to tell an answering claim from background; verification compares
the mentions of a claim with those of its aligned evidence; perturbation swaps
one mention for another of the same type.

Everything is rule-based and deterministic; the small word lists below are
the whole of the "knowledge" involved.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

PERSON, DATE, NUMBER, PLACE, ENTITY, DESCRIPTION, YESNO = (
    "person", "date", "number", "place", "entity", "description", "yes/no")

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "dozen": 12,
    "single": 1, "once": 1, "twice": 2, "thrice": 3, "both": 2, "pair": 2,
}
ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "last": -1,
}
SCALE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}

# A small gazetteer: enough to type the places that questions are usually about.
COUNTRIES = (
    "afghanistan albania algeria argentina armenia australia austria bangladesh belgium bolivia "
    "brazil britain bulgaria cambodia cameroon canada chile china colombia croatia cuba cyprus "
    "czechia denmark ecuador egypt england estonia ethiopia fiji finland france germany ghana "
    "greece guatemala haiti honduras hungary iceland india indonesia iran iraq ireland israel "
    "italy jamaica japan jordan kazakhstan kenya korea kuwait laos latvia lebanon liberia libya "
    "lithuania luxembourg madagascar malaysia maldives mali malta mexico mongolia morocco "
    "mozambique myanmar namibia nepal netherlands nicaragua niger nigeria norway oman pakistan "
    "panama paraguay peru philippines poland portugal qatar romania russia rwanda scotland "
    "senegal serbia singapore slovakia slovenia somalia spain sudan sweden switzerland syria "
    "taiwan tanzania thailand tunisia turkey uganda ukraine uruguay venezuela vietnam wales "
    "yemen zambia zimbabwe america usa uk").split()
US_STATES = (
    "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia "
    "hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts "
    "michigan minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon "
    "pennsylvania tennessee texas utah vermont virginia washington wisconsin wyoming").split()
MULTIWORD_PLACES = (
    "united states", "united kingdom", "new york", "new jersey", "new mexico", "new hampshire",
    "new zealand", "north carolina", "south carolina", "north dakota", "south dakota",
    "west virginia", "rhode island", "south africa", "saudi arabia", "sri lanka", "hong kong",
    "los angeles", "san francisco", "las vegas", "new orleans", "great britain", "soviet union",
    "united arab emirates", "costa rica", "puerto rico", "el salvador", "south korea", "north korea")
CITIES = (
    "london paris berlin rome madrid moscow tokyo beijing shanghai delhi mumbai sydney melbourne "
    "toronto vancouver montreal chicago boston seattle atlanta dallas houston miami denver phoenix "
    "detroit philadelphia baltimore dublin edinburgh glasgow manchester liverpool vienna prague "
    "budapest warsaw athens istanbul cairo lisbon amsterdam brussels stockholm oslo copenhagen "
    "helsinki bangkok singapore jakarta manila seoul hollywood nashville austin orlando").split()
PLACE_WORDS = set(COUNTRIES) | set(US_STATES) | set(CITIES)
# Words that make a capitalised phrase a place ("Lake Tahoe", "San Juan Mountains").
PLACE_HEADS = {"mountains", "mountain", "river", "lake", "ocean", "sea", "seas", "island",
               "islands", "county", "city", "valley", "bay", "desert", "park", "state", "province",
               "coast", "peninsula", "gulf", "canyon", "forest", "village", "town", "region"}
# Words that never make a capitalised phrase a name on their own.
FUNCTION_CAPS = {
    "the", "a", "an", "in", "on", "at", "of", "and", "or", "but", "for", "to", "with", "by",
    "from", "as", "it", "its", "he", "she", "they", "his", "her", "their", "this", "that",
    "these", "those", "there", "however", "additionally", "also", "while", "although",
    "overall", "therefore", "thus", "furthermore", "moreover", "in", "after", "before", "when",
    "where", "who", "what", "which", "why", "how", "during", "since", "some", "many", "most",
    "each", "both", "all", "one", "if", "because", "so", "yes", "no", "i", "we", "you", "our",
    "my", "despite", "today", "unlike", "like", "other", "such", "another", "later", "early",
    "then", "now", "here", "instead", "rather", "notably", "specifically", "traditionally",
    "historically", "generally", "typically", "ultimately", "finally", "initially", "meanwhile",
    "similarly", "consequently", "indeed", "nevertheless", "nonetheless", "still", "although",
    "whether", "not", "mr", "mrs", "ms", "dr", "st", "for", "following", "according", "based",
    "as", "known", "born", "including", "though",
    "ad", "bc", "bce", "ce"} | set(MONTHS) | set(DAYS)   # era markers: "AD 79" is a year, not a name

# Plain negations only: "without", "lack" and the like too often sit inside
# an affirmative statement ("taxation without representation").
NEGATIONS = {"not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "cannot", "n't", "isn't", "wasn't", "aren't", "weren't", "doesn't", "didn't",
             "don't", "hasn't", "haven't", "hadn't", "won't", "wouldn't", "can't", "couldn't",
             "shouldn't"}
HEDGES = ("may", "might", "could", "possibly", "perhaps", "likely", "unlikely", "sometimes",
          "often", "generally", "typically", "usually", "some", "various", "certain",
          "suggest", "suggests", "suggested", "believed", "thought", "considered", "seems",
          "appears", "reportedly", "arguably", "potentially", "approximately", "about", "around",
          "roughly", "estimated")
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

_WORD = re.compile(r"[A-Za-z][A-Za-z'\-\.]*[A-Za-z]|[A-Za-z]")
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})s?\b")
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(%|st|nd|rd|th)?(?![\w])")
_CAP_PHRASE = re.compile(
    r"\b([A-Z][\w'\-]*\.?(?:\s+(?:(?:of|the|de|la|von|van|del|da|and|&)\s+)?[A-Z][\w'\-]*\.?)*)")


_APPROXIMATE = re.compile(r"\b(around|about|approximately|roughly|nearly|almost|circa|c\.|some|over|"
                          r"more than|less than|fewer than|under|up to|at least|at most|estimated|"
                          r"early|mid|late)\b")


@dataclass
class Mentions:
    """Typed spans of one text, normalised for comparison."""
    years: set[str] = field(default_factory=set)
    dates: set[str] = field(default_factory=set)        # "march 3", "march" (month names)
    numbers: set[float] = field(default_factory=set)    # cardinal values, years excluded
    ordinals: set[int] = field(default_factory=set)
    names: set[str] = field(default_factory=set)        # lower-cased capitalised phrases
    places: set[str] = field(default_factory=set)
    negated: bool = False
    hedged: bool = False
    approximate: bool = False   # "around 1600", "about 3 million", "more than 40"

    def has(self, kind: str) -> bool:
        if kind == PERSON:
            return bool(self.names - self.places)
        if kind == DATE:
            return bool(self.years or self.dates)
        if kind == NUMBER:
            return bool(self.numbers or self.ordinals)
        if kind == PLACE:
            return bool(self.places)
        if kind == ENTITY:
            return bool(self.names or self.numbers or self.years)
        return False


def words(text: str) -> list[str]:
    """Lower-cased words, possessives dropped ("King's" -> "king")."""
    return [_POSSESSIVE.sub("", w.lower().replace("\u2019", "'")).strip(".'")
            for w in _WORD.findall(text.replace("\u2019", "'"))]


_POSSESSIVE = re.compile(r"'s$")


def negation_scope(text: str) -> set[str] | None:
    """The words a negation applies to (the next few content words), or None if not negated.

    Also None for a double negative ("cannot ... without", "not ... unless"),
    which affirms.
    """
    lowered = text.lower().replace("\u2019", "'")
    if not is_negated(lowered):
        return None
    tokens = words(lowered)
    for i, tok in enumerate(tokens):
        if tok in NEGATIONS or tok.endswith("n't"):
            rest = tokens[i + 1:]
            if any(t in ("without", "unless", "except") for t in rest):
                return None
            scope = [t for t in rest if t not in _SCOPE_SKIP][:3]
            return set(scope)
    return set()


_SCOPE_SKIP = {"a", "an", "the", "be", "been", "being", "is", "are", "was", "were", "have", "has", "had",
               "do", "does", "did", "to", "of", "in", "on", "at", "by", "for", "with", "as", "any", "very",
               "so", "too", "it", "that", "this", "explicitly", "necessarily", "always", "strictly",
               "legally", "officially", "actually", "really", "yet", "ever"}


# A request rather than a question ("Tell me a bio of Ada Lovelace."): no single answer to look for.
_OPEN_ENDED = re.compile(r"^\s*(tell me|write|give me|describe|summari[sz]e|explain|talk about|introduce)\b",
                         re.IGNORECASE)
# What a biography or overview is read for: achievements, records, what the subject is known for.
SALIENT = re.compile(r"\b(best[- ]known|most famous|famous for|known for|renowned|celebrated for|"
                     r"first (\w+ )?(person|woman|man|human|people|player|team|country) to|"
                     r"first (\w+ )?(president|prime minister|leader|king|queen)|regarded as the first|won|awarded|prize|medals?|"
                     r"(leading|key|central|pivotal|decisive) role|(set out|proposed|developed|formulated) the theory|"
                     r"(world's|the) (largest|longest|highest|tallest|biggest|deepest|oldest)|invented|discovered)\b",
                     re.IGNORECASE)


def is_open_ended(query: str) -> bool:
    return bool(_OPEN_ENDED.search(query)) and not query.strip().endswith("?")


def question_type(query: str) -> str:
    """The kind of answer the (prefix-stripped) query asks for."""
    q = " " + re.sub(r"[^\w\s']", " ", query.lower()) + " "
    if re.search(r" (when|what year|which year|what date|which date|what time|what century|"
                 r"what decade|how long ago|since when) ", q):
        return DATE
    if re.search(r" how (many|much|long|old|far|tall|big|high|deep|large|often|fast) |"
                 r" (what|which) (percentage|percent|number|amount|age|population|size) ", q):
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
    for match in _NUMBER.finditer(text):
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
    m.negated = negation_scope(text) is not None
    m.hedged = bool(token_set & set(HEDGES))
    m.approximate = bool(_APPROXIMATE.search(lowered))
    return m


def is_negated(lowered: str) -> bool:
    """Does the (lower-cased) text negate, ignoring "not only" and "no longer only"?"""
    cleaned = re.sub(r"\bnot only\b|\bnot just\b|\bno doubt\b|\bnot least\b", " ", lowered)
    # quoted titles ("The World Is Not Enough") are names, not statements
    cleaned = re.sub(r"[\"“][^\"“”]{1,60}[\"”]", " ", cleaned)
    return bool(set(words(cleaned)) & NEGATIONS) or "n't" in cleaned


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

