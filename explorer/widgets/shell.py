"""The app's shell, drawn once by the entry file ``app.py``: page config, the pages (``st.navigation``), the
sidebar (links to the pages, backend, colour legend) and the error guard around the page on show.

Each page is a file in ``pages/`` that only lays out its own content; its URL path is its file name
(``/explore?dataset=...`` works as the first request of a fresh server). Streamlit runs the entry file on
every run and then the page the URL names, so the sidebar's widgets are drawn on every run and keep their
values across pages without being carried over. The navigation menu is hidden: its place is taken by the
sidebar's own links, drawn above the backend panel. The URL ``/`` is a page of its own that opens Score,
keeping the query (``/?example=demo-03``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import streamlit as st

from explorer.logic import palette
from explorer.logic.formatting import escape_md
from explorer.paths import FAVICON
from explorer.widgets.backend_panel import sidebar_backend


@dataclass(frozen=True)
class AppPage:
    path: str     # relative to app.py; its file name is its URL path
    title: str
    icon: str
    keys: str     # every session key the page sets starts with this (its widgets' and its own)


PAGES = [
    AppPage("pages/score.py", "Score", ":material/calculate:", "score_"),
    AppPage("pages/compare.py", "Compare variants", ":material/compare_arrows:", "cmp_"),
    AppPage("pages/explore.py", "Explore results", ":material/table_view:", "explore_"),
    AppPage("pages/sensitivity.py", "Sensitivity", ":material/monitoring:", "sens_"),
    AppPage("pages/agreement.py", "Agreement", ":material/handshake:", "agr_"),
]
HOME = PAGES[0]   # where the URL "/" sends a visitor
# Session keys shared by pages: the sidebar's backend settings and the data set Explore, Sensitivity and
# Agreement read together.
SHARED_KEYS = ("backend_", "step_", "data_")


def friendly_error(what: str, exc: BaseException) -> None:
    """A failure shown as a sentence, never a traceback."""
    st.error(f"{what}: {type(exc).__name__}: {escape_md(exc)}", icon=":material/error:")


def _home() -> None:
    """The URL "/": open the home page, keeping the URL's query (e.g. ``/?example=demo-03``)."""
    st.switch_page(HOME.path, query_params=st.query_params.to_dict())


def _sidebar() -> None:
    with st.sidebar:
        st.markdown("### VITAL Explorer")
        for page in PAGES:
            st.page_link(page.path, label=page.title, icon=page.icon)
        st.divider()
        sidebar_backend()
        with st.expander("Colour code", expanded=True):
            st.html(palette.legend_html())


def hand_over_to_entry() -> None:
    """First line of every page. Until some session has called ``st.navigation``, Streamlit treats a
    ``pages/`` folder as its older multipage layout and runs the page a fresh server's first request names
    on its own, without this shell (Streamlit's AppTest does so on every run). The page is then run through
    the shell from here, within the same run, so a click that started the run is not lost."""
    from streamlit.runtime.pages_manager import PagesManager
    if PagesManager.uses_pages_directory:
        run_app()      # its st.navigation ends the older layout, then runs this page inside the shell
        st.stop()


def run_app() -> None:
    """``app.py``: page config, the pages, the sidebar, then the page the URL names; an unexpected failure
    of a page becomes a message (reruns and stops pass: they are not Exceptions)."""
    st.set_page_config(page_title="VITAL Explorer", page_icon=str(FAVICON), layout="wide")
    home = st.Page(_home, title="VITAL Explorer", default=True)
    page = st.navigation([home] + [st.Page(p.path, title=p.title, icon=p.icon) for p in PAGES], position="hidden")
    _sidebar()
    try:
        page.run()
    except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
        friendly_error("Something went wrong on this page", exc)
        if os.environ.get("VITAL_DEBUG"):  # developers opt in to the traceback
            st.exception(exc)
