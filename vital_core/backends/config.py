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
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

from vital_core.backends import BACKEND_NAMES, get_backend
from vital_core.safety.redaction import shown_url, url_secrets
from vital_core.scoring.steps import RANK, VERIFY

OFFLINE, OPENAI = BACKEND_NAMES
# Where the offline backend's quality benchmark leaves its measured figures.
OFFLINE_QUALITY_FILE = Path(__file__).resolve().parent / "offline" / "quality.json"
# The most claims one verification call checks (``--claims-per-call``; the backend's window).
MAX_CLAIMS_PER_CALL = 15
# The structured-output settings of the OpenAI-compatible client: auto steps down json_schema -> json_object
# -> plain text as the server refuses them; the others use only that level.
STRUCTURED_OUTPUT_MODES = ("auto", "json_schema", "json_object", "off")


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
    # The method's sizes on an endpoint (they change the numbers; results record them).
    claims_per_call: int = MAX_CLAIMS_PER_CALL   # claims checked per verification call (1 = FActScore's one fact)
    evidence_tokens: int = 3000        # evidence tokens per verification call (fitted to a known window)
    context_window: int = 0            # the model's context window in tokens; 0 = ask the server / learn it

    @classmethod
    def from_env(cls, name: str = OFFLINE) -> "BackendSettings":
        return cls(name=name, base_url=env_base_url(),
                   model=os.environ.get("VITAL_MODEL", ""))

    def to_dict(self) -> dict:
        return asdict(self)

    def label(self) -> str:
        if self.name == OFFLINE:
            return "Offline (embedded, no network)"
        url = self.base_url or env_base_url()
        where = shown_url(url) if url else "api.openai.com (default)"
        return f"OpenAI-compatible · {self.model or 'default model'} @ {where}"


def env_api_key() -> str:
    """The key from the environment, or empty. Never stored by this module."""
    return os.environ.get("OPENAI_API_KEY", "")


def env_base_url() -> str:
    """The endpoint the environment names (OPENAI_BASE_URL), or empty (the openai client's default)."""
    return os.environ.get("OPENAI_BASE_URL", "")


DEFAULT_BASE_URL = "https://api.openai.com/v1"     # where the openai client goes when no base URL is set


def same_url(a: str | None, b: str | None) -> bool:
    """Whether two base URLs name the same endpoint ("" = the default endpoint)."""
    return (a or DEFAULT_BASE_URL).strip().rstrip("/") == (b or DEFAULT_BASE_URL).strip().rstrip("/")


def server_key(key: str, url: str | None, step: str | None = None) -> str:
    """A key of the server's environment, only for the endpoint the server configured it with: ``key`` when
    ``url`` (the endpoint a request would go to) is that endpoint (``step``'s STEP_URL_ENV, else
    OPENAI_BASE_URL, else the default), else "". The app asks this before it sends an environment key to an
    endpoint a visitor typed; a visitor's own endpoint needs the visitor's key."""
    configured = (step_env_base_url(step) if step else "") or env_base_url()
    return key if key and same_url(url or env_base_url(), configured) else ""


def default_name(base_url: str | None = None) -> str:
    """openai when a base URL is given or OPENAI_BASE_URL / OPENAI_API_KEY is set, else offline."""
    if base_url or env_base_url() or env_api_key():
        return OPENAI
    return OFFLINE


def url_problems(base_url: str, term: str) -> list[str]:
    """What is wrong with a base URL (none when it is empty: the default), named as ``term``."""
    if not base_url:
        return []
    if not base_url.startswith(("http://", "https://")):
        return [f"{term} must start with http:// or https:// (got {shown_url(base_url)})"]
    try:
        parts = urlsplit(base_url)
        port = parts.port
    except ValueError as exc:   # a port out of range or not a number, a malformed host
        return [f"{term} is not a valid URL: {exc} (got {shown_url(base_url)}; a port is a number from 1 to 65535)"]
    if port == 0:
        return [f"{term} has port 0 (got {shown_url(base_url)}; a port is a number from 1 to 65535)"]
    if not parts.hostname:
        return [f"{term} has no host name (got {shown_url(base_url)})"]
    return []


