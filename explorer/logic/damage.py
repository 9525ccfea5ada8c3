"""Compare an example's response variants: every metric per variant, its change from normal and how it
reacted, and the story per damaged variant (the headline strip and its sentence).

The words are ``vital_core.analysis.story.REACTIONS`` (noticed / barely moved / cannot notice this by design /
undefined), decided by ``vital_core.analysis.story.reaction``: the strip, the sentence, the table and the chart all
read them from ``metric_table``, so they cannot disagree.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from explorer.logic import palette
from explorer.logic.formatting import escape
from vital_core.analysis import story
from vital_core.analysis.conventions import strict_values
from vital_core.analysis.stats import NOTICE_DROP, worsening
from vital_core.analysis.story import BARELY, REACTIONS, STORY_KEYS, STORY_METRICS, UNDEFINED
from vital_core.metrics.catalog import METRICS
from vital_core.metrics.formulas import DEFAULT_WEIGHTS
from vital_core.metrics.response import compute_response_metrics
from vital_core.metrics.undefined import why_undefined
from vital_core.results.model import NORMAL, ExampleResult, ResponseResult

NOT_A_SCORE = ""   # counts describe the response; they do not judge it
ALREADY_FLAGGED = "already fired on the normal response"
WENT_BETTER = "it moved the other way: the variant scores better"


def variant_metrics(example: ExampleResult, weights=DEFAULT_WEIGHTS) -> dict[str, dict]:
    """Each variant's metrics under the strict convention: a response none of whose subclaims was judged
    measured nothing, so the story says "undefined" and why rather than "barely moved" from a 0."""
    return {name: strict_values(compute_response_metrics(v, example.nuggets, weights), v)
            for name, v in example.variants.items()}


def reaction(key: str, normal, variant, variant_name: str = "") -> str:
    """How metric ``key`` reacted going from the normal response to the damaged variant ``variant_name``:
    one of ``vital_core.analysis.story.REACTIONS``, or ``NOT_A_SCORE`` for a count."""
    if METRICS[key].kind not in ("score", "flag"):
        return NOT_A_SCORE
    return story.reaction(key, variant_name, normal, variant)


def note(key: str, reacted: str, normal, variant_response: ResponseResult, normal_response: ResponseResult,
         nuggets, variant_value=None) -> str:
    """What a reaction's word leaves unsaid: why a metric is undefined, or that a flag was already on."""
    if reacted == UNDEFINED:
        side = normal_response if normal is None else variant_response
        who = "normal response" if normal is None else "variant"
        return f"{who}: {why_undefined(key, side, nuggets)}"
    if reacted == BARELY and METRICS[key].kind == "flag" and normal == (not METRICS[key].higher_is_better):
        # on for the normal response: still on, or switched off for the variant (the other way)
        return ALREADY_FLAGGED if variant_value == normal else WENT_BETTER
    if reacted == BARELY and METRICS[key].kind == "score" and variant_value is not None and normal is not None \
            and worsening(METRICS[key], normal, variant_value) <= -NOTICE_DROP:
        return WENT_BETTER   # a large move the other way: "barely moved" alone would contradict the number
    return ""


def metric_table(example: ExampleResult, keys: list[str], weights=DEFAULT_WEIGHTS) -> pd.DataFrame:
    """Rows: metrics; columns: each variant's value, then for each damaged variant its change from normal
    (``change X``), its reaction (``reaction X``) and what the word leaves unsaid (``note X``: why undefined,
    or a flag already on). ``None`` stays ``None`` (undefined)."""
    values = variant_metrics(example, weights)
    names = list(example.variants)
    normal_response = example.variants.get(NORMAL)
    rows = []
    for key in keys:
        row = {"key": key, "metric": METRICS[key].label}
        for name in names:
            row[name] = values[name].get(key)
        base = values.get(NORMAL, {}).get(key)
        for name in names:
            if name == NORMAL or NORMAL not in values:
                continue
            v = values[name].get(key)
            numeric = METRICS[key].kind == "score" and base is not None and v is not None
            row[f"change {name}"] = (v - base) if numeric else None
            reacted = reaction(key, base, v, name)
            row[f"reaction {name}"] = reacted
            row[f"note {name}"] = note(key, reacted, base, example.variants[name], normal_response,
                                       example.nuggets, v) if reacted else ""
        rows.append(row)
    return pd.DataFrame(rows)


