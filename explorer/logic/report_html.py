"""A one-page report of one example: a self-contained HTML file to send to someone who will not run the app.

It holds the query, the texts (each variant's change from normal marked), the coloured subclaims with their
reasons and quotes, every metric (an undefined one says why), and, with damaged variants, the story (the
headline strip and its sentences, in ``vital_core.analysis.story``'s words). No script, no stylesheet or font from the
network, no image: it reads the same with the network off. Every piece of text from the result is escaped.
"""
from __future__ import annotations

import re

from explorer.logic import damage, explain, palette, textdiff
from explorer.logic.formatting import escape, format_value
from vital_core.metrics.catalog import METRICS, VARIANT_TABLE
from vital_core.metrics.undefined import why_undefined
from vital_core.results.model import NORMAL, ExampleResult, ordered_conditions

_STYLE = """
body {font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111; margin: 1.5em auto;
      max-width: 72em; padding: 0 1em; line-height: 1.45;}
h1 {font-size: 1.5em; margin-bottom: 0.2em;} h2 {font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ddd;}
.vx-texts {display: flex; flex-wrap: wrap; gap: 1em;} .vx-texts > div {flex: 1 1 18em; min-width: 0;}
.vx-text {border: 1px solid #ddd; border-radius: 0.3em; padding: 0.5em; overflow-wrap: anywhere;}
table {border-collapse: collapse; width: 100%; font-size: 0.92em;}
th, td {border: 1px solid #ddd; padding: 0.25em 0.5em; text-align: left; vertical-align: top;}
th {background: #f4f4f4;} .vx-undefined {color: #555; font-size: 0.9em;}
.vx-claims {display: flex; flex-wrap: wrap; gap: 1em;} .vx-claims > div {flex: 1 1 20em; min-width: 0;}
details.vx-claim summary {list-style: none;}
@media print {details.vx-claim > div {display: block;}}
"""
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def file_stem(example_id: str) -> str:
    """A download file name from an example id (anything but letters, digits, . _ - becomes -)."""
    return _UNSAFE_NAME.sub("-", example_id).strip("-.")[:60] or "example"


def _metrics_table(example: ExampleResult, names: list[str]) -> str:
    keys = [k for k in VARIANT_TABLE if k in METRICS]
    values = damage.variant_metrics(example)
    table = damage.metric_table(example, keys) if NORMAL in names and len(names) > 1 else None
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    damaged = [n for n in names if n != NORMAL] if table is not None else []
    head += "".join(f"<th>{escape(n)}: reaction</th>" for n in damaged)
    rows = []
    for i, key in enumerate(keys):
        cells = []
        for n in names:
            value = values[n].get(key)
            text = escape(format_value(key, value))
            if value is None:
                why = why_undefined(key, example.variants[n], example.nuggets)
                text += f'<div class="vx-undefined">{escape(why)}</div>'
            cells.append(f"<td>{text}</td>")
        for n in damaged:
            row = table.iloc[i]
            why = row[f"note {n}"]
            why = f'<div class="vx-undefined">{escape(why)}</div>' if why else ""
            cells.append(f"<td>{palette.reaction_badge_html(row[f'reaction {n}'])}{why}</td>")
        rows.append(f'<tr><td title="{escape(METRICS[key].description)}">{escape(METRICS[key].label)}</td>'
                    f'{"".join(cells)}</tr>')
    return f"<table><thead><tr><th>metric</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def example_report(example: ExampleResult, *, origin: str = "") -> str:
    """The report as one HTML document (a str): self-contained, no script, every result text escaped."""
    names = ordered_conditions(example.variants)
    normal = example.variants.get(NORMAL)
    parts = [f"<h1>{escape(example.query)}</h1>",
             f"<p>Example <b>{escape(example.id)}</b>{f' ({escape(origin)})' if origin else ''}. "
             f"{escape(explain.evidence_sentence(example))}</p>"]
    if example.error:
        parts.append(f"<p><b>Part of the scoring failed:</b> {escape(example.error)}</p>")
    if normal is not None and len(names) > 1:
        table = damage.metric_table(example, [k for k in VARIANT_TABLE if k in METRICS])
        heads = sorted(damage.headlines(table), key=lambda h: h.variant != "wrong")
        changes = {n: textdiff.change_sentence(normal.text, v.text) for n, v in example.variants.items() if n != NORMAL}
        parts += ["<h2>Which metrics noticed the damage?</h2>", damage.strip_html(heads, changes=changes),
                  "<ul>" + "".join(f"<li><b>{escape(h.variant)}</b>: {escape(h.body)}</li>" for h in heads) + "</ul>",
                  damage.legend_html()]
    if normal is not None:
        flags = explain.why_flagged(normal, example.nuggets)
        if flags:
            parts.append(damage.flag_note_html(flags))
        reasons = explain.why_normal_scores_low(example)
        if reasons:
            parts.append(damage.low_note_html(reasons))
    texts = []
    for n in names:
        v = example.variants[n]
        body = escape(v.text) if n == NORMAL or normal is None else textdiff.diff_html(normal.text, v.text)
        texts.append(f'<div><h3>{escape(n)}</h3><div class="vx-text">{body}</div></div>')
    parts += ["<h2>Texts</h2>", f'<div class="vx-texts">{"".join(texts)}</div>']
    if example.reference:
        parts.append(f'<p><b>Reference answer:</b> {escape(example.reference)}</p>')
    parts += ["<h2>Metrics</h2>", _metrics_table(example, names)]
    claims = []
    for n in names:
        v = example.variants[n]
        problems = "".join(f"<p><b>Warning:</b> {escape(w)}</p>" for w in v.warnings)
        if v.error:
            problems += f"<p><b>Scoring failed:</b> {escape(v.error)}</p>"
        listed = palette.subclaims_html(v, compact=True, opened=True)
        claims.append(f"<div><h3>{escape(n)}</h3>{problems}{listed}</div>")
    parts += ["<h2>Subclaims, in importance order, with the verdict's reason and quote</h2>", palette.legend_html(),
              f'<div class="vx-claims">{"".join(claims)}</div>']
    if example.nuggets:
        def support(n: str, nugget_id: str) -> str:
            label = palette.nugget_support_label((example.variants[n].nugget_assignment or {}).get(nugget_id))
            return f"<td>{escape(label)}</td>"
        rows = "".join(f"<tr><td>{escape(g.id)}</td><td>{escape(g.importance or '')}</td><td>{escape(g.text)}</td>"
                       + "".join(support(n, g.id) for n in names) + "</tr>" for g in example.nuggets)
        parts += ["<h2>Nuggets of the evidence and their support</h2>",
                  "<table><thead><tr><th>id</th><th>importance</th><th>nugget</th>"
                  + "".join(f"<th>{escape(n)}</th>" for n in names) + f"</tr></thead><tbody>{rows}</tbody></table>"]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<title>VITAL Explorer report: {escape(example.id)}</title><style>{_STYLE}</style></head>"
            f"<body>{''.join(parts)}"
            "<p style=\"color:#666;font-size:0.85em\">Made by VITAL Explorer.</p></body></html>\n")
