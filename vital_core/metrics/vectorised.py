"""Every metric of many responses at once, over flat integer columns (numpy).

``column_metrics`` runs the helpers of ``FAMILIES``, one per metric family (subclaim precision, decay
precision, nugget recall, factual correctness, WIMPE, combinations) over a ``_Columns``
view of the batch; each helper is the vectorised twin of the formulas in
``formulas`` (tests/unit/test_metrics.py and tests/unit/test_metric_catalog.py check that they agree).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from vital_core.metrics.catalog import METRICS
from vital_core.metrics.codes import (
    ASSIGNMENT_CODE,
    CONTRADICTED_CODE,
    LESS_IMPORTANT_CODE,
    NOT_JUDGED_CODE,
    NOT_SUPPORT_CODE,
    OKAY_CODE,
    PARTIAL_CODE,
    SUPPORT_CODE,
    SUPPORTED_CODE,
    TIER_CODE,
    TIERS_BY_CODE,
    UNASSIGNED_CODE,
    UNLABELLED_CODE,
    VERDICT_CODE,
    VITAL_CODE,
)
from vital_core.metrics.formulas import (
    DEFAULT_WEIGHTS,
    PARTIAL_CREDIT,
    TOP_K,
    WIMPE_WEIGHTS,
    TierWeights,
    nothing_checked,
)
from vital_core.metrics.response import ScoringInput
from vital_core.results.model import AGAINST_AN_ANSWER, LESS_IMPORTANT, OKAY, SUPPORTED, VITAL


class MetricColumns:
    """Collects many responses' scoring inputs as flat integer columns for ``column_metrics``.

    ``column_metrics`` computes exactly the metrics of ``compute_metrics`` (the
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
        self.unchecked: list[bool] = []        # nothing was checked (formulas.nothing_checked)

    def add_codes(self, tiers: list[int], verdicts: list[int], ranks: list[int] | None,
                  nugget_tiers: list[int] | None = None, assignment: list[int] | None = None,
                  ref_tiers: list[int] | None = None, ref_verdicts: list[int] | None = None,
                  evidence_reference: bool = False, fc_counts: tuple[int, int] | None = None,
                  unchecked: bool = False) -> int:
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
            self.nug_assign.extend(assignment if assignment is not None else [UNASSIGNED_CODE] * m)
            self.nug_position.extend(range(1, m + 1))
        self.has_reference.append(ref_verdicts is not None)
        if ref_verdicts is not None:
            self.ref_record.extend([r] * len(ref_verdicts))
            self.ref_tier.extend(ref_tiers or [])
            self.ref_verdict.extend(ref_verdicts)
        self.evidence_reference.append(evidence_reference)
        self.unchecked.append(unchecked)
        self.fc_supported.append(float("nan") if fc_counts is None else fc_counts[0])
        self.fc_total.append(float("nan") if fc_counts is None else fc_counts[1])
        return r

    _COLUMNS = {"sub_record": "int32", "sub_tier": "int8", "sub_verdict": "int8", "sub_rank": "int32",
                "nug_record": "int32", "nug_tier": "int8", "nug_assign": "int8", "nug_position": "int32",
                "ref_record": "int32", "ref_tier": "int8", "ref_verdict": "int8", "ranked": "bool",
                "has_nuggets": "bool", "has_assignment": "bool", "has_reference": "bool",
                "evidence_reference": "bool", "fc_supported": "float64", "fc_total": "float64", "unchecked": "bool"}
    _RECORD_COLUMNS = ("sub_record", "nug_record", "ref_record")

    def freeze(self) -> "MetricColumns":
        """The same batch with numpy columns (compact to keep, pickle or concatenate)."""
        out = MetricColumns()
        out.n = self.n
        for name, dtype in self._COLUMNS.items():
            setattr(out, name, np.asarray(getattr(self, name), dtype=dtype))
        return out

    @classmethod
    def concat(cls, parts: list["MetricColumns"]) -> "MetricColumns":
        """One batch of several (their records numbered on, in order)."""
        parts = [p.freeze() if isinstance(p.sub_record, list) else p for p in parts]
        out = MetricColumns()
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
            data.evidence_mode in AGAINST_AN_ANSWER,
            None if data.fc_verdicts is None
            else (sum(v == SUPPORTED for v in data.fc_verdicts), len(data.fc_verdicts)),
            nothing_checked(data.evidence_mode, data.verdicts))


