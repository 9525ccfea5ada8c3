"""The paper's tables for a loaded set, as a JSON-ready dict or plain text.

``build_report(dataset)`` returns ``{"conditions": {COND: {"n": int, METRIC:
mean|null}}, "records": [...], "tests": [...], ...}`` (the ``report --json``
output); ``render_text(dataset)`` prints Table 3 (subclaims per tier), Table 4
(precision / recall means), Table 5 (response-level rates) and the paired
tests, split by query type when it is known, with undefined counts shown.
"""
from __future__ import annotations

import math
from typing import Any

import pandas as pd

from vital_core import stats
from vital_core.dataset import Dataset
from vital_core.metrics.catalog import (ALL_SCORES, EXTRA_COUNTS, FIGURE5_DECAY, METRICS, TABLE3_COUNTS,
                                        TABLE5_FLAGS, TESTED)

# Every metric the tables show, once each, in table order (kept when the data defines them).
REPORT_METRICS = list(dict.fromkeys(TABLE3_COUNTS + EXTRA_COUNTS + ALL_SCORES + TABLE5_FLAGS + FIGURE5_DECAY))


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


def _conditions_block(frame: pd.DataFrame, keys: list[str]) -> tuple[dict, dict]:
    means = stats.means_table(frame, keys, undefined=True)
    conditions, undefined = {}, {}
    for row in means.to_dict(orient="records"):
        cond = row["condition"]
        conditions[cond] = {"n": int(row["n"]), **{k: _clean(row[k]) for k in keys}}
        undefined[cond] = {k: int(row[f"{k}__undefined"]) for k in keys if row[f"{k}__undefined"]}
    return conditions, undefined


def _paired_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """The one set of paired tests of a frame, shared by the JSON and text reports (one Holm value per test)."""
    keys = defined_metrics(frame, TESTED)
    return stats.paired_tests(frame, metrics=keys) if keys else pd.DataFrame()


def _tests_records(tests: pd.DataFrame) -> list[dict]:
    return [{k: _clean(v) for k, v in row.items()} for row in tests.to_dict(orient="records")]


def build_report(dataset: Dataset, metrics: list[str] | None = None, *, include_records: bool = True) -> dict:
    """The ``report --json`` object for a dataset."""
    frame = dataset.frame
    keys = defined_metrics(frame, metrics or REPORT_METRICS)
    conditions, undefined = _conditions_block(frame, keys)
    tests = _paired_tests(frame)
    out: dict[str, Any] = {
        "source": dataset.source, "weights": list(dataset.weights.as_tuple()), "f1_k": dataset.f1_k,
        "skipped": dataset.skipped, "problems": list(dataset.problems),
        "conditions": conditions, "undefined": undefined,
        "records": [], "tests": _tests_records(tests),
    }
    query_types = [q for q in frame["query_type"].dropna().unique()]
    if query_types:
        out["by_query_type"] = {}
        for qt in sorted(query_types):
            part = frame[frame["query_type"] == qt]
            c, u = _conditions_block(part, keys)
            out["by_query_type"][qt] = {"conditions": c, "undefined": u}
    if include_records:
        cols = ["example_id", "condition", "index", "query", "dataset", "query_type"] + keys
        sub = frame[cols].astype(object)
        sub = sub.where(sub.notna(), None)
        out["records"] = [{k: _clean(v) for k, v in zip(cols, row)} for row in sub.itertuples(index=False)]
    return out


# --------------------------------------------------------------------------- text

