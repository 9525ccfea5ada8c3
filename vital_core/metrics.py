"""Every per-response metric of the method, each a pure function with its formula.

The functions work on plain sequences (labels, verdicts, assignments) so the
same code scores a ``ResponseResult`` (``compute_response_metrics``) and a raw
release record streamed by the loader (``ScoringInput.from_release``): one
definition per metric, whatever the source.

Conventions
-----------
* A subclaim counts as *supported* only when its verdict is ``supported``.
  The release's ``judgment: null`` (``not_judged``) and ``false``
  (``not_enough_evidence``) count as not supported, as in the reference code.
* A metric with nothing to measure (empty denominator) returns ``None``
  (undefined). The reference implementation returns 0 in those cases.
* ``unlabelled`` subclaims (the ranker failed to label them) belong to no tier:
  they count in FactScore precision but not in any tier-based metric.

Sources: VITAL paper (``vital-paper.txt`` §3.1, Appendix B) and its public
release; AutoNuggetizer recall variants (All/Vital x Strict/partial 0.5);
factual correctness (``factual-correctness-metric.md``); WIMPE (WPA, PCP,
Merge; ``wimpe-paper.txt`` eqs. 5, 7, 8); SAFE's F1@K.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Iterable, Sequence

from .model import (CONTRADICTED, EVIDENCE_REFERENCE, LESS_IMPORTANT, NOT_ENOUGH_EVIDENCE, NOT_JUDGED,
                    NOT_SUPPORT, OKAY, PARTIAL_SUPPORT, SUPPORT, SUPPORTED, UNLABELLED, VITAL, Nugget,
                    ResponseResult, Subclaim)

TOP_K = 5                     # the release's top-k decay variant
WIMPE_WEIGHTS = {VITAL: 3.0, OKAY: 2.0, LESS_IMPORTANT: 1.0}


@dataclass(frozen=True)
class TierWeights:
    """Weights of the importance tiers for weighted precision / recall.

    The default 1.0 / 0.6 / 0.4 reproduces the released ``weighted-precision``
    of every reference record (the reference CLI's own default, 1.0/0.5/0.1,
    does not).
    """
    vital: float = 1.0
    okay: float = 0.6
    less_important: float = 0.4

    def weight(self, label: str) -> float | None:
        """The tier weight of a label; ``None`` for ``unlabelled`` (no tier)."""
        if label == VITAL:
            return self.vital
        if label == OKAY:
            return self.okay
        if label == LESS_IMPORTANT:
            return self.less_important
        return None

    def as_tuple(self) -> tuple[float, float, float]:
        return (self.vital, self.okay, self.less_important)

    def __str__(self) -> str:
        return ",".join(f"{w:g}" for w in self.as_tuple())

    @classmethod
    def parse(cls, text: str) -> "TierWeights":
        """``"1,0.6,0.4"`` -> TierWeights; ValueError with a readable message otherwise."""
        parts = [p.strip() for p in str(text).split(",")]
        if len(parts) != 3:
            raise ValueError(f"weights must be three numbers vital,okay,less-important (got {text!r})")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            raise ValueError(f"weights must be numbers, e.g. 1,0.6,0.4 (got {text!r})") from None
        if any(v < 0 or v != v for v in values) or sum(values) == 0:
            raise ValueError(f"weights must be non-negative and not all zero (got {text!r})")
        return cls(*values)


DEFAULT_WEIGHTS = TierWeights()


def _ratio(num: float, den: float) -> float | None:
    return None if den == 0 else num / den


# --------------------------------------------------------------------------- precision

def factscore_precision(verdicts: Sequence[str]) -> float | None:
    """FactScore precision = |supported subclaims| / |subclaims| (Min et al., 2023)."""
    return _ratio(sum(v == SUPPORTED for v in verdicts), len(verdicts))


def tier_counts(importance: Sequence[str]) -> dict[str, int]:
    """Number of subclaims per importance label (paper Table 3)."""
    counts = {VITAL: 0, OKAY: 0, LESS_IMPORTANT: 0}
    for label in importance:
        counts[label] = counts.get(label, 0) + 1
    return counts


def tier_precision(importance: Sequence[str], verdicts: Sequence[str], tier: str) -> float | None:
    """Precision within one tier = |supported subclaims of tier| / |subclaims of tier|.

    With ``tier="vital"`` this is VITAL precision (paper §3.1, VITAL_PREC).
    """
    total = supported = 0
    for label, verdict in zip(importance, verdicts):
        if label == tier:
            total += 1
            supported += verdict == SUPPORTED
    return _ratio(supported, total)


def vital_precision(importance: Sequence[str], verdicts: Sequence[str]) -> float | None:
    """VITAL precision = |supported vital subclaims| / |vital subclaims| (paper §3.1)."""
    return tier_precision(importance, verdicts, VITAL)


def weighted_precision(importance: Sequence[str], verdicts: Sequence[str],
                       weights: TierWeights = DEFAULT_WEIGHTS) -> float | None:
    """Tier-weighted precision = sum_t w_t * supported_t / sum_t w_t * total_t.

    t ranges over vital / okay / less-important (release ``weighted-precision``).
    """
    num = den = 0.0
    for label, verdict in zip(importance, verdicts):
        w = weights.weight(label)
        if w is None:
            continue
        den += w
        if verdict == SUPPORTED:
            num += w
    return _ratio(num, den)


def rlp(importance: Sequence[str], verdicts: Sequence[str]) -> bool | None:
    """VITAL RLP: True when any vital subclaim is not supported (paper §3.1)."""
    vital = [v for label, v in zip(importance, verdicts) if label == VITAL]
    if not vital:
        return None
    return any(v != SUPPORTED for v in vital)


# --------------------------------------------------------------------------- decay weighting

def release_decay_weights(n: int) -> list[float]:
    """The release's "linear decay" weights: w_i = (n - i) / i for i = 1..n.

    Despite its name this is not linear (it falls like 1/i) and gives the last
    item weight 0, so a single item has total weight 0. Kept under this honest
    name as the default to reproduce released numbers.
    """
    return [(n - i) / i for i in range(1, n + 1)]


def linear_decay_weights(n: int) -> list[float]:
    """A true linear decay: w_i = (n - i + 1) / n for i = 1..n (1, ..., 1/n)."""
    return [(n - i + 1) / n for i in range(1, n + 1)]


DECAY_SCHEMES = {"release": release_decay_weights, "linear": linear_decay_weights}


def decay_score(values: Sequence[float], scheme: str = "release", top_k: int | None = None) -> float | None:
    """Decay-weighted mean = sum_i w_i * x_i / sum_i w_i over items in importance order.

    ``top_k`` keeps the first k items and computes the weights with
    n = min(k, n), as the release's ``-topk`` scores do. Undefined when the
    total weight is 0 (no item, or one item under the release scheme).
    """
    items = list(values)[:top_k] if top_k is not None else list(values)
    weights = DECAY_SCHEMES[scheme](len(items))
    return _ratio(sum(w * x for w, x in zip(weights, items)), sum(weights))


def decay_precision(ordered_verdicts: Sequence[str] | None, scheme: str = "release",
                    top_k: int | None = None) -> float | None:
    """Decay-weighted precision over subclaims in importance order (paper App. B.2).

    x_i = 1 when the i-th most important subclaim is supported, else 0.
    ``None`` input means the subclaims are not ranked: undefined.
    """
    if ordered_verdicts is None:
        return None
    return decay_score([1.0 if v == SUPPORTED else 0.0 for v in ordered_verdicts], scheme, top_k)


# --------------------------------------------------------------------------- nugget recall

def _credit(assignment: str, partial_credit: float) -> float:
    if assignment == SUPPORT:
        return 1.0
    if assignment == PARTIAL_SUPPORT:
        return partial_credit
    return 0.0


def nugget_recall(nugget_importance: Sequence[str], assignment: Sequence[str | None] | None,
                  tier: str | None = None, partial_credit: float = 0.0) -> float | None:
    """AutoNuggetizer recall = sum credit(a_i) / |nuggets| over all or one tier's nuggets.

    credit: support 1, partial_support ``partial_credit`` (0 = Strict, 0.5 =
    the partial variants), not_support 0. All Strict is the paper's
    NUGGETRECALL; ``tier="vital"`` strict is VITAL recall (VITAL_REC).
    Undefined without nuggets (of the tier) or when any of them is unassigned.
    """
    if assignment is None:
        return None
    picked = [a for label, a in zip(nugget_importance, assignment) if tier is None or label == tier]
    if not picked or any(a is None for a in picked):
        return None
    return sum(_credit(a, partial_credit) for a in picked) / len(picked)


def vital_recall(nugget_importance: Sequence[str], assignment: Sequence[str | None] | None,
                 partial_credit: float = 0.0) -> float | None:
    """VITAL recall = |supported vital nuggets| / |vital nuggets| (paper §3.1); strict by default."""
    return nugget_recall(nugget_importance, assignment, VITAL, partial_credit)


def weighted_recall(nugget_importance: Sequence[str], assignment: Sequence[str | None] | None,
                    weights: TierWeights = DEFAULT_WEIGHTS, partial_credit: float = 1.0) -> float | None:
    """Tier-weighted recall = sum_t w_t * supported_t / sum_t w_t * total_t over nuggets.

    Nugget tiers are vital / okay. As in the release, partial support counts as
    supported (``partial_credit=1``); pass 0 for a strict variant.
    """
    if assignment is None or not len(assignment) or any(a is None for a in assignment):
        return None
    num = den = 0.0
    for label, a in zip(nugget_importance, assignment):
        w = weights.weight(label)
        if w is None:
            continue
        den += w
        num += w * _credit(a, partial_credit)
    return _ratio(num, den)


def decay_recall(assignment: Sequence[str | None] | None, scheme: str = "release",
                 top_k: int | None = None) -> float | None:
    """Decay-weighted recall over nuggets in nugget order (release ``linear-decay-recall``).

    x_i = 1 when the i-th nugget is supported or partially supported, else 0.
    """
    if assignment is None or any(a is None for a in assignment):
        return None
    return decay_score([1.0 if a in (SUPPORT, PARTIAL_SUPPORT) else 0.0 for a in assignment],
                       scheme, top_k)


def rlr(nugget_importance: Sequence[str], assignment: Sequence[str | None] | None) -> bool | None:
    """VITAL RLR: True when any vital nugget is not fully supported (partial is not support)."""
    if assignment is None:
        return None
    vital = [a for label, a in zip(nugget_importance, assignment) if label == VITAL]
    if not vital or any(a is None for a in vital):
        return None
    return any(a != SUPPORT for a in vital)


# --------------------------------------------------------------------------- combinations

def f1(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean 2PR / (P + R); undefined when either side is, 0 when both are 0."""
    return f_beta(precision, recall, 1.0)


