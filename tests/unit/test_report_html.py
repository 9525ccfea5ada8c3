"""The one-page HTML report of an example (explorer.logic.report_html): self-contained, escaped, complete."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from explorer.logic import report_html
from tests.support.app_helpers import hostile_results_file
from tests.support.demo_story import demo_results
from tests.support.flagged_answer import MISSED_NUGGET, UNFOUND_CLAIM, flagged_correct_example
from vital_core.analysis import story
from vital_core.results.model import ExampleResult


class _Tags(HTMLParser):
    """Every start tag and attribute of a document, and its text."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _parse(doc: str) -> _Tags:
    parser = _Tags()
    parser.feed(doc)
    return parser


def _fetches(parsed: _Tags) -> list:
    """Anything that would run or load: scripts, frames, images, links, event handlers, url(...) in styles."""
    bad = [t for t, _ in parsed.tags if t in ("script", "iframe", "img", "object", "embed", "link", "a", "base",
                                             "form", "video", "audio", "source")]
    for tag, attrs in parsed.tags:
        bad += [f"{tag} {k}" for k in attrs if k.startswith("on") or k in ("src", "href", "srcset", "action")]
        bad += [f"{tag} style url" for k, v in attrs.items() if k == "style" and "url(" in (v or "")]
    return bad


def test_the_report_of_a_demo_holds_texts_claims_metrics_and_the_story():
    example = next(iter(demo_results().values()))
    doc = report_html.example_report(example)
    parsed = _parse(doc)
    assert not _fetches(parsed), _fetches(parsed)
    assert not re.search(r"(?i)https?://|//[a-z0-9.-]+\.[a-z]{2,}/|@import", doc), "no network address"
    text = "".join(parsed.text)
    assert example.query in text
    for variant in example.variants.values():
        assert variant.text.split(".")[0] in text.replace("\n", " ") or variant.variant == "missing"
        for claim in variant.subclaims:
            assert claim.text in text
            if claim.reason:
                assert claim.reason in text
    assert doc.count('<details class="vx-claim" open>') == sum(len(v.subclaims) for v in example.variants.values())
    assert 'class="vx-strip"' in doc and "Which metrics noticed the damage?" in text
    assert any(word in text for word in story.REACTIONS)
    assert "FactScore precision" in text and "VITAL recall" in text


def test_the_report_escapes_hostile_text_and_fetches_nothing(tmp_path):
    example = ExampleResult.from_dict(json.loads(hostile_results_file(tmp_path).read_text().splitlines()[0]))
    doc = report_html.example_report(example, origin="<script>alert('origin')</script>")
    parsed = _parse(doc)
    assert not _fetches(parsed), _fetches(parsed)
    text = "".join(parsed.text)
    assert "<img src=http://evil.example/query-html.png onerror=alert(1)>" in text, "shown as text"
    assert "<script>alert('origin')</script>" in text
    assert "scoring failed" in text.lower() or "Scoring failed" in text


def test_a_report_file_name_is_safe():
    assert report_html.file_stem("../../etc/passwd <x>") == "etc-passwd-x"
    assert report_html.file_stem("////") == "example"


def test_the_report_explains_a_flagged_correct_answer_and_its_low_factual_correctness():
    example = flagged_correct_example(("normal", "wrong"))
    text = " ".join(" ".join(_parse(report_html.example_report(example)).text).split())
    assert "The normal response carries a flag" in text
    assert f"(VITAL precision 0.50): \u201c{UNFOUND_CLAIM}\u201d" in text
    assert f"(VITAL recall 0.50): \u201c{MISSED_NUGGET}\u201d (only partly)" in text
    assert "Factual correctness F1 0.33 compares this answer with the reference answer" in text
