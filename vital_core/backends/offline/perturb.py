"""Perturbed variants of a normal response: ``missing`` and ``wrong``.

``missing`` drops the sentence(s) holding the response's vital claims (as
ranked by the importance model). ``wrong`` finds the key mention of the top
vital claim — the kind the question asks for first (a year for "when", a
number for "how many", a name for "who", a place for "where"), otherwise any
year, number, name or place — and swaps every occurrence of it for a
plausible other value of the same type. Choices are deterministic: the same
response always gives the same variant.
"""
from __future__ import annotations

import hashlib
import re

from vital_core.backends.offline.decompose import decompose
from vital_core.backends.offline.importance import rank_claims
from vital_core.backends.offline.language.answer_types import (
    DATE,
    NUMBER,
    PERSON,
    PLACE,
    extract_mentions,
    question_type,
)
from vital_core.backends.offline.language.lexicon import (
    ANTONYMS,
    CITIES,
    COUNTRIES,
    DEMONYM_ENDINGS,
    FIRST_NAMES,
    LAST_NAMES,
    MONTHS,
    MULTIWORD_PLACES,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    US_STATES,
)
from vital_core.backends.offline.language.word_rarity import frequency_rank
from vital_core.results.model import VITAL, strip_generation_prefix
from vital_core.scoring.perturbation import require_valid

MISSING, WRONG = "missing", "wrong"
# A word this frequent (by vocabulary rank) is ordinary English, so a phrase made
# of such words ("Product Life Cycle") is not taken for a person's name.
COMMON_NAME_RANK = 1500
# Opposites for the last-resort swap, both ways.
OPPOSITE = {a: b for a, b in ANTONYMS if " " not in a} | {b: a for a, b in ANTONYMS if " " not in b}

NUMBER_WORD_BY_VALUE = {v: w for w, v in NUMBER_WORDS.items()
                        if w not in ("single", "once", "twice", "thrice", "both", "pair", "dozen")}
ORDINAL_BY_VALUE = {v: w for w, v in ORDINAL_WORDS.items() if v > 0}


class PerturbationError(ValueError):
    """The response offers nothing to perturb (e.g. one sentence, no typed mention)."""


def _pick(options: list[str], seed: str, avoid: str) -> str:
    """A deterministic choice from ``options`` other than ``avoid``."""
    options = [o for o in options if o.lower() != avoid.lower()]
    digest = int(hashlib.sha256(seed.encode("utf-8")).hexdigest(), 16)
    return options[digest % len(options)]


def _ranked(query: str, response: str):
    sentences = decompose(response)
    ids, claims, positions, texts = [], [], [], []
    for s_index, (sentence, sentence_claims) in enumerate(sentences):
        for claim in sentence_claims:
            ids.append(f"S{len(ids) + 1}")
            claims.append(claim)
            positions.append(s_index)
            texts.append(sentence)
    if not claims:
        raise PerturbationError("the response has no sentences to perturb")
    labels, order, scores = rank_claims(query, ids, claims, positions, texts)
    return sentences, ids, claims, positions, labels, order


def make_missing(query: str, response: str) -> str:
    sentences, ids, _, positions, labels, order = _ranked(query, response)
    if len(sentences) < 2:
        raise PerturbationError("a one-sentence response has no 'missing' variant: "
                                "dropping its only sentence leaves nothing")
    by_id = dict(zip(ids, positions))
    drop = {by_id[i] for i in ids if labels[i] == VITAL}
    if not drop or len(drop) >= len(sentences):
        drop = {by_id[order[0]]}  # at least, and at most all but one: the top claim's sentence
    kept = [s for n, (s, _) in enumerate(sentences) if n not in drop]
    return " ".join(kept)


def _year_swap(year: str, seed: str) -> str:
    base = int(year[:4])
    offsets = [-7, -5, -4, -3, -2, 2, 3, 4, 5, 7]
    return str(base + offsets[int(hashlib.sha256(seed.encode()).hexdigest(), 16) % len(offsets)]) + year[4:]


