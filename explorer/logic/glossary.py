"""One line for every statistic and metric name the Sensitivity and Compare pages show: their column tooltips
and their glossary. Metric lines come from the catalog (``MetricSpec.description``), never written twice."""
from __future__ import annotations

import pandas as pd

from vital_core.analysis.stats import NOTICED_RULE
from vital_core.metrics.catalog import METRICS

STATISTICS = {
    "p": "how likely a difference at least this large is if the metric did not change (small = a real change)",
    "Holm": "p values corrected with Holm's method, because many metrics are tested at once",
    "paired t-test": "tests whether the mean change from the normal response to the variant is zero",
    "Wilcoxon": "the signed-rank test: like the t-test, but on ranks, so a few extreme pairs weigh less",
    "McNemar": "for a flag: compares how often it switches on versus off between the normal and the variant",
    "d_z": "Cohen's effect size for paired data: mean change divided by the spread of the changes "
           "(0.2 small, 0.5 medium, 0.8 large)",
    "r": "rank-biserial correlation, the Wilcoxon test's effect size, from -1 to +1",
    "rate diff": "for a flag: the share of variants flagged minus the share of normal responses flagged",
    "effect size": "how large the change is, in units that do not depend on the metric's scale (d_z for "
                   "scores, rate difference for flags)",
    "detection rate": "share of pairs in which the metric noticed the damage; " + NOTICED_RULE,
    "ROC AUC": "chance that a normal response scores better than a variant (0.5 = cannot tell them apart, "
               "1 = always)",
    "n / pairs": "examples with the metric defined for both the normal response and the variant",
    "dropped (undefined)": "pairs left out because the metric is undefined on one side",
    "mean A / mean B": "the metric's mean for the first and the second condition of the comparison",
    "normal mean / condition mean / mean change": "the metric's mean on normal responses, on variants, and "
                                                "the mean of the differences",
    "κ (kappa)": "agreement between two labellings beyond chance (0 = chance, 1 = perfect)",
}

# A table column -> the glossary line its tooltip shows.
COLUMN_HELP = {
    "p t (Holm)": f"paired t-test: {STATISTICS['paired t-test']}; {STATISTICS['Holm']}",
    "p Wilcoxon (Holm)": f"{STATISTICS['Wilcoxon']}; {STATISTICS['Holm']}",
    "p McNemar (Holm)": f"{STATISTICS['McNemar']}; {STATISTICS['Holm']}",
    "effect": f"d_z: {STATISTICS['d_z']}; r: {STATISTICS['r']}; rate diff: {STATISTICS['rate diff']}",
    "n": STATISTICS["n / pairs"], "pairs": STATISTICS["n / pairs"],
    "mean A": STATISTICS["mean A / mean B"], "mean B": STATISTICS["mean A / mean B"],
    "p (Holm)": f"{STATISTICS['p']}; {STATISTICS['Holm']}",
    "p (t-test / McNemar)": f"paired t-test for a score, McNemar for a flag: {STATISTICS['p']}",
    "p Wilcoxon": STATISTICS["Wilcoxon"],
    "detection rate": STATISTICS["detection rate"], "ROC AUC": STATISTICS["ROC AUC"],
    "effect size": STATISTICS["effect size"], "dropped (undefined)": STATISTICS["dropped (undefined)"],
    "normal mean": STATISTICS["normal mean / condition mean / mean change"],
    "condition mean": STATISTICS["normal mean / condition mean / mean change"],
    "mean change": STATISTICS["normal mean / condition mean / mean change"],
}


def column_help(columns) -> dict[str, str]:
    """The tooltips of a table's columns that the glossary explains."""
    return {c: COLUMN_HELP[c] for c in columns if c in COLUMN_HELP}


def frame(metric_keys=None, statistics: bool = True) -> pd.DataFrame:
    """The glossary as a two-column table: the statistics, then the metrics (all, or ``metric_keys``)."""
    rows = [{"name": k, "what it means": v} for k, v in STATISTICS.items()] if statistics else []
    rows += [{"name": METRICS[k].label, "what it means": METRICS[k].description}
             for k in (metric_keys or METRICS) if k in METRICS and METRICS[k].kind != "count"]
    return pd.DataFrame(rows, columns=["name", "what it means"])
