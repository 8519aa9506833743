"""Life and death: Benson's proofs, seki, and the `sgfcheck life` status map."""

from __future__ import annotations

import json

from conftest import FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.judge.benson import prove, unconditional
from sgfcheck.records.record import load_file
from sgfcheck.replay.board import BLACK, WHITE
from sgfcheck.replay.replay import replay
from sgfcheck.rules.presets import JAPANESE
from sgfcheck.scoring.lifefile import life_file
from sgfcheck.settings import Settings


def final_board(name: str):  # type: ignore[no-untyped-def]
    game = load_file(FIXTURES / name).games[0]
    return replay(game, game.main_line(), JAPANESE).board


def statuses(name: str, **options: object) -> dict[str, tuple[str, str]]:
    report = life_file(FIXTURES / name, Settings(**options))  # type: ignore[arg-type]
    return {c.points[0]: (c.status, c.source) for c in report.games[0].chains}


def test_two_vital_regions_make_a_chain_unconditionally_alive() -> None:
    board = final_board("pass-alive.sgf")
    chains, regions = unconditional(board, BLACK)
    assert [len(c.stones) for c in chains] == [7]
    proof = prove(board)
    assert proof.dead == {board.index(2, 0)}  # C5
    assert statuses("pass-alive.sgf") == {"B5": ("alive", "benson"), "C5": ("dead", "benson")}


def test_three_groups_each_with_two_eyes_are_proven_big_territory_is_not() -> None:
    board = final_board("three-groups.sgf")
    black, _ = unconditional(board, BLACK)
    white, _ = unconditional(board, WHITE)
    assert sorted(len(c.stones) for c in black) == [6, 6, 6]
    # White's group lives by a large territory: alive, but not unconditionally (Benson needs
    # every empty point of a vital region to be a liberty).
    assert white == []


def test_seki_is_reported_as_seki_and_needs_both_sides() -> None:
    s = statuses("seki.sgf", dead_stones="benson")
    assert s["B7"] == ("seki", "seki analysis") and s["D7"] == ("seki", "seki analysis")
    assert s["A5"] == ("unknown", "none") and s["G7"] == ("unknown", "none")
    s = statuses("seki.sgf")  # no markup: the estimate decides the rest
    assert s["B7"] == ("seki", "seki analysis") and s["D7"] == ("seki", "seki analysis")
    assert s["A5"] == ("alive", "estimate") and s["G7"] == ("alive", "estimate")


def test_markup_decides_when_present() -> None:
    s = statuses("scoring-basic.sgf")
    assert s["E3"] == ("dead", "markup")
    assert s["C5"] == ("alive", "markup")


def test_life_command_text_and_json() -> None:
    runner = CliRunner()
    text = runner.invoke(app, ["life", str(FIXTURES / "pass-alive.sgf")])
    assert text.exit_code == 0
    # Row 5 of the board shows the dead white stone (found by its number: a long path in the
    # title above it wraps onto more lines).
    row = next(line for line in text.output.splitlines() if line.startswith("  5 "))
    assert " o " in row
    doc = json.loads(runner.invoke(app, ["life", "--format", "json",
                                         str(FIXTURES / "pass-alive.sgf")]).output)
    chains = doc["games"][0]["chains"]
    assert {(c["points"][0], c["status"], c["source"], c["confidence"]) for c in chains} == {
        ("B5", "alive", "benson", 1.0), ("C5", "dead", "benson", 1.0)}


def test_score_without_markup_removes_only_proven_dead_stones() -> None:
    from sgfcheck.scoring.adjudicate import score_file

    (game,) = score_file(FIXTURES / "pass-alive.sgf",
                         Settings(compare=("chinese",), dead_stones="benson")).games
    assert game.dead is not None and game.dead.source == "benson" and game.dead.assumed
    assert game.dead.names(game.position.board) == ["C5"]  # type: ignore[union-attr]
    japanese = game.scores[0]
    # A5, C5-D5 (the dead stone's point included) and A1-E3: 18 points, + 1 dead stone.
    assert (japanese.black.empty, japanese.black.dead, japanese.black.total) == (18, 1, 19)


def test_estimate_finds_the_dead_stone_and_keeps_the_seki() -> None:
    assert statuses("scoring-basic.sgf", dead_stones="estimate")["E3"] == ("dead", "estimate")
    s = statuses("seki.sgf", dead_stones="estimate")
    assert s["B7"][0] == "seki" and s["D7"][0] == "seki"
    assert s["A5"] == ("alive", "estimate") and s["G7"] == ("alive", "estimate")
    assert statuses("pass-alive.sgf", dead_stones="estimate")["C5"] == ("dead", "benson")
    assert all(v[0] == "alive" for v in statuses("three-groups.sgf",
                                                 dead_stones="estimate").values())


def test_estimate_as_a_score_source() -> None:
    from sgfcheck.scoring.adjudicate import score_file

    (game,) = score_file(FIXTURES / "scoring-basic.sgf",
                         Settings(compare=("chinese",), dead_stones="estimate")).games
    assert game.dead is not None and game.dead.source == "estimate"
    assert game.dead.names(game.position.board) == ["E3"]  # type: ignore[union-attr]
    assert game.result_check is not None and game.result_check.status == "match"
