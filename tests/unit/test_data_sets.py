"""The verifier's data sets keep the layout that bench_verifier reads (data/dev/README.md)."""
import pytest

from bench.bench_verifier import DATA, SETS, load_jsonl

LABELS = {"supported", "contradicted", "not_enough_evidence"}
QUERY_TYPES = {"single-answer", "open-ended"}


@pytest.mark.parametrize("name", SETS)
def test_cases_have_unique_ids_a_known_label_and_a_passage(name):
    cases = load_jsonl(DATA / name / "verifier_cases.jsonl")
    assert len(cases) >= 98
    assert len({c["id"] for c in cases}) == len(cases)
    for c in cases:
        assert c["label"] in LABELS, c["id"]
        assert c["claim"].strip() and c["passage"].strip() and c["class"].strip(), c["id"]
    # balanced: no label under a quarter of the set
    assert all(sum(c["label"] == label for c in cases) >= len(cases) / 4 for label in LABELS)


@pytest.mark.parametrize("name", SETS)
def test_triples_differ_only_at_the_key_sentence(name):
    for t in load_jsonl(DATA / name / "paragraph_triples.jsonl"):
        normal, missing, wrong = (t["responses"][k] for k in ("normal", "missing", "wrong"))
        assert t["query_type"] in QUERY_TYPES and t["documents"], t["id"]
        assert (t["reference"] is None) == (t["query_type"] == "open-ended"), t["id"]
        assert 150 <= len(normal.split()) <= 220, t["id"]
        assert len(missing) < len(normal) and wrong != normal, t["id"]
        # the missing variant is the normal one with words taken out, nothing added
        assert set(missing.split()) <= set(normal.split()), t["id"]
        # the wrong variant shares its opening and its end with the normal one: one place changed
        assert wrong.split()[:5] == normal.split()[:5] or wrong.split()[-5:] == normal.split()[-5:], t["id"]


def test_the_bundled_demo_input_is_the_dev_demos_field_for_field():
    """data/demo/demo_input.jsonl is data/dev/demos.jsonl in the input format (data/demo/README.md): a demo
    text edited in one file only would leave the app and the dev set telling different stories."""
    dev = {d["id"]: d for d in load_jsonl(DATA / "dev" / "demos.jsonl")}
    bundled = {d["id"]: d for d in load_jsonl(DATA / "demo" / "demo_input.jsonl")}
    assert list(bundled) == list(dev) and len(dev) == 12
    for i, record in bundled.items():
        source = dev[i]
        for key in ("query", "query_type", "reference", "responses"):
            assert record[key] == source[key], (i, key)
        assert [(d["title"], d["text"]) for d in record["documents"]] == \
            [(d["title"], d["text"]) for d in source["documents"]], i
        normal, missing, wrong = (record["responses"][k] for k in ("normal", "missing", "wrong"))
        assert 150 <= len(normal.split()) <= 220, i
        assert set(missing.split()) <= set(normal.split()) and len(missing) < len(normal), i
        assert wrong != normal and len(wrong.split()) - len(normal.split()) in range(-3, 4), i
