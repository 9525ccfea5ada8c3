"""What the ``score`` and ``perturb`` commands read: queries with responses to score.

The project's input JSON Lines, one query per line::

    {"id": "q1", "query": "...",
     "responses": {"normal": "...", "missing": "...", "wrong": "..."},
     "documents": ["text", {"id": "D2", "title": "...", "text": "..."}],
     "reference": "a reference answer or null"}

Only ``query`` and ``responses`` are required. ``id`` defaults to the line
number (ids must be unique: resuming a batch relies on them); a response may be
null or absent (``perturb`` fills in ``missing`` and ``wrong``); any variant
name is allowed. Optional ``dataset``, ``subset`` and ``query_type`` are kept.
Unknown fields are kept and written back by ``perturb``.

Anything else ``vital_core.loaders.load`` reads - the official release layout (any
subtree), a folder of ``{normal,missing,wrong}.jsonl`` files, or a results
file - is accepted too: its responses are re-scored from their text.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vital_core.files.errors import InputError, where
from vital_core.files.text_input import check_not_binary, without_bom
from vital_core.results.model import Document, ExampleResult, InvalidDocumentError

KNOWN_FIELDS = ("id", "query", "responses", "documents", "reference", "dataset", "subset", "query_type")


@dataclass
class InputRecord:
    id: str
    query: str
    responses: dict[str, str | None]
    documents: list[Document] = field(default_factory=list)
    reference: str | None = None
    dataset: str = ""
    subset: str = ""
    query_type: str | None = None
    place: str = ""                                     # "file line N", for messages
    extra: dict[str, Any] = field(default_factory=dict)  # unknown fields, kept as they were

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "query": self.query, "responses": dict(self.responses),
                             "documents": [doc.to_dict() for doc in self.documents],
                             "reference": self.reference}
        for key in ("dataset", "subset", "query_type"):
            if getattr(self, key):
                d[key] = getattr(self, key)
        d.update(self.extra)
        return d

    def texts(self) -> dict[str, str]:
        """The responses that have text, in their order."""
        return {k: v for k, v in self.responses.items() if isinstance(v, str)}


def parse_input_record(obj: Any, path: Path, line: int) -> InputRecord:
    place = where(path, line)
    if not isinstance(obj, dict):
        raise InputError(f"{place}: expected a JSON object, got {type(obj).__name__}", path, line)
    query = obj.get("query")
    if not isinstance(query, str) or not query.strip():
        raise InputError(f"{place}: field \"query\" must be a non-empty string", path, line)
    responses = obj.get("responses")
    if not isinstance(responses, dict):
        typo = next((k for k in ("response", "Responses", "answers", "answer") if k in obj), None)
        raise InputError(f"{place}: field \"responses\" must be an object such as "
                         "{\"normal\": \"...\", \"missing\": \"...\", \"wrong\": \"...\"}"
                         + (f" (found {typo!r}: did you mean \"responses\"?)" if typo else ""), path, line)
    for name, text in responses.items():
        if text is not None and not isinstance(text, str):
            raise InputError(f"{place}: responses.{name} must be a string or null, got {type(text).__name__}",
                             path, line)
    reference = obj.get("reference")
    if reference is not None and not isinstance(reference, str):
        raise InputError(f"{place}: field \"reference\" must be a string or null", path, line)
    raw_id = obj.get("id", line)
    if not isinstance(raw_id, (str, int)) or isinstance(raw_id, bool) or str(raw_id).strip() == "":
        raise InputError(f"{place}: field \"id\" must be a non-empty string or a number", path, line)
    try:
        documents = Document.list_from(obj.get("documents"), where=place)
    except InvalidDocumentError as exc:
        raise InputError(str(exc), path, line) from None
    query_type = obj.get("query_type")
    return InputRecord(id=str(raw_id), query=query, responses={str(k): v for k, v in responses.items()},
                       documents=documents, reference=reference,
                       dataset=str(obj.get("dataset") or ""), subset=str(obj.get("subset") or ""),
                       query_type=None if query_type is None else str(query_type), place=place,
                       extra={k: v for k, v in obj.items() if k not in KNOWN_FIELDS})


def _shape(obj: Any) -> str:
    """What a parsed line looks like: "input" (``responses``), "results" (``variants``) or "other"."""
    if not isinstance(obj, dict):
        return "other"
    if "variants" in obj or "format" in obj:
        return "results"
    return "input" if "responses" in obj else "other"


def is_input_jsonl(path: str | Path) -> bool:
    """True for a file in the project's input shape: any line has ``responses`` (and none ``variants``).

    Decided from every line, not the first alone: the input reader then checks each line
    and refuses, naming it, one that lacks ``responses`` (a typo on line 1 must not turn
    the file into another format whose records have no text).
    """
    path = Path(path)
    if not path.is_file():
        return False
    shapes = set()
    with open(path, "rb") as fh:
        for raw in fh:
            if raw.strip():
                try:
                    shapes.add(_shape(json.loads(raw)))
                except (ValueError, RecursionError):
                    continue   # the reader that takes the file names the bad line
    return "input" in shapes and "results" not in shapes


def _json_line(raw: bytes, path: Path, line_no: int) -> Any:
    try:
        return json.loads(raw)
    except RecursionError:
        raise InputError(f"{where(path, line_no)}: the JSON is nested too deeply", path, line_no) from None
    except ValueError as exc:
        raise InputError(f"{where(path, line_no)}: not valid JSON ({exc})", path, line_no) from None


def read_input_jsonl(path: str | Path) -> list[InputRecord]:
    path = Path(path)
    records: list[InputRecord] = []
    with open(path, "rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            raw = without_bom(raw, line_no == 1)
            if raw.strip():
                records.append(parse_input_record(_json_line(raw, path, line_no), path, line_no))
    check_unique(records)
    return records


def check_unique(records: list[InputRecord]) -> None:
    """Ids must be unique: resuming a batch and putting its output in order rely on them."""
    seen: dict[str, str] = {}
    for rec in records:
        if rec.id in seen:
            raise InputError(f"{rec.place}: id {rec.id!r} already used at {seen[rec.id]}; ids must be unique")
        seen[rec.id] = rec.place


def from_example(example: ExampleResult) -> InputRecord:
    return InputRecord(id=example.id, query=example.query,
                       responses={name: v.text for name, v in example.variants.items()},
                       documents=list(example.documents), reference=example.reference,
                       dataset=example.dataset, subset=example.subset, query_type=example.query_type,
                       place=example.place or example.id)


def check_has_text(records: list[InputRecord]) -> None:
    """Every record must hold a response with text: a record with none would be scored as 0 subclaims."""
    for rec in records:
        if not any(text.strip() for text in rec.texts().values()):
            raise InputError(f"{rec.place}: no response with text to score (responses: "
                             f"{', '.join(rec.responses) or 'none'}); give each record at least one")


def read_inputs(path: str | Path, *, require_text: bool = True) -> list[InputRecord]:
    """Records to score from the project's input JSONL or anything ``loaders`` reads.

    Ids are unique on every path; ``require_text`` (``score``) refuses a record with no response text.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file or folder", path)
    if path.is_file() and path.stat().st_size == 0:
        raise InputError(f"{path}: the file is empty", path)
    if path.is_file():
        check_not_binary(path)        # from its first bytes: a huge binary file is never read whole
    if is_input_jsonl(path):
        records = read_input_jsonl(path)
    else:
        from vital_core.loaders.load import load_examples
        records = [from_example(ex) for ex in load_examples(path).examples]
        check_unique(records)
    if not records:
        raise InputError(f"{path}: no records found", path)
    if require_text:
        check_has_text(records)
    return records
