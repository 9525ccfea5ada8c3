"""A release record as small integer label codes: the loader's hot path, feeding the vectorised
metrics without building model objects; one ConditionScan per condition file set."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from vital_core.files.errors import InputError, InvalidRecordError, check_unique_ids, json_type, where
from vital_core.loaders.discover import FACTSCORE, NEW_METRIC, NUGGETS, RECORDS, ConditionSource
from vital_core.loaders.records import LoadLog, ReleaseRecord, iter_condition, open_condition, released_score
from vital_core.metrics.codes import ASSIGNMENT_CODE, TIER_CODE, UNASSIGNED_CODE, VERDICT_CODE
from vital_core.metrics.vectorised import MetricColumns
from vital_core.results.model import (
    NOT_ENOUGH_EVIDENCE,
    NOT_JUDGED,
    NUGGET_IMPORTANCE,
    SUPPORTED,
    UNLABELLED,
    InvalidLabelError,
    normalise_assignment,
    normalise_importance,
    normalise_nugget_importance,
    normalise_verdict,
)

# --------------------------------------------------------------------------- record -> codes / model

# raw value -> code; filled as values are met (unknown values go through the
# model's normalise_* functions once, which raise for a value outside the set)
_TIER_MEMO: dict[Any, int] = {v: c for v, c in TIER_CODE.items()}
_TIER_MEMO[None] = TIER_CODE[UNLABELLED]
_VERDICT_MEMO: dict[Any, int] = {True: VERDICT_CODE[SUPPORTED], False: VERDICT_CODE[NOT_ENOUGH_EVIDENCE],
                                 None: VERDICT_CODE[NOT_JUDGED]}
_NUGGET_TIER_MEMO: dict[Any, int] = {v: TIER_CODE[v] for v in NUGGET_IMPORTANCE}
_ASSIGN_MEMO: dict[Any, int] = {v: c for v, c in ASSIGNMENT_CODE.items() if v is not None}


def _code(memo: dict[Any, int], codes: dict, normalise, value: Any, place: Callable[[], str]) -> int:
    """The code of a raw value not in ``memo`` yet: ``normalise`` it (an unknown value raises, naming
    ``place()``), then remember a string so that the next occurrence is one dict lookup."""
    code = codes[normalise(value, where=place())]
    if isinstance(value, str):
        memo[value] = code
    return code


def _tier_code(value: Any, place: Callable[[], str]) -> int:
    return _code(_TIER_MEMO, TIER_CODE, normalise_importance, value, place)


def _verdict_code(value: Any, place: Callable[[], str]) -> int:
    return _code(_VERDICT_MEMO, VERDICT_CODE, normalise_verdict, value, place)


def _nugget_tier_code(value: Any, place: Callable[[], str]) -> int:
    return _code(_NUGGET_TIER_MEMO, TIER_CODE, normalise_nugget_importance, value, place)


def _assign_code(value: Any, place: Callable[[], str]) -> int:
    return _code(_ASSIGN_MEMO, ASSIGNMENT_CODE, normalise_assignment, value, place)


class RecordCodes:
    """A record's labels as integer codes (see ``metrics.TIER_CODE`` etc.) plus its subclaim dicts."""
    __slots__ = ("items", "sentences", "tiers", "verdicts", "ranks", "nuggets", "nugget_tiers", "assignment",
                 "response_id")


def _claims_fast(decomposition: Any) -> tuple[list[int], list[int], list[Any]] | None:
    """The common case in a few list comprehensions: well-formed sentences with known labels.

    Returns None when anything is unusual; the careful path then handles it.
    """
    tmemo, vmemo = _TIER_MEMO, _VERDICT_MEMO
    try:
        claims = [d for sent in decomposition for d in sent["decomp"]]
        return ([tmemo[d.get("importance")] for d in claims], [vmemo[d["judgment"]] for d in claims],
                [d.get("id") for d in claims])
    except (KeyError, TypeError, AttributeError):
        return None


