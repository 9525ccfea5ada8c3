"""Shareable state in the URL: dataset, example and condition."""
from __future__ import annotations

import streamlit as st


def qp(name: str, default: str = "") -> str:
    value = st.query_params.get(name)
    return default if value is None else str(value)


def set_qp(**values: str | None) -> None:
    """Write shareable state (dataset, example, condition) into the URL; None removes it."""
    for name, value in values.items():
        if value is None or value == "":
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get(name) != str(value):
            st.query_params[name] = str(value)

