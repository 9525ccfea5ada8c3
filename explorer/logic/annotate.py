"""A person's own importance labels for a response's subclaims, exported in the
official record shape so ``python -m vital_core agreement`` can compare them.

The exported record keeps the response, its decomposition (sentences and
subclaim ids as given) and the judgments, and replaces ``importance`` and
``subclaim-importance-order`` with the person's labels: all vital first, then
okay, then less-important, in response order inside a tier.
"""
from __future__ import annotations

import copy
import json
from typing import Iterable, Mapping

import pandas as pd

from vital_core.analysis.agreement import weighted_kappa
from vital_core.results.model import (
    IMPORTANCE_LABELS,
    NOT_JUDGED,
    SUPPORTED,
    UNLABELLED,
    ExampleResult,
    ResponseResult,
    normalise_importance,
    order_by_tier,
)


def _judgment(verdict: str):
    """Release ``judgment``: true = supported, null = not judged, false otherwise."""
    if verdict == SUPPORTED:
        return True
    if verdict == NOT_JUDGED:
        return None
    return False


def with_labels(response: ResponseResult, labels: Mapping[str, str]) -> ResponseResult:
    """A copy of ``response`` carrying exactly ``labels`` (subclaim id -> label): a subclaim the person
    did not label is unlabelled (exported as null), never given the labelling's own label; the
    order is rebuilt."""
    out = copy.deepcopy(response)
    for s in out.subclaims:
        s.importance = normalise_importance(labels[s.id], where=f"subclaim {s.id}") if s.id in labels \
            else UNLABELLED
    out.set_order(order_by_tier([s.id for s in out.subclaims], {s.id: s.importance for s in out.subclaims}))
    return out


YOUR_LABEL = "your label"


def editor_rows(response: ResponseResult, saved: Mapping[str, str], start_from_theirs: bool) -> pd.DataFrame:
    """The Annotate table: id, subclaim, labelling A's label and the person's label (what they saved,
    else blank, or A's label when they start from it). The person's column is a string column even
    when every cell is blank: a column that changes type between reruns makes Streamlit's editor a
    new widget, and the edit that caused the rerun is lost."""
    theirs = [s.importance if s.importance in IMPORTANCE_LABELS else None for s in response.subclaims]
    mine = [saved.get(s.id, t if start_from_theirs else None) for s, t in zip(response.subclaims, theirs)]
    return pd.DataFrame({"id": [s.id for s in response.subclaims], "subclaim": [s.text for s in response.subclaims],
                         "labelling A": pd.Series(theirs, dtype="string"), YOUR_LABEL: pd.Series(mine, dtype="string")})


def labels_from_rows(rows: Iterable[Mapping]) -> dict[str, str]:
    """The labels a person set in the Annotate table (blank cells left out)."""
    return {str(r["id"]): r[YOUR_LABEL] for r in rows
            if isinstance(r.get(YOUR_LABEL), str) and r[YOUR_LABEL] in IMPORTANCE_LABELS}


def release_record(example: ExampleResult, variant: str, labels: Mapping[str, str] | None = None) -> dict:
    """One response in the official ``new-metric-out`` record shape, with ``labels`` applied."""
    response = example.variants[variant]
    if labels is not None:
        response = with_labels(response, labels)
    sentences: list[dict] = []
    current_index = None
    for s in response.subclaims:
        if current_index != s.sentence_index or not sentences:
            sentences.append({"sentence": s.sentence, "decomp": []})
            current_index = s.sentence_index
        sentences[-1]["decomp"].append({
            "id": s.id, "text": s.text, "judgment": _judgment(s.verdict),
            "importance": None if s.importance == UNLABELLED else s.importance})
    return {"query": example.query,
            "response": {"id": response.response_id or example.id, "text": response.text},
            "decomposition": sentences,
            "subclaim-importance-order": [sid for sid in (response.order or [s.id for s in response.subclaims])]}


def export_jsonl(records: Iterable[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def complete(labels: Mapping[str, str], response: ResponseResult) -> bool:
    """True when every subclaim of ``response`` carries one of the three tiers."""
    return all(labels.get(s.id) in IMPORTANCE_LABELS for s in response.subclaims)


def agreement_with(mine: Mapping[str, str], response: ResponseResult) -> tuple[int, float | None, float | None]:
    """A person's labels against a labelled response, over the subclaims both labelled:
    (how many, linear-weighted kappa, exact agreement); kappa and agreement undefined when none."""
    theirs = {s.id: s.importance for s in response.subclaims if s.importance in IMPORTANCE_LABELS}
    shared = [sid for sid in mine if sid in theirs]
    if not shared:
        return 0, None, None
    kappa = weighted_kappa([mine[s] for s in shared], [theirs[s] for s in shared])
    return len(shared), kappa, sum(mine[s] == theirs[s] for s in shared) / len(shared)
