"""The OpenAI-compatible backend's steps against the mock provider (real openai client, real HTTP)."""
from __future__ import annotations

import asyncio
import json

import pytest

from tests.support.mock_provider import MockProvider
from tests.support.mock_samples import sample_answers, sample_records
from vital_core.backends import get_backend
from vital_core.backends.base import Evidence
from vital_core.backends.openai import prompts
from vital_core.backends.openai.backend import LLMValidationError, OpenAICompatBackend, public_host
from vital_core.backends.openai.retrieval import estimate_tokens
from vital_core.results.model import CONTRADICTED, NOT_JUDGED, SUPPORTED, UNLABELLED, Document, Nugget, Subclaim
from vital_core.scoring.perturbation import PerturbationCheckError
from vital_core.scoring.pipeline import score_example

KEY = "sk-test-DO-NOT-LEAK-1234"
QUERY = "Of which tribe was Geronimo a leader?"


@pytest.fixture
def mock():
    with MockProvider(answers=sample_answers()) as m:
        yield m


def backend(mock, tmp_path, **kw) -> OpenAICompatBackend:
    settings = dict(base_url=mock.base_url, api_key=KEY, model="gpt-4o-mini", cache_dir=tmp_path / "cache",
                    timeout=2.0, backoff_initial=0.01, backoff_max=0.05)
    settings.update(kw)
    return OpenAICompatBackend(**settings)


def run(coro_fn):
    return asyncio.run(coro_fn)


def claims(n: int) -> list[Subclaim]:
    return [Subclaim(id=f"S{i}", text=f"Geronimo fact number {i}.") for i in range(1, n + 1)]


def test_get_backend_builds_it_and_info_hides_secrets(mock, tmp_path):
    b = get_backend("openai", base_url="https://user:pw@example.org:8443/v1?key=abc", api_key=KEY,
                    model="gpt-4o", cache_dir=tmp_path)
    assert isinstance(b, OpenAICompatBackend)
    info = b.info
    assert info.to_dict() == {"name": "openai", "model": "gpt-4o", "prompt_version": prompts.PROMPT_SET_VERSION,
                              "method": {"claims_per_call": 15, "evidence_tokens": 3000}}
    assert "pw" not in info.description and "abc" not in info.description and "example.org:8443" in info.description
    assert public_host(None) == "api.openai.com"


def test_settings_fall_back_to_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("VITAL_MODEL", "env-model")
    b = OpenAICompatBackend(cache_dir=tmp_path)
    assert (b.settings.base_url, b.settings.model, b.settings.api_key) == ("http://127.0.0.1:9/v1", "env-model", KEY)
    assert OpenAICompatBackend(model="arg-model", cache_dir=tmp_path).settings.model == "arg-model"


def test_decompose_one_call_groups_claims_by_sentence(mock, tmp_path):
    text = "Geronimo led the Apache; he was a medicine man. He was born in 1829, and he died in 1909. Bye now."
    sentences = run(backend(mock, tmp_path).decompose(QUERY, text))
    assert mock.count(prompts.DECOMPOSE) == 1
    assert [s.text for s in sentences] == ["Geronimo led the Apache; he was a medicine man.",
                                          "He was born in 1829, and he died in 1909.", "Bye now."]
    assert sentences[0].claims == ["Geronimo led the Apache.", "He was a medicine man."]
    assert sentences[1].claims == ["He was born in 1829.", "He died in 1909."]
    # The whole response goes along as context, so pronouns can be resolved.
    assert text in mock.requests[0].body["messages"][1]["content"]


def test_long_response_is_decomposed_in_sentence_windows(mock, tmp_path):
    text = " ".join(f"Fact number {i} is true." for i in range(1, 8))
    sentences = run(backend(mock, tmp_path, decompose_window=3).decompose(QUERY, text))
    assert mock.count(prompts.DECOMPOSE) == 3
    assert [s.claims for s in sentences] == [[f"Fact number {i} is true."] for i in range(1, 8)]


