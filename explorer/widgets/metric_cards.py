"""Metric cards (undefined ones say why) and metric tables."""
from __future__ import annotations

from typing import Iterable

import pandas as pd
import streamlit as st

from explorer.logic.formatting import escape_md, format_value
from vital_core.metrics.catalog import HEADLINE, METRICS
from vital_core.metrics.undefined import why_undefined
from vital_core.results.model import Nugget, ResponseResult


def metric_cards(values: dict, response: ResponseResult, nuggets: list[Nugget] | None,
                 keys: Iterable[str] = HEADLINE, before: dict | None = None, columns: int = 3) -> None:
    """One card per metric; undefined ones say so and why; ``before`` adds a change arrow."""
    keys = list(keys)
    for start in range(0, len(keys), columns):
        cols = st.columns(columns)
        for col, key in zip(cols, keys[start:start + columns]):
            spec = METRICS[key]
            value = values.get(key)
            delta = None
            if before is not None and before.get(key) != value:
                old = before.get(key)
                if spec.kind == "score" and old is not None and value is not None:
                    delta = f"{value - old:+.3f}"
                else:
                    delta = f"was {format_value(key, old)}"
            help_text = spec.description
            with col:
                if value is None:
                    reason = escape_md(why_undefined(key, response, nuggets))
                    st.metric(spec.label, "undefined", delta=delta, delta_color="off",
                              help=f"{spec.description}. Undefined: {reason}.", border=True)
                    st.caption(f"Undefined — {reason}.")
                else:
                    colour = "normal" if spec.higher_is_better else "inverse"
                    if spec.kind == "flag":   # a flag that newly fires is worse: red; one that stops, green
                        colour = "off"
                        if delta is not None and old_value_known(before, key):
                            fires = value == (not spec.higher_is_better)
                            delta = "now flagged (was not)" if fires else "no longer flagged"
                            colour = "inverse" if fires else "normal"
                    st.metric(spec.label, format_value(key, value), delta=delta, delta_color=colour,
                              help=help_text, border=True)


def old_value_known(before: dict | None, key: str) -> bool:
    return before is not None and before.get(key) is not None


def metrics_frame(values_by_name: dict[str, dict], keys: Iterable[str]) -> pd.DataFrame:
    rows = []
    for key in keys:
        row = {"metric": METRICS[key].label}
        for name, values in values_by_name.items():
            row[name] = format_value(key, values.get(key))
        rows.append(row)
    return pd.DataFrame(rows)

