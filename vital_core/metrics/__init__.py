"""The metrics of the method: ``catalog`` (every metric's key, label and meaning, and the
named views the tables use), ``formulas`` (one pure function per metric), ``response``
(all metrics of one response), ``vectorised`` (the same over many responses at once),
``codes`` (label codes of the columnar path) and ``undefined`` (why a metric has no value)."""
from vital_core.metrics.formulas import DEFAULT_WEIGHTS, TierWeights  # noqa: F401
from vital_core.metrics.response import compute_response_metrics  # noqa: F401
