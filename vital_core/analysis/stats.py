"""Sensitivity statistics over a loaded set: the project's paired tests and the Figures 3-4 curves.

Every function takes the per-record frame of ``dataset.Dataset`` (one row per
(example, condition), one column per metric; missing value = undefined). The
tables' means are ``conventions``; the authors' own tests are ``paper_stats``.

* ``noticed`` / ``NOTICED_RULE``: when a metric noticed the damage in a variant.
* ``paired_tests``: each variant against its normal response, paired by
  example. Undefined metrics drop the pair (counted in ``n_dropped``). Scores:
  paired t-test and Wilcoxon signed-rank (scipy), Cohen's d_z. Flags: exact
  McNemar, i.e. the two-sided binomial test on the discordant pairs
  (scipy.stats.binomtest). Holm correction over the whole table. Detection
  rate: share of pairs where the metric ``noticed`` the damage (``NOTICED_RULE``,
  the same rule as the Compare page). ROC AUC: probability that a normal
  response scores better than a variant one (Mann-Whitney U / n1 n2; ties count 1/2).
* ``cumulative_precision_curves``: mean precision over the first n subclaims,
  per condition; ``well_supported`` keeps the points enough responses back.
"""
from __future__ import annotations

import warnings
from typing import Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from vital_core.metrics.catalog import METRICS, TESTED, MetricSpec
from vital_core.results.model import NORMAL, condition_order, ordered_conditions

UNKNOWN_GROUP = "unknown"

# When a metric "noticed" the damage in a variant: one rule for Compare's verdicts and the detection rate.
NOTICE_DROP = 0.10
NOTICED_RULE = (f"noticed = the score got worse by at least {NOTICE_DROP:.2f}, or the flag fires for the "
                f"variant but not for the normal response")
_TOLERANCE = 1e-12     # float noise: a drop of 0.1 computed as 0.0999... still counts


def _spec(spec_or_key: MetricSpec | str) -> MetricSpec:
    return METRICS[spec_or_key] if isinstance(spec_or_key, str) else spec_or_key


def worsening(spec_or_key: MetricSpec | str, normal, variant):
    """How much worse the variant scores than the normal, in the metric's bad direction
    (negative = better). Works on numbers and numpy arrays alike."""
    return (normal - variant) if _spec(spec_or_key).higher_is_better else (variant - normal)


def _noticed(spec: MetricSpec, normal, variant):
    """``noticed`` without the checks (anything not a flag is read as a score); elementwise on arrays."""
    if spec.kind == "flag":
        bad = not spec.higher_is_better          # the flag's value that reports an error
        return (variant == bad) & (normal != bad)
    return worsening(spec, normal, variant) >= NOTICE_DROP - _TOLERANCE


def noticed(spec_or_key: MetricSpec | str, normal_value, variant_value) -> bool | None:
    """Did the metric notice the damage going from the normal response to the variant?

    Score: it got worse by at least ``NOTICE_DROP`` in the metric's bad
    direction. Flag: it fires for the variant but not for the normal. ``None``
    when either value is undefined. Counts describe a response, they do not
    judge it: ValueError.
    """
    spec = _spec(spec_or_key)
    if spec.kind not in ("score", "flag"):
        raise ValueError(f"{spec.key} is a {spec.kind}; only scores and flags notice damage")
    if normal_value is None or variant_value is None:
        return None
    return bool(_noticed(spec, normal_value, variant_value))


def _metric_list(frame: pd.DataFrame, metrics: Iterable[str] | None, kinds=("score", "flag", "count")) -> list[str]:
    keys = list(metrics) if metrics is not None else [k for k, m in METRICS.items() if m.kind in kinds]
    return [k for k in keys if k in frame.columns]


def _groups(frame: pd.DataFrame, by: str | None):
    if by is None:
        yield {}, frame
        return
    keys = frame[by].astype(object).where(frame[by].notna(), UNKNOWN_GROUP)
    for value in sorted(keys.unique(), key=str):
        yield {by: value}, frame[keys == value]


