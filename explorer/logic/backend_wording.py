"""The app's words for the scoring backend: how the sidebar names the settings in the core's problem
messages, and what it says the offline backend's measured quality means.

The core (``vital_core.backends.config``) checks settings and reads the measured figures; the words a
person reads in the sidebar live here, beside the command line's own (``vital_core.cli.backend_options``).
"""
from __future__ import annotations

from vital_core.backends.config import STEP_KEY_ENV
from vital_core.scoring.steps import RANK, VERIFY

# How the sidebar names the main backend's settings in ``config.validate``'s messages.
APP_TERMS = {"base_url": "base URL", "concurrency": "concurrency", "max_attempts": "max attempts",
             "api_key": "set OPENAI_API_KEY or type a key in the sidebar"}
# How the sidebar names a step's settings in ``config.validate_step``'s messages.
APP_STEP_TERMS = {step: {"step": word, "name": f"{word.capitalize()} backend", "base_url": f"{word} base URL",
                         "model": f"{word} model", "mode": "the yes/no mode",
                         "api_key": f"set {STEP_KEY_ENV[step]} or OPENAI_API_KEY"}
                  for step, word in ((RANK, "ranking"), (VERIFY, "verification"))}
# The sidebar expander under the offline backend's box that holds ``describe_quality``'s figures.
MEASURED_FIGURES = "Measured figures"
# What ``describe_quality`` says when the benchmark has written no figures.
NOT_MEASURED = "not measured yet (run `python -m bench.bench_offline_quality --json`; see the README)"


def plain_quality(figures: dict | None) -> str:
    """What to expect of the offline backend, in one plain sentence for the sidebar (the figures of
    ``describe_quality`` one click away): its share right on unseen text as "about N in 10"."""
    verifier = (figures or {}).get("verifier")
    accuracy = verifier.get("accuracy_unseen") if isinstance(verifier, dict) else None
    if not isinstance(accuracy, (int, float)):
        return "Offline checks: good on the demos, not measured on text it has not seen; use an LLM endpoint " \
               "for your own data."
    return (f"Offline checks: good on the demos, about {round(float(accuracy) * 10)} in 10 right on text it has "
            f"not seen; use an LLM endpoint for your own data.")


def describe_quality(figures: dict | None) -> str:
    """The measured figures in one line, from what ``bench/bench_offline_quality.py --json`` writes:
    ``importance`` {condition: {"offline", "offline_cv", "gpt-4o", ...}}, ``detection``
    {"rlp_wrong", "false_flag_missing", ...}, ``verifier`` {"accuracy_unseen", "cases"} and ``speed``
    {"median", ...}; ``NOT_MEASURED`` when there are none."""
    if not figures:
        return NOT_MEASURED
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
    verifier = figures.get("verifier")
    if isinstance(verifier, dict) and isinstance(verifier.get("accuracy_unseen"), (int, float)):
        cases = verifier.get("cases")
        parts.append(f"fact checks right on {float(verifier['accuracy_unseen']):.0%} of "
                     + (f"{cases} unseen cases" if isinstance(cases, int) else "unseen cases"))
    speed = figures.get("speed")
    if isinstance(speed, dict) and isinstance(speed.get("median"), (int, float)):
        parts.append(f"median {float(speed['median']):.2f} s per response")
    return "; ".join(parts) if parts else NOT_MEASURED
