"""The sidebar's per-step backend choice: its session keys, its options, and what they mean as core settings.

The app keeps the choice as plain values in session state; this module turns them into
``config.StepSettings`` and names what is wrong with them, so the widget only draws. No key is
read from or written to session state here: a step endpoint's key comes from the environment.
"""
from __future__ import annotations

from typing import Mapping

from explorer.logic.backend_wording import APP_STEP_TERMS
from vital_core.backends import config
from vital_core.scoring.steps import RANK, VERIFY

STEP_NAMES = {VERIFY: "Verification", RANK: "Ranking"}     # sidebar order: verification first
SAME, OFFLINE, ENDPOINT = config.SAME, config.OFFLINE, config.OPENAI     # the settings' own values
CHOICES = {SAME: "Same as main", OFFLINE: "Offline (embedded)", ENDPOINT: "Endpoint (OpenAI API)"}
CHOICE_HELP = ("Same as main: the backend chosen above. Endpoint: any OpenAI-compatible server (OpenAI, vLLM, "
               "Ollama, llama.cpp) with its own base URL and model.")
YES_NO_HELP = ("A MiniCheck-style fact-checking model (e.g. served by Ollama or vLLM) that answers Yes or No "
               "for a passage and a claim. Mapped honestly: Yes → supported, No for every passage → not "
               "enough evidence. It never says contradicted.")


def key(step: str, field: str) -> str:
    """The session-state key of one setting of one step (``choice``, ``base_url``, ``model``, ``yes_no``)."""
    return f"step_{step}_{field}"


# Every session key the expander draws (a test checks that none of them holds the API key).
SESSION_KEYS = tuple(key(step, field) for step in STEP_NAMES for field in ("choice", "base_url", "model")) \
    + (key(VERIFY, "yes_no"),)


def step_settings(values: Mapping) -> dict[str, config.StepSettings]:
    """Session values -> each step's settings; an endpoint's base URL and model only when it is chosen."""
    out = {}
    for step in STEP_NAMES:
        choice = values.get(key(step, "choice")) or SAME
        if choice not in CHOICES:
            choice = SAME
        if choice != ENDPOINT:
            out[step] = config.StepSettings(name=choice)
            continue
        yes_no = step == VERIFY and bool(values.get(key(step, "yes_no")))
        typed = (values.get(key(step, "base_url")) or "").strip()
        out[step] = config.StepSettings(name=config.OPENAI, base_url=typed or config.step_env_base_url(step),
                                        model=(values.get(key(step, "model")) or "").strip(),
                                        mode=config.YES_NO if yes_no else config.CLAIMS)
    return out


def problems(steps: dict[str, config.StepSettings], main: config.BackendSettings, main_key: str) -> list[str]:
    """What stops the chosen step backends from working, in the sidebar's words (``main_key``: the key the
    main endpoint gets)."""
    keys = step_keys(steps, main)
    return [p for step, settings in steps.items()
            for p in config.validate_step(step, settings, main, keys.get(step, ""), APP_STEP_TERMS[step],
                                          main_key=main_key)]


def step_keys(steps: dict[str, config.StepSettings], main: config.BackendSettings) -> dict[str, str]:
    """Each step endpoint's key from the environment, only when the step goes to the endpoint the server
    configured that key with (``config.server_key``): a step URL a visitor typed gets none of the server's keys."""
    return {step: config.server_key(config.step_api_key(step), config.step_backend_settings(main, s).base_url, step)
            for step, s in steps.items() if s.name == config.OPENAI}


def needs_offline(main: config.BackendSettings, steps: dict[str, config.StepSettings]) -> bool:
    return main.name == config.OFFLINE or any(s.name == config.OFFLINE for s in steps.values())


def summary(steps: dict[str, config.StepSettings]) -> str:
    """One line naming the steps with a backend of their own, or "" when every step uses the main one."""
    return "; ".join(f"{STEP_NAMES[step].lower()}: {s.label()}" for step, s in steps.items()
                     if s.name != config.SAME)
