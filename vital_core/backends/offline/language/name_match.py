"""Is a name of a claim stated by some evidence text: whole, by another form (an abbreviation, an acronym
spelled out, a demonym, a derived form: "Quranic" for "Quran"), or word by word, but not by a namesake or a
rival that ends the same way ("Pierre Curie" for "Marie Curie", "Johnston Sans" for "Gill Sans")."""
from __future__ import annotations

import re
from functools import lru_cache

from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import Analysis, memo
from vital_core.backends.offline.language.lexicon import (
    ACRONYM_GLUE,
    FUNCTION_CAPS,
    GENERIC_HEADS,
    NAME_GLUE,
    NAME_SUFFIXES,
    ORDINAL_WORDS,
    TITLES,
)


def _singular(word: str) -> str:
    if len(word) <= 4 or not word.endswith("s") or word.endswith("ss"):
        return word
    if word.endswith(("sses", "xes", "ches", "shes", "uses")):
        return word[:-2]                       # "octopuses" -> "octopus", "churches" -> "church"
    if word.endswith("ies") and len(word) > 5:
        return word[:-3] + "y"                 # "colonies" -> "colony"
    return word[:-1]


def _derived_form(word: str, words: set[str]) -> bool:
    """"Quranic" for "Quran", "Darwinian" for "Darwin", "Elizabethan" for "Elizabeth", and back."""
    if lexicon.place_kind(word):
        return False    # places and their demonyms are the lexicon's (``expansions``)
    stems = {word[:-len(s)] for s in NAME_SUFFIXES if word.endswith(s) and len(word) - len(s) >= 4}
    # a final vowel gives way to the suffix: "Genoa"/"Genoese", "Vienna"/"Viennese"
    if any(w == stem or len(w) == len(stem) + 1 and w.startswith(stem) and w[-1] in "aeo"
           for stem in stems for w in words):
        return True
    core = word[:-1] if word[-1:] in "aeo" and len(word) > 4 else word
    return len(word) >= 4 and any(w[len(core):] in NAME_SUFFIXES for w in words if w.startswith(core))


def _spelled_out(acronym: str, target: Analysis) -> bool:
    """"MRI" in "magnetic resonance imaging creates ...": consecutive nouns and adjectives, in any case,
    whose initials spell the acronym (glue words such as "of the" may sit between them)."""
    letters = acronym.lower()
    words = [(t.text.lower(), t.pos in ("NOUN", "PROPN", "ADJ") or t.dep in ("amod", "compound")
              or t.text[:1].isupper() and t.pos != "DET") for t in target.toks] or \
        [(w.lower(), w[:1].isupper()) for w in re.findall(r"[A-Za-z][\w'\-]*", target.text)]
    for start in range(len(words)):
        at, k = start, 0
        while at < len(words) and k < len(letters):
            word, spells = words[at]
            if spells and word[0] == letters[k]:
                k += 1
            elif not (k and word in ACRONYM_GLUE):
                break
            at += 1
        if k == len(letters):
            return True
    return False


def _word_forms(target: Analysis) -> set[str]:
    """The target's words singularised, and its lemmas."""
    return memo(target, "_word_forms", len(target.words) + len(target.lemmas),
                lambda a: {_singular(w.strip(".,")) for w in a.words} | a.lemmas)


@lru_cache(maxsize=20_000)
def _word_pattern(phrase: str) -> re.Pattern:
    return re.compile(rf"\b{re.escape(phrase)}\b")


