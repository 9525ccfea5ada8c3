"""VITAL Explorer: `streamlit run app.py`.

The entry point only sets up the page, the shared sidebar (backend, colour
legend) and navigation; each page lives in ``pages/`` and calls ``vital_core``.
"""
from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:  # pages import vital_core and pages._ui from the project root
    sys.path.insert(0, str(ROOT))

from pages import _ui  # noqa: E402

st.set_page_config(page_title="VITAL Explorer", page_icon=":material/fact_check:", layout="wide")

PAGES = [
    st.Page("pages/score.py", title="Score", icon=":material/calculate:", url_path="score", default=True),
    st.Page("pages/compare.py", title="Compare variants", icon=":material/compare_arrows:", url_path="compare"),
    st.Page("pages/explore.py", title="Explore results", icon=":material/table_view:", url_path="explore"),
    st.Page("pages/sensitivity.py", title="Sensitivity", icon=":material/monitoring:", url_path="sensitivity"),
    st.Page("pages/agreement.py", title="Agreement", icon=":material/handshake:", url_path="agreement"),
]

page = st.navigation(PAGES)
with st.sidebar:
    _ui.sidebar_backend()
    with st.expander("Colour code", expanded=True):
        _ui.legend()
page.run()
