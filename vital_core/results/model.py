"""The data model shared by every part of VITAL Explorer.

One *example* is a query with its evidence (documents and/or a reference
answer), the query's nuggets, and one or more *response variants* (normal /
missing / wrong, or any other name). Each variant holds its subclaims, each
with an importance label, a rank in importance order and a verdict.

The project's own results format is JSON Lines: one ``ExampleResult`` per
line, as produced by ``ExampleResult.to_dict`` and tagged with
``"format": RESULTS_FORMAT``. ``ExampleResult.from_dict`` reads it back.
The format is documented in README.md ("Results format").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from vital_core.files.errors import InvalidRecordError, check_unique_ids, json_type, typed  # noqa: F401
from vital_core.files.errors import typed_objects as _objects
from vital_core.results.labels import (  # noqa: F401 - the labels, importable from the model as ever
    ALL_IMPORTANCE,
    APPROXIMATE_SPELLINGS,
    ASSIGNMENT_SPELLINGS,
    ASSIGNMENTS,
    CONTRADICTED,
    IMPORTANCE_LABELS,
    IMPORTANCE_SPELLINGS,
    JUDGED_VERDICTS,
    JUDGMENT_SPELLINGS,
    LESS_IMPORTANT,
    NOT_ENOUGH_EVIDENCE,
    NOT_JUDGED,
    NOT_SUPPORT,
    NUGGET_IMPORTANCE,
    NUGGET_IMPORTANCE_SPELLINGS,
    OKAY,
    PARTIAL_SUPPORT,
    SUPPORT,
    SUPPORTED,
    TIER_RANK,
    UNLABELLED,
    VERDICT_SPELLINGS,
    VERDICTS,
    VITAL,
    InvalidLabelError,
    fold_spelling,
    is_approximate,
    normalise_assignment,
    normalise_importance,
    normalise_nugget_importance,
    normalise_verdict,
    order_by_tier,
)

RESULTS_FORMAT = "vital-explorer-results/1"

# Canonical variant names; any other name is allowed too.
NORMAL, MISSING, WRONG = "normal", "missing", "wrong"
CONDITIONS = (NORMAL, MISSING, WRONG)


def condition_order(name: str) -> tuple[int, str]:
    """Sort key: the paper's conditions in their order, then any other variant by name."""
    return (CONDITIONS.index(name) if name in CONDITIONS else len(CONDITIONS), name)


def ordered_conditions(names: Iterable[str]) -> list[str]:
    """The distinct condition names, sorted by ``condition_order``."""
    return sorted(set(names), key=condition_order)


# Query types of the VitalErrors datasets.
OPEN_ENDED, SINGLE_ANSWER = "open-ended", "single-answer"
DATASET_QUERY_TYPE = {
    "bright": OPEN_ENDED, "factscore": OPEN_ENDED, "wildhallucinations": OPEN_ENDED,
    "hotpotqa": SINGLE_ANSWER, "naturalquestions": SINGLE_ANSWER, "triviaqa": SINGLE_ANSWER,
}

# Evidence modes a verdict can come from. "normal response": no documents and no reference answer
# were given, so the other variants were checked against the example's normal response, taken as
# correct (the setting in which the benchmark builds its missing and wrong variants).
EVIDENCE_DOCUMENTS, EVIDENCE_REFERENCE, EVIDENCE_NONE, EVIDENCE_UNKNOWN, EVIDENCE_NORMAL = (
    "documents", "reference", "none", "unknown", "normal response")
# Each mode as a sentence names what the claims were checked against.
EVIDENCE_WORDS = {EVIDENCE_DOCUMENTS: "the evidence documents", EVIDENCE_REFERENCE: "the reference answer",
                  EVIDENCE_NORMAL: "the normal response", EVIDENCE_NONE: "no evidence",
                  EVIDENCE_UNKNOWN: "evidence this result does not record"}
# Modes whose verdicts are checks against a correct answer: factual-correctness precision is the verdicts.
AGAINST_AN_ANSWER = (EVIDENCE_REFERENCE, EVIDENCE_NORMAL)
# Why the normal response's own claims count as supported in the "normal response" mode.
TAKEN_AS_CORRECT = ("taken as correct: no documents and no reference answer were given, so the normal "
                    "response is the reference the other variants are checked against")