def name_found(name: str, target: Analysis) -> bool:
    """Is the name stated in ``target``, whole, by another form, or word by word (not a namesake)?"""
    if re.fullmatch(r"[A-Z]{2,6}", name) and _spelled_out(name, target):
        return True
    keys = lexicon.expansions(name)
    made = lexicon.acronym(name)
    # "Jerry Siegel" and "Joe Shuster" share initials, not a name: an acronym counts where it is written
    # ("NASA", "J. S. Bach")
    shared = keys & target.name_keys
    if made in shared and not _written_short(made, target):
        shared = shared - {made}
    lowered = target.lowered
    if shared or any(_word_pattern(k).search(lowered) for k in keys if len(k) > 2):
        return True
    if lexicon.place_kind(name) == "country" and any(lexicon.within(other, name) for other in target.names):
        return True     # "British" is stated by "English", "American" by "Texas"; never the reverse
    tokens = [_singular(w.lower().strip(".,")) for w in name.replace("'s", "").split()
              if w.lower() not in NAME_GLUE]
    core = [t for t in tokens if t not in GENERIC_HEADS and t not in TITLES] or tokens
    words = _word_forms(target)
    parts = name.split()
    if len(parts) >= 2 and all(_initial(p) for p in parts[:-1]) and any(
            len(other.split()) >= 2 and other.split()[-1].lower() == parts[-1].lower()
            and other[:1].lower() == parts[0][:1].lower() for other in target.names):
        return True     # "R. J. Mitchell" is "Reginald Mitchell": initials, the first one his first name's
    initialled = any(_initial(w) for w in parts)
    for other in target.names:
        extra = set(other.lower().split()) - set(name.lower().split())
        if initialled and set(name.lower().split()) < set(other.lower().split()) \
                and any(_initial(e) for e in extra):
            # "George H. W. Bush" is not "George W. Bush"; "Roy J. Plunkett" is "Roy Plunkett", whose name
            # gives no initial to tell him from another
            return False
    # a name whose last word another name of the target ends with, and whose other words stand elsewhere, is
    # that other name's rival, not stated: "Gill Sans" against "Johnston Sans, named for ... Eric Gill"
    if len(core) >= 2 and _scattered(core, target) and _rival_names(name, core, target):
        return False
    if core and all(t in words for t in core):
        return True
    # "Quranic" for "Quran"; never a part of a longer name ("Mount Kenya" is not stated by "Kenyan")
    if core == tokens and all(t in words or _derived_form(t, words) for t in core):
        return True
    # "Shakespeare" for "William Shakespeare"; but "Pierre Curie" is not "Marie Curie", and a regnal number
    # is no surname ("Rajendra I" is not stated by "Rajaraja I")
    if len(core) >= 2 and core[-1] in words and not re.fullmatch(r"[ivxl]+", core[-1]):
        mine = _name_words(name)
        # a shorter form of the same name ("Yuri Gagarin" for "Yuri Alekseyevich Gagarin") is no rival
        rivals = [n for n in target.names if n.lower().split()[-1:] == core[-1:] and len(n.split()) >= 2
                  and not _name_words(n) <= mine]
        # nor a place named for its owner ("Cleeve Hill" is not stated by "Cooper's Hill"); "the Ninth Symphony"
        # is one of a series, and "Beethoven's Symphony No. 9" names its composer
        owners = [] if core[0] in ORDINAL_WORDS else re.findall(rf"\b([\w-]+)['’]s {re.escape(core[-1])}\b", lowered)
        return not rivals and not _same_office(name, target) and not any(o not in mine for o in owners)
    # "Great Wall" for "Great Wall of China", "Hubble" for "Hubble Space Telescope"
    return any(re.match(rf"{re.escape(n.lower())}\b", name.lower()) and n.lower() not in FUNCTION_CAPS
               for n in target.names)


def _initial(word: str) -> bool:
    """"J." or "J": one letter standing for a name."""
    return len(word.strip(".")) == 1


def _name_words(name: str) -> set[str]:
    """A name's words, lower-cased, without the stops or commas they were written with."""
    return {w.lower().strip(".,") for w in name.split()}


def _of_parts(name: str) -> tuple[set[str], str]:
    """A name's words before its first "of" ("Edwin Marsh" of the Office of ...) and what it says after it
    ("the office of public works"), or "" when it has no "of"."""
    parts = re.split(r"\s+of\s+", name.lower(), maxsplit=1)
    return _name_words(parts[0]), parts[1] if len(parts) > 1 else ""


def _same_office(name: str, target: Analysis) -> bool:
    """Does the target name another one of the same "of" ("Joseph Bazalgette of the Metropolitan Board of Works"
    for "Isambard Kingdom Brunel of the Metropolitan Board of Works")?"""
    head, tail = _of_parts(name)
    return bool(tail) and any(_of_parts(n)[1] == tail and not _of_parts(n)[0] & head for n in target.names)


def _scattered(core: list[str], target: Analysis) -> bool:
    """Are the name's words before its last found only inside other, longer names ("Gill" of "Eric Gill" for
    "Gill Sans"), not on their own ("their father, Richard" for "Richard Williams")?"""
    singles = {n.lower() for n in target.names if len(n.split()) == 1}
    longer = [_name_words(n) for n in target.names
              if len(n.split()) >= 2 and _singular(n.split()[-1].lower()) != core[-1]]
    return all(w not in singles and any(w in n for n in longer) for w in core[:-1])


def _rival_names(name: str, core: list[str], target: Analysis) -> list[str]:
    """The target's names that end with the name's last word but are another name ("Pierre Curie" for "Marie
    Curie"); a shorter form of the same name ("Yuri Gagarin" for "Yuri Alekseyevich Gagarin") and a longer one
    ("Yuri Alekseyevich Gagarin" for "Yuri Gagarin") are none."""
    first, last = (re.escape(w.lower().strip(".,")) for w in (name.split()[0], name.split()[-1]))
    if not core[-1].isalpha() or re.search(rf"\b{first}(?:\s+and|,)\s+(?:[\w.]+\s+){{1,3}}{last}\b",
                                           target.lowered):
        return []       # "Season 1" ends in no name; "Marie and Pierre Curie" states "Marie Curie"
    mine, whole = _of_parts(name)[0], _name_words(name)
    out = []
    for other in target.names:
        ending = [_singular(w.lower().strip(".,")) for w in other.split()[-1:]]
        # another name shares the last word only ("Johnston Sans" / "Gill Sans"); a part of the name is none
        # ("Fairy Tail" of "Episode 151 of Fairy Tail")
        their_last, theirs = other.split()[-1].lower(), _of_parts(other)[0]
        if ending != core[-1:] or len(other.split()) < 2 or _name_words(other) <= whole:
            continue
        # ... and a title of the place ("Countess of Lovelace" for "Ada Lovelace") is none
        if their_last in theirs and not (theirs - {their_last}) & mine:
            out.append(other)
    return out


def _written_short(initials: str, target: Analysis) -> bool:
    return any(n.lower() == initials
               or lexicon.acronym(n) == initials and any(_initial(w) for w in n.split())
               for n in target.names)
