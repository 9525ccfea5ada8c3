"""Reply parsing, prompt definitions, retrieval and prices of the LLM backend (no network)."""
from __future__ import annotations

import json

import pytest

from vital_core.backends.openai import prompts
from vital_core.backends.openai.parsing import (
    parse_assignments,
    parse_decomposition,
    parse_modified_response,
    parse_nugget_labels,
    parse_nugget_texts,
    parse_ranking,
    parse_verdicts,
)
from vital_core.backends.openai.pricing import DEFAULT_PRICES, cost_usd, load_prices, price_for
from vital_core.backends.openai.reply_json import ReplyParseError, extract_json
from vital_core.backends.openai.retrieval import BM25, chunk_documents, estimate_tokens, select_passages
from vital_core.backends.sentences import split_sentences
from vital_core.results.model import Document, InvalidLabelError, normalise_importance, normalise_verdict

# ---------------------------------------------------------------- extract_json

@pytest.mark.parametrize("reply", [
    '{"a": [1, 2]}',
    'Here you go:\n```json\n{"a": [1, 2]}\n```\nAnything else?',
    'Sure. {"a": [1, 2]} Hope this helps.',
    '{"a": [1, 2,],}',                       # trailing commas
    '```\n{"a": [1, 2]}\n```',
])
def test_extract_json_finds_the_object(reply):
    assert extract_json(reply) == {"a": [1, 2]}


def test_extract_json_respects_braces_inside_strings():
    assert extract_json('note {"t": "a } tricky { one", "n": 1} end') == {"t": "a } tricky { one", "n": 1}


@pytest.mark.parametrize("reply", ["", "   ", "no json here", '{"a": [1, 2'])
def test_extract_json_raises_on_unreadable_replies(reply):
    with pytest.raises(ReplyParseError):
        extract_json(reply)


# ---------------------------------------------------------------- rank

IDS = ["S1", "S2", "S3"]


def test_ranking_from_json_in_order():
    r = parse_ranking('{"ranking": [{"id": "S2", "label": "vital"}, {"id": "S1", "label": "okay"},'
                      ' {"id": "S3", "label": "less important"}]}', IDS)
    assert r.problems == []
    assert r.order == ["S2", "S1", "S3"]
    assert r.labels == {"S2": "vital", "S1": "okay", "S3": "less-important"}


def test_ranking_from_plain_text_lines():
    reply = ('Ranked Claims:\n[S3] Paris is the capital: "vital"\n'
             '[S1] The tower is well-known: "okay"\n[S2] It rains a lot - less-important\n')
    r = parse_ranking(reply, IDS)
    assert r.problems == []
    assert r.order == ["S3", "S1", "S2"]
    assert r.labels["S2"] == "less-important"


def test_ranking_violations_are_all_reported():
    reply = ('{"ranking": [{"id": "S1", "label": "vital"}, {"id": "S1", "label": "okay"},'
             ' {"id": "S9", "label": "okay"}, {"id": "S2", "label": "so-so"}]}')
    r = parse_ranking(reply, IDS)
    text = " | ".join(r.problems)
    assert "S1 appears more than once" in text
    assert "S9 is not one of the claim ids" in text
    assert "'so-so'" in text
    assert "missing: S3" in text
    assert r.labels == {"S1": "vital"}          # what parsed is kept, first occurrence wins


def test_ranking_with_nothing_usable_raises():
    with pytest.raises(ReplyParseError):
        parse_ranking("I cannot rank these claims.", IDS)


# ---------------------------------------------------------------- other steps

def test_verdicts_accept_aliases_and_flag_bad_values():
    obj = {"verdicts": [{"id": "S1", "verdict": "SUPPORTED", "reason": "  yes  ", "evidence": "q"},
                        {"id": "S2", "verdict": "neutral", "reason": "", "evidence": ""},
                        {"id": "S3", "verdict": "maybe", "reason": "", "evidence": ""}]}
    r = parse_verdicts(obj, IDS)
    assert r.values["S1"] == {"verdict": "supported", "reason": "yes", "evidence": "q"}
    assert r.values["S2"]["verdict"] == "not_enough_evidence"
    assert "S3" not in r.values and any("'maybe'" in p for p in r.problems)


@pytest.mark.parametrize("word", ["entailment", "entailed", "Supports"])
def test_one_verdict_vocabulary_for_files_and_replies(word):
    """Files (strict) and model replies (lenient) accept the same spellings."""
    assert normalise_verdict(word) == normalise_verdict(word, lenient=True) == "supported"
    assert normalise_verdict("unverifiable") == normalise_verdict("nei", lenient=True) == "not_enough_evidence"