def f_beta(precision: float | None, recall: float | None, beta: float = 1.0) -> float | None:
    """F-beta = (1 + b^2) P R / (b^2 P + R); undefined when P or R is undefined."""
    if precision is None or recall is None:
        return None
    den = beta * beta * precision + recall
    return 0.0 if den == 0 else (1 + beta * beta) * precision * recall / den


# --------------------------------------------------------------------------- factual correctness

def fc_precision(verdicts: Sequence[str], evidence_mode: str) -> float | None:
    """Factual-correctness precision = |response claims supported by the reference| / |response claims|.

    Defined only when the response's subclaims were verified against the
    reference answer (``evidence_mode == "reference"``).
    """
    if evidence_mode != EVIDENCE_REFERENCE:
        return None
    return factscore_precision(verdicts)


def fc_recall(reference_verdicts: Sequence[str] | None) -> float | None:
    """Factual-correctness recall = |reference claims supported by the response| / |reference claims|."""
    if reference_verdicts is None:
        return None
    return factscore_precision(reference_verdicts)


# --------------------------------------------------------------------------- WIMPE

@dataclass(frozen=True)
class ScoringPoint:
    """One WIMPE scoring point: weight w_i, coverage m_i, contradiction p_i (None = unknown)."""
    weight: float
    coverage: float
    contradicted: bool | None


