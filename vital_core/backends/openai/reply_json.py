"""Finding the answer's JSON in a model's reply: ``extract_json`` finds the JSON object even when the model
wrapped it in prose or a code fence, or left a trailing comma; a reasoning model's thinking
(``<think>…</think>`` and the other spellings servers pass through) is removed first, so a draft written
while thinking is never read as the answer (``strip_reasoning``). ``answer_in_reasoning`` reads an answer
that a server left in ``message.reasoning_content``: the last JSON object there. A reply with no readable
JSON at all raises ``ReplyParseError``; the client counts that as a retryable failure."""
from __future__ import annotations

import json
import re
from typing import Any, Iterable


class ReplyParseError(ValueError):
    """The reply holds no usable JSON for the step (retryable)."""


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


# A reasoning model's thinking, as servers pass it through in ``content``: (opening, closing) patterns.
# <think> (DeepSeek-R1, Qwen3, QwQ, MiniMax), <thinking>/<reflection> (Reflection-style prompts),
# <reasoning>, <thought>, <seed:think> (Seed-OSS), Kimi's ◁think▷, Mistral's [THINK], gpt-oss's analysis
# channel, and Granite's "Here is my thought process:" ... "Here is my response:".
_REASONING = [(re.compile(rf"<{tag}\b[^>]*>", re.IGNORECASE), re.compile(rf"</{tag}\s*>", re.IGNORECASE))
              for tag in ("think", "thinking", "reasoning", "thought", "reflection", "seed:think")] + [
    (re.compile(r"◁think▷"), re.compile(r"◁/think▷")),
    (re.compile(r"\[THINK\]"), re.compile(r"\[/THINK\]")),
    (re.compile(r"<\|channel\|>\s*analysis\s*<\|message\|>"), re.compile(r"<\|end\|>")),
    (re.compile(r"Here is my thought process:"), re.compile(r"Here is my response:"))]
_HARMONY_FINAL = re.compile(r"<\|channel\|>\s*final\s*<\|message\|>")
_HARMONY_TOKENS = re.compile(r"<\|(?:start|end|return|message|channel)\|>(?:assistant)?")


def strip_reasoning(text: str) -> str:
    """``text`` without the thinking: each reasoning block removed; a closing tag with no opening one
    (the template opened the block in the prompt) ends the thinking, so what precedes it goes; an
    opening tag never closed (thinking cut off) starts thinking that runs to the end."""
    final = list(_HARMONY_FINAL.finditer(text))
    if final:     # gpt-oss: the answer is the final channel's message
        text = text[final[-1].end():]
    for opening, closing in _REASONING:
        while (start := opening.search(text)) and (end := closing.search(text, start.end())):
            text = text[:start.start()] + " " + text[end.end():]
        orphans = list(closing.finditer(text))
        if orphans:
            text = text[orphans[-1].end():]
        unclosed = opening.search(text)
        if unclosed:
            text = text[:unclosed.start()]
    return _HARMONY_TOKENS.sub(" ", text).strip()


def _span_at(text: str, start: int, opener: str, closer: str) -> str | None:
    """The substring from ``opener`` at ``start`` to its matching ``closer`` (string-aware), or None."""
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    return None


def _balanced_spans(text: str, opener: str, closer: str) -> Iterable[str]:
    """Substrings from each ``opener`` to its matching ``closer`` (string-aware)."""
    start = text.find(opener)
    while start != -1:
        span = _span_at(text, start, opener, closer)
        if span is not None:
            yield span
        start = text.find(opener, start + 1)


def _loads(candidate: str) -> Any:
    try:
        return json.loads(candidate)
    except ValueError:
        return json.loads(_TRAILING_COMMA.sub(r"\1", candidate))


def extract_json(text: str | None) -> Any:
    """The first JSON object (or array) in ``text`` after its thinking; raises ``ReplyParseError``."""
    if text is None or not str(text).strip():
        raise ReplyParseError("empty reply")
    text = strip_reasoning(str(text))
    if not text:
        raise ReplyParseError("the reply holds only the model's reasoning, no answer after it")
    candidates = [text] + [m.group(1).strip() for m in _FENCE.finditer(text)]
    for candidate in candidates:
        try:
            return _loads(candidate)
        except ValueError:
            pass
    for opener, closer in (("{", "}"), ("[", "]")):
        for span in _balanced_spans(text, opener, closer):
            try:
                return _loads(span)
            except ValueError:
                continue
    snippet = " ".join(text.split())[:80]
    raise ReplyParseError(f"no JSON object found in the reply (starts {snippet!r})")


def answer_in_reasoning(text: str) -> str:
    """The answer a server left in its reasoning field: the last top-level JSON object that parses
    (thinking drafts come before the conclusion), else the text itself."""
    found, start = None, text.find("{")
    while start != -1:
        span = _span_at(text, start, "{", "}")
        try:
            if span is None:
                raise ValueError
            _loads(span)
        except ValueError:
            start = text.find("{", start + 1)
            continue
        found = span
        start = text.find("{", start + len(span))
    return found if found is not None else text
