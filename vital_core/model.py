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

RESULTS_FORMAT = "vital-explorer-results/1"

# Importance tiers, most important first. "unlabelled" marks a subclaim the
# ranker failed to label: it is shown as such and never folded into a tier.
VITAL, OKAY, LESS_IMPORTANT, UNLABELLED = "vital", "okay", "less-important", "unlabelled"
IMPORTANCE_LABELS = (VITAL, OKAY, LESS_IMPORTANT)
ALL_IMPORTANCE = IMPORTANCE_LABELS + (UNLABELLED,)

# Verdicts of a subclaim against evidence. "not_judged" is the release's
# ``judgment: null``: counted as not supported, displayed as not judged.
SUPPORTED, CONTRADICTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED = (
    "supported", "contradicted", "not_enough_evidence", "not_judged")
VERDICTS = (SUPPORTED, CONTRADICTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED)

# Nugget importance and nugget-to-response assignment (AutoNuggetizer terms).
NUGGET_IMPORTANCE = (VITAL, OKAY)
SUPPORT, PARTIAL_SUPPORT, NOT_SUPPORT = "support", "partial_support", "not_support"
ASSIGNMENTS = (SUPPORT, PARTIAL_SUPPORT, NOT_SUPPORT)

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

# Evidence modes a verdict can come from.
EVIDENCE_DOCUMENTS, EVIDENCE_REFERENCE, EVIDENCE_NONE, EVIDENCE_UNKNOWN = (
    "documents", "reference", "none", "unknown")


class InvalidLabelError(ValueError):
    """An importance label, verdict or assignment outside the known set."""


def normalise_importance(value: Any, *, where: str = "") -> str:
    """Map the spellings found in the wild onto the canonical labels."""
    if value is None:
        return UNLABELLED
    text = str(value).strip().strip('"').lower().replace("_", "-").replace(" ", "-")
    if text in ("less", "less-important", "lessimportant", "less-importance"):
        return LESS_IMPORTANT
    if text in ALL_IMPORTANCE:
        return text
    raise InvalidLabelError(
        f"unknown importance label {value!r}{' in ' + where if where else ''}; "
        f"expected one of {', '.join(ALL_IMPORTANCE)}")


def normalise_verdict(value: Any, *, where: str = "") -> str:
    """Accept booleans (release ``judgment``), NLI words and our own verdicts."""
    if value is None:
        return NOT_JUDGED
    if value is True:
        return SUPPORTED
    if value is False:
        return NOT_ENOUGH_EVIDENCE
    text = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    aliases = {"supported": SUPPORTED, "support": SUPPORTED, "true": SUPPORTED,
               "entailment": SUPPORTED, "contradicted": CONTRADICTED,
               "contradiction": CONTRADICTED, "refuted": CONTRADICTED,
               "not_enough_evidence": NOT_ENOUGH_EVIDENCE, "neutral": NOT_ENOUGH_EVIDENCE,
               "unsupported": NOT_ENOUGH_EVIDENCE, "false": NOT_ENOUGH_EVIDENCE,
               "nei": NOT_ENOUGH_EVIDENCE, "not_judged": NOT_JUDGED, "none": NOT_JUDGED}
    if text in aliases:
        return aliases[text]
    raise InvalidLabelError(
        f"unknown verdict {value!r}{' in ' + where if where else ''}; "
        f"expected one of {', '.join(VERDICTS)} or true/false/null")


def normalise_assignment(value: Any, *, where: str = "") -> str:
    text = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    aliases = {"support": SUPPORT, "supported": SUPPORT, "partial_support": PARTIAL_SUPPORT,
               "partial": PARTIAL_SUPPORT, "partially_supported": PARTIAL_SUPPORT,
               "not_support": NOT_SUPPORT, "not_supported": NOT_SUPPORT, "unsupported": NOT_SUPPORT}
    if text in aliases:
        return aliases[text]
    raise InvalidLabelError(
        f"unknown nugget assignment {value!r}{' in ' + where if where else ''}; "
        f"expected one of {', '.join(ASSIGNMENTS)}")