def wimpe_points(reference_importance: Sequence[str] | None, reference_verdicts: Sequence[str] | None,
                 nugget_importance: Sequence[str] | None = None,
                 assignment: Sequence[str | None] | None = None) -> list[ScoringPoint] | None:
    """Scoring points: the reference's claims when there is a reference, else the nuggets.

    Reference claims: weight 3/2/1 (vital/okay/less-important), coverage 1 when
    the response supports the claim else 0, contradicted when the response
    contradicts it. Nuggets: weight 3/2, coverage 1/0.5/0 for
    support/partial/not, contradiction unknown. Unlabelled claims have no weight
    and are left out. ``None`` when neither source is available.
    """
    if reference_verdicts is not None:
        return [ScoringPoint(WIMPE_WEIGHTS[label], 1.0 if v == SUPPORTED else 0.0, v == CONTRADICTED)
                for label, v in zip(reference_importance or [], reference_verdicts)
                if label in WIMPE_WEIGHTS]
    if assignment is not None and nugget_importance and not any(a is None for a in assignment):
        return [ScoringPoint(WIMPE_WEIGHTS[label], _credit(a, 0.5), None)
                for label, a in zip(nugget_importance, assignment) if label in WIMPE_WEIGHTS]
    return None


def wpa(points: Sequence[ScoringPoint] | None) -> float | None:
    """WIMPE Weighted Point-wise Alignment = sum m_i w_i / sum w_i (eq. 5)."""
    if not points:
        return None
    return _ratio(sum(p.coverage * p.weight for p in points), sum(p.weight for p in points))