def chart_data(table: pd.DataFrame, keys: list[str], names: list[str], example: ExampleResult) -> pd.DataFrame:
    """Compare's chart data (also its CSV): metric, variant, value (None = undefined), how the metric
    reacted for that variant (the strip's word; "" for the normal response) and what the variant's claims
    were checked against."""
    rows = []
    for key in keys:
        found = table[table["key"] == key]
        if found.empty:
            continue
        for name in names:
            value = found.iloc[0][name]
            rows.append({"metric": METRICS[key].label, "variant": name,
                         "value": None if value is None or pd.isna(value) else float(value),
                         "reaction": found.iloc[0].get(f"reaction {name}", "") or "",
                         "evidence_mode": example.variants[name].evidence_mode})
    return pd.DataFrame(rows, columns=["metric", "variant", "value", "reaction", "evidence_mode"])


@dataclass(frozen=True)
class Move:
    """One metric of a variant's story: before -> after and the word (plain text; callers escape)."""
    key: str
    label: str
    before: str
    after: str
    change: float | None
    word: str
    note: str

    def phrase(self) -> str:
        change = f" ({_signed(self.change)})" if self.change is not None else ""
        note = f" ({self.note})" if self.note else ""
        return f"{self.label} {self.before} \u2192 {self.after}{change}: {self.word}{note}"


@dataclass
class Headline:
    """One damaged variant's story: its name, the metrics that carry it, and the sentence (plain text)."""
    variant: str
    moves: list[Move]

    @property
    def body(self) -> str:
        return "; ".join(m.phrase() for m in self.moves) or "no metric to compare"

    def sentence(self) -> str:
        return f"{self.variant}: {self.body}"


def _signed(change) -> str:
    """A change as "\u22120.04" / "+0.10" (a true minus sign); one that rounds to zero is "+0.00",
    never "\u22120.00"."""
    return f"{0.0 if abs(change) < 0.005 else change:+.2f}".replace("-", "\u2212")


def _shown(key: str, value) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return "undefined"
    if METRICS[key].kind == "flag":
        return "flagged" if value else "not flagged"
    return f"{float(value):.2f}"


def move(table: pd.DataFrame, key: str, variant: str) -> Move | None:
    """How metric ``key`` moved for ``variant`` in a ``metric_table`` (None when the table lacks it)."""
    found = table[table["key"] == key]
    if found.empty or f"reaction {variant}" not in table:
        return None
    row = found.iloc[0]
    change = row.get(f"change {variant}")
    return Move(key, METRICS[key].short_label, _shown(key, row.get(NORMAL)), _shown(key, row.get(variant)),
                None if change is None or pd.isna(change) else float(change),
                row[f"reaction {variant}"], row.get(f"note {variant}") or "")


def headline(table: pd.DataFrame, variant: str) -> Headline:
    """The story of one damaged variant: FactScore precision, then the metrics that carry its story
    (``vital_core.analysis.story.STORY_KEYS``; every story metric for a variant of another name)."""
    keys = STORY_KEYS.get(variant, STORY_METRICS)
    return Headline(variant, [m for k in keys if (m := move(table, k, variant)) is not None])


def headlines(table: pd.DataFrame) -> list[Headline]:
    """One headline per damaged variant of a ``metric_table`` (each has a reaction column)."""
    return [headline(table, c.removeprefix("reaction ")) for c in table.columns if c.startswith("reaction ")]


# What each damaged variant is, said on its strip card.
VARIANT_WORDS = {"missing": "key fact left out", "wrong": "key fact replaced"}


