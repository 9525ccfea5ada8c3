"""The colours and bar patterns of the response conditions in every chart: the app's plotly charts
(through ``explorer.logic.palette``) and ``report --figures`` (``figures``). Okabe-Ito colours, which
stay distinguishable with the common colour-vision deficiencies; patterns are a second cue."""
from __future__ import annotations

from vital_core.results.model import MISSING, NORMAL, WRONG

CONDITION_COLOURS = {NORMAL: "#0072B2", MISSING: "#E69F00", WRONG: "#D55E00"}
CONDITION_PATTERNS = {NORMAL: "", MISSING: "/", WRONG: "x"}     # plotly's bar pattern shapes
EXTRA_COLOURS = ["#009E73", "#CC79A7", "#56B4E9", "#999999"]     # conditions beyond the three, in turn


def condition_colour(name: str, index: int = 0) -> str:
    """The colour of a condition; any other one takes the ``index``-th extra colour."""
    return CONDITION_COLOURS.get(name, EXTRA_COLOURS[index % len(EXTRA_COLOURS)])
