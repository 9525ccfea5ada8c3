"""A metric value, or a mean of one, as the app writes it; text escaped for HTML or for markdown."""
from __future__ import annotations

import html
import re

from vital_core.metrics.catalog import METRICS
from vital_core.metrics.display import format_value  # noqa: F401  (the app's widgets import it from here)
from vital_core.safety.markdown import escape_md  # noqa: F401  (the app's pages import it from here)


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


def plot_text(frame):
    """A copy of a chart's data with its text cells HTML-escaped: plotly draws legend names, facet
    titles, ticks and hover text from them and reads tags such as ``<a href>`` in them (it shows
    ``&lt;`` as ``<``). The CSV download keeps the original frame."""
    out = frame.copy()
    for column in out.columns:
        if any(isinstance(v, str) for v in out[column]):
            out[column] = [html.escape(v, quote=False) if isinstance(v, str) else v for v in out[column]]
    return out


# What a download's file name may hold of a user's text: no path, no markup, nothing a browser reads.
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def file_slug(text: object, fallback: str = "results") -> str:
    """A piece of a download's file name made from user text: letters, digits, '.', '_' and '-' only."""
    return _UNSAFE_IN_NAME.sub("-", str(text)).strip("-.")[:60] or fallback