def _claims_careful(rec: ReleaseRecord, place: Callable[[], str], keep_items: bool):
    tmemo, vmemo = _TIER_MEMO, _VERDICT_MEMO
    tiers: list[int] = []
    verdicts: list[int] = []
    ids: list[Any] = []
    items: list[dict] = []
    sentences: list[tuple[int, str]] = []
    for s_index, sent in enumerate(_typed_list(rec.get("decomposition"), "decomposition", place)):
        if isinstance(sent, dict):
            decomp = _typed_list(sent.get("decomp"), f"decomposition[{s_index}].decomp", place)
        else:   # a bare list of claims
            decomp = sent if isinstance(sent, list) else [sent]
        for d in decomp:
            if not isinstance(d, (dict, str)):
                raise InvalidRecordError(f"{place()}: a claim of decomposition[{s_index}] must be an object "
                                         f"or a string, got {json_type(d)}")
            if not isinstance(d, dict):
                d = {"text": d}
            imp = d.get("importance")
            try:
                tiers.append(tmemo[imp])
            except (KeyError, TypeError):
                tiers.append(_tier_code(imp, place))
            j = d["judgment"] if "judgment" in d else d.get("verdict")
            try:
                verdicts.append(vmemo[j])
            except (KeyError, TypeError):
                verdicts.append(_verdict_code(j, place))
            ids.append(d.get("id"))
            if keep_items:
                items.append(d)
                sentences.append((s_index, str(sent.get("sentence") or "") if isinstance(sent, dict) else ""))
    return tiers, verdicts, ids, items, sentences


def _typed_list(value: Any, name: str, place: Callable[[], str]) -> list:
    """A list field of a release record (absent or null: empty); a string or object is bad input, never
    read character by character or key by key."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidRecordError(f"{place()}: field {name!r} must be a list, got {json_type(value)}")
    return value


def _ranks(ids: list[Any], ranked: list) -> list[int]:
    """1-based rank of each subclaim in the importance order; ids missing from it follow, in response order."""
    n = len(ids)
    try:   # the common case: string ids, the order a permutation of them
        position = dict(zip(ids, range(n)))
        ks = [position[x] for x in ranked]
        if len(ks) == n == len(position) == len(set(ks)) and None not in position:
            ranks = [0] * n
            for r, k in enumerate(ks, start=1):
                ranks[k] = r
            return ranks
    except (KeyError, TypeError):
        pass
    sids = [x if isinstance(x, str) else (str(x) if x is not None else f"S{k + 1}") for k, x in enumerate(ids)]
    position = {sid: k for k, sid in enumerate(sids)}
    ranks = [0] * n
    r = 0
    for x in ranked:
        k = position.get(x if isinstance(x, str) else str(x))
        if k is not None and not ranks[k]:
            r += 1
            ranks[k] = r
    if r < n:
        for k in range(n):
            if not ranks[k]:
                r += 1
                ranks[k] = r
    return ranks


def _assign_lookup(value: Any, place: Callable[[], str]) -> int:
    try:
        return _ASSIGN_MEMO[value]
    except (KeyError, TypeError):
        return _assign_code(value, place)


def _raw_assignment(rec: ReleaseRecord) -> Any:
    for r in rec._ordered:
        resp = r.get("response")
        if isinstance(resp, dict) and resp.get("nugget-assignment") is not None:
            return resp["nugget-assignment"]
        if r.get("nugget-assignment") is not None:
            return r["nugget-assignment"]
    return None


def record_codes(rec: ReleaseRecord, keep_items: bool = False) -> RecordCodes:
    """Extract the metrics' input from a raw record (the hot loop of loading the release).

    Raises InvalidLabelError (naming the file and line) for an unknown label.
    """
    place = lambda: rec.place(NEW_METRIC, RECORDS, FACTSCORE)   # noqa: E731 - built only on error
    fast = None if keep_items else _claims_fast(rec.get("decomposition") or ())
    if fast is not None:
        tiers, verdicts, ids = fast
        items, sentences = [], []
    else:
        tiers, verdicts, ids, items, sentences = _claims_careful(rec, place, keep_items)
    if len(set(ids)) != len(ids):      # two claims with one id: named, never counted silently
        check_unique_ids(ids, "decomposition (claims in response order)", place())
    out = RecordCodes()
    out.items, out.sentences, out.tiers, out.verdicts = items, sentences, tiers, verdicts
    ranked = rec.get("subclaim-importance-order")
    out.ranks = _ranks(ids, ranked) if ranked and ids else None
    nuggets = rec.get("nuggets")
    out.nuggets = out.nugget_tiers = out.assignment = None
    if nuggets is not None:
        nplace = lambda: rec.place(NUGGETS, RECORDS, NEW_METRIC)   # noqa: E731
        nuggets = _typed_list(nuggets, "nuggets", nplace)
        nmemo = _NUGGET_TIER_MEMO
        try:
            ntiers = [nmemo[n["importance"]] for n in nuggets]
        except (KeyError, TypeError):
            ntiers = []
            for n in nuggets:
                imp = n.get("importance") if isinstance(n, dict) else None
                try:
                    ntiers.append(nmemo[imp])
                except (KeyError, TypeError):
                    ntiers.append(_nugget_tier_code(imp, nplace))
        out.nuggets, out.nugget_tiers = nuggets, ntiers
        raw = _raw_assignment(rec)
        if raw is not None:
            if isinstance(raw, dict):   # nugget id -> value
                nids = [str(n.get("id", f"N{i}")) if isinstance(n, dict) else f"N{i}" for i, n in enumerate(nuggets)]
                raw = [raw.get(i) for i in nids]
                out.assignment = [UNASSIGNED_CODE if a is None else _assign_lookup(a, nplace) for a in raw]
            else:
                raw = _typed_list(raw, "nugget-assignment", nplace)
                if len(raw) != len(nuggets):
                    raise InvalidLabelError(f"{nplace()}: {len(nuggets)} nuggets but {len(raw)} "
                                            f"nugget-assignment values")
                try:
                    out.assignment = [_ASSIGN_MEMO[a] for a in raw]
                except (KeyError, TypeError):
                    out.assignment = [_assign_lookup(a, nplace) for a in raw]
    response = _check_response_and_documents(rec, place)
    out.response_id = str(response.get("id", "")) if isinstance(response, dict) else ""
    return out


def _check_response_and_documents(rec: ReleaseRecord, place: Callable[[], str]) -> Any:
    """The record's ``response`` once it and ``documents`` have the types the loaders read."""
    response = rec.get("response")
    text = response.get("text") if isinstance(response, dict) else response
    if text is not None and not isinstance(text, str):
        raise InvalidRecordError(f"{place()}: field 'response' must be a string or an object with a \"text\" "
                                 f"string, got {json_type(text)}")
    documents = rec.get("documents")
    if documents is not None and not isinstance(documents, list):
        raise InvalidRecordError(f"{place()}: field \"documents\" must be a list, got {json_type(documents)}")
    return response


