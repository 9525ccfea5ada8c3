"""Reading model replies into each step's values: the JSON found in a reply (``reply_json``), and the
plain-text fallbacks.

The ``parse_*`` functions turn a reply into the step's values *and a list of violations*
(duplicated or unknown ids, labels outside the allowed set, items it cannot
read): the backend states those violations back to the model and asks again.
Ids or sentences simply left out are listed apart (``missing``): the backend
asks for those alone in one more call. Labels are read through the one table of
spellings per vocabulary in ``vital_core.results.labels``; a word that only roughly means
a label (``APPROXIMATE_SPELLINGS``) is read and noted (``notes``), and the
backend turns each note into a warning on the response.

Claims and nuggets may come as strings or as objects holding the text under
one of ``CLAIM_KEYS`` / ``NUGGET_KEYS``; any other shape is a violation, never
an empty text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from vital_core.backends.openai.reply_json import ReplyParseError, extract_json, strip_reasoning
from vital_core.results.labels import (
    ASSIGNMENTS,
    IMPORTANCE_LABELS,
    JUDGED_VERDICTS,
    NUGGET_IMPORTANCE,
    is_approximate,
    normalise_assignment,
    normalise_importance,
    normalise_nugget_importance,
    normalise_verdict,
)

# The keys under which a reply may hold the text of a claim or of a nugget given as an object.
CLAIM_KEYS = ("claim", "text", "subclaim", "statement", "fact")
NUGGET_KEYS = ("nugget", "text", "claim", "fact", "statement")
_AN_ID = re.compile(r"^\[?[A-Za-z]{0,3}\d+\]?$")


def _id_mapping(obj: Any, value_key: str) -> list | None:
    """``{"S1": "vital", "S2": {...}}``, a shape small models use for id-keyed answers, as the entries
    ``[{"id": "S1", value_key: "vital"}, ...]``; None when ``obj`` is not such a mapping."""
    if not isinstance(obj, dict) or not obj or not all(_AN_ID.match(str(k).strip()) for k in obj):
        return None
    return [dict(v, id=k) if isinstance(v, dict) else {"id": k, value_key: v} for k, v in obj.items()]


def _list_under(obj: Any, *keys: str, value_key: str | None = None) -> list:
    """The list held under one of ``keys`` (or ``obj`` itself when it is a list); with ``value_key``,
    an id-keyed mapping there (or as the whole reply) is read as that list too."""
    if isinstance(obj, list):
        return obj
    if isinstance(obj, dict):
        for k in keys:
            if isinstance(obj.get(k), list):
                return obj[k]
        if value_key:
            for candidate in [obj.get(k) for k in keys] + [obj]:
                entries = _id_mapping(candidate, value_key)
                if entries is not None:
                    return entries
        lists = [v for v in obj.values() if isinstance(v, list)]
        if len(lists) == 1:
            return lists[0]
    raise ReplyParseError(f"expected a list under {' / '.join(repr(k) for k in keys)}")


def _clean_id(value: Any) -> str:
    return str(value).strip().strip("[]").strip()


def _each_id_once(entries: Iterable[tuple[str, Any]], ids: list[str], problems: list[str], noun: str,
                  known_as: str, missing_out: list[str] | None = None) -> Iterator[tuple[str, Any]]:
    """The (id, value) entries whose id is one of ``ids``, first occurrence only.

    An unknown or repeated id is added to ``problems`` in the words of the follow-up to
    the model. The ids never given go to ``missing_out`` when given (asked for again on
    their own), else into ``problems`` too.
    """
    known, seen = set(ids), set()
    for cid, value in entries:
        if cid not in known:
            problems.append(f"{cid or '(empty id)'} is not one of the {known_as}")
            continue
        if cid in seen:
            problems.append(f"{cid} appears more than once; give each {noun} exactly once")
            continue
        seen.add(cid)
        yield cid, value
    missing = [i for i in ids if i not in seen]
    if missing and missing_out is not None:
        missing_out.extend(missing)
    elif missing:
        problems.append(f"these {noun}s are missing: {', '.join(missing)}")


def item_text(item: Any, keys: tuple[str, ...]) -> str | None:
    """The text of a claim or nugget given as a string or as an object holding it under one of ``keys``;
    None when it holds none (the caller says so: an unreadable item is never an empty one)."""
    if isinstance(item, dict):
        item = next((item[k] for k in keys if isinstance(item.get(k), str)), None)
    if isinstance(item, (str, int, float)) and not isinstance(item, bool):
        return " ".join(str(item).split())
    return None


def _shape(item: Any) -> str:
    if isinstance(item, dict):
        return f"an object with {', '.join(repr(k) for k in list(item)[:4]) or 'no keys'}"
    return "null" if item is None else type(item).__name__


def approximate_note(cid: str, kind: str, raw: Any, reading: str) -> str | None:
    """The warning for a label read only roughly (``labels.APPROXIMATE_SPELLINGS``), else None."""
    if not is_approximate(kind, raw):
        return None
    return f"{cid}: the model's {kind} {raw!r} was read as {reading!r}"


# ---------------------------------------------------------------- decompose

@dataclass
class ParsedItems:
    """id -> value dict (first valid occurrence wins), the reply's violations, the ids it left out
    and the approximate readings it needed."""
    values: dict[Any, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    missing: list[Any] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def parse_decomposition(obj: Any, numbers: list[int]) -> ParsedItems:
    """Sentence number -> claims; violations (numbers outside ``numbers``, unreadable claims); the numbers
    left out. A sentence given with ``"claims": []`` is the model saying it states no fact."""
    items = _list_under(obj, "sentences")
    allowed = set(numbers)
    out = ParsedItems()
    for item in items:
        if not isinstance(item, dict):
            raise ReplyParseError("each sentence entry must be an object with 'sentence' and 'claims'")
        raw = next((item[k] for k in ("sentence", "index", "id", "number") if k in item), None)
        try:
            number = int(str(raw).strip().strip("[]"))
        except (TypeError, ValueError):
            out.problems.append(f"sentence number {raw!r} is not one of the numbered sentences")
            continue
        if number not in allowed:
            out.problems.append(f"sentence {number} was not one of the numbered sentences "
                                f"({', '.join(map(str, numbers))})")
            continue
        claims = next((item[k] for k in ("claims", "subclaims", "facts") if k in item), None)
        if claims is None:
            continue                      # no claims given for it: left out, asked for again
        if isinstance(claims, (str, dict)):
            claims = [claims]
        if not isinstance(claims, list):
            out.problems.append(f"sentence {number}: 'claims' is {_shape(claims)}; give a list of strings")
            continue
        texts = []
        for k, c in enumerate(claims, start=1):
            text = item_text(c, CLAIM_KEYS)
            if text is None:
                out.problems.append(f"sentence {number}: claim {k} is {_shape(c)}; give each claim as a string")
            elif text and text not in texts:
                texts.append(text)
        if texts or not claims:      # claims that could not be read at all are not "no claims"
            out.values.setdefault(number, [])
            out.values[number] += [t for t in texts if t not in out.values[number]]
    out.missing = [n for n in numbers if n not in out.values]
    return out


# ---------------------------------------------------------------- rank

_LABEL_LINE = re.compile(
    r"^\s*(?:\d+[.)]\s*)?\[?(?P<id>[A-Za-z]*\d+)\]?\s*(?P<text>.*?)[:\-–]\s*[\"'“”]?(?P<label>[A-Za-z][A-Za-z _\-]*?)"
    r"[\"'“”]?\s*$")


@dataclass
class ParsedRanking:
    """Labels by id in the order given, and what was wrong with the reply."""
    labels: dict[str, str] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def ranking_entries(reply: str) -> list[tuple[str, Any]]:
    """(id, raw label) pairs in reply order, from JSON or from ``[S1] text: "label"`` lines."""
    try:
        obj = extract_json(reply)
        items = _list_under(obj, "ranking", "claims", "labels", value_key="label")
        entries = []
        for item in items:
            if isinstance(item, dict):
                entries.append((_clean_id(item.get("id", "")),
                                    next((item[k] for k in ("label", "importance", "tier") if k in item), None)))
            elif isinstance(item, (list, tuple)) and len(item) == 2:
                entries.append((_clean_id(item[0]), item[1]))
        if entries:
            return entries
    except ReplyParseError:
        pass
    entries = []
    for line in strip_reasoning(reply or "").splitlines():
        m = _LABEL_LINE.match(line)
        if m:
            entries.append((m.group("id"), m.group("label")))
    if not entries:
        raise ReplyParseError("no ranking found in the reply (neither JSON nor '[id] claim: \"label\"' lines)")
    return entries


def parse_ranking(reply: str, ids: list[str]) -> ParsedRanking:
    """Validate: every id exactly once, each with vital / okay / less-important."""
    out = ParsedRanking()
    for cid, raw_label in _each_id_once(ranking_entries(reply), ids, out.problems, "claim", "claim ids"):
        label = normalise_importance(raw_label, lenient=True)
        if label is None:
            out.problems.append(f"{cid} has the label {raw_label!r}; use only "
                                f"{', '.join(repr(x) for x in IMPORTANCE_LABELS)}")
            continue
        out.labels[cid] = label
        out.order.append(cid)
        note = approximate_note(cid, "importance", raw_label, label)
        if note:
            out.notes.append(note)
    return out


# ---------------------------------------------------------------- verify / assign / label

def _parse_labelled_items(obj: Any, ids: list[str], list_keys: tuple[str, ...], value_keys: tuple[str, ...],
                          kind: str, normalise, allowed: tuple[str, ...], extra=None,
                          ask_missing_apart: bool = False) -> ParsedItems:
    """``value_keys[0]`` is the name the prompt asks for; the others are read too. With
    ``ask_missing_apart`` the ids left out go to ``missing`` rather than ``problems``."""
    value_key = value_keys[0]

    def entries():
        for item in _list_under(obj, *list_keys, value_key=value_key):
            if not isinstance(item, dict):
                raise ReplyParseError(f"each entry must be an object with 'id' and '{value_key}'")
            yield _clean_id(item.get("id", "")), item

    out = ParsedItems()
    for cid, item in _each_id_once(entries(), ids, out.problems, "id", "given ids",
                                   out.missing if ask_missing_apart else None):
        raw = next((item[k] for k in value_keys if k in item), None)
        value = normalise(raw)
        if value is None:
            out.problems.append(f"{cid} has {value_key} {raw!r}; use only "
                                f"{', '.join(repr(x) for x in allowed)}")
            continue
        out.values[cid] = extra(value, item) if extra else value
        note = approximate_note(cid, kind, raw, value)
        if note:
            out.notes.append(note)
    return out


def _lenient(normalise):
    """A model reply's label: the canonical label, or None for anything outside the set."""
    return lambda value: normalise(value, lenient=True)


