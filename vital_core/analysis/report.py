"""The paper's tables for a loaded set, as a JSON-ready dict or plain text, under a named convention.

``build_report(dataset, conventions="paper")`` returns the ``report --json``
object: ``conventions`` and its one-sentence ``convention_note``;
``conditions`` / ``undefined`` (every query together) and
``by_query_type[QT]["conditions" | "undefined"]``, each
``{COND: {"n": int, KEY: mean|null}}`` / ``{COND: {KEY: records left out}}``;
``not_judged`` (responses with subclaims none of which was judged, per
condition); ``tests`` (one set, shared with the text report, so every test has
one Holm value); ``records`` (per-record metrics under the same convention, and ``undefined``: why
each empty metric of the record is empty; ``conventions.per_record``). ``render_text`` prints the
same tables: Table 3 (counts), Table 4 (precision and recall), Table 5 (flag
rates), Figure 5 (decay) and the tests.
"""
from __future__ import annotations

import math
from typing import Any

import pandas as pd

from vital_core.analysis import conventions as conv
from vital_core.analysis import paper_stats, stats
from vital_core.metrics.catalog import (
    ALL_SCORES,
    EXTRA_COUNTS,
    FIGURE5_DECAY,
    METRICS,
    TABLE3_COUNTS,
    TABLE4_SCORES,
    TABLE5_FLAGS,
    TESTED,
)
from vital_core.results.dataset import Dataset, examples_against_normal, failed_counts, warning_counts
from vital_core.results.export import REASON_COLUMN, export_table
from vital_core.results.model import PAPER_SETTING, ordered_conditions

# Every metric the strict tables show, once each, in table order (kept when the data defines them).
REPORT_METRICS = list(dict.fromkeys(TABLE3_COUNTS + EXTRA_COUNTS + ALL_SCORES + TABLE5_FLAGS + FIGURE5_DECAY))
# The paper's tables, in its order: (title, keys).
PAPER_TABLES = [("Table 3: subclaims and nuggets per response, by importance", TABLE3_COUNTS),
                ("Table 4: precision and recall", TABLE4_SCORES + ["f1_at_k"]),
                ("Table 5: share of responses flagged", TABLE5_FLAGS),
                ("Figure 5: linear-decay precision and recall", FIGURE5_DECAY)]
STRICT_TABLES = [("Counts per response (cf. paper Table 3)", TABLE3_COUNTS + EXTRA_COUNTS),
                 ("Precision and recall (cf. paper Table 4)", ALL_SCORES),
                 ("Share of responses flagged (cf. paper Table 5)", TABLE5_FLAGS),
                 ("Decay-weighted precision and recall (cf. paper Figure 5)", FIGURE5_DECAY)]


def _clean(value: Any) -> Any:
    """JSON-safe scalar: pandas/numpy missing values become None, numpy scalars Python ones."""
    if value is None or value is pd.NA:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def defined_metrics(frame: pd.DataFrame, keys: list[str]) -> list[str]:
    """The keys that at least one record defines ("where the data allows them")."""
    return [k for k in keys if k in frame.columns and frame[k].notna().any()]


def table_keys(frame: pd.DataFrame, conventions: str) -> list[str]:
    if conventions == conv.PAPER:
        return conv.PAPER_KEYS
    return defined_metrics(frame, REPORT_METRICS)


def _conditions_block(frame: pd.DataFrame, conventions: str) -> tuple[dict, dict]:
    means, left_out = conv.condition_table(frame, table_keys(frame, conventions), conventions)
    counts = frame.groupby("condition").size()
    conditions, undefined = {}, {}
    for cond in [c for c in ordered_conditions(frame["condition"]) if c in means.index]:
        conditions[cond] = {"n": int(counts[cond]), **{k: _clean(means.at[cond, k]) for k in means.columns}}
        undefined[cond] = {k: int(left_out.at[cond, k]) for k in left_out.columns if left_out.at[cond, k]}
    return conditions, undefined


def report_tests(frame: pd.DataFrame, conventions: str) -> pd.DataFrame:
    """The one set of tests of a frame under a convention, shared by the JSON and text reports."""
    if conventions == conv.PAPER:
        return pd.DataFrame(paper_stats.paper_tests(frame))
    keys = defined_metrics(frame, TESTED)
    return stats.paired_tests(conv.strict_frame(frame, keys), metrics=keys) if keys else pd.DataFrame()


def _query_types(frame: pd.DataFrame) -> list[str]:
    return sorted(frame["query_type"].dropna().unique())


F1_K_RULE = {conv.PAPER: "the median subclaim count of each file (the authors' K)",
             conv.STRICT: "one K for the loaded set: --k, else the median subclaim count"}


