"""Command-line options that choose and configure a scoring backend.

Shared by the ``score``, ``perturb`` and ``label`` commands. This module only
declares the options and maps them onto ``backends.config.BackendSettings``;
``config`` validates the settings and builds the backend (as it does for the
app). The API key is never an option - a command line shows up in ``ps`` and
shell history - it comes from ``OPENAI_API_KEY`` only.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from vital_core.backends import BACKEND_NAMES, config
from vital_core.cli.main import UsageError, folder_arg, key_redactor, number_in  # noqa: F401 - the commands' import
from vital_core.scoring.limits import EVIDENCE_LIMIT_ENV, MAX_EVIDENCE_MB, MAX_WORDS, evidence_limit_mb
from vital_core.scoring.runs import RECORD_TIMEOUT
from vital_core.scoring.steps import OWN_BACKEND_STEPS, RANK, VERIFY


def add_backend_arguments(parser: argparse.ArgumentParser, steps: tuple[str, ...] = OWN_BACKEND_STEPS) -> None:
    """The backend options; ``steps``: the steps the command does that may have a backend of their own
    (a flag for a step the command never does is not offered, so argparse refuses it by name)."""
    g = parser.add_argument_group("backend")
    g.add_argument("--backend", choices=BACKEND_NAMES, default=None,
                   help="offline (embedded, no network) or openai (any OpenAI-compatible endpoint). "
                        "Default: openai when OPENAI_BASE_URL or OPENAI_API_KEY is set or --base-url "
                        "is given, else offline")
    g.add_argument("--model", help="model name (default: env VITAL_MODEL, else gpt-4o-mini)")
    g.add_argument("--base-url", help="endpoint base URL, e.g. http://localhost:8000/v1 "
                                      "(default: env OPENAI_BASE_URL, else api.openai.com)")
    g.add_argument("--concurrency", type=number_in(int, 1, 1000), default=8,
                   help="at most this many requests in flight, shared by all records (default 8)")
    g.add_argument("--cache-dir", type=folder_arg, help="LLM reply cache folder (default: env VITAL_CACHE_DIR, "
                                       "else ~/.cache/vital-explorer/llm)")
    g.add_argument("--cache-size-mb", type=number_in(int, 1), default=1024,
                   help="cache size limit in MB (default 1024)")
    g.add_argument("--no-cache", action="store_true", help="neither read nor write the reply cache")
    g.add_argument("--temperature", type=number_in(float, 0, 2), default=0.0, help="sampling temperature (default 0)")
    g.add_argument("--max-tokens", type=number_in(int, 1), default=4000,
                   help="reply token limit per call (default 4000)")
    g.add_argument("--context-window", type=number_in(int, 256), default=None,
                   help="the model's context window in tokens; reply budgets (--max-tokens) are fitted to it "
                        "(default: asked from the server - vLLM's /v1/models, llama.cpp's /props - else learnt "
                        "from its first context-length error)")
    g.add_argument("--timeout", type=number_in(float, 0, above=True), default=60.0,
                   help="seconds per request (default 60)")
    g.add_argument("--max-attempts", type=number_in(int, 1, 100), default=4,
                   help="attempts per call, first included, on 429/5xx/timeouts/bad replies (default 4)")
    g.add_argument("--backoff", type=number_in(float, 0, 3600), default=1.0,
                   help="first retry delay in seconds, doubled each retry, plus jitter (default 1)")
    g.add_argument("--structured-output", choices=config.STRUCTURED_OUTPUT_MODES, default="auto",
                   help="response_format: auto = json_schema, stepping down to json_object and then to plain "
                        "text when the server does not accept it; json_schema / json_object = only that; off = "
                        "plain text")
    g.add_argument("--prices", help="JSON file {\"model\": [input $/1M tokens, output $/1M tokens]} "
                                    "for the cost estimate (default table: see README)")
    if "verify" in steps:     # only a command that verifies offers the verification sizes
        most, default = config.MAX_CLAIMS_PER_CALL, config.BackendSettings
        g.add_argument("--claims-per-call", type=number_in(int, 1, most), default=default.claims_per_call,
                       help=f"claims checked per verification call, 1-{most} (default {default.claims_per_call}; "
                            "1 = FActScore's one fact per call, as many calls as claims). Recorded in the "
                            "results and shown by report")
        g.add_argument("--evidence-tokens", type=number_in(int, 100), default=default.evidence_tokens,
                       help=f"evidence passages per verification call, in tokens (default "
                            f"{default.evidence_tokens}); lowered to fit the model's context window when it is known")
    g.add_argument("--record-timeout", type=number_in(float, 0, above=True), default=RECORD_TIMEOUT,
                   help="seconds one record may take in all, retries included; after that it is kept with "
                        f"its error and the run goes on (default {RECORD_TIMEOUT:g})")
    if steps:
        add_step_arguments(parser, steps)


def add_step_arguments(parser: argparse.ArgumentParser, steps: tuple[str, ...]) -> None:
    """``--rank-*`` and ``--verify-*``: a backend of its own for ranking or verification (unset = the main one)."""
    g = parser.add_argument_group("per-step backends (unset: the main backend does the step)")
    for step, word in STEP_WORDS.items():
        if step not in steps:
            continue
        g.add_argument(f"--{step}-backend", choices=BACKEND_NAMES, default=None,
                       help=f"the backend that does {word}; its key comes from env {config.STEP_KEY_ENV[step]}, "
                            "else (only when it goes to the main endpoint) OPENAI_API_KEY")
        g.add_argument(f"--{step}-base-url", help=f"endpoint for {word} (needs --{step}-backend openai; "
                                                  f"default: env {config.STEP_URL_ENV[step]}, else the main endpoint)")
        g.add_argument(f"--{step}-model", help=f"model for {word} (needs --{step}-backend openai; "
                                               "default: the main model)")
    if VERIFY not in steps:
        return
    g.add_argument("--verify-mode", choices=config.VERIFY_MODES, default=None,
                   help="claims: the endpoint checks claims with the project's prompt (default); yes-no: a "
                        "MiniCheck-style fact-checking model answers Yes/No per passage and claim (it never "
                        "says contradicted). Needs --verify-backend openai")


def add_size_argument(parser: argparse.ArgumentParser) -> None:
    """``--max-words``: the size limit for one response (``score`` and ``perturb``)."""
    parser.add_argument("--max-words", type=number_in(int, 1), default=MAX_WORDS,
                        help="the most words one response may have; a longer one is kept with an error "
                             f"saying so, not scored (default {MAX_WORDS})")


def add_evidence_argument(parser: argparse.ArgumentParser) -> None:
    """``--max-evidence-mb``: the size limit of one record's documents and reference (``score``)."""
    parser.add_argument("--max-evidence-mb", type=number_in(float, 0, above=True), default=None,
                        help="the most megabytes of text one record's documents and reference may hold; a "
                             "record over it is kept with an error saying so, not scored (default: env "
                             f"{EVIDENCE_LIMIT_ENV}, else {MAX_EVIDENCE_MB:g})")


