"""Clauses of an evidence sentence, so that a value or name is read in the clause it belongs to.

"Australia's capital is Canberra, a planned city chosen as a compromise
between Sydney and Melbourne" -> "Australia's capital is Canberra" and "a
planned city chosen ...": Sydney is not in the clause that says which city is
the capital. The whole sentence is always compared too; these are extra units.
"""
from __future__ import annotations

import re

_BREAK = re.compile(r"\s*;\s*|\s*:\s+|,\s+(?=(?:and|but|while|whereas|although|though|which|who|whom|where|when|"
                    r"so|yet|a|an|the|its|his|her|their|followed|including|making|close|near|after|before|"
                    r"not|rather|with|as)\b)|\s+(?:while|whereas|but)\s+|\s+\(|\)\s*|"
                    r"\s+and\s+(?=(?:was|were|is|are|had|has|then|later|died|became)\b)")


# the rest of a list of names after an item with an article ("gave up Poland, | the Baltic lands, Finland and
# Ukraine"): one clause with the items before it
_NAME = r"(?:the\s+)?[A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*)*"
_LIST_TAIL = re.compile(rf"(?:the|a|an)\s+[\w'\-]+(?:\s+[\w'\-]+){{0,2}}(?:,\s+{_NAME})+,?\s+and\s+{_NAME}\.?$")


def clauses_of(sentence: str) -> list[str]:
    """The sentence's clauses of at least three words; none when it has only one."""
    pieces = [p.strip(" ,;:()") for p in _BREAK.split(sentence)]
    pieces = [p for p in pieces if p]
    parts: list[str] = []
    carry = ""
    for n, piece in enumerate(pieces):
        piece = f"{carry}, {piece}" if carry else piece
        carry = ""
        if parts and _LIST_TAIL.match(piece) and re.search(r"\b[A-Z][\w'\-]*$", parts[-1]):
            parts[-1] = f"{parts[-1]}, {piece}"
            continue
        if len(piece.split()) < 4 and n + 1 < len(pieces):
            carry = piece            # "Los Angeles, California" goes with "with around 4 million"
        elif parts and len(piece.split()) < 4:
            parts[-1] = f"{parts[-1]}, {piece}"   # a list's last items ("..., and North Carolina")
        else:
            parts.append(piece)
    parts = [p for p in parts if len(p.split()) >= 3]
    return parts if len(parts) >= 2 else []
