"""The authors' significance procedure (revisions/stat-sig/stat_sig.py), for the ``paper`` convention.

Per query-type group (open-ended, single-answer, and all together) the records
are pooled and paired across conditions by example; each pair of conditions
(normal vs missing, normal vs wrong, missing vs wrong) is tested:

* scores: paired t-test, Wilcoxon signed-rank (zeros dropped), Cohen's d_z and
  the rank-biserial r; pairs with an undefined value are dropped;
* flags: McNemar, exact (binomial) below 25 discordant pairs, else
  chi-square with continuity correction; effect = difference of the rates.

Holm's correction runs within each group, separately for the t-tests, the
Wilcoxon tests and the McNemar tests. The means shown beside a test are the
``paper`` convention's means (mean of per-subset means), as the authors report.

Wilcoxon's method is ``stats.wilcoxon_method``: what scipy's ``auto`` does for the
authors' samples (thousands of pairs: the normal approximation), without its slow
permutation path for tiny samples with ties.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import stats as sps

from vital_core.analysis import stats
from vital_core.analysis.conventions import mean_of_subset_means, paper_test_values
from vital_core.analysis.stats import holm
from vital_core.results.model import CONDITIONS, OPEN_ENDED, SINGLE_ANSWER

ALL_GROUP = "all"
GROUPS = (OPEN_ENDED, SINGLE_ANSWER, ALL_GROUP)
CONTINUOUS = ["factscore_precision", "vital_precision", "decay_precision", "nugget_recall", "vital_recall",
              "decay_recall"]
BINARY = ["rlp", "rlr"]
PAIRS = [(a, b) for i, a in enumerate(CONDITIONS) for b in CONDITIONS[i + 1:]]
EXACT_BELOW = 25          # stat_sig.py: exact McNemar below 25 discordant pairs


def rank_biserial(diff: np.ndarray) -> float | None:
    """(R+ - R-) / (R+ + R-) over the non-zero differences, ranked by size (ties averaged)."""
    nonzero = diff[diff != 0]
    if nonzero.size == 0:
        return None
    ranks = sps.rankdata(np.abs(nonzero))
    plus, minus = ranks[nonzero > 0].sum(), ranks[nonzero < 0].sum()
    return float((plus - minus) / (plus + minus))


def mcnemar(b: int, c: int) -> tuple[float, float, bool]:
    """(statistic, p, exact): the binomial test below ``EXACT_BELOW`` discordant pairs, else chi-square
    with continuity correction (what statsmodels' mcnemar(exact=..., correction=not exact) computes)."""
    n = b + c
    if n < EXACT_BELOW:
        p = 1.0 if n == 0 else float(min(1.0, 2 * sps.binom.cdf(min(b, c), n, 0.5)))
        return float(min(b, c)), p, True
    stat = (abs(b - c) - 1) ** 2 / n
    return float(stat), float(sps.chi2.sf(stat, 1)), False


def _none(value) -> float | None:
    return None if value is None or not np.isfinite(value) else float(value)


def _continuous(a: np.ndarray, b: np.ndarray) -> dict:
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    diff = a - b
    row = {"n": int(a.size), "mean_diff": _none(diff.mean()) if a.size else None,
           "t_stat": None, "t_p": None, "cohens_dz": None, "wilcoxon_stat": None, "wilcoxon_p": None,
           "rank_biserial": None}
    if a.size < 2:
        return row
    sd = diff.std(ddof=1)
    row["cohens_dz"] = _none(diff.mean() / sd) if sd > 0 else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = sps.ttest_rel(a, b)
        row["t_stat"], row["t_p"] = _none(t.statistic), _none(t.pvalue)
        if np.all(diff == 0):      # stat_sig.py: no difference at all -> p 1, r 0
            row.update(wilcoxon_p=1.0, rank_biserial=0.0)
        else:
            w = sps.wilcoxon(a, b, zero_method="wilcox", method=stats.wilcoxon_method(diff))
            row["wilcoxon_stat"], row["wilcoxon_p"] = _none(w.statistic), _none(w.pvalue)
            row["rank_biserial"] = rank_biserial(diff)
    return row


def _binary(a: np.ndarray, b: np.ndarray) -> dict:
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep].astype(bool), b[keep].astype(bool)
    d10, d01 = int((a & ~b).sum()), int((~a & b).sum())
    stat, p, exact = mcnemar(d10, d01)
    return {"n": int(a.size), "discordant_10": d10, "discordant_01": d01, "mcnemar_stat": stat,
            "mcnemar_p": p, "exact": exact}


def _paired(values: pd.Series, frame: pd.DataFrame, first: str, second: str) -> tuple[np.ndarray, np.ndarray]:
    by_condition = {c: values[frame["condition"] == c].set_axis(frame.loc[frame["condition"] == c, "example_id"])
                    for c in (first, second)}
    ids = by_condition[first].index.intersection(by_condition[second].index, sort=False)
    return (by_condition[first].reindex(ids).to_numpy(float), by_condition[second].reindex(ids).to_numpy(float))


def _group_frames(frame: pd.DataFrame):
    for group in GROUPS:
        part = frame if group == ALL_GROUP else frame[frame["query_type"] == group]
        if len(part):
            yield group, part


def paper_tests(frame: pd.DataFrame) -> list[dict]:
    """Every test of the authors' procedure that the data allows, with Holm per group and test type."""
    rows: list[dict] = []
    for group, part in _group_frames(frame):
        values = paper_test_values(part)
        means = mean_of_subset_means(values[CONTINUOUS + BINARY], part)
        group_rows = []
        for kind, metrics in (("continuous", CONTINUOUS), ("binary", BINARY)):
            for metric in metrics:
                if values[metric].isna().all():
                    continue
                for first, second in PAIRS:
                    if first not in means.index or second not in means.index:
                        continue
                    a, b = _paired(values[metric], part, first, second)
                    test = _continuous(a, b) if kind == "continuous" else _binary(a, b)
                    mean_a, mean_b = _none(means.at[first, metric]), _none(means.at[second, metric])
                    labels = ("mean_a", "mean_b") if kind == "continuous" else ("rate_a", "rate_b")
                    row = {"kind": kind, "group": group, "metric": metric, "comparison": f"{first} vs {second}",
                           labels[0]: mean_a, labels[1]: mean_b, **test}
                    if kind == "binary":
                        row["risk_diff"] = None if mean_a is None or mean_b is None else mean_a - mean_b
                    group_rows.append(row)
        for kind, p_key in (("continuous", "t_p"), ("continuous", "wilcoxon_p"), ("binary", "mcnemar_p")):
            family = [r for r in group_rows if r["kind"] == kind]
            for r, adjusted in zip(family, holm([r[p_key] for r in family])):
                r[f"{p_key}_holm"] = adjusted
        rows += group_rows
    return rows
