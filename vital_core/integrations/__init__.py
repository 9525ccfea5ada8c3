"""VITAL where evaluations already run: a scorer for Inspect (``integrations.inspect``, extra
``vital-explorer[inspect]``) and one for MLflow's ``mlflow.genai.evaluate`` (``integrations.mlflow``,
extra ``vital-explorer[mlflow]``). Both score through ``integrations.harness``, which goes the way of
``vital_core.evaluate``. docs/integrations.md describes them.

Importing this package imports neither harness; each module imports its own only when used.
"""
