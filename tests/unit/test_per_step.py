"""Per-step backends: decomposition and ranking offline, verification by a yes/no fact-checking model
served over the OpenAI protocol (a real HTTP server on 127.0.0.1; the real openai client talks to it)."""
from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from vital_core.backends import get_backend
from vital_core.backends.openai.yes_no import YES_NO_STEP, YesNoVerifier, parse_yes_no
from vital_core.backends.per_step import PerStepBackend
from vital_core.results.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, SUPPORTED, Document
from vital_core.scoring.pipeline import run_sync, score_example

WORD = re.compile(r"[a-z0-9]+")


class YesNoModel:
    """Answers Yes when every content word of the claim is in the document (a crude fact-checker)."""

    def __init__(self):
        self.requests: list[dict] = []

    def answer(self, body: dict) -> str:
        user = body["messages"][-1]["content"]
        document, claim = user.split("\nClaim: ", 1)
        words = {w for w in WORD.findall(claim.lower()) if len(w) > 3}
        return "Yes" if words <= set(WORD.findall(document.lower())) else "No"

    def __enter__(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                model.requests.append(body)
                reply = {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": model.answer(body)}}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11}}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def test_offline_steps_with_a_yes_no_verifier(tmp_path):
    docs = [Document(id="d1", text="The Eiffel Tower stands in Paris. Gustave Eiffel's company built it "
                                   "for the 1889 World's Fair.")]
    with YesNoModel() as model:
        verifier = YesNoVerifier(base_url=model.base_url, model="minicheck", cache_dir=str(tmp_path / "cache"))
        backend = PerStepBackend(get_backend("offline"), verify=verifier)
        result = run_sync(score_example(backend, example_id="e1", query="Where is the Eiffel Tower?",
                                        responses={"normal": "The Eiffel Tower stands in Paris. It was built "
                                                             "for the 1889 World's Fair in London."},
                                        documents=docs))
        run_sync(backend.aclose())
    claims = result.variants["normal"].subclaims
    assert claims and {c.verdict for c in claims} <= {SUPPORTED, NOT_ENOUGH_EVIDENCE}
    assert any(c.verdict == SUPPORTED for c in claims)
    assert all(c.verdict != CONTRADICTED for c in claims), "a yes/no model never says contradicted"
    assert model.requests and all(YES_NO_STEP in r["messages"][0]["content"] for r in model.requests)
    assert all("response_format" not in r for r in model.requests), "one word, not JSON"
    assert "minicheck" in result.backend["model"] and "verify: openai-yes-no" in result.backend["model"]


def test_yes_no_replies_are_read_strictly():
    assert parse_yes_no("Yes.") is True and parse_yes_no(" no") is False
    with pytest.raises(Exception):
        parse_yes_no("Maybe")


def test_only_rank_and_verify_can_be_overridden():
    with pytest.raises(ValueError, match="only rank, verify"):
        PerStepBackend(get_backend("offline"), decompose=get_backend("offline"))
