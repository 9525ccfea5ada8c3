"""The house style, checked with every run of the suite: ruff's pycodestyle errors (E), pyflakes (F) and
import order (I) over the whole repository, as configured in pyproject.toml."""
from __future__ import annotations

import subprocess
import sys

from tests.support.paths import REPO


def test_ruff_finds_nothing():
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                         cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
