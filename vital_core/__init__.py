"""VITAL Explorer's scoring core: data model, metrics, statistics, loaders,
backends and the scoring pipeline. Pure Python; never imports streamlit."""

__version__ = "0.2.0"
