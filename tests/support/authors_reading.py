"""Independent reference: the VITAL paper's table / figure / significance numbers from a release's raw files.

Written from notes/paper_conventions.md (a description of the authors' scripts in miriamwanner/vitalerrors),
not from the scripts themselves. Each rule carries a comment naming the authors' script and function it
describes. Plain Python + numpy + scipy; nothing from vital_core.

Values are fractions (the paper prints x100; the multiplier rule Q7 is a display matter and is not applied).

Entry points:
  expected_tables(root)  -> {query_type: {condition: {key: value}}}
  expected_tests(root)   -> list of significance rows (paper mode)
  holm(pvalues), mcnemar(b, c) -> the two hand-written statistics helpers
"""
from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import numpy as np
from scipy import stats

CONDITIONS = ("normal", "missing", "wrong")

# get_data/data_setup/data_info.py (repeated in every analysis script): dataset -> subset folders, in order
DATASET_SUBSETS = {
    "factscore": ["bios"],
    "wildhallucinations": ["cult_ent_1", "cult_ent_2", "cult_ent_3", "cult_ent_4", "geographic"],
    "bright": ["biology", "earth_science", "economics", "psychology", "robotics", "stackoverflow",
               "sustainable_living"],
    "hotpotqa": ["val_1", "val_2"],
    "naturalquestions": ["val_1", "val_2"],
    "triviaqa": ["rc_1", "rc_2"],
}
# analysis/*.py main: Open-Ended = ['factscore', 'wildhallucinations', 'bright'],
# Single-Answer = ['hotpotqa', 'naturalquestions', 'triviaqa']; revisions/stat-sig/stat_sig.py adds All (all six)
QUERY_TYPES = {
    "open-ended": ["factscore", "wildhallucinations", "bright"],
    "single-answer": ["hotpotqa", "naturalquestions", "triviaqa"],
}
GROUPS = {**QUERY_TYPES, "all": QUERY_TYPES["open-ended"] + QUERY_TYPES["single-answer"]}

# revisions/stat-sig/stat_sig.py: metric order, pair order (difference = first - second)
CONTINUOUS = ["factscore_precision", "vital_precision", "decay_precision", "nugget_recall", "vital_recall",
              "decay_recall"]
BINARY = ["rlp", "rlr"]
PAIRS = [("normal", "missing"), ("normal", "wrong"), ("missing", "wrong")]


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def subsets_of(root: Path, datasets: list[str]) -> list[tuple[str, str]]:
    """(dataset, subset) folders present under root, in the scripts' hard-coded order."""
    root = Path(root)
    return [(d, s) for d in datasets for s in DATASET_SUBSETS[d] if (root / d / s).is_dir()]


# ------------------------------------------------------------------ per-record values

def _atoms(decomposition: list[dict]) -> list[dict]:
    return [a for sent in decomposition for a in sent["decomp"]]


def nugget_values(rec: dict) -> dict:
    """Every nugget-derived per-record value for one nuggets-out record."""
    assignment = rec["response"]["nugget-assignment"]
    nuggets = rec["nuggets"]
    vital = okay = 0
    strict_vital = strict_okay = 0
    lenient_vital = 0
    for support, nugget in zip(assignment, nuggets):
        # analysis/get_counts_error_tables.py get_nugget_scores: counts are made INSIDE
        # zip(nugget-assignment, nuggets), so a short assignment list truncates them (Q8)
        if nugget["importance"] == "vital":
            vital += 1
            # analysis/precision_recall_table.py get_nugget_scores: STRICT, only "support" counts
            # (the +0.5 partial branches are commented out)
            if support == "support":
                strict_vital += 1
            # analysis/get_counts_error_tables.py get_nugget_scores (Table 5 version): LENIENT,
            # "support" adds 1 and "partial_support" also adds 1 (# 0.5 comment); anything else is unsupported
            if support == "support" or support == "partial_support":
                lenient_vital += 1
        elif nugget["importance"] == "okay":
            okay += 1
            if support == "support":
                strict_okay += 1
    # analysis/precision_recall_table.py get_nugget_scores: nuggets-strict-all =
    # (strict vital + strict okay) / len(line["nuggets"]) -- the FULL list, not the zip; 0 when there are no nuggets
    strict_all = (strict_vital + strict_okay) / len(nuggets) if len(nuggets) else 0
    # analysis/precision_recall_table.py get_nugget_scores: nuggets-vital-recall = strict vital / vital,
    # 0 when there is no vital nugget (and that 0 enters the mean, Q4)
    vital_recall = strict_vital / vital if vital else 0
    # analysis/get_counts_error_tables.py get_nugget_scores: lenient vital recall, 0 with no vital nugget;
    # create_comparison_chart_two_bars metric2 any-vital-nuggets-unsupported = 1 if recall < 1 (Q4: no vital -> 1)
    lenient_vital_recall = lenient_vital / vital if vital else 0
    return {
        "n_vital_nuggets": vital, "n_okay_nuggets": okay,
        "nugget_recall": strict_all, "vital_recall": vital_recall,
        "rlr": 1 if lenient_vital_recall < 1 else 0,
    }