def _as_float(series: pd.Series) -> np.ndarray:
    """Values as floats with NaN for undefined (flags become 1.0 / 0.0)."""
    if series.dtype == np.float64:
        return series.to_numpy()
    if isinstance(series.dtype, pd.api.extensions.ExtensionDtype) and series.dtype.kind in "biuf":
        return series.to_numpy(dtype=float, na_value=np.nan)
    return pd.to_numeric(series.astype(object).where(series.notna(), np.nan), errors="coerce").to_numpy(float)


def _pair_rows(part: pd.DataFrame, baseline: str, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """Row positions (in ``part``) of matched (baseline, variant) records, by example_id."""
    cond = part["condition"].to_numpy(dtype=object)
    ids = part["example_id"].to_numpy(dtype=object)
    base_rows = np.flatnonzero(cond == baseline)
    var_rows = np.flatnonzero(cond == variant)
    where = pd.Index(ids[var_rows]).get_indexer(ids[base_rows])
    found = where >= 0
    return base_rows[found], var_rows[where[found]]


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm-Bonferroni step-down adjusted p-values; undefined stays undefined.

    Sorted ascending, p_(i) becomes max_{j<=i} min(1, (m - j + 1) p_(j)) over
    the m defined p-values (Holm, 1979). (statsmodels' multipletests computes
    the same but forces a full garbage collection on every call.)
    """
    p = np.array([np.nan if v is None else v for v in pvalues], dtype=float)
    out: list[float | None] = [None] * len(p)
    idx = np.flatnonzero(~np.isnan(p))
    m = idx.size
    if m:
        order = idx[np.argsort(p[idx], kind="stable")]
        adjusted = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
        for i, v in zip(order, adjusted):
            out[i] = float(v)
    return out


def _nan_to_none(value) -> float | None:
    if value is None:
        return None
    value = float(value)
    return None if np.isnan(value) else value


def roc_auc(normal: np.ndarray, variant: np.ndarray, higher_is_better: bool = True) -> float | None:
    """P(normal scores better than variant) + 0.5 P(tie) = U / (n1 n2) (Mann-Whitney)."""
    if normal.size == 0 or variant.size == 0:
        return None
    a, b = (normal, variant) if higher_is_better else (-normal, -variant)
    u = sps.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic").statistic
    return float(u / (a.size * b.size))


EXACT_WILCOXON_MAX = 50   # scipy's own limit for its exact Wilcoxon distribution


def wilcoxon_method(diff: np.ndarray) -> str:
    """Wilcoxon's method, chosen here rather than by scipy's ``auto``: exact for at most 50 pairs without
    ties or zero differences, else the normal approximation. It equals ``auto`` except for at most 13
    pairs with ties or zeros, where ``auto`` enumerates every sign pattern (up to 8192 permutations a
    test: tens of seconds for a page of tests). Passing the method keeps the result the same across
    scipy versions (>= 1.13, where ``asymptotic`` got its name)."""
    nonzero = diff[diff != 0]
    exact_ok = nonzero.size <= EXACT_WILCOXON_MAX and nonzero.size == diff.size \
        and np.unique(np.abs(nonzero)).size == nonzero.size
    return "exact" if exact_ok else "asymptotic"


def mcnemar_exact(b: int, c: int) -> float:
    """Exact McNemar p-value: two-sided binomial test of b successes in b + c discordant pairs."""
    if b + c == 0:
        return 1.0
    return float(sps.binomtest(b, b + c, 0.5).pvalue)


def _test_pairs(key: str, base: np.ndarray, var: np.ndarray) -> dict:
    spec = METRICS.get(key) or MetricSpec(key, key, "score", True, "", "")   # unknown columns: scores
    kind, better_high = spec.kind, spec.higher_is_better
    n = base.size
    row: dict = {"kind": kind, "n_pairs": n}
    row["mean_baseline"] = float(base.mean()) if n else None
    row["mean_condition"] = float(var.mean()) if n else None
    diff = var - base
    row["mean_diff"] = float(diff.mean()) if n else None
    for col in ("t_stat", "t_p", "wilcoxon_stat", "wilcoxon_p", "mcnemar_b", "mcnemar_c", "mcnemar_p",
                "effect_size", "p_primary"):
        row[col] = None
    if kind == "flag":
        # flag True = error found; b: raised only for the variant, c: only for the normal
        b = int(((base == 0) & (var == 1)).sum())
        c = int(((base == 1) & (var == 0)).sum())
        row.update(mcnemar_b=b, mcnemar_c=c, effect_kind="rate difference")
        row["effect_size"] = float((b - c) / n) if n else None
        if n:
            row["mcnemar_p"] = row["p_primary"] = mcnemar_exact(b, c)
    else:
        row["effect_kind"] = "Cohen's d_z"
        if n >= 2:
            sd = diff.std(ddof=1)
            row["effect_size"] = float(diff.mean() / sd) if sd > 0 else None
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if sd > 0:
                    t = sps.ttest_rel(var, base)
                    row["t_stat"], row["t_p"] = _nan_to_none(t.statistic), _nan_to_none(t.pvalue)
                if np.any(diff != 0):
                    try:
                        w = sps.wilcoxon(var, base, method=wilcoxon_method(diff))
                        row["wilcoxon_stat"], row["wilcoxon_p"] = _nan_to_none(w.statistic), _nan_to_none(w.pvalue)
                    except ValueError:
                        pass
            row["p_primary"] = row["t_p"]
    row["detection_rate"] = float(_noticed(spec, base, var).mean()) if n else None   # counts: as scores
    row["auc"] = roc_auc(base, var, better_high)
    return row


TEST_COLUMNS = ["condition", "metric", "kind", "n_pairs", "n_dropped", "mean_baseline", "mean_condition", "mean_diff",
                "effect_size", "effect_kind", "t_stat", "t_p", "wilcoxon_stat", "wilcoxon_p", "mcnemar_b",
                "mcnemar_c", "mcnemar_p", "p_primary", "p_holm", "wilcoxon_p_holm", "detection_rate", "auc"]


def paired_tests(frame: pd.DataFrame, baseline: str = NORMAL, metrics: Iterable[str] | None = None,
                 by: str | None = None, variants: Iterable[str] | None = None) -> pd.DataFrame:
    """Each variant vs ``baseline``, per metric (and per ``by`` group): tests, effect size, detection, AUC.

    ``p_primary`` is the paired t-test p for scores and McNemar's for flags;
    ``p_holm`` / ``wilcoxon_p_holm`` are Holm-adjusted over every row of the
    returned table. Metrics with no defined pair are left out.
    """
    keys = _metric_list(frame, metrics if metrics is not None else TESTED)
    rows = []
    for extra, part in _groups(frame, by):
        present = ordered_conditions(part["condition"])
        if baseline not in present:
            continue
        numeric = {key: _as_float(part[key]) for key in keys}
        for variant in (list(variants) if variants is not None else [c for c in present if c != baseline]):
            base_rows, var_rows = _pair_rows(part, baseline, variant)
            for key in keys:
                a, b = numeric[key][base_rows], numeric[key][var_rows]
                keep = ~(np.isnan(a) | np.isnan(b))
                if not keep.any():
                    continue
                rows.append({**extra, "condition": variant, "metric": key, "n_dropped": int((~keep).sum()),
                             **_test_pairs(key, a[keep], b[keep])})
    out = pd.DataFrame(rows, columns=([by] if by else []) + TEST_COLUMNS)
    if not out.empty:
        out["p_holm"] = holm(list(out["p_primary"]))
        out["wilcoxon_p_holm"] = holm(list(out["wilcoxon_p"]))
    return out.astype(object).where(out.notna(), None)


# --------------------------------------------------------------------------- curves

def _as_dataset(dataset_or_examples):
    from vital_core.results.dataset import Dataset, dataset_from_examples
    if isinstance(dataset_or_examples, Dataset):
        return dataset_or_examples
    return dataset_from_examples(list(dataset_or_examples))


def _row_groups(frame: pd.DataFrame, by: str | None) -> tuple[np.ndarray, list[tuple[dict, str]]]:
    """A group number per frame row (condition, or condition x ``by``) and each group's labels."""
    cond = frame["condition"].astype(str)
    if by:
        extra = frame[by].astype(object).where(frame[by].notna(), UNKNOWN_GROUP).astype(str)
        keys = list(zip(extra, cond))
    else:
        keys = [("", c) for c in cond]
    order = sorted(set(keys), key=lambda k: (k[0], *condition_order(k[1])))
    number = {k: i for i, k in enumerate(order)}
    labels = [({by: k[0]} if by else {}, k[1]) for k in order]
    return np.array([number[k] for k in keys], dtype=np.int64), labels


def _curve_rows(group: np.ndarray, position: np.ndarray, value: np.ndarray, labels, pos_name: str,
                limit: int | None, by: str | None) -> pd.DataFrame:
    """Mean of ``value`` per (group, position), with the count."""
    ok = ~np.isnan(value)
    if limit is not None:
        ok &= position <= limit
    cols = ([by] if by else []) + ["condition", pos_name, "precision", "n"]
    if not ok.any():
        return pd.DataFrame(columns=cols)
    width = int(position[ok].max()) + 1
    key = group[ok] * width + position[ok]
    sums = np.bincount(key, weights=value[ok], minlength=len(labels) * width)
    counts = np.bincount(key, minlength=len(labels) * width)
    rows = []
    for k in np.flatnonzero(counts):
        g, p = divmod(int(k), width)
        extra, condition = labels[g]
        rows.append({**extra, "condition": condition, pos_name: p, "precision": sums[k] / counts[k],
                     "n": int(counts[k])})
    return pd.DataFrame(rows, columns=cols)


# Figures 3-4: a curve point averaging few responses is noise (the tail past n ~ 25 averages 1-14 answers).
CURVE_MIN_SHARE, CURVE_MIN_RESPONSES = 0.10, 5
CURVE_RULE = (f"a point is drawn while at least {CURVE_MIN_SHARE:.0%} of the condition's responses (and at "
              f"least {CURVE_MIN_RESPONSES}) have that many subclaims")


def well_supported(curve: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """The points of a curve that ``CURVE_RULE`` keeps: per condition (and group), n at least the share
    of the responses at position 1 and at least the minimum count."""
    if curve.empty:
        return curve
    keys = ([by] if by else []) + ["condition"]
    first = curve.groupby(keys)["n"].transform("max")
    return curve[(curve["n"] >= CURVE_MIN_SHARE * first) & (curve["n"] >= CURVE_MIN_RESPONSES)]


def cumulative_precision_curves(dataset_or_examples, order: str = "response", by: str | None = None,
                                max_position: int | None = None) -> pd.DataFrame:
    """Mean precision over the first n subclaims, per condition and n (paper Figures 3-4).

    ``order`` is "response" or "importance" (unranked responses fall back to
    response order, as ``metrics.cumulative_precision`` does). ``n`` counts
    the responses with at least that many subclaims.
    """
    if order not in ("response", "importance"):
        raise ValueError(f"order must be 'response' or 'importance' (got {order!r})")
    ds = _as_dataset(dataset_or_examples)
    sub = ds.subclaims
    row = sub["row"].to_numpy(np.int64)
    key = sub["position"].to_numpy(np.int64)
    if order == "importance":
        rank = sub["rank"].to_numpy(np.int64)
        key = np.where(rank > 0, rank, key)
    sort = np.lexsort((key, row))
    row, sup = row[sort], sub["supported"].to_numpy(bool)[sort].astype(float)
    starts = np.searchsorted(row, row)             # first index of each subclaim's row
    cum = np.cumsum(sup)
    before = np.where(starts > 0, cum[starts - 1], 0.0)
    n = np.arange(row.size) - starts + 1
    value = (cum - before) / n
    group, labels = _row_groups(ds.frame, by)
    return _curve_rows(group[row], n, value, labels, "position", max_position, by)


def detection_frame(tests: pd.DataFrame, by: str | None) -> pd.DataFrame:
    """The detection rate of each tested (condition, metric) of ``paired_tests``, metrics by their label: the
    data of the detection chart (the Sensitivity page and ``report --figures``)."""
    det = tests[["condition", "metric", "detection_rate", "n_pairs"] + ([by] if by else [])].copy()
    det = det[det["detection_rate"].notna()]
    det["metric"] = [METRICS[k].label if k in METRICS else k for k in det["metric"]]
    det["detection_rate"] = det["detection_rate"].astype(float)
    return det
