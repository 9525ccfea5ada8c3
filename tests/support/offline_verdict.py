"""One claim judged offline against one passage: the unit tests' way to ask the verifier."""
from __future__ import annotations

from vital_core.backends.offline.verify import ClaimVerdict, verify_claims
from vital_core.results.model import Document


def verdict_on(claim: str, passage: str) -> ClaimVerdict:
    return verify_claims([claim], [Document(id="P", text=passage)])[0]
