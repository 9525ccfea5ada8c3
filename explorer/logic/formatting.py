"""A metric value, or a mean of one, as the app writes it; text escaped for HTML."""
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


def format_mean(key: str, value) -> str:
    """A mean over responses: the share flagged for a flag, two decimals for a count, three for a score."""
    if value is None or value != value:      # None or NaN
        return "undefined"
    kind = METRICS[key].kind if key in METRICS else "count"
    if kind == "flag":
        return f"{value:.1%} flagged"
    return f"{value:.2f}" if kind == "count" else f"{value:.3f}"


def escape(text: object) -> str:
    return html.escape(str(text), quote=True)

