"""The one colour code of VITAL Explorer, and the small HTML snippets that apply it.

Importance tiers colour a subclaim's row (a light tint with a strong left
border, so dark text stays readable); verdicts are badges with a symbol and a
word, so colour is never the only cue. Colours come from the Okabe-Ito
palette, which stays distinguishable with the common colour-vision
deficiencies. Every snippet escapes the text it is given: callers may pass
user text straight in.
"""
from __future__ import annotations

import html
from dataclasses import dataclass

from vital_core.analysis.story import BARELY, BY_DESIGN, NOTICED, UNDEFINED

# The conditions' chart colours and patterns are shared with report --figures, so the core holds them.
from vital_core.plots.colours import CONDITION_COLOURS, CONDITION_PATTERNS, EXTRA_COLOURS, condition_colour  # noqa: F401
from vital_core.results.model import (
    CONTRADICTED,
    LESS_IMPORTANT,
    NOT_ENOUGH_EVIDENCE,
    NOT_JUDGED,
    NOT_SUPPORT,
    OKAY,
    PARTIAL_SUPPORT,
    SUPPORT,
    SUPPORTED,
    UNLABELLED,
    VITAL,
)


@dataclass(frozen=True)
class Swatch:
    label: str        # what a person reads
    symbol: str       # a non-colour cue
    background: str
    border: str
    text: str = "#111111"


# Importance: darker, bluer border = more important. Unlabelled stands apart (purple, dashed).
IMPORTANCE: dict[str, Swatch] = {
    VITAL: Swatch("vital", "★", "#D6E9F8", "#0072B2"),
    OKAY: Swatch("okay", "●", "#EEF7FC", "#56B4E9"),
    LESS_IMPORTANT: Swatch("less important", "○", "#F4F4F4", "#A0A0A0"),
    UNLABELLED: Swatch("unlabelled", "?", "#FBEAF3", "#CC79A7"),
}

# Verdicts: badge colours with white or black text chosen for contrast >= 4.5:1.
VERDICT: dict[str, Swatch] = {
    SUPPORTED: Swatch("supported", "✓", "#00704F", "#00704F", "#FFFFFF"),
    CONTRADICTED: Swatch("contradicted", "✗", "#A33A00", "#A33A00", "#FFFFFF"),
    NOT_ENOUGH_EVIDENCE: Swatch("not enough evidence", "?", "#F0E442", "#B8AE1F", "#111111"),
    NOT_JUDGED: Swatch("not judged", "–", "#5F5F5F", "#5F5F5F", "#FFFFFF"),
}

# Nugget support uses the verdict colours of the same meaning.
NUGGET_SUPPORT: dict[str, Swatch] = {
    SUPPORT: Swatch("support", "✓", "#00704F", "#00704F", "#FFFFFF"),
    PARTIAL_SUPPORT: Swatch("partial support", "◐", "#F0E442", "#B8AE1F", "#111111"),
    NOT_SUPPORT: Swatch("not supported", "✗", "#A33A00", "#A33A00", "#FFFFFF"),
}

# How a metric reacted to a variant's damage (vital_core.analysis.story.REACTIONS): Compare's strip, sentence, table
# and chart, Present mode and the HTML report. Blue = the metric did its job; orange = it barely moved
# although the key fact changed; grey = it is not built to see this damage; dashed = nothing to measure.
REACTION: dict[str, Swatch] = {
    NOTICED: Swatch(NOTICED, "◆", "#0072B2", "#0072B2", "#FFFFFF"),
    BARELY: Swatch(BARELY, "≈", "#FFD78A", "#E69F00", "#111111"),
    BY_DESIGN: Swatch(BY_DESIGN, "⊘", "#EDEDED", "#9A9A9A", "#333333"),
    UNDEFINED: Swatch(UNDEFINED, "?", "#FFFFFF", "#777777", "#333333"),
}

# Text differences from the normal response.
DIFF_INSERT = ("#FFF1B8", "#7A5C00")   # background, underline colour
DIFF_DELETE = ("#FDE0DD", "#A33A00")


def reaction_badge_html(word: str) -> str:
    """A reaction word as a badge; "" for a metric that does not judge (a count)."""
    return badge_html(REACTION[word]) if word in REACTION else ""


def reaction_cell_style(word: str) -> str:
    """CSS for a table cell (pandas Styler) holding a reaction word: the badge's colours."""
    s = REACTION.get(word)
    if s is None:
        return "color:#555"
    return f"background-color:{s.background};color:{s.text};border-left:4px solid {s.border}"


NOT_ASSIGNED = "– not assigned"


def nugget_support_label(assignment: str | None) -> str:
    """A nugget's support for one response as a cell reads it ("◐ partial support"), symbol first."""
    s = NUGGET_SUPPORT.get(assignment or "")
    return f"{s.symbol} {s.label}" if s else NOT_ASSIGNED


def nugget_support_cell_style(label: object) -> str:
    """CSS for a cell holding ``nugget_support_label``: matched on the whole label, so "partial support"
    never takes the colour of "support"."""
    for s in NUGGET_SUPPORT.values():
        if label == f"{s.symbol} {s.label}":
            return f"background-color: {s.background}; color: {s.text}"
    return ""


def importance_swatch(label: str | None) -> Swatch:
    return IMPORTANCE.get(label or UNLABELLED, IMPORTANCE[UNLABELLED])