def _by_tier_code(weights: dict[str, float]) -> np.ndarray:
    """A weight per tier code (0 for a label without one, e.g. unlabelled), to index with a code column."""
    return np.array([weights.get(label, 0.0) for label in TIERS_BY_CODE])


class _Columns:
    """A batch's columns as numpy arrays, with per-record sums and ratios over them."""

    def __init__(self, batch: MetricColumns):
        self.n = batch.n
        arr = np.asarray
        # subclaims
        self.rec, self.tier = arr(batch.sub_record, np.int64), arr(batch.sub_tier, np.int8)
        self.ver, self.rank = arr(batch.sub_verdict, np.int8), arr(batch.sub_rank, np.float64)
        self.sup = (self.ver == SUPPORTED_CODE).astype(float)
        self.ranked = arr(batch.ranked, bool)
        # nuggets
        self.nrec, self.ntier = arr(batch.nug_record, np.int64), arr(batch.nug_tier, np.int8)
        self.nassign, self.npos = arr(batch.nug_assign, np.int8), arr(batch.nug_position, np.float64)
        self.full = (self.nassign == SUPPORT_CODE).astype(float)
        self.part = (self.nassign == PARTIAL_CODE).astype(float)
        self.has_nuggets, self.has_assignment = arr(batch.has_nuggets, bool), arr(batch.has_assignment, bool)
        # the reference's claims and the separate reference check
        self.rrec, self.rtier = arr(batch.ref_record, np.int64), arr(batch.ref_tier, np.int8)
        self.rver = arr(batch.ref_verdict, np.int8)
        self.has_ref, self.evidence_reference = arr(batch.has_reference, bool), arr(batch.evidence_reference, bool)
        self.fc_supported, self.fc_total = arr(batch.fc_supported, np.float64), arr(batch.fc_total, np.float64)

    def count(self, records: np.ndarray, mask=None, w=None) -> np.ndarray:
        """Per record: how many rows (``mask``-ed), or the sum of ``w`` over them."""
        if mask is not None:
            records = records[mask]
            w = None if w is None else w[mask]
        return np.bincount(records, weights=w, minlength=self.n).astype(float)

    def ratio(self, num: np.ndarray, den: np.ndarray, defined=None) -> np.ndarray:
        """num / den per record; NaN (undefined) where den is 0 or ``defined`` is False."""
        ok = den > 0 if defined is None else defined & (den > 0)
        out = np.full(self.n, np.nan)
        np.divide(num, den, out=out, where=ok)
        return out


