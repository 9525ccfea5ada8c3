"""All metrics of one response: its labels, verdicts and nugget support as plain sequences
(``ScoringInput``), scored by the formulas of ``formulas``."""
from __future__ import annotations

from dataclasses import dataclass

from vital_core.model import (CONTRADICTED, LESS_IMPORTANT, NOT_JUDGED, OKAY, SUPPORTED, VITAL, Nugget,
                              ResponseResult, Subclaim)
from vital_core.metrics.formulas import (DEFAULT_WEIGHTS, PARTIAL_CREDIT, TOP_K, TierWeights, decay_precision, decay_recall, f1,
                                         factscore_precision, fc_precision, fc_recall, nugget_recall, pcp, rlp,
                                         rlr, tier_counts, tier_precision, vital_recall, weighted_precision,
                                         weighted_recall, wimpe_points, wpa, vital_nuggets_missed, nothing_checked)
from vital_core.metrics.catalog import FROM_VERDICTS


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


def compute_metrics(data: ScoringInput, weights: TierWeights = DEFAULT_WEIGHTS) -> dict[str, float | bool | int | None]:
    """All per-response metrics (keys of ``metric_catalog.METRICS``) of one scoring input."""
    imp, ver = data.importance, data.verdicts
    counts = tier_counts(imp)
    ordered = None if data.order is None else [ver[i] for i in data.order]
    nimp, assign = data.nugget_importance, data.assignment
    wp = weighted_precision(imp, ver, weights)
    wr = weighted_recall(nimp or [], assign, weights) if nimp is not None else None
    fcp = (factscore_precision(data.fc_verdicts) if data.fc_verdicts is not None
           else fc_precision(ver, data.evidence_mode))
    fcr = fc_recall(data.reference_verdicts)
    points = wimpe_points(data.reference_importance, data.reference_verdicts, nimp, assign)
    has_nuggets = nimp is not None
    values = {
        "factscore_precision": factscore_precision(ver),
        "vital_precision": tier_precision(imp, ver, VITAL),
        "okay_precision": tier_precision(imp, ver, OKAY),
        "less_important_precision": tier_precision(imp, ver, LESS_IMPORTANT),
        "weighted_precision": wp,
        "decay_precision": decay_precision(ordered, "release"),
        "decay_precision_top5": decay_precision(ordered, "release", TOP_K),
        "linear_decay_precision": decay_precision(ordered, "linear"),
        "linear_decay_precision_top5": decay_precision(ordered, "linear", TOP_K),
        "rlp": rlp(imp, ver),
        "n_subclaims": len(ver),
        "n_supported": sum(v == SUPPORTED for v in ver),
        "n_vital": counts[VITAL],
        "n_okay": counts[OKAY],
        "n_less_important": counts[LESS_IMPORTANT],
        "n_unlabelled": len(imp) - counts[VITAL] - counts[OKAY] - counts[LESS_IMPORTANT],
        "n_not_judged": sum(v == NOT_JUDGED for v in ver),
        "n_contradicted": sum(v == CONTRADICTED for v in ver),
        "nugget_recall": nugget_recall(nimp or [], assign) if has_nuggets else None,
        "nugget_recall_partial": nugget_recall(nimp or [], assign, None, PARTIAL_CREDIT) if has_nuggets else None,
        "vital_recall": vital_recall(nimp or [], assign) if has_nuggets else None,
        "vital_recall_partial": vital_recall(nimp or [], assign, PARTIAL_CREDIT) if has_nuggets else None,
        "weighted_recall": wr,
        "weighted_f1": f1(wp, wr),
        "decay_recall": decay_recall(assign, "release") if has_nuggets else None,
        "decay_recall_top5": decay_recall(assign, "release", TOP_K) if has_nuggets else None,
        "rlr": rlr(nimp or [], assign) if has_nuggets else None,
        "n_nuggets": None if nimp is None else len(nimp),
        "n_vital_nuggets": None if nimp is None else sum(label == VITAL for label in nimp),
        "n_okay_nuggets": None if nimp is None else sum(label == OKAY for label in nimp),
        "n_vital_nuggets_missed": vital_nuggets_missed(nimp or [], assign) if has_nuggets else None,
        "fc_precision": fcp,
        "fc_recall": fcr,
        "fc_f1": f1(fcp, fcr),
        "wpa": wpa(points),
        "pcp": pcp(points),
    }
    if nothing_checked(data.evidence_mode, ver):
        values.update(dict.fromkeys(FROM_VERDICTS))
    return values


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


