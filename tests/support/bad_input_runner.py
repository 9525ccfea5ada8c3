"""How one bad-input case is run and judged (``tests/support/bad_inputs.py`` generates them): a
``Case`` is run as a subprocess in a folder of its own (``run_case``); its ``Outcome`` says whether it ended
as it must: the expected exit status, one error line naming the file and line (or the field / flag), no
traceback, and not one byte of any file it was given changed (inputs and existing outputs alike; a link
still points where it did). A case that must succeed (exit 0) prints no error."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.paths import REPO


@dataclass
class Case:
    name: str
    argv: list[str]                   # after ``python -m vital_core``; names are relative to the case folder
    files: dict[str, bytes]
    code: int                         # the exit status it must end with
    needle: str                       # regex the error must match: file and line, or the field / flag
    links: dict[str, str] = field(default_factory=dict)   # symbolic link -> where it points
    env: dict[str, str] = field(default_factory=dict)     # environment of the run
    secret: str = ""                  # a secret given to the run that no output, message or file may show


@dataclass
class Outcome:
    case: Case
    code: int
    stderr: str
    changed: dict[str, int] = field(default_factory=dict)   # file -> bytes it had, when they changed

    @property
    def traceback(self) -> bool:
        return "Traceback" in self.stderr

    @property
    def named(self) -> bool:
        if self.case.code == 0:     # a case that must succeed: nothing to name, and no error said
            return "error" not in self.stderr
        last = self.stderr.strip().splitlines()[-1] if self.stderr.strip() else ""
        return "error" in self.stderr and bool(re.search(self.case.needle, self.stderr)) and bool(last)

    leaked: bool = False              # the case's secret was in stderr, stdout or a file the run wrote

    @property
    def ok(self) -> bool:
        return self.code == self.case.code and not self.traceback and self.named and not self.changed \
            and not self.leaked and not self.crashed

    @property
    def crashed(self) -> bool:
        """The command's last resort spoke ("error: unexpected ValueError: ..."): no sentence was written for it."""
        return bool(re.search(r"error: unexpected [A-Za-z_.]+:", self.stderr))

    def why(self) -> str:
        return (f"{self.case.name}: exit {self.code} (want {self.case.code}), traceback={self.traceback}, "
                f"named={self.named} /{self.case.needle}/, changed={self.changed}, leaked={self.leaked}, "
                f"crashed={self.crashed}\n"
                f"{self.stderr[-600:]}")


def _env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    env.update(VITAL_CACHE_DIR=str(cache), PYTHONPATH=str(REPO))
    return env


def run_case(case: Case, root: Path) -> Outcome:
    """Write the case's files into a folder of its own, run the command, compare every file after."""
    folder = root / re.sub(r"[^A-Za-z0-9._-]+", "_", case.name)
    for name, data in case.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    folder.mkdir(parents=True, exist_ok=True)
    for name, target in case.links.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).symlink_to(target)
    done = subprocess.run([sys.executable, "-m", "vital_core", *case.argv], cwd=folder,
                          env={**_env(root / ".cache"), **case.env}, capture_output=True, timeout=300)
    changed = {name: len(data) for name, data in case.files.items()
               if not (folder / name).is_file() or (folder / name).read_bytes() != data}
    changed.update({name: 0 for name, target in case.links.items()
                    if not (folder / name).is_symlink() or os.readlink(folder / name) != target})
    secret = case.secret.encode()
    leaked = bool(secret) and (secret in done.stderr + done.stdout or any(
        secret in p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.name not in case.files))
    return Outcome(case, done.returncode, done.stderr.decode("utf-8", "replace"), changed, leaked)
