"""Shared helpers for the AppTest page tests (tests/test_app_*.py) and the browser tests."""
from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.support.paths import REPO

APP = REPO / "app.py"
TIMEOUT = 90
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_AUTOLINK = re.compile(r"(?i)\b(https?://|www\.)")   # what GFM links without any markup


def open_page(page: str | None = None, *, query_params: dict | None = None, session: dict | None = None) -> AppTest:
    """Run app.py (which opens the Score page) and switch to ``pages/<page>.py``."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in (query_params or {}).items():
        at.query_params[k] = v
    for k, v in (session or {}).items():
        at.session_state[k] = v
    at.run()
    if page and page != "score":
        at.switch_page(f"pages/{page}.py").run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """No exception and no 'something went wrong' fallback message on the page, and no download button that
    reruns the page when clicked (the rerun races the download and can revoke a report made on click)."""
    assert not at.exception, [e.value for e in at.exception]
    broken = [e.value for e in at.error if "Something went wrong" in e.value]
    assert not broken, broken
    rerunning = [d.proto.label for d in at.get("download_button") if not d.proto.ignore_rerun]
    assert not rerunning, rerunning


def shown(markdown: str) -> str:
    """What a person reads of a markdown body: backslash escapes resolved, word joiners unseen."""
    return _MD_ESCAPE.sub(r"\1", markdown).replace("\u2060", "")


def texts(at: AppTest, kind: str) -> list[str]:
    """The text of every element of a kind (markdown escapes resolved, as a person reads it)."""
    return [shown(str(e.value)) for e in getattr(at, kind)]


def markdown_sources(at: AppTest) -> list[str]:
    """Every markdown body and label the page sends as it is written (before rendering)."""
    out = []
    for kind in ("markdown", "caption", "title", "header", "subheader", "info", "warning", "error",
                 "success", "exception"):
        out += [str(e.value) for e in getattr(at, kind)]
    for kind in ("expander", "status", "tabs", "metric", "radio", "text_input", "selectbox", "button"):
        out += [str(e.label) for e in at.get(kind)] if kind in ("expander", "status") else \
            [str(e.label) for e in getattr(at, kind)]
    out += [str(o) for r in at.radio for o in r.options]
    out += [str(m.help or "") for m in at.metric]
    return out


def html_bodies(at: AppTest) -> str:
    return "\n".join(str(h.proto.body) for h in at.html)


def metric_values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


# Markdown, link and HTML payloads: each names the field it sits in, so a leak says where it came from.
HOSTILE = ("![x](http://evil.example/{field}.png)", "[click](javascript:alert('{field}'))",
           "<img src=http://evil.example/{field}-html.png onerror=alert(1)>", ":red[{field}] $x^2$")


def hostile(field: str) -> str:
    return " ".join(p.format(field=field) for p in HOSTILE)


def hostile_results_file(folder: Path) -> Path:
    """A results file whose every text field (ids, names, query, documents, claims, nuggets,
    warnings, errors) holds markdown images, links and HTML that point outside this machine."""
    from vital_core.results.model import Document, ExampleResult, Nugget, ResponseResult, Subclaim

    def response(variant: str, field: str) -> ResponseResult:   # the odd variant failed: it has an error
        claims = [Subclaim(f"S{i}", hostile(f"{field}-claim{i}"), sentence=hostile(f"{field}-sentence"),
                           importance="vital", rank=i, verdict=("supported", "contradicted")[i - 1],
                           reason=hostile(f"{field}-reason"),
                           evidence=hostile(f"{field}-evidence")) for i in (1, 2)]
        return ResponseResult(variant, hostile(f"{field}-text"), claims, order=["S1", "S2"],
                              nugget_assignment={"N1": "support"}, warnings=[hostile(f"{field}-warning")],
                              error=hostile(f"{field}-error") if field == "variant" else None,
                              evidence_mode="documents")

    example = ExampleResult(
        id=hostile("id"), query=hostile("query"), dataset=hostile("dataset"), subset=hostile("subset"),
        query_type=hostile("querytype"), reference=hostile("reference"),
        documents=[Document(hostile("docid"), hostile("doctext"), title=hostile("doctitle"))],
        nuggets=[Nugget("N1", hostile("nugget"), "vital")],
        variants={"normal": response("normal", "normal"), "wrong": response("wrong", "wrong"),
                  hostile("variant"): response(hostile("variant"), "variant")})
    path = folder / "hostile.jsonl"
    path.write_text(json.dumps(example.to_dict()) + "\n", encoding="utf-8")
    return path


def leaks(sources: list[str]) -> list[str]:
    """Markdown bodies in which a payload would still render as an image, link or HTML."""
    bad = []
    for body in sources:
        live = re.sub(r"\\[!-/:-@\[-`{-~]", "", body)   # what is left once escaped characters are set aside
        if "evil.example" in live or "javascript:" in live or "<img" in live or ":red[" in live \
                or _AUTOLINK.search(_MD_ESCAPE.sub(r"\1", body)):
            bad.append(body)
    return bad


def tables_showing_none(at: AppTest) -> list[str]:
    """Tables with an empty cell and no placeholder: Streamlit would print "None" in it."""
    bad = []
    for table in at.dataframe:
        if table.value.isna().to_numpy().any() and not table.proto.placeholder:
            bad.append(f"{table.key or ''} {list(table.value.columns)}")
    return bad
