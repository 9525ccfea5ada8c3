"""Backend settings - everything except the API key - checked and built in one place.

The app's sidebar and the command line's options both describe a backend as a
``BackendSettings``; ``validate`` says what is wrong with one (in the front
end's own words, ``terms``) and ``build_backend`` constructs it.

The key is deliberately not a field here: it is passed to ``build_backend``
separately, so a settings object can be shown, logged, put in a URL or saved
in results without ever carrying a secret.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from vital_core.backends import BACKEND_NAMES, get_backend

OFFLINE, OPENAI = BACKEND_NAMES
# Where the offline backend's quality benchmark leaves its measured figures.
OFFLINE_QUALITY_FILE = Path(__file__).resolve().parent / "offline" / "quality.json"
# How a front end names the settings in ``validate``'s messages (the app's words by default).
APP_TERMS = {"base_url": "base URL", "concurrency": "concurrency", "max_attempts": "max attempts",
             "api_key": "set OPENAI_API_KEY or type a key in the sidebar"}


@dataclass(frozen=True)
class BackendSettings:
    name: str = OFFLINE
    base_url: str = ""                 # "" = OPENAI_BASE_URL, else api.openai.com
    model: str = ""                    # "" = VITAL_MODEL, else the client's default
    # Request tuning of the OpenAI-compatible backend (the app keeps these defaults).
    concurrency: int = 8
    max_attempts: int = 4
    temperature: float = 0.0
    max_tokens: int = 4000
    timeout: float = 60.0
    backoff: float = 1.0               # first retry delay in seconds, doubled each retry
    cache_dir: str = ""                # "" = VITAL_CACHE_DIR, else the default folder
    cache_size_mb: int = 1024
    use_cache: bool = True
    structured_output: str = "auto"
    prices: str = ""                   # a JSON price table file; "" = the default table

    @classmethod
    def from_env(cls, name: str = OFFLINE) -> "BackendSettings":
        return cls(name=name, base_url=os.environ.get("OPENAI_BASE_URL", ""),
                   model=os.environ.get("VITAL_MODEL", ""))

    def to_dict(self) -> dict:
        return asdict(self)

    def label(self) -> str:
        if self.name == OFFLINE:
            return "Offline (embedded, no network)"
        where = self.base_url or "api.openai.com (default)"
        return f"OpenAI-compatible · {self.model or 'default model'} @ {where}"


def env_api_key() -> str:
    """The key from the environment, or empty. Never stored by this module."""
    return os.environ.get("OPENAI_API_KEY", "")


def default_name(base_url: str | None = None) -> str:
    """openai when a base URL is given or OPENAI_BASE_URL / OPENAI_API_KEY is set, else offline."""
    if base_url or os.environ.get("OPENAI_BASE_URL") or env_api_key():
        return OPENAI
    return OFFLINE


def validate(settings: BackendSettings, api_key: str, terms: dict[str, str] = APP_TERMS) -> list[str]:
    """Problems that stop a backend from working, in words a person can act on.

    ``terms`` names the settings as the front end shows them (``APP_TERMS``,
    or the command line's option names).
    """
    problems = []
    if settings.name not in BACKEND_NAMES:
        problems.append(f"unknown backend {settings.name!r}")
    if settings.concurrency < 1:
        problems.append(f"{terms['concurrency']} must be at least 1")
    if settings.name == OPENAI:
        if settings.max_attempts < 1:
            problems.append(f"{terms['max_attempts']} must be at least 1")
        if settings.base_url and not settings.base_url.startswith(("http://", "https://")):
            problems.append(f"{terms['base_url']} must start with http:// or https:// (got {settings.base_url!r})")
        if not api_key and not settings.base_url:
            problems.append(f"no API key: {terms['api_key']} (a local server given by {terms['base_url']} "
                            f"may need none)")
    return problems


def build_backend(settings: BackendSettings, api_key: str = ""):
    """Construct the backend; the key goes to the client and nowhere else.

    Raises ValueError for settings the backend refuses (``validate`` first for
    readable messages).
    """
    if settings.name == OFFLINE:
        return get_backend(OFFLINE)
    optional = {"base_url": settings.base_url, "model": settings.model, "cache_dir": settings.cache_dir,
                "prices": settings.prices}
    # Local servers (vLLM, Ollama) accept any key; the client insists on one.
    key = api_key or ("not-needed" if settings.base_url else "")
    return get_backend(settings.name, **{k: v for k, v in optional.items() if v},
                       **({"api_key": key} if key else {}),
                       temperature=settings.temperature, max_tokens=settings.max_tokens,
                       concurrency=settings.concurrency, timeout=settings.timeout,
                       max_attempts=settings.max_attempts, backoff_initial=settings.backoff,
                       backoff_max=max(30.0, settings.backoff), cache_size_limit=settings.cache_size_mb * 2 ** 20,
                       use_cache=settings.use_cache, structured_output=settings.structured_output)


def offline_quality(path: Path = OFFLINE_QUALITY_FILE) -> dict | None:
    """The offline backend's measured quality figures, or None when not measured yet."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def describe_quality(figures: dict | None) -> str:
    """One line for the sidebar banner from the figures ``bench/bench_offline_quality.py --json``
    writes: ``importance`` {condition: {"offline", "offline_cv", "gpt-4o", ...}}, ``detection``
    {"rlp_wrong", "false_flag_missing", ...} and ``speed`` {"median", ...}."""
    if not figures:
        return "quality figures: see README"
    parts = []
    importance = figures.get("importance")
    if isinstance(importance, dict) and importance:
        kappas = []
        for condition, row in importance.items():
            if isinstance(row, dict):
                value = row.get("offline_cv", row.get("offline"))
                if isinstance(value, (int, float)):
                    kappas.append(f"{condition} {float(value):.2f}")
        if kappas:
            held_out = any(isinstance(r, dict) and "offline_cv" in r for r in importance.values())
            parts.append(f"importance κ vs people{' (held out)' if held_out else ''} " + ", ".join(kappas))
    detection = figures.get("detection")
    if isinstance(detection, dict):
        if isinstance(detection.get("rlp_wrong"), (int, float)):
            parts.append(f"wrong key answer flagged {float(detection['rlp_wrong']):.0%}")
        if isinstance(detection.get("false_flag_missing"), (int, float)):
            parts.append(f"false flags {float(detection['false_flag_missing']):.0%}")
    speed = figures.get("speed")
    if isinstance(speed, dict) and isinstance(speed.get("median"), (int, float)):
        parts.append(f"median {float(speed['median']):.2f} s per response")
    return "; ".join(parts) if parts else "quality figures: see README"