def pcp(points: Sequence[ScoringPoint] | None) -> float | None:
    """WIMPE Point-wise Conflict Penalty = sum p_i w_i / sum w_i (eq. 7); lower is better.

    Undefined when contradiction is unknown for any point (nugget points).
    """
    if not points or any(p.contradicted is None for p in points):
        return None
    return _ratio(sum(p.weight for p in points if p.contradicted), sum(p.weight for p in points))


def wimpe_merge(coarse: float | None, wpa_score: float | None, lam: float = 0.5) -> float | None:
    """WIMPE Merge = lambda * S_coarse + (1 - lambda) * WPA (eq. 8), lambda in [0, 1]."""
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"lambda must be in [0, 1] (got {lam})")
    if coarse is None or wpa_score is None:
        return None
    return lam * coarse + (1 - lam) * wpa_score


# --------------------------------------------------------------------------- SAFE F1@K

def f1_at_k_from_counts(n_supported: int, n_subclaims: int, k: float | None) -> float | None:
    """SAFE F1@K: P = supported / total, R@K = min(supported / K, 1), F1 of the two.

    A response with no claims is undefined here (SAFE scores it 0).
    """
    if not n_subclaims or k is None or k <= 0:
        return None
    return f1(n_supported / n_subclaims, min(n_supported / k, 1.0))


def f1_at_k(verdicts: Sequence[str], k: float | None) -> float | None:
    """SAFE F1@K of one response from its verdicts (see ``f1_at_k_from_counts``)."""
    return f1_at_k_from_counts(sum(v == SUPPORTED for v in verdicts), len(verdicts), k)


def median_k(subclaim_counts: Iterable[int]) -> float | None:
    """K for F1@K: the median subclaim count over a set of responses."""
    counts = [c for c in subclaim_counts if c]
    return statistics.median(counts) if counts else None


# --------------------------------------------------------------------------- cumulative precision

def cumulative_precision_values(verdicts: Sequence[str]) -> list[float]:
    """Precision over the first n subclaims, for n = 1..len (paper Figures 3-4)."""
    out, supported = [], 0
    for n, v in enumerate(verdicts, start=1):
        supported += v == SUPPORTED
        out.append(supported / n)
    return out