def evidence_limit(args: argparse.Namespace) -> float:
    """``--max-evidence-mb``, else the environment's limit, else the default; a bad variable is a usage error."""
    if args.max_evidence_mb is not None:
        return args.max_evidence_mb
    try:
        return evidence_limit_mb()
    except ValueError as exc:
        raise UsageError(str(exc)) from None


# The command line's names for the settings, in ``config.validate``'s messages.
CLI_TERMS = {"base_url": "--base-url", "concurrency": "--concurrency", "max_attempts": "--max-attempts",
             "api_key": "set OPENAI_API_KEY"}
STEP_WORDS = {RANK: "ranking", VERIFY: "verification"}
# Options that send a whole run to one endpoint as a batch: no step may have a backend of its own.
BATCH_FLAGS = ("--batch-export", "--batch-import", "--batch-submit")
CLI_STEP_TERMS = {step: {"step": word, "name": f"--{step}-backend", "base_url": f"--{step}-base-url",
                         "model": f"--{step}-model", "mode": f"--{step}-mode yes-no",
                         "api_key": f"set {config.STEP_KEY_ENV[step]} or OPENAI_API_KEY"}
                  for step, word in STEP_WORDS.items()}


def chosen_backend(args: argparse.Namespace) -> str:
    return args.backend or config.default_name(args.base_url)


def settings_from_args(args: argparse.Namespace) -> config.BackendSettings:
    """The options as backend settings (never the key: it comes from the environment only)."""
    return config.BackendSettings(
        name=chosen_backend(args), base_url=args.base_url or config.env_base_url(),
        model=args.model or "", concurrency=args.concurrency, max_attempts=args.max_attempts,
        temperature=args.temperature, max_tokens=args.max_tokens, timeout=args.timeout, backoff=args.backoff,
        cache_dir=args.cache_dir or "", cache_size_mb=args.cache_size_mb, use_cache=not args.no_cache,
        structured_output=args.structured_output, prices=args.prices or "",
        context_window=args.context_window or 0,
        **{k: getattr(args, k) for k in ("claims_per_call", "evidence_tokens") if hasattr(args, k)})