def nugget_values_statsig(rec: dict) -> dict:
    """revisions/stat-sig/stat_sig.py load_subset_scores: the same strict recalls as Table 4, and the RLR flag
    from a lenient recall that counts ``support != "not_support"``; flag = 0 if recall >= 1 else 1."""
    assignment = rec["response"]["nugget-assignment"]
    nuggets = rec["nuggets"]
    vital = lenient = 0
    for support, nugget in zip(assignment, nuggets):
        if nugget["importance"] == "vital":
            vital += 1
            if support != "not_support":
                lenient += 1
    recall = lenient / vital if vital else 0
    base = nugget_values(rec)
    return {"nugget_recall": base["nugget_recall"], "vital_recall": base["vital_recall"],
            "rlr": 0 if recall >= 1 else 1}


def new_metric_values(rec: dict) -> dict:
    """Per-record values taken from new-metric-out ``scores``."""
    # analysis/get_counts_error_tables.py get_new_metric_scores (the SECOND definition, which reads
    # line["scores"]; the first one is dead code, Q9). Every record is kept.
    s = rec["scores"]
    return {
        "n_vital": s["vital-subclaims"], "n_okay": s["okay-subclaims"],
        "n_less_important": s["less-important-subclaims"],
        # analysis/precision_recall_table.py: VITAL_PREC = scores["vital-precision"], every record
        "vital_precision": s["vital-precision"],
        # analysis/get_counts_error_tables.py get_new_metric_scores: any-vital-wrong = 1 if vital-precision < 1
        # (no vital subclaim -> precision 0 -> flagged, Q3)
        "rlp": 1 if s["vital-precision"] < 1 else 0,
        # analysis/precision_recall_one_graph.py create_linear_decay_chart: straight from scores
        "decay_precision": s["linear-decay-precision"], "decay_recall": s["linear-decay-recall"],
        "decay_precision_top5": s["linear-decay-precision-topk"],
        "decay_recall_top5": s["linear-decay-recall-topk"],
    }


# ------------------------------------------------------------------ per-file means

def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else float("nan")


