"""Long scoring runs in the app: the size limit of one response, and the progress a page shows while
the pipeline runs (steps started out of the steps expected, the current step, the seconds so far)."""
from __future__ import annotations

from typing import Mapping

from vital_core.pipeline import MAX_WORDS   # the core's limit for one response (score --max-words)


def too_long(texts: Mapping[str, str], what: str = "response") -> str | None:
    """One sentence for the first text over the core's word limit, or None. ``texts``: variant -> text;
    ``what`` names a lone text ("response") or, with several, each one ("{name} response")."""
    for name, text in texts.items():
        words = len(text.split())
        if words > MAX_WORDS:
            label = what if len(texts) == 1 else f"{name} {what}"
            return (f"The {label} has {words:,} words, more than the limit of {MAX_WORDS:,} for one response "
                    f"(scoring it would take minutes); shorten it and score again.")
    return None


def expected_steps(n_responses: int, documents: bool, reference: bool, against_normal: bool = False) -> int:
    """How many steps ``pipeline.score_example`` announces through ``on_step`` at most: per response
    decompose, rank and verify (and, with a reference, its claims checked against the response, plus the
    response's claims against the reference when documents decide the verdicts); per example the
    reference's decomposition, and with documents building and assigning the nuggets. ``against_normal``
    (no documents, no reference, ``EVIDENCE_NORMAL``): the normal is decomposed and ranked only, every other
    response is also checked for the normal's claims, and the nuggets are built from the normal."""
    if against_normal:
        return 2 + (n_responses - 1) * 4 + 2
    per_response = 3 + (1 if reference else 0) + (1 if reference and documents else 0)
    per_example = (1 if reference else 0) + (2 if documents else 0)
    return max(1, n_responses * per_response + per_example)


def progress(started: int, total: int, message: str, seconds: float) -> tuple[float, str]:
    """The bar's value and its line while a run goes: it never shows done before the run returns."""
    share = min(started / max(total, 1), 0.99)
    step = f"step {min(started, total)} of {total}: {message}" if message else "starting"
    return share, f"{step} · {seconds:.0f} s so far"
