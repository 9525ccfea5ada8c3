"""The size limits of one record: the words of one response (``--max-words``) and the megabytes of its
documents and reference (``--max-evidence-mb`` / VITAL_MAX_EVIDENCE_MB). Over a limit, the text is not
sent to a backend: the response (or the record) keeps an error saying which limit and how to change it."""
from __future__ import annotations

import math
import os

from vital_core.results.model import Document

# The most words one response may have (``--max-words``): longer ones are refused with a message, not scored.
MAX_WORDS = 20_000
# The most megabytes of text (UTF-8) one record's documents and reference may hold together
# (``--max-evidence-mb``, else VITAL_MAX_EVIDENCE_MB): more is refused with a message, not scored. The
# offline backend needs minutes for each MB of documents (0.5 MB: 279 s on two shared cores), so the default
# leaves a record a chance within the default --record-timeout.
MAX_EVIDENCE_MB = 1.0
EVIDENCE_LIMIT_ENV = "VITAL_MAX_EVIDENCE_MB"


def too_long(text: str, max_words: int | None) -> str | None:
    """Why ``text`` is over the size limit for one response, or None."""
    if not max_words:
        return None
    words = len(text.split())
    if words <= max_words:
        return None
    return (f"the response has {words:,} words, more than the limit of {max_words:,} for one response "
            f"(--max-words); shorten it or raise the limit")


def evidence_limit_mb() -> float:
    """The evidence size limit: VITAL_MAX_EVIDENCE_MB when set, else ``MAX_EVIDENCE_MB``; ValueError (one
    sentence naming the variable) when it is not a number above 0."""
    text = os.environ.get(EVIDENCE_LIMIT_ENV, "").strip()
    if not text:
        return MAX_EVIDENCE_MB
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{EVIDENCE_LIMIT_ENV}={text!r}: expected a number of megabytes above 0")
    return value


def too_much_evidence(documents: list[Document], reference: str | None, limit_mb: float | None) -> str | None:
    """Why a record's documents and reference are over the size limit (``limit_mb``), or None."""
    if not limit_mb:
        return None
    size = sum(len(d.text.encode("utf-8", "replace")) + len(d.title.encode("utf-8", "replace")) for d in documents)
    size += len((reference or "").encode("utf-8", "replace"))
    if size <= limit_mb * 1e6:
        return None
    return (f"the documents and reference hold {size / 1e6:,.1f} MB of text, more than the limit of "
            f"{limit_mb:g} MB for one record (--max-evidence-mb or {EVIDENCE_LIMIT_ENV}); shorten them or raise "
            "the limit")
