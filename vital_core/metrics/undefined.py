"""Why a metric is undefined for one response, in words a person can act on.

``metric_catalog`` says in general what a metric needs; this module looks at
the response and its example and names what is actually missing (e.g. "the
evidence was documents, not a reference answer").
"""
from __future__ import annotations

from vital_core.metrics.catalog import FROM_VERDICTS, METRICS
from vital_core.metrics.formulas import nothing_checked
from vital_core.model import AGAINST_AN_ANSWER, EVIDENCE_NONE, EVIDENCE_WORDS, LESS_IMPORTANT, OKAY, VITAL, Nugget, ResponseResult


def why_undefined(key: str, response: ResponseResult, nuggets: list[Nugget] | None) -> str:
    """The reason ``key`` is undefined (``None``) for ``response``; the catalog's need otherwise."""
    need = METRICS[key].needs if key in METRICS else "more data"
    claims = response.subclaims
    if response.error:
        return f"scoring failed: {response.error}"
    tiers = [s.importance for s in claims]
    if (key in FROM_VERDICTS or key == "f1_at_k") and nothing_checked(response.evidence_mode, [s.verdict for s in claims]):
        return ("nothing was checked: no evidence or reference answer was given, and the verifier judges "
                "only against evidence")
    if key in ("factscore_precision",) and not claims:
        return "needs at least one subclaim; the response produced none"
    if key in ("vital_precision", "rlp"):
        return "needs at least one vital subclaim; none of this response's subclaims is vital"
    if key == "okay_precision" and OKAY not in tiers:
        return "needs at least one okay subclaim; there is none"
    if key == "less_important_precision" and LESS_IMPORTANT not in tiers:
        return "needs at least one less-important subclaim; there is none"
    if key == "weighted_precision":
        return "needs at least one labelled subclaim; every subclaim is unlabelled" if claims \
            else "needs at least one subclaim; the response produced none"
    if key.startswith(("decay_precision", "linear_decay_precision")):
        return f"needs {'at least two' if key.startswith('decay') else 'at least one'} ranked subclaims; " \
               f"this response has {len(claims)}"
    if key in ("nugget_recall", "nugget_recall_partial", "weighted_recall", "decay_recall",
               "decay_recall_top5", "n_nuggets", "n_vital_nuggets", "n_okay_nuggets", "n_vital_nuggets_missed",
               "vital_recall",
               "vital_recall_partial", "rlr", "weighted_f1"):
        if nuggets is None:
            return "needs nuggets, which are built from evidence documents; none were given"
        if not nuggets:
            return "needs nuggets; the evidence documents yielded none"
        if response.nugget_assignment is None:
            return "needs the nuggets assigned to this response; assignment did not run"
        if key in ("vital_recall", "vital_recall_partial", "rlr") and \
                not any(n.importance == VITAL for n in nuggets):
            return "needs at least one vital nugget; all nuggets are okay"
        if key == "weighted_f1":
            return "needs both weighted precision and weighted recall"
        return need
    if key in ("fc_precision", "fc_f1") and response.evidence_mode not in AGAINST_AN_ANSWER \
            and response.fc_verdicts is None:
        checked = EVIDENCE_WORDS.get(response.evidence_mode, response.evidence_mode)
        if response.evidence_mode == EVIDENCE_NONE:
            return "needs a reference answer to check the response's claims against; none was given"
        return ("needs a reference answer to check the response's claims against; "
                f"its claims were checked against {checked} only")
    if key in ("fc_recall", "fc_f1") and response.reference_claims is None:
        return "needs a reference answer; none was given"
    if key in ("wpa", "pcp"):
        return "needs scoring points: a reference answer (or nuggets assigned to the response)"
    return f"needs {need}" if need else "undefined"


def undefined_reasons(keys, response: ResponseResult | None, nuggets: list[Nugget] | None) -> str:
    """One line saying why each metric of ``keys`` is undefined for ``response`` ("key: reason; ..."), the
    ``undefined`` column of ``evaluate()`` and of ``report --export``; "" when there is none."""
    if response is None:
        return ""
    return "; ".join(f"{key}: {why_undefined(key, response, nuggets)}" for key in keys)