@pytest.mark.parametrize("fault", ["missing_ids", "duplicate_ids", "unknown_label"])
def test_rank_violation_is_stated_and_fixed(mock, tmp_path, fault):
    mock.inject(fault, step=prompts.RANK)
    ranking = run(backend(mock, tmp_path).rank(QUERY, claims(4)))
    assert mock.count(prompts.RANK) == 2
    assert set(ranking.labels) == {"S1", "S2", "S3", "S4"} and UNLABELLED not in ranking.labels.values()
    assert sorted(ranking.order) == ["S1", "S2", "S3", "S4"] and ranking.warnings == []
    followup = mock.requests[-1].body["messages"]
    assert [m["role"] for m in followup] == ["system", "user", "assistant", "user"]
    assert "broke the rules" in followup[-1]["content"]


def test_rank_after_three_failures_marks_unlabelled_visibly(mock, tmp_path):
    mock.inject("unknown_label", times=3, step=prompts.RANK)
    subclaims = [Subclaim(id="S1", text="Geronimo was a leader of the Apache."),
                 Subclaim(id="S2", text="Geronimo was born in 1829."), Subclaim(id="S3", text="It rained.")]
    ranking = run(backend(mock, tmp_path).rank(QUERY, subclaims))
    assert mock.count(prompts.RANK) == 3
    spoiled = [i for i, label in ranking.labels.items() if label == UNLABELLED]
    assert len(spoiled) == 1                       # the one with the unknown label; not less-important
    assert ranking.order[-1] == spoiled[0]
    assert ranking.warnings and spoiled[0] in ranking.warnings[0] and "unlabelled" in ranking.warnings[0]


def test_rank_orders_vital_first_even_if_the_model_does_not(mock, tmp_path):
    from vital_core.backends.openai.parsing import ParsedRanking
    parsed = ParsedRanking(labels={"S1": "okay", "S2": "vital", "S3": "less-important", "S4": "vital"},
                           order=["S3", "S1", "S2", "S4"])
    assert OpenAICompatBackend._tier_order(parsed, ["S1", "S2", "S3", "S4"]) == ["S2", "S4", "S1", "S3"]


def test_verify_uses_windows_of_at_most_15(mock, tmp_path):
    docs = [Document("D1", "Geronimo fact number 3. Geronimo fact number 20.")]
    verdicts = run(backend(mock, tmp_path).verify(QUERY, claims(22), Evidence("documents", docs)))
    assert mock.count(prompts.VERIFY) == 2
    sizes = [r.body["messages"][1]["content"].count("\n[S") for r in mock.requests]
    assert max(sizes) <= 15 and sum(sizes) == 22
    assert len(verdicts) == 22
    assert verdicts[2].verdict == SUPPORTED and verdicts[19].verdict == SUPPORTED
    assert verdicts[2].evidence and verdicts[2].reason
    assert verdicts[0].verdict != SUPPORTED


def test_verify_keeps_long_documents_within_the_token_budget(mock, tmp_path):
    filler = " ".join(f"filler{i}" for i in range(6000))
    docs = [Document("D1", filler), Document("D2", f"{filler} Geronimo was a leader of the Apache. {filler}")]
    sub = [Subclaim(id="S1", text="Geronimo was a leader of the Apache.")]
    verdicts = run(backend(mock, tmp_path, evidence_token_budget=800).verify(QUERY, sub, Evidence("documents", docs)))
    user = mock.requests[0].body["messages"][1]["content"]
    passages = user.split("<passage")[1:]
    assert sum(estimate_tokens(p) for p in passages) <= 800 + 40 * len(passages)
    assert "Geronimo was a leader of the Apache" in user
    assert verdicts[0].verdict == SUPPORTED


def test_verify_reference_and_none_modes(mock, tmp_path):
    b = backend(mock, tmp_path)
    sub = [Subclaim(id="S1", text="Geronimo was a leader of the Sioux.")]
    ref = run(b.verify(QUERY, sub, Evidence("reference", reference="Geronimo was a leader of the Apache.")))
    assert "the reference text" in mock.requests[-1].body["messages"][1]["content"]
    assert ref[0].verdict == CONTRADICTED
    none = run(b.verify(QUERY, sub, Evidence("none")))
    assert prompts.NO_SOURCE_NOTE in mock.requests[-1].body["messages"][1]["content"]
    assert "<passage" not in mock.requests[-1].body["messages"][1]["content"]
    assert none[0].verdict in (SUPPORTED, CONTRADICTED, "not_enough_evidence")


