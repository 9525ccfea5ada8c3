"""All metrics of one response: its labels, verdicts and nugget support as plain sequences
(``ScoringInput``), scored by ``FORMULAS``, the registry from each catalog key to its formula
(the functions of ``formulas``)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

from vital_core.metrics.catalog import METRICS
from vital_core.metrics.formulas import (
    DEFAULT_WEIGHTS,
    PARTIAL_CREDIT,
    TOP_K,
    TierWeights,
    decay_precision,
    decay_recall,
    f1,
    factscore_precision,
    fc_precision,
    fc_recall,
    nothing_checked,
    nugget_recall,
    pcp,
    rlp,
    rlr,
    tier_counts,
    tier_precision,
    vital_nuggets_missed,
    vital_recall,
    weighted_precision,
    weighted_recall,
    wimpe_points,
    wpa,
)
from vital_core.results.model import (
    CONTRADICTED,
    LESS_IMPORTANT,
    NOT_JUDGED,
    OKAY,
    SUPPORTED,
    VITAL,
    Nugget,
    ResponseResult,
    Subclaim,
)


@dataclass(slots=True)
class ScoringInput:
    """Everything the metrics read about one response, as plain sequences.

    ``importance``/``verdicts`` are per subclaim in response order; ``order`` the
    subclaim positions in importance order (``None`` = not ranked);
    ``nugget_importance``/``assignment`` per nugget in nugget order
    (``assignment is None`` = not assigned, an entry ``None`` = that nugget
    unassigned); ``reference_*`` the reference's claims (``None`` = no reference).
    """
    importance: list[str]
    verdicts: list[str]
    order: list[int] | None = None
    nugget_importance: list[str] | None = None
    assignment: list[str | None] | None = None
    reference_importance: list[str] | None = None
    reference_verdicts: list[str] | None = None
    evidence_mode: str = ""
    fc_verdicts: list[str] | None = None     # subclaims vs the reference when verdicts came from documents

    @classmethod
    def from_response(cls, response: ResponseResult, nuggets: list[Nugget] | None) -> "ScoringInput":
        subclaims = response.subclaims
        order = None
        if response.order and subclaims:
            position = {s.id: i for i, s in enumerate(subclaims)}
            order = [position[s.id] for s in response.ordered_subclaims()]
        nugget_importance = assignment = None
        if nuggets is not None:
            nugget_importance = [n.importance for n in nuggets]
            if response.nugget_assignment is not None:
                assignment = [response.nugget_assignment.get(n.id) for n in nuggets]
        refs: list[Subclaim] | None = response.reference_claims
        return cls(importance=[s.importance for s in subclaims], verdicts=[s.verdict for s in subclaims],
                   order=order, nugget_importance=nugget_importance, assignment=assignment,
                   reference_importance=None if refs is None else [s.importance for s in refs],
                   reference_verdicts=None if refs is None else [s.verdict for s in refs],
                   evidence_mode=response.evidence_mode,
                   fc_verdicts=None if response.fc_verdicts is None
                   else [response.fc_verdicts.get(s.id, NOT_JUDGED) for s in subclaims])


class _Response:
    """One scoring input with the pieces several formulas share, each computed once on first use."""

    def __init__(self, data: ScoringInput, weights: TierWeights):
        self.data, self.weights = data, weights
        self.imp, self.ver = data.importance, data.verdicts
        self.nimp, self.assign = data.nugget_importance, data.assignment
        self.has_nuggets = data.nugget_importance is not None

    @cached_property
    def counts(self) -> dict[str, int]:
        return tier_counts(self.imp)

    @cached_property
    def ordered(self) -> list[str] | None:
        return None if self.data.order is None else [self.ver[i] for i in self.data.order]

    @cached_property
    def wp(self) -> float | None:
        return weighted_precision(self.imp, self.ver, self.weights)

    @cached_property
    def wr(self) -> float | None:
        return weighted_recall(self.nimp, self.assign, self.weights) if self.has_nuggets else None

    @cached_property
    def fcp(self) -> float | None:
        d = self.data
        return factscore_precision(d.fc_verdicts) if d.fc_verdicts is not None else fc_precision(self.ver,
                                                                                                  d.evidence_mode)

    @cached_property
    def fcr(self) -> float | None:
        return fc_recall(self.data.reference_verdicts)

    @cached_property
    def points(self):
        d = self.data
        return wimpe_points(d.reference_importance, d.reference_verdicts, self.nimp, self.assign)

    def with_nuggets(self, formula: Callable[..., Any], *args: Any) -> Any:
        """``formula(nugget_importance, assignment, *args)``; undefined without nuggets."""
        return formula(self.nimp, self.assign, *args) if self.has_nuggets else None


Formula = Callable[[_Response], "float | bool | int | None"]
# Every per-response metric: catalog key -> its formula (tests check the keys are the catalog's).
FORMULAS: dict[str, Formula] = {
    "factscore_precision": lambda r: factscore_precision(r.ver),
    "vital_precision": lambda r: tier_precision(r.imp, r.ver, VITAL),
    "okay_precision": lambda r: tier_precision(r.imp, r.ver, OKAY),
    "less_important_precision": lambda r: tier_precision(r.imp, r.ver, LESS_IMPORTANT),
    "weighted_precision": lambda r: r.wp,
    "decay_precision": lambda r: decay_precision(r.ordered, "release"),
    "decay_precision_top5": lambda r: decay_precision(r.ordered, "release", TOP_K),
    "linear_decay_precision": lambda r: decay_precision(r.ordered, "linear"),
    "linear_decay_precision_top5": lambda r: decay_precision(r.ordered, "linear", TOP_K),
    "rlp": lambda r: rlp(r.imp, r.ver),
    "n_subclaims": lambda r: len(r.ver),
    "n_supported": lambda r: sum(v == SUPPORTED for v in r.ver),
    "n_vital": lambda r: r.counts[VITAL],
    "n_okay": lambda r: r.counts[OKAY],
    "n_less_important": lambda r: r.counts[LESS_IMPORTANT],
    "n_unlabelled": lambda r: len(r.imp) - r.counts[VITAL] - r.counts[OKAY] - r.counts[LESS_IMPORTANT],
    "n_not_judged": lambda r: sum(v == NOT_JUDGED for v in r.ver),
    "n_contradicted": lambda r: sum(v == CONTRADICTED for v in r.ver),
    "nugget_recall": lambda r: r.with_nuggets(nugget_recall),
    "nugget_recall_partial": lambda r: r.with_nuggets(nugget_recall, None, PARTIAL_CREDIT),
    "vital_recall": lambda r: r.with_nuggets(vital_recall),
    "vital_recall_partial": lambda r: r.with_nuggets(vital_recall, PARTIAL_CREDIT),
    "weighted_recall": lambda r: r.wr,
    "weighted_f1": lambda r: f1(r.wp, r.wr),
    "decay_recall": lambda r: decay_recall(r.assign, "release") if r.has_nuggets else None,
    "decay_recall_top5": lambda r: decay_recall(r.assign, "release", TOP_K) if r.has_nuggets else None,
    "rlr": lambda r: r.with_nuggets(rlr),
    "n_nuggets": lambda r: None if r.nimp is None else len(r.nimp),
    "n_vital_nuggets": lambda r: None if r.nimp is None else sum(label == VITAL for label in r.nimp),
    "n_okay_nuggets": lambda r: None if r.nimp is None else sum(label == OKAY for label in r.nimp),
    "n_vital_nuggets_missed": lambda r: r.with_nuggets(vital_nuggets_missed),
    "fc_precision": lambda r: r.fcp,
    "fc_recall": lambda r: r.fcr,
    "fc_f1": lambda r: f1(r.fcp, r.fcr),
    "wpa": lambda r: wpa(r.points),
    "pcp": lambda r: pcp(r.points),
}


def compute_metrics(data: ScoringInput, weights: TierWeights = DEFAULT_WEIGHTS) -> dict[str, float | bool | int | None]:
    """All per-response metrics (``catalog.METRICS`` keys, in catalog order) of one scoring input.

    When nothing was checked (``formulas.nothing_checked``) every metric whose catalog entry requires
    ``verdicts`` is undefined.
    """
    scored = _Response(data, weights)
    unchecked = nothing_checked(data.evidence_mode, data.verdicts)
    return {key: None if unchecked and "verdicts" in spec.requires else FORMULAS[key](scored)
            for key, spec in METRICS.items() if spec.per_response}


def compute_response_metrics(response: ResponseResult, nuggets: list[Nugget] | None = None,
                             weights: TierWeights = DEFAULT_WEIGHTS) -> dict[str, float | bool | int | None]:
    """Every per-response metric of one response variant; ``None`` = undefined.

    ``nuggets`` are the example's nuggets (shared by its variants); the
    response's ``nugget_assignment`` maps their ids to support values.
    Set-level metrics (F1@K with K from the set) are added by ``dataset``.
    A response whose scoring failed (``response.error``) has every metric undefined:
    a failed step is never scored as 0 or flagged.
    """
    values = compute_metrics(ScoringInput.from_response(response, nuggets), weights)
    return dict.fromkeys(values) if response.error else values


