"""Backend settings as the app holds them — everything except the API key.

The key is deliberately not a field here: it is passed to ``build_backend``
separately, so a settings object can be shown, logged, put in a URL or saved
in results without ever carrying a secret.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

OFFLINE, OPENAI = "offline", "openai"
# Where the offline backend's quality benchmark leaves its measured figures.
OFFLINE_QUALITY_FILE = Path(__file__).resolve().parent / "offline" / "quality.json"


@dataclass(frozen=True)
class BackendSettings:
    name: str = OFFLINE
    base_url: str = ""
    model: str = ""

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


def validate(settings: BackendSettings, api_key: str) -> list[str]:
    """Problems that stop a backend from working, in words a person can act on."""
    problems = []
    if settings.name not in (OFFLINE, OPENAI):
        problems.append(f"unknown backend {settings.name!r}")
    if settings.name == OPENAI:
        if not api_key and not settings.base_url:
            problems.append("no API key: set OPENAI_API_KEY or type a key in the sidebar "
                            "(a local server given by base URL may need none)")
        if settings.base_url and not settings.base_url.startswith(("http://", "https://")):
            problems.append(f"base URL must start with http:// or https:// (got {settings.base_url!r})")
    return problems


def build_backend(settings: BackendSettings, api_key: str = ""):
    """Construct the backend; the key goes to the client and nowhere else."""
    from vital_core.backends import get_backend
    if settings.name == OFFLINE:
        return get_backend(OFFLINE)
    kwargs = {}
    if settings.base_url:
        kwargs["base_url"] = settings.base_url
    if settings.model:
        kwargs["model"] = settings.model
    if api_key:
        kwargs["api_key"] = api_key
    elif settings.base_url:
        # Local servers (vLLM, Ollama) accept any key; the client insists on one.
        kwargs["api_key"] = "not-needed"
    return get_backend(OPENAI, **kwargs)


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
