"""One claim judged offline against one passage: the unit tests' way to ask the verifier; and the reasons of
a text's claims that contradict their own quote."""
from __future__ import annotations

from bench.bench_user_text import reason_contradicts_quote
from vital_core.backends.offline.decompose import decompose
from vital_core.backends.offline.verify import ClaimVerdict, verify_claims
from vital_core.results.model import CONTRADICTED, Document


def verdict_on(claim: str, passage: str) -> ClaimVerdict:
    return verify_claims([claim], [Document(id="P", text=passage)])[0]


def contradicted_quoting(claim: str, passage: str, *values: str) -> bool:
    """Is the claim contradicted by the passage with a reason that names each of ``values`` (both sides of a
    changed value)?"""
    verdict = verdict_on(claim, passage)
    return verdict.verdict == CONTRADICTED and all(v in verdict.reason for v in values)


def claims_of(text: str) -> list[str]:
    """The offline decomposer's claims of a text, in order."""
    return [c for _, claims in decompose(text) for c in claims]


def bad_reasons(claims: list[str], documents: list[Document], reference: bool = False) -> list[str]:
    """Each claim whose reason says a word or value is absent that the quoted sentence contains, with why."""
    verdicts = verify_claims(claims, documents, reference=reference)
    return [f"{c}: {why} ({v.reason})" for c, v in zip(claims, verdicts)
            if (why := reason_contradicts_quote(v.reason))]
