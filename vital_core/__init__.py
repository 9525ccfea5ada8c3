"""VITAL Explorer's scoring core: data model, metrics, statistics, loaders,
backends and the scoring pipeline. Pure Python; never imports streamlit."""

__version__ = "0.2.0"


def __getattr__(name: str):
    """``vital_core.evaluate``, ``load`` and ``table`` without importing pandas on ``import vital_core``."""
    if name in ("evaluate", "load", "table"):
        from vital_core import api
        return getattr(api, name)
    raise AttributeError(f"module 'vital_core' has no attribute {name!r}")
