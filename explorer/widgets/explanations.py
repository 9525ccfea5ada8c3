"""Why a (perhaps correct) response scores low, said under its scores on Score and Compare."""
from __future__ import annotations

import streamlit as st

from explorer.logic.formatting import escape_md


def low_scores(reasons: list[str], who: str) -> None:
    """``explain.why_scores_low``'s sentences as a list under one heading naming the response (``who``)."""
    if not reasons:
        return
    st.markdown(f"**Why {escape_md(who)} scores low** (if it is correct, this is how the metrics count, "
                "not a fault in it):")
    for reason in reasons:
        st.markdown(f"- {escape_md(reason)}")
