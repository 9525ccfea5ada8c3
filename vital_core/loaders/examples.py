"""A release record as label codes (the hot path) or as the data model; the documents of
original.jsonl; and the project's own results format."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from vital_core.files.errors import InputError, InvalidRecordError, where
from vital_core.loaders.codes import record_codes
from vital_core.loaders.records import LoadLog, ReleaseRecord, parse_line, read_line_at, read_lines
from vital_core.metrics.codes import ASSIGNMENTS_BY_CODE, TIERS_BY_CODE, UNASSIGNED_CODE, VERDICTS_BY_CODE
from vital_core.results.model import (
    EVIDENCE_UNKNOWN,
    RESULTS_FORMAT,
    Document,
    ExampleResult,
    InvalidDocumentError,
    InvalidLabelError,
    Nugget,
    ResponseResult,
    Subclaim,
    strip_generation_prefix,
)

# --------------------------------------------------------------------------- record -> model


def merge_condition(example: ExampleResult | None, example_id: str, rec, source, response: ResponseResult,
                    nuggets) -> ExampleResult:
    """Add one condition's record to its example, creating the example on first sight."""
    if example is None:
        example = ExampleResult(id=example_id, query=rec.query, dataset=source.dataset, subset=source.subset,
                                query_type=source.query_type, place=rec.place(),
                                documents=Document.list_from(rec.get("documents"), where=rec.place()))
    elif not example.documents:
        example.documents = Document.list_from(rec.get("documents"), where=rec.place())
    if nuggets is not None and example.nuggets is None:
        example.nuggets = nuggets
    example.variants[source.condition] = response
    return example


def response_from_record(rec: ReleaseRecord, condition: str) -> tuple[ResponseResult, list[Nugget] | None]:
    """The full ``ResponseResult`` (and the example's nuggets) of one record."""
    codes = record_codes(rec, keep_items=True)
    subclaims = [Subclaim(id=str(d.get("id") or f"S{k + 1}"), text=str(d.get("text") or ""),
                          sentence_index=s_index, sentence=sentence, importance=TIERS_BY_CODE[codes.tiers[k]],
                          verdict=VERDICTS_BY_CODE[codes.verdicts[k]], reason=str(d.get("reason") or ""),
                          evidence=str(d.get("evidence") or ""))
                 for k, (d, (s_index, sentence)) in enumerate(zip(codes.items, codes.sentences))]
    order: list[str] = []
    if codes.ranks is not None:
        for k, rank in enumerate(codes.ranks):
            subclaims[k].rank = rank
        order = [s.id for s in sorted(subclaims, key=lambda s: s.rank)]
    nuggets = None
    assignment = None
    if codes.nugget_tiers is not None:
        nuggets = [Nugget(id=str(n.get("id", f"N{i}")) if isinstance(n, dict) else f"N{i}",
                          text=str(n.get("text") or "") if isinstance(n, dict) else str(n),
                          importance=TIERS_BY_CODE[t])
                   for i, (n, t) in enumerate(zip(codes.nuggets, codes.nugget_tiers))]
        if codes.assignment is not None:
            assignment = {n.id: ASSIGNMENTS_BY_CODE[a] for n, a in zip(nuggets, codes.assignment)
                          if a != UNASSIGNED_CODE}
    response = rec.get("response")
    text = (response.get("text") if isinstance(response, dict) else response) or ""
    n2s = rec.get("N2S")
    result = ResponseResult(variant=condition, text=text, subclaims=subclaims, order=order,
                            nugget_assignment=assignment, evidence_mode=EVIDENCE_UNKNOWN,
                            response_id=codes.response_id, n2s=n2s if isinstance(n2s, dict) else None)
    return result, nuggets


# --------------------------------------------------------------------------- original.jsonl

def normalised_query(query: str) -> str:
    text = strip_generation_prefix(query or "")
    return " ".join(text.casefold().split()).rstrip("?.! ")


@dataclass
class OriginalRecord:
    query: str
    documents: list[Document]
    reference: str | None


