"""One claim judged offline against one passage: the unit tests' way to ask the verifier."""
from __future__ import annotations

from vital_core.backends.offline.verify import ClaimVerdict, verify_claims
from vital_core.results.model import CONTRADICTED, Document


def verdict_on(claim: str, passage: str) -> ClaimVerdict:
    return verify_claims([claim], [Document(id="P", text=passage)])[0]


def contradicted_quoting(claim: str, passage: str, *values: str) -> bool:
    """Is the claim contradicted by the passage with a reason that names each of ``values`` (both sides of a
    changed value)?"""
    verdict = verdict_on(claim, passage)
    return verdict.verdict == CONTRADICTED and all(v in verdict.reason for v in values)
