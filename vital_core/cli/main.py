"""``python -m vital_core COMMAND ...``: one module per command under ``commands/``.

Each command module defines ``add_arguments(parser)`` and ``run(args) -> int``
(the exit code); its one-line help is in ``COMMANDS`` here, the only place, so
that listing the commands imports none of them. Modules are imported only when
their command runs, so ``report`` never loads the offline model or the openai
client.

Every command shares one logging setup (``setup_logging``: quiet by default,
``--verbose`` shows per-call warnings, written above the progress bar) and one
way to fail: a user error is one sentence on stderr, never a traceback
(``VITAL_DEBUG=1`` keeps the traceback of an unexpected error).
"""
from __future__ import annotations

import argparse
import importlib
import logging
import math
import os
import sys

# command -> its one-line help (module vital_core.cli.commands.<command>)
COMMANDS = {
    "report": "Print the paper's tables for scored results (release layout, folder or results file).",
    "agreement": "Compare two importance labellings of the same decompositions.",
    "score": "Score responses with a backend; resumable batch run.",
    "perturb": "Fill in missing and wrong variants of normal responses.",
    "label": "Relabel importance of records that already have a decomposition.",
    "check": "Fail (exit 1) when scored results breach a threshold or VITAL misses damaged variants (CI).",
}


class UsageError(Exception):
    """Bad command-line input: printed as ``vital_core COMMAND: error: ...``, exit 2."""


def number_in(kind: type, low: float | None = None, high: float | None = None, *, above: bool = False):
    """An argparse ``type``: a finite ``kind`` (int or float) within [low, high] (``above``: > low)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {'an integer' if kind is int else 'a number'}, "
                                             f"got {text!r}") from None
        bad = not math.isfinite(value) or (low is not None and (value <= low if above else value < low)) \
            or (high is not None and value > high)
        if bad:
            bounds = [f"{'above' if above else 'at least'} {low:g}" if low is not None else "",
                      f"at most {high:g}" if high is not None else ""]
            raise argparse.ArgumentTypeError(f"must be {' and '.join(b for b in bounds if b)} (got {text})")
        return value
    return parse


def folder_arg(text: str) -> str:
    """An argparse ``type``: a folder that may not exist yet, but is not an existing file."""
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is a file; give a folder")
    return text


def key_redactor(args: argparse.Namespace | None = None):
    """A function that removes every secret from text about to be shown or written: the environment's API
    keys (OPENAI_API_KEY and each step's), the credentials in its base URL and in the options' base URLs
    (``args``), and user info or a key-like query value in any URL (``redaction.redact``)."""
    from vital_core.backends import config
    from vital_core.safety.redaction import redactor, url_secrets
    urls = [getattr(args, name, None) for name in ("base_url", "rank_base_url", "verify_base_url")]
    return redactor(config.env_secrets() + [s for url in urls for s in url_secrets(url)])


class _Redacting(logging.Filter):
    """Every log line (ours, openai's, httpx's) without the secrets ``redact`` knows of."""

    def __init__(self, redact) -> None:
        super().__init__()
        self.redact = redact

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = self.redact(record.getMessage()), None
        return True


class _ProgressSafeHandler(logging.Handler):
    """Log lines written above tqdm's progress bar instead of through it."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            from tqdm import tqdm
            tqdm.write(self.format(record), file=sys.stderr)
        except Exception:   # logging must never sink the command
            self.handleError(record)


def setup_logging(verbose: bool, redact=None):
    """One handler for every library: errors only by default, warnings too with ``--verbose``; each line
    through ``redact`` (``key_redactor``) when given.

    Returns a function that puts the previous setup back (``main`` may run inside another program).
    """
    handler = _ProgressSafeHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    if redact is not None:
        handler.addFilter(_Redacting(redact))
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING if verbose else logging.ERROR)
    for noisy in ("httpx", "httpcore", "openai"):   # one INFO line per HTTP request
        logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.captureWarnings(True)                   # numpy / pandas warnings follow the same rule

    def restore() -> None:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        logging.captureWarnings(False)
    return restore


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only ``command``'s module is imported (the rest show their help line)."""
    parser = argparse.ArgumentParser(
        prog="python -m vital_core",
        description="VITAL Explorer commands: score responses, report metrics, compare labellings.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            module = importlib.import_module(f"vital_core.cli.commands.{name}")
            module.add_arguments(p)
            p.add_argument("--verbose", "-v", action="store_true",
                           help="show warnings (each failed or retried model call, library warnings) on stderr")
            p.set_defaults(_module=module, _parser=p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args = parser.parse_args(argv)
    redact = key_redactor(args)
    restore_logging = setup_logging(args.verbose, redact)
    try:
        return _run(args, f"{parser.prog} {args.command}: error:", redact)
    finally:
        restore_logging()


def _run(args: argparse.Namespace, prefix: str, redact=lambda text: text) -> int:
    """The command, with every way it can fail as one line on stderr (through ``redact``)."""
    try:
        return int(args._module.run(args) or 0)
    except UsageError as exc:
        args._parser.print_usage(sys.stderr)
        print(redact(f"{prefix} {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:   # one sentence, never a traceback, for whatever a user can cause
        return _report_failure(exc, prefix, redact)


def _report_failure(exc: Exception, prefix: str, redact=lambda text: text) -> int:
    from vital_core.files.errors import InputError
    if os.environ.get("VITAL_DEBUG") == "1":
        raise exc
    if isinstance(exc, InputError):
        print(redact(f"{prefix} {exc}"), file=sys.stderr)
        return 2
    if isinstance(exc, BrokenPipeError):   # the reader went away (``| head``): nothing more to say
        sys.stdout = open(os.devnull, "w")
        return 1
    if isinstance(exc, OSError):
        name = f" {exc.filename}" if exc.filename else ""
        print(redact(f"{prefix} cannot read or write{name}: {exc.strerror or exc}"), file=sys.stderr)
        return 1
    print(redact(f"{prefix} unexpected {type(exc).__name__}: {exc} (set VITAL_DEBUG=1 to see the traceback)"),
          file=sys.stderr)
    return 1
