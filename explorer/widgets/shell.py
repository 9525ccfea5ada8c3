"""The app's shell: page config, the sidebar (links to the pages, backend, colour legend) and the
error guard.

The app uses Streamlit's own multipage folder: ``app.py`` is the entry page and every file in
``pages/`` is a page, reachable by its file name (``/explore?dataset=...`` works as the first
request of a fresh server). Streamlit runs only the page a URL names, so each page calls
``run_page`` to draw the shared shell. The built-in page list is hidden in
``.streamlit/config.toml`` (``client.showSidebarNavigation = false``) because its labels come
from file names; the sidebar draws its own links with titles and icons instead.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

import streamlit as st

from explorer.logic import palette
from explorer.logic.formatting import escape_md
from explorer.paths import FAVICON
from explorer.widgets.backend_panel import keep_sidebar_state, sidebar_backend


@dataclass(frozen=True)
class AppPage:
    path: str     # relative to app.py; its file name is its URL path
    title: str
    icon: str


PAGES = [
    AppPage("pages/score.py", "Score", ":material/calculate:"),
    AppPage("pages/compare.py", "Compare variants", ":material/compare_arrows:"),
    AppPage("pages/explore.py", "Explore results", ":material/table_view:"),
    AppPage("pages/sensitivity.py", "Sensitivity", ":material/monitoring:"),
    AppPage("pages/agreement.py", "Agreement", ":material/handshake:"),
]
HOME = PAGES[0]   # where app.py (the URL "/") sends a visitor


def friendly_error(what: str, exc: BaseException) -> None:
    """A failure shown as a sentence, never a traceback."""
    st.error(f"{what}: {type(exc).__name__}: {escape_md(exc)}", icon=":material/error:")


def configure_page() -> None:
    st.set_page_config(page_title="VITAL Explorer", page_icon=str(FAVICON), layout="wide")


def draw_shell() -> None:
    """Page config and the shared sidebar, drawn by every page."""
    configure_page()
    keep_sidebar_state()
    with st.sidebar:
        st.markdown("### VITAL Explorer")
        for page in PAGES:
            st.page_link(page.path, label=page.title, icon=page.icon)
        st.divider()
        sidebar_backend()
        with st.expander("Colour code", expanded=True):
            st.html(palette.legend_html())


def run_page(render: Callable[[], None]) -> None:
    """Draw the shell, then the page; an unexpected failure becomes a message (reruns and stops pass)."""
    draw_shell()
    try:
        render()
    except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
        friendly_error("Something went wrong on this page", exc)
        if os.environ.get("VITAL_DEBUG"):  # developers opt in to the traceback
            st.exception(exc)


def go_home() -> None:
    """``app.py``: open the home page, keeping the URL's query (e.g. ``/?example=demo-03``)."""
    configure_page()
    st.switch_page(HOME.path, query_params=st.query_params.to_dict())