def test_verify_marks_ids_never_answered_as_not_judged(mock, tmp_path):
    mock.inject("missing_ids", times=2, step=prompts.VERIFY)
    verdicts = run(backend(mock, tmp_path).verify(QUERY, claims(3), Evidence("none")))
    # the reply leaves S3 out; one more call asks for S3 alone, and leaves it out again
    assert mock.count(prompts.VERIFY) == 2
    assert "[S3]" in mock.requests[1].body["messages"][1]["content"]
    assert "[S1]" not in mock.requests[1].body["messages"][1]["content"]
    lost = [v for v in verdicts if v.verdict == NOT_JUDGED]
    assert len(lost) == 1 and "no valid verdict" in lost[0].reason
    assert lost[0].warnings and lost[0].warnings[0].startswith("verification: S3: no valid verdict")
    assert not verdicts[0].warnings


def test_verify_asks_again_for_a_left_out_id_and_keeps_the_answer(mock, tmp_path):
    mock.inject("missing_ids", times=1, step=prompts.VERIFY)
    verdicts = run(backend(mock, tmp_path).verify(QUERY, claims(3), Evidence("none")))
    assert mock.count(prompts.VERIFY) == 2
    assert NOT_JUDGED not in [v.verdict for v in verdicts] and not any(v.warnings for v in verdicts)


def test_nuggets_windows_of_ten_documents_capped_at_30(mock, tmp_path):
    docs = [Document(f"D{i}", f"Geronimo fact {i} alpha. Geronimo fact {i} beta. Tribe note {i}.")
            for i in range(25)]
    nuggets = run(backend(mock, tmp_path).make_nuggets(QUERY, docs))
    assert mock.count(prompts.NUGGETS_CREATE) == 3 and mock.count(prompts.NUGGETS_LABEL) == 1
    assert len(nuggets) == 30
    assert [n.id for n in nuggets] == [f"N{i}" for i in range(30)]
    assert {n.importance for n in nuggets} <= {"vital", "okay"} and any(n.importance == "vital" for n in nuggets)
    # The list found so far is passed on to the next window.
    assert "[N0] Geronimo fact 0 alpha." in mock.requests[1].body["messages"][1]["content"]


def test_assign_nuggets_in_windows(mock, tmp_path):
    nuggets = [Nugget(f"N{i}", f"Item{i} happened.", "okay") for i in range(20)]
    out = run(backend(mock, tmp_path, assign_window=10).assign_nuggets(QUERY, nuggets, "Item3 happened. Other."))
    assert mock.count(prompts.ASSIGN) == 2
    assert list(out) == [f"N{i}" for i in range(20)]
    assert out["N3"] == "support" and out["N5"] == "not_support"


def test_assignment_that_stays_invalid_raises(mock, tmp_path):
    mock.inject("missing_ids", times=3, step=prompts.ASSIGN)
    with pytest.raises(LLMValidationError):
        run(backend(mock, tmp_path).assign_nuggets(QUERY, [Nugget("N0", "a.", "okay"), Nugget("N1", "b.", "okay")],
                                                   "a."))


def test_perturb_missing_and_wrong_pass_their_checks(mock, tmp_path):
    normal = sample_records(1)[0]["responses"]["normal"]
    b = backend(mock, tmp_path)
    missing = run(b.perturb(QUERY, normal, "missing"))
    wrong = run(b.perturb(QUERY, normal, "wrong"))
    assert len(missing) < len(normal) and "Apache" not in missing
    assert "Apache" not in wrong and "Zanzibar" in wrong
    assert "v=missing-1" in mock.requests[0].body["messages"][0]["content"]


