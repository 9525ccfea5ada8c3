"""A small local model's manners, for the mock provider's ``small_model=True``: labels in its own words
("Vital", "High", "Entailed", "partially supported"), claims and nuggets as objects, and some sentences and
claim ids left out - some only in a long request (given when asked for alone), some always - and a few
claims never ranked. Deterministic from the content, so a re-run replays it."""
from __future__ import annotations

import zlib
from typing import Any

from vital_core.backends.openai import prompts

_SMALL_WORDS = {"label": {"vital": "Vital", "okay": "medium", "less-important": "Low"},
                "verdict": {"supported": "Entailed", "contradicted": "partially supported",
                            "not_enough_evidence": "Not enough evidence"},
                "importance": {"vital": "High", "okay": "OK"},
                "assignment": {"support": "Supported", "partial_support": "Partially supported",
                               "not_support": "not supported"}}


def _hash(text: str, n: int) -> int:
    return zlib.crc32(text.encode("utf-8")) % n


def _left_out(text: str, in_long_request: bool) -> bool:
    """Left out always (about 1 in 9), or only in a request of several items (about 1 in 4 more)."""
    return _hash(text, 9) == 0 or (in_long_request and _hash(text, 4) == 0)


def small_model_reply(step: str | None, reply: Any) -> Any:
    """The well-behaved reply as a small local model gives it: its own words for the labels, objects for
    claims and nuggets, items left out."""
    if step == prompts.DECOMPOSE:
        items = reply["sentences"]
        kept = [i for i in items if not _left_out(" ".join(i["claims"]) or str(i["sentence"]), len(items) > 1)]
        return {"sentences": [{"sentence": i["sentence"], "claims": [{"claim": c} for c in i["claims"]]}
                              for i in kept]}
    if step == prompts.NUGGETS_CREATE:
        return {"nuggets": [{"nugget": t} for t in reply["nuggets"]]}
    for list_key, value_key in (("ranking", "label"), ("verdicts", "verdict"), ("labels", "importance"),
                                ("assignments", "assignment")):
        if isinstance(reply, dict) and list_key in reply:
            items = reply[list_key]
            if step == prompts.VERIFY:   # claim ids left out
                items = [i for i in items if not _left_out(i["id"] + i.get("reason", "") + i["evidence"],
                                                           len(items) > 1)]
            if step == prompts.RANK:     # a claim left unranked (the same in every attempt)
                items = [i for i in items if _hash(i["id"] + i.get("text", ""), 13)]
            words = _SMALL_WORDS[value_key]
            return {list_key: [dict(i, **{value_key: words.get(i[value_key], i[value_key])}) for i in items]}
    return reply
