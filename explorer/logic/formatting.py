"""A metric value as the app writes it: undefined, flagged / not flagged, a count or 3 decimals."""
from __future__ import annotations

import html

from vital_core.metrics.catalog import METRICS


def format_value(key: str, value) -> str:
    spec = METRICS.get(key)
    if value is None:
        return "undefined"
    if spec is not None and spec.kind == "flag":
        return "flagged" if value else "not flagged"
    if spec is not None and spec.kind == "count":
        return f"{int(value)}"
    try:
        return f"{float(value):.3f}"
    except (TypeError, ValueError):
        return str(value)



def escape(text: object) -> str:
    return html.escape(str(text), quote=True)

