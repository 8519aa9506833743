"""Bent four in the corner (sgfcheck.judge.bentfour): found in each corner of a position built
for it, not where the bend is not the corner or the walls do not live; dead as it stands under
the japanese rules (bent_four_dead), the seki it looks like where the rules have it played out;
and the referee's count of fixtures/referee-bent-four-9x9.sgf, point by point."""

from __future__ import annotations

from conftest import FIXTURES
from test_referee import diagram, referee_diagram, results, scored
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.colour import BLACK, WHITE
from sgfcheck.judge.bentfour import bent_fours
from sgfcheck.replay.board import Board
from sgfcheck.rules.presets import PRESETS
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import DeadStoneChoice, EngineName, Settings
from sgfcheck.status import Source, Status

runner = CliRunner()

# White's corner A4-C4-C1 around Black's A1-A3, sharing B1 and B3; Black's walls D and row 5.
CORNER = """
.....XO..
.....XO..
.....XO..
.....XO..
XXXXXXO..
OOOX.XO..
X.OX.XO..
XOOX.XO..
X.OX.XO..
"""


def board_of(text: str) -> Board:
    rows = [line.strip() for line in text.strip().splitlines()]
    colours = [{"X": BLACK, "O": WHITE}.get(c, 0) for row in rows for c in row]
    return Board.from_colours(len(rows[0]), len(rows), colours, 0)


def turned(text: str, times: int) -> str:
    """The position turned a quarter clockwise ``times`` times."""
    rows = [line.strip() for line in text.strip().splitlines()]
    for _ in range(times):
        rows = ["".join(row[c] for row in reversed(rows)) for c in range(len(rows[0]))]
    return "\n".join(rows)


def found(text: str, lives: bool = True) -> list[tuple[str, list[str], str]]:
    board = board_of(text)
    return [(board.name(s.corner), sorted(board.name(p) for p in s.defender),
             board.name(s.sacrifice)) for s in bent_fours(board, lambda chain: lives)]


def test_bent_four_is_found_in_each_corner() -> None:
    assert found(CORNER) == [("A1", ["A4", "B2", "B4", "C1", "C2", "C3", "C4"], "B1")]
    # The same shape in the other three corners: the corner point and Black's sacrifice turn
    # with it (the liberty beside the corner on the short arm's edge).
    assert [found(turned(CORNER, n))[0][::2] for n in (1, 2, 3)] == [
        ("A9", "A8"), ("J9", "H9"), ("J1", "J2")]


def test_no_bent_four_off_the_corner_or_with_walls_that_may_die() -> None:
    # One line up from the edge: the space Black's sacrifice leaves is bent four, but its bend
    # is not the corner point: White lives.
    up = "\n".join([*CORNER.strip().splitlines()[1:], "XXXXXXO.."])
    assert found(up) == []
    # Walls that do not live on their own: a capturing race, not bent four.
    assert found(CORNER, lives=False) == []
    # Black's stone A2 missing: A1 and A3 are two chains, no standoff.
    assert found(CORNER.replace("XOOX.XO..", ".OOX.XO..")) == []


def test_bent_four_is_dead_under_japanese_rules_and_a_seki_elsewhere() -> None:
    assert PRESETS["japanese"].bent_four_dead and not PRESETS["korean"].bent_four_dead
    assert not any(PRESETS[n].bent_four_dead for n in ("chinese", "aga", "tromp-taylor"))
    name = FIXTURES / "referee-bent-four-9x9.sgf"
    japanese = score_file(name, Settings(dead_stones=DeadStoneChoice.ESTIMATE)).games[0]
    assert japanese.dead is not None and japanese.dead.judgement is not None
    board = japanese.position.board
    assert japanese.dead.names(board) == ["A4", "B2", "B4", "C1", "C2", "C3", "C4"]
    decided = {board.name(c.stones[0]): (c.status, c.source)
               for c in japanese.dead.judgement.chains if c.source is Source.RULES}
    assert decided == {"A4": (Status.DEAD, Source.RULES), "A3": (Status.ALIVE, Source.RULES)}
    assert ("bent four in the corner at A1 (W A4): dead as it stands under the japanese rules "
            "(Black may start the ko at B1 when he likes; White never can)") in japanese.dead.notes
    assert japanese.scores[0].result_text == "B+15.5"
    assert japanese.result_check is not None and japanese.result_check.status == "match"
    # Under the chinese rules it must be played out: left so, the seki it looks like.
    # (The estimate's judgement alone: the record's RE is the japanese count, so a mismatch
    # here would be put to KataGo, where installed, under --engine auto.)
    chinese = score_file(name, Settings(rules="chinese", dead_stones=DeadStoneChoice.ESTIMATE,
                                        engine=EngineName.NONE)).games[0]
    assert chinese.dead is not None and chinese.dead.points == set()
    assert chinese.scores[0].result_text == "B+4.5"
    assert any(n.endswith("the chinese rules have it played out (a ko Black may start at B1); "
                          "as it stands it counts as a seki") for n in chinese.dead.notes)
    shown = runner.invoke(app, ["life", str(name), "--dead-stones", "estimate"])
    assert shown.exit_code == 0
    assert "W         dead      rules" in shown.output


def test_the_referees_count_of_bent_four_marked_dead() -> None:
    # The players marked White's corner dead (TB): Black's A1-A3 stay; B1, B3 and the points
    # of the dead stones are Black's territory.
    game = scored("referee-bent-four-9x9.sgf")
    assert referee_diagram(game) == diagram("""
        bbbbbXOww
        bbbbbXOww
        bbbbbXOww
        bbbbbXOww
        XXXXXXOww
        bbbXbXOww
        XbbXbXOww
        XbbXbXOww
        XbbXbXOww
    """)
    assert results(game) == {"japanese": "B+15.5", "chinese": "B+20.5", "aga": "B+15.5"}
    assert game.result_check is not None and game.result_check.status == "match"
