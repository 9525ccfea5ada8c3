"""Colour-coded subclaims and nuggets: rows tinted by importance tier with verdict badges."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer.logic import palette
from explorer.logic.formatting import escape_md
from vital_core.results.model import EVIDENCE_NONE, EVIDENCE_UNKNOWN, EVIDENCE_WORDS, NOT_JUDGED, Nugget, ResponseResult

# Tables of subclaims use rows tall enough for Streamlit to wrap their text (it wraps above 4rem):
# cut to one line, claims that start alike (S2-S4 of a response) look identical.
WRAPPED_ROW_HEIGHT = 72
NUGGET_TEXT_WIDTH, NUGGET_SUPPORT_WIDTH = 330, 140   # pixels: id 60 + text + tier 110 + 3 variants


def not_judged_why(response: ResponseResult) -> str:
    """Why no subclaim has a verdict, said of this response: "the release" only for records loaded from it."""
    if response.evidence_mode == EVIDENCE_NONE:
        return ("no evidence documents or reference answer were given, and the offline verifier judges only "
                "against evidence")
    if response.evidence_mode == EVIDENCE_UNKNOWN:
        return "in the published records, FactScore found no usable document for this response"
    return f"the verifier gave none against {EVIDENCE_WORDS.get(response.evidence_mode, 'the evidence')}"


def show_subclaims(response: ResponseResult, *, details: bool = True, where=None, compact: bool = False,
                   height: int | None = None) -> None:
    """The colour-coded subclaim list; ``compact`` for narrow columns, ``height`` scrolls long lists."""
    target = where or st
    if response.error:
        target.error(f"Scoring this response failed: {escape_md(response.error)}")
    if not response.subclaims:
        target.info("No subclaims: the response was empty or could not be decomposed, "
                    "so every precision metric is undefined.")
        return
    for w in response.warnings:
        target.warning(escape_md(w))
    if all(s.verdict == NOT_JUDGED for s in response.subclaims):
        target.warning(f"Not judged: none of these subclaims has a verdict ({not_judged_why(response)}). "
                       "The paper's tables count them as unsupported; the strict convention leaves this "
                       "response out.", icon=":material/help:")
    box = target.container(height=height) if height is not None and len(response.subclaims) > 6 else target
    box.html(palette.subclaims_html(response, details=details, compact=compact))
    if details:
        target.caption("Click a row for the verdict's reason and evidence quote.")


def nugget_table(nuggets: list[Nugget] | None, variants: dict[str, ResponseResult]) -> pd.DataFrame | None:
    if nuggets is None:
        return None
    rows = []
    for n in nuggets:
        row = {"nugget": n.id, "text": n.text, "importance": n.importance}
        for name, v in variants.items():
            row[name] = palette.nugget_support_label((v.nugget_assignment or {}).get(n.id))
        rows.append(row)
    return pd.DataFrame(rows)


def show_nuggets(nuggets: list[Nugget] | None, variants: dict[str, ResponseResult]) -> None:
    table = nugget_table(nuggets, variants)
    if table is None:
        st.info("No nuggets: they are built from evidence documents, and this example has none. "
                "Recall metrics (nugget recall, VITAL recall, RLR) are undefined.")
        return
    if table.empty:
        st.info("The evidence yielded no nuggets, so recall metrics are undefined.")
        return

    def tier(value: str) -> str:
        return palette.importance_cell_style(value)

    styled = table.style.map(palette.nugget_support_cell_style, subset=list(variants)).map(tier, subset=["importance"])
    # fixed widths that add up to less than a 1440-pixel screen's main column: no column is cut off
    support = {name: st.column_config.TextColumn(width=NUGGET_SUPPORT_WIDTH) for name in variants}
    st.dataframe(styled, hide_index=True, width="stretch", row_height=WRAPPED_ROW_HEIGHT,
                 column_config={"nugget": st.column_config.TextColumn(width=60),
                                "text": st.column_config.TextColumn(width=NUGGET_TEXT_WIDTH),
                                "importance": st.column_config.TextColumn(width=110), **support})

