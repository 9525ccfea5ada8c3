"""What real servers' error replies say, classified in one place (``server_errors.classify``): the bodies
below are the servers' own wordings (vLLM old and new, llama.cpp, llama-cpp-python, OpenAI)."""
from __future__ import annotations

import httpx
import openai
import pytest

from tests.support.mock_faults import LLAMA_CPP_PYTHON_JSON_SCHEMA_500, OLD_VLLM_JSON_SCHEMA_400
from vital_core.backends.openai.retries import is_retryable
from vital_core.backends.openai.server_errors import ContextOverflow, Rejection, classify

SCHEMA = {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}
SENT = {"model": "m", "max_tokens": 4000, "temperature": 0.0, "response_format": SCHEMA}


def error(status: int, body: dict) -> openai.APIStatusError:
    """The exception the openai client raises for this HTTP answer."""
    request = httpx.Request("POST", "http://127.0.0.1:1/v1/chat/completions")
    response = httpx.Response(status, json=body, request=request)
    return openai.AsyncOpenAI(api_key="x", base_url="http://127.0.0.1:1/v1")._make_status_error_from_response(
        response)


def err(message: str, **extra) -> dict:
    return {"error": {"message": message, "type": "invalid_request_error", **extra}}


CONTEXT_ERRORS = [
    # new vLLM: names max_completion_tokens but is a context error, never "wants max_completion_tokens"
    (400, err("'max_tokens' or 'max_completion_tokens' is too large: 4000. This model's maximum context length is "
              "4096 tokens and your request has 2104 input tokens (4000 > 4096 - 2104)."), 4096, 2104),
    # old vLLM and llama-cpp-python's server
    (400, err("This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (1000 in the "
              "messages, 4000 in the completion). Please reduce the length of the messages or completion.",
              code="context_length_exceeded"), 4096, 1000),
    # vLLM: the prompt alone is too long
    (400, err("This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens. "
              "Please reduce the length of the input messages."), 4096, 5000),
    # llama.cpp's server, with its error fields
    (400, {"error": {"code": 400, "message": "request (4476 tokens) exceeds the available context size (4096 tokens), "
                     "try increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 4476,
                     "n_ctx": 4096}}, 4096, 4476),
    # older llama.cpp: no numbers
    (400, err("the request exceeds the available context size, try increasing it"), None, None),
    # OpenAI
    (400, err("This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 "
              "tokens. Please reduce the length of the messages.", code="context_length_exceeded"), 128000, 130000),
]


@pytest.mark.parametrize("status,body,window,prompt", CONTEXT_ERRORS)
def test_context_errors_are_context_errors_with_their_numbers(status, body, window, prompt):
    assert classify(error(status, body), SENT) == ContextOverflow(window=window, prompt_tokens=prompt)


def test_response_format_refusals_at_400_and_at_500():
    assert classify(error(400, OLD_VLLM_JSON_SCHEMA_400), SENT) == Rejection("response_format", "json_schema")
    assert classify(error(500, LLAMA_CPP_PYTHON_JSON_SCHEMA_500), SENT) == Rejection("response_format", "json_schema")
    as_object = dict(SENT, response_format={"type": "json_object"})
    assert classify(error(400, err("Invalid parameter: 'response_format' of type 'json_object' is not supported")),
                    as_object) == Rejection("response_format", "json_object")
    # a request without a response_format cannot have it refused
    assert classify(error(500, LLAMA_CPP_PYTHON_JSON_SCHEMA_500), {"model": "m"}) is None


def test_o_series_parameter_refusals():
    wants = err("Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                "'max_completion_tokens' instead.", param="max_tokens", code="unsupported_parameter")
    assert classify(error(400, wants), SENT) == Rejection("max_tokens")
    temperature = err("Unsupported value: 'temperature' does not support 0.0 with this model. Only the default (1) "
                      "value is supported.", param="temperature", code="unsupported_value")
    assert classify(error(400, temperature), SENT) == Rejection("temperature")


def test_a_generic_server_error_stays_an_outage_and_is_retried():
    outage = error(500, {"error": {"message": "The server had an error while processing your request.",
                                   "type": "server_error"}})
    assert classify(outage, SENT) is None and is_retryable(outage)
    busy = error(503, {"error": {"message": "Service Unavailable", "type": "unavailable_error"}})
    assert classify(busy, SENT) is None and is_retryable(busy)
    # a 5xx that names the response format but does not say it is refused is still an outage
    crash = error(500, {"error": {"message": "worker crashed while applying response_format", "type": "server_error"}})
    assert classify(crash, SENT) is None
