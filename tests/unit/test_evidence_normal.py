"""The "normal response" evidence mode: with no documents and no reference answer, the other variants
are checked against the normal response taken as correct (vital_core.scoring.pipeline.choose_evidence)."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

import vital_core
from tests.unit.test_batch import CountingBackend
from vital_core.metrics import compute_response_metrics
from vital_core.metrics.undefined import why_undefined
from vital_core.results.model import (
    CONTRADICTED,
    EVIDENCE_DOCUMENTS,
    EVIDENCE_NONE,
    EVIDENCE_NORMAL,
    EVIDENCE_REFERENCE,
    NOT_JUDGED,
    SUPPORT,
    SUPPORTED,
    TAKEN_AS_CORRECT,
    Document,
    ExampleResult,
)
from vital_core.scoring.pipeline import choose_evidence, score_example

QUERY = "Who wrote the novel Emma?"
NORMAL = "Jane Austen wrote Emma. It was published in 1815. It is a comic novel about a matchmaker."
MISSING = "It was published in 1815. It is a comic novel about a matchmaker."
WRONG = "Charlotte Bronte wrote Emma. It was published in 1815. It is a comic novel about a matchmaker."
RESPONSES = {"normal": NORMAL, "missing": MISSING, "wrong": WRONG}


class Recording(CountingBackend):
    """Remembers what each step was given; ``fail_on`` fails decompose for a response holding that text."""

    def __init__(self, fail_on: str | None = None):
        super().__init__(fail_on)
        self.verified: list[tuple[str, str | None, list[str]]] = []
        self.nugget_sources: list[list[Document]] = []
        self.assigned: list[str] = []

    async def verify(self, query, subclaims, evidence):
        self.verified.append((evidence.mode, evidence.reference, [s.text for s in subclaims]))
        return await super().verify(query, subclaims, evidence)

    async def make_nuggets(self, query, documents):
        self.nugget_sources.append(list(documents))
        return await super().make_nuggets(query, documents)

    async def assign_nuggets(self, query, nuggets, response):
        self.assigned.append(response)
        return await super().assign_nuggets(query, nuggets, response)


def _score(backend, responses=RESPONSES, **kwargs) -> ExampleResult:
    return asyncio.run(score_example(backend, example_id="e", query=QUERY, responses=responses, **kwargs))


@pytest.mark.parametrize("documents, reference, responses, mode", [
    ([Document("D1", "text")], None, RESPONSES, EVIDENCE_DOCUMENTS),
    ([], "Jane Austen wrote Emma.", RESPONSES, EVIDENCE_REFERENCE),
    ([], "  ", RESPONSES, EVIDENCE_NORMAL),
    ([], None, RESPONSES, EVIDENCE_NORMAL),
    ([], None, {"normal": NORMAL}, EVIDENCE_NONE),                       # nothing to check against it
    ([], None, {"normal": NORMAL, "wrong": "  "}, EVIDENCE_NONE),        # an empty variant is no variant
    ([], None, {"missing": MISSING, "wrong": WRONG}, EVIDENCE_NONE),     # no normal to take as correct
])
def test_choose_evidence(documents, reference, responses, mode):
    evidence = choose_evidence(documents, reference, responses)
    assert evidence.mode == mode
    if mode == EVIDENCE_NORMAL:
        assert evidence.reference == NORMAL


def test_the_variants_are_checked_against_the_normal_as_a_reference():
    backend = Recording()
    example = _score(backend)
    assert list(example.variants) == ["normal", "missing", "wrong"]
    assert {v.evidence_mode for v in example.variants.values()} == {EVIDENCE_NORMAL}
    assert example.reference is None and example.documents == []      # nothing was invented as input
    # the backends see the normal as a reference answer; the normal's own claims are never verified
    own_checks = [(mode, ref) for mode, ref, texts in backend.verified if ref == NORMAL]
    assert own_checks and {mode for mode, _ in own_checks} == {EVIDENCE_REFERENCE}
    assert not any(texts == ["Jane Austen wrote Emma.", "It was published in 1815.",
                             "It is a comic novel about a matchmaker."] and ref == NORMAL
                   for _, ref, texts in backend.verified), "the normal was checked against itself"
    # the nuggets come from the normal response; the normal is not assigned, the others are
    assert [[d.text for d in docs] for docs in backend.nugget_sources] == [[NORMAL]]
    assert sorted(backend.assigned) == sorted([MISSING, WRONG])


def test_the_normal_is_taken_as_correct_and_says_so():
    example = _score(Recording())
    normal = example.variants["normal"]
    assert normal.subclaims and all(s.verdict == SUPPORTED and s.reason == TAKEN_AS_CORRECT
                                    for s in normal.subclaims)
    assert set(normal.nugget_assignment.values()) == {SUPPORT}
    assert [c.text for c in normal.reference_claims] == [s.text for s in normal.subclaims]
    # the other variants get the normal's claims as the reference claims, judged against them afresh
    wrong = example.variants["wrong"]
    assert [c.id for c in wrong.reference_claims] == ["R1", "R2", "R3"]
    assert wrong.reference_claims[0].reason != TAKEN_AS_CORRECT
    values = compute_response_metrics(wrong, example.nuggets)
    assert values["fc_precision"] is not None and values["fc_recall"] is not None   # as in reference mode


def test_a_failed_normal_is_named_by_the_variants_that_needed_it():
    example = _score(Recording(fail_on="Jane Austen"))
    assert "endpoint exploded" in example.variants["normal"].error
    assert "the normal response, which this variant is checked against, failed" in example.variants["wrong"].error
    assert why_undefined("vital_precision", example.variants["wrong"], example.nuggets).startswith("scoring failed")


def test_a_lone_normal_is_not_taken_as_correct():
    example = _score(Recording(), responses={"normal": NORMAL})
    normal = example.variants["normal"]
    assert normal.evidence_mode == EVIDENCE_NONE and example.nuggets is None
    assert not any(s.reason == TAKEN_AS_CORRECT for s in normal.subclaims)


def test_a_too_long_normal_is_no_reference():
    example = _score(Recording(), max_words=12)     # the normal has 16 words, the others fewer
    assert example.variants["normal"].error.startswith("TooLong")
    assert example.variants["wrong"].evidence_mode == EVIDENCE_NONE


# ----------------------------------------------------------------- the offline backend, end to end

def test_evaluate_tells_the_story_against_the_normal_offline():
    frame = vital_core.evaluate([{"id": "emma", "query": QUERY, "responses": RESPONSES}]).set_index("condition")
    assert set(frame["evidence_mode"]) == {EVIDENCE_NORMAL}
    normal, missing, wrong = (frame.loc[v] for v in ("normal", "missing", "wrong"))
    assert normal["factscore_precision"] == 1.0 and normal["nugget_recall"] == 1.0    # taken as correct
    # the missing variant says nothing the normal does not: none of its claims is contradicted
    assert missing["n_contradicted"] == 0 and missing["factscore_precision"] == 1.0
    # the wrong one swaps the key answer: a claim is contradicted and the key (vital) claim is not supported
    assert wrong["n_contradicted"] >= 1 and wrong["rlp"] == 1.0
    assert missing["nugget_recall"] < 1.0


def test_score_command_records_the_mode(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "emma", "query": QUERY, "responses": RESPONSES}) + "\n")
    out = tmp_path / "out.jsonl"
    done = subprocess.run([sys.executable, "-m", "vital_core", "score", str(source), "--out", str(out),
                           "--backend", "offline"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text().splitlines()[0])
    assert {v["evidence_mode"] for v in record["variants"].values()} == {EVIDENCE_NORMAL}
    assert record["reference"] is None and record["nuggets"]
    wrong = record["variants"]["wrong"]["subclaims"]
    assert any(s["verdict"] == CONTRADICTED for s in wrong)
    assert all(s["verdict"] != NOT_JUDGED for s in wrong)


def test_report_and_export_say_which_examples_were_checked_against_the_normal_response():
    from vital_core.analysis.report import build_report, render_text
    from vital_core.results.dataset import dataset_from_examples
    from vital_core.results.export import export_table
    against_normal = _score(Recording())
    with_documents = _score(Recording(), documents=[Document("D1", "Jane Austen wrote Emma in 1815.")])
    with_documents.id = "e2"
    dataset = dataset_from_examples([against_normal, with_documents])
    assert build_report(dataset)["examples_against_normal"] == 1
    assert "checked against the normal response: 1 example(s)" in render_text(dataset)
    modes = dict(zip(zip(dataset.frame["example_id"], dataset.frame["condition"]), dataset.frame["evidence_mode"]))
    assert modes[("e", "normal")] == EVIDENCE_NORMAL and modes[("e2", "wrong")] == EVIDENCE_DOCUMENTS
    assert set(export_table(dataset, "strict")["evidence_mode"]) == {EVIDENCE_NORMAL, EVIDENCE_DOCUMENTS}
