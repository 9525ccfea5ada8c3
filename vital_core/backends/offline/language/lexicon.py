"""Ordinary language knowledge the verifier needs: synonyms, demonyms, abbreviations, place kinds.

All of it is general English, not facts about the world: "paid for" =
"financed", "French" = "from France", "NASA" = "National Aeronautics and
Space Administration" (built from the capitals of the long form, or from a
short table for the few that cannot be built), "Norway" is a country and
"Oslo" a city. The verifier uses these to tell a paraphrase from a
difference, and to decide whether two different names compete for one role
(two countries do; a region and its country do not).
"""
from __future__ import annotations

import re
from functools import lru_cache

from vital_core.backends.offline.language.answer_types import CITIES, COUNTRIES, US_STATES

# Groups of lemmas that state the same thing in a factual sentence.
SYNONYM_GROUPS = [
    "finance fund pay sponsor bankroll", "publication print publish", "call name know title dub nickname",
    "formerly previously once originally earlier", "begin start commence open launch", "end finish complete conclude",
    "build construct erect raise", "found establish create set", "die death perish", "bear birth born",
    "kill slay murder assassinate shoot stab", "kill die", "win receive award earn gain get", "defeat beat overcome crush rout",
    "lose lost", "write author compose pen", "paint painter", "discover find identify notice", "invent devise",
    "lead command head direct", "rule reign govern", "large big great huge vast", "small little tiny",
    "tall high", "high tall", "long lengthy", "old ancient", "famous celebrated renowned well-known noted known",
    "main chief principal primary major central", "first earliest initial maiden inaugural",
    "home house", "stand rise lie sit", "locate situate lie sit stand be", "hold stage host", "land touch",
    "orbit revolve circle", "fly pilot", "happen occur take", "choose elect select pick", "meet gather assemble",
    "show depict portray feature represent", "visit tour see", "restore clean", "remove strip", "reveal uncover expose",
    "bright vivid", "regard consider think see view", "primarily mainly mostly chiefly", "reluctantly unwillingly",
    "commission hire engage", "scaffold platform", "ceiling vault", "image picture", "scene episode panel",
    "country nation state", "city town", "ship vessel", "boat vessel", "car automobile", "film movie",
    "gift present give", "people person", "human person people man", "child kid", "wife spouse", "husband spouse",
    "teach instruct", "student pupil", "study learn", "speech address", "deliver give", "premiere perform",
    "sink go", "strike hit collide", "settle live reside", "move relocate", "marry wed", "produce make generate develop",
    "contain include comprise hold", "carry transport bring", "reach arrive", "leave depart", "return come",
    "kill death", "approve adopt pass enact", "create make", "ban prohibit forbid", "allow permit",
    "attack assault", "army force troop", "ruler king emperor", "emperor ruler", "monarch king queen",
    "journey voyage trip crossing", "destroy ruin demolish", "protect guard", "large largest", "big biggest",
    "stop halt", "sell", "buy purchase", "surface ground", "temporary", "site location",
    "famous best-known", "mould mold", "colour color", "centre center", "theatre theater", "metre meter",
    "almost nearly", "roughly about approximately around", "worldwide globally", "kill bacteria",
    "flight fly", "fight battle", "war conflict", "tribute memory memorial honour honor", "tomb mausoleum grave",
    "commission order", "emperor shah", "award prize grant give", "painter artist", "travel move go",
    "walk step tread", "step descend", "visible see seen", "naked unaided bare", "native bear born", "premiere perform first", "redefine define definition", "join member enter",
    "attack strike bomb", "operate run manage", "headquarters base headquarter",
    "mass crowd gather throng congregate", "climb clamber scale", "piece fragment chunk", "chip break",
    "demolition dismantling", "demolish dismantle tear", "protest demonstration", "exodus flight",
    "question challenge dispute", "abandon quit drop", "doctor physician",
    "declare designate inscribe list", "successful effective", "try attempt", "cross across",
    "think believe estimate reckon", "remarry wed", "altitude elevation height", "execute guillotine behead", "organise organize equip", "inlay inlaid", "decorate adorn ornament",
]
# Two words that together say what one word says ("lost their lives" = "died", "gave birth" = "delivered"):
# a text holding both words states the one word too (``analysis.build``), on either side of a comparison.
PHRASES = {"die": (("lose", "life"), ("pass", "away")), "altitude": (("sea", "level"),), "bear": (("come", "world"),), "deliver": (("give", "birth"),),
           "start": (("get", "way"),), "remarry": (("wed", "again"), ("marry", "again")),
           "abandon": (("give", "up"),), "accept": (("take", "on"),), "found": (("set", "up"),),
           "surrender": (("give", "in"),), "open": (("let", "through"), ("let", "in")), "sink": (("go", "down"),),
           "explode": (("blow", "up"),)}
