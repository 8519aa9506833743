"""The count as a band (sgfcheck.counting.band): settled, open and dame points, the move in hand,
unsettled chains; and the verdicts read on it (sgfcheck.verdict.decide).

Positions built for it: fixtures/open-boundary-9x9.sgf (Black's wall on the D line with a gap at
D5, White's wall on the E line), fixtures/unfinished.sgf, fixtures/dead-in-territory.sgf."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.counting.band import band_of
from sgfcheck.counting.count import count
from sgfcheck.margins import band_text
from sgfcheck.output.reasons import sentence as said
from sgfcheck.position.analysis import Position
from sgfcheck.position.owners import PointOwners, point_owners
from sgfcheck.scoring.adjudicate import GameScore, score_file
from sgfcheck.settings import Settings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
runner = CliRunner()


def scored(path: Path, **options: object) -> GameScore:
    settings = Settings(compare=("japanese", "chinese"), **options)  # type: ignore[arg-type]
    (game,) = score_file(path, settings).games
    return game


def built_ownership(game: GameScore) -> tuple[list[float], list[float]]:
    """Ownership a player reads off the open-boundary position: columns A-C Black's whoever
    moves first, but C5 (White pushes in through D5 when he moves first); D5 nobody's; columns
    E-J White's."""
    assert game.position is not None
    board = game.position.board
    first_black, first_white = [], []
    for p in range(board.width * board.height):
        col, row = p % board.width, p // board.width
        name = board.name(p)
        if name == "C5":
            first_black.append(1.0)
            first_white.append(-1.0)
        elif name == "D5":
            first_black.append(0.0)
            first_white.append(0.0)
        elif col <= 3:
            first_black.append(1.0)
            first_white.append(1.0)
        else:
            first_black.append(-1.0)
            first_white.append(-1.0)
        del row
    return first_black, first_white


def test_settled_open_and_dame_points_of_a_built_position() -> None:
    game = scored(FIXTURES / "open-boundary-9x9.sgf")
    assert game.position is not None
    board = game.position.board
    ownership = built_ownership(game)
    owners = point_owners(game.position, ownership)
    # The 27 points left of the wall reach White's E5 through D5: the count gives them nobody.
    assert len(owners.settled) == 26 and set(owners.settled.values()) == {1}
    assert [board.name(p) for p in owners.open] == ["C5"]
    assert [board.name(p) for p in owners.dame] == ["D5"]
    # Each row's count is the solved count: Black, to move (no move is recorded), seals at D5
    # and the 27 points on the left are his: White 36 + 6.5, Black 27 (Japanese) or 9 stones
    # + 27 (Chinese) against White's 9 + 36 + 6.5: W+15.5 both.
    japanese, chinese = game.scores
    assert (japanese.result_text, chinese.result_text) == ("W+15.5", "W+15.5")
    counts = game.worked.counts
    assert counts is not None
    rep, handicap = game.check.replay, game.check.game.handicap
    assert rep is not None
    # As it stands W+42.5 (the 27 points reach E5 through D5); with the 26 settled points
    # W+16.5, the count the band is made around. Japanese, stopped before two passes: C5 one
    # point each way, and the move in hand one more.
    assert count(game.position, rep, japanese.ruleset, handicap).result_text == "W+42.5"
    settled = counts.settled_count(japanese.ruleset)
    assert (settled.result_text, settled.black.settled) == ("W+16.5", 26)
    band = band_of(settled.margin, settled.method.counts_stones, owners, finished=False)
    assert (band.settled, band.low, band.high) == (-16.5, -18.5, -14.5)
    assert band_text(band, board.name) == "W+14.5 .. W+18.5: open at C5"
    # Had the game ended with two passes, it would be counted as it stands (W+42.5, W+43.5):
    # no move in hand; D5 is worth nothing under territory counting, one point (the odd dame)
    # under area counting; and the band holds the count as it stands.
    as_it_stands = count(game.position, rep, japanese.ruleset, handicap)
    band = band_of(as_it_stands.margin, as_it_stands.method.counts_stones, owners, finished=True)
    assert (band.settled, band.low, band.high) == (-42.5, -42.5, -15.5)
    area = count(game.position, rep, chinese.ruleset, handicap)
    band = band_of(area.margin, area.method.counts_stones, owners, finished=True)
    assert (band.settled, band.low, band.high) == (-43.5, -43.5, -15.5)
    # Without any ownership (an engine that gives none) every point the count gives nobody
    # is open but the dame.
    band = band_of(as_it_stands.margin, as_it_stands.method.counts_stones,
                   point_owners(game.position, None), finished=True)
    assert (band.settled, band.low, band.high) == (-42.5, -69.5, -15.5)