def test_perturb_retries_a_failed_check_then_reports_it(mock, tmp_path):
    normal = sample_records(1)[0]["responses"]["normal"]
    mock.inject("bad_perturbation", times=1)
    assert "Zanzibar" in run(backend(mock, tmp_path).perturb(QUERY, normal, "wrong"))
    assert "failed its check" in mock.requests[1].body["messages"][-1]["content"]
    mock.inject("bad_perturbation", times=2)
    with pytest.raises(PerturbationCheckError, match="does not differ"):
        run(backend(mock, tmp_path, use_cache=False).perturb(QUERY, normal, "wrong"))


def test_full_example_through_the_pipeline_keeps_no_key(mock, tmp_path):
    rec = sample_records(1)[0]
    rec["reference"] = "Geronimo is associated with Apache."
    b = backend(mock, tmp_path)
    example = run(score_example(b, example_id=rec["id"], query=rec["query"], responses=rec["responses"],
                                documents=[Document(f"D{i}", t) for i, t in enumerate(rec["documents"])],
                                reference=rec["reference"]))
    assert set(example.variants) == {"normal", "missing", "wrong"}
    assert all(v.error is None for v in example.variants.values())
    normal = example.variants["normal"]
    assert normal.subclaims[0].importance == "vital" and normal.subclaims[0].verdict == SUPPORTED
    assert normal.reference_claims and normal.reference_claims[0].verdict == SUPPORTED
    assert example.variants["wrong"].subclaims[0].verdict == CONTRADICTED
    assert example.nuggets and normal.nugget_assignment
    assert KEY not in json.dumps(example.to_dict())
    usage = b.usage_summary()
    assert usage["calls"] == mock.count() and usage["failures"] == 0