def _fmt(value: Any, kind: str) -> str:
    value = _clean(value)
    if value is None:
        return "undef"
    if kind == "count":
        return f"{value:.2f}"
    return f"{value:.3f}"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _metric_table(frame: pd.DataFrame, keys: list[str]) -> str:
    keys = defined_metrics(frame, keys)
    if not keys:
        return "(no metric defined for these records)"
    means = stats.means_table(frame, keys, undefined=True).to_dict(orient="records")
    conditions = [m["condition"] for m in means]
    rows = []
    for key in keys:
        spec = METRICS[key]
        row = [spec.label]
        for m in means:
            undefined = int(m[f"{key}__undefined"])
            row.append(_fmt(m[key], spec.kind) + (f" ({undefined} undef)" if undefined else ""))
        rows.append(row)
    header = ["metric"] + [f"{c} (n={int(m['n'])})" for c, m in zip(conditions, means)]
    return _table(header, rows)


def _tests_table(tests: pd.DataFrame) -> str:
    if tests.empty:
        return "(no paired variants: needs a normal response and at least one other variant per example)"
    rows = []
    for r in tests.to_dict(orient="records"):
        p_name = "McNemar" if r["kind"] == "flag" else "t"
        rows.append([f"{r['variant']}: {METRICS[r['metric']].label}",
                     f"{r['n_pairs']}" + (f" (-{r['n_dropped']})" if r["n_dropped"] else ""),
                     _fmt(r["mean_baseline"], "score"), _fmt(r["mean_variant"], "score"),
                     _fmt(r["mean_diff"], "score"), _fmt(r["effect_size"], "score"),
                     f"{p_name} {_p(r['p_primary'])}", _p(r["wilcoxon_p"]), _p(r["p_holm"]),
                     _fmt(r["detection_rate"], "score"), _fmt(r["auc"], "score")])
    return _table(["variant: metric", "pairs (dropped)", "normal", "variant", "diff", "effect", "p",
                   "Wilcoxon p", "Holm p", "detect", "AUC"], rows)


def _p(value: Any) -> str:
    value = _clean(value)
    if value is None:
        return "undef"
    return f"{value:.2g}" if value < 0.001 else f"{value:.3f}"


def render_text(dataset: Dataset, by_query_type: bool = True) -> str:
    frame = dataset.frame
    out = [f"VITAL report: {dataset.source}",
           f"records: {len(frame)} ({', '.join(f'{c}: {int((frame.condition == c).sum())}' for c in dataset.conditions)})"
           f"; tier weights vital/okay/less-important = {dataset.weights}"
           + (f"; F1@K with K = {dataset.f1_k:g}" if dataset.f1_k is not None else "")]
    if dataset.skipped:
        out.append(f"skipped {dataset.skipped} bad record(s) (--skip-bad)")
    for problem in dataset.problems[:20]:
        out.append(f"note: {problem}")
    if len(dataset.problems) > 20:
        out.append(f"note: ... and {len(dataset.problems) - 20} more")
    out.append("'undef' = no record defines the metric; '(k undef)' = k records left out of the mean.")
    groups: list[tuple[str, pd.DataFrame]] = [("All queries", frame)]
    if by_query_type and frame["query_type"].notna().any():
        known = sorted(frame["query_type"].dropna().unique())
        if len(known) > 1 or frame["query_type"].isna().any():
            groups += [(f"Query type: {qt}", frame[frame["query_type"] == qt]) for qt in known]
        else:
            groups = [(f"All queries (query type: {known[0]})", frame)]
    for title, part in groups:
        out += ["", f"=== {title} ===", "",
                "Subclaims per response by importance tier (mean; cf. paper Table 3)",
                _metric_table(part, TABLE3_COUNTS + EXTRA_COUNTS), "",
                "Precision and recall (mean per condition; cf. paper Table 4)",
                _metric_table(part, ALL_SCORES), "",
                "Response-level rates (share of responses flagged; cf. paper Table 5)",
                _metric_table(part, TABLE5_FLAGS), "",
                "Paired tests against the normal response (diff = variant - normal; effect = Cohen's d_z "
                f"for scores, rate difference for flags; Holm over this table; detect = share of pairs where "
                f"{stats.NOTICED_RULE})",
                _tests_table(_paired_tests(part))]
    return "\n".join(out) + "\n"


__all__ = ["build_report", "render_text", "REPORT_METRICS"]
