"""The referee's count (sgfcheck.position.referee): every point of positions built for it, read
as a referee under the Japanese 1989 rules reads them, and the totals under japanese, chinese
and aga (fixtures/referee-*.sgf, each with its count in words in its comment).

Map letters: X O living stones, x o stones of groups in seki; b w territory (dead stones'
points included); s an empty point of a group in seki (not territory); f a point its owner must
still fill (not territory); . dame."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sgfcheck import core
from sgfcheck.cli.app import app
from sgfcheck.colour import BLACK, WHITE
from sgfcheck.counting.count import counted_points
from sgfcheck.output.differences import difference_lines
from sgfcheck.position.referee import referee_map, referee_map_pure
from sgfcheck.replay.board import neighbours_for
from sgfcheck.scoring.adjudicate import GameScore, score_bytes, score_file
from sgfcheck.settings import DeadStoneChoice, Settings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
runner = CliRunner()


def scored(name: str) -> GameScore:
    report = score_file(FIXTURES / name, Settings(compare=("japanese", "chinese", "aga"),
                                                  dead_stones=DeadStoneChoice.MARKUP))
    (game,) = report.games
    return game


def referee_diagram(game: GameScore) -> str:
    assert game.position is not None
    position = game.position
    board = position.board
    japanese = next(s for s in game.scores if s.ruleset.name == "japanese").ruleset
    counted = counted_points(position, japanese)
    seki_stones = set(position.seki_stones[BLACK]) | set(position.seki_stones[WHITE])
    rows = []
    for row in range(board.height):
        line = ""
        for col in range(board.width):
            p = row * board.width + col
            here = position.colour[p]
            if here:
                letter = "X" if here == BLACK else "O"
                line += letter.lower() if p in seki_stones else letter
            elif p in counted.territory:
                line += "b" if counted.territory[p] == BLACK else "w"
            elif p in counted.seki:
                line += "s"
            elif p in counted.fill:
                line += "f"
            else:
                line += "."
        rows.append(line)
    return "\n".join(rows)


def results(game: GameScore) -> dict[str, str]:
    return {s.ruleset.name: s.result_text for s in game.scores}


def diagram(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines())


def test_seki_with_an_eye_each_on_9x9() -> None:
    # A9 (Black's eye) and E9 (White's) belong to groups in seki: no territory under japanese;
    # C9, their shared liberty, is dame.
    game = scored("referee-seki-eyes-9x9.sgf")
    assert referee_diagram(game) == diagram("""
        sx.osoXbb
        xxooooXbb
        OOXXXXXbb
        wOOXbbbbb
        wwOXbbbbb
        wwOXbbbbb
        wwOXbbbbb
        wwOXbbbbb
        wwOXbbbbb
    """)
    assert results(game) == {"japanese": "B+18.5", "chinese": "B+19.5", "aga": "B+18.5"}
    japanese = game.scores[0]
    assert (japanese.black.seki_excluded, japanese.white.seki_excluded) == (1, 1)
    assert game.result_check is not None and game.result_check.status == "match"


def test_seki_without_eyes_on_a_board_seven_lines_wide() -> None:
    # SZ[7:9]: the inner groups share their only liberties C9 and E9 (dame); no special case
    # for a narrow board.
    game = scored("referee-seki-7wide.sgf")
    assert referee_diagram(game) == diagram("""
        Ox.o.xO
        OxxoxxO
        OOxxxOO
        wOOOOOw
        wwwwwww
        OOOOOOO
        XXXXXXX
        bbbbbbb
        bbbbbbb
    """)
    assert results(game) == {"japanese": "W+1.5", "chinese": "W+7.5", "aga": "W+1.5"}


@pytest.mark.parametrize(("name", "shared"), [("referee-seki-column-9x9.sgf", 7),
                                              ("referee-seki-column-19x19.sgf", 17)])
def test_long_chains_in_seki_along_a_column_of_shared_liberties(name: str, shared: int) -> None:
    game = scored(name)
    assert game.position is not None
    board = game.position.board
    lines = referee_diagram(game).splitlines()
    # The shared column is dame down to the hook (Black) and the first line (White outside).
    column = 4 if board.width == 9 else 8
    assert [line[column] for line in lines] == ["."] * shared + ["x", "O"]
    assert all(line[column - 1] in "xO" and line[column + 1] in "oX" for line in lines)
    expected = {"japanese": "W+6.5", "chinese": "W+6.5", "aga": "W+6.5"} if board.width == 9 \
        else {"japanese": "B+31.5", "chinese": "B+31.5", "aga": "B+31.5"}
    assert results(game) == expected
    seki = game.position.seki_stones
    assert (len(seki[BLACK]), len(seki[WHITE])) == ((9, 8) if board.width == 9 else (19, 18))


def test_a_dead_throw_in_in_a_false_eye_is_not_territory() -> None:
    # White's dead stone B9 sits in the false eye that joins A8-B8 to C9-D9 (White C8 cuts):
    # Black must capture it at A9 and fill B9, so neither point is territory; the dead stone
    # is still a prisoner.
    game = scored("referee-throw-in-9x9.sgf")
    assert referee_diagram(game) == diagram("""
        ffXXbbbbb
        XXOXbbbbb
        ..OXXXXXX
        OOOOOOOOO
        wwwwwwwww
        wwwwwwwww
        wwwwwwwww
        wwwwwwwww
        wwwwwwwww
    """)
    japanese = game.scores[0]
    assert (japanese.black.empty, japanese.black.must_fill, japanese.black.dead) == (12, 2, 1)
    assert results(game) == {"japanese": "W+40.5", "chinese": "W+39.5", "aga": "W+38.5"}
    chinese = next(d for d in game.differences if d.other == "chinese")
    assert (chinese.fill, chinese.fill_counted_by, chinese.fill_not_by) == (
        ((BLACK, ("A9", "B9")),), "chinese", "japanese")
    assert ("  2 point(s) Black must still fill (false eyes, connections) at A9, B9 count under "
            "chinese but are not japanese territory") in difference_lines(game.differences)


def test_a_double_ko_seki_owns_no_territory() -> None:
    # Black's A8 group (eye A9, ko at A7/A6) and White's B6 group (eye E6, ko at C6/C7): each
    # ko taken is answered by taking the other, so both live in seki and none of the four
    # points is territory under japanese; under chinese each counts for the colour around it.
    game = scored("referee-double-ko-seki-9x9.sgf")
    assert referee_diagram(game) == diagram("""
        sxoooXbbb
        xxxxoXXbb
        sxoxooXbb
        xososoXbb
        ooooooXbb
        XXXXXXXbb
        bbbbbbbbb
        bbbbbbbbb
        bbbbbbbbb
    """)
    assert results(game) == {"japanese": "B+33.5", "chinese": "B+38.5", "aga": "B+33.5"}
    assert game.result_check is not None and game.result_check.status == "match"


def test_a_seki_with_strings_in_atari_on_both_sides_owns_no_territory() -> None:
    # Hanezeki's principle, on a board 3 lines wide: White's B1-C1-D1 sit in Black's eye, in
    # atari at A1; Black's H1-J1-K1 in White's, in atari at L1. Capturing loses the race (after
    # Black A1, White places at C1: an exact search, both sides to move, finds passing best),
    # so the six stones in atari are alive in seki; A1 and L1 are reached by both colours and
    # F1-F3 are shared liberties: no point is territory, and every row counts stones alike.
    game = scored("referee-atari-seki-11x3.sgf")
    assert referee_diagram(game) == diagram("""
        xxxxx.ooooo
        xxxxx.ooooo
        .ooox.oxxx.
    """)
    assert results(game) == {"japanese": "W+6.5", "chinese": "W+6.5", "aga": "W+6.5"}
    japanese, chinese = game.scores[0], game.scores[1]
    assert (japanese.black.total, japanese.white.total) == (0, 6.5)
    assert (chinese.black.total, chinese.white.total) == (14, 20.5)
    assert game.position is not None
    seki = game.position.seki_stones
    assert (len(seki[BLACK]), len(seki[WHITE])) == (14, 14)
    assert game.result_check is not None and game.result_check.status == "match"


def test_a_loose_eye_is_not_false() -> None:
    # B9 and A8 are single stones joined to the chain only through eyes White cannot play.
    game = scored("referee-loose-eye-9x9.sgf")
    assert referee_diagram(game).splitlines()[:3] == ["bXbXOwwww", "XbXXOwwww", "bXXOOwwww"]
    assert results(game) == {"japanese": "W+62.5", "chinese": "W+61.5", "aga": "W+62.5"}
    japanese = game.scores[0]
    assert (japanese.black.empty, japanese.black.must_fill) == (4, 0)


def test_a_seki_with_a_dead_stone_in_an_eye() -> None:
    # White's dead throw-in B9 sits in Black's eye A9-B9; D9 is shared: both groups in seki.
    game = scored("referee-seki-dead-in-eye-9x9.sgf")
    assert referee_diagram(game).splitlines()[:3] == ["ssx.osoXb", "xxxooooXb", "OOOXXXXXb"]
    assert results(game) == {"japanese": "B+21.5", "chinese": "B+17.5", "aga": "B+22.5"}
    japanese = game.scores[0]
    assert (japanese.black.dead, japanese.black.seki_excluded,
            japanese.white.seki_excluded) == (1, 2, 1)
    assert game.result_check is not None and game.result_check.status == "match"


def test_a_large_corner_eye_holding_dead_stones_is_one_eye() -> None:
    # Each corner eye (five points, three dead stones in it) is one eye, not two: a square four
    # or a bent three once the stones are taken. One eye each and the shared E1, E2: a seki, so
    # none of the ten corner points is territory under japanese (KataGo, asked with each side to
    # move, keeps both groups on the board); under area counting each corner is its owner's.
    game = scored("referee-corner-eye-seki-9x9.sgf")
    assert referee_diagram(game) == diagram("""
        wwwwOXbbb
        wwwwOXbbb
        wwwwOXbbb
        wwwwOXbbb
        wwwwOXbbb
        OOOOOXXXX
        xxxxxoooo
        ssxx.ooss
        sssx.osss
    """)
    assert results(game) == {"japanese": "W+11.5", "chinese": "W+11.5", "aga": "W+11.5"}
    japanese, chinese = game.scores[0], game.scores[1]
    assert (japanese.black.seki_excluded, japanese.white.seki_excluded) == (5, 5)
    assert (japanese.black.total, japanese.white.total) == (18, 29.5)
    assert (chinese.black.total, chinese.white.total) == (37, 48.5)
    assert game.result_check is not None and game.result_check.status == "match"


def test_score_json_gives_every_point_its_reason() -> None:
    result = runner.invoke(app, ["score", str(FIXTURES / "referee-throw-in-9x9.sgf"),
                                 "--format", "json"])
    points = json.loads(result.output)["games"][0]["points"]
    assert points["to_fill"] == {"black": ["A9", "B9"], "white": []}
    assert points["dame"] == ["A7", "B7"]
    assert points["seki"] == {"black": [], "white": []}
    assert len(points["territory"]["black"]) == 10 and len(points["territory"]["white"]) == 45
    seki = json.loads(runner.invoke(app, ["score", str(FIXTURES / "referee-seki-eyes-9x9.sgf"),
                                          "--format", "json"]).output)["games"][0]["points"]
    assert seki["seki"] == {"black": ["A9"], "white": ["E9"]}
    assert seki["dame"] == ["C9"]
    assert seki["seki_stones"]["black"] == ["B9", "A8", "B8"]


def _with_marks(tb: str, re: str) -> bytes:
    """The throw-in position as a server that counts its marks as they stand writes it."""
    data = (FIXTURES / "referee-throw-in-9x9.sgf").read_bytes()
    head, _, _ = data.partition(b"TB[")
    head = head.replace(b"RE[W+40.5]", f"RE[{re}]".encode())
    tw = data[data.index(b"TW["):]
    return head + tb.encode() + tw


def test_a_result_counted_on_the_marks_as_they_stand_is_reproduced_and_the_referee_named() -> None:
    # The marks give Black A9 and B9 as territory (two points a referee would not count): the
    # server's result W+38.5 is reproduced under that reading, with the referee's count and
    # the points where the two part.
    marks = "TB[aa][ba][ea][fa][ga][ha][ia][eb][fb][gb][hb][ib]"
    game, = score_bytes(_with_marks(marks, "W+38.5"), "marks.sgf").games
    check = game.result_check
    assert check is not None
    assert (check.status, check.computed) == ("match", "W+38.5")
    assert check.reading == "japanese with komi 6.5, territory as marked (TB/TW)"
    (note,) = [a for a in check.assumptions if a.code.code == "RES009"]
    assert note.message.endswith("Black's marks count 2 point(s) to fill (A9, B9)")
    assert game.scores[0].result_text == "W+40.5"  # the referee's count, shown as the rows
    # A falsified result is no more reproduced under the marks than under the referee.
    game, = score_bytes(_with_marks(marks, "B+2.5"), "marks.sgf").games
    assert game.result_check is not None and game.result_check.status == "mismatch"


def _random_positions(count: int, seed: int) -> list[tuple[list[int], set[int], int, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        w, h = rng.randint(1, 19), rng.randint(1, 19)
        density = rng.random()
        stone = [0 if rng.random() > density else rng.choice((1, 2)) for _ in range(w * h)]
        dead = {p for p in range(w * h) if stone[p] and rng.random() < 0.15}
        out.append((stone, dead, w, h))
    return out


@pytest.mark.skipif(core.BUILT is None, reason="the compiled core is not built here")
def test_the_compiled_referee_is_the_pure_one() -> None:
    for stone, dead, w, h in _random_positions(1500, 7):
        nbrs = neighbours_for(w, h)
        assert referee_map(stone, dead, w, h, nbrs) == referee_map_pure(stone, dead, w, h, nbrs)
    for path in sorted(FIXTURES.glob("*.sgf")):
        for game in score_bytes(path.read_bytes(), path.name,
                                Settings(dead_stones=DeadStoneChoice.MARKUP)).games:
            if game.position is None or game.dead is None:
                continue
            board = game.position.board
            args = (board.colour, game.dead.points, board.width, board.height, board.neighbours)
            assert referee_map(*args) == referee_map_pure(*args), path.name


def test_narrow_boards_need_no_special_case() -> None:
    # Two lines wide: Black lives with the eyes A8 and B6, White with B3 and A2 (two chains
    # sharing two eyes); every other point is a stone.
    record = (b"(;GM[1]SZ[2:8]KM[0]RU[Japanese]AB[ba][ab][bb][ac][ad][bd]"
              b"AW[ae][be][af][bg][ah][bh];B[];W[])")
    (game,) = score_bytes(record, "narrow.sgf", Settings(
        compare=("japanese", "chinese", "aga"), dead_stones=DeadStoneChoice.MARKUP)).games
    assert referee_diagram(game) == diagram("""
        bX
        XX
        Xb
        XX
        OO
        Ow
        wO
        OO
    """)
    assert results(game) == {"japanese": "jigo (draw)", "chinese": "jigo (draw)",
                             "aga": "jigo (draw)"}


def test_the_python_referee_walks_any_number_of_groups_without_recursion() -> None:
    # A checkerboard of single black stones: 181 groups, every empty point an eye touching
    # four of them. The false-eye search walks from group to group; with recursion it needed a
    # frame per group and failed past Python's limit on large boards (52x52: 1,352 groups).
    import inspect
    import sys

    width = 19
    stone = [1 if (p // width + p % width) % 2 == 0 else 0 for p in range(width * width)]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 80)
    try:
        ref = referee_map_pure(stone, set(), width, width, neighbours_for(width, width))
    finally:
        sys.setrecursionlimit(limit)
    # Every empty point is an eye of Black's one region: territory, none of it false.
    assert ref.territory == bytes(0 if s else BLACK for s in stone)
    assert not any(ref.false_eye) and ref.groups[BLACK] == 1


def test_the_python_wall_tables_are_kept_for_a_few_board_sizes_only() -> None:
    # A hostile collection may hold every size from 1x1 to 52x52 (a 52x52 table is 15 MB).
    from sgfcheck.position import walls

    for width in range(1, 31):
        referee_map_pure([0] * (width * 3), set(), width, 3, neighbours_for(width, 3))
        assert len(walls._WALL_TABLES) <= walls.WALL_TABLES_KEPT
