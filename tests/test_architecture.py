"""The manual's architecture drawing is true: every room (a folder, or a module at the package's
root) is on one floor and every import from one room to another points to a lower floor; inside a
folder, every module is drawn once and imports only lower modules of that folder. Function-level
imports count, so there is no import cycle."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sgfcheck"
DRAWING = ROOT / "docs" / "architecture.md"
FLOOR = re.compile(r"^floor\s+(\d+):\s*([\w/, ]+?)\s+--", re.M)


def _floors(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in FLOOR.finditer(text):
        for name in m.group(2).split(","):
            name = name.strip().rstrip("/")
            assert name not in out, f"{name} drawn twice"
            out[name] = int(m.group(1))
    return out


def drawing() -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """The floors of the rooms, and the floors of the modules inside each folder."""
    text = DRAWING.read_text(encoding="utf-8")
    top = text[text.index("## Floors"):text.index("## Inside the folders")]
    inside: dict[str, dict[str, int]] = {}
    for section in re.split(r"^### ", text[text.index("## Inside the folders"):], flags=re.M)[1:]:
        name = section.split("\n", 1)[0].strip().rstrip("/")
        inside[name] = _floors(section)
    return _floors(top), inside


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name below ``sgfcheck`` (``run.batch``)."""
    return {".".join(p.relative_to(PACKAGE).with_suffix("").parts): p
            for p in PACKAGE.rglob("*.py")}


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules a module imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and (
                node.module == "sgfcheck" or node.module.startswith("sgfcheck.")):
            base = node.module.split(".", 1)[1] if "." in node.module else ""
            for alias in node.names:
                name = f"{base}.{alias.name}" if base else alias.name
                if name in known:
                    found.add(name)  # from sgfcheck.judge import benson
            if base:
                found.add(base)
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".", 1)[1] for a in node.names
                         if a.name.startswith("sgfcheck."))
    return {name for name in found if name in known}


def room(module: str) -> str:
    return module.split(".", 1)[0]


def test_every_room_and_module_is_drawn_once() -> None:
    rooms, inside = drawing()
    known = modules()
    assert set(rooms) == {room(m) for m in known if m != "__init__"}
    folders = {room(m) for m in known if "." in m}
    assert set(inside) == folders
    for folder in folders:
        assert set(inside[folder]) == {m.split(".", 1)[1] for m in known
                                       if m.startswith(folder + ".")} - {"__init__"}, folder


def test_imports_point_down() -> None:
    rooms, inside = drawing()
    known = modules()
    upward = []
    for name, path in known.items():
        if name == "__init__":
            continue  # the public face: it names what the floors hold, imported when used
        for dep in imports(path, known) - {name}:
            if dep == "__init__":
                upward.append(f"{name} imports the package's face")
            elif room(dep) != room(name):
                if rooms[room(dep)] >= rooms[room(name)]:
                    upward.append(f"{name} (floor {rooms[room(name)]}) imports {dep} "
                                  f"(floor {rooms[room(dep)]})")
            elif name.endswith(".__init__"):
                continue  # a folder's face may name its own modules
            else:
                folder = inside[room(name)]
                mine, theirs = name.split(".", 1)[1], dep.split(".", 1)[1]
                if theirs == "__init__" or folder[theirs] >= folder[mine]:
                    upward.append(f"{name} (floor {folder[mine]}) imports {dep}")
    assert upward == []


def test_every_folder_says_what_it_holds() -> None:
    for init in PACKAGE.glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.relative_to(ROOT)} says nothing of what the folder holds"


def test_the_package_cites_nothing_outside_the_repository() -> None:
    # A clone has no ../shared: the package names the manual, never a path beside the repository.
    for path in [*PACKAGE.rglob("*.py"), *PACKAGE.glob("*.c")]:
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "shared/docs" not in text, path


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
    # .pre-commit-hooks.yaml: pre-commit reads a hook repository's hooks only there.
    assert top <= {".ci", ".gitignore", "README.md", "pyproject.toml", "sgfcheck", "tests",
                   "fixtures", "bench", "docs", "mkdocs.yml", ".pre-commit-hooks.yaml"}, \
        sorted(top)


def test_only_the_core_module_asks_which_core_runs() -> None:
    """Every hot loop is a ``core.door`` with its compiled and pure implementations: no other
    module reads which core is built or chosen, nor imports the compiled one itself."""
    asking = re.compile(r"\bcore\.(BUILT|_chosen|compiled)\b|sgfcheck\._core|from sgfcheck "
                        r"import _core")
    found = [f"{path.relative_to(ROOT)}: {m.group(0)}"
             for path in sorted(PACKAGE.rglob("*.py")) if path.name != "core.py"
             for m in asking.finditer(path.read_text(encoding="utf-8"))]
    assert found == []
    doors = [path.relative_to(PACKAGE).as_posix() for path in sorted(PACKAGE.rglob("*.py"))
             if "core.door(" in path.read_text(encoding="utf-8")]
    assert doors == ["endgame/localgame.py", "judge/benson.py", "judge/playout.py",
                     "position/analysis.py", "position/owners.py", "position/referee.py",
                     "records/lines.py", "records/syntax.py", "replay/board.py",
                     "replay/replay.py", "run/symmetry.py"]