def cumulative_precision(response: ResponseResult, order: str = "response") -> list[float]:
    """Cumulative precision of a response, in response order or importance order.

    Importance order falls back to response order when the response is not ranked.
    """
    if order not in ("response", "importance"):
        raise ValueError(f"order must be 'response' or 'importance' (got {order!r})")
    claims = response.ordered_subclaims() if order == "importance" else response.subclaims
    return cumulative_precision_values([s.verdict for s in claims])


# --------------------------------------------------------------------------- one response

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
    return {
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
        "nugget_recall_partial": nugget_recall(nimp or [], assign, None, 0.5) if has_nuggets else None,
        "vital_recall": vital_recall(nimp or [], assign) if has_nuggets else None,
        "vital_recall_partial": vital_recall(nimp or [], assign, 0.5) if has_nuggets else None,
        "weighted_recall": wr,
        "weighted_f1": f1(wp, wr),
        "decay_recall": decay_recall(assign, "release") if has_nuggets else None,
        "decay_recall_top5": decay_recall(assign, "release", TOP_K) if has_nuggets else None,
        "rlr": rlr(nimp or [], assign) if has_nuggets else None,
        "n_nuggets": None if nimp is None else len(nimp),
        "n_vital_nuggets": None if nimp is None else sum(label == VITAL for label in nimp),
        "fc_precision": fcp,
        "fc_recall": fcr,
        "fc_f1": f1(fcp, fcr),
        "wpa": wpa(points),
        "pcp": pcp(points),
    }


def compute_response_metrics(response: ResponseResult, nuggets: list[Nugget] | None = None,
                             weights: TierWeights = DEFAULT_WEIGHTS) -> dict[str, float | bool | int | None]:
    """Every per-response metric of one response variant; ``None`` = undefined.

    ``nuggets`` are the example's nuggets (shared by its variants); the
    response's ``nugget_assignment`` maps their ids to support values.
    Set-level metrics (F1@K with K from the set) are added by ``dataset``.
    """
    return compute_metrics(ScoringInput.from_response(response, nuggets), weights)


# --------------------------------------------------------------------------- many responses at once

# Small integer codes of the labels, used by the columnar (batch) path.
TIER_CODE = {VITAL: 0, OKAY: 1, LESS_IMPORTANT: 2, UNLABELLED: 3}
TIERS_BY_CODE = (VITAL, OKAY, LESS_IMPORTANT, UNLABELLED)
VERDICT_CODE = {SUPPORTED: 0, CONTRADICTED: 1, NOT_ENOUGH_EVIDENCE: 2, NOT_JUDGED: 3}
VERDICTS_BY_CODE = (SUPPORTED, CONTRADICTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED)
ASSIGNMENT_CODE = {SUPPORT: 0, PARTIAL_SUPPORT: 1, NOT_SUPPORT: 2, None: 3}   # 3 = this nugget unassigned
ASSIGNMENTS_BY_CODE = (SUPPORT, PARTIAL_SUPPORT, NOT_SUPPORT, None)


