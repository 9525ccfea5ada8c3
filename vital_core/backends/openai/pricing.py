"""Token usage per step and its price, for the run summary.

A price table maps a model name to (input $, output $) per million tokens.
The defaults are OpenAI's published list prices for a few common models
(standard tier, checked 2025); they change, so pass your own table with
``--prices FILE.json`` / ``VITAL_PRICES`` (``{"model": [input, output]}``).
A model missing from the table has an *unknown* cost - reported as such,
never as 0.
"""
from __future__ import annotations

import json
import math
import os
import threading
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
}


def load_prices(source: str | os.PathLike | dict | None = None) -> dict[str, tuple[float, float]]:
    """Defaults, overridden by a dict, a JSON file path, or env ``VITAL_PRICES`` (file path or JSON)."""
    table = dict(DEFAULT_PRICES)
    if source is None:
        source = os.environ.get("VITAL_PRICES") or None
    if source is None:
        return table
    name = "price table"
    if isinstance(source, dict):
        raw = source
    else:
        name = f"price table {str(source)!r}"
        text = str(source)
        try:
            raw = json.loads(text) if text.lstrip().startswith("{") else json.loads(
                Path(text).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"price table {text!r}: {exc}") from None
    if not isinstance(raw, dict):
        raise ValueError("price table must be a JSON object {\"model\": [input, output]}")
    for model, pair in raw.items():
        try:
            inp, out = (float(x) for x in pair)
        except (TypeError, ValueError):
            raise ValueError(f"{name}: {model!r} needs [input $/1M tokens, output $/1M tokens], "
                             f"got {pair!r}") from None
        if not (math.isfinite(inp) and math.isfinite(out) and inp >= 0 and out >= 0):
            raise ValueError(f"{name}: {model!r} needs finite prices of at least 0 dollars "
                             f"(not NaN or Infinity), got {pair!r}")
        table[str(model)] = (inp, out)
    return table


def price_for(model: str, table: dict[str, tuple[float, float]]) -> tuple[float, float] | None:
    """Exact name first, then the longest table name the model starts with
    (``gpt-4o-2024-08-06`` -> ``gpt-4o``); None when unknown."""
    if model in table:
        return table[model]
    best = None
    for name in table:
        if model.startswith(name + "-") and (best is None or len(name) > len(best)):
            best = name
    return table[best] if best else None


def cost_usd(model: str, prompt_tokens: int, completion_tokens: int,
             table: dict[str, tuple[float, float]]) -> float | None:
    price = price_for(model, table)
    if price is None:
        return None
    return (prompt_tokens * price[0] + completion_tokens * price[1]) / 1_000_000


@dataclass
class StepUsage:
    calls: int = 0             # logical calls (cache hits included)
    cache_hits: int = 0
    requests: int = 0          # HTTP requests sent (retries included)
    retries: int = 0
    failures: int = 0          # calls that failed for good
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls_without_usage: int = 0  # replies whose server reported no token usage
    answers_from_reasoning: int = 0  # replies read from message.reasoning_content / reasoning (content empty)


class UsageTracker:
    """Per-step and per-run counters; thread-safe (the app scores from worker threads)."""

    def __init__(self, model: str, prices: dict[str, tuple[float, float]]):
        self.model, self.prices = model, prices
        self.steps: dict[str, StepUsage] = {}
        self.notes: list[str] = []   # what the endpoint was found to need, each said once
        self._lock = threading.Lock()

    def note(self, text: str) -> bool:
        """Record ``text`` once; True when it is new."""
        with self._lock:
            if text in self.notes:
                return False
            self.notes.append(text)
            return True

    def add(self, step: str, **counts: int) -> None:
        with self._lock:
            usage = self.steps.setdefault(step, StepUsage())
            for k, v in counts.items():
                setattr(usage, k, getattr(usage, k) + v)

    def summary(self) -> dict:
        with self._lock:
            total = StepUsage()
            for u in self.steps.values():
                for k in total.__dataclass_fields__:
                    setattr(total, k, getattr(total, k) + getattr(u, k))
            by_step = {s: dict(vars(u)) for s, u in sorted(self.steps.items())}
        cost = cost_usd(self.model, total.prompt_tokens, total.completion_tokens, self.prices)
        return {"model": self.model, **vars(total),
                "total_tokens": total.prompt_tokens + total.completion_tokens,
                "cost_usd": None if cost is None else round(cost, 6),
                "cost_note": None if cost is not None else
                f"no price for model {self.model!r}: cost unknown (add it with --prices)",
                "by_step": by_step, "notes": list(self.notes)}