def test_lenient_labels_never_raise_and_never_pass_a_non_answer():
    # null and "not judged" are no verifier's answer; true/false are read as FActScore reads them
    for value in (None, "none", "not_judged", "maybe"):
        assert normalise_verdict(value, lenient=True) is None
    assert normalise_verdict("true", lenient=True) == normalise_verdict(True, lenient=True) == "supported"
    assert normalise_verdict("False", lenient=True) == "not_enough_evidence"
    assert normalise_verdict(None) == "not_judged" and normalise_verdict("false") == "not_enough_evidence"
    with pytest.raises(InvalidLabelError, match="x.jsonl line 3"):
        normalise_verdict("maybe", where="x.jsonl line 3")
    assert normalise_importance("Less Important", lenient=True) == "less-important"
    assert normalise_importance("unlabelled", lenient=True) is None
    assert normalise_importance(None) == "unlabelled"


def test_decomposition_maps_numbers_and_flags_foreign_ones():
    obj = {"sentences": [{"sentence": 1, "claims": ["A is B.", "A is B.", " C  is D. "]},
                         {"sentence": 7, "claims": ["X."]}]}
    r = parse_decomposition(obj, [1, 2])
    assert r.values == {1: ["A is B.", "C is D."]}
    assert r.problems and "sentence 7" in r.problems[0]
    assert r.missing == [2]                     # left out: asked for again, alone


def test_assignments_labels_nuggets_and_perturbation():
    a = parse_assignments({"assignments": [{"id": "N0", "assignment": "partially supported"},
                                           {"id": "N1", "assignment": "supported"}]}, ["N0", "N1"])
    assert a.values == {"N0": "partial_support", "N1": "support"} and not a.problems
    lab = parse_nugget_labels({"labels": [{"id": "N0", "importance": "vital"}]}, ["N0", "N1"])
    assert lab.values == {"N0": "vital"} and "missing: N1" in lab.problems[0]
    assert parse_nugget_texts({"nuggets": ["A b.", "a B.", {"text": "C d."}]}) == ["A b.", "C d."]
    assert parse_modified_response({"modified_response": " new text "}) == "new text"
    with pytest.raises(ReplyParseError):
        parse_modified_response({"something": 1})


# ---------------------------------------------------------------- prompts

def _strict(schema: dict) -> bool:
    if schema.get("type") == "object":
        props = schema["properties"]
        return (schema.get("additionalProperties") is False and sorted(schema["required"]) == sorted(props)
                and all(_strict(p) for p in props.values()))
    if schema.get("type") == "array":
        return _strict(schema["items"])
    return True


ALL_PROMPTS = [prompts.DECOMPOSE_PROMPT, prompts.RANK_PROMPT, prompts.VERIFY_PROMPT, prompts.NUGGETS_CREATE_PROMPT,
               prompts.NUGGETS_LABEL_PROMPT, prompts.ASSIGN_PROMPT, *prompts.PERTURB_PROMPTS.values()]


@pytest.mark.parametrize("prompt", ALL_PROMPTS, ids=lambda p: f"{p.step}-{p.version}")
def test_every_prompt_is_marked_versioned_and_strict(prompt):
    system = prompt.system()
    assert prompts.step_of(system) == prompt.step
    assert system.startswith(prompt.marker)
    assert _strict(prompt.schema), "strict structured output needs every property required"
    rf = prompt.response_format()
    assert rf["type"] == "json_schema" and rf["json_schema"]["name"] == f"vital_{prompt.step}"
    # The example reply shown to text-only endpoints parses with the step's own parser shape.
    assert isinstance(extract_json(str(system.split("example:\n", 1)[1]).strip()), dict)


def test_rank_prompt_states_the_method():
    text = prompts.RANK_PROMPT.instructions.lower()
    for phrase in ("vital", "okay", "less-important", "exactly once", "never about truth"):
        assert phrase in text


def test_followup_states_each_problem():
    msg = prompts.violation_followup(["these claims are missing: S4", "S2 appears more than once"])
    assert "S4" in msg and "S2 appears more than once" in msg


# ---------------------------------------------------------------- retrieval, sentences, prices

def test_chunking_and_budgeted_retrieval_keep_the_relevant_passage():
    filler = " ".join(f"word{i}" for i in range(900))
    docs = [Document("D1", filler + " The capital of Australia is Canberra. " + filler),
            Document("D2", "Short unrelated document about cheese.")]
    passages = chunk_documents(docs, chunk_words=100, overlap_words=20)
    assert len(passages) > 10 and {p.source for p in passages} == {"D1", "D2"}
    chosen = select_passages(passages, "capital of Australia Canberra", budget_tokens=300, index=BM25(passages))
    assert sum(p.tokens for p in chosen) <= 300
    assert any("Canberra" in p.text for p in chosen)
    everything = select_passages(passages[:2], "anything", budget_tokens=10_000)
    assert everything == passages[:2]
    assert estimate_tokens("abcd" * 10) == 10


def test_sentence_split_keeps_abbreviations_and_paragraphs():
    text = "Mr. Smith went to Washington, D.C. on Monday. He met people.\n\n- A list item\n- Another one"
    assert split_sentences(text) == ["Mr. Smith went to Washington, D.C. on Monday.", "He met people.",
                                     "A list item", "Another one"]   # list markers dropped


