"""One response scored for an evaluation harness (Inspect, MLflow), the way ``vital_core.evaluate`` scores.

The harness's sample becomes an input record (``inputs.parse_input_record``), ``runs.score_record``
scores it and ``api.results_frame`` computes its metrics: nothing here computes a metric, so a harness's
score equals ``vital_core.evaluate()`` on the same query, response and evidence.

One backend serves a scorer for its whole run, on an event loop of its own (a daemon thread): the
LLM backend's on-disk cache, its HTTP client and the ``concurrency`` limit are shared by every sample,
whichever thread or event loop the harness calls from.

A metric with nothing to measure stays undefined (``None``) with its reason (``why_undefined``), never 0.
"""
from __future__ import annotations

import asyncio
import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from vital_core.analysis.story import STORY_METRICS
from vital_core.backends import Backend, get_backend
from vital_core.metrics.catalog import METRICS
from vital_core.metrics.display import as_number, format_value
from vital_core.metrics.undefined import why_undefined
from vital_core.results.model import NORMAL, VITAL, ExampleResult, ResponseResult
from vital_core.safety.markdown import escape_md
from vital_core.scoring.inputs import parse_input_record

# What a scorer reports unless told otherwise: the metrics of the story (FactScore precision, then what
# notices a wrong key fact, then what notices a missing one).
DEFAULT_METRICS = STORY_METRICS
# What a response is checked against: the sample's documents, its reference answer, or both when given.
EVIDENCE_CHOICES = ("both", "documents", "reference")


def check_metrics(metrics: Iterable[str] | None) -> list[str]:
    """The chosen metric keys, each a score, flag or count of the catalog; anything else raises
    ValueError naming it."""
    keys = list(DEFAULT_METRICS if metrics is None else metrics)
    if isinstance(metrics, str):
        raise ValueError(f"metrics must be a list of metric keys, got the string {metrics!r}")
    unknown = [k for k in keys if k not in METRICS]
    if unknown or not keys:
        raise ValueError(f"unknown metric(s) {', '.join(map(repr, unknown)) or '(none given)'}; "
                         f"expected keys such as {', '.join(DEFAULT_METRICS)} (all: {', '.join(METRICS)})")
    return list(dict.fromkeys(keys))


def check_evidence(evidence: str) -> str:
    if evidence not in EVIDENCE_CHOICES:
        raise ValueError(f"evidence must be one of {', '.join(EVIDENCE_CHOICES)}, got {evidence!r}")
    return evidence


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):            # numpy scalars
        return _jsonable(value.item())
    return value


@dataclass
class ScoredResponse:
    """One harness sample's response, scored: the full result and the chosen metrics."""
    example: ExampleResult
    row: dict[str, Any]          # its row of ``vital_core.evaluate()``'s frame (every metric, NaN undefined)
    metrics: list[str]           # the chosen metric keys, in order

    @property
    def response(self) -> ResponseResult | None:
        return self.example.variants.get(NORMAL)

    @property
    def values(self) -> dict[str, float | None]:
        """The chosen metrics: a number (a flag as 1.0 / 0.0), ``None`` when undefined."""
        return {key: as_number(self.row.get(key)) for key in self.metrics}

    @property
    def reasons(self) -> dict[str, str]:
        """Why each undefined chosen metric is undefined."""
        response = self.response
        missing = [k for k, v in self.values.items() if v is None]
        if response is None:   # the whole record failed before any variant was scored
            why = f"scoring failed: {self.example.error or 'no response was scored'}"
            return {k: why for k in missing}
        return {k: why_undefined(k, response, self.example.nuggets) for k in missing}

    def reasons_text(self) -> str:
        """The reasons in one line, each once with the metrics it holds for: "reason (key, key); ..."."""
        grouped: dict[str, list[str]] = {}
        for key, reason in self.reasons.items():
            grouped.setdefault(reason, []).append(key)
        return "; ".join(f"{reason} ({', '.join(keys)})" for reason, keys in grouped.items())

    @property
    def problems(self) -> list[str]:
        """What went wrong or was lost while scoring (errors, then warnings); empty when nothing."""
        response = self.response
        out = [f"scoring failed: {self.example.error}"] if self.example.error else []
        if response is not None:
            out += [f"scoring failed: {response.error}"] if response.error else []
            out += list(response.warnings)
        return out

    def vital_claims(self) -> list:
        response = self.response
        return [] if response is None else [c for c in response.ordered_subclaims() if c.importance == VITAL]

    def summary(self, keys: Sequence[str] | None = None) -> str:
        """The metrics as one line: "VITAL precision 0.500; RLP flagged; ..." (undefined ones say so)."""
        values = self.values
        parts = [f"{METRICS[key].label} {format_value(key, values[key])}" for key in keys or self.metrics]
        return "; ".join(parts)

    def explanation(self, keys: Sequence[str] | None = None) -> str:
        """Markdown (user text escaped): the metrics, why any is undefined, the vital subclaims with their
        verdicts and reasons, the vital nuggets with their support, and anything lost while scoring."""
        keys = list(keys or self.metrics)
        reasons = self.reasons
        lines = [self.summary(keys)]    # labels and numbers only: nothing to escape
        lines += [f"- undefined {METRICS[k].label}: {escape_md(reasons[k])}" for k in keys if k in reasons]
        claims = self.vital_claims()
        response = self.response
        if response is not None and response.subclaims:
            lines.append(f"\nVital claims ({len(claims)} of {len(response.subclaims)} subclaims):")
            lines += [f"- {c.verdict.replace('_', ' ')}: {escape_md(c.text)}"
                      + (f" ({escape_md(c.reason)})" if c.reason else "") for c in claims]
        nuggets = [n for n in self.example.nuggets or [] if n.importance == VITAL]
        if nuggets and response is not None and response.nugget_assignment is not None:
            lines.append(f"\nVital nuggets ({len(nuggets)}):")
            lines += [f"- {(response.nugget_assignment.get(n.id) or 'not assigned').replace('_', ' ')}: "
                      f"{escape_md(n.text)}" for n in nuggets]
        problems = self.problems
        if problems:
            lines.append("\nProblems:")
            lines += [f"- {escape_md(p)}" for p in problems]
        return "\n".join(lines)

    def metadata(self) -> dict[str, Any]:
        """JSON-safe: the chosen metrics (``None`` undefined), the reasons, problems, every metric of the
        row and the full result (subclaims, verdicts, reasons, nuggets, evidence, backend)."""
        return {"vital": self.values, "undefined": self.reasons, "problems": self.problems,
                "metrics": {k: _jsonable(v) for k, v in self.row.items() if k in METRICS},
                "result": self.example.to_dict()}