def steps_from_args(args: argparse.Namespace) -> dict[str, config.StepSettings]:
    """The ``--rank-*`` / ``--verify-*`` options as step settings (never a key)."""
    return {step: config.StepSettings(
        name=getattr(args, f"{step}_backend", None) or config.SAME,
        base_url=(getattr(args, f"{step}_base_url", None)
                  or (config.step_env_base_url(step) if getattr(args, f"{step}_backend", None) == config.OPENAI
                      else "")).strip(),
        model=(getattr(args, f"{step}_model", None) or "").strip(),
        mode=(getattr(args, "verify_mode", None) if step == VERIFY else None) or config.CLAIMS)
        for step in STEP_WORDS}


def backend_from_args(args: argparse.Namespace):
    """Build the backend the options describe (with its per-step backends); bad settings become a
    ``UsageError`` naming the option."""
    settings, steps = settings_from_args(args), steps_from_args(args)
    key = config.env_api_key()
    step_keys = {step: config.step_api_key(step) for step in steps}
    problems = config.validate(settings, key, CLI_TERMS)
    for step, choice in steps.items():
        problems += config.validate_step(step, choice, settings, step_keys[step], CLI_STEP_TERMS[step])
    own = [CLI_STEP_TERMS[s]["name"] for s, c in steps.items() if c.name != config.SAME]
    batch = [flag for flag in BATCH_FLAGS if getattr(args, flag[2:].replace("-", "_"), None)]
    if own and batch:
        problems.append(f"{' and '.join(own)} cannot be combined with {' / '.join(batch)} "
                        "(a batch goes to one endpoint)")
    if problems:
        raise UsageError("; ".join(problems))
    try:
        backend = config.build_backend_with_steps(settings, key, steps, step_keys)
        for part in backend.backends() if hasattr(backend, "backends") else [backend]:
            client = getattr(part, "client", None)
            if client is not None and hasattr(client, "check_cache"):
                client.check_cache()      # an unusable cache folder: one usage error before any record
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return backend


def check_out_path(out: Path, source: Path, example_name: str) -> None:
    """Refuse, before any work, an ``--out`` that is the input itself, a folder, under a file or not writable.

    Nothing is written: a probe file is created in the target folder and removed at once.
    """
    if out.exists() and source.exists() and out.resolve() == source.resolve():
        raise UsageError("--out must not be the input file")
    if out.is_dir():
        raise UsageError(f"--out {out} is a folder; give a file name such as {example_name}")
    if out.exists() and not out.is_file():
        raise UsageError(f"--out {out} is not a regular file; give a file name such as {example_name}")
    folder = out.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise UsageError(f"--out {out}: {folder} is a file, not a folder")
    try:
        if out.exists():
            os.close(os.open(out, os.O_WRONLY | os.O_APPEND))
        else:
            tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot write there ({exc.strerror or exc})") from None


def prepare_batch(args: argparse.Namespace, verb: str):
    """Check ``--out``, read INPUT and build the backend: ``(out, records, backend)``.

    Shared by ``score`` and ``perturb``; bad input becomes a ``UsageError``
    before any model is loaded or called.
    """
    from vital_core.scoring.inputs import read_inputs
    from vital_core.scoring.runs import check_outputs
    out = Path(args.out)
    check_out_path(out, Path(args.input), "results.jsonl")
    check_outputs(out, [(Path(args.input), "the input of this run")])   # nor its summary; nor in an input folder
    records = read_inputs(args.input, require_text=verb == "scoring")   # bad input: one sentence, exit 2
    backend = backend_from_args(args)
    print(f"{verb} {len(records)} record(s) with {backend.info.description or backend.info.name}",
          file=sys.stderr)
    return out, records, backend


def run_batch_command(backend, out, start_batch) -> int:
    """Run a resumable batch (``start_batch()`` returns its coroutine), print the summary.

    Shared by ``score`` and ``perturb``: the backend is closed however the run
    ends, Ctrl-C says how to resume, and so does a write that fails (disk full).
    Exit status: 0 all done, 1 some records failed or the output could not be written.
    """
    from vital_core.scoring.pipeline import run_sync

    async def go():
        try:
            return await start_batch()
        finally:
            await backend.aclose()

    try:
        result = run_sync(go())
    except KeyboardInterrupt:
        print(f"interrupted: finished records are saved in {out}; run the same command again to resume",
              file=sys.stderr)
        raise
    except OSError as exc:
        print(f"error: cannot write {exc.filename or out} ({exc.strerror or exc}); the records finished "
              f"before are saved in {out}: make room and run the same command again to resume", file=sys.stderr)
        return 1
    for line in result.lines():
        print(line)
    print(f"summary: {result.summary_path}")
    return 1 if result.failed else 0
