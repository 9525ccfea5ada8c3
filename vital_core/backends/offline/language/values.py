"""Numbers, quantities, dates and ordinals in a text, normalised so that two wordings compare equal.

"1.28 km" = "1,280 metres"; "90 percent" = "nine-tenths" = "nine in ten";
"two hundred and six" = 206; "eighteen ninety-six" = 1896; "nine point five
eight" = 9.58; "20 July 1969" = "July 20, 1969" = "20/7/1969"; "round eight" =
"eighth round"; "the 11th century" holds 1066. Ordinals that are part of a
name ("Ninth Symphony", "Henry VIII", "Symphony No. 9") are names, not
counts. Every value keeps the words it came from, so a reason can quote them.
Pure text functions; ``value_match`` says when two values agree.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from vital_core.backends.offline.language.lexicon import (
    AREA_FACTORS,
    MONTHS,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    SCALE_WORDS,
    SHARE_WORDS,
    STOPWORDS,
    TEMPERATURE_UNITS,
    UNITS,
)

# unit word -> (dimension, size in the dimension's base unit)
UNIT_SIZES: dict[str, tuple[str, float]] = {name: (dim, size) for names, dim, size in UNITS for name in names.split()}
_AREA = re.compile(r"\s*(?:(square|sq\.?)\s+(kilometres?|kilometers?|km|metres?|meters?|m|miles?|mi|feet|foot|ft)\b|"
                   r"(km|m|mi|ft)(?:2|²)(?!\w)|(hectares?|ha|acres?)\b)", re.I)

_APPROX = re.compile(r"\b(about|around|approximately|roughly|nearly|almost|some|circa|c\.|over|more than|"
                     r"less than|fewer than|under|up to|at least|at most|just over|just under|"
                     r"estimated|close to|some)\s*$")
_LOWER_BOUND = re.compile(r"\b(over|more than|at least|just over|upwards of|in excess of)\s*$")
_UPPER_BOUND = re.compile(r"\b(under|less than|fewer than|up to|at most|just under|below)\s*$")
_DIGITS = re.compile(r"(?<![\w.])([−-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[−-]?\d+(?:\.\d+)?)(?:\s*(%))?(?![\w,]*\d)")
_SCALES = ("hundred", "thousand", "million", "billion")
# before a scale word, these leave the number open: "a few hundred", "several thousand", "many millions"
_VAGUE_COUNT = re.compile(r"\b(?:few|several|many|some)\s+$", re.I)
_WORDNUM = "|".join(sorted(set(NUMBER_WORDS) | set(_SCALES), key=len, reverse=True))
_WORD_RUN = re.compile(rf"\b(?:{_WORDNUM})(?:[\s-]+(?:and\s+)?(?:{_WORDNUM}))*"
                       rf"(?:\s+point(?:\s+(?:zero|one|two|three|four|five|six|seven|eight|nine))+)?\b", re.I)
_ROMAN_NAME = re.compile(r"\b[A-Z][a-z]+\s+(?:[IVX]{1,5})\b")
_NAMED_ORDINAL = re.compile(r"\b(?:[A-Z][a-z]+\s+)?(" + "|".join(o.capitalize() for o in ORDINAL_WORDS) +
                            r")\s+(Symphony|Amendment|Crusade|Republic|Dynasty|Doctor|Reich|Concerto|Sonata|"
                            r"Avenue|Street|Council|Circuit|Army|Fleet|Corps|Division|Congress|Estate)\b")
_MONTH_RE = "|".join(MONTHS) + "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
_DATE_DMY = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\.?,?\s+(\d{{3,4}})\b", re.I)
_DATE_MDY = re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{3,4}})\b", re.I)
_DATE_DM = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b|\b({_MONTH_RE})\s+(\d{{1,2}})"
                      r"(?:st|nd|rd|th)?\b(?!\s*,?\s*\d{3})", re.I)
FULL_DATE = f"{_DATE_DMY.pattern}|{_DATE_MDY.pattern}"    # a day, month and year, either way round (re.I)
_DATE_NUMERIC = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_DATE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_YEAR = re.compile(rf"\b({_MONTH_RE})\.?,?\s+(\d{{3,4}})\b", re.I)
_YEAR = re.compile(r"\b(\d{3,4})(s)?\b(?!\s*(?:%|percent|km|m\b|metres|meters|feet|ft|kilometres|miles|people|"
                   r"years|days|hours|species|works|poems|pieces))")
_CENTURY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)[\s-]+century\b|\b(" + "|".join(ORDINAL_WORDS) +
                      r")[\s-]+century\b", re.I)
_BC = re.compile(r"^\s*(BC|BCE|B\.C\.)\b")
# a time of day: "3:42", "3:42 a.m.", "15:30"; read on a 12-hour dial (a.m. and p.m. are not told apart)
CLOCK_TIME = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)(?:\s*[ap]\.?\s?m\b\.?)?(?![\d:])", re.I)


@dataclass(frozen=True)
class Value:
    """One typed value: ``kind`` is number / year / date / century / ordinal."""
    kind: str
    value: float                 # numbers in base units; years; ordinals; centuries
    dim: str = ""                # length / mass / time / fraction / c|f|k, or the counted noun
    text: str = ""               # the words it came from, for reasons
    approx: bool = False
    bound: int = 0               # +1 "more than", -1 "less than"
    month: int = 0               # dates: month 1-12 and day
    day: int = 0
    start: int = 0               # character offset in the text

    @property
    def is_measure(self) -> bool:
        """A quantity in a unit of length, area, mass, speed ... ("594 metres"), not a count or a share."""
        return self.kind == "number" and bool(self.dim) and not self.dim.startswith("#") \
            and self.dim not in ("fraction", "time", "clock")


def _month(name: str) -> int:
    key = name.lower()[:3]
    return next(i + 1 for i, m in enumerate(MONTHS) if m.startswith(key))


def word_number(phrase: str) -> float | None:
    """"two hundred and six" -> 206; "eighteen ninety-six" -> 1896; "nine point five eight" -> 9.58."""
    tokens = [t for t in re.split(r"[\s-]+", phrase.lower()) if t and t != "and"]
    if "point" in tokens:
        cut = tokens.index("point")
        whole = word_number(" ".join(tokens[:cut])) if cut else 0.0
        digits = "".join(str(NUMBER_WORDS[t]) for t in tokens[cut + 1:] if t in NUMBER_WORDS)
        return None if whole is None or not digits else float(f"{int(whole)}.{digits}")
    values = [NUMBER_WORDS.get(t) if t not in SCALE_WORDS and t != "hundred" else t for t in tokens]
    if any(v is None for v in values):
        return None
    # "eighteen ninety-six": two two-digit groups read as a year
    if len(values) in (2, 3) and isinstance(values[0], int) and 10 <= values[0] <= 99 and \
            all(isinstance(v, int) for v in values[1:]) and 10 <= sum(values[1:]) <= 99 and values[1] >= 10:
        return float(values[0] * 100 + sum(values[1:]))
    total, current = 0.0, 0.0
    for v in values:
        if v == "hundred":
            current = max(current, 1) * 100
        elif isinstance(v, str):
            total += max(current, 1) * SCALE_WORDS[v]
            current = 0.0
        else:
            current += v
    return total + current


def _unit_after(text: str, end: int) -> tuple[str, float, int]:
    """(dimension, factor, end) of a unit following a number at ``end``; ("", 1, end) when none."""
    area = _AREA.match(text[end:])
    if area:
        unit = (area.group(2) or area.group(3) or area.group(4)).lower().rstrip("s")
        return "area", AREA_FACTORS[unit], end + area.end()
    m = re.match(r"\s*(?:-\s*)?(?:[A-Z][a-z]+\s+(?=(?:days?|years?|hours?|months?|weeks?)\b))?"
                 r"(°\s?[CFcf]\b|degrees?\s+(?:celsius|fahrenheit)|[A-Za-z%]+)"
                 r"(?:\s+(?:per|an|a|/)\s*([A-Za-z]+))?", text[end:], re.I)
    if not m:
        return "", 1.0, end
    word = m.group(1).lower().replace(" ", "")
    if word.startswith("degree"):
        word = "°f" if "fahrenheit" in word else "°c"
    if word in TEMPERATURE_UNITS:
        return TEMPERATURE_UNITS[word], 1.0, end + m.end(1)
    if word not in UNIT_SIZES:
        return "", 1.0, end
    dim, factor = UNIT_SIZES[word]
    per = (m.group(2) or "").lower()
    if per in UNIT_SIZES and UNIT_SIZES[per][0] == "time":
        return f"{dim}/time", factor / UNIT_SIZES[per][1], end + m.end()
    return dim, factor, end + m.end(1)


def _head_noun(text: str, end: int) -> str:
    """The counted noun after a bare number ("three hearts" -> "heart"), singularised crudely."""
    m = re.match(r"\s+(?:of\s+(?:the|its|his|her|their)\s+)?"
                 r"(?:(?!(?:and|or|of|in|on|at|to|for|with|the|a|an)\s)(?:[a-z]+-)?[a-z]+\s+){1,3}"
                 r"([a-z]{3,}s|teeth|feet|men|women|children|people|mice|geese)\b",
                 text[end:]) or \
        re.match(r"\s+(?:of\s+(?:the|its|his|her|their)\s+)?([A-Za-z]{3,})", text[end:])
    if not m:
        return ""
    word = m.group(1).lower()
    if word in ("species", "series"):
        return word
    for suffix, repl in (("ies", "y"), ("ves", "f"), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) > 4:
            return word[: -len(suffix)] + repl
    return word


def _qualifiers(text: str, start: int) -> tuple[bool, int]:
    before = re.sub(r"\s(every|each)\s*$", " ", text[max(0, start - 30):start].lower())
    bound = 1 if _LOWER_BOUND.search(before) else -1 if _UPPER_BOUND.search(before) else 0
    return bool(_APPROX.search(before)) or bound != 0, bound


def _masked(text: str) -> str:
    """The text with name ordinals and Roman numerals blanked ("Ninth Symphony", "Henry VIII", "No. 9")."""
    out = _NAMED_ORDINAL.sub(lambda m: " " * len(m.group(0)), text)
    out = _ROMAN_NAME.sub(lambda m: " " * len(m.group(0)), out)
    return re.sub(r"\b(?:No\.|Number|Apollo|Sputnik|Boeing|Flight|Reactor|Vol\.)\s*\d+\b",
                  lambda m: " " * len(m.group(0)), out)


def _dates(text: str, out: list[Value]) -> str:
    """Full and partial dates, appended to ``out``; returns the text with them blanked."""
    def take(match, year, month, day) -> str:
        out.append(Value("date", float(year or 0), text=match.group(0), month=month, day=day, start=match.start()))
        return " " * len(match.group(0))
    text = _DATE_NUMERIC.sub(lambda m: take(m, int(m.group(3)), int(m.group(2)) if int(m.group(1)) <= 12 <
                                            int(m.group(2)) else int(m.group(2)) if int(m.group(2)) <= 12 else 0,
                                            int(m.group(1)) if int(m.group(2)) <= 12 else int(m.group(2))), text)
    text = _DATE_ISO.sub(lambda m: take(m, int(m.group(1)), int(m.group(2)), int(m.group(3)))
                         if 1 <= int(m.group(2)) <= 12 else m.group(0), text)
    text = _DATE_DMY.sub(lambda m: take(m, int(m.group(3)), _month(m.group(2)), int(m.group(1))), text)
    text = _DATE_MDY.sub(lambda m: take(m, int(m.group(3)), _month(m.group(1)), int(m.group(2))), text)
    text = _MONTH_YEAR.sub(lambda m: take(m, int(m.group(2)), _month(m.group(1)), 0), text)
    text = _DATE_DM.sub(lambda m: take(m, 0, _month(m.group(2) or m.group(3)), int(m.group(1) or m.group(4))),
                        text)
    return text


def _clock_times(text: str, out: list[Value]) -> str:
    """Times of day, in minutes on a 12-hour dial, appended to ``out``; returns the text with them blanked."""
    def take(m) -> str:
        out.append(Value("time", float(int(m.group(1)) % 12 * 60 + int(m.group(2))), dim="clock",
                         text=m.group(0), start=m.start()))
        return " " * len(m.group(0))
    return CLOCK_TIME.sub(take, text)


def _years(text: str, out: list[Value]) -> str:
    def century(m) -> str:
        n = int(m.group(1)) if m.group(1) else ORDINAL_WORDS[m.group(2).lower()]
        out.append(Value("century", float(n), text=m.group(0), start=m.start()))
        return " " * len(m.group(0))
    text = _CENTURY.sub(century, text)

    def year(m) -> str:
        value = int(m.group(1))
        bc = bool(_BC.match(text[m.end():]))
        if not (1000 <= value <= 2100 or bc or re.search(r"\b(in|AD|of|since|by|from|until|to)\s*$",
                                                         text[max(0, m.start() - 6):m.start()])):
            return m.group(0)
        approx, bound = _qualifiers(text, m.start())
        out.append(Value("year", float(-value if bc else value), dim="decade" if m.group(2) else "",
                         text=m.group(0), approx=approx or bool(m.group(2)), bound=bound, start=m.start()))
        return " " * len(m.group(0))
    return _YEAR.sub(year, text)


def _number(text: str, start: int, end: int, value: float, kind: str, out: list[Value]) -> int:
    """Append the number at ``text[start:end]`` with its scale word and unit; return where it ends."""
    if re.search(r"\bminus\s*$", text[max(0, start - 7):start], re.I):
        value = -value
    # the scale word may end the sentence ("capped at 21 million.")
    scale = re.match(r"\s+([a-z]+)", text[end:end + 14].lower())
    scaled = scale is not None and scale.group(1) in SCALE_WORDS
    if scaled:
        value *= SCALE_WORDS[scale.group(1)]
        end += scale.end()
    dim, factor, unit_end = _unit_after(text, end)
    if dim in ("c", "f", "k"):
        value = {"c": value + 273.15, "f": (value - 32) * 5 / 9 + 273.15, "k": value}[dim]
        dim = "temperature"
    else:
        value *= factor
    if not dim:
        # a bare "21 million" counts millions of something: comparable with another bare count of millions
        dim = "#" + (_head_noun(text, end) or (scale.group(1) if scaled else ""))
    approx, bound = _qualifiers(text, start)
    if kind == "year":
        dim = ""
    out.append(Value(kind, value, dim=dim, text=text[start:unit_end].strip(), approx=approx, bound=bound,
                     start=start))
    return unit_end


_TIME_UNIT = r"(minutes?|hours?|days?|weeks?|fortnights?|months?|years?|decades?|centuries|century)"
_AMOUNT = rf"(\d+|an?|{'|'.join(k for k in NUMBER_WORDS if NUMBER_WORDS[k] <= 20)})"
# compiled once: extract_values runs on every claim and evidence sentence
_SHARE_OF_UNIT = re.compile(rf"\b({'|'.join(sorted(SHARE_WORDS, key=len, reverse=True))})\s+(?:of\s+)?an?\s+"
                            rf"{_TIME_UNIT}\b", re.I)                          # "three-quarters of an hour"
_HALF_BEFORE_UNIT = re.compile(rf"\b{_AMOUNT}\s+and\s+a\s+half\s+{_TIME_UNIT}\b", re.I)   # "two and a half hours"
_HALF_AFTER_UNIT = re.compile(rf"\b{_AMOUNT}\s+{_TIME_UNIT}\s+and\s+a\s+half\b", re.I)    # "an hour and a half"
_ONE_UNIT_AND_MORE = re.compile(rf"\b(an?|one)\s+{_TIME_UNIT}\s+and\s+{_AMOUNT}\s+{_TIME_UNIT}\b", re.I)
_ONE_SPAN = re.compile(r"\b(?:a|one)\s+(fortnight|decade|century)\b", re.I)   # "a year" is often a rate


def _count(word: str) -> float:
    """"an"/"a" 1, "12" 12, "twelve" 12."""
    word = word.lower()
    return float(word) if word.isdigit() else 1.0 if word in ("a", "an") else float(NUMBER_WORDS[word])


def _durations(text: str, out: list[Value]) -> str:
    """Spans of time said in words: "three-quarters of an hour" (2700 s), "two and a half hours",
    "an hour and a half", "an hour and 48 minutes", "a fortnight", "a decade"; appended to ``out``,
    blanked in the text."""
    def take(m, amount: float, unit: str) -> str:
        approx, bound = _qualifiers(text, m.start())
        dim, factor = UNIT_SIZES[unit.lower()]
        out.append(Value("number", amount * factor, dim=dim, text=m.group(0), approx=approx, bound=bound,
                         start=m.start()))
        return " " * len(m.group(0))

    def one_and_more(m) -> str:     # "an hour and 48 minutes": 6480 s, in hours
        return take(m, 1.0 + _count(m.group(3)) * UNIT_SIZES[m.group(4).lower()][1] / UNIT_SIZES[m.group(2).lower()][1],
                    m.group(2))
    text = _SHARE_OF_UNIT.sub(lambda m: take(m, SHARE_WORDS[m.group(1).lower()], m.group(2)), text)
    text = _HALF_BEFORE_UNIT.sub(lambda m: take(m, _count(m.group(1)) + 0.5, m.group(2)), text)
    text = _HALF_AFTER_UNIT.sub(lambda m: take(m, _count(m.group(1)) + 0.5, m.group(2)), text)
    text = _ONE_UNIT_AND_MORE.sub(one_and_more, text)
    return _ONE_SPAN.sub(lambda m: take(m, 1.0, m.group(1)), text)


def _compound_durations(values: list[Value], text: str) -> list[Value]:
    """"2 hours 31 minutes" is one span of time (9060 s), not two."""
    out: list[Value] = []
    for v in values:
        last = out[-1] if out else None
        if last is not None and last.dim == "time" and v.dim == "time" and v.kind == last.kind == "number" \
                and v.value < last.value \
                and re.fullmatch(r"[\s,]*(?:and\s+)?", text[last.start + len(last.text):v.start]):
            out[-1] = Value("number", last.value + v.value, dim="time", text=text[last.start:v.start + len(v.text)],
                            approx=last.approx or v.approx, bound=last.bound, start=last.start)
            continue
        out.append(v)
    return out


def _fractions(text: str, out: list[Value]) -> str:
    """"nine-tenths", "nine in ten", "half" as shares (0.9, 0.9, 0.5)."""
    def take(m, value) -> str:
        out.append(Value("number", value, dim="fraction", text=m.group(0), approx=True, start=m.start()))
        return " " * len(m.group(0))
    denominators = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5,
                    "fifths": 5, "tenth": 10, "tenths": 10, "hundredth": 100, "hundredths": 100}
    text = re.sub(r"\b(one|two|three|four|five|six|seven|eight|nine)[\s-](halves|half|thirds?|quarters?|fifths?|"
                  r"tenths?|hundredths?)\b", lambda m: take(m, NUMBER_WORDS[m.group(1).lower()] /
                                                             denominators[m.group(2).lower()]), text, flags=re.I)
    return re.sub(r"\b(one|two|three|four|five|six|seven|eight|nine)\s+(?:in|out of)\s+(ten|a hundred|hundred)\b",
                  lambda m: take(m, NUMBER_WORDS[m.group(1).lower()] / (10 if m.group(2) == "ten" else 100)),
                  text, flags=re.I)


def _ordinals(text: str, out: list[Value]) -> str:
    def take(m, n: int, noun: str) -> str:
        out.append(Value("ordinal", float(n), dim=noun, text=m.group(0), start=m.start()))
        return " " * len(m.group(0))
    # "first" is nearly always a superlative ("the first woman to ..."), compared as a word, not a value
    ordinal_words = "|".join(o for o in ORDINAL_WORDS if o not in ("last", "first"))
    text = re.sub(rf"\b(?:(\d+)(?:st|nd|rd|th)|({ordinal_words}))[\s-]+([a-z]+)",
                  lambda m: take(m, int(m.group(1)) if m.group(1) else ORDINAL_WORDS[m.group(2).lower()],
                                 m.group(3).lower()), text, flags=re.I)
    # "round eight" = "eighth round"
    return re.sub(r"\b(round|stage|chapter|act|season|episode|part|volume|game|grade|level)\s+"
                  rf"(\d+|{'|'.join(k for k in NUMBER_WORDS if NUMBER_WORDS[k] <= 20)})\b",
                  lambda m: take(m, int(m.group(2)) if m.group(2).isdigit() else NUMBER_WORDS[m.group(2).lower()],
                                 m.group(1).lower()), text, flags=re.I)


# after "one", words that pick one thing out rather than count ("one day", "one another"; the function words,
# "one of", are the lexicon's stopwords)
_NOT_COUNTED_AFTER_ONE = frozenset(
    "another less day night morning afternoon evening time times way side hand thing point "
    "example reason summer winter spring autumn year week month moment occasion story version account".split())
_COUNTED_ONE = re.compile(r"\s+([a-z]+)\b")


def _counted_one(text: str, start: int, end: int) -> bool:
    """Does "one" count a noun ("carries one hump", "won one Oscar")? Not after a determiner ("the one
    thing", "no one"), nor before a word that picks a thing out rather than counts it."""
    before = text[max(0, start - 6):start].lower().split()
    after = _COUNTED_ONE.match(text, end)
    return not (before and before[-1] in ("the", "no", "any", "each", "every", "this", "that", "which", "only",
                                          "number")) \
        and after is not None and after.group(1) not in _NOT_COUNTED_AFTER_ONE and after.group(1) not in STOPWORDS


def vague(text: str, value: Value) -> bool:
    """Is the value a scale word left open ("a few hundred dollars", "several thousand people"): no one number
    another value could contradict?"""
    return value.text.split()[0].lower() in _SCALES and bool(_VAGUE_COUNT.search(text[:value.start]))


def extract_values(text: str) -> list[Value]:
    """Every typed value in ``text``, in order of appearance."""
    out: list[Value] = []
    work = _masked(text.replace("\u2212", "-").replace("\u2013", "-"))
    work = _dates(work, out)
    work = _clock_times(work, out)
    work = _years(work, out)
    work = _durations(work, out)
    work = _fractions(work, out)
    work = _ordinals(work, out)
    spans: list[tuple[int, int]] = []
    for m in _DIGITS.finditer(work):
        value = float(m.group(1).replace(",", ""))
        if m.group(2):
            out.append(Value("number", value / 100, dim="fraction", text=m.group(0), start=m.start(),
                             approx=_qualifiers(work, m.start())[0]))
            spans.append((m.start(), m.end()))
            continue
        spans.append((m.start(), _number(work, m.start(), m.end(), value, "number", out)))
    for a, b in spans:
        work = work[:a] + " " * (b - a) + work[b:]
    for m in _WORD_RUN.finditer(work):
        phrase = m.group(0).strip()
        if phrase.lower() == "one" and _counted_one(work, m.start(), m.end()):
            _number(work, m.start(), m.end(), 1.0, "number", out)
            continue
        if phrase.lower() in ("one", "a", "single", "once", "pair", "both", "zero") or not phrase:
            continue
        value = word_number(phrase)
        if value is not None:
            year_like = len(re.split(r"[\s-]+", phrase)) >= 2 and 1000 <= value <= 2100 and "hundred" not in phrase
            _number(work, m.start(), m.end(), value, "year" if year_like else "number", out)
    return _compound_durations(sorted(out, key=lambda v: v.start), text)
