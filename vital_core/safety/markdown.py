"""User text made safe for markdown: shown exactly as written wherever a markdown renderer draws it
(the app's pages, an evaluation harness's log viewer)."""
from __future__ import annotations

import re

# Every ASCII punctuation character: CommonMark renders a backslash-escaped one as itself.
_MD_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_LINE_INDENT = re.compile(r"^[ \t]+", re.MULTILINE)
# GFM turns a bare http://, https:// or www. into a link after escapes are resolved: a word joiner
# (U+2060, invisible) after the scheme or "www" breaks that pattern.
_BARE_URL = re.compile(r"(?i)\b(https?|www)(?=:|\.)")


def escape_md(text: object) -> str:
    """Text that a markdown renderer (Streamlit's st.markdown, captions, alerts, subheaders, expander,
    metric, status and radio labels, help tooltips; a harness's log viewer) shows exactly as written.

    Every ASCII punctuation character is backslash-escaped, so no image or link (``![x](url)``,
    ``[a](javascript:..)``, ``<http://..>``, bare ``http://``), HTML, emphasis, heading, list,
    table, LaTeX (``$``) or Streamlit directive (``:red[..]``, ``:material/..:``) can start;
    a bare ``http://`` or ``www.`` gets an invisible word joiner so that it is not made a link;
    a line's indent is dropped so that no text turns into a code block.
    """
    text = _BARE_URL.sub("\\1\u2060", _LINE_INDENT.sub("", str(text)))
    return _MD_PUNCTUATION.sub(r"\\\1", text)
