"""The offline backend end to end: the pipeline, nuggets, perturbation, no network, determinism."""
from __future__ import annotations

import socket

import pytest

from vital_core.backends import get_backend
from vital_core.backends.offline import OfflineBackend
from vital_core.backends.offline.language import embedder
from vital_core.backends.offline.perturb import PerturbationError
from vital_core.results.model import ASSIGNMENTS, CONTRADICTED, NUGGET_IMPORTANCE, SUPPORTED, VITAL, Document
from vital_core.scoring.pipeline import run_sync, score_example

QUERY = "In a paragraph, could you answer: who wrote hamlet"
NORMAL = ("Hamlet was written by William Shakespeare around 1600. The play is set in Denmark and "
          "follows Prince Hamlet. It is one of the most performed plays in the world.")
WRONG = NORMAL.replace("William Shakespeare", "Christopher Marlowe")
DOCS = [Document(id="D1", text="Hamlet is a tragedy written by William Shakespeare between 1599 and 1601."),
        Document(id="D2", text="The play is set in Denmark. Prince Hamlet seeks revenge on his uncle Claudius."),
        Document(id="D3", text="Hamlet is Shakespeare's longest play.")]


def score(backend=None):
    backend = backend or OfflineBackend()
    return run_sync(score_example(backend, example_id="q1", query=QUERY,
                                  responses={"normal": NORMAL, "wrong": WRONG}, documents=DOCS))


def test_info_names_the_backend():
    info = OfflineBackend(model="ignored", base_url="ignored").info
    assert (info.name, info.model, info.prompt_version) == ("offline", "minilm-int8 + rules", "offline-1")
    assert "no network" in info.description
    assert isinstance(get_backend("offline"), OfflineBackend)


def test_embeddings_are_sane():
    v = embedder.embed(["The cat sat on the mat.", "A cat was sitting on the mat.", "Stock prices fell sharply."])
    assert abs(float((v[0] ** 2).sum()) - 1) < 1e-4
    assert float(v[0] @ v[1]) > 0.8 > 0.3 > float(v[0] @ v[2])


def test_pipeline_scores_and_flags_the_wrong_author_with_sockets_blocked(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the offline backend tried to open a network connection")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(embedder, "_EMBEDDER", None)   # load the model again, under the block
    example = score()
    normal, wrong = example.variants["normal"], example.variants["wrong"]
    assert normal.error is None and wrong.error is None
    assert example.backend["name"] == "offline"
    first = [s for s in normal.subclaims if s.sentence_index == 0]
    assert first and first[0].importance == VITAL and first[0].verdict == SUPPORTED
    marlowe = [s for s in wrong.subclaims if "Marlowe" in s.text]
    assert marlowe and marlowe[0].importance == VITAL and marlowe[0].verdict == CONTRADICTED
    assert "name mismatch" in marlowe[0].reason and "Shakespeare" in marlowe[0].evidence
    # nuggets from the documents, assigned to each response
    assert example.nuggets and len(example.nuggets) <= 30
    assert [n.id for n in example.nuggets] == [f"N{i}" for i in range(len(example.nuggets))]
    assert all(n.importance in NUGGET_IMPORTANCE for n in example.nuggets)
    assert set(normal.nugget_assignment) == {n.id for n in example.nuggets}
    assert set(normal.nugget_assignment.values()) <= set(ASSIGNMENTS)
    assert "support" in normal.nugget_assignment.values()


def test_output_is_deterministic():
    a, b = score(), score()
    assert a.to_dict() == b.to_dict()


def test_reference_only_evidence_and_no_evidence():
    backend = OfflineBackend()
    example = run_sync(score_example(backend, example_id="q", query=QUERY, responses={"wrong": WRONG},
                                     reference=NORMAL))
    wrong = example.variants["wrong"]
    assert wrong.evidence_mode == "reference"
    assert any(s.verdict == CONTRADICTED for s in wrong.subclaims)
    assert wrong.reference_claims and all(r.verdict for r in wrong.reference_claims)
    example = run_sync(score_example(backend, example_id="q", query=QUERY, responses={"normal": NORMAL}))
    assert all("no world knowledge" in s.reason for s in example.variants["normal"].subclaims)
    assert example.nuggets is None


def test_perturbations():
    backend = OfflineBackend()
    missing = run_sync(backend.perturb(QUERY, NORMAL, "missing"))
    assert "Shakespeare" not in missing and "Denmark" in missing or "performed" in missing
    wrong = run_sync(backend.perturb(QUERY, NORMAL, "wrong"))
    assert wrong != NORMAL and "William Shakespeare" not in wrong
    assert wrong == run_sync(backend.perturb(QUERY, NORMAL, "wrong"))
    dated = run_sync(backend.perturb("when did the titanic sink", "The Titanic sank in 1912. It hit an iceberg.",
                                     "wrong"))
    assert "1912" not in dated and "Titanic" in dated
    with pytest.raises(PerturbationError):
        run_sync(backend.perturb(QUERY, "Shakespeare wrote it.", "missing"))
    with pytest.raises(ValueError):
        run_sync(backend.perturb(QUERY, NORMAL, "sideways"))


def test_a_sentence_opening_word_is_not_swapped_as_a_name():
    from vital_core.backends.offline import perturb as perturbation
    response = ("Leaves change colour in autumn because chlorophyll breaks down. "
                "The botanist Anna Whitlock described this in 1952.")
    wrong = perturbation.perturb("who described why leaves change colour", response, "wrong")
    assert wrong.startswith("Leaves change colour in autumn"), wrong
    assert "Anna Whitlock" not in wrong
    # the guard itself: only a word capitalised inside a sentence is taken for a name
    assert not perturbation._capitalised_inside_sentence("Leaves", response)
    assert perturbation._capitalised_inside_sentence("Whitlock", response)
    assert not perturbation._capitalised_inside_sentence("Maples", "Oaks fall. Maples turn red; maples grow.")


def test_offline_variants_go_through_the_shared_check(monkeypatch):
    from vital_core.backends.offline import perturb as perturbation
    from vital_core.scoring.perturbation import PerturbationCheckError
    monkeypatch.setattr(perturbation, "make_wrong", lambda query, response: response)   # unchanged: invalid
    with pytest.raises(PerturbationCheckError):
        perturbation.perturb(QUERY, NORMAL, "wrong")


def test_a_vital_claim_left_undecided_carries_the_paraphrase_hint():
    from vital_core.backends.base import Evidence
    from vital_core.backends.offline.verify import PARAPHRASE_HINT
    from vital_core.results.model import LESS_IMPORTANT, NOT_ENOUGH_EVIDENCE, Subclaim
    claims = [Subclaim(id="c1", text="The ship capsized in a gust of wind.", importance=VITAL),
              Subclaim(id="c2", text="The ship capsized in a gust of wind.", importance=LESS_IMPORTANT),
              Subclaim(id="c3", text="The Vasa sank in 1628.", importance=VITAL)]
    evidence = Evidence(mode="documents", documents=[Document(id="d", text="The Vasa sank in 1628 in Stockholm. "
                                                                         "Its guns were salvaged later.")])
    verdicts = OfflineBackend._verify(claims, evidence)
    assert verdicts[0].verdict == NOT_ENOUGH_EVIDENCE and verdicts[0].reason.endswith(PARAPHRASE_HINT)
    assert verdicts[1].verdict == NOT_ENOUGH_EVIDENCE and PARAPHRASE_HINT not in verdicts[1].reason
    assert verdicts[2].verdict == SUPPORTED and PARAPHRASE_HINT not in verdicts[2].reason
