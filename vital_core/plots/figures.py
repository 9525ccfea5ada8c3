"""The paper's figures as SVG and PNG files (``report --figures DIR``), in the colours and patterns of the
app's charts (``colours``).

Drawn with matplotlib, which writes both formats with no browser (plotly's image export needs a
Chromium of its own). Figures 3 and 4: cumulative FactScore precision over the first n subclaims
in response order, single-answer and open-ended queries (pooled, as the authors' graph_real_data.py);
Figure 5: linear-decay precision and recall under the chosen convention; and the detection rate of
each metric (the project's ``NOTICED_RULE``).

Every file carries ``FIGURE_TAG`` in its metadata (SVG ``dc:description``, PNG text chunk): an existing
file of the same name is replaced only when it has the tag, and never through a link
(``vital_core.files.outputs``); all the files are drawn and checked before the first is written.
"""
from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")   # files only: never open a window
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from vital_core.analysis import conventions as conv  # noqa: E402
from vital_core.analysis import stats
from vital_core.files.outputs import OutputKind, check_target, has_marker, replace_output  # noqa: E402
from vital_core.metrics.catalog import FIGURE5_DECAY, METRICS, TESTED  # noqa: E402
from vital_core.plots import colours  # noqa: E402
from vital_core.results.dataset import Dataset  # noqa: E402
from vital_core.results.model import OPEN_ENDED, SINGLE_ANSWER, ordered_conditions  # noqa: E402

# plotly's bar patterns (the app) as matplotlib hatches
HATCHES = {"": "", "/": "//", "x": "xx", ".": ".."}
CUMULATIVE_FIGURES = {SINGLE_ANSWER: "figure-3-single-answer", OPEN_ENDED: "figure-4-open-ended"}
PAPER_CURVE_POSITIONS = 32   # graph_real_data.py cuts the curves at 32 subclaims
FIGURE_TAG = "vital-explorer-figure/1"
FIGURE = OutputKind("a figure", "--figures folder", has_marker(FIGURE_TAG.encode()))


def _style(condition: str, index: int) -> dict:
    return {"color": colours.condition_colour(condition, index),
            "hatch": HATCHES.get(colours.CONDITION_PATTERNS.get(condition, ""), "")}


def _draw(fig, name: str) -> list[tuple[str, bytes]]:
    """The figure as SVG and PNG bytes, each tagged as this project's."""
    files = []
    for ext in ("svg", "png"):
        buffer = io.BytesIO()
        fig.savefig(buffer, format=ext, dpi=150, bbox_inches="tight", metadata={"Description": FIGURE_TAG})
        files.append((f"{name}.{ext}", buffer.getvalue()))
    plt.close(fig)
    return files


def cumulative_figure(dataset: Dataset, title: str):
    curve = stats.well_supported(stats.cumulative_precision_curves(dataset, "response",
                                                                   max_position=PAPER_CURVE_POSITIONS))
    if curve.empty:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for i, cond in enumerate(ordered_conditions(curve["condition"])):
        part = curve[curve["condition"] == cond]
        ax.plot(part["position"], part["precision"], marker="o", markersize=3, label=cond,
                color=colours.condition_colour(cond, i), linestyle=("-", "--", ":", "-.")[i % 4])
    ax.set(title=title, xlabel="subclaim position (first n subclaims, response order)",
           ylabel="cumulative FactScore precision", ylim=(0, 1.02))
    ax.legend(frameon=False)
    fig.text(0.01, -0.04, f"Responses pooled; {stats.CURVE_RULE}.", fontsize=7)
    return fig


def _grouped_bars(wide: pd.DataFrame, x_labels: list[str], title: str, ylabel: str, note: str, *,
                  colour_offset: int = 0, rotation: int = 20, width_per_x: float = 1.5, note_y: float = -0.12):
    """Bars of ``wide`` (one row per condition, one column per x) grouped by x, in the app's colours."""
    groups, columns = list(wide.index), list(wide.columns)
    fig, ax = plt.subplots(figsize=(1.6 + width_per_x * len(columns), 4.0))
    width = 0.8 / len(groups)
    for i, group in enumerate(groups):
        xs = [x + (i - (len(groups) - 1) / 2) * width for x in range(len(columns))]
        ax.bar(xs, [wide.at[group, c] for c in columns], width, label=group, edgecolor="white",
               **_style(group, i + colour_offset))
    ax.set_xticks(range(len(columns)), x_labels, rotation=rotation, ha="right")
    ax.set(title=title, ylabel=ylabel, ylim=(0, 1.05))
    ax.legend(frameon=False)
    fig.text(0.01, note_y, note, fontsize=7, wrap=True)
    return fig


def bars_figure(means: pd.DataFrame, keys: list[str], title: str, ylabel: str, note: str):
    keys = [k for k in keys if k in means.columns and means[k].notna().any()]
    if not keys:
        return None
    wide = means.loc[ordered_conditions(means.index), keys]
    return _grouped_bars(wide, [METRICS[k].label for k in keys], title, ylabel, note)


def detection_figure(dataset: Dataset):
    frame = dataset.frame
    keys = [k for k in TESTED if k in frame.columns]
    det = stats.detection_frame(stats.paired_tests(conv.strict_frame(frame, keys), metrics=keys), None)
    if det.empty:
        return None
    metrics = list(dict.fromkeys(det["metric"]))
    wide = det.pivot_table(index="condition", columns="metric", values="detection_rate", sort=False)[metrics]
    return _grouped_bars(wide, metrics, "Detection rate per metric", "share of pairs noticed",
                         stats.NOTICED_RULE.capitalize() + ".", colour_offset=1, rotation=30, width_per_x=0.9,
                         note_y=-0.2)


def write_figures(dataset: Dataset, folder: str | Path, convention: str = conv.PAPER) -> list[Path]:
    """Figures 3, 4 and 5 and the detection chart of a loaded set into ``folder``; returns the files.

    ``InputError`` (nothing written) when one of the names holds a file that is not a figure of ours."""
    folder = Path(folder)
    frame = dataset.frame
    drawn: list[tuple[str, bytes]] = []
    for query_type, name in CUMULATIVE_FIGURES.items():
        rows = (frame["query_type"] == query_type).to_numpy()
        if rows.any():
            fig = cumulative_figure(dataset.subset(rows), f"Cumulative precision, {query_type} queries")
            if fig is not None:
                drawn += _draw(fig, name)
    for query_type in [q for q in (SINGLE_ANSWER, OPEN_ENDED) if (frame["query_type"] == q).any()] or [None]:
        part = frame if query_type is None else frame[frame["query_type"] == query_type]
        means, _ = conv.condition_table(part, FIGURE5_DECAY, convention)
        title = "Linear-decay precision and recall" + (f", {query_type} queries" if query_type else "")
        fig = bars_figure(means, FIGURE5_DECAY, title, "mean", conv.DESCRIPTION[convention])
        if fig is not None:
            drawn += _draw(fig, "figure-5" + (f"-{query_type}" if query_type else ""))
    fig = detection_figure(dataset)
    if fig is not None:
        drawn += _draw(fig, "detection")
    for name, _ in drawn:
        check_target(folder / name, FIGURE)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in drawn:
        with replace_output(folder / name, FIGURE, "wb") as handle:
            handle.write(data)
    return [folder / name for name, _ in drawn]
