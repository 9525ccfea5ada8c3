"""``score`` on the 12 demo records against servers that behave as real ones do (each behaviour taught to
the mock provider, ``tests/support/mock_provider.py``): every server whose reply holds the answer scores exactly
like a well-behaved one, and a 4096-token server scores them all. The table in docs/openai-backend.md
names these cases."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.mock_provider import MockProvider
from tests.support.paths import REPO
from vital_core.metrics import compute_response_metrics
from vital_core.results.model import ExampleResult

DEMO = REPO / "data" / "demo" / "demo_input.jsonl"

# server -> how the mock behaves (the baseline: OpenAI-like, strict json_schema)
SERVERS = {
    "reasoning model, <think> draft before the answer": dict(reasoning="think"),
    "reasoning model, answer only in reasoning_content": dict(reasoning="reasoning_content"),
    "reasoning model, answer only in reasoning (Ollama, OpenRouter)": dict(reasoning="reasoning"),
    "llama-cpp-python: json_schema answered with 500": dict(json_schema_refusal=500),
    "old vLLM: json_schema answered with 400": dict(json_schema_refusal=400),
    "o-series: rejects max_tokens and temperature": dict(reject_params=("max_tokens", "temperature")),
    "vLLM, 4096-token window, not served": dict(context_window=4096),
    "vLLM, 4096-token window in /v1/models": dict(context_window=4096, serve_window=True),
}
ANSWER_FIELD = {"reasoning model, answer only in reasoning_content": "reasoning_content",
                "reasoning model, answer only in reasoning (Ollama, OpenRouter)": "reasoning"}
NO_SCHEMA = "this server does not accept json_schema; using json_object"
NOTES = {"llama-cpp-python: json_schema answered with 500": NO_SCHEMA,
         "old vLLM: json_schema answered with 400": NO_SCHEMA,
         "o-series: rejects max_tokens and temperature":
             "this model does not take max_tokens; using max_completion_tokens",
         "vLLM, 4096-token window, not served": "the model's context window is 4,096 tokens (the server said so in "
                                                "its context-length error)",
         "vLLM, 4096-token window in /v1/models": "the model's context window is 4,096 tokens (the server said so in "
                                                  "/models max_model_len)"}


def score(server: dict, tmp_path: Path, *extra: str) -> tuple[subprocess.CompletedProcess, list[dict], dict]:
    out = tmp_path / "results.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    env.update(PYTHONPATH=str(REPO), OPENAI_API_KEY="sk-test-key")
    with MockProvider(**server) as mock:
        done = subprocess.run([sys.executable, "-m", "vital_core", "score", str(DEMO), "--out", str(out),
                               "--base-url", mock.base_url, "--cache-dir", str(tmp_path / "cache"), "--timeout", "5",
                               "--backoff", "0.01", "--no-progress", *extra],
                              cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()] if out.exists() else []
    summary = json.loads(Path(f"{out}.summary.json").read_text(encoding="utf-8")) if lines else {}
    return done, lines, summary


def numbers(lines: list[dict]) -> dict:
    """Everything a reader compares: each response's metrics, labels, verdicts, reasons and nuggets."""
    out = {}
    for line in lines:
        example = ExampleResult.from_dict(line)
        out[example.id] = {"nuggets": [(n.text, n.importance) for n in example.nuggets or []], "error": example.error}
        for name, v in example.variants.items():
            out[example.id][name] = {
                "metrics": compute_response_metrics(v, example.nuggets), "error": v.error,
                "claims": [(s.text, s.importance, s.rank, s.verdict, s.reason) for s in v.subclaims],
                "reference": [(s.text, s.verdict) for s in v.reference_claims or []],
                "nuggets": v.nugget_assignment}
    return out


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    done, lines, summary = score({}, tmp_path_factory.mktemp("baseline"))
    assert done.returncode == 0, done.stderr
    assert summary["records_scored"] == 12 and summary["records_failed"] == 0
    assert all(not v["warnings"] for line in lines for v in line["variants"].values())
    return numbers(lines)


@pytest.mark.parametrize("name", list(SERVERS))
def test_every_server_holding_the_answer_scores_like_the_baseline(baseline, tmp_path, name):
    done, lines, summary = score(SERVERS[name], tmp_path)
    assert done.returncode == 0, done.stderr
    assert summary["records_scored"] == 12 and summary["records_failed"] == 0, done.stdout
    assert numbers(lines) == baseline
    warnings = [w for line in lines for v in line["variants"].values() for w in v["warnings"]]
    field = ANSWER_FIELD.get(name)
    if field:       # each response says where its answer was read from; the summary counts the replies
        assert all(any(w.startswith(f"answer_field: {field}") for w in v["warnings"])
                   for line in lines for v in line["variants"].values())
        assert summary["llm_usage"]["answers_from_reasoning"] == summary["llm_usage"]["calls"]
        assert "answer was read from the reasoning field" in done.stdout
    else:
        assert warnings == [] and summary["llm_usage"]["answers_from_reasoning"] == 0
    if name in NOTES:   # learnt once, reported once
        notes = summary["llm_usage"]["notes"]
        assert sum(n.startswith(NOTES[name]) for n in notes) == 1, notes
        assert done.stdout.count(NOTES[name]) == 1


def test_a_window_too_small_for_any_reply_fails_with_a_sentence_naming_the_option(tmp_path):
    done, lines, summary = score(dict(context_window=1200, serve_window=True), tmp_path)
    assert len(lines) == 12                                    # every record kept, with its error
    errors = [v["error"] for line in lines for v in line["variants"].values() if v["error"]]
    assert errors and summary["records_failed"] > 0
    assert all("--evidence-tokens" in e for e in errors), errors[:3]


def test_a_forced_response_format_the_server_refuses_fails_naming_the_option(tmp_path):
    done, lines, summary = score(dict(json_schema_refusal=500), tmp_path, "--structured-output", "json_schema")
    assert len(lines) == 12 and summary["records_failed"] == 12
    errors = [v["error"] for line in lines for v in line["variants"].values()]
    assert all("--structured-output auto" in e for e in errors), errors[:3]
    assert summary["llm_usage"]["retries"] == 0          # a refusal, not an outage: never retried
