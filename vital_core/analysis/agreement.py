"""Agreement between two importance labellings of the same decompositions.

Examples are matched by position (their queries must agree), variants by
name, subclaims by id. Over the matched subclaims labelled by both sides:

* linear-weighted Cohen's kappa over the ordered labels vital > okay >
  less-important: kappa_w = 1 - sum_ij w_ij O_ij / sum_ij w_ij E_ij with
  w_ij = |i - j| / (k - 1), O the observed label-pair proportions and E the
  product of the two marginals (Cohen, 1968);
* exact agreement: the share of subclaims given the same label;
* Kendall's tau-b between the two importance orders, computed per
  (example, variant) over the shared subclaims (scipy) and averaged;
* the 3x3 confusion matrix (rows: first labelling, columns: second).

``unlabelled`` subclaims on either side are left out and counted.
"""
from __future__ import annotations

import copy
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from vital_core.files.errors import InputError
from vital_core.loaders.examples import normalised_query
from vital_core.results.model import IMPORTANCE_LABELS, ExampleResult


def weighted_kappa(labels_a: list[str], labels_b: list[str], categories=IMPORTANCE_LABELS) -> float | None:
    """Linear-weighted Cohen's kappa of two parallel label lists; None when undefined."""
    index = {c: i for i, c in enumerate(categories)}
    k = len(categories)
    observed = np.zeros((k, k))
    for a, b in zip(labels_a, labels_b):
        observed[index[a], index[b]] += 1
    total = observed.sum()
    if total == 0:
        return None
    observed /= total
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    weights = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) / (k - 1)
    disagreement_expected = float((weights * expected).sum())
    if disagreement_expected == 0:
        return None   # both sides used a single, identical label: chance explains everything
    return 1.0 - float((weights * observed).sum()) / disagreement_expected


@dataclass
class AgreementResult:
    kappa: float | None
    exact: float | None
    kendall_tau: float | None
    n: int                                 # subclaims compared
    confusion: pd.DataFrame
    per_example: pd.DataFrame
    per_condition: pd.DataFrame
    n_examples: int = 0
    n_excluded: int = 0                    # subclaims unlabelled on a side or missing from one side
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"kappa": self.kappa, "exact": self.exact, "kendall_tau": self.kendall_tau, "n": self.n,
                "n_examples": self.n_examples, "n_excluded": self.n_excluded,
                "confusion": {str(r): {str(c): int(v) for c, v in row.items()}
                              for r, row in self.confusion.to_dict(orient="index").items()},
                "per_condition": self.per_condition.astype(object).where(self.per_condition.notna(), None)
                .to_dict(orient="records"),
                "problems": list(self.problems)}


def _tau(order_a: list[str], order_b: list[str], shared: set[str]) -> float | None:
    rank_a = {sid: i for i, sid in enumerate(x for x in order_a if x in shared)}
    rank_b = {sid: i for i, sid in enumerate(x for x in order_b if x in shared)}
    ids = [sid for sid in rank_a if sid in rank_b]
    if len(ids) < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tau = kendalltau([rank_a[i] for i in ids], [rank_b[i] for i in ids]).statistic
    return None if tau is None or np.isnan(tau) else float(tau)


def _summary(pairs: list[tuple[str, str]], taus: list[float]) -> tuple[float | None, float | None, float | None]:
    a = [p[0] for p in pairs]
    b = [p[1] for p in pairs]
    exact = (sum(x == y for x, y in pairs) / len(pairs)) if pairs else None
    return weighted_kappa(a, b), exact, (float(np.mean(taus)) if taus else None)


def _matched_variants(ea: ExampleResult, eb: ExampleResult) -> list[tuple[str, str]]:
    """The variants of an example both labellings hold; two single files pair whatever their names."""
    matched = [(v, v) for v in ea.variants if v in eb.variants]
    if not matched and len(ea.variants) == 1 and len(eb.variants) == 1:
        matched = [(next(iter(ea.variants)), next(iter(eb.variants)))]
    return matched


