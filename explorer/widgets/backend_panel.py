"""The scoring backend: the sidebar panel that chooses it, the backend it builds, and the coroutine wrapper that
releases an endpoint's client after a run (the run itself, on its thread, is ``explorer.widgets.scoring_run``)."""
from __future__ import annotations

import streamlit as st

from explorer.logic import backend_wording, per_step_choice
from explorer.logic.formatting import escape_md
from vital_core.backends import config as backend_settings


@st.cache_resource(show_spinner="Loading the offline backend…")
def _offline_backend():
    return backend_settings.build_backend(backend_settings.BackendSettings())


def current_settings() -> backend_settings.BackendSettings:
    name = st.session_state.get("backend_name", backend_settings.OFFLINE)
    if name != backend_settings.OPENAI:
        return backend_settings.BackendSettings()
    return backend_settings.BackendSettings(
        name=backend_settings.OPENAI,
        base_url=(st.session_state.get("backend_base_url") or "").strip(),
        model=(st.session_state.get("backend_model") or "").strip(),
        context_window=int(st.session_state.get("backend_context_window") or 0))


def current_api_key() -> str:
    """The typed key (session only), else OPENAI_API_KEY when the endpoint is the one the server configured
    (the Base URL box empty or naming it): the server's key never goes to a URL a visitor typed."""
    return (st.session_state.get("backend_api_key") or "").strip() or backend_settings.server_key(
        backend_settings.env_api_key(), current_settings().base_url)


def current_steps() -> dict[str, backend_settings.StepSettings]:
    return per_step_choice.step_settings(st.session_state)


def active_backend():
    """The backend chosen in the sidebar, with its per-step backends; raises ValueError with a readable
    reason if unusable."""
    s, steps = current_settings(), current_steps()
    key = current_api_key() if s.name == backend_settings.OPENAI else ""
    problems = (backend_settings.validate(s, key, backend_wording.APP_TERMS)
                + per_step_choice.problems(steps, s, key))
    if problems:
        raise ValueError("; ".join(problems))
    offline = _offline_backend() if per_step_choice.needs_offline(s, steps) else None
    return backend_settings.build_backend_with_steps(s, key, steps, per_step_choice.step_keys(steps, s),
                                                     offline=offline)


def scoring_run(backend, coro):
    """A coroutine that awaits ``coro`` (using ``backend``), then releases an endpoint backend's client in
    the same event loop; the shared offline backend stays loaded. Which one it is is decided here, on the
    script's thread: the shared backend is a cached resource, and the run may go on another thread."""
    close = backend is not _offline_backend()

    async def run():
        try:
            return await coro
        finally:
            if close:
                await backend.aclose()

    return run()


def backend_caption() -> None:
    steps = per_step_choice.summary(current_steps())
    st.caption(f"Active backend: **{escape_md(current_settings().label())}**"
               + (f" ({escape_md(steps)})" if steps else "") + " (change it in the sidebar).")


def _step_inputs(box, step: str) -> None:
    """One step's choice and, for an endpoint, its base URL, model and (verification) yes/no mode."""
    k = per_step_choice.key
    name = per_step_choice.STEP_NAMES[step]
    box.selectbox(name, list(per_step_choice.CHOICES), key=k(step, "choice"), format_func=per_step_choice.CHOICES.get,
                  help=per_step_choice.CHOICE_HELP)
    if st.session_state.get(k(step, "choice")) != per_step_choice.ENDPOINT:
        return
    configured = backend_settings.step_env_base_url(step)
    box.text_input(f"{name}: base URL", key=k(step, "base_url"),
                   placeholder=f"the server's: {backend_settings.shown_url(configured)}" if configured
                   else "the main endpoint's",
                   help="Any OpenAI-compatible server, e.g. http://localhost:11434/v1 for Ollama.")
    box.text_input(f"{name}: model", key=k(step, "model"), placeholder="the main model")
    if step == "verify":
        box.checkbox("Yes/no fact-checking model", key=k(step, "yes_no"), help=per_step_choice.YES_NO_HELP)


def sidebar_steps() -> None:
    """The expander that gives ranking and/or verification a backend of their own."""
    steps = current_steps()
    box = st.sidebar.expander("Per-step backends", expanded=bool(per_step_choice.summary(steps)))
    for step in per_step_choice.STEP_NAMES:
        _step_inputs(box, step)
    env = " / ".join(backend_settings.STEP_KEY_ENV[s] for s in per_step_choice.STEP_NAMES)
    box.caption(f"An endpoint's key comes from `{env}`, else `OPENAI_API_KEY`, and only for the endpoint the "
                "server configured it with; it is never typed here or stored.")
    for p in per_step_choice.problems(current_steps(), current_settings(), current_api_key()):
        box.warning(escape_md(p))


def sidebar_backend() -> None:
    """Backend choice, endpoint settings and the banner naming the active backend."""
    sb = st.sidebar
    sb.subheader("Scoring backend")
    sb.radio("Backend", [backend_settings.OFFLINE, backend_settings.OPENAI], key="backend_name",
             format_func=lambda n: "Offline (no key, no network)" if n == backend_settings.OFFLINE
             else "OpenAI-compatible endpoint", label_visibility="collapsed")
    s = current_settings()
    if s.name == backend_settings.OPENAI:
        env = backend_settings.BackendSettings.from_env(backend_settings.OPENAI)
        if "backend_model" not in st.session_state:
            st.session_state["backend_model"] = env.model
        # Empty = the server's endpoint (OPENAI_BASE_URL): shown as scheme and host, never filled in, since
        # the URL may carry a password the visitor must not see.
        server = backend_settings.shown_url(env.base_url or backend_settings.DEFAULT_BASE_URL)
        sb.text_input("Base URL", key="backend_base_url", placeholder=f"the server's: {server}",
                      help="Empty: the server's endpoint. Any OpenAI-compatible server: OpenAI, Azure OpenAI, "
                           "vLLM, Ollama, llama.cpp.")
        sb.text_input("Model", key="backend_model", placeholder="e.g. gpt-4o-mini")
        sb.number_input("Context window (tokens)", key="backend_context_window", min_value=256, step=1024,
                        value=None, placeholder="ask the server",
                        help="The model's context window; reply budgets are fitted to it. Empty: asked from "
                             "the server (vLLM, llama.cpp) or learnt from its first context-length error.")
        server_key = backend_settings.server_key(backend_settings.env_api_key(), current_settings().base_url)
        sb.text_input("API key", key="backend_api_key", type="password",
                      placeholder="using the server's key" if server_key else "sk-…",
                      help="Kept only in this browser session; never written to disk, logs, URLs or results. "
                           "The server's own key is used only for the server's endpoint.")
        problems = backend_settings.validate(current_settings(), current_api_key(), backend_wording.APP_TERMS)
        for p in problems:
            sb.warning(escape_md(p))
    s = current_settings()
    if s.name == backend_settings.OFFLINE:
        # What to expect in one plain sentence; the measured figures behind it one click away.
        figures = backend_settings.offline_quality()
        sb.info(f"**Active: offline backend** — embedded, deterministic, no network. "
                f"{backend_wording.plain_quality(figures)}", icon=":material/computer:")
        sb.expander(backend_wording.MEASURED_FIGURES).caption(f"{backend_wording.describe_quality(figures)}.")
    else:
        sb.info(f"**Active: {escape_md(s.label())}**", icon=":material/cloud:")
    sidebar_steps()

