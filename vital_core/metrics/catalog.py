"""Names, labels, directions and needs of every per-response metric: each metric is declared here once.

The keys are the column names of the per-record frame, the keys of
``report --json`` records and the metric ids the app shows. What a metric
needs to be defined is data (``MetricSpec.requires``, words from
``REQUIREMENTS``): the per-response path (``response.FORMULAS``) and the
numpy path (``vectorised.column_metrics``) leave a metric needing
``verdicts`` undefined when nothing was judged, and ``undefined.why_undefined``
names the first requirement a response misses. The formulas live in
``vital_core.metrics.formulas``.
"""
from __future__ import annotations

from dataclasses import dataclass

# What a metric may need, and how a person reads that need (undefined.CHECKS tests each on a response).
REQUIREMENTS = {
    "subclaims": "at least one subclaim",
    "verdicts": "at least one judged subclaim",
    "vital_subclaim": "at least one vital subclaim",
    "okay_subclaim": "at least one okay subclaim",
    "less_important_subclaim": "at least one less-important subclaim",
    "labelled_subclaim": "at least one labelled subclaim",
    "ranked_one": "at least one ranked subclaim",
    "ranked_two": "at least two ranked subclaims",
    "nuggets": "nuggets (built from evidence documents)",
    "assignment": "the nuggets assigned to the response",
    "vital_nugget": "at least one vital nugget",
    "two_nuggets": "at least two nuggets",
    "answer_check": "the response's claims checked against a reference answer",
    "reference": "a reference answer",
    "scoring_points": "scoring points (reference claims or assigned nuggets)",
    "loaded_set": "a loaded set (K is its median subclaim count)",
}
# Metrics needing this are computed for a loaded set (``dataset``), not by the per-response formulas.
SET_LEVEL = "loaded_set"


@dataclass(frozen=True)
class MetricSpec:
    key: str
    label: str
    kind: str                 # "score" (0..1), "flag" (bool), "count"
    higher_is_better: bool    # for flags: False means "True is bad"
    requires: tuple[str, ...]  # keys of REQUIREMENTS, in the order a reason names them; () = always defined
    description: str

    def __post_init__(self) -> None:
        unknown = [r for r in self.requires if r not in REQUIREMENTS]
        if unknown:
            raise ValueError(f"metric {self.key!r} requires unknown {unknown}; declare it in REQUIREMENTS")

    @property
    def short_label(self) -> str:
        """The label without its parenthesis ("RLP", "VITAL recall"): a table header, a filter, a headline."""
        return self.label.split(" (")[0]

    @property
    def needs(self) -> str:
        """What it needs to be defined, in words ("" = always defined)."""
        return ", ".join(REQUIREMENTS[r] for r in self.requires)

    @property
    def per_response(self) -> bool:
        """Computed from one response alone (``compute_metrics``), not from a loaded set."""
        return SET_LEVEL not in self.requires