def validate(settings: BackendSettings, api_key: str, terms: dict[str, str]) -> list[str]:
    """Problems that stop a backend from working, in words a person can act on.

    ``terms`` names the settings as the front end shows them (base_url, concurrency, max_attempts,
    api_key): the app's words or the command line's option names.
    """
    problems = []
    if settings.name not in BACKEND_NAMES:
        problems.append(f"unknown backend {settings.name!r}")
    if settings.concurrency < 1:
        problems.append(f"{terms['concurrency']} must be at least 1")
    if settings.name == OPENAI:
        if settings.max_attempts < 1:
            problems.append(f"{terms['max_attempts']} must be at least 1")
        problems += url_problems(settings.base_url, terms["base_url"])
        if not api_key and not (settings.base_url or env_base_url()):
            problems.append(f"no API key: {terms['api_key']} (a local server given by {terms['base_url']} "
                            f"may need none)")
    return problems


def _client_settings(settings: BackendSettings, api_key: str) -> dict:
    """The endpoint client's arguments for ``settings`` (the key only as given, never from a field)."""
    optional = {"base_url": settings.base_url, "model": settings.model, "cache_dir": settings.cache_dir,
                "prices": settings.prices}
    # Local servers (vLLM, Ollama) accept any key; the client insists on one.
    key = api_key or ("not-needed" if settings.base_url else "")
    return dict({k: v for k, v in optional.items() if v}, **({"api_key": key} if key else {}),
                temperature=settings.temperature, max_tokens=settings.max_tokens,
                concurrency=settings.concurrency, timeout=settings.timeout,
                max_attempts=settings.max_attempts, backoff_initial=settings.backoff,
                backoff_max=max(30.0, settings.backoff), cache_size_limit=settings.cache_size_mb * 2 ** 20,
                use_cache=settings.use_cache, structured_output=settings.structured_output,
                **({"context_window": settings.context_window} if settings.context_window else {}))


def build_backend(settings: BackendSettings, api_key: str = ""):
    """Construct the backend; the key goes to the client and nowhere else.

    Raises ValueError for settings the backend refuses (``validate`` first for
    readable messages).
    """
    if settings.name == OFFLINE:
        return get_backend(OFFLINE)
    return get_backend(settings.name, **_client_settings(settings, api_key),
                       verify_window=settings.claims_per_call, evidence_token_budget=settings.evidence_tokens)


# ------------------------------------------------------------------ per-step backends
SAME = ""                                  # a step's backend: "" = the main backend
CLAIMS, YES_NO = "claims", "yes-no"        # verification: the backend's own claim check, or a yes/no model
VERIFY_MODES = (CLAIMS, YES_NO)
# A per-step endpoint's key: its own variable, else OPENAI_API_KEY when the step goes to the main
# endpoint (never an option, never a field).
STEP_KEY_ENV = {RANK: "VITAL_RANK_API_KEY", VERIFY: "VITAL_VERIFY_API_KEY"}
# A step endpoint the server configures (the default of --rank-base-url / --verify-base-url and of the app's
# step boxes); the app sends a step's key (STEP_KEY_ENV) there and nowhere else.
STEP_URL_ENV = {RANK: "VITAL_RANK_BASE_URL", VERIFY: "VITAL_VERIFY_BASE_URL"}


@dataclass(frozen=True)
class StepSettings:
    """One step's own backend: ``name`` "" = the main backend; base URL and model for an endpoint (""
    = the main backend's); ``mode`` for verification only. Never the key."""
    name: str = SAME
    base_url: str = ""
    model: str = ""
    mode: str = CLAIMS

    def label(self) -> str:
        if self.name == SAME:
            return "same as main"
        if self.name == OFFLINE:
            return "offline"
        kind = "yes/no model" if self.mode == YES_NO else "OpenAI-compatible"
        where = shown_url(self.base_url) if self.base_url else "main endpoint"
        return f"{kind} · {self.model or 'main model'} @ {where}"


def step_env_base_url(step: str) -> str:
    """The step's endpoint the environment names (its ``STEP_URL_ENV`` variable), or empty."""
    return os.environ.get(STEP_URL_ENV[step], "")


def step_api_key(step: str) -> str:
    """A step's own key (its ``STEP_KEY_ENV`` variable), or empty: the main key is added by ``step_key``
    only for the main endpoint. Never stored by this module."""
    return os.environ.get(STEP_KEY_ENV[step], "")


def env_secrets() -> list[str]:
    """Every secret the environment gives this project, to redact: the API keys (OPENAI_API_KEY and each
    step's) and the credentials written into its base URLs."""
    keys = [env_api_key(), *(os.environ.get(v, "") for v in STEP_KEY_ENV.values())]
    urls = [env_base_url(), *(step_env_base_url(step) for step in STEP_URL_ENV)]
    return [k for k in keys if k] + [s for url in urls for s in url_secrets(url)]


