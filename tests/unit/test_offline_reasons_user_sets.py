"""A reason never says a word or value is absent when the evidence sentence it quotes contains it, on every
user-style set (data/user24*): each variant's claims against the documents and against the reference."""
import pytest

from bench.bench_user_text import DATA, load_cases
from tests.support.offline_verdict import bad_reasons, claims_of
from vital_core.results.model import Document

USER_SETS = sorted(p.parent.name for p in DATA.glob("user24*/cases.jsonl"))


@pytest.mark.parametrize("name", USER_SETS or ["user24"])
def test_no_reason_contradicts_its_quote_on_the_user_style_sets(name):
    if not (DATA / name / "cases.jsonl").exists():
        pytest.skip(f"data/{name}/cases.jsonl is not there")
    bad = []
    for case in load_cases(name):
        claims = [c for key in ("normal", "wrong", "missing") for c in claims_of(case[key])]
        docs = [Document(id=f"d{n}", text=d if isinstance(d, str) else d["text"])
                for n, d in enumerate(case["documents"])]
        bad += bad_reasons(claims, docs)
        bad += bad_reasons(claims, [Document(id="reference", text=case["reference"])], reference=True)
    assert bad == []