class InvalidDocumentError(ValueError):
    """A document that is neither a string nor an object with a "text" string."""


@dataclass
class Document:
    id: str
    text: str
    title: str = ""

    def to_dict(self) -> dict:
        return {"id": self.id, "text": self.text, **({"title": self.title} if self.title else {})}

    @classmethod
    def from_dict(cls, raw: Any, index: int = 0, *, where: str | None = None,
                  default_id: str | None = None) -> "Document":
        """A document from a string or an object with ``text`` (and optional ``id``, ``title``).

        Every shape of the release is read: ``{id, text}``, ``{text}`` (factscore)
        and ``{status_code, text, url}`` (the url becomes the title). The id
        defaults to ``default_id``, else ``D{index + 1}``. Without ``where``
        anything else is read as text; with ``where`` (the item's place, for the
        message) anything but a string or an object with a "text" string raises
        ``InvalidDocumentError``.
        """
        fallback_id = default_id or f"D{index + 1}"
        if isinstance(raw, dict) and (where is None or isinstance(raw.get("text"), str)):
            return cls(id=str(raw.get("id") or fallback_id), text=str(raw.get("text") or ""),
                       title=str(raw.get("title") or raw.get("url") or ""))
        if where is not None and not isinstance(raw, str):
            raise InvalidDocumentError(f"{where}: expected a string or an object with a \"text\" string")
        return cls(id=fallback_id, text=str(raw))

    @classmethod
    def list_from(cls, raw: Any, *, where: str | None = None) -> list["Document"]:
        """The documents of a record's ``documents`` field (``None`` = none); strict with ``where``."""
        if raw is None:
            return []
        if not isinstance(raw, list):   # never a string read as one-character documents
            raise InvalidDocumentError(f"{where or 'record'}: field \"documents\" must be a list of strings or "
                                       f"objects with \"text\", got {json_type(raw)}")
        return [cls.from_dict(item, i, where=None if where is None else f"{where}: documents[{i}]")
                for i, item in enumerate(raw or [])]


@dataclass
class Subclaim:
    """One atomic claim of a response (or of a reference answer)."""
    id: str
    text: str
    sentence_index: int = 0          # index of the source sentence in the response
    sentence: str = ""               # the source sentence text
    importance: str = UNLABELLED     # vital / okay / less-important / unlabelled
    rank: int | None = None          # 1-based position in importance order
    verdict: str = NOT_JUDGED        # supported / contradicted / not_enough_evidence / not_judged
    reason: str = ""
    evidence: str = ""               # quoted evidence span

    def to_dict(self) -> dict:
        return {"id": self.id, "text": self.text, "sentence_index": self.sentence_index,
                "sentence": self.sentence, "importance": self.importance, "rank": self.rank,
                "verdict": self.verdict, "reason": self.reason, "evidence": self.evidence}

    @classmethod
    def from_dict(cls, d: dict, where: str = "") -> "Subclaim":
        if "id" not in d:
            raise InvalidRecordError(f"{where + ': ' if where else ''}a subclaim has no 'id'")
        return cls(id=str(d["id"]), text=typed(d, "text", str, where, default=""),
                   sentence_index=typed(d, "sentence_index", int, where, default=0),
                   sentence=typed(d, "sentence", str, where, default=""),
                   importance=normalise_importance(d.get("importance"), where=where),
                   rank=typed(d, "rank", int, where),
                   verdict=normalise_verdict(d.get("verdict"), where=where),
                   reason=str(d.get("reason", "") or ""), evidence=str(d.get("evidence", "") or ""))


@dataclass
class Nugget:
    """A query-level information unit built from the evidence (shared by variants)."""
    id: str
    text: str
    importance: str = OKAY           # vital / okay

    def to_dict(self) -> dict:
        return {"id": self.id, "text": self.text, "importance": self.importance}

    @classmethod
    def from_dict(cls, d: dict, index: int = 0, where: str = "") -> "Nugget":
        return cls(id=str(d.get("id", f"N{index}")), text=typed(d, "text", str, where, default=""),
                   importance=normalise_nugget_importance(d.get("importance", OKAY), where=where))


