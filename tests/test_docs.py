"""The manual: it builds as a site with no warning, the README stays a newcomer's page, and every
command is described."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from sgfcheck.cli.app import COMMANDS


def test_the_manual_builds_strict(tmp_path: Path) -> None:
    if shutil.which("mkdocs", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("MkDocs is not installed (pip install -e '.[docs]')")
    # The option tables are made from the command line (mkdocs-typer2 runs `typer` from PATH):
    # the environment is not activated (its bin folder is not on PATH), as for a user who runs
    # .venv/bin/mkdocs build; the manual's hook finds typer beside mkdocs.
    scripts = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p != scripts)
    env = {**os.environ, "PATH": path, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run([str(Path(sys.executable).parent / "mkdocs"), "build", "--strict",
                           "--site-dir", str(tmp_path / "site")], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    reference = (tmp_path / "site" / "reference" / "index.html").read_text(encoding="utf-8")
    for option in ("--rules", "--compare", "--dead-stones", "--engine", "--out-dir",
                   "--limit"):
        assert option in reference, option


def test_the_readme_is_a_newcomers_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 15 * 1024
    quick = readme[readme.index("## Quick start"):readme.index("## Commands")]
    block = quick[quick.index("```sh\n") + 6:quick.index("\n```", quick.index("```sh"))]
    assert len(block.splitlines()) == 2
    for name in COMMANDS:
        assert f"sgfcheck {name}" in readme, name


def test_every_command_is_described_in_the_manual() -> None:
    commands = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    for name in COMMANDS:
        heading = "report merge" if name == "report" else name
        assert f"\n## {heading}\n" in commands, name


def test_every_finding_code_is_in_the_manual() -> None:
    from sgfcheck import findings as F

    table = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0][:3] in ("SGF", "RUL", "LIF", "RES"):
            rows[cells[0]] = cells[1]
    for code in F.ALL_CODES:
        if code.code.startswith("RUL"):
            assert "RUL001-RUL012" in rows
            continue
        assert code.code in rows, code.code
        assert code.severity.value in rows[code.code].split("/"), code.code


def test_console_examples_are_what_sgfcheck_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every example of the manual and the README that runs sgfcheck on a shipped fixture (and
    # writes no file) shows exactly what sgfcheck prints, at 100 columns.
    import shlex

    from typer.testing import CliRunner

    from sgfcheck.cli.app import app

    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    checked = 0
    for page in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        lines = page.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines):
            if not line.startswith("$ sgfcheck "):
                continue
            args = shlex.split(line[2:])[1:]
            if not any(a.startswith("fixtures/") for a in args) or {"-o", "--out", "--html"} \
                    & set(args):
                continue
            end = i + 1
            while end < len(lines) and not lines[end].startswith("$ ") and lines[end] != "```":
                end += 1
            shown = runner.invoke(app, args).output.rstrip("\n").split("\n")
            assert shown == lines[i + 1:end], f"{page.name}: {line}"
            checked += 1
    assert checked >= 6


def test_the_manual_gives_the_schema_version_sgfcheck_writes() -> None:
    # Issue 62: the manual gave 2.1 and 2.2 where the schema was 2.6.
    import re

    from sgfcheck.output.schema import SCHEMA_VERSION

    said = []
    for page in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        text = page.read_text(encoding="utf-8")
        said += [(page.name, v) for v in re.findall(r"schema --version\n(\d+\.\d+)", text)]
        said += [(page.name, v) for v in re.findall(r"schema --version`: (\d+\.\d+)", text)]
        said += [(page.name, v) for v in re.findall(r'"schema": "(\d+\.\d+)"', text)]
    assert said and all(v == SCHEMA_VERSION for _, v in said), said