def test_one_backend_scores_from_two_threads_at_once(mock, tmp_path):
    """The app may score from several sessions' threads, each with its own event loop."""
    import threading

    from vital_core.scoring.pipeline import run_sync
    b = backend(mock, tmp_path, use_cache=False)
    mock.latency = 0.05
    results, errors = [], []

    def work(text):
        try:
            results.append(run_sync(b.decompose(QUERY, text)))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(f"Geronimo fact {i}. Another fact {i}.",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors and len(results) == 4 and mock.count(prompts.DECOMPOSE) == 4


# ---------------------------------------------------------------- claims per call, evidence, context window

def test_claims_per_call_one_is_factscores_one_fact_per_call(mock, tmp_path):
    b = backend(mock, tmp_path, verify_window=1)
    verdicts = run(b.verify(QUERY, claims(4), Evidence("none")))
    assert mock.count(prompts.VERIFY) == 4 and len(verdicts) == 4
    assert all(r.body["messages"][1]["content"].count("\n[S") == 1 for r in mock.requests)
    assert b.info.to_dict()["method"]["claims_per_call"] == 1


def _fits(request, window: int) -> bool:
    body = request.body
    prompt = sum(estimate_tokens(m["content"]) for m in body["messages"])
    n = body["messages"][1]["content"].count("\n[S")
    return prompt + min(4000, 60 + 110 * n) <= window


def test_a_verification_that_does_not_fit_the_window_is_split_not_failed(mock, tmp_path, monkeypatch):
    filler = " ".join(f"filler{i}" for i in range(3000))
    docs = [Document("D1", f"{filler} Geronimo fact number 3. {filler}")]
    b = backend(mock, tmp_path)
    monkeypatch.setattr(b, "_context_window", lambda: 2000)
    verdicts = run(b.verify(QUERY, claims(15), Evidence("documents", docs)))
    assert len(verdicts) == 15 and NOT_JUDGED not in [v.verdict for v in verdicts]
    assert mock.count(prompts.VERIFY) > 1                       # fewer claims per call
    assert all(_fits(r, 2000) for r in mock.requests)           # each call within the window
    assert all("<passage" in r.body["messages"][1]["content"] for r in mock.requests)   # still with evidence
    assert verdicts[2].verdict == SUPPORTED


def test_when_nothing_fits_the_error_names_the_options_to_change(mock, tmp_path, monkeypatch):
    b = backend(mock, tmp_path)
    monkeypatch.setattr(b, "_context_window", lambda: 400)
    with pytest.raises(ValueError, match="--max-tokens.*--context-window"):
        run(b.verify(QUERY, claims(3), Evidence("documents", [Document("D1", "Geronimo fact number 3.")])))
    assert mock.count(prompts.VERIFY) == 0


def test_the_window_is_read_from_the_client_when_it_knows_it(mock, tmp_path):
    from types import SimpleNamespace
    b = backend(mock, tmp_path)
    real = b.client
    for known, seen in ((3000, 3000), (None, None), (0, None), ("4096", None)):
        b.client = SimpleNamespace(context_window=known)    # a client that was told or learnt it, or not
        assert b._context_window() == seen
    b.client = real


def test_a_window_learnt_from_a_failed_call_is_fitted_and_asked_again(mock, tmp_path, monkeypatch):
    b = backend(mock, tmp_path, max_attempts=1)
    # the client knows no window until a call fails (a server's context error teaches it)
    monkeypatch.setattr(b, "_context_window", lambda: 2000 if mock.count(prompts.VERIFY) else None)
    mock.inject("server_error", times=1, step=prompts.VERIFY)
    verdicts = run(b.verify(QUERY, claims(15), Evidence("none")))
    assert NOT_JUDGED not in [v.verdict for v in verdicts]
    assert all(_fits(r, 2000) for r in mock.requests[1:]) and mock.count(prompts.VERIFY) > 2


def test_nuggets_fit_a_known_window(mock, tmp_path, monkeypatch):
    filler = " ".join(f"word{i}" for i in range(4000))
    docs = [Document("D1", f"Geronimo led the Apache. {filler}")]
    b = backend(mock, tmp_path)
    monkeypatch.setattr(b, "_context_window", lambda: 2500)
    run(b.make_nuggets(QUERY, docs))
    first = mock.requests[0].body["messages"]
    assert sum(estimate_tokens(m["content"]) for m in first) + min(4000, 60 + 20 * 30) <= 2500
    monkeypatch.setattr(b, "_context_window", lambda: 500)
    with pytest.raises(ValueError, match="--max-tokens"):
        run(b.make_nuggets(QUERY, docs))


class LeavesOutSentences(MockProvider):
    """Leaves sentence 2 out of a request for three sentences or more, and the sentences in ``always`` out always."""
    always: tuple = (3,)

    def _answer(self, step, system, user, fault):
        reply = super()._answer(step, system, user, fault)
        if step == prompts.DECOMPOSE:
            items = reply["sentences"]
            reply["sentences"] = [i for i in items if i["sentence"] not in self.always
                                  and not (i["sentence"] == 2 and len(items) > 2)]
        return reply


def test_decompose_asks_again_for_left_out_sentences_and_names_the_lost_ones(tmp_path):
    text = "Geronimo was an Apache leader. He was born in 1829. He surrendered in 1886."
    with LeavesOutSentences() as mock:
        sentences = run(backend(mock, tmp_path).decompose(QUERY, text))
        assert mock.count(prompts.DECOMPOSE) == 2
        follow_up = mock.requests[1].body["messages"][1]["content"].split(prompts.SENTENCES_HEADER)[1]
        assert "[2]" in follow_up and "[3]" in follow_up and "[1]" not in follow_up
    assert [bool(s.claims) for s in sentences] == [True, True, False]       # 2 recovered, 3 lost
    warnings = [w for s in sentences for w in s.warnings]
    assert len(warnings) == 1 and "left out 1 of 3 sentence(s)" in warnings[0] and "sentence 3" in warnings[0]
    # the pipeline puts it on the response
    with LeavesOutSentences() as mock:
        ex = run(score_example(backend(mock, tmp_path / "b"), example_id="x", query=QUERY,
                               responses={"normal": text}))
    assert any("sentence 3" in w for w in ex.variants["normal"].warnings)


def test_a_decomposition_that_loses_every_sentence_fails_with_its_reason(tmp_path):
    with LeavesOutSentences() as mock:
        mock.always = (1, 2, 3)
        with pytest.raises(LLMValidationError, match="left out every sentence"):
            run(backend(mock, tmp_path).decompose(QUERY, "A is one. B is two. C is three."))
