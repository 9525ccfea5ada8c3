"""Relabel the importance of records that already have a decomposition.

The paper's step 2 on its own: read official-shape records (``query``,
``decomposition: [{sentence, decomp: [{id, text, ...}]}]``), ask a backend to
rank each record's subclaims, and write the same records back with each
subclaim's ``importance`` and the record's ``subclaim-importance-order``
replaced. Every other key and value is kept as it was, one output line per
input line, so the result can be compared with ``agreement`` against people
or another labeller. Each output record also names who labelled it
(``labelled_by``: this project's format tag, the backend and its model): that
tag is how a later run recognises the file as its own output and may replace it
- release and human label files have the same shape but never the tag.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from vital_core.backends import response_notes
from vital_core.backends.base import Backend, Ranking
from vital_core.files.errors import InputError, where
from vital_core.files.outputs import OutputKind
from vital_core.files.text_input import check_not_binary, without_bom
from vital_core.results.model import UNLABELLED, Subclaim
from vital_core.scoring import deadline

ORDER_KEY = "subclaim-importance-order"
MARK_KEY = "labelled_by"                      # {"format": LABELS_FORMAT, "backend": ..., "model": ...}
LABELS_FORMAT = "vital-explorer-labels/1"
# Recognised line by line (check_replaceable), so the refusal names the line
LABEL_OUTPUT = OutputKind("a label output", "--out", None)


@dataclass
class RelabelResult:
    lines_in: int = 0
    records: int = 0
    subclaims: int = 0
    failed: list[str] = field(default_factory=list)    # "file line N: why" for records left unlabelled
    warnings: list[str] = field(default_factory=list)


def record_subclaims(record: dict, place: str) -> list[Subclaim]:
    """The record's subclaims in response order, with their sentence index; validates the shape."""
    if not isinstance(record, dict):
        raise InputError(f"{place}: expected a JSON object, got {type(record).__name__}")
    query = record.get("query")
    if not isinstance(query, str) or not query.strip():
        raise InputError(f"{place}: field 'query' is missing or not a non-empty string")
    decomposition = record.get("decomposition")
    if not isinstance(decomposition, list):
        raise InputError(f"{place}: field 'decomposition' is missing or not a list "
                         "(the label command needs records that already have a decomposition)")
    out: list[Subclaim] = []
    seen: set[str] = set()
    for s_index, sentence in enumerate(decomposition):
        if not isinstance(sentence, dict) or not isinstance(sentence.get("decomp"), list):
            raise InputError(f"{place}: decomposition[{s_index}] has no 'decomp' list")
        for c_index, claim in enumerate(sentence["decomp"]):
            field_name = f"decomposition[{s_index}].decomp[{c_index}]"
            if not isinstance(claim, dict) or "id" not in claim or not isinstance(claim.get("text"), str):
                raise InputError(f"{place}: {field_name} needs an 'id' and a string 'text'")
            sid = str(claim["id"])
            if sid in seen:
                raise InputError(f"{place}: {field_name}: duplicate subclaim id {sid!r}")
            seen.add(sid)
            out.append(Subclaim(id=sid, text=claim["text"], sentence_index=s_index,
                                sentence=str(sentence.get("sentence") or "")))
    return out


def label_mark(info) -> dict:
    """What ``labelled_by`` holds for a backend's ``BackendInfo``."""
    return {"format": LABELS_FORMAT, "backend": info.name, "model": info.model}


def apply_labels(record: dict, ranking: Ranking | None, mark: dict | None = None) -> dict:
    """A copy of ``record`` with importance and order from ``ranking`` (None: all unlabelled), and
    ``labelled_by`` = ``mark``.

    An unlabelled subclaim gets ``importance: null`` (the release's spelling
    for "no label"), and the order lists only the labelled ids.
    """
    labels = ranking.labels if ranking else {}
    out = {}
    for key, value in record.items():
        if key == "decomposition":
            value = [{**sentence, "decomp": [
                {**claim, "importance": None if labels.get(str(claim["id"]), UNLABELLED) == UNLABELLED
                 else labels[str(claim["id"])]} for claim in sentence["decomp"]]}
                for sentence in value]
        out[key] = value
    order = [sid for sid in (ranking.order if ranking else [])
             if labels.get(sid, UNLABELLED) != UNLABELLED]
    out[ORDER_KEY] = order
    if mark is not None:
        out[MARK_KEY] = mark
    return out