_SPECS = [
    MetricSpec("factscore_precision", "FactScore precision", "score", True, ("subclaims", "verdicts"),
               "supported subclaims / all subclaims (not judged counts as not supported)"),
    MetricSpec("vital_precision", "VITAL precision", "score", True, ("verdicts", "vital_subclaim"),
               "supported vital subclaims / vital subclaims"),
    MetricSpec("okay_precision", "Okay precision", "score", True, ("verdicts", "okay_subclaim"),
               "supported okay subclaims / okay subclaims"),
    MetricSpec("less_important_precision", "Less-important precision", "score", True,
               ("verdicts", "less_important_subclaim"),
               "supported less-important subclaims / less-important subclaims"),
    MetricSpec("weighted_precision", "Weighted precision", "score", True,
               ("subclaims", "verdicts", "labelled_subclaim"),
               "tier-weighted share of supported subclaims (default weights 1.0/0.6/0.4)"),
    MetricSpec("decay_precision", "Decay precision", "score", True, ("verdicts", "ranked_two"),
               "release-compatible (n-i)/i decay over the importance order"),
    MetricSpec("decay_precision_top5", "Decay precision@5", "score", True, ("verdicts", "ranked_two"),
               "release-compatible decay over the top 5 of the importance order"),
    MetricSpec("linear_decay_precision", "Linear-decay precision", "score", True, ("verdicts", "ranked_one"),
               "true linear decay (n-i+1)/n over the importance order"),
    MetricSpec("linear_decay_precision_top5", "Linear-decay precision@5", "score", True,
               ("verdicts", "ranked_one"), "true linear decay over the top 5 of the importance order"),
    MetricSpec("rlp", "RLP (vital error flagged)", "flag", False, ("verdicts", "vital_subclaim"),
               "true when any vital subclaim is not supported"),
    MetricSpec("n_subclaims", "Subclaims", "count", True, (), "number of subclaims"),
    MetricSpec("n_supported", "Supported subclaims", "count", True, ("verdicts",), "number of supported subclaims"),
    MetricSpec("n_vital", "Vital subclaims", "count", True, (), "number of vital subclaims"),
    MetricSpec("n_okay", "Okay subclaims", "count", True, (), "number of okay subclaims"),
    MetricSpec("n_less_important", "Less-important subclaims", "count", True, (),
               "number of less-important subclaims"),
    MetricSpec("n_unlabelled", "Unlabelled subclaims", "count", False, (), "subclaims the ranker failed to label"),
    MetricSpec("n_not_judged", "Not judged", "count", False, (), "subclaims without a verdict"),
    MetricSpec("n_contradicted", "Contradicted", "count", False, ("verdicts",),
               "subclaims contradicted by the evidence"),
    MetricSpec("nugget_recall", "Nugget recall (All Strict)", "score", True, ("nuggets", "assignment"),
               "supported nuggets / all nuggets (partial support counts 0)"),
    MetricSpec("nugget_recall_partial", "Nugget recall (All, partial 0.5)", "score", True, ("nuggets", "assignment"),
               "support 1, partial 0.5, over all nuggets"),
    MetricSpec("vital_recall", "VITAL recall (Vital Strict)", "score", True, ("nuggets", "assignment", "vital_nugget"),
               "supported vital nuggets / vital nuggets"),
    MetricSpec("vital_recall_partial", "VITAL recall (Vital, partial 0.5)", "score", True,
               ("nuggets", "assignment", "vital_nugget"), "support 1, partial 0.5, over vital nuggets"),
    MetricSpec("weighted_recall", "Weighted recall", "score", True, ("nuggets", "assignment"),
               "tier-weighted share of supported nuggets (partial counts, as in the release)"),
    MetricSpec("weighted_f1", "Weighted F1", "score", True,
               ("subclaims", "verdicts", "labelled_subclaim", "nuggets", "assignment"),
               "harmonic mean of weighted precision and recall"),
    MetricSpec("decay_recall", "Decay recall", "score", True, ("nuggets", "assignment", "two_nuggets"),
               "release-compatible (n-i)/i decay over the nugget order"),
    MetricSpec("decay_recall_top5", "Decay recall@5", "score", True, ("nuggets", "assignment", "two_nuggets"),
               "release-compatible decay over the first 5 nuggets"),
    MetricSpec("rlr", "RLR (vital nugget missed)", "flag", False, ("nuggets", "assignment", "vital_nugget"),
               "true when any vital nugget is not supported"),
    MetricSpec("n_nuggets", "Nuggets", "count", True, ("nuggets",), "number of nuggets"),
    MetricSpec("n_vital_nuggets", "Vital nuggets", "count", True, ("nuggets",), "number of vital nuggets"),
    MetricSpec("n_okay_nuggets", "Okay nuggets", "count", True, ("nuggets",), "number of okay nuggets"),
    MetricSpec("n_vital_nuggets_missed", "Vital nuggets not supported", "count", False, ("nuggets", "assignment"),
               "vital nuggets with no support at all (partial support counts as support, as the paper's RLR)"),
    MetricSpec("fc_precision", "Factual correctness precision", "score", True,
               ("answer_check", "subclaims", "verdicts"),
               "response claims supported by the reference / response claims"),
    MetricSpec("fc_recall", "Factual correctness recall", "score", True, ("reference",),
               "reference claims supported by the response / reference claims"),
    MetricSpec("fc_f1", "Factual correctness F1", "score", True, ("answer_check", "subclaims", "verdicts", "reference"),
               "harmonic mean of factual-correctness precision and recall"),
    MetricSpec("wpa", "WIMPE WPA", "score", True, ("scoring_points",),
               "coverage 1/0.5/0 weighted 3/2/1 by importance"),
    MetricSpec("pcp", "WIMPE PCP", "score", False, ("reference", "scoring_points"),
               "importance-weighted share of scoring points the response contradicts"),
    MetricSpec("f1_at_k", "F1@K (SAFE)", "score", True, ("subclaims", "verdicts", "loaded_set"),
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
# What the response's own verdicts decide: undefined when nothing was checked (``formulas.nothing_checked``),
# and under the strict convention when no subclaim was judged (``conventions.never_judged``).
FROM_VERDICTS = [k for k, m in METRICS.items() if "verdicts" in m.requires]
# Paper Table 5: the response-level flags, as the share of responses flagged.
TABLE5_FLAGS = ["rlp", "rlr"]
# Paper Figure 5: decay-weighted precision and recall, over all positions and the top 5.
FIGURE5_DECAY = ["decay_precision", "decay_recall", "decay_precision_top5", "decay_recall_top5"]
# The metrics the sensitivity statistics test (report and the Sensitivity page alike).
TESTED = ["factscore_precision", "vital_precision", "weighted_precision", "decay_precision",
          "linear_decay_precision", "f1_at_k", "nugget_recall", "vital_recall", "weighted_recall",
          "decay_recall", "fc_f1", "wpa", "rlp", "rlr"]