def _harmonic(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    """F1 per record (``formulas.f1``): NaN when either side is, 0 when both are 0."""
    den = p + r
    out = np.where(den > 0, 2 * p * r / np.where(den > 0, den, 1.0), 0.0)
    return np.where(np.isnan(p) | np.isnan(r), np.nan, out)


def _precision(c: _Columns, weights: TierWeights) -> dict[str, np.ndarray]:
    """FactScore, per-tier and weighted precision, RLP and the subclaim counts."""
    out: dict[str, np.ndarray] = {}
    n_sub, n_sup = c.count(c.rec), c.count(c.rec, w=c.sup)
    out["factscore_precision"] = c.ratio(n_sup, n_sub)
    totals, supported = {}, {}
    for code, name in ((VITAL_CODE, "vital"), (OKAY_CODE, "okay"), (LESS_IMPORTANT_CODE, "less_important")):
        mask = c.tier == code
        totals[code], supported[code] = c.count(c.rec, mask), c.count(c.rec, mask, c.sup)
        out[f"{name}_precision"] = c.ratio(supported[code], totals[code])
    tier_w = _by_tier_code({VITAL: weights.vital, OKAY: weights.okay, LESS_IMPORTANT: weights.less_important})[c.tier]
    out["weighted_precision"] = c.ratio(c.count(c.rec, w=tier_w * c.sup), c.count(c.rec, w=tier_w))
    out["rlp"] = np.where(totals[VITAL_CODE] > 0,
                          (supported[VITAL_CODE] < totals[VITAL_CODE]).astype(float), np.nan)
    out["n_subclaims"], out["n_supported"] = n_sub, n_sup
    out["n_vital"], out["n_okay"] = totals[VITAL_CODE], totals[OKAY_CODE]
    out["n_less_important"] = totals[LESS_IMPORTANT_CODE]
    out["n_unlabelled"] = c.count(c.rec, c.tier == UNLABELLED_CODE)
    out["n_not_judged"] = c.count(c.rec, c.ver == NOT_JUDGED_CODE)
    out["n_contradicted"] = c.count(c.rec, c.ver == CONTRADICTED_CODE)
    return out


def _decay_precision(c: _Columns) -> dict[str, np.ndarray]:
    """Release ((n-i)/i) and linear ((n-i+1)/n) decay over the importance order, all and top k."""
    n_of = c.count(c.rec)[c.rec]

    def decay(scheme: str, top_k: int | None) -> np.ndarray:
        n_eff = n_of if top_k is None else np.minimum(n_of, top_k)
        keep = c.rank > 0 if top_k is None else (c.rank > 0) & (c.rank <= top_k)
        i = np.where(keep, c.rank, 1.0)
        w = (n_eff - i) / i if scheme == "release" else (n_eff - i + 1) / np.where(n_eff > 0, n_eff, 1.0)
        w = np.where(keep, w, 0.0)
        return c.ratio(c.count(c.rec, w=w * c.sup), c.count(c.rec, w=w), c.ranked)

    return {"decay_precision": decay("release", None), "decay_precision_top5": decay("release", TOP_K),
            "linear_decay_precision": decay("linear", None),
            "linear_decay_precision_top5": decay("linear", TOP_K)}


def _nugget_recall(c: _Columns, weights: TierWeights) -> dict[str, np.ndarray]:
    """AutoNuggetizer recall (all / vital x strict / partial), weighted and decay recall, RLR, counts."""
    vital_n = c.ntier == VITAL_CODE
    unassigned = c.nassign == UNASSIGNED_CODE
    n_nug, n_vnug = c.count(c.nrec), c.count(c.nrec, vital_n)
    ok_all = c.has_assignment & ~(c.count(c.nrec, unassigned) > 0)
    ok_vital = c.has_assignment & ~(c.count(c.nrec, vital_n & unassigned) > 0)
    partial = c.full + PARTIAL_CREDIT * c.part
    nug_w = _by_tier_code({VITAL: weights.vital, OKAY: weights.okay, LESS_IMPORTANT: weights.less_important})[c.ntier]
    n_of = n_nug[c.nrec]

    def decay(top_k: int | None) -> np.ndarray:
        n_eff = n_of if top_k is None else np.minimum(n_of, top_k)
        keep = c.npos <= (top_k if top_k is not None else np.inf)
        w = np.where(keep, (n_eff - c.npos) / c.npos, 0.0)
        return c.ratio(c.count(c.nrec, w=w * (c.full + c.part)), c.count(c.nrec, w=w), ok_all)

    return {
        "nugget_recall": c.ratio(c.count(c.nrec, w=c.full), n_nug, ok_all),
        "nugget_recall_partial": c.ratio(c.count(c.nrec, w=partial), n_nug, ok_all),
        "vital_recall": c.ratio(c.count(c.nrec, vital_n, c.full), n_vnug, ok_vital),
        "vital_recall_partial": c.ratio(c.count(c.nrec, vital_n, partial), n_vnug, ok_vital),
        "weighted_recall": c.ratio(c.count(c.nrec, w=nug_w * (c.full + c.part)), c.count(c.nrec, w=nug_w),
                                   ok_all & (n_nug > 0)),
        "decay_recall": decay(None), "decay_recall_top5": decay(TOP_K),
        "rlr": np.where(ok_vital & (n_vnug > 0), (c.count(c.nrec, vital_n, c.full) < n_vnug).astype(float), np.nan),
        "n_nuggets": np.where(c.has_nuggets, n_nug, np.nan),
        "n_vital_nuggets": np.where(c.has_nuggets, n_vnug, np.nan),
        "n_okay_nuggets": np.where(c.has_nuggets, c.count(c.nrec, c.ntier == OKAY_CODE), np.nan),
        "n_vital_nuggets_missed": np.where(ok_vital, c.count(c.nrec, vital_n & (c.nassign == NOT_SUPPORT_CODE)),
                                           np.nan)}


def _factual_correctness(c: _Columns) -> dict[str, np.ndarray]:
    """Precision (the separate reference check, else subclaims verified against the reference), recall, F1."""
    checked = ~np.isnan(c.fc_total)
    fcp = np.where(checked, c.ratio(c.fc_supported, np.nan_to_num(c.fc_total), checked),
                   c.ratio(c.count(c.rec, w=c.sup), c.count(c.rec), c.evidence_reference))
    fcr = c.ratio(c.count(c.rrec, w=(c.rver == SUPPORTED_CODE).astype(float)), c.count(c.rrec), c.has_ref)
    return {"fc_precision": fcp, "fc_recall": fcr, "fc_f1": _harmonic(fcp, fcr)}


def _wimpe(c: _Columns) -> dict[str, np.ndarray]:
    """WPA and PCP over the reference's claims when there is a reference, else WPA over the nuggets."""
    wimpe_w = _by_tier_code(WIMPE_WEIGHTS)
    ref_w = wimpe_w[c.rtier]
    ref_den = c.count(c.rrec, w=ref_w)
    wpa_ref = c.ratio(c.count(c.rrec, w=ref_w * (c.rver == SUPPORTED_CODE)), ref_den, c.has_ref)
    pcp_ref = c.ratio(c.count(c.rrec, w=ref_w * (c.rver == CONTRADICTED_CODE)), ref_den, c.has_ref)
    nug_w = wimpe_w[c.ntier]
    complete = c.has_assignment & ~(c.count(c.nrec, c.nassign == UNASSIGNED_CODE) > 0) & (c.count(c.nrec) > 0)
    wpa_nug = c.ratio(c.count(c.nrec, w=nug_w * (c.full + PARTIAL_CREDIT * c.part)), c.count(c.nrec, w=nug_w),
                      complete)
    return {"wpa": np.where(c.has_ref, wpa_ref, wpa_nug), "pcp": np.where(c.has_ref, pcp_ref, np.nan)}


def _combinations(c: _Columns, weights: TierWeights, out: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Metrics made of other metrics' columns (``formulas.f1`` of weighted precision and recall)."""
    return {"weighted_f1": _harmonic(out["weighted_precision"], out["weighted_recall"])}


Family = Callable[[_Columns, TierWeights, dict], dict]
# The numpy twins, one family of metrics each, run in this order (a family may read earlier columns):
# together they compute every per-response key of the catalog (tests/unit/test_metric_catalog.py checks it).
FAMILIES: list[Family] = [
    lambda c, weights, out: _precision(c, weights),
    lambda c, weights, out: _decay_precision(c),
    lambda c, weights, out: _nugget_recall(c, weights),
    lambda c, weights, out: _factual_correctness(c),
    lambda c, weights, out: _wimpe(c),
    _combinations,
]


def column_metrics(batch: MetricColumns, weights: TierWeights = DEFAULT_WEIGHTS) -> dict:
    """Every metric of ``compute_metrics`` for all responses of a batch, as numpy columns.

    Scores and flags are float arrays (flags 1.0 / 0.0) with NaN = undefined;
    counts are float arrays (NaN only for nugget counts without nuggets).
    """
    c = _Columns(batch)
    out: dict[str, np.ndarray] = {}
    for family in FAMILIES:
        out.update(family(c, weights, out))
    unchecked = np.asarray(batch.unchecked, dtype=bool)
    if unchecked.any():   # nothing was checked: every verdict-based score is undefined (formulas.nothing_checked)
        for key in [k for k, spec in METRICS.items() if "verdicts" in spec.requires and k in out]:
                out[key] = np.where(unchecked, np.nan, out[key])
    return out