@dataclass
class Document:
    id: str
    text: str
    title: str = ""

    def to_dict(self) -> dict:
        return {"id": self.id, "text": self.text, **({"title": self.title} if self.title else {})}

    @classmethod
    def from_dict(cls, d: Any, index: int = 0) -> "Document":
        if isinstance(d, str):
            return cls(id=f"D{index + 1}", text=d)
        return cls(id=str(d.get("id", f"D{index + 1}")), text=str(d.get("text") or ""),
                   title=str(d.get("title") or ""))


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

    @property
    def is_supported(self) -> bool:
        return self.verdict == SUPPORTED

    def to_dict(self) -> dict:
        return {"id": self.id, "text": self.text, "sentence_index": self.sentence_index,
                "sentence": self.sentence, "importance": self.importance, "rank": self.rank,
                "verdict": self.verdict, "reason": self.reason, "evidence": self.evidence}

    @classmethod
    def from_dict(cls, d: dict, where: str = "") -> "Subclaim":
        return cls(id=str(d["id"]), text=str(d.get("text", "")),
                   sentence_index=int(d.get("sentence_index", 0) or 0),
                   sentence=str(d.get("sentence", "") or ""),
                   importance=normalise_importance(d.get("importance"), where=where),
                   rank=d.get("rank"),
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
        imp = str(d.get("importance", OKAY)).strip().lower()
        if imp not in NUGGET_IMPORTANCE:
            raise InvalidLabelError(
                f"unknown nugget importance {d.get('importance')!r}{' in ' + where if where else ''}; "
                f"expected one of {', '.join(NUGGET_IMPORTANCE)}")
        return cls(id=str(d.get("id", f"N{index}")), text=str(d.get("text", "")), importance=imp)


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

    def ordered_subclaims(self) -> list[Subclaim]:
        """Subclaims in importance order (response order when not ranked)."""
        if not self.order:
            return list(self.subclaims)
        by_id = {s.id: s for s in self.subclaims}
        seen = [by_id[i] for i in self.order if i in by_id]
        rest = [s for s in self.subclaims if s.id not in set(self.order)]
        return seen + rest

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
        assignment = d.get("nugget_assignment")
        if assignment is not None:
            assignment = {str(k): normalise_assignment(v, where=where) for k, v in assignment.items()}
        refs = d.get("reference_claims")
        fc = d.get("fc_verdicts")
        if fc is not None:
            fc = {str(k): normalise_verdict(v, where=where) for k, v in fc.items()}
        return cls(fc_verdicts=fc, variant=str(d.get("variant", NORMAL)), text=str(d.get("text", "")),
                   subclaims=[Subclaim.from_dict(s, where) for s in d.get("subclaims") or []],
                   order=[str(x) for x in d.get("order") or []],
                   nugget_assignment=assignment,
                   reference_claims=None if refs is None else [Subclaim.from_dict(s, where) for s in refs],
                   evidence_mode=str(d.get("evidence_mode", EVIDENCE_UNKNOWN)),
                   response_id=str(d.get("response_id", "") or ""), n2s=d.get("n2s"),
                   error=d.get("error"), warnings=list(d.get("warnings") or []))


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

    def to_dict(self) -> dict:
        return {"format": RESULTS_FORMAT, "id": self.id, "query": self.query,
                "dataset": self.dataset, "subset": self.subset, "query_type": self.query_type,
                "documents": [d.to_dict() for d in self.documents], "reference": self.reference,
                "nuggets": None if self.nuggets is None else [n.to_dict() for n in self.nuggets],
                "variants": {k: v.to_dict() for k, v in self.variants.items()},
                "backend": dict(self.backend), "error": self.error}

    @classmethod
    def from_dict(cls, d: dict, where: str = "") -> "ExampleResult":
        nuggets = d.get("nuggets")
        return cls(id=str(d.get("id", "")), query=str(d.get("query", "")),
                   variants={str(k): ResponseResult.from_dict({"variant": k, **v}, where)
                             for k, v in (d.get("variants") or {}).items()},
                   documents=[Document.from_dict(x, i) for i, x in enumerate(d.get("documents") or [])],
                   reference=d.get("reference"),
                   nuggets=None if nuggets is None else [Nugget.from_dict(n, i, where) for i, n in enumerate(nuggets)],
                   dataset=str(d.get("dataset", "") or ""), subset=str(d.get("subset", "") or ""),
                   query_type=d.get("query_type"), backend=dict(d.get("backend") or {}),
                   error=d.get("error"))


def strip_generation_prefix(query: str) -> str:
    """Drop the release's generation instruction ("In a paragraph, could you answer: ...")."""
    import re
    return re.sub(r"^\s*(in a paragraph,?\s*(could you answer:|could you tell me what you know about|tell me a bio of)"
                  r"|answer the following question in a short paragraph:)\s*", "", query,
                  flags=re.IGNORECASE).strip()


def iter_subclaims(variants: Iterable[ResponseResult]) -> Iterable[Subclaim]:
    for v in variants:
        yield from v.subclaims
