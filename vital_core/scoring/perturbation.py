"""Backend-independent checks on generated ``missing`` and ``wrong`` variants.

The method perturbs a normal response minimally (paper, section 3.2 and
appendix A): ``missing`` removes the key information, so it must be shorter
and otherwise reuse the normal's words; ``wrong`` falsifies the key
information, so it must differ from the normal, and only in a few words.
Every backend's ``perturb`` and the ``perturb`` command run these checks; a
variant that fails them is reported, never kept.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from vital_core.results.model import MISSING, WRONG

PERTURBATION_KINDS = (MISSING, WRONG)

# Defaults: "wrong" may change at most this many words, and at most this share of
# the normal's words; "missing" must keep most of its words from the normal.
MAX_CHANGED_WORDS = 12
MAX_CHANGED_FRACTION = 0.3
MIN_KEPT_OVERLAP = 0.8

_WORD = re.compile(r"[A-Za-z0-9]+(?:['’.\-][A-Za-z0-9]+)*")


class PerturbationCheckError(ValueError):
    """A generated variant failed its check; ``result`` says why."""

    def __init__(self, result: "CheckResult"):
        super().__init__(result.message)
        self.result = result


@dataclass
class CheckResult:
    kind: str
    ok: bool
    message: str
    details: dict = field(default_factory=dict)


def words(text: str) -> list[str]:
    """Lower-cased word tokens (punctuation and spacing ignored)."""
    return [w.lower() for w in _WORD.findall(text or "")]


@dataclass
class WordChange:
    """The words of the normal replaced/removed and the variant's words put in their place."""
    removed: list[str]
    added: list[str]


def word_changes(normal: str, variant: str) -> list[WordChange]:
    """Word-level differences, ignoring case, punctuation and spacing."""
    a, b = words(normal), words(variant)
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op != "equal":
            out.append(WordChange(removed=a[i1:i2], added=b[j1:j2]))
    return out


def changed_word_count(normal: str, variant: str) -> int:
    """How many words differ: per changed span, the larger of removed and added."""
    return sum(max(len(c.removed), len(c.added)) for c in word_changes(normal, variant))


def check_missing(normal: str, missing: str, *, min_kept_overlap: float = MIN_KEPT_OVERLAP) -> CheckResult:
    """``missing`` must be non-empty, shorter than the normal, and mostly the normal's own words."""
    n_words, m_words = words(normal), words(missing)
    details = {"normal_words": len(n_words), "variant_words": len(m_words)}
    if not m_words:
        return CheckResult(MISSING, False, "the missing variant is empty", details)
    if len(m_words) >= len(n_words):
        return CheckResult(MISSING, False,
                           f"the missing variant is not shorter than the normal response "
                           f"({len(m_words)} words vs {len(n_words)})", details)
    # Share of the variant's words that come, in order, from the normal response.
    matcher = difflib.SequenceMatcher(a=n_words, b=m_words, autojunk=False)
    kept = sum(block.size for block in matcher.get_matching_blocks())
    overlap = kept / len(m_words)
    details["overlap"] = round(overlap, 4)
    if overlap < min_kept_overlap:
        return CheckResult(MISSING, False,
                           f"the missing variant rewrites the response instead of removing information "
                           f"(only {overlap:.0%} of its words follow the normal response; need "
                           f"{min_kept_overlap:.0%})", details)
    return CheckResult(MISSING, True,
                       f"removed {len(n_words) - len(m_words)} of {len(n_words)} words", details)


def check_wrong(normal: str, wrong: str, *, max_changed_words: int = MAX_CHANGED_WORDS,
                max_changed_fraction: float = MAX_CHANGED_FRACTION) -> CheckResult:
    """``wrong`` must differ from the normal, in few words (both a count and a share cap)."""
    n_words, w_words = words(normal), words(wrong)
    changed = changed_word_count(normal, wrong)
    details = {"normal_words": len(n_words), "variant_words": len(w_words), "changed_words": changed}
    if not w_words:
        return CheckResult(WRONG, False, "the wrong variant is empty", details)
    if changed == 0:
        return CheckResult(WRONG, False, "the wrong variant does not differ from the normal response",
                           details)
    limit = min(max_changed_words, max(1, int(max_changed_fraction * len(n_words))))
    details["limit"] = limit
    if changed > limit:
        return CheckResult(WRONG, False,
                           f"the wrong variant changes {changed} words; at most {limit} may differ "
                           f"from the normal response", details)
    return CheckResult(WRONG, True, f"changed {changed} word(s)", details)


def check_variant(kind: str, normal: str, variant: str, **options) -> CheckResult:
    """Run the check for ``kind`` (missing / wrong)."""
    if kind == MISSING:
        return check_missing(normal, variant, **options)
    if kind == WRONG:
        return check_wrong(normal, variant, **options)
    raise ValueError(f"unknown perturbation kind {kind!r}; expected one of {', '.join(PERTURBATION_KINDS)}")


def require_valid(kind: str, normal: str, variant: str, **options) -> CheckResult:
    """Like ``check_variant`` but raises ``PerturbationCheckError`` on failure."""
    result = check_variant(kind, normal, variant, **options)
    if not result.ok:
        raise PerturbationCheckError(result)
    return result