@dataclass
class ResponseResult:
    """One response variant of an example, with everything scored about it."""
    variant: str
    text: str
    subclaims: list[Subclaim] = field(default_factory=list)
    # Subclaim ids, most important first. Empty means "not ranked": metrics
    # that need an order fall back to response order and say so.
    order: list[str] = field(default_factory=list)
    # nugget id -> support / partial_support / not_support; None = not assigned
    nugget_assignment: dict[str, str] | None = None
    # Factual-correctness recall direction: the reference answer's claims,
    # each verified against this response. None = no reference.
    reference_claims: list[Subclaim] | None = None
    # Factual-correctness precision when the subclaims' own verdicts come from
    # documents: subclaim id -> verdict against the reference answer. None =
    # not checked (with evidence_mode "reference" the verdicts already are that).
    fc_verdicts: dict[str, str] | None = None
    evidence_mode: str = EVIDENCE_UNKNOWN
    response_id: str = ""
    n2s: dict[str, list[str]] | None = None   # release's nugget -> subclaim alignment
    error: str | None = None                  # a failed step keeps its error here
    warnings: list[str] = field(default_factory=list)
    place: str = field(default="", repr=False, compare=False)   # "file line N" it was read from; not saved

    def ordered_subclaims(self) -> list[Subclaim]:
        """Subclaims in importance order (response order when not ranked)."""
        if not self.order:
            return list(self.subclaims)
        by_id = {s.id: s for s in self.subclaims}
        seen = [by_id[i] for i in self.order if i in by_id]
        rest = [s for s in self.subclaims if s.id not in set(self.order)]
        return seen + rest

    def set_order(self, order: Iterable[str]) -> None:
        """Make ``order`` the importance order and number the subclaims' ranks 1.. along it."""
        self.order = list(order)
        position = {sid: n for n, sid in enumerate(self.order, start=1)}
        for s in self.subclaims:
            if s.id in position:
                s.rank = position[s.id]

    def to_dict(self) -> dict:
        d = {"variant": self.variant, "text": self.text, "response_id": self.response_id,
             "evidence_mode": self.evidence_mode,
             "subclaims": [s.to_dict() for s in self.subclaims], "order": list(self.order),
             "nugget_assignment": self.nugget_assignment,
             "reference_claims": None if self.reference_claims is None
             else [s.to_dict() for s in self.reference_claims],
             "error": self.error, "warnings": list(self.warnings)}
        if self.fc_verdicts is not None:
            d["fc_verdicts"] = dict(self.fc_verdicts)
        if self.n2s is not None:
            d["n2s"] = self.n2s
        return d

    @classmethod
    def from_dict(cls, d: dict, where: str = "") -> "ResponseResult":
        assignment = typed(d, "nugget_assignment", dict, where)
        if assignment is not None:
            assignment = {str(k): normalise_assignment(v, where=where) for k, v in assignment.items()}
        refs = typed(d, "reference_claims", list, where)
        fc = typed(d, "fc_verdicts", dict, where)
        if fc is not None:
            fc = {str(k): normalise_verdict(v, where=where) for k, v in fc.items()}
        error = d.get("error")
        subclaims = [Subclaim.from_dict(s, where) for s in
                     _objects(typed(d, "subclaims", list, where, default=[]), "subclaims", where)]
        check_unique_ids([c.id for c in subclaims], f"variants.{d.get('variant', NORMAL)!s}.subclaims", where)
        return cls(fc_verdicts=fc, variant=str(d.get("variant", NORMAL)), text=typed(d, "text", str, where, default=""),
                   subclaims=subclaims,
                   order=[str(x) for x in typed(d, "order", list, where, default=[])],
                   nugget_assignment=assignment,
                   reference_claims=None if refs is None else
                   [Subclaim.from_dict(s, where) for s in _objects(refs, "reference_claims", where)],
                   evidence_mode=typed(d, "evidence_mode", str, where, default=EVIDENCE_UNKNOWN),
                   response_id=str(d.get("response_id", "") or ""), n2s=typed(d, "n2s", dict, where),
                   error=None if error is None else str(error),
                   warnings=[str(w) for w in typed(d, "warnings", list, where, default=[])], place=where)


