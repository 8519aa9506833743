"""KataGo as a dead-stone source, a real process over its analysis protocol (installed by
`sgfcheck engines install katago`, needs an OpenCL driver such as Debian's pocl)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import FIXTURES

from sgfcheck.colour import BLACK, WHITE
from sgfcheck.judge.install import opencl_present
from sgfcheck.judge.katago import KataGo, KataGoError, KataGoSetup, dead_from_ownership, find_katago
from sgfcheck.replay.board import Board
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import Settings
from sgfcheck.verdict.decide import Basis


def needs_katago() -> None:
    if find_katago() is None:
        pytest.skip("KataGo is not installed (sgfcheck engines install katago)")
    if not opencl_present():
        pytest.skip("no OpenCL driver (apt-get install ocl-icd-libopencl1 pocl-opencl-icd)")


def test_katago_finds_the_dead_stone_in_territory() -> None:
    needs_katago()
    (game,) = score_file(FIXTURES / "dead-in-territory.sgf",
                         Settings(dead_stones="katago")).games  # type: ignore[arg-type]
    assert game.dead is not None and game.dead.source == "katago"
    assert game.dead.names(game.position.board) == ["H5"]  # type: ignore[union-attr]
    rc = game.result_check
    assert rc is not None and (rc.status, rc.basis, rc.computed) == ("match", Basis.ENGINE,
                                                                     "W+9.5")


def test_katago_is_asked_with_each_side_to_move() -> None:
    # The engine's ownership twice (Black to move, White to move): H5 is dead in both, so it is
    # settled; the count reads the band on both answers (nothing open in a finished game).
    needs_katago()
    (game,) = score_file(FIXTURES / "dead-in-territory.sgf",
                         Settings(dead_stones="katago")).games  # type: ignore[arg-type]
    dead = game.dead
    assert dead is not None and dead.ownership is not None and dead.judgement is not None
    first_black, first_white = dead.ownership
    assert len(first_black) == len(first_white) == 81
    board = game.position.board  # type: ignore[union-attr]
    h5 = board.index(7, 4)
    assert first_black[h5] > 0.5 and first_white[h5] > 0.5  # Black owns H5 either way
    assert dead.uncertain == []
    rc = game.result_check
    assert rc is not None and rc.band is None  # matched exactly before any band was needed
    assert game.bands[0] is not None and (game.bands[0].low, game.bands[0].high) == (-9.5, -9.5)


def test_katago_agrees_with_the_players_markup() -> None:
    needs_katago()
    (game,) = score_file(FIXTURES / "scoring-basic.sgf",
                         Settings(dead_stones="katago")).games  # type: ignore[arg-type]
    assert game.dead is not None
    assert game.dead.names(game.position.board) == ["E3"]  # type: ignore[union-attr]


def test_ownership_to_dead_stones() -> None:
    board = Board(3, 1)
    board.set_stones([0], [2], [])
    # Black's A1 sits on White's point; White's C1 on its own.
    dead, confidence = dead_from_ownership(board, [-0.8, 0.0, -0.9])
    assert dead == {0} and confidence == {0: 0.8, 2: 0.9}
    dead, _ = dead_from_ownership(board, [-0.4, 0.0, -0.9])
    assert dead == set()  # not beyond the 0.5 threshold


def _script(folder: Path, body: str) -> str:
    path = folder / "katago"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_a_failing_katago_is_a_finding_and_the_count_goes_on(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SGFCHECK_KATAGO", _script(tmp_path, "echo 'no model' >&2; exit 1"))
    (game,) = score_file(FIXTURES / "scoring-basic.sgf",
                         Settings(dead_stones="katago")).games  # type: ignore[arg-type]
    (failed,) = [f for f in game.findings if f.code.family == "LIF"]
    assert failed.code.code == "LIF002" and "KataGo stopped while starting" in failed.message
    assert "no model" in failed.message
    assert game.dead is not None and game.dead.source == "none" and game.scores


def test_a_silent_katago_hits_the_start_time_limit(tmp_path: Path) -> None:
    setup = KataGoSetup(Path(_script(tmp_path, "sleep 5")), tmp_path / "m", tmp_path / "c")
    with pytest.raises(KataGoError, match="not ready within 0.5 s"):
        KataGo(setup, start_timeout=0.5)


def test_boards_larger_than_19_are_refused() -> None:
    needs_katago()
    from sgfcheck.judge.katago import engine

    with pytest.raises(KataGoError, match="up to 19x19"):
        engine().ownership(Board(21, 21), BLACK, 6.5, territory=True)
    # The engine is still usable afterwards.
    assert len(engine().ownership(Board(9, 9), WHITE, 6.5, territory=True)) == 81


def test_engines_list_says_what_is_usable() -> None:
    from typer.testing import CliRunner

    from sgfcheck.cli.app import app

    result = CliRunner().invoke(app, ["engines", "list"], env={**os.environ})
    assert "gnugo:" in result.output and "katago:" in result.output
