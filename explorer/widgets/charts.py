"""A plotly chart with its PNG download and its data as CSV."""
from __future__ import annotations

import pandas as pd
import streamlit as st

def chart(fig, name: str, data: pd.DataFrame, *, key: str, caption: str | None = None, font: int = 13) -> None:
    """A plotly chart with a PNG download in its toolbar (camera icon) and its data as CSV; ``font`` in px."""
    fig.update_layout(font=dict(size=font), margin=dict(l=10, r=10, t=50, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="right", x=1))
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
                            file_name=f"{name}.csv", mime="text/csv", key=f"{key}_csv")