_SYNONYMS: dict[str, set[str]] = {}
for _group in SYNONYM_GROUPS:
    _words = _group.split()
    for _w in _words:
        _SYNONYMS.setdefault(_w, set()).update(_words)

DEMONYMS = {
    "american": "united states", "british": "united kingdom", "english": "england", "scottish": "scotland",
    "scots": "scotland", "welsh": "wales", "irish": "ireland", "french": "france", "german": "germany",
    "italian": "italy", "spanish": "spain", "portuguese": "portugal", "dutch": "netherlands",
    "belgian": "belgium", "swiss": "switzerland", "austrian": "austria", "swedish": "sweden",
    "norwegian": "norway", "danish": "denmark", "finnish": "finland", "icelandic": "iceland",
    "polish": "poland", "czech": "czechia", "hungarian": "hungary", "romanian": "romania",
    "bulgarian": "bulgaria", "greek": "greece", "turkish": "turkey", "russian": "russia",
    "ukrainian": "ukraine", "serbian": "serbia", "croatian": "croatia", "soviet": "soviet union",
    "chinese": "china", "japanese": "japan", "korean": "korea", "indian": "india", "pakistani": "pakistan",
    "thai": "thailand", "vietnamese": "vietnam", "indonesian": "indonesia", "australian": "australia",
    "canadian": "canada", "mexican": "mexico", "brazilian": "brazil", "argentine": "argentina",
    "argentinian": "argentina", "chilean": "chile", "peruvian": "peru", "colombian": "colombia",
    "cuban": "cuba", "egyptian": "egypt", "nigerian": "nigeria", "kenyan": "kenya", "ethiopian": "ethiopia",
    "south african": "south africa", "israeli": "israel", "iranian": "iran", "iraqi": "iraq",
    "saudi": "saudi arabia", "new zealander": "new zealand", "tanzanian": "tanzania", "moroccan": "morocco",
    "persian": "iran", "prussian": "prussia", "roman": "rome", "venetian": "venice", "florentine": "florence",
    "african": "africa", "european": "europe", "asian": "asia", "parisian": "paris", "londoner": "london", "norman": "normandy", "jamaican": "jamaica",
}
# Other names of one country.
COUNTRY_ALIASES = {
    "us": "united states", "usa": "united states", "u.s.": "united states", "u.s": "united states",
    "america": "united states", "united states of america": "united states", "uk": "united kingdom",
    "britain": "united kingdom", "great britain": "united kingdom", "ussr": "soviet union",
    "holland": "netherlands", "czech republic": "czechia", "persia": "iran", "burma": "myanmar",
}
# Abbreviations that cannot be built from the capitals of their long form.
ABBREVIATIONS = {
    "dna": "deoxyribonucleic acid", "rna": "ribonucleic acid", "ussr": "soviet union", "uk": "united kingdom",
    "us": "united states", "usa": "united states", "eu": "european union", "wwii": "second world war",
    "ww2": "second world war", "wwi": "first world war", "ww1": "first world war", "phd": "doctorate",
}
EVENT_ALIASES = {"world war ii": "second world war", "world war i": "first world war",
                 "world war 2": "second world war", "world war 1": "first world war"}
_FUNCTION = {"of", "and", "the", "for", "de", "du", "la", "le", "des", "on", "in", "&"}

MORE_COUNTRIES = ("new zealand south africa saudi arabia sri lanka south korea north korea united states "
                  "united kingdom soviet union prussia czechia vatican").split(" ")
COUNTRY_SET = set(COUNTRIES) - {"america", "usa", "uk", "britain"} | {
    "new zealand", "south africa", "saudi arabia", "sri lanka", "south korea", "north korea", "united states",
    "united kingdom", "soviet union", "prussia", "vatican city", "uae", "united arab emirates", "costa rica"}