def file_means(root: Path, dataset: str, subset: str, condition: str) -> dict:
    """Step 1 of the mean of subset means: the plain mean over one (dataset, subset, condition) file."""
    folder = Path(root) / dataset / subset / condition
    fs = read_jsonl(folder / "factscore-out.jsonl")
    nug = read_jsonl(folder / "nuggets-out.jsonl")
    nm = read_jsonl(folder / "new-metric-out.jsonl")
    out: dict[str, float] = {}

    # analysis/precision_recall_table.py get_scores: only records with `if line["score"]:` -- drops null AND 0.0 (Q1)
    kept = [r for r in fs if r["score"]]
    out["factscore_precision"] = _mean([r["score"] for r in kept])
    # analysis/precision_recall_table.py get_scores (SAFE ablation, revisions/safe-ablation/safe_scores_table.py):
    # same truthy filter; n_facts = all subclaims, n_sup = judgment == True; K = statistics.median(n_facts) per file;
    # recall = min(n_sup / K, 1); F1 = 2*score*recall/(score+recall) with no zero guard
    n_facts = [len(_atoms(r["decomposition"])) for r in kept]
    k = statistics.median(n_facts) if n_facts else float("nan")
    f1s = []
    for r, nf in zip(kept, n_facts):
        n_sup = sum(1 for a in _atoms(r["decomposition"]) if a["judgment"] == True)  # noqa: E712 (identity to True)
        recall = min(n_sup / k, 1)
        f1s.append(2 * r["score"] * recall / (r["score"] + recall))
    out["f1_at_k"] = _mean(f1s)
    out["safe_k"] = k

    per_nm = [new_metric_values(r) for r in nm]
    for key in ("n_vital", "n_okay", "n_less_important", "vital_precision", "rlp", "decay_precision",
                "decay_recall", "decay_precision_top5", "decay_recall_top5"):
        out[key] = _mean([v[key] for v in per_nm])
    per_nug = [nugget_values(r) for r in nug]
    for key in ("n_vital_nuggets", "n_okay_nuggets", "nugget_recall", "vital_recall", "rlr"):
        out[key] = _mean([v[key] for v in per_nug])
    return out


TABLE_KEYS = ["n_vital", "n_okay", "n_less_important", "n_subclaims", "n_vital_nuggets", "n_okay_nuggets",
              "n_nuggets", "factscore_precision", "vital_precision", "nugget_recall", "vital_recall", "rlp", "rlr",
              "decay_precision", "decay_recall", "decay_precision_top5", "decay_recall_top5", "f1_at_k"]


def _nanmean(values: list[float]) -> float:
    vals = [v for v in values if not math.isnan(v)]
    return float(np.mean(vals)) if vals else float("nan")


def expected_tables(root: Path) -> dict:
    """{query_type: {condition: {key: value}}} for every Table 3/4/5, Figure 5 and F1@K key."""
    result: dict = {}
    for qt, datasets in QUERY_TYPES.items():
        result[qt] = {}
        subsets = subsets_of(root, datasets)
        if not subsets:
            continue
        for cond in CONDITIONS:
            rows = [file_means(root, d, s, cond) for d, s in subsets]
            # every analysis script: rows filtered to the type's datasets, then groupby('prompt').mean() --
            # an unweighted mean over subset folders (pandas skips NaN rows)
            vals = {key: _nanmean([r[key] for r in rows]) for key in rows[0]}
            # analysis/get_counts_error_tables.py print_comparison_data: TOTAL = sum of the UNROUNDED tier means
            vals["n_subclaims"] = vals["n_vital"] + vals["n_okay"] + vals["n_less_important"]
            vals["n_nuggets"] = vals["n_vital_nuggets"] + vals["n_okay_nuggets"]
            result[qt][cond] = {key: vals[key] for key in TABLE_KEYS}
    return result


# ------------------------------------------------------------------ significance (revisions/stat-sig/stat_sig.py)

def statsig_vectors(root: Path, dataset: str, subset: str, condition: str) -> dict[str, list[float]]:
    """stat_sig.py load_subset_scores: one aligned per-record vector per metric for one file."""
    folder = Path(root) / dataset / subset / condition
    fs = read_jsonl(folder / "factscore-out.jsonl")
    nug = read_jsonl(folder / "nuggets-out.jsonl")
    # stat_sig.py load_subset_scores reads importance-rank-new-metric-out.jsonl (Q6); the release layout has
    # new-metric-out.jsonl, whose values reproduce the tables, so that file is read here
    nm = read_jsonl(folder / "new-metric-out.jsonl")
    out: dict[str, list[float]] = {}
    # stat_sig.py load_subset_scores: factscore = score, NaN only when `score is None` (0.0 is KEPT, unlike Table 4)
    out["factscore_precision"] = [float("nan") if r["score"] is None else float(r["score"]) for r in fs]
    nmv = [new_metric_values(r) for r in nm]
    out["vital_precision"] = [float(v["vital_precision"]) for v in nmv]
    out["decay_precision"] = [float(v["decay_precision"]) for v in nmv]
    out["decay_recall"] = [float(v["decay_recall"]) for v in nmv]
    # stat_sig.py load_subset_scores: any-vital-wrong = 0 if vital-precision >= 1 else 1
    out["rlp"] = [0 if r["scores"]["vital-precision"] >= 1 else 1 for r in nm]
    ngv = [nugget_values_statsig(r) for r in nug]
    out["nugget_recall"] = [float(v["nugget_recall"]) for v in ngv]
    out["vital_recall"] = [float(v["vital_recall"]) for v in ngv]
    out["rlr"] = [v["rlr"] for v in ngv]
    return out