def test_the_estimate_reads_the_open_boundary_from_both_sides() -> None:
    # RE[W+16.5] lies in the band, which White wins throughout: a match on the band. The last
    # points played out as well as possible by both sides (Black to move seals at D5) give
    # W+15.5, a point from RE: more than half a point, so not a match on the solved count
    # (RES105); the reason names it, and says the winner is confirmed, not the margin.
    game = scored(FIXTURES / "open-boundary-9x9.sgf")
    rc = game.result_check
    assert rc is not None and rc.band is not None
    assert (rc.status, rc.code, rc.reproduced, rc.computed) == ("match", "RES104", "band",
                                                                "W+15.5")
    assert said(rc) == (
        "the recorded result lies in the count's band (W+14.5 .. W+18.5: open at C5, japanese "
        "with komi 6.5); the solved count is W+15.5 (the last 5 open points (C6, B5, C5, D5, C4) "
        "played out as well as possible by both sides, 23 settled points not yet enclosed taken "
        "as their owner's): the winner is confirmed, not the margin")
    assert rc.finish is not None and rc.finish.line[0][1] is not None
    assert (rc.band.low, rc.band.high) == (-18.5, -14.5)
    assert [game.position.board.name(p) for p in rc.band.open_points] == ["C5"]  # type: ignore[union-attr]
    life = runner.invoke(app, ["life", str(FIXTURES / "open-boundary-9x9.sgf"), "--format",
                               "json"])
    points = json.loads(life.output)["games"][0]["points"]
    assert points["open"] == ["C5"] and points["dame"] == ["D5"]
    assert len(points["settled"]["black"]) == 26 and points["settled"]["white"] == []


def test_score_json_gives_each_row_its_band() -> None:
    result = runner.invoke(app, ["score", str(FIXTURES / "open-boundary-9x9.sgf"), "--compare",
                                 "japanese,chinese", "--format", "json"])
    game = json.loads(result.output)["games"][0]
    bands = {s["ruleset"]: s["band"] for s in game["scores"]}
    assert (bands["japanese"]["settled"], bands["japanese"]["low"],
            bands["japanese"]["high"]) == (-15.5, -18.5, -14.5)
    assert bands["japanese"]["open"] == ["C5"] and bands["japanese"]["unsettled"] == []
    assert bands["japanese"]["text"] == "W+14.5 .. W+18.5: open at C5"
    assert game["result_check"]["band"]["text"] == "W+14.5 .. W+18.5: open at C5"


def test_a_finished_game_with_a_wrong_margin_is_a_mismatch(tmp_path: Path) -> None:
    # Two passes, every chain settled, nothing open: the band is one value (W+9.5), and a
    # server's W+10.5 is a point off: a wrong margin, the winner right.
    path = tmp_path / "off.sgf"
    path.write_bytes((FIXTURES / "dead-in-territory.sgf").read_bytes().replace(
        b"RE[W+9.5]", b"RE[W+10.5]"))
    game = scored(path)
    rc = game.result_check
    assert rc is not None and rc.finished
    assert rc.band is not None and (rc.band.low, rc.band.high) == (-9.5, -9.5)
    assert rc.status == "mismatch"
    assert said(rc).startswith("computed W+9.5 (japanese with komi 0.5), recorded W+10.5: the "
                                "recorded result lies 1 point(s) outside the count's band")


def test_a_winner_alone_is_read_on_the_bands_sign(tmp_path: Path) -> None:
    # unfinished.sgf: band W+8.5 .. W+10.5, White wins throughout.
    for result, status in (("W+", "match"), ("B+", "mismatch")):
        path = tmp_path / f"{result[0]}.sgf"
        path.write_bytes((FIXTURES / "unfinished.sgf").read_bytes().replace(
            b"RE[W+10.5]", f"RE[{result}]".encode()))
        rc = scored(path).result_check
        assert rc is not None and rc.status == status, (result, said(rc))


def test_each_positions_owners_are_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 64: the points a count gives nobody were read again for every reading, way and row
    (about 90 times a professional game); now once for each position the judgement weighs (the
    position as judged, each way its doubtful chains may go)."""
    from sgfcheck.counting import band, judged
    from sgfcheck.scoring import adjudicate
    from sgfcheck.verdict import weighing

    seen: list[int] = []
    real = point_owners

    def counted(position: Position, ownership: Any) -> PointOwners:
        seen.append(id(position))
        return real(position, ownership)

    for module in (adjudicate, band, judged, weighing):  # wherever the judgement reads them
        if hasattr(module, "point_owners"):
            monkeypatch.setattr(module, "point_owners", counted)
    # ko.sgf: five chains the estimate leaves uncertain, so several ways and readings weighed.
    game = scored(FIXTURES / "ko.sgf", dead_stones="estimate", engine="none")
    assert game.result_check is not None and len(game.worked.ways) >= 3
    assert len(seen) == len(set(seen)) >= 1 + len(game.worked.ways)


def test_each_way_is_counted_on_its_own_position_once() -> None:
    """The counts of the ways the doubtful chains may go are kept once a way (a judged game asks
    for each several times: its score, its outcome, its band), each the count of its own
    position. rectangle.sgf under Chinese rules, judged W+7.5 with the lone stones at T1 (Black)
    and A13 (White) in doubt: T1 dead takes Black's stone off, W+8.5; A13 dead takes White's,
    W+6.5; both, W+7.5."""
    game = score_file(FIXTURES / "rectangle.sgf",
                      Settings(dead_stones="estimate", engine="none")).games[0]
    counts = game.worked.counts
    assert counts is not None
    chinese = game.scores[0].ruleset
    assert (chinese.name, game.scores[0].result_text) == ("chinese", "W+7.5")
    counted = [(way.how, counts.settled_count(chinese, way).result_text)
               for way in game.worked.ways]
    assert counted == [("B T1 dead", "W+8.5"), ("W A13 dead", "W+6.5"),
                       ("W A13, B T1 dead", "W+7.5")]
    for way in game.worked.ways:
        assert counts.settled_count(chinese, way) is counts.settled_count(chinese, way)
