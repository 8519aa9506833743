"""Shared helpers: where the fixtures and the shared corpus are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sgfcheck.replay.check import GameReport, check_bytes, check_file
from sgfcheck.settings import Settings

# Text output fits the terminal (COLUMNS, else the terminal's width): tests read it at 100.
os.environ["COLUMNS"] = "100"

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"


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