def same_endpoint(main: BackendSettings, step: StepSettings) -> bool:
    """Whether a step's endpoint is the main backend's (the only place the main key may go)."""
    main_url = main.base_url or env_base_url()
    return step_backend_settings(main, step).base_url.rstrip("/") == main_url.rstrip("/")


def step_key(main: BackendSettings, step: StepSettings, own_key: str, main_key: str) -> str:
    """The key a step's endpoint gets: its own, else the main key when it is the main endpoint, else none."""
    return own_key or (main_key if same_endpoint(main, step) else "")


def step_backend_settings(main: BackendSettings, step: StepSettings) -> BackendSettings:
    """A step's full settings: its own endpoint and model, the main backend's request tuning."""
    return replace(main, name=step.name or main.name,
                   base_url=step.base_url or main.base_url or env_base_url(),
                   model=step.model or main.model)


def validate_step(step: str, settings: StepSettings, main: BackendSettings, api_key: str,
                  terms: dict[str, str], main_key: str | None = None) -> list[str]:
    """Problems with one step's own backend, naming its settings as the front end shows them (``terms``:
    step, name, base_url, model, mode, api_key). ``api_key``: the step's own (``step_api_key``);
    ``main_key``: the main backend's (default OPENAI_API_KEY)."""
    problems = []
    if settings.name not in (SAME, *BACKEND_NAMES):
        problems.append(f"{terms['name']}: unknown backend {settings.name!r} (expected {' or '.join(BACKEND_NAMES)})")
    if settings.mode not in VERIFY_MODES or (step != VERIFY and settings.mode != CLAIMS):
        problems.append(f"{terms['mode']}: only verification has a mode ({' or '.join(VERIFY_MODES)}); "
                        f"got {settings.mode!r} for {terms['step']}")
    if settings.name != OPENAI:
        given = [terms[k] for k in ("base_url", "model") if getattr(settings, k)]
        given += [terms["mode"]] if settings.mode == YES_NO else []
        if given:
            problems.append(f"{' and '.join(given)} {'needs' if len(given) == 1 else 'need'} "
                            f"{terms['name']} {OPENAI} (an OpenAI-compatible endpoint)")
        return problems
    problems += url_problems(settings.base_url, terms["base_url"])
    main_key = env_api_key() if main_key is None else main_key
    if not api_key and main_key and not same_endpoint(main, settings):
        problems.append(f"{terms['base_url']} is not the main endpoint, so OPENAI_API_KEY is not sent there: set "
                        f"{STEP_KEY_ENV[step]} for {terms['step']} (any value for a server that needs no key)")
    elif not step_key(main, settings, api_key, main_key) and not step_backend_settings(main, settings).base_url:
        problems.append(f"no API key for {terms['step']}: {terms['api_key']} (a local server given by "
                        f"{terms['base_url']} may need none)")
    return problems


def build_backend_with_steps(main: BackendSettings, api_key: str, steps: dict[str, StepSettings],
                   step_keys: dict[str, str], *, offline=None):
    """The main backend, wrapped in a ``PerStepBackend`` when ranking or verification has one of its own.

    ``offline``: an already loaded offline backend to use wherever one is wanted (the app keeps one);
    a step whose settings equal the main backend's simply uses the main backend. Keys go to the clients
    only. Raises ValueError like ``build_backend`` (``validate_step`` first for readable messages).
    """
    from vital_core.backends.openai.yes_no import YesNoVerifier
    from vital_core.backends.per_step import PerStepBackend

    loaded = {OFFLINE: offline}

    def build(settings: BackendSettings, key: str):
        if settings.name != OFFLINE:
            return build_backend(settings, key)
        if loaded[OFFLINE] is None:          # one offline model in memory, however many steps use it
            loaded[OFFLINE] = build_backend(settings)
        return loaded[OFFLINE]

    base = build(main, api_key)
    own = {}
    for step, choice in steps.items():
        full = step_backend_settings(main, choice)
        if choice.name == SAME or (full.name == main.name == OFFLINE):
            continue
        key = step_key(main, choice, step_keys.get(step, ""), api_key)
        if step == VERIFY and choice.mode == YES_NO:
            own[step] = YesNoVerifier(**_client_settings(full, key))
        elif full != main:
            own[step] = build(full, key)
    return PerStepBackend(base, **own) if own else base


def offline_quality(path: Path = OFFLINE_QUALITY_FILE) -> dict | None:
    """The offline backend's measured quality figures, or None when not measured yet (the app words
    them: ``explorer.logic.backend_wording``)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