def read_original(path: Path, log: LoadLog) -> list[OriginalRecord | None]:
    """original.jsonl: the query, its documents and (when given) the gold response."""
    out: list[OriginalRecord | None] = []
    fl = read_lines(path)
    for i, line in enumerate(fl.lines):
        try:
            rec = parse_line(line, fl.where(i), fl.path, fl.lineno(i))
        except InputError as exc:
            log.bad(exc)
            out.append(None)
            continue
        gold = rec.get("gold_response")
        if isinstance(gold, list):
            gold = "\n".join(str(g) for g in gold)
        try:
            documents = Document.list_from(rec.get("documents"), where=fl.where(i))
        except InvalidDocumentError as exc:
            log.bad(InputError(str(exc), fl.path, fl.lineno(i)))
            out.append(None)
            continue
        out.append(OriginalRecord(str(rec.get("query") or ""), documents,
                                  None if gold is None else str(gold)))
    return out


def match_original(originals: list[OriginalRecord | None], queries: dict[int, str]) -> dict[int, OriginalRecord]:
    """Pair examples with original.jsonl records: by position when the queries agree, else by query.

    original.jsonl may hold the bare query while the condition files hold the
    generation prompt, so queries are compared without the prompt prefix.
    """
    def same(a: str, b: str) -> bool:
        na, nb = normalised_query(a), normalised_query(b)
        return bool(na) and bool(nb) and (na == nb or na in nb or nb in na)

    matched: dict[int, OriginalRecord] = {}
    by_query: dict[str, OriginalRecord] | None = None
    for i, query in queries.items():
        orig = originals[i] if i < len(originals) else None
        if orig is not None and same(orig.query, query):
            matched[i] = orig
            continue
        if by_query is None:
            by_query = {normalised_query(o.query): o for o in originals if o is not None}
        found = by_query.get(normalised_query(query))
        if found is not None:
            matched[i] = found
    return matched


# --------------------------------------------------------------------------- own results format

def iter_results_file(path: Path, log: LoadLog, seen: dict[str, str] | None = None,
                      lines: dict[str, tuple[str, int, int]] | None = None) -> Iterator[ExampleResult]:
    """The examples of a results file; an id used twice (in this file, or in ``seen``: id -> "file line N"
    of the files read before) is bad input naming both lines. ``lines`` collects id -> (path, byte
    offset, line number), to read an example again later (``read_results_line``)."""
    seen = {} if seen is None else seen
    fl = read_lines(path)
    for i, line in enumerate(fl.lines):
        place = fl.where(i)
        try:
            example = parse_results_line(line, fl.path, fl.lineno(i))
            if not example.id:
                example.id = f"{path.stem}/{i}"
            if example.id in seen:
                raise InputError(f"{place}: id {example.id!r} already used at {seen[example.id]}; "
                                 "ids must be unique", fl.path, fl.lineno(i))
        except InputError as exc:
            log.bad(exc)
            continue
        seen[example.id] = place
        if lines is not None:
            lines[example.id] = (str(path), fl.offsets[i], fl.lineno(i))
        yield example


def read_results_line(path: str, offset: int, lineno: int) -> ExampleResult:
    """The example on the results-file line at ``offset`` (remembered by ``iter_results_file``)."""
    return parse_results_line(read_line_at(Path(path), offset), Path(path), lineno)


def parse_results_line(line: bytes, path: Path, lineno: int) -> ExampleResult:
    """One line of a results file as an ``ExampleResult``; anything wrong is an ``InputError`` naming it."""
    place = where(path, lineno)
    try:
        rec = parse_line(line, place, path, lineno)
        fmt = rec.get("format")
        if fmt is not None and fmt != RESULTS_FORMAT:
            raise InputError(f"{place}: unsupported results format {fmt!r} (this version reads "
                             f"{RESULTS_FORMAT!r})", path, lineno)
        if "variants" not in rec:   # every line of a results file is a results record, not only the first
            raise InputError(f"{place}: a results record needs a \"variants\" object; this line has "
                             f"{', '.join(map(repr, list(rec)[:6])) or 'no fields'}", path, lineno)
        return ExampleResult.from_dict(rec, where=place)
    except InputError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        message = str(exc) if isinstance(exc, (InvalidLabelError, InvalidDocumentError, InvalidRecordError)) else \
            f"{place}: not a valid results record ({type(exc).__name__}: {exc})"
        raise InputError(message, path, lineno) from None
