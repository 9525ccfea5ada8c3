"""Names, labels and directions of every per-response metric.

The keys are the column names of the per-record frame, the keys of
``report --json`` records and the metric ids the app shows. The functions that
compute them live in ``vital_core.metrics.formulas``; ``metrics.compute_response_metrics``
returns a dict with these keys (value ``None`` = undefined).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MetricSpec:
    key: str
    label: str
    kind: str                 # "score" (0..1), "flag" (bool), "count"
    higher_is_better: bool    # for flags: False means "True is bad"
    needs: str                # what it needs to be defined, shown when undefined
    description: str


_SPECS = [
    MetricSpec("factscore_precision", "FactScore precision", "score", True, "at least one subclaim",
               "supported subclaims / all subclaims (not judged counts as not supported)"),
    MetricSpec("vital_precision", "VITAL precision", "score", True, "at least one vital subclaim",
               "supported vital subclaims / vital subclaims"),
    MetricSpec("okay_precision", "Okay precision", "score", True, "at least one okay subclaim",
               "supported okay subclaims / okay subclaims"),
    MetricSpec("less_important_precision", "Less-important precision", "score", True,
               "at least one less-important subclaim",
               "supported less-important subclaims / less-important subclaims"),
    MetricSpec("weighted_precision", "Weighted precision", "score", True, "at least one labelled subclaim",
               "tier-weighted share of supported subclaims (default weights 1.0/0.6/0.4)"),
    MetricSpec("decay_precision", "Decay precision", "score", True, "at least two ranked subclaims",
               "release-compatible (n-i)/i decay over the importance order"),
    MetricSpec("decay_precision_top5", "Decay precision@5", "score", True, "at least two ranked subclaims",
               "release-compatible decay over the top 5 of the importance order"),
    MetricSpec("linear_decay_precision", "Linear-decay precision", "score", True, "at least one ranked subclaim",
               "true linear decay (n-i+1)/n over the importance order"),
    MetricSpec("linear_decay_precision_top5", "Linear-decay precision@5", "score", True,
               "at least one ranked subclaim", "true linear decay over the top 5 of the importance order"),
    MetricSpec("rlp", "RLP (vital error flagged)", "flag", False, "at least one vital subclaim",
               "true when any vital subclaim is not supported"),
    MetricSpec("n_subclaims", "Subclaims", "count", True, "", "number of subclaims"),
    MetricSpec("n_supported", "Supported subclaims", "count", True, "", "number of supported subclaims"),
    MetricSpec("n_vital", "Vital subclaims", "count", True, "", "number of vital subclaims"),
    MetricSpec("n_okay", "Okay subclaims", "count", True, "", "number of okay subclaims"),
    MetricSpec("n_less_important", "Less-important subclaims", "count", True, "",
               "number of less-important subclaims"),
    MetricSpec("n_unlabelled", "Unlabelled subclaims", "count", False, "", "subclaims the ranker failed to label"),
    MetricSpec("n_not_judged", "Not judged", "count", False, "", "subclaims without a verdict"),
    MetricSpec("n_contradicted", "Contradicted", "count", False, "", "subclaims contradicted by the evidence"),
    MetricSpec("nugget_recall", "Nugget recall (All Strict)", "score", True, "at least one nugget",
               "supported nuggets / all nuggets (partial support counts 0)"),
    MetricSpec("nugget_recall_partial", "Nugget recall (All, partial 0.5)", "score", True, "at least one nugget",
               "support 1, partial 0.5, over all nuggets"),
    MetricSpec("vital_recall", "VITAL recall (Vital Strict)", "score", True, "at least one vital nugget",
               "supported vital nuggets / vital nuggets"),
    MetricSpec("vital_recall_partial", "VITAL recall (Vital, partial 0.5)", "score", True,
               "at least one vital nugget", "support 1, partial 0.5, over vital nuggets"),
    MetricSpec("weighted_recall", "Weighted recall", "score", True, "at least one nugget",
               "tier-weighted share of supported nuggets (partial counts, as in the release)"),
    MetricSpec("weighted_f1", "Weighted F1", "score", True, "weighted precision and recall",
               "harmonic mean of weighted precision and recall"),
    MetricSpec("decay_recall", "Decay recall", "score", True, "at least two nuggets",
               "release-compatible (n-i)/i decay over the nugget order"),
    MetricSpec("decay_recall_top5", "Decay recall@5", "score", True, "at least two nuggets",
               "release-compatible decay over the first 5 nuggets"),
    MetricSpec("rlr", "RLR (vital nugget missed)", "flag", False, "at least one vital nugget",
               "true when any vital nugget is not supported"),
    MetricSpec("n_nuggets", "Nuggets", "count", True, "", "number of nuggets"),
    MetricSpec("n_vital_nuggets", "Vital nuggets", "count", True, "", "number of vital nuggets"),
    MetricSpec("n_okay_nuggets", "Okay nuggets", "count", True, "", "number of okay nuggets"),
    MetricSpec("n_vital_nuggets_missed", "Vital nuggets not supported", "count", False, "assigned nuggets",
               "vital nuggets with no support at all (partial support counts as support, as the paper's RLR)"),
    MetricSpec("fc_precision", "Factual correctness precision", "score", True, "a reference answer",
               "response claims supported by the reference / response claims"),
    MetricSpec("fc_recall", "Factual correctness recall", "score", True, "a reference answer",
               "reference claims supported by the response / reference claims"),
    MetricSpec("fc_f1", "Factual correctness F1", "score", True, "a reference answer",
               "harmonic mean of factual-correctness precision and recall"),
    MetricSpec("wpa", "WIMPE WPA", "score", True, "scoring points (reference claims or nuggets)",
               "coverage 1/0.5/0 weighted 3/2/1 by importance"),
    MetricSpec("pcp", "WIMPE PCP", "score", False, "scoring points (reference claims)",
               "importance-weighted share of scoring points the response contradicts"),
    MetricSpec("f1_at_k", "F1@K (SAFE)", "score", True, "at least one subclaim",
               "F1 of precision and min(supported/K, 1); K = median subclaim count of the loaded set"),
]

METRICS: dict[str, MetricSpec] = {m.key: m for m in _SPECS}

# Named views: every list of metrics a table, page or test uses is one of these.

# What a person compares first: the Score page's cards, Compare's chart and Explore's table.
HEADLINE = ["factscore_precision", "vital_precision", "weighted_precision", "decay_precision", "rlp",
            "nugget_recall", "vital_recall", "rlr", "fc_f1"]
# Compare's table of one example's variants: the headline, then what explains it.
VARIANT_TABLE = HEADLINE + ["weighted_recall", "fc_precision", "fc_recall", "n_subclaims", "n_vital", "n_contradicted"]
# Paper Table 3: subclaims per tier and nuggets per tier, averaged per response.
TABLE3_COUNTS = ["n_subclaims", "n_vital", "n_okay", "n_less_important", "n_nuggets", "n_vital_nuggets",
                 "n_okay_nuggets"]
# Counts the paper has no column for but a reader needs to trust the others.
EXTRA_COUNTS = ["n_unlabelled", "n_not_judged", "n_contradicted"]
# Paper Table 4 (precision and recall), then the method's other scores in the order the report prints them.
TABLE4_SCORES = ["factscore_precision", "vital_precision", "nugget_recall", "vital_recall"]
ALL_SCORES = TABLE4_SCORES + ["okay_precision", "less_important_precision", "weighted_precision",
                              "decay_precision", "decay_precision_top5", "linear_decay_precision", "f1_at_k",
                              "nugget_recall_partial", "vital_recall_partial", "weighted_recall", "weighted_f1",
                              "decay_recall", "fc_precision", "fc_recall", "fc_f1", "wpa", "pcp"]
# What the response's own verdicts decide: undefined when nothing was checked (``formulas.nothing_checked``).
FROM_VERDICTS = ["factscore_precision", "vital_precision", "okay_precision", "less_important_precision",
                 "weighted_precision", "decay_precision", "decay_precision_top5", "linear_decay_precision",
                 "linear_decay_precision_top5", "rlp", "n_supported", "n_contradicted", "weighted_f1"]
# Paper Table 5: the response-level flags, as the share of responses flagged.
TABLE5_FLAGS = ["rlp", "rlr"]
# Paper Figure 5: decay-weighted precision and recall, over all positions and the top 5.
FIGURE5_DECAY = ["decay_precision", "decay_recall", "decay_precision_top5", "decay_recall_top5"]
# The metrics the sensitivity statistics test (report and the Sensitivity page alike).
TESTED = ["factscore_precision", "vital_precision", "weighted_precision", "decay_precision",
          "linear_decay_precision", "f1_at_k", "nugget_recall", "vital_recall", "weighted_recall",
          "decay_recall", "fc_f1", "wpa", "rlp", "rlr"]