def parse_verdicts(obj: Any, ids: list[str]) -> ParsedItems:
    """id -> {"verdict", "reason", "evidence"}; ids left out are in ``missing`` (asked for apart)."""
    def extra(verdict, item):
        return {"verdict": verdict, "reason": " ".join(str(item.get("reason") or "").split()),
                "evidence": str(item.get("evidence") or item.get("quote") or "").strip()}
    return _parse_labelled_items(obj, ids, ("verdicts", "claims", "results"), ("verdict", "label", "judgment"),
                                 "verdict", _lenient(normalise_verdict), JUDGED_VERDICTS, extra,
                                 ask_missing_apart=True)


def parse_assignments(obj: Any, ids: list[str]) -> ParsedItems:
    return _parse_labelled_items(obj, ids, ("assignments", "nuggets", "results"),
                                 ("assignment", "support", "label"), "nugget assignment",
                                 _lenient(normalise_assignment), ASSIGNMENTS)


def parse_nugget_labels(obj: Any, ids: list[str]) -> ParsedItems:
    return _parse_labelled_items(obj, ids, ("labels", "nuggets"), ("importance", "label"), "nugget importance",
                                 _lenient(normalise_nugget_importance), NUGGET_IMPORTANCE)


def parse_nugget_texts(obj: Any) -> list[str]:
    """Nugget texts in order, de-duplicated (case-insensitive). ``{"nuggets": []}`` is the model saying
    the documents hold none; a nugget in a shape with no text raises ``ReplyParseError``."""
    out, seen = [], set()
    for k, item in enumerate(_list_under(obj, "nuggets"), start=1):
        text = item_text(item, NUGGET_KEYS)
        if text is None:
            raise ReplyParseError(f"nugget {k} is {_shape(item)}; expected a string or an object with 'text'")
        if text and text.lower() not in seen:
            seen.add(text.lower())
            out.append(text)
    return out


def parse_modified_response(obj: Any) -> str:
    if isinstance(obj, dict):
        for key in ("modified_response", "modified_answer", "response", "answer", "text"):
            if isinstance(obj.get(key), str):
                return obj[key].strip()
    raise ReplyParseError("expected an object with 'modified_response'")
