"""The per-response frame of a loaded set: its columns, and its rows accumulated from a release's scanned
conditions (``add_scan``) or from scored examples (``add_example``), every metric computed for all rows at
once (``metrics.column_metrics``) with the flat subclaim table the curves read (``finish``)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from vital_core.loaders.codes import ConditionScan
from vital_core.loaders.discover import ConditionSource
from vital_core.metrics.catalog import METRICS
from vital_core.metrics.formulas import TierWeights, f1_at_k_from_counts, median_k
from vital_core.metrics.response import ScoringInput
from vital_core.metrics.vectorised import MetricColumns, column_metrics
from vital_core.results.model import EVIDENCE_UNKNOWN, ExampleResult, backend_label, condition_order

# released_score: factscore-out's own `score`; evidence_mode: what the verdicts were checked against
# (documents, reference, the normal response taken as correct, none; "unknown" for a release);
# warnings: how many warnings the response carries (a model's reply lost something, it says what);
# scored_with: ``model.backend_label`` of the result ("" for a release)
ID_COLUMNS = ["example_id", "index", "condition", "dataset", "subset", "query_type", "query",
              "response_id", "error", "released_score", "evidence_mode", "warnings", "scored_with"]
METRIC_COLUMNS = [k for k in METRICS if k != "f1_at_k"] + ["f1_at_k"]


class Rows:
    """Identity columns of the frame, accumulated column-wise, plus the metric inputs."""

    def __init__(self) -> None:
        self.cols: dict[str, list] = {c: [] for c in ID_COLUMNS}
        self.batches: list[MetricColumns] = []
        self.sort_key: list[tuple] = []

    def add_scan(self, group: str, g_rank: int, source: ConditionSource, scan: ConditionScan) -> None:
        n = len(scan.index)
        c = self.cols
        c["example_id"].extend([f"{group}/{i}" for i in scan.index])
        c["index"].extend(scan.index)
        c["condition"].extend([source.condition] * n)
        c["dataset"].extend([source.dataset] * n)
        c["subset"].extend([source.subset] * n)
        c["query_type"].extend([source.query_type] * n)
        c["query"].extend(scan.query)
        c["response_id"].extend(scan.response_id)
        c["error"].extend([None] * n)
        c["released_score"].extend(scan.released_score)
        c["evidence_mode"].extend([EVIDENCE_UNKNOWN] * n)
        c["warnings"].extend([0] * n)
        c["scored_with"].extend([""] * n)
        c_rank = condition_order(source.condition)
        self.sort_key.extend((g_rank, i, c_rank) for i in scan.index)
        self.batches.append(scan.batch)

    def add_example(self, example: ExampleResult, index: int | None, sort_prefix: tuple) -> None:
        batch = MetricColumns()
        c = self.cols
        for condition, response in example.variants.items():
            batch.add(ScoringInput.from_response(response, example.nuggets))
            for key, value in (("example_id", example.id), ("index", index), ("condition", condition),
                               ("dataset", example.dataset), ("subset", example.subset),
                               ("query_type", example.query_type), ("query", example.query),
                               ("response_id", response.response_id), ("error", response.error or example.error),
                               ("released_score", None), ("evidence_mode", response.evidence_mode),
                               ("warnings", len(response.warnings)), ("scored_with", backend_label(example.backend))):
                c[key].append(value)
            self.sort_key.append((*sort_prefix, condition_order(condition)))
        self.batches.append(batch)

    def finish(self, weights: TierWeights, f1_k: float | None) -> tuple[pd.DataFrame, pd.DataFrame, float | None]:
        batch = MetricColumns.concat(self.batches)
        failed = np.array([e is not None for e in self.cols["error"]], dtype=bool)
        values, k = _metric_values(batch, weights, f1_k, failed)
        frame = pd.DataFrame(self.cols)
        frame["index"] = frame["index"].astype("Int64")
        frame["warnings"] = frame["warnings"].astype("int64")
        frame["released_score"] = frame["released_score"].astype("Float64")
        for key in METRIC_COLUMNS:
            spec = METRICS[key]
            col = values[key]
            undefined = np.isnan(col)
            if spec.kind in ("flag", "count"):
                dtype = "boolean" if spec.kind == "flag" else "Int64"
                clean = np.where(undefined, 0, col)
                frame[key] = pd.arrays.BooleanArray(clean.astype(bool), undefined) if spec.kind == "flag" \
                    else pd.arrays.IntegerArray(clean.astype(np.int64), undefined)
                assert str(frame[key].dtype) == dtype
            else:
                frame[key] = col
        record = np.asarray(batch.sub_record, dtype=np.int64)
        starts = np.searchsorted(record, np.arange(batch.n)) if batch.n else np.zeros(0, dtype=np.int64)
        position = (np.arange(record.size) - starts[record] + 1) if record.size else np.zeros(0, dtype=np.int64)
        subclaims = pd.DataFrame({"row": record, "position": position.astype(np.int32),
                                  "rank": np.asarray(batch.sub_rank, dtype=np.int32),
                                  "importance": np.asarray(batch.sub_tier, dtype=np.int8),
                                  "supported": np.asarray(batch.sub_verdict, dtype=np.int8) == 0})
        if failed.any() and record.size:   # a failed response's subclaims feed no curve either
            subclaims = subclaims[~failed[record]].reset_index(drop=True)
        # rows in example order, conditions in their usual order
        order = sorted(range(len(self.sort_key)), key=self.sort_key.__getitem__)
        if order != list(range(len(order))):
            frame = frame.iloc[order].reset_index(drop=True)
            new_row = np.empty(len(order), dtype=np.int64)
            new_row[np.asarray(order, dtype=np.int64)] = np.arange(len(order))
            subclaims["row"] = new_row[subclaims["row"].to_numpy()] if len(subclaims) else subclaims["row"]
            subclaims = subclaims.sort_values(["row", "position"], kind="stable").reset_index(drop=True)
        return frame, subclaims, k


def _metric_values(batch: MetricColumns, weights: TierWeights, f1_k: float | None,
                   failed: np.ndarray) -> tuple[dict[str, np.ndarray], float | None]:
    """Every metric column; a failed response (a step raised: ``error`` set) has every metric undefined,
    never 0.0 or flagged, and takes no part in F1@K's median K."""
    values = column_metrics(batch, weights)
    if failed.any():
        for key, col in values.items():
            values[key] = np.where(failed, np.nan, col.astype(float))
    n_sub = values["n_subclaims"]
    k = f1_k if f1_k is not None else median_k(int(x) for x in n_sub[~np.isnan(n_sub)])
    # n_supported is NaN when nothing was checked (no evidence): F1@K is undefined then too
    values["f1_at_k"] = np.array([np.nan if np.isnan(n) or np.isnan(s) or (v := f1_at_k_from_counts(int(s), int(n), k))
                                  is None else v for s, n in zip(values["n_supported"], n_sub)], dtype=float)
    return values, k