def _claim_text(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(".!?;, ")


class ClaimCheck:
    """Shared subclaim ids whose texts differ between the labellings: different claims, not two labellings."""

    def __init__(self) -> None:
        self.shared = self.differ = 0
        self.example = ""

    def add(self, ra, rb, where: str) -> None:
        texts_b = {s.id: s.text for s in rb.subclaims}
        for s in ra.subclaims:
            if s.id in texts_b:
                self.shared += 1
                if _claim_text(s.text) != _claim_text(texts_b[s.id]):
                    self.differ += 1
                    self.example = self.example or f"{where} {s.id}: {s.text[:60]!r} vs {texts_b[s.id][:60]!r}"

    def check(self) -> None:
        """Refuse when most shared ids hold different texts (e.g. normal.jsonl against wrong.jsonl)."""
        if self.shared and self.differ / self.shared > 0.5:
            raise InputError(f"{self.differ} of the {self.shared} subclaim ids the two inputs share hold different "
                             f"claims (e.g. {self.example}); agreement compares two labellings of the same "
                             "decompositions, so these inputs cannot be compared")


def _compare_response(ra, rb) -> tuple[list[tuple[str, str]], int, float | None]:
    """(label pairs of the subclaims both label, subclaims left out, Kendall tau of the two orders)."""
    labels_b = {s.id: s.importance for s in rb.subclaims}
    ids_a = {s.id for s in ra.subclaims}
    local: list[tuple[str, str]] = []
    excluded = 0
    for s in ra.subclaims:
        other = labels_b.get(s.id)
        if other in IMPORTANCE_LABELS and s.importance in IMPORTANCE_LABELS:
            local.append((s.importance, other))
        else:
            excluded += 1
    excluded += sum(1 for sid in labels_b if sid not in ids_a)
    tau = _tau(ra.order, rb.order, ids_a & set(labels_b)) if ra.order and rb.order else None
    return local, excluded, tau


def only_condition(examples: list[ExampleResult], condition: str | None) -> list[ExampleResult]:
    """The examples with only ``condition``'s variant (``None``: every condition), for comparing one condition."""
    if condition is None:
        return examples
    out = []
    for example in examples:
        kept = copy.copy(example)
        kept.variants = {k: v for k, v in example.variants.items() if k == condition}
        out.append(kept)
    return out


def compare_labellings(a: list[ExampleResult], b: list[ExampleResult], *,
                       strict_queries: bool = True) -> AgreementResult:
    """Compare labelling ``a`` with labelling ``b`` of the same decompositions.

    Examples are paired by position up to the shorter list (the rest is
    reported in ``problems``). A pair whose queries differ raises InputError
    (``strict_queries=False`` skips it with a note instead), and so do inputs most
    of whose shared subclaim ids hold different texts (different claims, e.g. the
    normal and the wrong responses, not two labellings of one decomposition).
    """
    problems: list[str] = []
    if len(a) != len(b):
        problems.append(f"the labellings hold {len(a)} and {len(b)} examples; "
                        f"the first {min(len(a), len(b))} are compared by position")
    pairs: list[tuple[str, str]] = []
    variant_pairs: dict[str, list[tuple[str, str]]] = {}
    variant_taus: dict[str, list[float]] = {}
    taus: list[float] = []
    per_example = []
    excluded = 0
    compared_examples = 0
    claims = ClaimCheck()
    for position, (ea, eb) in enumerate(zip(a, b)):
        if normalised_query(ea.query) != normalised_query(eb.query):
            message = (f"example {position + 1} differs between the labellings: "
                       f"{ea.query[:80]!r} vs {eb.query[:80]!r}")
            if strict_queries:
                raise InputError(message + "; they must label the same records in the same order")
            problems.append("skipped: " + message)
            continue
        compared_examples += 1
        matched = _matched_variants(ea, eb)
        for va, vb in matched:
            variant = va if va == vb else f"{va}/{vb}"
            claims.add(ea.variants[va], eb.variants[vb], f"example {position + 1}")
            local, left_out, tau = _compare_response(ea.variants[va], eb.variants[vb])
            excluded += left_out
            pairs.extend(local)
            variant_pairs.setdefault(variant, []).extend(local)
            if tau is not None:
                taus.append(tau)
                variant_taus.setdefault(variant, []).append(tau)
            per_example.append({"position": position, "example_id": ea.id, "condition": variant, "n": len(local),
                                "exact": (sum(x == y for x, y in local) / len(local)) if local else None,
                                "kendall_tau": tau})
        one_renamed = len(matched) == 1 and matched[0][0] != matched[0][1]
        for variant in sorted(set() if one_renamed else set(ea.variants) ^ set(eb.variants)):
            problems.append(f"example {position + 1}: variant {variant!r} is in only one labelling")
    claims.check()
    kappa, exact, tau = _summary(pairs, taus)
    return AgreementResult(kappa, exact, tau, len(pairs), _confusion(pairs),
                           pd.DataFrame(per_example, columns=["position", "example_id", "condition", "n", "exact",
                                                              "kendall_tau"]),
                           _per_condition(variant_pairs, variant_taus), compared_examples, excluded, problems)


def _confusion(pairs: list[tuple[str, str]]) -> pd.DataFrame:
    confusion = pd.DataFrame(0, index=list(IMPORTANCE_LABELS), columns=list(IMPORTANCE_LABELS))
    for x, y in pairs:
        confusion.loc[x, y] += 1
    return confusion


def _per_condition(pairs: dict[str, list[tuple[str, str]]], taus: dict[str, list[float]]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"condition": v, "n": len(p), **dict(zip(("kappa", "exact", "kendall_tau"), _summary(p, taus.get(v, []))))}
         for v, p in pairs.items()], columns=["condition", "n", "kappa", "exact", "kendall_tau"])
