"""A reason never says a word or value is absent when the evidence sentence it quotes contains it.

Runs the offline verifier over the claim/passage cases, the claims of the paragraph triples' responses
against their documents and against their reference answer, and the bundled demos, and checks every reason
with ``bench_user_text``'s reader; ``test_offline_reasons_user_sets`` does the same for every user-style set
(a file of its own, so that the two share the test workers).
"""
import pytest

from bench.bench_user_text import DATA, reason_contradicts_quote
from bench.bench_verifier import SETS, load_jsonl
from tests.support.offline_verdict import bad_reasons, claims_of
from vital_core.backends.offline.verdict import written_in
from vital_core.backends.offline.verify import verify_claims
from vital_core.results.model import Document
from vital_core.scoring.inputs import read_input_jsonl


def test_the_reader_finds_a_reason_that_contradicts_its_quote():
    bad = ('not enough evidence: the evidence does not mention 1930 (closest: "Pluto, found in 1930, was '
           'reclassified in 2006.", similarity 0.71)')
    assert reason_contradicts_quote(bad) == "says 1930 is absent, but the quote states it"
    good = ('not enough evidence: the evidence does not mention 1931 (closest: "Pluto, found in 1930, ...", '
            'similarity 0.7)')
    assert reason_contradicts_quote(good) is None
    words = ("not enough evidence: the closest evidence does not say 'dwarf', 'orbit' "
             "(closest: \"A dwarf planet.\", similarity 0.5)")
    assert reason_contradicts_quote(words) == "says dwarf is absent, but the quote states it"


def test_a_value_given_for_something_else_is_not_called_absent():
    # the year is written in the evidence, but for the discovery, not for the claim's naming
    verdict = verify_claims(["Pluto was named in 1930."],
                            [Document(id="d", text="Pluto was found by Clyde Tombaugh in 1930. It was named by "
                                                   "an eleven-year-old girl, Venetia Burney.")])[0]
    assert reason_contradicts_quote(verdict.reason) is None, verdict.reason
    assert written_in("1930", "Pluto, found in 1930, ...") and not written_in("193", "found in 1930")


@pytest.mark.parametrize("name", SETS)
def test_no_reason_contradicts_its_quote_on_the_cases(name):
    bad = []
    for case in load_jsonl(DATA / name / "verifier_cases.jsonl"):
        bad += bad_reasons([case["claim"]], [Document(id="passage", text=case["passage"])])
    assert bad == []


@pytest.mark.parametrize("name", SETS)
def test_no_reason_contradicts_its_quote_on_the_paragraphs(name):
    bad = []
    for t in load_jsonl(DATA / name / "paragraph_triples.jsonl"):
        claims = [c for text in t["responses"].values() for c in claims_of(text)]
        docs = [Document(id=d["id"], title=d.get("title", ""), text=d["text"]) for d in t["documents"]]
        bad += bad_reasons(claims, docs)
        if t.get("reference"):
            bad += bad_reasons(claims, [Document(id="reference", text=t["reference"])], reference=True)
    assert bad == []


def test_no_reason_contradicts_its_quote_on_the_demos():
    bad = []
    for record in read_input_jsonl(DATA / "demo" / "demo_input.jsonl"):
        claims = [c for text in record.texts().values() for c in claims_of(text)]
        bad += bad_reasons(claims, record.documents)
        if record.reference:
            bad += bad_reasons(claims, [Document(id="reference", text=record.reference)], reference=True)
    assert bad == []
