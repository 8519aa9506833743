"""README's architecture drawing is true: every module is on one floor, every import (function
level included) points to a lower floor, so there is no import cycle."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sgfcheck"


def floors() -> dict[str, int]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Architecture"):]
    out: dict[str, int] = {}
    for m in re.finditer(r"^floor\s+(\d+):\s*([\w, ]+?)\s+--", section, re.M):
        for name in m.group(2).split(","):
            assert name.strip() not in out, f"{name} drawn twice"
            out[name.strip()] = int(m.group(1))
    return out


def imports(path: Path) -> set[str]:
    """sgfcheck modules a module imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            if parts[0] != "sgfcheck":
                continue
            if len(parts) > 1:
                found.add(parts[1])
            else:
                found.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names
                         if a.name.startswith("sgfcheck."))
    return {name for name in found if (PACKAGE / f"{name}.py").exists()}


def test_every_module_is_drawn_once() -> None:
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert set(floors()) == modules


def test_imports_point_down() -> None:
    floor = floors()
    upward = []
    for name, level in floor.items():
        for dep in imports(PACKAGE / f"{name}.py") - {"__init__", name}:
            if floor[dep] >= level:
                upward.append(f"{name} (floor {level}) imports {dep} (floor {floor[dep]})")
    assert upward == []


def test_the_top_of_the_tree_holds_only_the_project() -> None:
    """What git tracks at the top is the design card's layout (an output file of a test run was
    once committed there by mistake)."""
    import shutil
    import subprocess

    import pytest

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git work tree")
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.splitlines()
    top = {name.split("/", 1)[0] for name in listed}
    assert top <= {".ci", ".gitignore", "README.md", "pyproject.toml", "sgfcheck", "tests",
                   "fixtures", "bench", "docs"}, sorted(top)
