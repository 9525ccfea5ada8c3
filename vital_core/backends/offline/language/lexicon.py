"""The offline backend's one lexicon: every word list and fitted weight, read from ``data/lexicon.json``.

All of it is general English, not facts about the world: "paid for" =
"financed", "French" = "from France", "NASA" = "National Aeronautics and
Space Administration" (built from the capitals of the long form, or from a
short table for the few that cannot be built), "Norway" is a country and
"Oslo" a city, "unexpectedly" can be cut off a claim and "only" cannot. The
steps read the lists by name from here (one definition each); the functions
below answer the questions the verifier asks of them: a synonym, a place's
kind, another way of writing a name. Importance's fitted weights and
thresholds live in the same file (``bench/bench_offline_quality.py
--calibrate`` prints new ones).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

LEXICON_PATH = Path(__file__).parent.parent / "data" / "lexicon.json"
_DATA = json.loads(LEXICON_PATH.read_text(encoding="utf-8"))


def _frozen(value):
    """JSON lists as tuples, all the way down (a pair of words stays a pair)."""
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def _set(key: str) -> frozenset[str]:
    return frozenset(_DATA[key])


def _seq(key: str) -> tuple:
    return _frozen(_DATA[key])


def _map(key: str) -> dict:
    return {k: _frozen(v) for k, v in _DATA[key].items()}


# --- dates, numbers, measures
MONTHS: tuple = _seq("months")
DAYS: tuple = _seq("days")
NUMBER_WORDS: dict = _map("number_words")
ORDINAL_WORDS: dict = _map("ordinal_words")
SCALE_WORDS: dict = _map("scale_words")
# Units: (their names, dimension, size in the dimension's base unit: metre, gram, second, fraction);
# "inch" and never "in" ("4-2 in the final").
UNITS: tuple = _seq("units")
# An area unit's size in square metres ("km" of "km²").
AREA_FACTORS: dict = _map("area_factors")
# Temperature units, as the scale letter ("°C" -> "c").
TEMPERATURE_UNITS: dict = _map("temperature_units")
# Fractions written in words ("a quarter" = 0.25).
SHARE_WORDS: dict = _map("share_words")

# --- function words, hedges
STOPWORDS: frozenset[str] = _set("stopwords")
# Words that never make a capitalised phrase a name on their own (era markers too: "AD 79" is a year).
FUNCTION_CAPS: frozenset[str] = _set("function_caps") | frozenset(MONTHS) | frozenset(DAYS)
# Words that carry little of a claim's content: never required to be found.
LIGHT: frozenset[str] = _set("light")
HEDGES: tuple = _seq("hedges")
# Words that say a statement is a false belief: its negation is not denied ("... is a myth").
REFUTED_BELIEF: frozenset[str] = _set("refuted_belief")

# --- places
# A small gazetteer: enough to type the places that questions are usually about.
COUNTRIES: tuple = _seq("countries")
US_STATES: tuple = _seq("us_states")
MULTIWORD_PLACES: tuple = _seq("multiword_places")
CITIES: tuple = _seq("cities")
PLACE_WORDS: frozenset[str] = frozenset(COUNTRIES) | frozenset(US_STATES) | frozenset(CITIES)
# The kinds of place ``place_kind`` tells apart: the gazetteer above and more (not its aliases "usa", "uk").
COUNTRY_SET: frozenset[str] = frozenset(COUNTRIES) - {"america", "usa", "uk", "britain"} | _set("other_countries")
CITY_SET: frozenset[str] = frozenset(CITIES) | _set("other_cities")
STATE_SET: frozenset[str] = frozenset(US_STATES) | _set("other_states")
# counties, provinces, island groups and a nation's own regions ("Suffolk", "Orkney", "Tuscany", "Bavaria")
REGION_SET: frozenset[str] = _set("regions")
CONTINENTS: frozenset[str] = _set("continents")
# Words that make a capitalised phrase a place ("Lake Tahoe", "San Juan Mountains").
PLACE_HEADS: frozenset[str] = _set("place_heads")
# A people's adjective and its country ("French" -> "france").
DEMONYMS: dict = _map("demonyms")
# Other names of one country.
COUNTRY_ALIASES: dict = _map("country_aliases")
# Parts of a country that are countries in their own right: neither contradicts the other.
PART_OF: dict = _map("part_of")
# Endings of a people's adjective ("Italian", "Japanese"): such a word is no person to swap.
DEMONYM_ENDINGS: tuple = _seq("demonym_endings")

# --- names
# Lower-case words inside a person's name ("Leonardo da Vinci", "Ludwig van Beethoven", "Ibn Battuta").
NAME_PARTICLES: frozenset[str] = _set("name_particles")
# Lower-case words that join the capitalised words of one name ("Bank of England", "Leonardo da Vinci").
NAME_GLUE: frozenset[str] = NAME_PARTICLES | {"of", "the"}
# Function words an acronym skips ("Bank of England" -> "BE").
ACRONYM_SKIP: frozenset[str] = _set("acronym_skip")
# Small words a spelled-out acronym may hold between its letters' words.
ACRONYM_GLUE: frozenset[str] = _set("acronym_glue")
# Titles before a name ("King", "Dr"): no part of the name that tells two people apart.
TITLES: frozenset[str] = _set("titles")
# Endings of a word derived from a name ("Darwinian", "Quranic").
NAME_SUFFIXES: tuple = _seq("name_suffixes")
# Head words of place and thing names ("Mount", "River", "Prize"): a name with one is no person.
GENERIC_HEADS: frozenset[str] = _set("generic_heads")
# Nouns after a possessive that make one name of it ("King's College").
INSTITUTIONS: frozenset[str] = _set("institutions")
# An event's name ends at its head word ("the Second World War Churchill"), unless a part follows.
EVENT_HEADS: frozenset[str] = _set("event_heads")
EVENT_PARTS: frozenset[str] = _set("event_parts")
# Words that make a name an organisation's, not a person's.
ORGANISATION_WORDS: frozenset[str] = _set("organisation_words")
# Nouns for a group whose possessor is the doer ("Jonas Salk's team produced it").
GROUP_NOUNS: frozenset[str] = _set("group_nouns")
# Abbreviations that cannot be built from the capitals of their long form.
ABBREVIATIONS: dict = _map("abbreviations")
# Other names of one event ("World War II" = "Second World War").
EVENT_ALIASES: dict = _map("event_aliases")
# Stand-in names for swapped people: common, clearly different, and fictional as a pair.
FIRST_NAMES: tuple = _seq("first_names")
LAST_NAMES: tuple = _seq("last_names")

# --- meaning: synonyms, opposites, relations
# Groups of lemmas that state the same thing in a factual sentence.
SYNONYM_GROUPS: tuple = _seq("synonym_groups")
# Two words that together say what one word says ("lost their lives" = "died", "gave birth" = "delivered"):
# a text holding both words states the one word too (``analysis.build``), on either side of a comparison.
PHRASES: dict = _map("phrases")


def phrases_in(lemmas: set[str]) -> list[tuple[str, list[str]]]:
    """(the word a phrase says, the phrase's words) for each phrase of the lexicon whose words are all among
    ``lemmas`` ("turned liquid" says "melt", "took place" says "happen")."""
    return [(word, phrase) for word, phrases in PHRASES.items() for phrase in phrases
            if all(part in lemmas for part in phrase)]


def said_by_verb_phrase(verb: str, lemmas: set[str]) -> list[str]:
    """The words said by the lexicon's phrases that ``verb`` opens, when their other words are among ``lemmas``
    ("put" with "sale": release; "slip" with "beneath": sink)."""
    return [word for word, phrase in phrases_in(lemmas | {verb}) if phrase[0] == verb]


# Word pairs with opposite meaning.
ANTONYMS: tuple = _seq("antonyms")
# Adjectives that name a thing ("lunar" -> "moon").
ADJECTIVE_NOUNS: dict = _map("adjective_nouns")
# Predicates with room for many ("the film features X" does not deny "the film features Y").
NON_EXCLUSIVE: frozenset[str] = _set("non_exclusive")
# adverbs that say a relation holds of more than one ("is *widely* played in France"): no name is the only one
NON_EXCLUSIVE_ADVERBS: frozenset[str] = _set("non_exclusive_adverbs")
# Adjectives a measured value already says ("8,849 metres" is a height whether or not "tall" is written).
DIMENSION_WORDS: frozenset[str] = _set("dimension_words")
# the dimension a word names: "deepest" and "a maximum depth" both speak of depth
DIMENSION_SENSES: dict = _map("dimension_senses")


def dimension_senses(lemmas) -> set[str]:
    """The dimensions the words speak of ("reaches a height", "is ... tall": height)."""
    return {DIMENSION_SENSES[w] for w in lemmas if w in DIMENSION_SENSES}
# Words that state the ordinal 1 ("the maiden voyage" = "the first voyage").
FIRST_WORDS: frozenset[str] = _set("first_words")
# Words that single out one occurrence of an event: a claim about "their first match" whose evidence
# never says "first" may be about another match, so another date there is no conflict.
EVENT_QUALIFIERS: frozenset[str] = _set("event_qualifiers")
# Words of a claim about a life: a year in "(1678-1741)" after a name may be its date.
LIFE_EVENTS: frozenset[str] = _set("life_events")
# Determiners of a claim's subject noun that may stand for the evidence's named subject ("the film").
STAND_IN_DETERMINERS: frozenset[str] = _set("stand_in_determiners")
# prepositions whose object is one value of a relation (where, when, by whom): the changed-slot rule
SLOT_PREPOSITIONS: frozenset[str] = _set("slot_prepositions")
# prepositions of where something is ("in", "at"): a building may stand inside a town
LOCATIVE: frozenset[str] = _set("locative_prepositions")
# nouns of a time or a distance ("two years later", "a few steps from"): a bare noun phrase on a verb with one
# is a modifier of it
MEASURE_NOUNS: frozenset[str] = _set("measure_nouns")
# what a text calls a ship, which it may then call "she" ("The Cutty Sark is a clipper ship ... she was ...")
VESSEL_WORDS: frozenset[str] = _set("vessel_words")
# adverbs that set when a statement holds ("today", "originally"): a value said at another time is no conflict
TIME_FRAME: frozenset[str] = _set("time_frame")
# head words of a building or site, which stands inside a town ("the Teatro Kursaal" in Lugano)
VENUE_HEADS: frozenset[str] = _set("venue_heads")
# verbs that carry no predicate of their own in a question ("What was the first film?")
QUESTION_LIGHT_VERBS: frozenset[str] = _set("question_light_verbs")
# A claim's word that an evidence phrase states, one way only: "was held on Cooper's Hill" is stated by "takes
# place on Cooper's Hill" (a claim's "held the record" says no "take place").
STATED_BY_PHRASES: dict = _map("stated_by_phrases")
# What a question's verb is also answered by: "Where does it take place (happen)?" by "It is held in ...".
ASKED_AS: dict = _map("asked_as")
# Asymmetric relations (verb lemma -> relation): who did it to whom matters.
RELATIONS: dict = _map("relations")
# Verbs whose parties are seller and buyer, not the thing sold.
TRADE_VERBS: frozenset[str] = _set("trade_verbs")
# Converse verbs: "X lost to Y" = "Y defeated X"; and the prepositions that introduce the other party.
CONVERSE: dict = _map("converse")
CONVERSE_PREPS: dict = _map("converse_preps")
# Role nouns: (relation, whether the holder receives it): "Aristotle was Plato's student".
ROLE_NOUNS: dict = _map("role_nouns")

# --- clause structure (decomposition)
# Words that open a subordinate clause whose content is a fact of its own.
SUBORDINATORS: frozenset[str] = _set("subordinators")
# Subordinators that open a clause with no comma before them.
CLEAR_SUBORDINATORS: frozenset[str] = _set("clear_subordinators")
# A participle that stands for the whole statement, not for the subject: "..., making it the largest".
SENTENTIAL_VERBS: frozenset[str] = _set("sentential_verbs")
# Verbs whose passive keeps an object ("was given a medal"): after "was ... and", theirs is still the passive.
DOUBLE_OBJECT_VERBS: frozenset[str] = _set("double_object_verbs")


def shares_passive(lemma: str, has_object: bool) -> bool:
    """Does a verb after "was ... and" share the passive? Not one with an object of its own ("was played on MTV
    and turned the band into stars"), unless its passive takes one ("was given a medal and awarded a pension")."""
    return not has_object or lemma in DOUBLE_OBJECT_VERBS

# an adjective phrase opening a sentence that speaks of the statement, not of the subject ("Contrary to a myth, ...")
SENTENTIAL_ADJECTIVES: frozenset[str] = _set("sentential_adjectives")
# The same, as written forms ("..., which made it ...": "which" is the statement, not a noun).
SENTENTIAL_VERB_FORMS: frozenset[str] = _set("sentential_verb_forms")
# Adverbs in -ly that change what the claim says (degree, hedge, frequency, order in time), so the claim
# without them would be another claim: never cut off.
KEPT_ADVERBS: frozenset[str] = _set("kept_adverbs")
# "on the night of 9 November 1989": the time of day is a fact beside the date.
TIMES_OF_DAY: dict = _map("times_of_day")
# Past tenses a regular rule gets wrong, for the verbs a participle phrase most often opens with.
IRREGULAR_PAST: dict = _map("irregular_past")
# Light verbs whose modifiers make one meaning with them ("take place"): never split by modifier.
PHRASAL_VERBS: frozenset[str] = _set("phrasal_verbs")
# Words that signal a finite verb: enough to tell a clause from a noun phrase.
AUXILIARIES: frozenset[str] = _set("auxiliaries")
# Pronouns that may open a clause as its subject.
PRONOUN_SUBJECTS: frozenset[str] = _set("pronoun_subjects")
# Words with a verb's ending that are no verbs ("access", "analysis").
NOT_VERBS: frozenset[str] = _set("not_verbs")
DETERMINERS: frozenset[str] = _set("determiners")
# Verbs that make a list's short piece a statement rather than an item ("composed", "built").
LIST_VERBS: frozenset[str] = _set("list_verbs")
# Verbs that only say a measure of their subject ("reaches a depth of 594 metres", "covers 82,100 square
# kilometres"): stated by any sentence that gives a measure.
# a verb that gives a measure, with the dimension words that say it too ("rises to 158 metres" / "is 158 metres
# tall"; a depth is not a height)
MEASURE_VERBS: dict = _map("measure_verbs")
# nouns for who made a thing: "Its author was Anna Sewell" names whom "written by" names
MAKER_NOUNS: frozenset[str] = _set("maker_nouns")
# the maker nouns of a verb: "Who composed ...?" is answered by "The composer was ..."
MAKERS_BY_VERB: dict = _map("makers_by_verb")
# phrases that name a maker without a maker noun: "The *studio* behind it was Maxis" (these nouns "behind" the
# thing), "It was the *work* of DMA Design" (these complements "of" the maker)
MAKER_PHRASES: dict = _map("maker_phrases")
# verbs that say where a thing is and nothing more, with "in"/"at"...: "lies in Suffolk" is "is in Suffolk"
POSITION_VERBS: frozenset[str] = _set("position_verbs")
# "How *deep* is ...?" asks for a measure of this dimension
ASKED_DIMENSIONS: dict = _map("asked_dimensions")
# Verbs whose "by" names the maker: "The painting is by Bosch" says what "was painted by Bosch" does.
MAKING_VERBS: frozenset[str] = _set("making_verbs")
# Verbs that bring a thing into being: when and where it was done is said of the thing, apart from its maker
# ("Gerard Philips set it up in 1891" -> "Philips was set up in 1891").
FOUNDING_VERBS: frozenset[str] = _set("founding_verbs")
_FOUNDING_PHRASES = frozenset(tuple(phrase) for phrase in PHRASES.get("found", ()))


def founding(verb: str, particle: str = "") -> bool:
    """Does the verb (with its particle: "set up") bring a thing into being (``FOUNDING_VERBS``)?"""
    return verb in FOUNDING_VERBS or (verb, particle) in _FOUNDING_PHRASES


# Past participles that are not the verb's past tense ("wrote" / "written"); a regular verb's are the same.
IRREGULAR_PARTICIPLES: dict = _map("irregular_participles")


# Verbs with no passive: after "was shelled and", "collapsed" is a simple past, not "was collapsed".
NO_PASSIVE_VERBS: frozenset[str] = _set("no_passive_verbs")


def past_not_participle(lemma: str, form: str) -> bool:
    """Is ``form`` the simple past of ``lemma`` and never a passive participle ("became", "went", "collapsed";
    not "sold")?"""
    if lemma in NO_PASSIVE_VERBS:
        return form.endswith("ed")
    return IRREGULAR_PAST.get(lemma) == form and IRREGULAR_PARTICIPLES.get(lemma, form) != form
# Words a lead-in ends with before a list's item ("protectors of | the East Sea").
LEAD_IN_WORDS: frozenset[str] = _set("lead_in_words")
# Nouns that introduce a title: "the novel Pride and Prejudice".
TITLE_NOUNS: frozenset[str] = _set("title_nouns")

# --- importance's fitted weights (plus an intercept) and its two thresholds (see ``importance``);
# regenerate with ``python -m bench.bench_offline_quality --calibrate``
IMPORTANCE_WEIGHTS: dict = _map("importance_weights")
IMPORTANCE_THRESHOLDS: dict = _map("importance_thresholds")

_SYNONYMS: dict[str, set[str]] = {}
for _group in SYNONYM_GROUPS:
    _words = _group.split()
    for _w in _words:
        _SYNONYMS.setdefault(_w, set()).update(_words)



def synonyms(lemma: str) -> set[str]:
    return _SYNONYMS.get(lemma, {lemma})


@lru_cache(maxsize=50_000)
def acronym(phrase: str) -> str:
    """"International Astronomical Union" -> "iau"; function words are skipped ("of", "and")."""
    words = [w for w in re.split(r"[\s,\-]+", phrase) if w]
    letters = [w[0] for w in words if w.lower() not in ACRONYM_SKIP and w[:1].isupper()]
    return "".join(letters).lower() if len(letters) >= 2 else ""


@lru_cache(maxsize=50_000)
def canonical_place(name: str) -> str:
    """A country, demonym or alias written one way: "French" -> "france", "UK" -> "united kingdom"."""
    key = name.lower().strip(" .")
    key = re.sub(r"^the\s+", "", key)
    return COUNTRY_ALIASES.get(key) or DEMONYMS.get(key) or key



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
    """"country", "city", "state", "region", "continent" or "" for a place name (canonical or not)."""
    key = canonical_place(name)
    if key in CONTINENTS and key != "australia":
        return "continent"
    if key in COUNTRY_SET:
        return "country"
    if key in STATE_SET:
        return "state"
    if key in CITY_SET:
        return "city"
    if key in REGION_SET:
        return "region"
    return ""


def place_of(name: str) -> tuple[str, str]:
    """(canonical place, kind) for a name that is a known place, else ("", "")."""
    kind = place_kind(name)
    return (canonical_place(name), kind) if kind else ("", "")


def person_like(name: str) -> bool:
    """Could the name be a person's: capitalised words, no acronym, no generic head ("Lake Superior") and no
    organisation word ("Scuderia Ferrari" passes; "Ferrari Group" does not)."""
    words = {w.lower() for w in name.split()}
    return (all(w[:1].isupper() for w in name.split() if w.lower() not in NAME_PARTICLES)
            and not name.isupper() and len(name) > 2
            and not words & GENERIC_HEADS and not words & ORGANISATION_WORDS)


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
