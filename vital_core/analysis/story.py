"""The story the benchmark tells on one example: FactScore-style precision barely moves when the key
answer is wrong, while VITAL precision / RLP notice it; VITAL recall / RLR notice a missing key fact.

One rule, used by ``bench.bench_verifier`` (paragraph triples), ``bench.bench_story`` (the bundled
demos) and the tests that pick a demo on which the story holds:

* wrong: FactScore precision moves (either way) by less than ``NOTICE_DROP``, while VITAL precision
  drops by at least ``NOTICE_DROP`` or RLP fires for the wrong response but not for the normal one;
* missing: VITAL recall drops by at least ``NOTICE_DROP`` or RLR fires for the missing response but
  not for the normal one;
* a normal response "scores well" when its FactScore precision is at least ``NORMAL_OK``.

``NOTICE_DROP`` (``vital_core.analysis.stats.noticed``) is the threshold for "noticed" (Compare's verdicts,
the detection rate).
"""
from __future__ import annotations

from typing import Mapping

from vital_core.analysis.stats import NOTICE_DROP, noticed
from vital_core.results.model import MISSING, NORMAL, WRONG

NORMAL_OK = 0.8
# What each variant's story compares, grouped as a sentence names them: the plain precision, then what
# notices a wrong key fact, then what notices a missing one.
STORY_FAMILIES = (("factscore_precision",), ("vital_precision", "rlp"), ("vital_recall", "rlr"))
STORY_METRICS = tuple(key for family in STORY_FAMILIES for key in family)
# What should notice each kind of damage: a score that must drop, then a flag that must fire.
NOTICING = {WRONG: STORY_FAMILIES[1], MISSING: STORY_FAMILIES[2]}


def _drop(before, after) -> float | None:
    """How much a score fell from ``before`` to ``after``; None when either is undefined."""
    if before is None or after is None:
        return None
    return float(before) - float(after)


def _fires(metric: str, normal: Mapping, variant: Mapping) -> bool:
    """``stats.noticed``: a score got worse by at least ``NOTICE_DROP``, a flag fires for the variant but
    not for the normal; undefined on either side is no."""
    return bool(noticed(metric, normal.get(metric), variant.get(metric)))


def vital_notices(kind: str, normal: Mapping, variant: Mapping) -> bool:
    """Whether VITAL noticed the damage of a ``kind`` (wrong / missing) variant: ``NOTICING[kind]``'s
    score dropped by at least ``NOTICE_DROP`` or its flag fires for the variant but not for the normal.
    Undefined on either side notices nothing."""
    score, flag = NOTICING[kind]
    return _fires(score, normal, variant) or _fires(flag, normal, variant)


def judge_story(metrics: Mapping[str, Mapping]) -> dict:
    """The story of one example from its per-variant metrics ({variant: {metric key: value}}).

    Keys: ``normal_factscore``, ``normal_ok``; for a wrong variant ``fs_move`` (FactScore's drop),
    ``vp_drop``, ``rlp_new``, ``wrong_ok``; for a missing one ``vr_drop``, ``rlr_new``, ``missing_ok``.
    A story whose variant is absent is ``None``.
    """
    normal = metrics[NORMAL]
    out: dict = {"normal_factscore": normal.get("factscore_precision"),
                 "normal_ok": (normal.get("factscore_precision") or 0.0) >= NORMAL_OK,
                 "fs_move": None, "vp_drop": None, "rlp_new": None, "wrong_ok": None,
                 "vr_drop": None, "rlr_new": None, "missing_ok": None}
    if WRONG in metrics:
        wrong = metrics[WRONG]
        fs_move = _drop(normal.get("factscore_precision"), wrong.get("factscore_precision"))
        vp_drop = _drop(normal.get("vital_precision"), wrong.get("vital_precision"))
        rlp_new = _fires("rlp", normal, wrong)
        # FactScore "barely moves": the noticed rule holds in neither direction
        still = fs_move is not None and not _fires("factscore_precision", normal, wrong) \
            and not _fires("factscore_precision", wrong, normal)
        out.update(fs_move=fs_move, vp_drop=vp_drop, rlp_new=rlp_new,
                   wrong_ok=still and vital_notices(WRONG, normal, wrong))
    if MISSING in metrics:
        missing = metrics[MISSING]
        vr_drop = _drop(normal.get("vital_recall"), missing.get("vital_recall"))
        rlr_new = _fires("rlr", normal, missing)
        out.update(vr_drop=vr_drop, rlr_new=rlr_new, missing_ok=vital_notices(MISSING, normal, missing))
    return out


# The one vocabulary of how a metric reacted to a variant's damage: Compare's headline strip, its sentence,
# table and chart, Present mode and the HTML report all say exactly these words.
NOTICED = "noticed"
BARELY = "barely moved"
BY_DESIGN = "cannot notice this by design"
UNDEFINED = "undefined"
REACTIONS = (NOTICED, BARELY, BY_DESIGN, UNDEFINED)
REACTION_MEANING = {
    NOTICED: f"the score got worse by at least {NOTICE_DROP:.2f}, or the flag fires for the variant but not for "
             f"the normal response",
    BARELY: f"the score got worse by less than {NOTICE_DROP:.2f} (or not at all), or the flag did not newly fire",
    BY_DESIGN: "the metric judges only what the response says, so a fact left out cannot lower it",
    UNDEFINED: "nothing to measure on one side; the reason is given",
}
# Metrics that judge only the claims a response makes: a missing fact leaves nothing for them to catch.
JUDGES_ONLY_WHAT_IS_SAID = frozenset({
    "factscore_precision", "vital_precision", "okay_precision", "less_important_precision", "weighted_precision",
    "decay_precision", "decay_precision_top5", "linear_decay_precision", "linear_decay_precision_top5", "rlp",
    "fc_precision", "pcp"})
# The metrics that carry each variant's story, after FactScore precision (the headline strip shows these).
STORY_KEYS = {kind: STORY_FAMILIES[0] + keys for kind, keys in NOTICING.items()}


def reaction(key: str, variant: str, normal_value, variant_value) -> str:
    """How metric ``key`` reacted from the normal response to ``variant``: one of ``REACTIONS``.

    A precision metric on the missing variant cannot notice this by design (whatever its value does); otherwise
    ``stats.noticed`` decides between noticed and barely moved, and undefined on either side is undefined.
    """
    if variant == MISSING and key in JUDGES_ONLY_WHAT_IS_SAID:
        return BY_DESIGN
    verdict = noticed(key, normal_value, variant_value)
    if verdict is None:
        return UNDEFINED
    return NOTICED if verdict else BARELY


def clean(metrics: Mapping[str, Mapping]) -> bool:
    """A story to open on: both variants tell it and the normal response carries no flag to explain away."""
    judged = judge_story(metrics)
    normal = metrics[NORMAL]
    return bool(judged["wrong_ok"] and judged["missing_ok"] and not normal.get("rlp") and not normal.get("rlr"))
