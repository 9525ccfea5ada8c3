"""The summary of a run, written next to its output (``RESULTS.jsonl.summary.json``): records scored /
skipped / failed (a record is either scored or failed, never both), the failures, the records whose
responses carry warnings, elapsed time and the backend's LLM usage; never an API key. It carries
``SUMMARY_FORMAT``: a file with its name is replaced only when it has that tag (or an earlier version's
keys), so a file of the user's is never overwritten."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from vital_core.files.errors import InputError
from vital_core.files.outputs import OutputKind, has_marker, replace_output

SUMMARY_SUFFIX = ".summary.json"
SUMMARY_FORMAT = "vital-explorer-run-summary/1"
# Summaries written before the tag: keys no input, results or label record has
_UNTAGGED_SUMMARY = {"output", "records_total", "records_scored", "records_failed", "failures", "elapsed_s"}


def summary_path(out_path: str | Path) -> Path:
    out_path = Path(out_path)
    return out_path.with_name(out_path.name + SUMMARY_SUFFIX)


_HAS_SUMMARY_TAG = has_marker(SUMMARY_FORMAT.encode(), 4096)   # "format" is the first key written


def _is_summary(path: Path) -> bool:
    if _HAS_SUMMARY_TAG(path):
        return True
    try:       # an earlier version's summary: recognised by its keys (read whole, within reason)
        if path.stat().st_size > 64 * 2 ** 20:
            return False
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and (data.get("format") == SUMMARY_FORMAT or _UNTAGGED_SUMMARY <= data.keys())


SUMMARY = OutputKind("a run summary", "--out", _is_summary)


def write_summary_file(path: Path, payload: dict) -> None:
    with replace_output(path, SUMMARY) as fh:
        fh.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


@dataclass
class BatchResult:
    output: str
    total: int
    skipped: int = 0
    scored: int = 0
    failed: int = 0
    failures: list[dict] = field(default_factory=list)   # {"id", "error"} of this run's failed records
    warned: list[dict] = field(default_factory=list)     # {"id", "warnings"} of this run's records with warnings
    elapsed_s: float = 0.0
    interrupted: bool = False
    backend: dict = field(default_factory=dict)
    usage: dict | None = None
    started: str = ""
    finished: str = ""
    verb: str = "scored"       # what happened to a record, for the printed summary
    batch_usage: dict | None = None   # what the run's hosted batches used (score --batch-submit)

    @property
    def summary_path(self) -> Path:
        return summary_path(self.output)

    def to_dict(self) -> dict:
        return {"format": SUMMARY_FORMAT, "output": self.output, "records_total": self.total,
                "records_skipped": self.skipped, "records_scored": self.scored, "records_failed": self.failed,
                "failures": self.failures, "records_with_warnings": len(self.warned),
                "warnings": sum(len(w["warnings"]) for w in self.warned), "warned": self.warned,
                "elapsed_s": round(self.elapsed_s, 3),
                "interrupted": self.interrupted, "backend": self.backend, "llm_usage": self.usage,
                "started": self.started, "finished": self.finished,
                **({"batch_usage": self.batch_usage} if self.batch_usage else {})}

    def lines(self) -> list[str]:
        """The run summary as printed at the end of ``score``."""
        out = [f"records: {self.scored} {self.verb}, {self.skipped} already done, {self.failed} failed "
               f"(of {self.total}) in {self.elapsed_s:.1f} s -> {self.output}"]
        if self.interrupted:
            out.append("interrupted: finished records are saved; run the same command again to resume")
        if self.warned:
            out.append(f"warnings: {len(self.warned)} record(s) carry "
                       f"{sum(len(w['warnings']) for w in self.warned)} warning(s): a model's reply lost something "
                       "and the scores say so (see each response's \"warnings\" and report)")
            for w in self.warned[:5]:
                out.append(f"warning {w['id']}: {w['warnings'][0]}"
                           + (f" (+{len(w['warnings']) - 1} more)" if len(w["warnings"]) > 1 else ""))
        u = self.usage
        if u:
            cost = f"${u['cost_usd']:.4f}" if u.get("cost_usd") is not None else "unknown"
            out.append(f"LLM: {u['calls']} calls ({u['cache_hits']} from cache), {u['requests']} requests, "
                       f"{u['retries']} retries, {u['failures']} failed calls; tokens {u['prompt_tokens']} in + "
                       f"{u['completion_tokens']} out; cost {cost}"
                       + (f" ({u['cost_note']})" if u.get("cost_note") else ""))
            if u.get("answers_from_reasoning"):
                out.append(f"warning: {u['answers_from_reasoning']} repl(ies) had an empty message.content; their "
                           "answer was read from the reasoning field (each response says so in its warnings)")
            out.extend(f"endpoint: {note}" for note in u.get("notes") or ())
        b = self.batch_usage
        if b:
            cost = f"~${b['cost_usd']:.4f}" if b.get("cost_usd") is not None else "unknown"
            out.append(f"batch: {b['batches']} batch(es), {b['replies']} reply(ies) imported; tokens "
                       f"{b['prompt_tokens']} in + {b['completion_tokens']} out; estimated cost {cost} at batch "
                       "prices" + (f" ({b['cost_note']})" if b.get("cost_note") else ""))
        for f in self.failures[:10]:
            out.append(f"failed {f['id']}: {f['error']}")
        if len(self.failures) > 10:
            out.append(f"... and {len(self.failures) - 10} more failures (see {self.summary_path.name})")
        return out


def save_summary(result: BatchResult, out_path: Path, started: float, usage: Callable[[], dict] | None,
                   redact: Callable[[str], str] | None, quiet: bool = False) -> None:
    """Save the run summary; ``quiet`` (another error is on its way up) lets a failure to write it pass."""
    result.elapsed_s = time.monotonic() - started
    result.finished = datetime.now(timezone.utc).isoformat(timespec="seconds")
    result.usage = usage() if usage is not None else None
    text = json.dumps(result.to_dict(), ensure_ascii=False)
    try:
        write_summary_file(summary_path(out_path), json.loads(redact(text) if redact else text))
    except (OSError, InputError):
        if not quiet:
            raise