def holm(pvalues: list[float]) -> list[float]:
    """statsmodels multipletests(p, method="holm")[1], by hand: sort ascending, multiply the i-th smallest
    (0-based) by (m - i), running maximum, clip at 1, put back in the input order."""
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="mergesort")
    adjusted = np.maximum.accumulate(p[order] * np.arange(m, 0, -1))
    adjusted = np.minimum(adjusted, 1.0)
    out = np.empty(m)
    out[order] = adjusted
    return out.tolist()


def mcnemar(b: int, c: int) -> tuple[float, float, bool]:
    """stat_sig.py run_binary_tests: statsmodels mcnemar(table, exact=exact, correction=not exact) with
    exact = (b + c) < 25. Exact: statistic min(b, c), p = min(1, 2 * binom.cdf(min(b, c), b + c, 0.5)).
    Otherwise chi-square with continuity correction: (|b - c| - 1)^2 / (b + c), p from chi2(1)."""
    exact = (b + c) < 25
    if exact:
        stat = float(min(b, c))
        p = float(min(1.0, 2 * stats.binom.cdf(min(b, c), b + c, 0.5)))
    else:
        stat = (abs(b - c) - 1) ** 2 / (b + c)
        p = float(stats.chi2.sf(stat, 1))
    return stat, p, exact


def _subset_mean_of_means(per_subset: list[list[float]]) -> float:
    """stat_sig.py subset_mean_of_means: per subset the mean of the non-NaN values of that condition alone
    (not restricted to pairs); subsets with no valid value are skipped; then the unweighted mean."""
    means = []
    for vals in per_subset:
        good = [v for v in vals if not math.isnan(v)]
        if good:
            means.append(float(np.mean(good)))
    return float(np.mean(means)) if means else float("nan")


def _continuous_row(group: str, metric: str, c1: str, c2: str, per_subset: dict) -> dict:
    # stat_sig.py pooled_group_vectors: concatenate every subset's vector of the group, in order
    a_all = np.array([v for vec in per_subset[c1] for v in vec], dtype=float)
    b_all = np.array([v for vec in per_subset[c2] for v in vec], dtype=float)
    # stat_sig.py run_continuous_tests: drop pairs where either side is NaN (only factscore has NaN)
    keep = ~(np.isnan(a_all) | np.isnan(b_all))
    a, b = a_all[keep], b_all[keep]
    diff = a - b
    # stat_sig.py run_continuous_tests: ttest_rel with defaults (two-sided)
    t_stat, t_p = stats.ttest_rel(a, b)
    sd = float(np.std(diff, ddof=1))
    # stat_sig.py run_continuous_tests: Cohen's d_z = mean(diff)/std(diff, ddof=1), NaN if sd == 0
    dz = float(np.mean(diff)) / sd if sd > 0 else float("nan")
    if np.all(diff == 0):
        # stat_sig.py run_continuous_tests: all-zero diffs -> stat NaN, p 1.0, r 0.0
        w_stat, w_p, r = float("nan"), 1.0, 0.0
    else:
        # stat_sig.py run_continuous_tests: wilcoxon(a, b, zero_method="wilcox"), other arguments default
        res = stats.wilcoxon(a, b, zero_method="wilcox")
        w_stat, w_p = float(res.statistic), float(res.pvalue)
        # stat_sig.py run_continuous_tests: rank-biserial on non-zero diffs, average-tie ranks of |diff|,
        # r = (R+ - R-)/(R+ + R-), NaN if empty
        nz = diff[diff != 0]
        ranks = stats.rankdata(np.abs(nz))
        r_plus, r_minus = float(ranks[nz > 0].sum()), float(ranks[nz < 0].sum())
        r = (r_plus - r_minus) / (r_plus + r_minus) if len(nz) else float("nan")
    return {
        "kind": "continuous", "group": group, "metric": metric, "comparison": f"{c1} vs {c2}", "n": int(len(a)),
        # stat_sig.py run_continuous_tests: descriptive means are subset means of means, per condition alone
        "mean_a": _subset_mean_of_means(per_subset[c1]), "mean_b": _subset_mean_of_means(per_subset[c2]),
        # stat_sig.py run_continuous_tests: mean_diff from the POOLED paired diffs
        "mean_diff": float(np.mean(diff)),
        "t_stat": float(t_stat), "t_p": float(t_p), "cohens_dz": dz,
        "wilcoxon_stat": w_stat, "wilcoxon_p": w_p, "rank_biserial": r,
    }


