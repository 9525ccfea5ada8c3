"""Two named ways to turn per-response metrics into the paper's tables.

* ``paper``: exactly what the authors' table scripts compute, quirks included,
  so a table labelled "Table N" can be cited next to the paper's.
* ``strict``: the project's own reading: records pooled per query type, an
  undefined value stays undefined and is counted, and a response none of
  whose subclaims was judged is "not judged", never a 0.

Each convention is stated in one sentence (``DESCRIPTION``) that every table
and chart showing it repeats. The rules of ``paper`` follow the authors'
scripts in the public repository miriamwanner/vitalerrors; each rule below
names the script it comes from.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from vital_core.metrics.catalog import FIGURE5_DECAY, FROM_VERDICTS, TABLE3_COUNTS, TABLE4_SCORES, TABLE5_FLAGS
from vital_core.results.model import NOT_JUDGED, ResponseResult

PAPER, STRICT = "paper", "strict"
CONVENTIONS = (PAPER, STRICT)
DESCRIPTION = {
    PAPER: ("Paper convention: the authors' table scripts — the mean of per-subset means; FactScore over "
            "records with a non-zero score; a response with no vital subclaim counts as VITAL precision 0 "
            "and RLP flagged; RLR counts partial support as support and flags a query with no vital "
            "nugget; F1@K with K per file."),
    STRICT: ("Strict convention: records pooled per query type; an undefined value (nothing to measure, "
             "or no subclaim judged) is left out of the mean and counted, never scored 0."),
}

# What the paper convention computes: its Tables 3, 4 (with SAFE's F1@K) and 5, and Figure 5.
PAPER_KEYS = TABLE3_COUNTS + TABLE4_SCORES + ["f1_at_k"] + TABLE5_FLAGS + FIGURE5_DECAY
FILE_COLUMNS = ["dataset", "subset", "condition"]


def never_judged(frame: pd.DataFrame) -> pd.Series:
    """Responses with subclaims none of which was judged (the release's all-null judgments)."""
    n_sub = frame["n_subclaims"].astype("Float64")
    return ((n_sub > 0) & (frame["n_not_judged"].astype("Float64") == n_sub)).fillna(False).astype(bool)


def check_conventions(conventions: str) -> str:
    if conventions not in CONVENTIONS:
        raise ValueError(f"unknown convention {conventions!r}; expected one of {', '.join(CONVENTIONS)}")
    return conventions


def per_record(frame: pd.DataFrame, conventions: str) -> pd.DataFrame:
    """The per-record frame under ``conventions``, the values ``report --json`` records, ``report --export``
    and ``evaluate()`` carry: ``paper`` as computed (a never-judged response keeps the authors' 0);
    ``strict`` with every verdict-based metric (catalog ``FROM_VERDICTS``) of a never-judged response
    undefined. A failed response is undefined under both (``dataset``)."""
    if check_conventions(conventions) == PAPER:
        return frame
    blank = never_judged(frame)
    if not blank.any():
        return frame
    return frame.assign(**{key: frame[key].mask(blank) for key in FROM_VERDICTS if key in frame.columns})


def strict_values(values: dict, response: ResponseResult) -> dict:
    """One response's metrics (``compute_response_metrics``) under ``strict``: when it has subclaims and none
    was judged, every verdict-based metric is undefined (``None``), as ``per_record`` makes its record."""
    if not response.subclaims or any(s.verdict != NOT_JUDGED for s in response.subclaims):
        return values
    return {**values, **{key: None for key in FROM_VERDICTS if key in values}}


def _float(frame: pd.DataFrame, key: str) -> pd.Series:
    return frame[key].astype("Float64").astype(float)


def _zero_when_undefined(values: pd.Series, defined_input: pd.Series) -> pd.Series:
    """The release's ``x if total > 0 else 0``: an empty denominator scores 0 where the input exists."""
    return values.where(values.notna() | ~defined_input, 0.0)


def paper_record_values(frame: pd.DataFrame) -> pd.DataFrame:
    """Per-record values as the authors' scripts read them, one column per ``PAPER_KEYS`` entry."""
    out = pd.DataFrame(index=frame.index)
    has_claims_data = frame["n_subclaims"].notna()
    has_nuggets = frame["n_nuggets"].notna()
    # get_counts_error_tables.py print_comparison_data: tier counts of every record; TOTAL = their sum
    for key in ("n_vital", "n_okay", "n_less_important"):
        out[key] = _float(frame, key)
    out["n_subclaims"] = out["n_vital"] + out["n_okay"] + out["n_less_important"]
    # get_counts_error_tables.py get_nugget_scores: vital and okay nuggets per query
    out["n_vital_nuggets"] = _float(frame, "n_vital_nuggets")
    out["n_okay_nuggets"] = _float(frame, "n_okay_nuggets")
    out["n_nuggets"] = out["n_vital_nuggets"] + out["n_okay_nuggets"]
    # precision_recall_table.py get_scores: `if line["score"]:` skips null and 0.0 scores (quirk Q1)
    score = factscore_score(frame)
    out["factscore_precision"] = score.where(score > 0)
    # vital/metrics.py: vital-precision is 0 when there is no vital subclaim; null judgments are unsupported
    out["vital_precision"] = _zero_when_undefined(_float(frame, "vital_precision"), has_claims_data)
    # precision_recall_table.py get_nugget_scores: strict recall, 0 when the denominator is empty
    out["nugget_recall"] = _zero_when_undefined(_float(frame, "nugget_recall"), has_nuggets)
    out["vital_recall"] = _zero_when_undefined(_float(frame, "vital_recall"), has_nuggets)
    # vital/metrics.py linear_decay_scoring_helper: 0 for fewer than two items (the last weight is 0)
    for key in ("decay_precision", "decay_precision_top5"):
        out[key] = _zero_when_undefined(_float(frame, key), has_claims_data)
    for key in ("decay_recall", "decay_recall_top5"):
        out[key] = _zero_when_undefined(_float(frame, key), has_nuggets)
    # get_counts_error_tables.py get_new_metric_scores: RLP = vital-precision < 1 (no vital subclaim: flagged)
    out["rlp"] = (out["vital_precision"] < 1).astype(float).where(has_claims_data)
    # get_counts_error_tables.py get_nugget_scores (lenient): partial support counts; no vital nugget: flagged
    missed = _float(frame, "n_vital_nuggets_missed")
    no_vital = out["n_vital_nuggets"] == 0
    out["rlr"] = (no_vital | (missed > 0)).astype(float).where(has_nuggets & (no_vital | missed.notna()))
    out["f1_at_k"] = _paper_f1_at_k(frame, out["factscore_precision"])
    return out


def factscore_score(frame: pd.DataFrame) -> pd.Series:
    """FactScore's own ``score`` per record (undefined when null); without a factscore-out file,
    supported / subclaims of a response with at least one judged subclaim."""
    judged_precision = _float(frame, "factscore_precision").where(~never_judged(frame))
    return _float(frame, "released_score").fillna(judged_precision)


def paper_test_values(frame: pd.DataFrame) -> pd.DataFrame:
    """Per-record values of the authors' significance script: the tables' values, except that FactScore
    keeps 0.0 scores (stat_sig.py load_subset_scores: NaN only when ``score is None``)."""
    return paper_record_values(frame).assign(factscore_precision=factscore_score(frame))


def _paper_f1_at_k(frame: pd.DataFrame, score: pd.Series) -> pd.Series:
    """SAFE F1@K as safe_scores_table.py: K = median total subclaims per file over the kept records."""
    kept = score.notna()
    n_sub = _float(frame, "n_subclaims")
    k = n_sub.where(kept).groupby([frame[c] for c in FILE_COLUMNS], dropna=False).transform("median")
    recall = np.minimum(_float(frame, "n_supported") / k, 1.0)
    return (2 * score * recall / (score + recall)).where(kept)


def strict_record_values(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per-record values for ``strict`` as floats (``per_record``)."""
    strict = per_record(frame, STRICT)
    return pd.DataFrame({k: _float(strict, k) for k in keys}, index=frame.index)


def strict_frame(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The frame with ``strict_record_values`` in place of ``keys`` (for the paired tests)."""
    return frame.assign(**strict_record_values(frame, keys))


def mean_of_subset_means(values: pd.DataFrame, frame: pd.DataFrame) -> pd.DataFrame:
    """precision_recall_table.py / get_counts_error_tables.py: the mean of each (dataset, subset, condition)
    file, then the unweighted mean over subsets per condition (pandas skips undefined values at both steps)."""
    keys = list(values.columns)
    per_file = values.groupby([frame[c] for c in FILE_COLUMNS], dropna=False)[keys].mean()
    return per_file.groupby(level="condition").mean()


def pooled_means(values: pd.DataFrame, frame: pd.DataFrame) -> pd.DataFrame:
    return values.groupby(frame["condition"])[list(values.columns)].mean()


def condition_table(frame: pd.DataFrame, keys: list[str], convention: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Means per condition under ``convention`` and, per condition, how many records each mean left out.

    ``keys`` that a convention cannot compute are left out of its table.
    """
    if convention == PAPER:
        values = paper_record_values(frame)[[k for k in PAPER_KEYS if k in keys]]
        means = mean_of_subset_means(values, frame)
    elif convention == STRICT:
        values = strict_record_values(frame, [k for k in keys if k in frame.columns])
        means = pooled_means(values, frame)
    else:
        check_conventions(convention)
    left_out = values.isna().groupby(frame["condition"]).sum().astype(int)
    return means, left_out


def not_judged_counts(frame: pd.DataFrame) -> pd.Series:
    """Per condition, how many responses had subclaims but none judged."""
    return never_judged(frame).groupby(frame["condition"]).sum().astype(int)