def strip_html(heads: list[Headline], *, changes: dict[str, str] | None = None, scale: float = 1.0) -> str:
    """The headline strip: one card per damaged variant, the key change it made (``changes``: variant ->
    ``textdiff.change_sentence``), then each metric of its story as before -> after with its reaction badge;
    an undefined one says why. All text escaped; ``scale`` enlarges it (Present mode)."""
    cards = []
    for i, head in enumerate(heads):
        colour = palette.condition_colour(head.variant, i + 1)
        rows = []
        for m in head.moves:
            change = f' <span style="color:#444">({escape(_signed(m.change))})</span>' if m.change is not None else ""
            why = (f'<div class="vx-why" style="font-size:0.8em;color:#333;margin:0.1em 0 0 0.2em">'
                   f'{"why: " if m.word == UNDEFINED else ""}{escape(m.note)}</div>') if m.note else ""
            rows.append(f'<div class="vx-move" data-metric="{escape(m.key)}" data-reaction="{escape(m.word)}" '
                        f'style="margin:0.35em 0">'
                        f'<div style="display:flex;flex-wrap:wrap;gap:0.2em 0.5em;align-items:baseline">'
                        f'<span style="font-weight:600;min-width:8.5em" title="{escape(METRICS[m.key].description)}">'
                        f'{escape(m.label)}</span>'
                        f'<span style="font-variant-numeric:tabular-nums">{escape(m.before)} \u2192 '
                        f'{escape(m.after)}{change}</span>'
                        f'{palette.reaction_badge_html(m.word)}</div>{why}</div>')
        what = VARIANT_WORDS.get(head.variant, "")
        what = f' <span style="font-weight:400;color:#444">— {escape(what)}</span>' if what else ""
        changed = (changes or {}).get(head.variant)
        if changed:
            what += (f'<div class="vx-key-change" style="font-size:0.9em;margin:0.15em 0 0.2em">'
                     f'<mark style="background:{palette.DIFF_INSERT[0]};padding:0 0.2em">'
                     f'{escape(changed)}</mark></div>')
        cards.append(f'<div class="vx-strip-card" data-variant="{escape(head.variant)}" style="flex:1 1 22em;'
                     f'min-width:0;border:1px solid #ddd;border-top:6px solid {colour};border-radius:0.4em;'
                     f'padding:0.4em 0.8em;background:#fff">'
                     f'<div style="font-size:1.1em;font-weight:700">{escape(head.variant)}'
                     f'{what}'
                     f'</div>{"".join(rows) or escape(head.body)}</div>')
    return (f'<div class="vx-strip" style="display:flex;flex-wrap:wrap;gap:0.8em;font-size:{scale:.2f}em;'
            f'line-height:1.35">{"".join(cards)}</div>')


def legend_html() -> str:
    """The reaction words with their badges and one-line meanings (the strip's key)."""
    items = "".join(f'<span style="margin-right:1.2em;white-space:normal">{palette.reaction_badge_html(word)} '
                    f'<span style="color:#333;font-size:0.85em">{escape(story.REACTION_MEANING[word])}</span></span>'
                    for word in REACTIONS)
    return f'<div class="vx-reaction-legend" style="line-height:2">{items}</div>'


def _note_html(kind: str, heading: str, sentences: list[str], scale: float) -> str:
    items = "".join(f"<li>{escape(s)}</li>" for s in sentences)
    return (f'<div class="{kind}" style="font-size:{0.9 * scale:.2f}em;color:#333;margin-top:0.3em;'
            f'overflow-wrap:anywhere">{heading}<ul style="margin:0.1em 0 0 1.2em">{items}</ul></div>')


def flag_note_html(sentences: list[str], *, who: str = "The normal response", scale: float = 1.0) -> str:
    """Why a response (``who``) carries a flag, in plain words (``explain.why_flagged``; escaped)."""
    return _note_html("vx-flag-note", f"<b>{escape(who)} carries a flag</b> (how the metric counts, not a fault in "
                      "the answer):", sentences, scale)


def low_note_html(sentences: list[str], *, who: str = "the normal response", scale: float = 1.0) -> str:
    """Why a response (``who``) scores low, in plain words (``explain.why_scores_low``; escaped); the flag
    note's look, so that the two read as one explanation."""
    return _note_html("vx-low-note", f"<b>Why {escape(who)} scores low</b> (if it is correct, this is how the "
                      "metrics count, not a fault in it):", sentences, scale)
