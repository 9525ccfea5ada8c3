"""Why a metric is undefined for one response, in words a person can act on.

The catalog declares what each metric requires (``MetricSpec.requires``); ``CHECKS`` holds, for each
requirement, the test of a response that names what is actually missing (e.g. "the evidence was
documents, not a reference answer"). ``why_undefined`` returns the first requirement the response misses.
"""
from __future__ import annotations

from typing import Callable

from vital_core.metrics.catalog import METRICS, REQUIREMENTS
from vital_core.metrics.formulas import nothing_checked
from vital_core.results.model import (
    AGAINST_AN_ANSWER,
    EVIDENCE_NONE,
    EVIDENCE_WORDS,
    LESS_IMPORTANT,
    NOT_JUDGED,
    OKAY,
    VITAL,
    Nugget,
    ResponseResult,
)

Check = Callable[[ResponseResult, "list[Nugget] | None"], "str | None"]


def _judged(response: ResponseResult, nuggets) -> str | None:
    verdicts = [s.verdict for s in response.subclaims]
    if nothing_checked(response.evidence_mode, verdicts):
        return ("nothing was checked: no evidence or reference answer was given, and the verifier judges "
                "only against evidence")
    if verdicts and all(v == NOT_JUDGED for v in verdicts):
        return "not judged: no subclaim has a verdict (strict convention; the paper's scripts score it 0)"
    return None


def _subclaims(response: ResponseResult, nuggets) -> str | None:
    return None if response.subclaims else "needs at least one subclaim; the response produced none"


def _tier(label: str, words: str) -> Check:
    def check(response: ResponseResult, nuggets) -> str | None:
        if any(s.importance == label for s in response.subclaims):
            return None
        return f"needs at least one {words} subclaim; none of this response's subclaims is {words}"
    return check


def _labelled(response: ResponseResult, nuggets) -> str | None:
    if any(s.importance in (VITAL, OKAY, LESS_IMPORTANT) for s in response.subclaims):
        return None
    return "needs at least one labelled subclaim; every subclaim is unlabelled"


def _ranked(at_least: int, words: str) -> Check:
    def check(response: ResponseResult, nuggets) -> str | None:
        if not response.order and response.subclaims:
            return "needs the subclaims in importance order; they were not ranked"
        n = len(response.subclaims)
        return None if n >= at_least else f"needs {words} ranked subclaims; this response has {n}"
    return check


def _nuggets(response: ResponseResult, nuggets) -> str | None:
    if nuggets is None:
        return "needs nuggets, which are built from evidence documents; none were given"
    return None if nuggets else "needs nuggets; the evidence documents yielded none"


def _assignment(response: ResponseResult, nuggets) -> str | None:
    if response.nugget_assignment is None:
        return "needs the nuggets assigned to this response; assignment did not run"
    if nuggets and any(n.id not in response.nugget_assignment for n in nuggets):
        return "needs every nugget assigned to this response; some were left unassigned"
    return None


def _vital_nugget(response: ResponseResult, nuggets) -> str | None:
    return None if any(n.importance == VITAL for n in nuggets or []) else \
        "needs at least one vital nugget; all nuggets are okay"


def _two_nuggets(response: ResponseResult, nuggets) -> str | None:
    n = len(nuggets or [])
    return None if n >= 2 else f"needs at least two nuggets (the release's decay gives one item weight 0); there is {n}"


def _answer_check(response: ResponseResult, nuggets) -> str | None:
    if response.evidence_mode in AGAINST_AN_ANSWER or response.fc_verdicts is not None:
        return None
    if response.evidence_mode == EVIDENCE_NONE:
        return "needs a reference answer to check the response's claims against; none was given"
    checked = EVIDENCE_WORDS.get(response.evidence_mode, response.evidence_mode)
    return ("needs a reference answer to check the response's claims against; "
            f"its claims were checked against {checked} only")


def _reference(response: ResponseResult, nuggets) -> str | None:
    if response.reference_claims is None:
        return "needs a reference answer; none was given"
    return None if response.reference_claims else "needs a reference answer's claims; the reference yielded none"


def _scoring_points(response: ResponseResult, nuggets) -> str | None:
    refs = response.reference_claims
    if refs is not None:
        return None if any(s.importance in (VITAL, OKAY, LESS_IMPORTANT) for s in refs) else \
            "needs scoring points; none of the reference answer's claims has an importance label"
    if nuggets and response.nugget_assignment is not None and _assignment(response, nuggets) is None:
        return None
    return "needs scoring points: a reference answer (or nuggets assigned to the response)"


def _loaded_set(response: ResponseResult, nuggets) -> str | None:
    return "needs a loaded set: K is the median subclaim count of its responses"


# One check per requirement of the catalog (tests/unit/test_metric_catalog.py checks none is missing).
CHECKS: dict[str, Check] = {
    "subclaims": _subclaims, "verdicts": _judged,
    "vital_subclaim": _tier(VITAL, "vital"), "okay_subclaim": _tier(OKAY, "okay"),
    "less_important_subclaim": _tier(LESS_IMPORTANT, "less-important"), "labelled_subclaim": _labelled,
    "ranked_one": _ranked(1, "at least one"), "ranked_two": _ranked(2, "at least two"),
    "nuggets": _nuggets, "assignment": _assignment, "vital_nugget": _vital_nugget, "two_nuggets": _two_nuggets,
    "answer_check": _answer_check, "reference": _reference, "scoring_points": _scoring_points,
    "loaded_set": _loaded_set,
}
if set(CHECKS) != set(REQUIREMENTS):
    raise RuntimeError(f"requirements without a check: {sorted(set(REQUIREMENTS) - set(CHECKS))}")
# What ``why_undefined`` says when no declared requirement is missed (a metric whose needs are not all declared).
UNEXPLAINED = "undefined for a reason its catalog entry does not declare"


def why_undefined(key: str, response: ResponseResult, nuggets: list[Nugget] | None) -> str:
    """The reason ``key`` is undefined (``None``) for ``response``: the first requirement it misses."""
    if response.error:
        return f"scoring failed: {response.error}"
    spec = METRICS.get(key)
    for requirement in spec.requires if spec else ():
        reason = CHECKS[requirement](response, nuggets)
        if reason:
            return reason
    return UNEXPLAINED


def undefined_reasons(keys, response: ResponseResult | None, nuggets: list[Nugget] | None) -> str:
    """One line saying why each metric of ``keys`` is undefined for ``response`` ("key: reason; ..."), the
    ``undefined`` column of ``evaluate()`` and of ``report --export``; "" when there is none."""
    if response is None:
        return ""
    return "; ".join(f"{key}: {why_undefined(key, response, nuggets)}" for key in keys)
