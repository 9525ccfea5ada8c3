"""Every metric of many responses at once, over flat integer columns (numpy)."""
from __future__ import annotations

from vital_core.metrics.codes import ASSIGNMENT_CODE, TIER_CODE, VERDICT_CODE
from vital_core.metrics.formulas import DEFAULT_WEIGHTS, TOP_K, TierWeights
from vital_core.metrics.response import ScoringInput
from vital_core.model import EVIDENCE_REFERENCE, SUPPORTED


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
