"""Small integer codes of the labels, shared by the loader's hot path and the vectorised metrics."""
from __future__ import annotations

from vital_core.model import (CONTRADICTED, LESS_IMPORTANT, NOT_ENOUGH_EVIDENCE, NOT_JUDGED, NOT_SUPPORT, OKAY,
                              PARTIAL_SUPPORT, SUPPORT, SUPPORTED, UNLABELLED, VITAL)

# Small integer codes of the labels, used by the columnar (batch) path.
TIER_CODE = {VITAL: 0, OKAY: 1, LESS_IMPORTANT: 2, UNLABELLED: 3}
TIERS_BY_CODE = (VITAL, OKAY, LESS_IMPORTANT, UNLABELLED)
VERDICT_CODE = {SUPPORTED: 0, CONTRADICTED: 1, NOT_ENOUGH_EVIDENCE: 2, NOT_JUDGED: 3}
VERDICTS_BY_CODE = (SUPPORTED, CONTRADICTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED)
ASSIGNMENT_CODE = {SUPPORT: 0, PARTIAL_SUPPORT: 1, NOT_SUPPORT: 2, None: 3}   # 3 = this nugget unassigned
ASSIGNMENTS_BY_CODE = (SUPPORT, PARTIAL_SUPPORT, NOT_SUPPORT, None)


