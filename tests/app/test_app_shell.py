"""AppTest: the shell drawn once by app.py (st.navigation), the sidebar on every page, and session keys
namespaced per page."""
from __future__ import annotations

import pytest

from explorer.widgets import shell
from tests.support.app_helpers import assert_clean, open_page

PAGE_NAMES = [p.path.removeprefix("pages/").removesuffix(".py") for p in shell.PAGES]


def _own_keys(at) -> set[str]:
    return {k for k in at.session_state._state.filtered_state if not k.startswith(("$$", "FormSubmitter:"))}


@pytest.mark.parametrize("page", PAGE_NAMES)
def test_each_page_sets_only_its_own_or_shared_session_keys_and_keeps_the_sidebar(page):
    at = open_page()
    at.switch_page(f"pages/{page}.py").run()   # the Score page's keys are set by the first run: start after
    before = _own_keys(at)
    at.run()
    assert_clean(at)
    prefix = next(p.keys for p in shell.PAGES if p.path == f"pages/{page}.py")
    stray = sorted(k for k in _own_keys(at) - before if not k.startswith((prefix,) + shell.SHARED_KEYS))
    assert not stray, f"{page} sets session keys outside its namespace {prefix!r}: {stray}"
    namespaces = tuple(p.keys for p in shell.PAGES) + shell.SHARED_KEYS
    nobodys = sorted(k for k in _own_keys(at) if not k.startswith(namespaces))
    assert not nobodys, f"keys of no page: {nobodys}"
    # the sidebar is drawn by the entry file on every run, not by the page
    assert [r.key for r in at.sidebar.radio] == ["backend_name"]
    assert len(at.sidebar.get("page_link")) == len(shell.PAGES)


def test_the_backend_choice_stays_when_moving_between_pages():
    at = open_page()
    at.radio(key="backend_name").set_value("openai").run()
    for page in PAGE_NAMES[1:] + PAGE_NAMES[:1]:
        at.switch_page(f"pages/{page}.py").run()
        assert_clean(at)
        assert at.radio(key="backend_name").value == "openai", page