def _binary_row(group: str, metric: str, c1: str, c2: str, per_subset: dict) -> dict:
    # stat_sig.py run_binary_tests: no NaN filtering; n = pooled length
    a = np.array([v for vec in per_subset[c1] for v in vec], dtype=int)
    b = np.array([v for vec in per_subset[c2] for v in vec], dtype=int)
    # stat_sig.py run_binary_tests: table [[both1, a1_b0], [a0_b1, both0]]
    a1_b0 = int(np.sum((a == 1) & (b == 0)))
    a0_b1 = int(np.sum((a == 0) & (b == 1)))
    stat, p, exact = mcnemar(a1_b0, a0_b1)
    # stat_sig.py run_binary_tests: rates are means of subset means; risk_diff = rate_p1 - rate_p2
    rate_a = _subset_mean_of_means([[float(x) for x in vec] for vec in per_subset[c1]])
    rate_b = _subset_mean_of_means([[float(x) for x in vec] for vec in per_subset[c2]])
    return {
        "kind": "binary", "group": group, "metric": metric, "comparison": f"{c1} vs {c2}", "n": int(len(a)),
        "rate_a": rate_a, "rate_b": rate_b, "risk_diff": rate_a - rate_b,
        "discordant_10": a1_b0, "discordant_01": a0_b1, "mcnemar_stat": stat, "mcnemar_p": p, "exact": exact,
    }


def expected_tests(root: Path) -> list[dict]:
    """Every paper-mode significance row, groups Open-Ended, Single-Answer, All."""
    rows: list[dict] = []
    for group, datasets in GROUPS.items():
        subsets = subsets_of(root, datasets)
        if not subsets:
            continue
        vectors = {cond: [statsig_vectors(root, d, s, cond) for d, s in subsets] for cond in CONDITIONS}
        cont, binr = [], []
        for metric in CONTINUOUS:
            per_subset = {cond: [v[metric] for v in vectors[cond]] for cond in CONDITIONS}
            for c1, c2 in PAIRS:
                cont.append(_continuous_row(group, metric, c1, c2, per_subset))
        for metric in BINARY:
            per_subset = {cond: [v[metric] for v in vectors[cond]] for cond in CONDITIONS}
            for c1, c2 in PAIRS:
                binr.append(_binary_row(group, metric, c1, c2, per_subset))
        # stat_sig.py main: Holm within each group, separately for the t family (18), the Wilcoxon family (18,
        # forced p = 1.0 included) and the McNemar family (6); nothing across groups
        for row, p in zip(cont, holm([r["t_p"] for r in cont])):
            row["t_p_holm"] = p
        for row, p in zip(cont, holm([r["wilcoxon_p"] for r in cont])):
            row["wilcoxon_p_holm"] = p
        for row, p in zip(binr, holm([r["mcnemar_p"] for r in binr])):
            row["mcnemar_p_holm"] = p
        rows += cont + binr
    return rows