def verdict_swatch(verdict: str | None) -> Swatch:
    return VERDICT.get(verdict or NOT_JUDGED, VERDICT[NOT_JUDGED])


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def badge_html(swatch: Swatch) -> str:
    return (f'<span class="vx-badge" style="background:{swatch.background};color:{swatch.text};'
            f'border:1px solid {swatch.border};border-radius:0.6em;padding:0.05em 0.55em;'
            f'font-size:0.85em;white-space:nowrap">{_esc(swatch.symbol)} {_esc(swatch.label)}</span>')


def verdict_badge_html(verdict: str | None) -> str:
    return badge_html(verdict_swatch(verdict))


def importance_badge_html(label: str | None) -> str:
    s = importance_swatch(label)
    return (f'<span class="vx-tier" style="background:{s.background};color:{s.text};'
            f'border:2px solid {s.border};border-radius:0.3em;padding:0 0.45em;font-size:0.85em;'
            f'white-space:nowrap">{_esc(s.symbol)} {_esc(s.label)}</span>')


def subclaim_row_html(*, rank: int | None, claim_id: str, text: str, importance: str | None,
                      verdict: str | None, compact: bool = False) -> str:
    """One subclaim as a row tinted by its tier, with a verdict badge (all text escaped).

    ``compact`` puts the badges on a line of their own above the text, for narrow columns.
    """
    s = importance_swatch(importance)
    style = "dashed" if (importance or UNLABELLED) == UNLABELLED else "solid"
    rank_text = f"#{rank}" if rank is not None else "–"
    box = (f'background:{s.background};border-left:6px {style} {s.border};color:{s.text};'
           f'padding:0.3em 0.6em;margin:0.15em 0;border-radius:0.2em;')
    claim = f'{_esc(text)} <span style="color:#555;font-size:0.8em">({_esc(claim_id)})</span>'
    if compact:
        return (f'<div class="vx-row" style="{box}">'
                f'<div style="display:flex;flex-wrap:wrap;gap:0.4em;align-items:center;margin-bottom:0.15em">'
                f'<span style="color:#333">{_esc(rank_text)}</span>{importance_badge_html(importance)}'
                f'<span style="margin-left:auto">{verdict_badge_html(verdict)}</span></div>'
                f'<div>{claim}</div></div>')
    # wraps on a narrow screen: the claim keeps at least 14em of its line, else the badges move below it
    return (f'<div class="vx-row" style="{box}display:flex;flex-wrap:wrap;gap:0.2em 0.6em;align-items:baseline">'
            f'<span style="min-width:2.4em;color:#333">{_esc(rank_text)}</span>'
            f'<span style="min-width:7.5em">{importance_badge_html(importance)}</span>'
            f'<span style="flex:1 1 14em;min-width:0;overflow-wrap:anywhere">{claim}</span>'
            f'<span>{verdict_badge_html(verdict)}</span></div>')


def subclaims_html(response, *, details: bool = True, compact: bool = False, opened: bool = False) -> str:
    """A response's subclaims in importance order, rows tinted by tier with verdict badges.

    Each row opens (``<details>``, no script needed) to show the verdict's reason and evidence quote;
    ``opened`` shows them all open (a printed report).
    """
    rows = []
    for s in response.ordered_subclaims():
        row = subclaim_row_html(rank=s.rank, claim_id=s.id, text=s.text,
                                        importance=s.importance, verdict=s.verdict, compact=compact)
        if not details:
            rows.append(row)
            continue
        extra = []
        if s.reason:
            extra.append(f"<div><b>Reason:</b> {html.escape(s.reason)}</div>")
        if s.evidence:
            extra.append(f'<blockquote style="margin:0.2em 0 0.2em 0.5em;padding-left:0.6em;'
                         f'border-left:3px solid #999;color:#333">{html.escape(s.evidence)}</blockquote>')
        if s.sentence:
            extra.append(f'<div style="color:#555;font-size:0.85em">From the sentence: '
                         f'“{html.escape(s.sentence)}”</div>')
        if not extra:
            extra.append('<div style="color:#555">No reason or evidence recorded for this verdict.</div>')
        indent = "0.8em" if compact else "3.2em"
        rows.append(f'<details class="vx-claim"{" open" if opened else ""}>'
                    f'<summary style="list-style:none;cursor:pointer">{row}'
                    f'</summary><div style="margin:0.2em 0 0.6em {indent};font-size:0.9em">'
                    f'{"".join(extra)}</div></details>')
    if not rows:
        return '<div style="color:#555">No subclaims.</div>'
    return "".join(rows)


def legend_html() -> str:
    tiers = " ".join(importance_badge_html(k) for k in IMPORTANCE)
    verdicts = " ".join(badge_html(v) for v in VERDICT.values())
    return (f'<div class="vx-legend" style="line-height:2.0">'
            f'<div><b>Importance</b> (row colour)<br>{tiers}</div>'
            f'<div><b>Verdict</b> (badge)<br>{verdicts}</div></div>')


def importance_cell_style(label: str | None) -> str:
    """CSS for a table cell (pandas Styler) carrying an importance label."""
    s = importance_swatch(label)
    return f"background-color: {s.background}; color: {s.text}; border-left: 4px solid {s.border}"


def verdict_label(verdict: str | None) -> str:
    s = verdict_swatch(verdict)
    return f"{s.symbol} {s.label}"


def importance_label(label: str | None) -> str:
    s = importance_swatch(label)
    return f"{s.symbol} {s.label}"
