"""One metric value as text, the way the app's cards, the harnesses' explanations and ``check`` write it, and
as a number (``None`` when undefined), the way ``check`` and the harnesses read a frame's cell."""
from __future__ import annotations

import math

import pandas as pd

from vital_core.metrics.catalog import METRICS


def as_number(value) -> float | None:
    """A metric cell of a frame as a number (a flag as 1.0 / 0.0); ``None`` when undefined (None, NA, NaN)."""
    if value is None or value is pd.NA:
        return None
    number = float(value)
    return None if math.isnan(number) else number


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
