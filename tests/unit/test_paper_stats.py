"""The authors' significance procedure (vital_core.analysis.paper_stats) on fixed inputs with hand-checkable values.

Inputs are multiples of 1/8, so every difference is exact and ties are real ties.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from tests.support import authors_reading as ar
from vital_core.analysis import paper_stats as ps
from vital_core.analysis import stats

A = np.array([1, 7, 6, 5, 8, 3, 4, 8, 2, 6, 7, 5, 1, 8, 4, 6, 3, 7, 5, 2], dtype=float) / 8
B = np.array([0, 5, 6, 2, 7, 3, 1, 4, 2, 5, 3, 5, 2, 6, 1, 4, 3, 2, 5, 1], dtype=float) / 8


def test_continuous_matches_scipy_and_the_authors_formulas():
    row = ps._continuous(A, B)
    diff = A - B
    t = sps.ttest_rel(A, B)
    # 20 pairs with ties and zeros: scipy's `auto` would use the normal approximation too (n > 13)
    w = sps.wilcoxon(A, B, zero_method="wilcox")
    nonzero = diff[diff != 0]
    ranks = sps.rankdata(np.abs(nonzero))
    r_plus, r_minus = ranks[nonzero > 0].sum(), ranks[nonzero < 0].sum()
    assert row["n"] == 20
    assert row["t_p"] == pytest.approx(t.pvalue, rel=1e-12)
    assert row["cohens_dz"] == pytest.approx(diff.mean() / diff.std(ddof=1), rel=1e-12)
    assert row["wilcoxon_stat"] == pytest.approx(w.statistic, rel=1e-12)
    assert row["wilcoxon_p"] == pytest.approx(w.pvalue, rel=1e-12)
    assert row["rank_biserial"] == pytest.approx((r_plus - r_minus) / (r_plus + r_minus), rel=1e-12)
    assert row["rank_biserial"] == pytest.approx(1 - 2 * r_minus / (r_plus + r_minus), rel=1e-12)


def test_wilcoxon_method_is_exact_only_without_ties_or_zeros_up_to_50_pairs():
    assert stats.wilcoxon_method(np.array([0.1, -0.2, 0.3])) == "exact"
    assert stats.wilcoxon_method(np.array([0.1, -0.1, 0.3])) == "asymptotic"      # a tie
    assert stats.wilcoxon_method(np.array([0.0, -0.2, 0.3])) == "asymptotic"      # a zero
    assert stats.wilcoxon_method(np.arange(1, 52, dtype=float)) == "asymptotic"  # more than 50 pairs
    # small samples with ties: scipy's `auto` would enumerate every sign pattern; ours is the approximation
    few = np.array([0.25, 0.25, -0.5, 0.5, 0.75])
    assert stats.wilcoxon_method(few) == "asymptotic"


def test_no_difference_at_all_gives_p_one_and_r_zero():
    row = ps._continuous(A, A)
    assert row["wilcoxon_p"] == 1.0 and row["rank_biserial"] == 0.0 and row["wilcoxon_stat"] is None


def test_mcnemar_and_holm_match_the_independent_reading():
    for b, c in [(0, 0), (3, 9), (12, 12), (24, 0), (20, 5), (59, 1394)]:
        assert ps.mcnemar(b, c) == pytest.approx(ar.mcnemar(b, c), rel=1e-12)
    p = [0.01, 0.04, 0.03, 0.2, None]
    expected = ar.holm([0.01, 0.04, 0.03, 0.2])
    assert ps.holm(p)[:4] == pytest.approx(expected, rel=1e-12) and ps.holm(p)[4] is None


def test_mcnemar_switches_to_chi_square_at_25_discordant_pairs():
    assert ps.mcnemar(20, 4)[2] is True
    stat, p, exact = ps.mcnemar(20, 5)
    assert exact is False and stat == pytest.approx((15 - 1) ** 2 / 25)
    assert p == pytest.approx(sps.chi2.sf(stat, 1))