def _number_swap(token: str, seed: str) -> str:
    lowered = token.lower()
    if lowered in NUMBER_WORD_BY_VALUE.values():
        value = NUMBER_WORDS[lowered]
        choices = [w for v, w in sorted(NUMBER_WORD_BY_VALUE.items())
                   if v != value and 0 < v <= 20 and abs(v - value) <= 3]
        word = _pick(choices or ["two", "three"], seed, lowered)
        return word.capitalize() if token[0].isupper() else word
    if lowered in ORDINAL_WORDS:
        value = ORDINAL_WORDS[lowered]
        choices = [w for v, w in sorted(ORDINAL_BY_VALUE.items()) if v != value and abs(v - value) <= 3]
        word = _pick(choices or ["second"], seed, lowered)
        return word.capitalize() if token[0].isupper() else word
    digits = token.replace(",", "")
    value = float(digits)
    if value.is_integer():
        n = int(value)
        candidates = [n + 1, n - 1, n + 2, n * 2, max(1, n // 2)] if n < 20 else \
            [round(n * f) for f in (0.5, 0.75, 1.25, 1.5, 2)]
        candidates = [c for c in candidates if c != n and c >= 0]
        new = int(_pick([str(c) for c in candidates], seed, digits))
        return f"{new:,}" if "," in token else str(new)
    return f"{value * 1.5:g}"


def _place_swap(place: str, seed: str) -> str:
    lowered = place.lower()
    for pool in (COUNTRIES, US_STATES, CITIES, MULTIWORD_PLACES):
        if lowered in pool:
            options = [p for p in pool if p not in ("america", "usa", "uk")]
            return _pick(options, seed, lowered).title()
    return _pick([c.title() for c in CITIES], seed, lowered)


def _person_swap(name: str, seed: str) -> str:
    parts = name.split()
    if len(parts) == 1:
        return _pick(list(LAST_NAMES), seed, name)
    return f"{_pick(list(FIRST_NAMES), seed + 'f', parts[0])} {_pick(list(LAST_NAMES), seed + 'l', parts[-1])}"


def _find_span(text: str, lowered_mention: str) -> str | None:
    match = re.search(rf"\b{re.escape(lowered_mention)}\b", text, flags=re.IGNORECASE)
    return match.group(0) if match else None


def _capitalised_inside_sentence(word: str, text: str) -> bool:
    """Does ``word`` appear capitalised somewhere other than at the start of a sentence?

    Only then is a one-word capitalised mention evidence of a name: a
    sentence's first word is capitalised whatever it is.
    """
    for match in re.finditer(rf"\b{re.escape(word)}\b", text, flags=re.IGNORECASE):
        if not match.group(0)[0].isupper():
            continue
        before = text[:match.start()].rstrip()
        if before and not re.search(r"[.!?:;\"“(]$", before):
            return True
    return False


def _key_swap(claim: str, sentence: str, kinds: tuple[str, ...], query: str,
              seed: str, response: str = "") -> tuple[str, str] | None:
    """(original span, replacement) for the first mention of ``kinds`` in ``claim``.

    Mentions the query itself contains ("Crocodile Dundee" in "who played
    Crocodile Dundee") are the question's subject, not its answer: never swapped.
    """
    mentions = extract_mentions(claim)
    asked = query.lower()

    def fresh(text: str) -> bool:
        return not re.search(rf"\b{re.escape(text.lower())}\b", asked)

    for kind in kinds:
        if kind == DATE:
            for year in sorted(mentions.years):
                if fresh(year):
                    return year, _year_swap(year, seed)
            for date in sorted(mentions.dates):
                month = date.split()[0]
                span = _find_span(sentence, month)
                if span and fresh(month):
                    return span, _pick([m.capitalize() for m in MONTHS], seed, month)
        if kind == NUMBER and (mentions.numbers or mentions.ordinals):
            for match in re.finditer(r"\b\d{1,3}(?:,\d{3})+\b|\b\d+(?:\.\d+)?\b|\b[A-Za-z]+\b", claim):
                token = match.group(0)
                low = token.lower()
                if not fresh(token):
                    continue
                if token[0].isdigit() and token not in mentions.years:
                    return token, _number_swap(token, seed)
                if (low in NUMBER_WORD_BY_VALUE.values() and low != "one") or \
                        (low in ORDINAL_WORDS and low != "last"):
                    return token, _number_swap(token, seed)
        if kind == PLACE:
            for place in sorted(mentions.places, key=lambda p: (-len(p), p)):
                span = _find_span(sentence, place)
                if span and fresh(place):
                    return span, _place_swap(place, seed)
        if kind == PERSON:
            # full names first; a lone capitalised word is often a nationality or a title
            people = sorted(mentions.names - mentions.places, key=lambda p: (-len(p.split()), -len(p), p))
            for person in people:
                span = _find_span(sentence, person)
                if not span or not fresh(person):
                    continue
                if len(person.split()) == 1 and person.endswith(DEMONYM_ENDINGS):
                    continue   # "American", "Chinese": a nationality, not a person
                if len(person.split()) == 1 and not _capitalised_inside_sentence(person, response):
                    continue   # "Leaves change colour ...": capitalised only because it opens a sentence
                if kind != kinds[0] and (len(person.split()) < 2 or any(
                        frequency_rank(w) <= COMMON_NAME_RANK for w in person.split())):
                    continue   # not asked for a person: only clearly personal names ("Serafin Talisayon")
                return span, _person_swap(span, seed)
    return None


def make_wrong(query: str, response: str) -> str:
    sentences, ids, claims, positions, labels, order = _ranked(query, response)
    question = strip_generation_prefix(query)
    qtype = question_type(question)
    by_id = {sid: (claim, pos) for sid, claim, pos in zip(ids, claims, positions)}
    typed = (DATE, NUMBER, PERSON, PLACE)
    # First the kind of answer the question asks for, in any claim (most important
    # first); then any typed mention of the most important claims.
    passes = ([(qtype,)] if qtype in typed else []) + [tuple(k for k in typed if k != qtype)]
    for kinds in passes:
        for sid in order:
            claim, pos = by_id[sid]
            swap = _key_swap(claim, sentences[pos][0], kinds, question, seed=f"{query}|{claim}",
                             response=response)
            if swap:
                old, new = swap
                return re.sub(rf"\b{re.escape(old)}\b", new, response)
    # Last resort: say the opposite ("rapid" -> "slow") in the most important claim that allows it.
    for sid in order:
        claim, pos = by_id[sid]
        for word in re.findall(r"[A-Za-z]+", claim):
            opposite = OPPOSITE.get(word.lower())
            if opposite and re.search(rf"\b{word}\b", sentences[pos][0]):
                new = opposite.capitalize() if word[0].isupper() else opposite
                sentence = sentences[pos][0]
                changed = re.sub(rf"\b{word}\b", new, sentence, count=1)
                return response.replace(sentence, changed, 1)
    raise PerturbationError("no year, number, name, place or word with a listed opposite found "
                            "in the response to swap")


def perturb(query: str, response: str, kind: str) -> str:
    """The ``kind`` variant of ``response``, checked as every backend's variants are.

    Raises ``PerturbationError`` when there is nothing to perturb and
    ``vital_core.scoring.perturbation.PerturbationCheckError`` when the variant fails the
    shared check (e.g. a swapped name repeated so often that too many words change).
    """
    if kind == MISSING:
        variant = make_missing(query, response)
    elif kind == WRONG:
        variant = make_wrong(query, response)
    else:
        raise ValueError(f"unknown perturbation kind {kind!r}; expected 'missing' or 'wrong'")
    require_valid(kind, response, variant)
    return variant
