"""The mock provider's answer rules (``tests/support/mock_provider.py``): what a well-behaved model would
reply to each pipeline step, computed from the request's content, and how the reply is written out.

- decompose: each numbered sentence, cut at ``;`` and ``, and``, is its claims;
- rank: a claim holding the query's scripted answer, or sharing two or more content words with the query,
  is vital; one shared word okay; else less-important; vital first;
- verify: supported when the claim's words appear verbatim in the evidence, contradicted when most of its
  content words do, else not_enough_evidence;
- nuggets: the documents' sentences (up to the limit); vital when they share a word with the query;
  assignment by the same verbatim / overlap rule;
- perturb: missing drops the first sentence; wrong swaps one word of it.

A content fault (``missing_ids``, ``duplicate_ids``, ``unknown_label``, ``bad_perturbation``) spoils the
reply here; ``render`` writes it as bare JSON (structured output) or fenced JSON after a preface (rank:
``[S1] claim: "label"`` lines), so the robust parser is exercised too.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from vital_core.backends.openai import prompts
from vital_core.results.model import TIER_RANK

_STOP = set("""a an and are as at be but by for from has have he her his in is it its of on or she that the
their they this to was were which who with what when where how why does did do could you answer in paragraph
tell me about""".split())
_ITEM = re.compile(r"^\[(?P<id>[^\]]+)\]\s?(?P<text>.*)$")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def content_words(text: str) -> set[str]:
    """The words of ``text`` that carry content (no stop words), lower case."""
    return {w for w in _words(text) if w not in _STOP}


def _norm(text: str) -> str:
    return " ".join(_words(text))


def _block_items(text: str, header: str) -> list[tuple[str, str]]:
    """``[id] text`` lines after ``header`` until a blank line."""
    out, on = [], False
    for line in text.splitlines():
        if line.strip() == header:
            on = True
            continue
        if on:
            if not line.strip():
                break
            m = _ITEM.match(line.strip())
            if m:
                out.append((m.group("id"), m.group("text")))
    return out


def _tag_bodies(text: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}[^>]*>\n?(.*?)\n?</{tag}>", text, flags=re.DOTALL)


def _query(text: str) -> str:
    m = re.search(r"^Query:\s*(.*)$", text, flags=re.MULTILINE)
    return m.group(1).strip() if m else ""


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]


def _as_claim(piece: str) -> str:
    piece = piece.strip().rstrip(".;,").strip()
    return (piece[:1].upper() + piece[1:] + ".") if piece else ""


def _key_answer(answers: dict[str, str], query: str) -> str | None:
    for q, answer in answers.items():
        if q.lower() in query.lower():
            return answer
    return None


def _importance(answers: dict[str, str], query: str, claim: str) -> str:
    answer = _key_answer(answers, query)
    if answer and answer.lower() in claim.lower():
        return "vital"
    shared = len(content_words(query) & content_words(claim))
    return "vital" if shared >= 2 else "okay" if shared == 1 else "less-important"


def judge(claim: str, source: str) -> tuple[str, str]:
    """support (verbatim) / partial_support (most content words) / not_support, and a quote."""
    if not source.strip():
        return "not_support", ""
    norm_claim, norm_source = _norm(claim), _norm(source)
    if norm_claim and norm_claim in norm_source:
        return "support", claim.rstrip(".")
    words = content_words(claim)
    if words and len(words & content_words(source)) / len(words) >= 0.6:
        return "partial_support", ""
    return "not_support", ""


def spoil(items: list[dict], fault: str | None, key: str, bad_value: str) -> list[dict]:
    """The items as a content fault leaves them: the last left out, the first twice, or a label unknown."""
    if not items:
        return items
    if fault == "missing_ids":
        return items[:-1]
    if fault == "duplicate_ids":
        return items + [dict(items[0])]
    if fault == "unknown_label":
        return [dict(items[0], **{key: bad_value})] + items[1:]
    return items


# ---------------------------------------------------------------- one rule per step
def _decompose(user: str, query: str, fault: str | None, answers: dict) -> dict:
    out = []
    for sid, sentence in _block_items(user, prompts.SENTENCES_HEADER):
        pieces = re.split(r";\s+|,\s+and\s+", sentence)
        out.append({"sentence": int(sid), "claims": [c for c in map(_as_claim, pieces) if c]})
    return {"sentences": out}


def _rank(user: str, query: str, fault: str | None, answers: dict) -> dict:
    claims = _block_items(user, prompts.CLAIMS_HEADER)
    labelled = [(cid, text, _importance(answers, query, text)) for cid, text in claims]
    labelled.sort(key=lambda x: TIER_RANK[x[2]])
    items = [{"id": cid, "label": label, "text": text} for cid, text, label in labelled]
    return {"ranking": spoil(items, fault, "label", "so-so")}


def _verify(user: str, query: str, fault: str | None, answers: dict) -> dict:
    evidence = " ".join(_tag_bodies(user, "passage"))
    items = []
    for cid, text in _block_items(user, prompts.CLAIMS_HEADER):
        verdict, quote = judge(text, evidence)
        verdict = {"support": "supported", "partial_support": "contradicted",
                   "not_support": "not_enough_evidence"}[verdict]
        items.append({"id": cid, "verdict": verdict, "reason": f"Mock rule: {verdict}.", "evidence": quote})
    return {"verdicts": spoil(items, fault, "verdict", "probably")}


def _nuggets_create(user: str, query: str, fault: str | None, answers: dict) -> dict:
    limit = int((re.search(r"at most (\d+) nuggets", user) or [0, 30])[1])
    current = [t for _, t in _block_items(user, "Nuggets found so far:")]
    for doc in _tag_bodies(user, "document"):
        for s in _sentences(doc):
            if len(current) < limit and s not in current:
                current.append(s)
    return {"nuggets": current}


def _nuggets_label(user: str, query: str, fault: str | None, answers: dict) -> dict:
    items = [{"id": nid, "importance": "vital" if content_words(query) & content_words(text) else "okay"}
             for nid, text in _block_items(user, prompts.NUGGETS_HEADER)]
    return {"labels": spoil(items, fault, "importance", "crucial")}


def _assign(user: str, query: str, fault: str | None, answers: dict) -> dict:
    response = " ".join(_tag_bodies(user, "response"))
    items = [{"id": nid, "assignment": judge(text, response)[0]}
             for nid, text in _block_items(user, prompts.NUGGETS_HEADER)]
    return {"assignments": spoil(items, fault, "assignment", "maybe")}


def _perturb(user: str, query: str, fault: str | None, answers: dict, system: str) -> dict:
    answer = " ".join(_tag_bodies(user, "answer")).strip()
    if fault == "bad_perturbation":
        return {"modified_response": answer}
    sentences = _sentences(answer)
    if "v=missing" in system:
        return {"modified_response": " ".join(sentences[1:]) if len(sentences) > 1 else ""}
    first = sentences[0] if sentences else answer
    key = _key_answer(answers, query)
    if key and key in first:
        changed = first.replace(key, "Zanzibar", 1)
    else:
        words = first.split()
        idx = next((i for i in range(len(words) - 1, 0, -1) if len(words[i].strip(".,")) > 3), 0)
        words[idx] = "Zanzibar" + ("." if words[idx].endswith(".") else "")
        changed = " ".join(words)
    return {"modified_response": " ".join([changed] + sentences[1:])}


_RULES: dict[str, Callable[..., dict]] = {
    prompts.DECOMPOSE: _decompose, prompts.RANK: _rank, prompts.VERIFY: _verify,
    prompts.NUGGETS_CREATE: _nuggets_create, prompts.NUGGETS_LABEL: _nuggets_label, prompts.ASSIGN: _assign}


def answer(step: str | None, system: str, user: str, fault: str | None, answers: dict[str, str]) -> Any:
    """The reply (as data) to one request of ``step``; ``answers``: query fragment -> key answer."""
    query = _query(user)
    if step == prompts.PERTURB:
        return _perturb(user, query, fault, answers, system)
    rule = _RULES.get(step)
    return rule(user, query, fault, answers) if rule else {"error": "unknown step"}


# ---------------------------------------------------------------- how the reply is written
def render(step: str | None, reply: Any, structured: bool) -> str:
    """Bare JSON for structured output; else fenced JSON after a preface (rank: ``[S1] claim: "label"``)."""
    if step == prompts.RANK:
        for item in reply.get("ranking", []):
            item_text = item.pop("text", "")
            if not structured:
                item["_line"] = f'[{item["id"]}] {item_text}: "{item["label"]}"'
    if structured:
        return json.dumps(reply)
    if step == prompts.RANK:
        return "Ranked Claims:\n" + "\n".join(i.pop("_line") for i in reply["ranking"])
    return "Here is the result:\n```json\n" + json.dumps(reply, indent=1) + "\n```"


_DRAFT_SWAP = {"vital": "less-important", "okay": "vital", "less-important": "okay",
               "supported": "contradicted", "contradicted": "not_enough_evidence",
               "not_enough_evidence": "supported", "support": "not_support", "not_support": "support",
               "partial_support": "support"}


def draft(reply: Any) -> Any:
    """A reasoning model's first draft: the same shape, other values (read as the answer, it changes
    every number)."""
    if isinstance(reply, dict):
        out = {}
        for k, v in reply.items():
            if k == "claims" and isinstance(v, list):
                out[k] = [" ".join(v)] if v else v            # one claim per sentence, not atomic
            elif k == "nuggets" and isinstance(v, list) and all(isinstance(x, str) for x in v):
                out[k] = v[:1]
            elif k == "modified_response":
                out[k] = "A draft that changes nothing."
            else:
                out[k] = draft(v)
        return out
    if isinstance(reply, list):
        return [draft(x) for x in reply]
    return _DRAFT_SWAP.get(reply, reply) if isinstance(reply, str) else reply


def plain(reply: Any) -> Any:
    """The reply as JSON (the rank step's rendering keeps a ``text`` only for its lines)."""
    if isinstance(reply, dict) and "ranking" in reply:
        return {"ranking": [{k: v for k, v in i.items() if not k.startswith("_")} for i in reply["ranking"]]}
    return reply
