"""``python -m vital_core COMMAND ...``: one module per command under ``commands/``.

Each command module defines ``add_arguments(parser)`` and ``run(args) -> int``
(the exit code); its one-line help is in ``COMMANDS`` here, the only place, so
that listing the commands imports none of them. Modules are imported only when
their command runs, so ``report`` never loads the offline model or the openai
client.
"""
from __future__ import annotations

import argparse
import importlib
import sys

# command -> its one-line help (module vital_core.cli.commands.<command>)
COMMANDS = {
    "report": "Print the paper's tables for scored results (release layout, folder or results file).",
    "agreement": "Compare two importance labellings of the same decompositions.",
    "score": "Score responses with a backend; resumable batch run.",
    "perturb": "Fill in missing and wrong variants of normal responses.",
    "label": "Relabel importance of records that already have a decomposition.",
}


class UsageError(Exception):
    """Bad command-line input: printed as ``vital_core COMMAND: error: ...``, exit 2."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only ``command``'s module is imported (the rest show their help line)."""
    parser = argparse.ArgumentParser(prog="python -m vital_core", description="VITAL Explorer commands: score responses, report metrics, compare labellings.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            module = importlib.import_module(f"vital_core.cli.commands.{name}")
            module.add_arguments(p)
            p.set_defaults(_module=module, _parser=p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args = parser.parse_args(argv)
    try:
        return int(args._module.run(args) or 0)
    except UsageError as exc:
        args._parser.print_usage(sys.stderr)
        print(f"{parser.prog} {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
