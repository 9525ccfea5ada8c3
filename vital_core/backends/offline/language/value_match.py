"""When two values agree: the same quantity in other units, a date in its document's context, a duration in years.

``comparable``: two values fill the same slot (same kind and dimension, or counts of the same
noun); ``compatible``: the evidence's value states the claim's (a date within the claim's year, an
amount within rounding); ``consistent``: the two do not disagree. ``in_context`` reads an
evidence sentence's dates after what its document said before ("On July 20" after "July 16,
1969"). Pure functions of ``values.Value``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from vital_core.backends.offline.language.values import UNIT_SIZES, Value

_SAME_TIME = re.compile(r"\b(?:that|the same)\s+(?:night|day|evening|morning|afternoon)\b", re.I)


def _names_a_year(v: Value) -> bool:
    """A year or a dated day that later sentences count from (not "the 1490s")."""
    return v.kind in ("year", "date") and v.value > 0 and v.dim != "decade"


@dataclass(frozen=True)
class DateContext:
    """The last year and the last full date a narrative has given, for the sentences after it."""
    year: int = 0
    date: Value | None = None

    def after(self, values: list[Value]) -> "DateContext":
        year, date = self.year, self.date
        for v in values:
            if _names_a_year(v):
                year = int(v.value)
            if v.kind == "date" and v.value and v.month and v.day:
                date = v
        return DateContext(year, date)


def in_context(values: list[Value], text: str, context: DateContext) -> list[Value]:
    """An evidence sentence's values read in its document: "On July 20" after "July 16, 1969" is 20 July
    1969, "on 3 October that year" takes the year said before it, and "that night" is the date the
    previous sentence gave."""
    out: list[Value] = []
    year = context.year
    for v in values:
        if v.kind == "date" and not v.value and v.month and year:
            v = Value("date", float(year), text=v.text, month=v.month, day=v.day, start=v.start)
        elif _names_a_year(v):
            year = int(v.value)
        out.append(v)
        later = whole_years(v)
        if later and year and re.match(r"\s+(?:later|after|on)\b", text[v.start + len(v.text):]):
            year += later      # "Four years later Italy staged the second edition": 1934 after 1930
            out.append(Value("year", float(year), text=f"{v.text} later", start=v.start))
    if context.date is not None:
        d = context.date
        out += [Value("date", d.value, text=m.group(0), month=d.month, day=d.day, start=m.start())
                for m in _SAME_TIME.finditer(text)]
    return sorted(out, key=lambda v: v.start)


_NUMERAL = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _close(claim: Value, other: Value) -> bool:
    """Equal up to rounding. Two numbers written in the same words agree to the precision they are written
    with ("8,019 metres" / "8,091 metres" differ; "9.6 seconds" / "9.58 seconds" agree); and within 1.1% in
    any case, after a conversion of units (10% when either is approximate)."""
    a, b = claim.value, other.value
    if claim.approx or other.approx:
        return abs(a - b) <= 0.10 * max(abs(a), abs(b), 1e-9)
    if abs(a - b) > 0.011 * max(abs(a), abs(b), 1e-9):
        return False
    written = [_NUMERAL.search(v.text) for v in (claim, other)]
    if all(written) and _NUMERAL.sub("#", claim.text).lower() == _NUMERAL.sub("#", other.text).lower():
        x, y = (float(m.group().replace(",", "")) for m in written)
        return abs(x - y) <= max(_precision(m.group()) for m in written) / 2
    return True


def _precision(numeral: str) -> float:
    """The unit of the last written digit: "9.6" -> 0.1, "8,019" -> 1, "8,000" -> 1000."""
    numeral = numeral.replace(",", "")
    if "." in numeral:
        return 10.0 ** -len(numeral.split(".")[1])
    return 10.0 ** (len(numeral) - len(numeral.rstrip("0"))) if numeral.strip("0") else 1.0


def whole_years(value: Value) -> int | None:
    """A duration in whole years ("three years later", "a decade on"), for year arithmetic; else None."""
    if value.dim != "time":
        return None
    years = value.value / UNIT_SIZES["year"][1]
    return int(round(years)) if years >= 1 and abs(years - round(years)) < 1e-6 else None


def compatible(claim: Value, other: Value) -> bool:
    """Does ``other`` (evidence) state ``claim``? Evidence may be more precise than the claim, not less:
    "1066" states "the 11th century" and "8 September 2022" states "September 2022", not the reverse."""
    return _agree(claim, other, entail=True)


def consistent(claim: Value, other: Value) -> bool:
    """Can both be true? "1495" and "the 1490s" can; "1495" and "1497" cannot."""
    return _agree(claim, other, entail=False)


def _agree(claim: Value, other: Value, entail: bool) -> bool:
    if claim.kind == "date" or other.kind == "date":
        return _date_agree(claim, other, entail)
    if claim.kind == "century" and other.kind == "year":
        return (claim.value - 1) * 100 < other.value <= claim.value * 100
    if claim.kind == "year" and other.kind == "century":
        return not entail and (other.value - 1) * 100 < claim.value <= other.value * 100
    if claim.kind != other.kind or claim.dim.startswith("#") != other.dim.startswith("#"):
        if {claim.kind, other.kind} == {"year", "number"} and other.dim in ("", "#"):
            return claim.value == other.value
        return False
    if claim.kind == "year":
        if claim.dim == "decade" or other.dim == "decade":
            if claim.dim != "decade" and entail:
                return False
            low, high = (claim, other) if claim.dim == "decade" else (other, claim)
            return low.value <= high.value < low.value + 10
        return claim.value == other.value or ((claim.approx or other.approx) and abs(claim.value - other.value) <= 2)
    if claim.kind == "ordinal":
        return claim.value == other.value
    if claim.bound > 0:
        return other.value >= claim.value * 0.99
    if claim.bound < 0:
        return other.value <= claim.value * 1.01
    if other.bound and not entail:
        return other.value * other.bound <= claim.value * other.bound * 1.01
    return _close(claim, other)


def _date_agree(claim: Value, other: Value, entail: bool) -> bool:
    if claim.kind == "year" or other.kind == "year":
        date, year = (other, claim) if claim.kind == "year" else (claim, other)
        if entail and claim.kind == "date":
            return False
        if year.dim == "decade":    # "the 1850s" holds "31 January 1858"
            return not date.value or year.value <= date.value < year.value + 10
        return not date.value or date.value == year.value
    if claim.kind != other.kind:
        return False
    for a, b in ((claim.value, other.value), (claim.month, other.month), (claim.day, other.day)):
        if a and b and a != b:
            return False
        if entail and a and not b:
            return False
    return True


_OFFSET = re.compile(r"\s+(?:after|before|later|earlier|ago)\b", re.I)


def time_offset(text: str, value: Value) -> bool:
    """Is the value a time from something else ("two days after the touchdown"), not how long a thing lasted?"""
    return value.kind == "number" and bool(_OFFSET.match(text, value.start + len(value.text)))


# before a value, these make it a bound or one end of a span, not the value of what is asked: "held *since*
# 1927", "*between* 30,000 *and* 40,000"
_BOUND = re.compile(r"\b(?:since|until|till|before|after|from|between)\s+(?:the\s+)?(?:[\w,]+\s+){0,2}$"
                    r"|\b(?:between|from)\s+\S+(?:\s+\S+){0,3}\s+(?:and|to)\s+$", re.I)
# ... and "by" before a date ("*by* 1900"); before a count it names the doer ("joined by seven bridges")
_BY_DATE = re.compile(r"\bby\s+(?:the\s+)?$", re.I)


def said_as_bound(text: str, value: Value) -> bool:
    """Is the value a bound or an end of a span ("since 1927", "by 1900", "from 1914 to 1918")?"""
    before = text[:value.start]
    return bool(_BOUND.search(before)) or value.kind in ("date", "year") and bool(_BY_DATE.search(before))


# after a length, these make it a distance from somewhere ("2.5 kilometres south of the village"), not a size
_AWAY = re.compile(r"\s+(?:(?:due\s+)?(?:north|south|east|west)(?:-?(?:east|west))?(?:wards)?\s+of|from|away|off|"
                   r"inland|out\s+of|outside)\b", re.I)


# after a length, these make it a thing's size ("110 metres long")
_SIZE = re.compile(r"\s+(?:long|wide|tall|high|deep|across|thick|in\s+(?:length|width|height|diameter|depth))\b", re.I)


def distance_from(text: str, value: Value) -> bool:
    """Is the length a distance from a place ("lies 2.5 kilometres south of the village")?"""
    return value.dim == "length" and bool(_AWAY.match(text, value.start + len(value.text)))


def size_of(text: str, value: Value) -> bool:
    """Is the length a thing's size ("is about 110 metres long")?"""
    return value.dim == "length" and bool(_SIZE.match(text, value.start + len(value.text)))


