"""Why a (perhaps correct) response scores low, said under its scores on Score and Compare."""
from __future__ import annotations

import streamlit as st

from explorer.logic.damage import low_note_html


def low_scores(reasons: list[str], who: str) -> None:
    """``explain.why_scores_low``'s sentences under one heading naming the response (``who``)."""
    if reasons:
        st.html(low_note_html(reasons, who=who))