@dataclass
class ConditionScan:
    """What the frame needs from one condition: per-record identity, label codes, line offsets."""
    index: list[int]
    query: list[str]
    response_id: list[str]
    released_score: list[float | None]     # factscore-out's ``score`` (None: absent or null)
    batch: MetricColumns
    offsets: dict[str, list[int]]
    primary: Path
    linenos: list[int] | None
    skipped: int = 0
    problems: list[str] = field(default_factory=list)

    def place(self, i: int) -> str:
        return where(self.primary, i + 1 if self.linenos is None else self.linenos[i])


def scan_condition(source: ConditionSource, skip_bad: bool) -> ConditionScan:
    """Read one condition for the frame: check its files, extract every record's label codes.

    A top-level function so that ``dataset`` can run it in worker processes.
    """
    log = LoadLog(skip_bad=skip_bad)
    files = open_condition(source)
    batch = MetricColumns()
    add_codes = batch.add_codes
    index: list[int] = []
    query: list[str] = []
    response_id: list[str] = []
    scores: list[float | None] = []
    for rec in iter_condition(source, log, files=files):
        try:
            codes = record_codes(rec)
        except (InvalidLabelError, InvalidRecordError) as exc:
            log.bad(InputError(str(exc)))
            continue
        add_codes(codes.tiers, codes.verdicts, codes.ranks, codes.nugget_tiers, codes.assignment)
        index.append(rec.index)
        query.append(rec.query)
        response_id.append(codes.response_id)
        scores.append(released_score(rec))
    primary = files[source.primary()]
    return ConditionScan(index, query, response_id, scores, batch.freeze(),
                         {kind: fl.offsets for kind, fl in files.items()}, primary.path, primary.linenos,
                         log.skipped, log.problems)