def build_report(dataset: Dataset, *, conventions: str = conv.PAPER, include_records: bool = True) -> dict:
    """The ``report --json`` object for a dataset under ``conventions`` (``paper`` or ``strict``)."""
    frame = dataset.frame
    conditions, undefined = _conditions_block(frame, conventions)
    not_judged = conv.not_judged_counts(frame)
    out: dict[str, Any] = {
        "conventions": conventions, "convention_note": conv.DESCRIPTION[conventions],
        "source": dataset.source, "weights": list(dataset.weights.as_tuple()),
        # the K the tables' F1@K used: one for the set (strict), one per file (paper: the authors' rule)
        "f1_k": dataset.f1_k if conventions == conv.STRICT else None,
        "f1_k_rule": F1_K_RULE[conventions],
        "skipped": dataset.skipped, "problems": list(dataset.problems),
        "conditions": conditions, "undefined": undefined,
        "not_judged": {c: int(n) for c, n in not_judged.items()},
        "failed": {c: int(n) for c, n in failed_counts(frame).items()},
        "with_warnings": {c: int(n) for c, n in warning_counts(frame).items()},
        "scored_with": scored_with(frame), "paper_setting": PAPER_SETTING,
        "examples_against_normal": examples_against_normal(frame),
        "records": [], "tests": [{k: _clean(v) for k, v in row.items()}
                                 for row in report_tests(frame, conventions).to_dict(orient="records")],
    }
    out["by_query_type"] = {}
    for qt in _query_types(frame):
        c, u = _conditions_block(frame[frame["query_type"] == qt], conventions)
        out["by_query_type"][qt] = {"conditions": c, "undefined": u}
    if include_records:
        # the records are the export's rows under the same convention, with why each empty metric is empty
        keys = defined_metrics(frame, REPORT_METRICS)
        table = export_table(dataset, conventions, keys)
        cols = ["example_id", "condition", "index", "query", "dataset", "query_type", "error", "warnings"] + keys \
            + [REASON_COLUMN]
        sub = table[cols].astype(object)
        sub = sub.where(sub.notna(), None)
        judged = ~conv.never_judged(frame).to_numpy()
        out["records"] = [{**{k: _clean(v) for k, v in zip(cols, row)}, "judged": bool(j)}
                          for row, j in zip(sub.itertuples(index=False), judged)]
    return out


# --------------------------------------------------------------------------- text

def _fmt(value: Any, kind: str) -> str:
    value = _clean(value)
    if value is None:
        return "undef"
    return f"{value:.2f}" if kind == "count" else f"{value:.3f}"


def _p(value: Any) -> str:
    value = _clean(value)
    if value is None:
        return "undef"
    return f"{value:.2g}" if value < 0.001 else f"{value:.3f}"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))  # noqa: E731
    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _label(key: str) -> str:
    return METRICS[key].label


def _kind(key: str) -> str:
    return METRICS[key].kind if key in METRICS else "count"


def _metric_table(block: tuple[dict, dict], keys: list[str]) -> str:
    conditions, undefined = block
    keys = [k for k in keys if any(values.get(k) is not None for values in conditions.values())]
    if not keys:
        return "(no metric defined for these records)"
    rows = []
    for key in keys:
        row = [_label(key)]
        for cond, values in conditions.items():
            left_out = undefined.get(cond, {}).get(key, 0)
            row.append(_fmt(values.get(key), _kind(key)) + (f" ({left_out} left out)" if left_out else ""))
        rows.append(row)
    return _table(["metric"] + [f"{c} (n={v['n']})" for c, v in conditions.items()], rows)


def _strict_tests_table(tests: pd.DataFrame) -> str:
    rows = []
    for r in tests.to_dict(orient="records"):
        p_name = "McNemar" if r["kind"] == "flag" else "t"
        rows.append([f"{r['condition']}: {_label(r['metric'])}",
                     f"{r['n_pairs']}" + (f" (-{r['n_dropped']})" if r["n_dropped"] else ""),
                     _fmt(r["mean_baseline"], "score"), _fmt(r["mean_condition"], "score"),
                     _fmt(r["mean_diff"], "score"), _fmt(r["effect_size"], "score"),
                     f"{p_name} {_p(r['p_primary'])}", _p(r["wilcoxon_p"]), _p(r["p_holm"]),
                     _fmt(r["detection_rate"], "score"), _fmt(r["auc"], "score")])
    return _table(["condition: metric", "pairs (dropped)", "normal", "condition", "diff", "effect", "p",
                   "Wilcoxon p", "Holm p", "detect", "AUC"], rows)


