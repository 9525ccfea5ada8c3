"""Batch runs: the requests a run still needs as an OpenAI Batch input file, and a Batch output file
(OpenAI's or vLLM's ``run_batch``) loaded into the reply cache. Sending them to the hosted Batch API
and waiting for them is ``batch_submit``.

A run with a ``BatchCollector`` on its client sends nothing: every call that misses the cache is
recorded (``custom_id`` = the cache key, so the key and the base URL never appear) and fails that
response's chain of steps, as the later steps need its answer. Importing the results fills the
cache; the next export walks one stage further; once every stage is imported, a normal run
finishes with no live call.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from vital_core.backends.openai.pricing import cost_usd
from vital_core.backends.openai.retrieval import estimate_tokens
from vital_core.files.errors import InputError, where
from vital_core.files.outputs import OutputKind, replace_output

CHAT_URL = "/v1/chat/completions"
BATCH_PRICE_FACTOR = 0.5     # the OpenAI Batch API bills half the live price
KEY_PREFIX = "reply:"        # every reply-cache key starts with it (client.cache_key)
# The custom_id of a line too damaged to parse, when it can still be read
CUSTOM_ID = re.compile(r'"custom_id"\s*:\s*"(' + re.escape(KEY_PREFIX) + r'[^"\\]+)"')


def batch_cost(model: str, prompt_tokens: int, completion_tokens: int, prices: dict) -> float | None:
    """The price of tokens sent through a batch (None when the model has no price)."""
    cost = cost_usd(model, prompt_tokens, completion_tokens, prices)
    return None if cost is None else cost * BATCH_PRICE_FACTOR


class DeferredToBatch(RuntimeError):
    """A call recorded for a batch instead of sent."""


@dataclass
class BatchCollector:
    requests: dict[str, dict] = field(default_factory=dict)    # custom_id -> request line

    def add(self, key: str, body: dict) -> None:
        self.requests.setdefault(key, {"custom_id": key, "method": "POST", "url": CHAT_URL, "body": body})

    def jsonl(self) -> Iterator[str]:
        """The Batch input file, one request a line."""
        for line in self.requests.values():
            yield json.dumps(line, ensure_ascii=False) + "\n"

    def input_tokens(self) -> int:
        return sum(estimate_tokens(m.get("content") or "") for r in self.requests.values()
                   for m in r["body"]["messages"])

    def estimate(self, model: str, prices: dict) -> str:
        """Requests, input tokens and the input's estimated cost at batch prices, in one line."""
        tokens = self.input_tokens()
        price = batch_cost(model, tokens, 0, prices)
        cost = "unknown price" if price is None else f"~${price:.4f}"
        max_out = max((r["body"].get("max_tokens") or r["body"].get("max_completion_tokens") or 0)
                      for r in self.requests.values()) if self.requests else 0
        return (f"{len(self.requests)} request(s), ~{tokens} input token(s), input cost at batch prices "
                f"{cost} for {model} (output: at most {max_out} token(s) a request, billed when it returns)")


def _is_request_file(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8") as handle:
            first = json.loads(handle.readline() or "{}")
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return isinstance(first, dict) and str(first.get("custom_id", "")).startswith(KEY_PREFIX) \
        and first.get("url") == CHAT_URL


REQUESTS = OutputKind("a batch request file", "--batch-export file", _is_request_file)


def write_requests(collector: BatchCollector, path: Path, avoid=()) -> int:
    """The Batch input file (one request a line); an existing file is replaced only when it is one, and
    never when it is one of ``avoid`` (the run's input, ``--out``, its summary)."""
    with replace_output(path, REQUESTS, avoid=avoid) as handle:
        handle.writelines(collector.jsonl())
    return len(collector.requests)


@dataclass
class ImportReport:
    imported: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)    # (custom_id or line, why)
    prompt_tokens: int = 0          # what the provider reports it billed, imported or not
    completion_tokens: int = 0

    def lines(self) -> list[str]:
        out = [f"imported {self.imported} reply(ies) into the cache"]
        out += [f"not imported: {cid}: {why}" for cid, why in self.failed[:20]]
        if len(self.failed) > 20:
            out.append(f"... and {len(self.failed) - 20} more not imported")
        return out


def _object(value) -> dict:
    """A part of a Batch output line that should be an object; anything else reads as empty."""
    return value if isinstance(value, dict) else {}


def _reply_content(record: dict) -> tuple[str | None, str]:
    """The reply text of one Batch output line, or (None, why not); a part of the wrong type is named."""
    if record.get("error"):
        return None, f"the batch reports an error: {json.dumps(record['error'])[:200]}"
    if not isinstance(record.get("response"), dict):
        return None, "\"response\" is not an object"
    response = record["response"]
    status = response.get("status_code")
    if status != 200:
        return None, f"status {status}"
    choices = _object(response.get("body")).get("choices")
    if not isinstance(choices, list) or not choices:
        return None, "the reply has no choices"
    first = _object(choices[0])
    if first.get("finish_reason") == "length":
        return None, "the reply was cut off (finish_reason=length)"
    content = _object(first.get("message")).get("content")
    return (content, "") if isinstance(content, str) else (None, "the reply has no text")


def import_results(path: Path, cache, model: str) -> ImportReport:
    """Load a Batch output file into the reply cache; every line that cannot be used is named."""
    with path.open("rb") as handle:
        return import_lines(_text_lines(handle, path), path, cache, model)


def _text_lines(handle, path: Path) -> Iterator[str]:
    """The file's lines as text; a line that is not UTF-8 is an ``InputError`` naming it."""
    for line_no, raw in enumerate(handle, start=1):
        try:
            yield raw.decode("utf-8-sig" if line_no == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{where(path, line_no)}: not UTF-8 text (byte {exc.start + 1} of the line); "
                             "give the Batch output file as it was downloaded", path, line_no) from None


def _count_usage(record: dict, report: ImportReport) -> None:
    usage = _object(_object(record.get("response")).get("body")).get("usage")
    if isinstance(usage, dict):
        for key in ("prompt_tokens", "completion_tokens"):
            if isinstance(usage.get(key), int) and not isinstance(usage.get(key), bool):
                setattr(report, key, getattr(report, key) + usage[key])


def import_lines(lines: Iterable[str], source: str | Path, cache, model: str,
                 report: ImportReport | None = None, *, strict: bool = True) -> ImportReport:
    """Load Batch output lines (a file, or a download named by ``source``) into the reply cache.

    ``strict``: a malformed line is an ``InputError`` (a file a person gave); otherwise it is counted as
    failed, by its custom_id when readable (a download: its request is sent again by the next batch).
    """
    report = report or ImportReport()
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            if strict:
                raise InputError(f"{where(source, line_no)}: malformed JSON ({exc})", source, line_no) from None
            readable = CUSTOM_ID.search(line)
            report.failed.append((readable[1] if readable else where(source, line_no), f"malformed JSON ({exc})"))
            continue
        custom_id = record.get("custom_id") if isinstance(record, dict) else None
        if not isinstance(custom_id, str) or not custom_id.startswith(KEY_PREFIX):
            report.failed.append((where(source, line_no), "no custom_id of this project's requests"))
            continue
        _count_usage(record, report)
        content, why = _reply_content(record)
        if content is None:
            report.failed.append((custom_id, why))
            continue
        cache.set(custom_id, {"content": content, "model": model})
        report.imported += 1
    return report