def distance_and_size(text: str, value: Value, other_text: str, other: Value) -> bool:
    """Is one of the two lengths a distance from a place and the other a thing's size (no rivals, then)?"""
    return distance_from(text, value) and size_of(other_text, other) \
        or size_of(text, value) and distance_from(other_text, other)


def name_mismatch(name: str, other: str) -> str:
    """The contradiction's reason for two names in the same place, quoting both."""
    return f"name mismatch: the claim names {name}, the evidence names {other}"


def mismatch_reason(claim: Value, other: Value) -> str:
    """The contradiction's reason for two disagreeing values, quoting both."""
    kind = "date" if claim.kind in ("year", "date", "century") else "time" if claim.kind == "time" else "number"
    return f"{kind} mismatch: the claim says {claim.text}, the evidence says {other.text}"


def comparable(claim: Value, other: Value) -> bool:
    """Do the two values measure the same kind of thing (so that differing values conflict)?"""
    kinds = {claim.kind, other.kind}
    if kinds <= {"year", "date"}:
        if "date" in kinds and "year" in kinds:
            date = claim if claim.kind == "date" else other
            return bool(date.value)
        return claim.kind == "year" or bool(claim.month and other.month)
    if kinds == {"century"}:
        return True
    if kinds == {"century", "year"}:
        return False     # "the 19th century" may be a period around a dated event, not its date
    if claim.kind != other.kind:
        return False
    if claim.kind == "ordinal":
        return claim.dim == other.dim
    if claim.dim.startswith("#"):
        return claim.dim == other.dim and claim.dim != "#"
    return claim.dim == other.dim


_LIFESPAN = re.compile(r"\((?:c\.\s*|born\s+)?\d{3,4}\s*[-–]\s*\d{2,4}\)|^\s*\d{3,4}\s*[-–]\s*\d{2,4}\b")


def in_lifespan(text: str, value: Value) -> bool:
    """A year of "(1678-1741)" after a name (or of that bracket read as a clause of its own): the
    person's birth or death, no other event's date."""
    return any(m.start() <= value.start < m.end() for m in _LIFESPAN.finditer(text))
