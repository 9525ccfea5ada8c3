"""Long scoring runs in the app: the size limit of one response, and the progress a page shows while
the pipeline runs (messages announced out of ``pipeline.progress_messages``, the current step, the seconds so
far)."""
from __future__ import annotations

from typing import Mapping

from vital_core.scoring.pipeline import MAX_WORDS  # the core's limit for one response (score --max-words)


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


def progress(started: int, total: int, message: str, seconds: float) -> tuple[float, str]:
    """The bar's value and its line while a run goes: it never shows done before the run returns."""
    share = min(started / max(total, 1), 0.99)
    step = f"step {min(started, total)} of {total}: {message}" if message else "starting"
    return share, f"{step} · {seconds:.0f} s so far"
