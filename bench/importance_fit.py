"""Fitting the offline backend's importance weights to human labels (``bench_offline_quality --calibrate``,
and the held-out figures of its importance part): a ridge regression of the human tier on the features
(``vital_core.backends.offline.importance.claim_features``), the two score thresholds with the best
kappa, and the kappa cross-validated by query."""
from __future__ import annotations

import numpy as np

from vital_core.backends.offline import importance
from vital_core.results.model import CONDITIONS, LESS_IMPORTANT, OKAY, VITAL
from vital_core.scoring.labelling import record_subclaims

TIER = {LESS_IMPORTANT: 0, OKAY: 1, VITAL: 2}


def labels_of(record: dict) -> dict[str, str | None]:
    """A release record's importance labels by subclaim id."""
    return {str(c["id"]): c.get("importance") for s in record["decomposition"] for c in s["decomp"]}


def feature_table(records_by_condition: dict[str, list[dict]]):
    """(rows of features, human tier, condition, query index) over all labelled subclaims."""
    X, y, cond, group = [], [], [], []
    for condition, records in records_by_condition.items():
        for index, record in enumerate(records):
            subclaims = record_subclaims(record, f"{condition} record {index}")
            feats = importance.claim_features(record["query"], [s.text for s in subclaims],
                                              [s.sentence_index for s in subclaims],
                                              [s.sentence or s.text for s in subclaims])
            human = labels_of(record)
            for s, row in zip(subclaims, feats):
                if human.get(s.id) in TIER:
                    X.append(row)
                    y.append(TIER[human[s.id]])
                    cond.append(condition)
                    group.append(index)
    return np.array(X), np.array(y, dtype=float), np.array(cond), np.array(group)


RIDGE = 10.0


def fit_weights(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge regression of the ordinal tier (0/1/2) on the features; last entry = intercept."""
    Xb = np.c_[X, np.ones(len(X))]
    penalty = RIDGE * np.eye(Xb.shape[1])
    penalty[-1, -1] = 0.0
    return np.linalg.solve(Xb.T @ Xb + penalty, Xb.T @ y)


def kappa_codes(y: np.ndarray, p: np.ndarray) -> float:
    Y, P = np.eye(3)[y.astype(int)], np.eye(3)[p.astype(int)]
    weights = np.abs(np.subtract.outer(np.arange(3), np.arange(3))) / 2
    observed = Y.T @ P / len(y)
    expected = np.outer(observed.sum(1), observed.sum(0))
    return 1 - (weights * observed).sum() / (weights * expected).sum()


def fit_thresholds(scores: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The (okay, vital) score thresholds with the best pooled kappa on these labels."""
    grid = np.unique(np.quantile(scores, np.linspace(0.05, 0.95, 37)))
    best = (-np.inf, (float(grid[0]), float(grid[-1])))
    for low in grid:
        for high in grid[grid > low]:
            k = kappa_codes(y, (scores >= low).astype(int) + (scores >= high).astype(int))
            if k > best[0]:
                best = (k, (float(low), float(high)))
    return best[1]


def cross_validated_kappa(X, y, cond, group, folds: int = 10) -> dict[str, float]:
    """Kappa per condition with weights and thresholds refitted without the held-out queries."""
    predicted = np.zeros(len(y))
    for fold in range(folds):
        test = group % folds == fold
        w = fit_weights(X[~test], y[~test])
        train_scores = np.c_[X[~test], np.ones((~test).sum())] @ w
        low, high = fit_thresholds(train_scores, y[~test])
        s = np.c_[X[test], np.ones(test.sum())] @ w
        predicted[test] = (s >= low).astype(int) + (s >= high).astype(int)
    return {c: float(kappa_codes(y[cond == c], predicted[cond == c])) for c in CONDITIONS}


def repeated_cross_validated_kappa(X, y, cond, group, repeats: int = 5) -> dict[str, float]:
    """Mean 10-fold kappa over ``repeats`` random (seeded) assignments of queries to folds.

    With 30 queries one fold assignment can move the figure by a few hundredths
    either way; the mean over several is the steadier estimate.
    """
    n_groups = int(group.max()) + 1
    runs = []
    for seed in range(repeats):
        relabel = np.random.RandomState(seed).permutation(n_groups)
        runs.append(cross_validated_kappa(X, y, cond, relabel[group]))
    return {c: float(np.mean([r[c] for r in runs])) for c in CONDITIONS}
