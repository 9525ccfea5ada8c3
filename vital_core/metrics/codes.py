"""Small integer codes of the labels, shared by the loader's hot path and the vectorised metrics."""
from __future__ import annotations

from vital_core.results.model import (
                              ALL_IMPORTANCE,
                              CONTRADICTED,
                              LESS_IMPORTANT,
                              NOT_ENOUGH_EVIDENCE,
                              NOT_JUDGED,
                              NOT_SUPPORT,
                              OKAY,
                              PARTIAL_SUPPORT,
                              SUPPORT,
                              SUPPORTED,
                              TIER_RANK,
                              UNLABELLED,
                              VITAL,
)

# Importance (subclaims, reference claims and nuggets alike): the tier rank.
TIER_CODE = TIER_RANK                  # vital 0, okay 1, less-important 2, unlabelled 3
TIERS_BY_CODE = ALL_IMPORTANCE
VERDICT_CODE = {SUPPORTED: 0, CONTRADICTED: 1, NOT_ENOUGH_EVIDENCE: 2, NOT_JUDGED: 3}
VERDICTS_BY_CODE = (SUPPORTED, CONTRADICTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED)
ASSIGNMENT_CODE = {SUPPORT: 0, PARTIAL_SUPPORT: 1, NOT_SUPPORT: 2, None: 3}   # None = this nugget unassigned
ASSIGNMENTS_BY_CODE = (SUPPORT, PARTIAL_SUPPORT, NOT_SUPPORT, None)

# The codes by name, for the vectorised formulas.
VITAL_CODE, OKAY_CODE, LESS_IMPORTANT_CODE, UNLABELLED_CODE = (
    TIER_CODE[VITAL], TIER_CODE[OKAY], TIER_CODE[LESS_IMPORTANT], TIER_CODE[UNLABELLED])
SUPPORTED_CODE, CONTRADICTED_CODE, NOT_JUDGED_CODE = (
    VERDICT_CODE[SUPPORTED], VERDICT_CODE[CONTRADICTED], VERDICT_CODE[NOT_JUDGED])
SUPPORT_CODE, PARTIAL_CODE, NOT_SUPPORT_CODE, UNASSIGNED_CODE = (
    ASSIGNMENT_CODE[SUPPORT], ASSIGNMENT_CODE[PARTIAL_SUPPORT], ASSIGNMENT_CODE[NOT_SUPPORT], ASSIGNMENT_CODE[None])
