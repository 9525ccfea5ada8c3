"""``score --batch-submit``: send the requests a run needs to the hosted Files + Batches endpoints,
wait for each batch, import its output into the reply cache, and go on stage by stage.

One stage is one batch: the pipeline is run with a ``BatchCollector`` (``batch.py``), the requests it
asked for are uploaded (``files.create(purpose="batch")``) and submitted (``batches.create``), the
batch is polled until it ends, and its output and error files are imported with ``batch.import_lines``.
The next collection walks one step further, as the cache now holds those replies.

Resumable: the submitted batch is recorded in ``<out>.batch.json`` (its id, stage, input file id and
creation time - never the key or the endpoint) before the first poll, so a run stopped by Ctrl-C or a
crash picks the same batch up again instead of paying for it twice. The file is removed once the
batch's output is imported; a lost connection while waiting or downloading keeps it, so a rerun resumes.
``batches.create`` is never retried by the client: a retry after a timeout could pay for a second batch.
A damaged line in a downloaded output file is counted as a failed request (sent again by the next batch).
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from vital_core.backends.openai.batch import CHAT_URL, BatchCollector, ImportReport, batch_cost, import_lines
from vital_core.files.errors import InputError
from vital_core.files.outputs import OutputKind, remove_own, replace_output

STATE_FORMAT = "vital-explorer-batch-state/1"
COMPLETION_WINDOW = "24h"            # the only window the Batch API offers
FAILED_ENDS = ("failed", "expired", "cancelled")
ENDS = ("completed",) + FAILED_ENDS  # the rest (validating, in_progress, finalizing, cancelling) are waited on
FILE_TIMEOUT = 600.0                 # seconds for one upload or download: batch files can be large


class BatchFailed(RuntimeError):
    """A batch that did not complete, or a Files / Batches call that was refused (one sentence)."""


class BatchConflict(ValueError):
    """``--batch-id`` names another batch than the one the state file records as pending (one sentence)."""


def _is_state(path: Path) -> bool:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("format") == STATE_FORMAT
    except (OSError, ValueError, AttributeError, UnicodeDecodeError):
        return False


STATE = OutputKind("a batch state file", "--out", _is_state)


def state_path(out: Path) -> Path:
    return out.with_name(out.name + ".batch.json")


@dataclass
class PendingBatch:
    """What ``<out>.batch.json`` holds: enough to retrieve the batch again, nothing secret."""
    batch_id: str
    stage: int
    input_file_id: str
    created_at: str

    def save(self, path: Path) -> None:
        with replace_output(path, STATE) as handle:
            json.dump({"format": STATE_FORMAT, **asdict(self)}, handle, indent=1)

    @classmethod
    def load(cls, path: Path) -> "PendingBatch | None":
        """The pending batch of an earlier run; a file that is not one is refused, never overwritten."""
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != STATE_FORMAT or not isinstance(data.get("batch_id"), str):
                raise ValueError
            return cls(data["batch_id"], int(data.get("stage") or 1), str(data.get("input_file_id") or ""),
                       str(data.get("created_at") or ""))
        except (ValueError, TypeError, AttributeError, UnicodeDecodeError):
            raise InputError(f"{path}: exists and is not this project's batch state file; move it away "
                             "(nothing was changed)", path) from None


def http_errors() -> tuple[type[Exception], ...]:
    """The base HTTP error of each httpx the openai client may stream with (some builds ship ``httpx2``)."""
    import importlib
    found = []
    for name in ("httpx", "httpx2"):
        try:
            found.append(importlib.import_module(name).HTTPError)
        except (ImportError, AttributeError):
            continue
    return tuple(found)


def _iso(epoch: int | None) -> str:
    return datetime.fromtimestamp(epoch or time.time(), timezone.utc).isoformat(timespec="seconds")


def describe_end(batch, imported: int) -> str:
    """One sentence for a batch that ended without completing: id, status, the provider's errors, and
    how many replies were really imported (``imported``, not the provider's count of completed ones)."""
    errors = [f"{e.code or 'error'}: {e.message or ''}".strip() + (f" (line {e.line})" if e.line else "")
              for e in ((batch.errors.data or []) if batch.errors else [])]
    counts = batch.request_counts
    done = (f"; {imported} of {counts.total if counts else '?'} request(s) completed and were imported"
            if imported else "")
    why = f" ({'; '.join(errors[:5])})" if errors else ""
    return (f"batch {batch.id} ended {batch.status}{why}{done}; run the same command again to submit "
            "a new batch for what is missing")


@dataclass
class Submitter:
    """Talks to the Files + Batches endpoints for one run: submit, wait, import."""
    client: Any                        # openai.OpenAI
    cache: Callable[[], Any]           # the reply cache, opened on use (each collection closes it)
    model: str
    state: Path                        # <out>.batch.json
    poll_seconds: float
    say: Callable[[str], None]
    redact: Callable[[str], str] = field(default=lambda text: text)
    file_timeout: float = FILE_TIMEOUT
    sleep: Callable[[float], None] = time.sleep
    prices: dict = field(default_factory=dict)
    used: ImportReport = field(default_factory=ImportReport)   # every batch of this run, added up
    batches: int = 0

    @classmethod
    def for_client(cls, llm, state: Path, poll_seconds: float, say: Callable[[str], None],
                   redact: Callable[[str], str] | None = None) -> "Submitter":
        """A submitter for the endpoint, key, model and cache of ``llm`` (the backend's ``LLMClient``)."""
        import openai
        s = llm.settings
        client = openai.OpenAI(api_key=s.api_key or "not-needed", base_url=s.base_url or None,
                               timeout=s.timeout, max_retries=max(0, s.max_attempts - 1))
        return cls(client, lambda: llm.cache, s.model, state, poll_seconds, say, redact or (lambda text: text),
                   max(FILE_TIMEOUT, s.timeout), prices=llm.prices)

    def call(self, what: str, fn, *args, kept: str | None = None, **kwargs):
        """A Files / Batches call; a refusal or a lost connection becomes one sentence naming ``what``.

        ``kept``: the id of the batch the state file still records, so the sentence says a rerun resumes it.
        A raw ``httpx`` error (a download cut off while streaming) is caught as well as the client's own.
        """
        import openai
        try:
            return fn(*args, **kwargs)
        except openai.APIStatusError as exc:
            why = f"the endpoint answered {exc.status_code} ({exc.message})"
        except openai.APIError as exc:
            why = f"{type(exc).__name__}: {exc.message}"
        except http_errors() as exc:
            why = f"{type(exc).__name__}: {exc or 'no detail'}"
        resume = (f"; batch {kept} is still recorded in {self.state} and will be picked up when you run the "
                  "same command again" if kept else "")
        raise BatchFailed(self.redact(f"{what}: {why}{resume}")) from None

    def submit(self, collector: BatchCollector, stage: int) -> PendingBatch:
        """Upload the requests, create the batch and record it before anything else can go wrong."""
        data = "".join(collector.jsonl()).encode("utf-8")
        upload = self.call("uploading the batch input file", self.client.files.create,
                           file=(f"vital-explorer-stage-{stage}.jsonl", data, "application/jsonl"),
                           purpose="batch", timeout=self.file_timeout)
        # never retried by the client: a create that timed out may have created the batch, and a retry
        # would pay for it twice
        try:
            batch = self.call("creating the batch", self.client.with_options(max_retries=0).batches.create,
                              input_file_id=upload.id, endpoint=CHAT_URL, completion_window=COMPLETION_WINDOW,
                              metadata={"made_by": "vital-explorer", "stage": str(stage)})
        except BatchFailed as exc:
            raise BatchFailed(f"{exc}; if the provider created it anyway, its batch list shows it (input file "
                              f"{upload.id}): pass its id with --batch-id instead of submitting again") from None
        pending = PendingBatch(batch.id, stage, upload.id, _iso(batch.created_at))
        pending.save(self.state)
        self.say(f"submitted batch {batch.id} (stage {stage}); recorded in {self.state}")
        return pending

    def wait(self, pending: PendingBatch):
        """Poll the batch until it ends, one progress line whenever its status or counts change."""
        shown = None
        while True:
            batch = self.call(f"retrieving batch {pending.batch_id}", self.client.batches.retrieve,
                              pending.batch_id, kept=pending.batch_id)
            counts = batch.request_counts
            line = (f"batch {batch.id} (stage {pending.stage}): {batch.status}, "
                    + (f"{counts.completed}/{counts.total} completed, {counts.failed} failed" if counts
                       else "no request counts yet"))
            if line != shown:
                self.say(line)
                shown = line
            if batch.status in ENDS:
                return batch
            self.sleep(self.poll_seconds)

    def import_outputs(self, batch) -> ImportReport:
        """Download the output and error files (either may be absent) into the reply cache."""
        report = ImportReport()
        for file_id in (batch.output_file_id, batch.error_file_id):
            if file_id:
                source = f"batch {batch.id} file {file_id}"
                self.call(f"downloading {source}", self._import_file, file_id, source, report, kept=batch.id)
        for line in report.lines():
            self.say(line)
        self.batches += 1
        self.used.imported += report.imported
        self.used.prompt_tokens += report.prompt_tokens
        self.used.completion_tokens += report.completion_tokens
        return report

    def _import_file(self, file_id: str, source: str, report: ImportReport) -> None:
        # streamed line by line: an output file can be far larger than memory needs to be; a damaged
        # line is counted as failed (strict=False), or it would stop every rerun at the same place
        with self.client.files.with_streaming_response.content(file_id, timeout=self.file_timeout) as response:
            import_lines(response.iter_lines(), source, self.cache(), self.model, report, strict=False)

    def usage(self) -> dict | None:
        """What this run's batches used, from their output lines, priced at batch prices (None: no batch)."""
        if not self.batches:
            return None
        cost = batch_cost(self.model, self.used.prompt_tokens, self.used.completion_tokens, self.prices)
        return {"batches": self.batches, "replies": self.used.imported, "prompt_tokens": self.used.prompt_tokens,
                "completion_tokens": self.used.completion_tokens,
                "cost_usd": None if cost is None else round(cost, 6),
                "cost_note": None if cost is not None else f"no price for model {self.model!r}: cost unknown"}

    def resume(self, batch_id: str | None) -> PendingBatch | None:
        """The batch to pick up: ``--batch-id`` when given, else the one recorded by an earlier run."""
        recorded = PendingBatch.load(self.state)
        if batch_id and recorded is not None and recorded.batch_id != batch_id:
            raise BatchConflict(f"--batch-id {batch_id}: {self.state} records another pending batch, "
                                f"{recorded.batch_id} (stage {recorded.stage}), not imported yet; run without "
                                "--batch-id to pick that one up, or move the file away to take this one")
        if batch_id and recorded is None:
            batch = self.call(f"retrieving batch {batch_id}", self.client.batches.retrieve, batch_id)
            recorded = PendingBatch(batch.id, 1, batch.input_file_id, _iso(batch.created_at))
            recorded.save(self.state)
        if recorded is not None:
            self.say(f"picking up batch {recorded.batch_id} (stage {recorded.stage}, submitted "
                     f"{recorded.created_at}) instead of submitting it again")
        return recorded


def submit_until_done(collect: Callable[[], BatchCollector], sub: Submitter, estimate: Callable[[BatchCollector], str],
                      batch_id: str | None = None) -> list[str]:
    """Batch after batch until the run needs no request; returns the custom ids that got no usable reply.

    A request already sent in this run and asked for again got no usable reply (a failed line, or a
    reply the parser refused); it is not sent again, or a run could loop for ever.
    """
    pending = sub.resume(batch_id)
    stage = pending.stage if pending else 0
    sent: set[str] = set()
    while True:
        if pending is None:
            collector = collect()
            stuck = [cid for cid in collector.requests if cid in sent]
            for cid in stuck:
                del collector.requests[cid]
            if not collector.requests:
                return stuck
            stage += 1
            sub.say(f"stage {stage}: {estimate(collector)}")
            pending = sub.submit(collector, stage)
            sent.update(collector.requests)
        batch = sub.wait(pending)
        report = sub.import_outputs(batch)
        remove_own(sub.state, STATE)   # imported: nothing left to pick up
        if batch.status in FAILED_ENDS:
            raise BatchFailed(describe_end(batch, report.imported))
        pending = None


def stuck_message(stuck: list[str]) -> str:
    shown = ", ".join(stuck[:5]) + (f" and {len(stuck) - 5} more" if len(stuck) > 5 else "")
    return (f"{len(stuck)} request(s) got no usable reply from the batch ({shown}; why is named above); "
            "no results were written: run the same command again to send them in a new batch, or without "
            "--batch-submit to send them live")