class BatchBuilder:
    """Collects many responses' scoring inputs as flat integer columns for ``batch_metrics``.

    ``batch_metrics`` computes exactly the metrics of ``compute_metrics`` (the
    same formulas, vectorised with numpy; tests check they agree on random
    and real inputs). It is what makes loading the whole release fast.
    """

    def __init__(self) -> None:
        self.n = 0
        self.sub_record: list[int] = []
        self.sub_tier: list[int] = []
        self.sub_verdict: list[int] = []
        self.sub_rank: list[int] = []          # 1-based rank in importance order; 0 = record not ranked
        self.nug_record: list[int] = []
        self.nug_tier: list[int] = []          # 0 vital, 1 okay
        self.nug_assign: list[int] = []        # ASSIGNMENT_CODE
        self.nug_position: list[int] = []      # 1-based position in nugget order
        self.ref_record: list[int] = []
        self.ref_tier: list[int] = []
        self.ref_verdict: list[int] = []
        self.ranked: list[bool] = []
        self.has_nuggets: list[bool] = []
        self.has_assignment: list[bool] = []
        self.has_reference: list[bool] = []
        self.evidence_reference: list[bool] = []
        self.fc_supported: list[float] = []    # per record; NaN = no separate reference check
        self.fc_total: list[float] = []

    def add_codes(self, tiers: list[int], verdicts: list[int], ranks: list[int] | None,
                  nugget_tiers: list[int] | None = None, assignment: list[int] | None = None,
                  ref_tiers: list[int] | None = None, ref_verdicts: list[int] | None = None,
                  evidence_reference: bool = False, fc_counts: tuple[int, int] | None = None) -> int:
        """Add one response given as codes; returns its record number."""
        r = self.n
        self.n += 1
        k = len(tiers)
        self.sub_record.extend([r] * k)
        self.sub_tier.extend(tiers)
        self.sub_verdict.extend(verdicts)
        self.sub_rank.extend(ranks if ranks is not None else [0] * k)
        self.ranked.append(ranks is not None and k > 0)
        self.has_nuggets.append(nugget_tiers is not None)
        self.has_assignment.append(nugget_tiers is not None and assignment is not None)
        if nugget_tiers is not None:
            m = len(nugget_tiers)
            self.nug_record.extend([r] * m)
            self.nug_tier.extend(nugget_tiers)
            self.nug_assign.extend(assignment if assignment is not None else [3] * m)
            self.nug_position.extend(range(1, m + 1))
        self.has_reference.append(ref_verdicts is not None)
        if ref_verdicts is not None:
            self.ref_record.extend([r] * len(ref_verdicts))
            self.ref_tier.extend(ref_tiers or [])
            self.ref_verdict.extend(ref_verdicts)
        self.evidence_reference.append(evidence_reference)
        self.fc_supported.append(float("nan") if fc_counts is None else fc_counts[0])
        self.fc_total.append(float("nan") if fc_counts is None else fc_counts[1])
        return r

    _COLUMNS = {"sub_record": "int32", "sub_tier": "int8", "sub_verdict": "int8", "sub_rank": "int32",
                "nug_record": "int32", "nug_tier": "int8", "nug_assign": "int8", "nug_position": "int32",
                "ref_record": "int32", "ref_tier": "int8", "ref_verdict": "int8", "ranked": "bool",
                "has_nuggets": "bool", "has_assignment": "bool", "has_reference": "bool",
                "evidence_reference": "bool", "fc_supported": "float64", "fc_total": "float64"}
    _RECORD_COLUMNS = ("sub_record", "nug_record", "ref_record")

    def freeze(self) -> "BatchBuilder":
        """The same batch with numpy columns (compact to keep, pickle or concatenate)."""
        import numpy as np
        out = BatchBuilder()
        out.n = self.n
        for name, dtype in self._COLUMNS.items():
            setattr(out, name, np.asarray(getattr(self, name), dtype=dtype))
        return out

    @classmethod
    def concat(cls, parts: list["BatchBuilder"]) -> "BatchBuilder":
        """One batch of several (their records numbered on, in order)."""
        import numpy as np
        parts = [p.freeze() if isinstance(p.sub_record, list) else p for p in parts]
        out = BatchBuilder()
        out.n = sum(p.n for p in parts)
        starts = np.cumsum([0] + [p.n for p in parts])[:-1]
        for name, dtype in cls._COLUMNS.items():
            columns = [getattr(p, name) + (start if name in cls._RECORD_COLUMNS else 0)
                       for p, start in zip(parts, starts)]
            setattr(out, name, np.concatenate(columns).astype(dtype, copy=False) if columns
                    else np.zeros(0, dtype=dtype))
        return out

    def add(self, data: ScoringInput) -> int:
        """Add one response given as a ``ScoringInput``."""
        ranks = None
        if data.order is not None and data.verdicts:
            ranks = [0] * len(data.verdicts)
            for rank, k in enumerate(data.order, start=1):
                ranks[k] = rank
        return self.add_codes(
            [TIER_CODE[t] for t in data.importance], [VERDICT_CODE[v] for v in data.verdicts], ranks,
            None if data.nugget_importance is None else [TIER_CODE[t] for t in data.nugget_importance],
            None if data.assignment is None else [ASSIGNMENT_CODE[a] for a in data.assignment],
            None if data.reference_importance is None else [TIER_CODE[t] for t in data.reference_importance],
            None if data.reference_verdicts is None else [VERDICT_CODE[v] for v in data.reference_verdicts],
            data.evidence_mode == EVIDENCE_REFERENCE,
            None if data.fc_verdicts is None
            else (sum(v == SUPPORTED for v in data.fc_verdicts), len(data.fc_verdicts)))


