"""Shared helpers: where the fixtures and the shared corpus are."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sgfcheck import core
from sgfcheck.replay.check import GameReport, check_bytes, check_file
from sgfcheck.settings import Settings

# Text output fits the terminal (COLUMNS, else the terminal's width): tests read it at 100.
os.environ["COLUMNS"] = "100"

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"

COMPILED = core.BUILT
"""The compiled core, or None. It is an optional build: the tests of it skip, saying so, where
it is not built, except under ``SGFCHECK_REQUIRE_COMPILED=1`` (CI), where its absence fails."""
if COMPILED is None and os.environ.get("SGFCHECK_REQUIRE_COMPILED") == "1":
    raise RuntimeError(f"SGFCHECK_REQUIRE_COMPILED=1 but {core.describe()}")
needs_compiled = pytest.mark.skipif(COMPILED is None,
                                    reason=f"compiled core not in use: {core.describe()}")


def corpus_dir(*parts: str) -> Path:
    """A folder of ../shared/corpus, or skip the test (saying so) when it is absent."""
    path = CORPUS.joinpath(*parts)
    if not path.is_dir():
        pytest.skip(f"shared corpus not found at {path}")
    return path


def game(name: str, **options: object) -> GameReport:
    """Check one fixture and return its only game."""
    report = check_file(FIXTURES / name, Settings(**options))  # type: ignore[arg-type]
    assert len(report.games) == 1
    return report.games[0]


def game_of(data: bytes, **options: object) -> GameReport:
    report = check_bytes(data, "<test>", Settings(**options))  # type: ignore[arg-type]
    assert len(report.games) == 1, report.findings
    return report.games[0]


def codes(report: GameReport, prefix: str = "") -> list[tuple[str, int | None, str | None]]:
    """(code, move, point) of every finding whose code starts with prefix."""
    return [(f.code.code, f.move, f.point) for f in report.findings
            if f.code.code.startswith(prefix)]


# --- a real browser for the pages (tests/test_pages.py, tests/test_view.py) ------------------

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]


def _chromium() -> str | None:
    return os.environ.get("SGFCHECK_CHROMIUM") or shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    executable = _chromium()
    if executable is None:
        pytest.skip("Chromium not found (Debian: apt-get install chromium; or set "
                    "SGFCHECK_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield b
        b.close()
