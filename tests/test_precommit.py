"""sgfcheck as a pre-commit hook (.pre-commit-hooks.yaml): pre-commit itself, on a scratch git
repository holding a clean record and one with an illegal move. pre-commit installs the hook from
this repository (``pre-commit try-repo``: its committed and staged files) into a fresh
environment, as a user's repository gets it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_the_hook_passes_a_clean_record_and_fails_an_illegal_one(tmp_path: Path) -> None:
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("git, or this checkout's git repository, is missing")
    repo = tmp_path / "records"
    repo.mkdir()
    shutil.copy(FIXTURES / "scoring-basic.sgf", repo / "clean.sgf")
    shutil.copy(FIXTURES / "ko.sgf", repo / "illegal.sgf")
    (repo / "notes.txt").write_text("not a record: the hook leaves it alone\n")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    for args in (["git", "init", "-q"], ["git", "add", "."], ["git", "commit", "-qm", "records"]):
        assert _run(args, repo, env).returncode == 0
    hook = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "sgfcheck", "--files"]
    clean = _run([*hook, "clean.sgf", "notes.txt"], repo, env)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "sgfcheck (Go game records)" in clean.stdout and "Passed" in clean.stdout
    illegal = _run([*hook, "clean.sgf", "illegal.sgf"], repo, env)
    assert illegal.returncode == 1, illegal.stdout + illegal.stderr
    assert "Failed" in illegal.stdout and "- exit code: 1" in illegal.stdout
    assert "illegal.sgf game 1: ILLEGAL MOVES (1 simple ko)" in illegal.stdout
    assert "clean.sgf game 1: CLEAN" in illegal.stdout