def batch_metrics(batch: BatchBuilder, weights: TierWeights = DEFAULT_WEIGHTS) -> dict:
    """Every metric of ``compute_metrics`` for all responses of a batch, as numpy columns.

    Scores and flags are float arrays (flags 1.0 / 0.0) with NaN = undefined;
    counts are float arrays (NaN only for nugget counts without nuggets).
    """
    import numpy as np

    R = batch.n
    nan = np.nan

    def arr(values, dtype):
        return np.asarray(values, dtype=dtype)

    def count(records, mask=None, w=None):
        if mask is not None:
            records = records[mask]
            w = None if w is None else w[mask]
        return np.bincount(records, weights=w, minlength=R).astype(float)

    def ratio(num, den, defined=None):
        ok = den > 0 if defined is None else defined & (den > 0)
        out = np.full(R, nan)
        np.divide(num, den, out=out, where=ok)
        return out

    def harmonic(p, r, beta=1.0):
        b2 = beta * beta
        den = b2 * p + r
        out = np.where(den > 0, (1 + b2) * p * r / np.where(den > 0, den, 1.0), 0.0)
        return np.where(np.isnan(p) | np.isnan(r), nan, out)

    rec, tier, ver, rank = (arr(batch.sub_record, np.int64), arr(batch.sub_tier, np.int8),
                            arr(batch.sub_verdict, np.int8), arr(batch.sub_rank, np.float64))
    sup = (ver == 0).astype(float)
    n_sub = count(rec)
    n_sup = count(rec, w=sup)
    out: dict[str, np.ndarray] = {}
    out["factscore_precision"] = ratio(n_sup, n_sub)
    totals, supported = {}, {}
    for code, name in enumerate(("vital", "okay", "less_important")):
        mask = tier == code
        totals[code] = count(rec, mask)
        supported[code] = count(rec, mask, sup)
        out[f"{name}_precision"] = ratio(supported[code], totals[code])
    tier_w = np.array([weights.vital, weights.okay, weights.less_important, 0.0])[tier]
    wp = ratio(count(rec, w=tier_w * sup), count(rec, w=tier_w))
    out["weighted_precision"] = wp

    ranked = arr(batch.ranked, bool)
    n_of = n_sub[rec]

    def decay(scheme: str, top_k: int | None):
        n_eff = n_of if top_k is None else np.minimum(n_of, top_k)
        keep = rank > 0 if top_k is None else (rank > 0) & (rank <= top_k)
        i = np.where(keep, rank, 1.0)
        w = (n_eff - i) / i if scheme == "release" else (n_eff - i + 1) / np.where(n_eff > 0, n_eff, 1.0)
        w = np.where(keep, w, 0.0)
        return ratio(count(rec, w=w * sup), count(rec, w=w), ranked)

    out["decay_precision"] = decay("release", None)
    out["decay_precision_top5"] = decay("release", TOP_K)
    out["linear_decay_precision"] = decay("linear", None)
    out["linear_decay_precision_top5"] = decay("linear", TOP_K)
    out["rlp"] = np.where(totals[0] > 0, (supported[0] < totals[0]).astype(float), nan)
    out["n_subclaims"] = n_sub
    out["n_supported"] = n_sup
    out["n_vital"], out["n_okay"], out["n_less_important"] = totals[0], totals[1], totals[2]
    out["n_unlabelled"] = count(rec, tier == 3)
    out["n_not_judged"] = count(rec, ver == 3)
    out["n_contradicted"] = count(rec, ver == 1)

    # nuggets
    nrec, ntier, nassign, npos = (arr(batch.nug_record, np.int64), arr(batch.nug_tier, np.int8),
                                  arr(batch.nug_assign, np.int8), arr(batch.nug_position, np.float64))
    has_assign = arr(batch.has_assignment, bool)
    has_nuggets = arr(batch.has_nuggets, bool)
    full = (nassign == 0).astype(float)
    part = (nassign == 1).astype(float)
    vital_n = ntier == 0
    n_nug = count(nrec)
    n_vnug = count(nrec, vital_n)
    unassigned = count(nrec, nassign == 3) > 0
    unassigned_vital = count(nrec, vital_n & (nassign == 3)) > 0
    ok_all = has_assign & ~unassigned
    ok_vital = has_assign & ~unassigned_vital
    out["nugget_recall"] = ratio(count(nrec, w=full), n_nug, ok_all)
    out["nugget_recall_partial"] = ratio(count(nrec, w=full + 0.5 * part), n_nug, ok_all)
    out["vital_recall"] = ratio(count(nrec, vital_n, full), n_vnug, ok_vital)
    out["vital_recall_partial"] = ratio(count(nrec, vital_n, full + 0.5 * part), n_vnug, ok_vital)
    nug_w = np.array([weights.vital, weights.okay, 0.0, 0.0])[ntier]
    wr = ratio(count(nrec, w=nug_w * (full + part)), count(nrec, w=nug_w), ok_all & (n_nug > 0))
    out["weighted_recall"] = wr
    out["weighted_f1"] = harmonic(wp, wr)

    def nugget_decay(top_k: int | None):
        n_of_nug = n_nug[nrec]
        n_eff = n_of_nug if top_k is None else np.minimum(n_of_nug, top_k)
        keep = npos <= (top_k if top_k is not None else np.inf)
        w = np.where(keep, (n_eff - npos) / npos, 0.0)
        return ratio(count(nrec, w=w * (full + part)), count(nrec, w=w), ok_all)

    out["decay_recall"] = nugget_decay(None)
    out["decay_recall_top5"] = nugget_decay(TOP_K)
    out["rlr"] = np.where(ok_vital & (n_vnug > 0), (count(nrec, vital_n, full) < n_vnug).astype(float), nan)
    out["n_nuggets"] = np.where(has_nuggets, n_nug, nan)
    out["n_vital_nuggets"] = np.where(has_nuggets, n_vnug, nan)

    # factual correctness and WIMPE
    rrec, rtier, rver = (arr(batch.ref_record, np.int64), arr(batch.ref_tier, np.int8),
                         arr(batch.ref_verdict, np.int8))
    has_ref = arr(batch.has_reference, bool)
    fc_tot = arr(batch.fc_total, np.float64)
    checked = ~np.isnan(fc_tot)
    fcp = np.where(checked, ratio(arr(batch.fc_supported, np.float64), np.nan_to_num(fc_tot), checked),
                   ratio(n_sup, n_sub, arr(batch.evidence_reference, bool)))
    fcr = ratio(count(rrec, w=(rver == 0).astype(float)), count(rrec), has_ref)
    out["fc_precision"], out["fc_recall"], out["fc_f1"] = fcp, fcr, harmonic(fcp, fcr)
    ref_w = np.array([3.0, 2.0, 1.0, 0.0])[rtier]
    ref_den = count(rrec, w=ref_w)
    wpa_ref = ratio(count(rrec, w=ref_w * (rver == 0)), ref_den, has_ref)
    pcp_ref = ratio(count(rrec, w=ref_w * (rver == 1)), ref_den, has_ref)
    nug_wimpe_w = np.array([3.0, 2.0, 0.0, 0.0])[ntier]
    wpa_nug = ratio(count(nrec, w=nug_wimpe_w * (full + 0.5 * part)), count(nrec, w=nug_wimpe_w),
                    ok_all & (n_nug > 0))
    out["wpa"] = np.where(has_ref, wpa_ref, wpa_nug)
    out["pcp"] = np.where(has_ref, pcp_ref, nan)
    return out
