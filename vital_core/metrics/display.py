"""One metric value as text, the way the app's cards, the harnesses' explanations and ``check`` write it."""
from __future__ import annotations

import math

import pandas as pd

from vital_core.metrics.catalog import METRICS


def format_value(key: str, value) -> str:
    """"undefined", "flagged" / "not flagged" for a flag, a whole number for a count, else three decimals."""
    spec = METRICS.get(key)
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "undefined"        # a table column turns None into NaN / NA
    if spec is not None and spec.kind == "flag":
        return "flagged" if value else "not flagged"
    if spec is not None and spec.kind == "count":
        return f"{int(value)}"
    try:
        return f"{float(value):.3f}"
    except (TypeError, ValueError):
        return str(value)
