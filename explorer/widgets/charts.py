"""A plotly chart with its PNG download and its data as CSV."""
from __future__ import annotations

import textwrap

import pandas as pd
import streamlit as st

# A title line this long fits a phone's width (390 px) at the 13 px font; longer titles wrap (fewer
# characters a line in a larger font), since plotly never wraps them itself and would cut them at the edge.
TITLE_CHARS, BASE_FONT = 34, 13
LEGEND_ROWS = 2   # room above the plot for a legend that wraps onto two rows on a phone


def title_lines(title: str, font: int = BASE_FONT) -> list[str]:
    """A chart title broken at word boundaries into lines that fit a phone's width at ``font`` px."""
    return textwrap.wrap(title, max(12, TITLE_CHARS * BASE_FONT // font)) if title else []


def chart(fig, name: str, data: pd.DataFrame, *, key: str, caption: str | None = None, font: int = 13) -> None:
    """A plotly chart with a PNG download in its toolbar (camera icon) and its data as CSV; ``font`` in px.
    The title wraps and the legend sits under it, above the plot, at any width (at 390 px a legend beside
    the title would cover it)."""
    lines = title_lines(fig.layout.title.text or "", font)
    title_font, row = round(font * 1.3), round(font * 1.9)   # px: the title's size, a legend row's height
    fig.update_layout(font=dict(size=font),
                      # from the chart's own left edge, not the plot's: a wide axis label would push it off;
                      # plotly lays the lines of a title anchored at its top upwards, hence the padding per line
                      title=dict(text="<br>".join(lines), x=0, xref="container", xanchor="left", y=1,
                                 yref="container", yanchor="top", font=dict(size=title_font),
                                 pad=dict(t=8 + title_font * max(len(lines) - 1, 0), l=4)),
                      margin=dict(l=10, r=10, t=16 + round(title_font * 1.3) * len(lines) + row * LEGEND_ROWS, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0,
                                  title=dict(side="left")))
    config = {"displaylogo": False,
              "toImageButtonOptions": {"format": "png", "filename": name, "scale": 2},
              "modeBarButtonsToRemove": ["lasso2d", "select2d"]}
    st.plotly_chart(fig, config=config, key=f"{key}_chart", width="stretch")
    cols = st.columns([3, 1])
    if caption:
        cols[0].caption(caption + " PNG: camera icon in the chart's toolbar.")
    else:
        cols[0].caption("PNG: camera icon in the chart's toolbar.")
    cols[1].download_button("Data as CSV", data.to_csv(index=False).encode("utf-8"),
                            file_name=f"{name}.csv", mime="text/csv", key=f"{key}_csv", on_click="ignore")
