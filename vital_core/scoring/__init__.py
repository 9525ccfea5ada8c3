"""Scoring runs: the method's steps (``steps``) driven by the ``pipeline``, resumable batch runs (``runs``)
with per-record deadlines (``deadline``), their inputs (``inputs``), relabelling (``labelling``) and the
checks on generated variants (``perturbation``)."""
