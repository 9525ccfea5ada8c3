"""The labels of the method, written once: importance tiers, verdicts, nugget importance and
assignments, every spelling of each that is accepted (files strictly, a model's reply leniently; the ones
read only roughly), and the method's ordering rule (vital first). ``vital_core.results.model`` holds them
as it holds everything a result is made of, and is where most code imports them from."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

# Importance tiers, most important first. "unlabelled" marks a subclaim the
# ranker failed to label: it is shown as such and never folded into a tier.
VITAL, OKAY, LESS_IMPORTANT, UNLABELLED = "vital", "okay", "less-important", "unlabelled"
IMPORTANCE_LABELS = (VITAL, OKAY, LESS_IMPORTANT)
ALL_IMPORTANCE = IMPORTANCE_LABELS + (UNLABELLED,)

# Verdicts of a subclaim against evidence. "not_judged" is the release's
# ``judgment: null``: counted as not supported, displayed as not judged.
SUPPORTED, CONTRADICTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED = (
    "supported", "contradicted", "not_enough_evidence", "not_judged")
VERDICTS = (SUPPORTED, CONTRADICTED, NOT_ENOUGH_EVIDENCE, NOT_JUDGED)

# Nugget importance and nugget-to-response assignment (AutoNuggetizer terms).
NUGGET_IMPORTANCE = (VITAL, OKAY)
SUPPORT, PARTIAL_SUPPORT, NOT_SUPPORT = "support", "partial_support", "not_support"
ASSIGNMENTS = (SUPPORT, PARTIAL_SUPPORT, NOT_SUPPORT)


class InvalidLabelError(ValueError):
    """An importance label, verdict or assignment outside the known set."""


# Every accepted spelling of a label, written once: the strict readers (files)
# and the lenient ones (a model's reply) share these tables. Keys are lower
# case with the separators folded as ``_fold`` does for that kind of label.
# A small local model answers in its own words ("Vital", "high", "entailed"):
# the plain synonyms are read here; a word that only roughly means a label is in
# ``APPROXIMATE_SPELLINGS`` and the response that used it carries a warning.
IMPORTANCE_SPELLINGS = {VITAL: VITAL, OKAY: OKAY, LESS_IMPORTANT: LESS_IMPORTANT, UNLABELLED: UNLABELLED,
                        "less": LESS_IMPORTANT, "lessimportant": LESS_IMPORTANT,
                        "less-importance": LESS_IMPORTANT,
                        "high": VITAL, "essential": VITAL, "important": VITAL,
                        "medium": OKAY, "moderate": OKAY, "ok": OKAY,
                        "low": LESS_IMPORTANT, "minor": LESS_IMPORTANT, "not-important": LESS_IMPORTANT,
                        "unimportant": LESS_IMPORTANT}
VERDICT_SPELLINGS = {
    SUPPORTED: SUPPORTED, "support": SUPPORTED, "supports": SUPPORTED, "entailment": SUPPORTED,
    "entailed": SUPPORTED, "entails": SUPPORTED,
    CONTRADICTED: CONTRADICTED, "contradiction": CONTRADICTED, "refuted": CONTRADICTED,
    "contradicts": CONTRADICTED, "refutes": CONTRADICTED,
    NOT_ENOUGH_EVIDENCE: NOT_ENOUGH_EVIDENCE, "neutral": NOT_ENOUGH_EVIDENCE, "unsupported": NOT_ENOUGH_EVIDENCE,
    "nei": NOT_ENOUGH_EVIDENCE, "not_enough_info": NOT_ENOUGH_EVIDENCE, "not_supported": NOT_ENOUGH_EVIDENCE,
    "insufficient_evidence": NOT_ENOUGH_EVIDENCE, "unverifiable": NOT_ENOUGH_EVIDENCE,
    "not_enough_information": NOT_ENOUGH_EVIDENCE,
    # FActScore's rule: only a fully supported claim counts, so part-support is not support (a warning says so).
    "partially_supported": NOT_ENOUGH_EVIDENCE, "partial_support": NOT_ENOUGH_EVIDENCE,
    "partially_true": NOT_ENOUGH_EVIDENCE, "mostly_supported": NOT_ENOUGH_EVIDENCE,
    NOT_JUDGED: NOT_JUDGED}
# The release's ``judgment`` (true / false / null), also as strings. A model answering true/false
# is read the same way (FActScore's True/False: false = not supported, never contradicted).
JUDGMENT_SPELLINGS = {"true": SUPPORTED, "false": NOT_ENOUGH_EVIDENCE, "none": NOT_JUDGED}
# What a verifier may answer (a reply of "not judged" is no answer).
JUDGED_VERDICTS = (SUPPORTED, CONTRADICTED, NOT_ENOUGH_EVIDENCE)
ASSIGNMENT_SPELLINGS = {
    SUPPORT: SUPPORT, "supported": SUPPORT, "supports": SUPPORT, "full_support": SUPPORT,
    "fully_supported": SUPPORT, PARTIAL_SUPPORT: PARTIAL_SUPPORT, "partial": PARTIAL_SUPPORT,
    "partially_supported": PARTIAL_SUPPORT, "partially_supports": PARTIAL_SUPPORT,
    NOT_SUPPORT: NOT_SUPPORT, "not_supported": NOT_SUPPORT, "unsupported": NOT_SUPPORT, "no_support": NOT_SUPPORT}
NUGGET_IMPORTANCE_SPELLINGS = {VITAL: VITAL, OKAY: OKAY, "ok": OKAY, "high": VITAL, "essential": VITAL,
                               "important": VITAL, "medium": OKAY, "low": OKAY, "less-important": OKAY,
                               "less": OKAY}
# Spellings read as the label above but only roughly meaning it: a reply using one keeps its
# reading and the response carries a warning naming the id, the word and the reading.
APPROXIMATE_SPELLINGS = {"importance": {"important"},
                         "verdict": {"partially_supported", "partial_support", "partially_true",
                                     "mostly_supported", "false"},
                         "nugget importance": {"important", "low", "less-important", "less"},
                         "nugget assignment": set()}

# Importance tiers in the method's order (vital first); unlabelled after every tier.
TIER_RANK = {label: n for n, label in enumerate(ALL_IMPORTANCE)}


def order_by_tier(ids: Iterable[str], labels: Mapping[str, str]) -> list[str]:
    """``ids`` with all vital first, then okay, then less-important, then unlabelled.

    The method's ordering rule: the sort is stable, so inside a tier ``ids``
    keep their given order. An id without a label counts as unlabelled.
    """
    last = TIER_RANK[UNLABELLED]
    return sorted(ids, key=lambda i: TIER_RANK.get(labels.get(i, UNLABELLED), last))


def _unknown(kind: str, value: Any, where: str, expected: str) -> InvalidLabelError:
    return InvalidLabelError(f"unknown {kind} {value!r}{' in ' + where if where else ''}; expected one of {expected}")


def fold_spelling(kind: str, value: Any) -> str:
    """The key a spelling of ``kind`` is looked up under: lower case, quotes and spaces folded
    (importance labels with ``-``, verdicts and assignments with ``_``)."""
    text = str(value).strip().strip("\"'").strip().lower()
    sep = "-" if kind in ("importance", "nugget importance") else "_"
    return "".join(sep if ch in " _-" else ch for ch in text)


def is_approximate(kind: str, value: Any) -> bool:
    """Whether ``value`` is read as a label of ``kind`` only roughly (``APPROXIMATE_SPELLINGS``)."""
    if isinstance(value, bool):
        value = "true" if value else "false"
    return value is not None and fold_spelling(kind, value) in APPROXIMATE_SPELLINGS[kind]


def normalise_importance(value: Any, *, where: str = "", lenient: bool = False) -> str | None:
    """Map the spellings found in the wild onto the canonical labels.

    Strict (files, edits): ``None`` is ``unlabelled``; an unknown value raises
    ``InvalidLabelError`` naming ``where``. ``lenient`` (a model's reply):
    vital / okay / less-important, or ``None`` for anything else (unlabelled too).
    """
    if value is None:
        return None if lenient else UNLABELLED
    label = IMPORTANCE_SPELLINGS.get(fold_spelling("importance", value))
    if lenient:
        return label if label in IMPORTANCE_LABELS else None
    if label is None:
        raise _unknown("importance label", value, where, ", ".join(ALL_IMPORTANCE))
    return label


def normalise_verdict(value: Any, *, where: str = "", lenient: bool = False) -> str | None:
    """Accept booleans (release ``judgment``), NLI words and our own verdicts.

    Strict (files, edits): ``None`` is ``not_judged``; an unknown value raises
    ``InvalidLabelError``. ``lenient`` (a model's reply): one of
    ``JUDGED_VERDICTS`` or ``None`` - no null, no "not judged" (true/false read as FActScore does).
    """
    if value is None:
        return None if lenient else NOT_JUDGED
    if isinstance(value, bool):
        return SUPPORTED if value else NOT_ENOUGH_EVIDENCE
    text = fold_spelling("verdict", value)
    verdict = VERDICT_SPELLINGS.get(text) or JUDGMENT_SPELLINGS.get(text)
    if lenient:
        return verdict if verdict in JUDGED_VERDICTS else None
    if verdict is None:
        raise _unknown("verdict", value, where, f"{', '.join(VERDICTS)} or true/false/null")
    return verdict


def normalise_assignment(value: Any, *, where: str = "", lenient: bool = False) -> str | None:
    """support / partial_support / not_support; unknown raises, or is ``None`` when ``lenient``."""
    label = None if value is None else ASSIGNMENT_SPELLINGS.get(fold_spelling("nugget assignment", value))
    if label is None and not lenient:
        raise _unknown("nugget assignment", value, where, ", ".join(ASSIGNMENTS))
    return label


def normalise_nugget_importance(value: Any, *, where: str = "", lenient: bool = False) -> str | None:
    """vital / okay; unknown raises, or is ``None`` when ``lenient``."""
    label = None if value is None else NUGGET_IMPORTANCE_SPELLINGS.get(fold_spelling("nugget importance", value))
    if label is not None or lenient:
        return label
    raise _unknown("nugget importance", value, where, ", ".join(NUGGET_IMPORTANCE))