def _paper_tests_table(tests: pd.DataFrame) -> str:
    rows = []
    for r in tests.to_dict(orient="records"):
        if r["kind"] == "continuous":
            effect = f"d_z {_fmt(r['cohens_dz'], 'score')}, r {_fmt(r['rank_biserial'], 'score')}"
            a, b = r["mean_a"], r["mean_b"]
            ps = f"t {_p(r['t_p_holm'])}, Wilcoxon {_p(r['wilcoxon_p_holm'])}"
        else:
            a, b, effect = r["rate_a"], r["rate_b"], f"rate diff {_fmt(r['risk_diff'], 'score')}"
            ps = f"McNemar {_p(r['mcnemar_p_holm'])}" + (" (exact)" if r["exact"] else "")
        rows.append([f"{r['group']}: {_label(r['metric'])}", r["comparison"], str(r["n"]),
                     _fmt(a, "score"), _fmt(b, "score"), effect, ps])
    return _table(["group: metric", "comparison", "n", "mean A", "mean B", "effect", "Holm p"], rows)


def _tests_text(frame: pd.DataFrame, conventions: str) -> list[str]:
    tests = report_tests(frame, conventions)
    if tests.empty:
        return ["(no paired variants: needs a normal response and at least one other variant per example)"]
    if conventions == conv.PAPER:
        return ["Paired tests as the authors' stat_sig.py (pooled pairs per group; Holm within each group "
                "and test type)", _paper_tests_table(tests)]
    return ["Paired tests against the normal response (diff = variant - normal; effect = Cohen's d_z for "
            "scores, rate difference for flags; Holm over this table)", _strict_tests_table(tests)]


def scored_with(frame: pd.DataFrame) -> dict[str, int]:
    """What scored the records (backend, model, claims per verification call) -> how many responses."""
    labels = frame["scored_with"][frame["scored_with"] != ""]
    return {str(k): int(n) for k, n in labels.value_counts(sort=False).items()}


def _header(dataset: Dataset, conventions: str) -> list[str]:
    frame = dataset.frame
    counts = ", ".join(f"{c}: {int((frame.condition == c).sum())}" for c in dataset.conditions)
    out = [f"VITAL report: {dataset.source}",
           f"records: {len(frame)} ({counts}); tier weights vital/okay/less-important = {dataset.weights}",
           conv.DESCRIPTION[conventions]]
    used = scored_with(frame)
    if used:
        out.append("scored with: " + "; ".join(f"{label} ({n} responses)" for label, n in used.items())
                   + (f"; {PAPER_SETTING}" if any(label.startswith("openai") for label in used) else ""))
    not_judged = conv.not_judged_counts(frame)
    if not_judged.sum():
        out.append("not judged (subclaims, none judged): "
                   + ", ".join(f"{c}: {int(n)}" for c, n in not_judged.items() if n))
    against_normal = examples_against_normal(frame)
    if against_normal:
        out.append(f"checked against the normal response: {against_normal} example(s) had no evidence, so their "
                   "other variants were checked against the normal response taken as correct; that normal "
                   "response's own scores hold by construction, not by measurement")
    warned = warning_counts(frame)
    if warned.sum():
        out.append("with warnings (a model's reply lost something; each response says what, and its scores "
                   "count only what was kept): "
                   + ", ".join(f"{c}: {int(warned[c])}" for c in ordered_conditions(warned.index) if warned[c]))
    failed = failed_counts(frame)
    if failed.sum():
        out.append("failed (a step failed; every metric undefined, left out of every mean): "
                   + ", ".join(f"{c}: {int(n)}" for c, n in failed.items() if n))
    if dataset.skipped:
        out.append(f"skipped {dataset.skipped} bad record(s) (--skip-bad)")
    out += [f"note: {p}" for p in dataset.problems[:20]]
    if len(dataset.problems) > 20:
        out.append(f"note: ... and {len(dataset.problems) - 20} more")
    out.append("'undef' = no record defines the metric; '(k left out)' = k records not in the mean.")
    return out


def render_text(dataset: Dataset, by_query_type: bool = True, conventions: str = conv.PAPER) -> str:
    frame = dataset.frame
    out = _header(dataset, conventions)
    groups: list[tuple[str, pd.DataFrame]] = [("All queries", frame)]
    known = _query_types(frame)
    if by_query_type and known:
        if len(known) > 1 or frame["query_type"].isna().any():
            groups += [(f"Query type: {qt}", frame[frame["query_type"] == qt]) for qt in known]
        else:
            groups = [(f"All queries (query type: {known[0]})", frame)]
    tables = PAPER_TABLES if conventions == conv.PAPER else STRICT_TABLES
    for title, part in groups:
        block = _conditions_block(part, conventions)
        out += ["", f"=== {title} ==="]
        for table_title, keys in tables:
            out += ["", table_title, _metric_table(block, keys)]
        if conventions == conv.STRICT:
            out += [""] + _tests_text(part, conventions)
    if conventions == conv.PAPER:   # the authors' tests already run per query-type group: once for the set
        out += ["", "=== Paired tests ===", ""] + _tests_text(frame, conventions)
    return "\n".join(out) + "\n"


__all__ = ["build_report", "render_text", "REPORT_METRICS", "report_tests"]
