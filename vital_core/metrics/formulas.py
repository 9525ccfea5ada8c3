"""Every per-response metric of the method, each a pure function with its formula.

One file on purpose (~400 lines): every formula of the method in one place, to read side by side.

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

import math
import statistics
from dataclasses import dataclass
from typing import Iterable, Sequence

from vital_core.results.model import (
    AGAINST_AN_ANSWER,
    CONTRADICTED,
    EVIDENCE_NONE,
    LESS_IMPORTANT,
    NOT_JUDGED,
    NOT_SUPPORT,
    OKAY,
    PARTIAL_SUPPORT,
    SUPPORT,
    SUPPORTED,
    VITAL,
    ResponseResult,
)

TOP_K = 5                     # the release's top-k decay variant
WIMPE_WEIGHTS = {VITAL: 3.0, OKAY: 2.0, LESS_IMPORTANT: 1.0}
PARTIAL_CREDIT = 0.5          # partial support in the partial recall variants and WIMPE's coverage


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
        if not all(math.isfinite(v) for v in values):
            raise ValueError(f"weights must be finite numbers, not inf or nan (got {text!r})")
        if any(v < 0 for v in values) or sum(values) == 0:
            raise ValueError(f"weights must be non-negative and not all zero (got {text!r})")
        return cls(*values)


DEFAULT_WEIGHTS = TierWeights()


def _ratio(num: float, den: float) -> float | None:
    return None if den == 0 else num / den


def _weighted_share(labels: Sequence[str], credits: Iterable[float], weights: TierWeights) -> float | None:
    """sum w(label) * credit / sum w(label) over the labels with a tier weight (not unlabelled)."""
    num = den = 0.0
    for label, credit in zip(labels, credits):
        w = weights.weight(label)
        if w is not None:
            den += w
            num += w * credit
    return _ratio(num, den)


# --------------------------------------------------------------------------- precision

def nothing_checked(evidence_mode: str, verdicts: Sequence[str]) -> bool:
    """No evidence was given and the verifier judged none of the claims (the offline verifier has no world
    knowledge): every verdict-based score is undefined then, not 0."""
    return evidence_mode == EVIDENCE_NONE and bool(verdicts) and all(v == NOT_JUDGED for v in verdicts)


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
    return _weighted_share(importance, (1.0 if v == SUPPORTED else 0.0 for v in verdicts), weights)


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
    return _weighted_share(nugget_importance, (_credit(a, partial_credit) for a in assignment), weights)


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


def vital_nuggets_missed(nugget_importance: Sequence[str], assignment: Sequence[str | None] | None) -> int | None:
    """Vital nuggets with no support at all (partial support counts as support): the paper's Table 5 RLR
    flags a response when this is above 0, or when there is no vital nugget."""
    if assignment is None:
        return None
    vital = [a for label, a in zip(nugget_importance, assignment) if label == VITAL]
    if any(a is None for a in vital):
        return None
    return sum(a == NOT_SUPPORT for a in vital)


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
    reference answer (``evidence_mode`` in ``AGAINST_AN_ANSWER``: the reference, or the normal response
    taken as correct).
    """
    if evidence_mode not in AGAINST_AN_ANSWER:
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
        return [ScoringPoint(WIMPE_WEIGHTS[label], _credit(a, PARTIAL_CREDIT), None)
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