def read_records(path: Path) -> list[tuple[int, str, dict | None]]:
    """(line number, raw line, parsed record or None for a blank line); bad lines raise InputError."""
    rows = []
    check_not_binary(path, "give a JSON Lines file of records with a decomposition")
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})", path) from None
    with handle:
        for lineno, data in enumerate(handle, start=1):
            try:
                raw = without_bom(data, lineno == 1).decode("utf-8")
                record = json.loads(raw) if raw.strip() else None
            except UnicodeDecodeError:
                raise InputError(f"{where(path, lineno)}: not UTF-8 text", path, lineno) from None
            except json.JSONDecodeError as exc:
                raise InputError(f"{where(path, lineno)}: not valid JSON ({exc.msg} at column {exc.colno})",
                                 path, lineno) from None
            except RecursionError:
                raise InputError(f"{where(path, lineno)}: the JSON is nested too deeply", path, lineno) from None
            if record is not None:
                record_subclaims(record, where(path, lineno))   # validate before any model call
            rows.append((lineno, raw, record))
    return rows


def check_replaceable(out: Path) -> None:
    """``label`` replaces its output: refuse (unchanged) a file that is not one it wrote - every line a
    record tagged ``labelled_by`` with this project's format, or blank. A release or human label file has
    the shape (``decomposition``, ``subclaim-importance-order``) but not the tag."""
    if not out.is_file() or out.stat().st_size == 0:
        return
    records = 0
    with out.open("rb") as handle:
        for lineno, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            records += 1
            try:
                record = json.loads(raw)
            except (ValueError, RecursionError):
                record = None
            mark = record.get(MARK_KEY) if isinstance(record, dict) else None
            if not isinstance(mark, dict) or mark.get("format") != LABELS_FORMAT:
                raise InputError(f"{where(out, lineno)}: not a record this command wrote (no {MARK_KEY!r} "
                                 f"tag {LABELS_FORMAT!r}), so --out is not a label output; the file was left "
                                 "unchanged; choose another --out", out, lineno)
    if not records:
        raise InputError(f"{out}: holds only blank lines, so --out is not a label output; the file was left "
                         "unchanged; choose another --out", out)


async def label_records(backend: Backend, rows: list[tuple[int, str, dict | None]], path: Path,
                        on_record: Callable[[], None] | None = None,
                        timeout: float | None = None) -> tuple[list[str], RelabelResult]:
    """Output lines (without newline) for ``rows`` and a summary; rankings run concurrently, each
    within ``timeout`` seconds (a record past it is left unlabelled and listed)."""
    result = RelabelResult(lines_in=len(rows))
    mark = label_mark(backend.info)

    async def one(lineno: int, record: dict) -> Ranking | None:
        subclaims = record_subclaims(record, where(path, lineno))
        result.subclaims += len(subclaims)
        if not subclaims:
            return Ranking(labels={}, order=[])
        try:
            # the offline backend's threads stop at the deadline too
            with response_notes.collecting() as notes, deadline.within(timeout):
                ranking = await asyncio.wait_for(backend.rank(record["query"], subclaims), timeout)
        except asyncio.TimeoutError:
            result.failed.append(f"{where(path, lineno)}: ranking took longer than {timeout:g} s "
                                 "(--record-timeout) and was stopped")
            return None
        except Exception as exc:  # one record's failure is reported, the others go on
            result.failed.append(f"{where(path, lineno)}: ranking failed: {type(exc).__name__}: {exc}")
            return None
        finally:
            if on_record:
                on_record()
        for w in ranking.warnings + notes:
            result.warnings.append(f"{where(path, lineno)}: {w}")
        return ranking

    jobs = [one(lineno, record) for lineno, _, record in rows if record is not None]
    rankings = iter(await asyncio.gather(*jobs))
    lines = []
    for _, raw, record in rows:
        if record is None:
            lines.append(raw.rstrip("\r\n"))
            continue
        result.records += 1
        lines.append(json.dumps(apply_labels(record, next(rankings), mark), ensure_ascii=False))
    return lines, result