def test_prices_known_prefixed_and_unknown_models(tmp_path):
    table = load_prices(None)
    assert table["gpt-4o"] == DEFAULT_PRICES["gpt-4o"]
    assert price_for("gpt-4o-mini-2024-07-18", table) == DEFAULT_PRICES["gpt-4o-mini"]
    assert cost_usd("gpt-4o", 1_000_000, 1_000_000, table) == pytest.approx(12.5)
    assert cost_usd("llama-3-8b", 10, 10, table) is None           # unknown, not 0
    f = tmp_path / "prices.json"
    f.write_text('{"llama-3-8b": [0.1, 0.2]}')
    assert cost_usd("llama-3-8b", 1_000_000, 0, load_prices(str(f))) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="llama"):
        load_prices({"llama": ["x"]})


# ---------------------------------------------------------------- a small local model's words and shapes

@pytest.mark.parametrize("word,label", [("Vital", "vital"), ("HIGH", "vital"), ("essential", "vital"),
                                        ("medium", "okay"), ("OK", "okay"), ("low", "less-important"),
                                        ("less important", "less-important"), ("Less_Important", "less-important"),
                                        ("important", "vital")])
def test_importance_synonyms_are_read(word, label):
    r = parse_ranking(json.dumps({"ranking": [{"id": i, "label": word} for i in IDS]}), IDS)
    assert r.problems == [] and set(r.labels.values()) == {label}
    # "important" only roughly means vital: read, and noted for a warning on the response
    assert bool(r.notes) == (word == "important")


@pytest.mark.parametrize("word,verdict,rough", [("Entailed", "supported", False), ("true", "supported", False),
                                                ("refuted", "contradicted", False),
                                                ("Not Enough Evidence", "not_enough_evidence", False),
                                                ("partially supported", "not_enough_evidence", True),
                                                ("false", "not_enough_evidence", True)])
def test_verdict_synonyms_are_read_and_rough_ones_noted(word, verdict, rough):
    r = parse_verdicts({"verdicts": [{"id": "S1", "verdict": word, "reason": "r", "evidence": ""}]}, ["S1"])
    assert r.values["S1"]["verdict"] == verdict and r.problems == []
    assert [n.startswith("S1:") and repr(word) in n for n in r.notes] == ([True] if rough else [])


def test_nugget_label_and_assignment_synonyms():
    lab = parse_nugget_labels({"labels": [{"id": "N0", "importance": "High"}, {"id": "N1", "label": "OK"}]},
                              ["N0", "N1"])
    assert lab.values == {"N0": "vital", "N1": "okay"} and not lab.problems
    a = parse_assignments({"assignments": [{"id": "N0", "assignment": "Partial Support"},
                                           {"id": "N1", "assignment": "fully supported"}]}, ["N0", "N1"])
    assert a.values == {"N0": "partial_support", "N1": "support"} and not a.problems


def test_claims_as_objects_are_read_and_unreadable_ones_are_violations():
    obj = {"sentences": [{"sentence": 1, "claims": [{"claim": "A is B."}, {"text": "C is D."},
                                                    {"subclaim": "E is F."}]},
                         {"sentence": 2, "claims": [{"weight": 3}]},
                         {"sentence": 3, "claims": []}]}
    r = parse_decomposition(obj, [1, 2, 3, 4])
    assert r.values[1] == ["A is B.", "C is D.", "E is F."]
    assert r.values[3] == []                 # the model said: no claim in sentence 3
    assert any("sentence 2: claim 1" in p for p in r.problems)   # never an empty claim list in silence
    assert r.missing == [2, 4]               # sentence 2's claims could not be read: not "no claims"


def test_nuggets_as_objects_and_an_unreadable_nugget_raises():
    assert parse_nugget_texts({"nuggets": [{"nugget": "A b."}, {"text": "C d."}, "E f."]}) == ["A b.", "C d.", "E f."]
    assert parse_nugget_texts({"nuggets": []}) == []        # the model said there are none
    with pytest.raises(ReplyParseError, match="nugget 2"):
        parse_nugget_texts({"nuggets": ["A b.", {"weight": 1}]})


def test_verdict_ids_left_out_are_missing_not_violations():
    r = parse_verdicts({"verdicts": [{"id": "S1", "verdict": "supported", "reason": "", "evidence": ""}]}, IDS)
    assert r.missing == ["S2", "S3"] and r.problems == []


def test_id_keyed_answers_are_read_as_entries():
    r = parse_ranking('{"ranking": {"S1": "Vital", "S2": "low", "S3": "medium"}}', IDS)
    assert r.labels == {"S1": "vital", "S2": "less-important", "S3": "okay"} and not r.problems
    v = parse_verdicts({"S1": {"verdict": "entailed", "reason": "r"}, "S2": "refuted", "S3": "neutral"}, IDS)
    assert [v.values[i]["verdict"] for i in IDS] == ["supported", "contradicted", "not_enough_evidence"]
    with pytest.raises(ReplyParseError):       # a mapping that is not id-keyed is no list of answers
        parse_verdicts({"verdicts": {"first": "supported"}}, IDS)
