"""Token prices for the run summary's cost estimate.

A price table maps a model name to (input $, output $) per million tokens.
The defaults are OpenAI's published list prices for a few common models
(standard tier, checked 2025); they change, so pass your own table with
``--prices FILE.json`` / ``VITAL_PRICES`` (``{"model": [input, output]}``).
A model missing from the table has an *unknown* cost - reported as such,
never as 0.
"""
from __future__ import annotations

import json
import os
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
    if isinstance(source, dict):
        raw = source
    else:
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
            raise ValueError(f"price table: {model!r} needs [input $/1M tokens, output $/1M tokens], "
                             f"got {pair!r}") from None
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
