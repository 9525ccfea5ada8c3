"""Colour-coded subclaims and nuggets: rows tinted by importance tier with verdict badges."""
from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from explorer.logic import palette
from explorer.logic.formatting import escape_md
from vital_core.model import NOT_JUDGED, Nugget, ResponseResult

# Tables of subclaims use rows tall enough for Streamlit to wrap their text (it wraps above 4rem):
# cut to one line, claims that start alike (S2-S4 of a response) look identical.
WRAPPED_ROW_HEIGHT = 72

def legend(where=None) -> None:
    (where or st).html(palette.legend_html())



def subclaims_html(response: ResponseResult, *, details: bool = True, compact: bool = False) -> str:
    """A response's subclaims in importance order, rows tinted by tier with verdict badges.

    Each row opens (``<details>``) to show the verdict's reason and evidence quote.
    """
    rows = []
    for s in response.ordered_subclaims():
        row = palette.subclaim_row_html(rank=s.rank, claim_id=s.id, text=s.text,
                                        importance=s.importance, verdict=s.verdict, compact=compact)
        if not details:
            rows.append(row)
            continue
        extra = []
        if s.reason:
            extra.append(f"<div><b>Reason:</b> {html.escape(s.reason)}</div>")
        if s.evidence:
            extra.append(f'<blockquote style="margin:0.2em 0 0.2em 0.5em;padding-left:0.6em;'
                         f'border-left:3px solid #999;color:#333">{html.escape(s.evidence)}</blockquote>')
        if s.sentence:
            extra.append(f'<div style="color:#555;font-size:0.85em">From the sentence: '
                         f'“{html.escape(s.sentence)}”</div>')
        if not extra:
            extra.append('<div style="color:#555">No reason or evidence recorded for this verdict.</div>')
        indent = "0.8em" if compact else "3.2em"
        rows.append(f'<details class="vx-claim"><summary style="list-style:none;cursor:pointer">{row}'
                    f'</summary><div style="margin:0.2em 0 0.6em {indent};font-size:0.9em">'
                    f'{"".join(extra)}</div></details>')
    if not rows:
        return '<div style="color:#555">No subclaims.</div>'
    return "".join(rows)


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
        target.warning("Not judged: none of these subclaims has a verdict (in the release, FactScore found no "
                       "usable document). The paper's tables count them as unsupported; the strict "
                       "convention leaves this response out.", icon=":material/help:")
    box = target.container(height=height) if height is not None and len(response.subclaims) > 6 else target
    box.html(subclaims_html(response, details=details, compact=compact))
    if details:
        target.caption("Click a row for the verdict's reason and evidence quote.")


def nugget_table(nuggets: list[Nugget] | None, variants: dict[str, ResponseResult]) -> pd.DataFrame | None:
    if nuggets is None:
        return None
    rows = []
    for n in nuggets:
        row = {"nugget": n.id, "text": n.text, "importance": n.importance}
        for name, v in variants.items():
            a = (v.nugget_assignment or {}).get(n.id)
            row[name] = palette.NUGGET_SUPPORT[a].symbol + " " + palette.NUGGET_SUPPORT[a].label if a \
                else "– not assigned"
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

    def colour(value: str) -> str:
        for key, sw in palette.NUGGET_SUPPORT.items():
            if isinstance(value, str) and value.endswith(sw.label):
                return f"background-color: {sw.background}; color: {sw.text}"
        return ""

    def tier(value: str) -> str:
        return palette.importance_cell_style(value)

    styled = table.style.map(colour, subset=list(variants)).map(tier, subset=["importance"])
    st.dataframe(styled, hide_index=True, width="stretch")