class _LoopThread:
    """An event loop on a daemon thread: coroutines from any thread or loop run here, one after another's
    turn, so one backend (its client, its semaphore, its cache) serves them all."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="vital-scorer", daemon=True)
        self.thread.start()

    def submit(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        if not self.thread.is_alive():
            self.loop.close()


class HarnessScorer:
    """Scores one response at a time for a harness, on one backend kept for the scorer's life.

    ``backend``: "offline" (default, no key, no network), "openai" (``settings`` go to it: ``base_url``,
    ``model``, ``cache_dir`` ...; its key, unless given, from OPENAI_API_KEY) or a backend object.
    ``metrics``: metric keys (default ``DEFAULT_METRICS``). ``evidence``: what the response is checked
    against, ``"both"`` (whatever the sample has), ``"documents"`` or ``"reference"``. ``concurrency``:
    responses scored at once.
    """

    def __init__(self, backend: str | Backend = "offline", *, metrics: Iterable[str] | None = None,
                 evidence: str = "both", concurrency: int = 8, **settings: Any) -> None:
        self.metrics = check_metrics(metrics)
        self.evidence = check_evidence(evidence)
        if backend == "openai" and not settings.get("api_key"):
            from vital_core.backends.config import env_api_key
            settings = {**settings, **({"api_key": env_api_key()} if env_api_key() else {})}
        self.backend = get_backend(backend, **settings) if isinstance(backend, str) else backend
        self.concurrency = max(1, int(concurrency))
        self._lock = threading.Lock()
        self._runner: _LoopThread | None = None
        self._gate: asyncio.Semaphore | None = None

    def record(self, *, sample_id: Any, query: str, response: str, documents: Any = None,
               reference: str | None = None) -> dict:
        """The input record of one sample, keeping only the evidence ``evidence`` allows."""
        record = {"id": str(sample_id), "query": query, "responses": {NORMAL: response}}
        if self.evidence in ("both", "documents") and documents is not None:
            record["documents"] = documents
        if self.evidence in ("both", "reference") and reference:
            record["reference"] = reference
        return record

    def _start(self) -> _LoopThread:
        with self._lock:
            if self._runner is None:
                self._runner = _LoopThread()
            return self._runner

    async def _score(self, record: dict, source: str) -> ScoredResponse:
        from vital_core.api import results_frame
        from vital_core.scoring.runs import score_record
        if self._gate is None:   # created on the scorer's own loop, the only one it runs on
            self._gate = asyncio.Semaphore(self.concurrency)
        parsed = parse_input_record(record, Path(f"<{source} {record['id']}>"), 1)
        async with self._gate:
            example = await score_record(self.backend, parsed)
        frame = results_frame([example])
        rows = frame[frame["condition"] == NORMAL].to_dict(orient="records")
        row = rows[0] if rows else {key: None for key in METRICS}
        return ScoredResponse(example=example, row=row, metrics=list(self.metrics))

    def score(self, record: dict, source: str = "sample") -> ScoredResponse:
        """Score from synchronous code (any thread)."""
        return self._start().submit(self._score(record, source)).result()

    async def score_async(self, record: dict, source: str = "sample") -> ScoredResponse:
        """Score from a running asyncio loop without blocking it."""
        return await asyncio.wrap_future(self._start().submit(self._score(record, source)))

    def close(self) -> None:
        """Close the backend (its HTTP client and cache) and stop the scorer's loop; scoring again
        starts them anew."""
        with self._lock:
            runner, self._runner, self._gate = self._runner, None, None
        if runner is not None:
            runner.submit(self.backend.aclose()).result(timeout=30)
            runner.stop()
