"""Word-level differences between a response variant and its normal response.

Used by the Compare and Explore pages to highlight what the ``missing`` and
``wrong`` variants changed. Tokens are words with their trailing whitespace,
so joining the segments gives back the texts exactly.
"""
from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass

from explorer.logic.palette import DIFF_DELETE, DIFF_INSERT

EQUAL, INSERT, DELETE = "equal", "insert", "delete"
_TOKEN = re.compile(r"\S+\s*|\s+")


@dataclass(frozen=True)
class Segment:
    op: str      # equal / insert (only in the variant) / delete (only in the normal)
    text: str


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text or "")


def word_diff(normal: str, variant: str) -> list[Segment]:
    """Segments that turn ``normal`` into ``variant``, compared word by word.

    Words are compared without their trailing whitespace so a re-wrapped line
    does not count as a change.
    """
    a, b = tokenize(normal), tokenize(variant)
    matcher = difflib.SequenceMatcher(a=[t.strip() for t in a], b=[t.strip() for t in b],
                                      autojunk=False)
    out: list[Segment] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.append(Segment(EQUAL, "".join(b[j1:j2])))
            continue
        if tag in ("delete", "replace"):
            out.append(Segment(DELETE, "".join(a[i1:i2])))
        if tag in ("insert", "replace"):
            out.append(Segment(INSERT, "".join(b[j1:j2])))
    return out


def diff_stats(segments: list[Segment]) -> dict[str, int]:
    """Words inserted and deleted (for the captions under each column)."""
    count = lambda op: sum(len(s.text.split()) for s in segments if s.op == op)  # noqa: E731
    return {"inserted": count(INSERT), "deleted": count(DELETE), "kept": count(EQUAL)}


def diff_html(normal: str, variant: str, *, show_deleted: bool = True) -> str:
    """The variant's text with insertions highlighted and deletions struck through (escaped)."""
    parts = []
    for seg in word_diff(normal, variant):
        text = html.escape(seg.text)
        if seg.op == EQUAL:
            parts.append(text)
        elif seg.op == INSERT:
            bg, line = DIFF_INSERT
            parts.append(f'<ins title="changed from normal" style="background:{bg};'
                         f'text-decoration:underline 2px {line};">{text}</ins>')
        elif show_deleted:
            bg, line = DIFF_DELETE
            parts.append(f'<del title="in normal, not here" style="background:{bg};'
                         f'text-decoration:line-through 2px {line};color:#444">{text}</del>')
    return "".join(parts)


def _bare(words: str) -> str:
    """Changed words without the space and sentence punctuation around them."""
    return words.strip().rstrip(".,;:")


def changes(normal: str, variant: str) -> list[tuple[str, str]]:
    """Each place the variant changed the normal response, as (removed words, inserted words); one of the
    two is "" for a pure deletion or insertion. The key fact a missing or wrong variant changed is here."""
    out: list[tuple[str, str]] = []
    pending = ["", ""]
    for seg in word_diff(normal, variant) + [Segment(EQUAL, "")]:
        if seg.op == EQUAL:
            if pending[0] or pending[1]:
                out.append((_bare(pending[0]), _bare(pending[1])))
            pending = ["", ""]
        else:
            pending[0 if seg.op == DELETE else 1] += seg.text
    return out


def change_sentence(normal: str, variant: str, limit: int = 3) -> str:
    """The changes in words a person reads (plain text; callers escape), e.g. "“1930” → “1931”";
    "no change" when the texts are the same."""
    found = changes(normal, variant)
    if not found:
        return "no change from the normal response"
    parts = []
    for removed, inserted in found[:limit]:
        if removed and inserted:
            parts.append(f"\u201c{removed}\u201d \u2192 \u201c{inserted}\u201d")
        elif removed:
            parts.append(f"left out \u201c{removed}\u201d")
        else:
            parts.append(f"added \u201c{inserted}\u201d")
    more = len(found) - limit
    return "; ".join(parts) + (f"; and {more} more change{'s' if more > 1 else ''}" if more > 0 else "")


def excerpt_html(normal: str, variant: str, *, keep: int = 12, side: str = "variant") -> str:
    """The text around the changes only, escaped, for a projector: unchanged stretches longer than
    ``2 * keep`` words are cut to their ends with "…". ``side="variant"`` marks the variant's changes as
    ``diff_html`` does; ``side="normal"`` shows the normal text with the words the variant changed marked."""
    segments = word_diff(normal, variant)
    parts = []
    for i, seg in enumerate(segments):
        words = seg.text.split()
        if seg.op == EQUAL:
            first, last = i == 0, i == len(segments) - 1
            if len(words) > (keep if first or last else 2 * keep):
                head = "" if first else " ".join(words[:keep]) + " "
                tail = "" if last else " " + " ".join(words[-keep:]) + " "
                text = html.escape(head) + "\u2026" + html.escape(tail)
            else:
                text = html.escape(seg.text)
            parts.append(text)
        elif seg.op == INSERT and side == "variant":
            bg, line = DIFF_INSERT
            parts.append(f'<ins style="background:{bg};text-decoration:underline 2px {line};">'
                         f'{html.escape(seg.text)}</ins>')
        elif seg.op == DELETE and side == "variant":
            bg, line = DIFF_DELETE
            parts.append(f'<del style="background:{bg};text-decoration:line-through 2px {line};color:#444">'
                         f'{html.escape(seg.text)}</del>')
        elif seg.op == DELETE:
            parts.append(f'<mark style="background:{DIFF_INSERT[0]};font-weight:600">{html.escape(seg.text)}</mark>')
    return "".join(parts)
