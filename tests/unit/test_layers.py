"""The layers of docs/architecture.md: the scoring core never imports the app (``explorer``, ``pages``,
``app``) nor ``streamlit``; ``explorer/logic`` never imports ``streamlit``. Read from the source's
syntax tree, so an import inside a function counts too."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.paths import REPO


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, absolute names only (relative ones stay in the package)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
    return found


def violations(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    out = []
    for path in sorted((REPO / folder).rglob("*.py")):
        for line, module in imported_modules(path):
            if module.split(".")[0] in forbidden:
                out.append(f"{path.relative_to(REPO)}:{line} imports {module}")
    return out


@pytest.mark.parametrize("folder, forbidden", [("vital_core", ("explorer", "pages", "app", "streamlit")),
                                               ("explorer/logic", ("streamlit", "pages", "app"))])
def test_no_import_runs_up_a_layer(folder, forbidden):
    assert not violations(folder, forbidden), "\n".join(violations(folder, forbidden))


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def draw():\n    from explorer.logic.figures import write_figures\n    import streamlit as st\n")
    assert [m for _, m in imported_modules(sample)] == ["explorer.logic.figures", "streamlit"]


def test_the_core_holds_none_of_the_apps_wording():
    """The sidebar's words (``APP_*`` terms, the quality sentences) live in ``explorer.logic.backend_wording``."""
    found = [f"{path.relative_to(REPO)}:{node.lineno} defines {name}"
             for path in sorted((REPO / "vital_core").rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             for name in ([t.id for t in node.targets if isinstance(t, ast.Name)] if isinstance(node, ast.Assign)
                          else [node.name] if isinstance(node, ast.FunctionDef) else [])
             if name.startswith("APP_") or name in ("describe_quality", "plain_quality")]
    assert not found, "\n".join(found)
