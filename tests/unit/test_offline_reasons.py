"""A reason never says a word or value is absent when the evidence sentence it quotes contains it.

Runs the offline verifier over every data set in data/: the claim/passage cases, the claims of the
paragraph triples' responses against their documents and against their reference answer, the bundled
demos and every user-style set (data/user24*), and checks every reason with ``bench_user_text``'s reader.
"""
import pytest

from bench.bench_user_text import DATA, load_cases, reason_contradicts_quote
from bench.bench_verifier import SETS, load_jsonl
from vital_core.backends.offline.decompose import decompose
from vital_core.backends.offline.verdict import written_in
from vital_core.backends.offline.verify import verify_claims
from vital_core.results.model import Document
from vital_core.scoring.inputs import read_input_jsonl


def _claims(text: str) -> list[str]:
    return [c for _, claims in decompose(text) for c in claims]


def _bad(claims: list[str], documents: list[Document], reference: bool = False) -> list[str]:
    verdicts = verify_claims(claims, documents, reference=reference)
    return [f"{c}: {why} ({v.reason})" for c, v in zip(claims, verdicts)
            if (why := reason_contradicts_quote(v.reason))]


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
        bad += _bad([case["claim"]], [Document(id="passage", text=case["passage"])])
    assert bad == []


@pytest.mark.parametrize("name", SETS)
def test_no_reason_contradicts_its_quote_on_the_paragraphs(name):
    bad = []
    for t in load_jsonl(DATA / name / "paragraph_triples.jsonl"):
        claims = [c for text in t["responses"].values() for c in _claims(text)]
        docs = [Document(id=d["id"], title=d.get("title", ""), text=d["text"]) for d in t["documents"]]
        bad += _bad(claims, docs)
        if t.get("reference"):
            bad += _bad(claims, [Document(id="reference", text=t["reference"])], reference=True)
    assert bad == []


def test_no_reason_contradicts_its_quote_on_the_demos():
    bad = []
    for record in read_input_jsonl(DATA / "demo" / "demo_input.jsonl"):
        claims = [c for text in record.texts().values() for c in _claims(text)]
        bad += _bad(claims, record.documents)
        if record.reference:
            bad += _bad(claims, [Document(id="reference", text=record.reference)], reference=True)
    assert bad == []


USER_SETS = sorted(p.parent.name for p in DATA.glob("user24*/cases.jsonl"))


@pytest.mark.parametrize("name", USER_SETS or ["user24"])
def test_no_reason_contradicts_its_quote_on_the_user_style_sets(name):
    if not (DATA / name / "cases.jsonl").exists():
        pytest.skip(f"data/{name}/cases.jsonl is not there")
    bad = []
    for case in load_cases(name):
        claims = [c for key in ("normal", "wrong", "missing") for c in _claims(case[key])]
        docs = [Document(id=f"d{n}", text=d if isinstance(d, str) else d["text"])
                for n, d in enumerate(case["documents"])]
        bad += _bad(claims, docs)
        bad += _bad(claims, [Document(id="reference", text=case["reference"])], reference=True)
    assert bad == []
