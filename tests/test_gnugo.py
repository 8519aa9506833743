"""GNU Go as a dead-stone source: the real program over GTP (installed by .ci/run), and its
failures (missing, crashing, too slow) as findings."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import FIXTURES

from sgfcheck.judge.gnugo import GnuGoError, ask, find_gnugo, position_sgf
from sgfcheck.replay.board import BLACK, Board
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import Settings


def needs_gnugo() -> str:
    binary = find_gnugo()
    if binary is None or not os.access(binary, os.X_OK):
        pytest.skip("GNU Go is not installed (Debian: apt-get install gnugo)")
    return binary


def test_gnugo_finds_the_dead_stone() -> None:
    needs_gnugo()
    (game,) = score_file(FIXTURES / "scoring-basic.sgf",
                         Settings(compare=("chinese",), dead_stones="gnugo")).games
    assert game.dead is not None and game.dead.source == "gnugo"
    assert game.dead.names(game.position.board) == ["E3"]  # type: ignore[union-attr]
    assert game.result_check is not None and game.result_check.status == "match"


def test_position_is_sent_as_setup() -> None:
    board = Board(5, 5)
    board.set_stones([0, 1], [24], [])
    assert position_sgf(board, BLACK, 6.5) == "(;GM[1]FF[4]SZ[5]KM[6.5]AB[aa][ba]AW[ee]PL[B])"


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "fake-gnugo"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_crash_timeout_and_missing_program(tmp_path: Path) -> None:
    board = Board(9, 9)
    with pytest.raises(GnuGoError, match="failed"):
        ask(board, BLACK, 6.5, binary=_script(tmp_path, "echo boom >&2; exit 3"))
    with pytest.raises(GnuGoError, match="did not answer within 0.5 s"):
        ask(board, BLACK, 6.5, binary=_script(tmp_path, "sleep 5"), timeout=0.5)
    with pytest.raises(GnuGoError, match="not found"):
        ask(board, BLACK, 6.5, binary=str(tmp_path / "nowhere"))
    with pytest.raises(GnuGoError, match="square boards up to 19x19"):
        ask(Board(19, 13), BLACK, 6.5, binary="gnugo")


def test_failure_is_a_finding_and_the_count_goes_on(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SGFCHECK_GNUGO", _script(tmp_path, "exit 1"))
    (game,) = score_file(FIXTURES / "scoring-basic.sgf",
                         Settings(compare=("chinese",), dead_stones="gnugo")).games
    assert [f.code.code for f in game.findings if f.code.code.startswith("LIF")] == [
        "LIF001"]
    assert game.dead is not None and game.dead.source == "none"
    assert game.result_check is not None and game.result_check.status == "unverifiable"


def test_an_engine_named_and_not_asked_is_said() -> None:
    # Issue 62: --engine katago could leave the engine unasked without a word (no chain under
    # the threshold), the answer still "on sgfcheck's estimate".
    from sgfcheck.scoring.adjudicate import score_file
    from sgfcheck.settings import Settings

    for engine, name in (("gnugo", "GNU Go"), ("katago", "KataGo")):
        (game,) = score_file(FIXTURES / "seki.sgf", Settings(
            dead_stones="estimate", engine=engine)).games  # type: ignore[arg-type]
        assert game.dead is not None
        assert (f"{name} not asked (--engine {engine}): every chain the estimate decided is at "
                "least 0.7 sure, none uncertain; the dead stones are the estimate's") \
            in game.dead.notes