CITY_SET = set(CITIES) | {
    "canberra", "ottawa", "madrid", "barcelona", "rome", "milan", "venice", "florence", "naples", "vienna",
    "salzburg", "geneva", "zurich", "bern", "munich", "hamburg", "frankfurt", "cologne", "lyon", "marseille",
    "nice", "bordeaux", "oslo", "bergen", "rio de janeiro", "sao paulo", "buenos aires", "lima", "bogota",
    "mexico city", "havana", "nairobi", "lagos", "johannesburg", "cape town", "kyoto", "osaka", "hiroshima",
    "nagasaki", "hong kong", "taipei", "hanoi", "karachi", "kolkata", "calcutta", "agra", "jerusalem",
    "tel aviv", "baghdad", "tehran", "riyadh", "dubai", "ankara", "st petersburg", "kiev", "kyiv", "krakow",
    "belfast", "cardiff", "birmingham", "oxford", "cambridge", "stratford-upon-avon", "washington",
    "new york", "los angeles", "san francisco", "quebec city", "wellington", "auckland", "perth", "brisbane",
    "adelaide", "pisa", "naples", "seville", "granada", "valencia", "porto", "warsaw", "reykjavik",
    "beijing", "shanghai", "edo", "constantinople", "carthage", "athens", "sparta", "alexandria"}
STATE_SET = set(US_STATES) | {"new york state", "north carolina", "south carolina", "north dakota", "south dakota",
                              "west virginia", "rhode island", "new jersey", "new mexico", "new hampshire"}
CONTINENTS = {"africa", "europe", "asia", "antarctica", "australia", "north america", "south america", "oceania"}


def synonyms(lemma: str) -> set[str]:
    return _SYNONYMS.get(lemma, {lemma})


def acronym(phrase: str) -> str:
    """"International Astronomical Union" -> "iau"; function words are skipped ("of", "and")."""
    words = [w for w in re.split(r"[\s,\-]+", phrase) if w]
    letters = [w[0] for w in words if w.lower() not in _FUNCTION and w[:1].isupper()]
    return "".join(letters).lower() if len(letters) >= 2 else ""


@lru_cache(maxsize=50_000)
def canonical_place(name: str) -> str:
    """A country, demonym or alias written one way: "French" -> "france", "UK" -> "united kingdom"."""
    key = name.lower().strip(" .")
    key = re.sub(r"^the\s+", "", key)
    return COUNTRY_ALIASES.get(key) or DEMONYMS.get(key) or key


# Parts of a country that are countries in their own right: neither contradicts the other.
PART_OF = {"england": "united kingdom", "scotland": "united kingdom", "wales": "united kingdom",
           "northern ireland": "united kingdom", "prussia": "germany", "bavaria": "germany"}


def nested(a: str, b: str) -> bool:
    """Is one place part of the other ("England" / "United Kingdom")?"""
    a, b = canonical_place(a), canonical_place(b)
    return PART_OF.get(a) == b or PART_OF.get(b) == a


def within(part: str, whole: str) -> bool:
    """Is the place ``part`` inside the country ``whole`` ("English" in "British", "Texas" in "American")?
    Only the parts the lexicon knows: the United Kingdom's nations, two German states, the US states."""
    part, whole = canonical_place(part), canonical_place(whole)
    return PART_OF.get(part) == whole or (whole == "united states" and part in STATE_SET | {"new york"})


def place_kind(name: str) -> str:
    """"country", "city", "state", "continent" or "" for a place name (canonical or not)."""
    key = canonical_place(name)
    if key in CONTINENTS and key != "australia":
        return "continent"
    if key in COUNTRY_SET or key in MORE_COUNTRIES:
        return "country"
    if key in STATE_SET:
        return "state"
    if key in CITY_SET:
        return "city"
    return ""


@lru_cache(maxsize=50_000)
def expansions(name: str, words: bool = False) -> frozenset[str]:
    """Other ways of writing a name: its acronym, its long form, its country; with ``words``, also what
    each of its words names ("East African" mentions Africa)."""
    key = name.lower().strip(" .")
    out = {key, canonical_place(key)}
    if key in ABBREVIATIONS:
        out.add(ABBREVIATIONS[key])
    if key in EVENT_ALIASES:
        out.add(EVENT_ALIASES[key])
    for word in key.split() if words else ():
        if word in DEMONYMS or word in COUNTRY_ALIASES:
            out.add(canonical_place(word))
    made = acronym(name)
    if made:
        out.add(made)
    return frozenset(o for o in out if o)