@dataclass
class ExampleResult:
    """A query, its evidence and nuggets, and its scored response variants."""
    id: str
    query: str
    variants: dict[str, ResponseResult] = field(default_factory=dict)
    documents: list[Document] = field(default_factory=list)
    reference: str | None = None
    nuggets: list[Nugget] | None = None
    dataset: str = ""
    subset: str = ""
    query_type: str | None = None     # open-ended / single-answer / None (unknown)
    backend: dict[str, Any] = field(default_factory=dict)  # name, model, prompt_version; never a key
    error: str | None = None
    place: str = field(default="", repr=False, compare=False)   # "file line N" it was read from; not saved

    def to_dict(self) -> dict:
        return {"format": RESULTS_FORMAT, "id": self.id, "query": self.query,
                "dataset": self.dataset, "subset": self.subset, "query_type": self.query_type,
                "documents": [d.to_dict() for d in self.documents], "reference": self.reference,
                "nuggets": None if self.nuggets is None else [n.to_dict() for n in self.nuggets],
                "variants": {k: v.to_dict() for k, v in self.variants.items()},
                "backend": dict(self.backend), "error": self.error}

    @classmethod
    def from_dict(cls, d: dict, where: str = "") -> "ExampleResult":
        """Read one results record; a field of the wrong type raises ``InvalidRecordError`` naming it."""
        nuggets = typed(d, "nuggets", list, where)
        variants = typed(d, "variants", dict, where, default={})
        _objects(list(variants.values()), "variants", where)
        error = d.get("error")
        return cls(id=str(d.get("id", "")), query=typed(d, "query", str, where, default=""),
                   variants={str(k): ResponseResult.from_dict({"variant": k, **v}, where) for k, v in variants.items()},
                   documents=Document.list_from(d.get("documents"), where=where or None),
                   reference=typed(d, "reference", str, where),
                   nuggets=None if nuggets is None else
                   [Nugget.from_dict(n, i, where) for i, n in enumerate(_objects(nuggets, "nuggets", where))],
                   dataset=str(d.get("dataset", "") or ""), subset=str(d.get("subset", "") or ""),
                   query_type=typed(d, "query_type", str, where), backend=typed(d, "backend", dict, where, default={}),
                   error=None if error is None else str(error), place=where)


# The paper's setting, stated beside what a run used (``report``'s header, docs/openai-backend.md):
# gpt-4o for every step (decomposition and verification through FActScore, nuggets through
# AutoNuggetizer, importance ranking), and FActScore's one fact per verification call.
PAPER_MODEL = "gpt-4o"
FACTSCORE_CLAIMS_PER_CALL = 1
PAPER_SETTING = (f"the paper used {PAPER_MODEL} for every step and FActScore checks one claim per call "
                 f"(--model {PAPER_MODEL} --claims-per-call {FACTSCORE_CLAIMS_PER_CALL})")


def backend_label(backend: dict | None) -> str:
    """What scored a result, in one line: backend, model and, when recorded, claims per verification
    call ("" for a record that names no backend, e.g. the release)."""
    if not isinstance(backend, dict) or not backend.get("name"):
        return ""
    method = backend.get("method") if isinstance(backend.get("method"), dict) else {}
    per_call = method.get("claims_per_call")
    return (f"{backend['name']} {backend.get('model') or ''}".strip()
            + (f", {per_call} claim(s) per verification call" if per_call else ""))


def strip_generation_prefix(query: str) -> str:
    """Drop the release's generation instruction ("In a paragraph, could you answer: ...")."""
    import re
    return re.sub(r"^\s*(in a paragraph,?\s*(could you answer:|could you tell me what you know about|tell me a bio of)"
                  r"|answer the following question in a short paragraph:)\s*", "", query,
                  flags=re.IGNORECASE).strip()

