"""The last open points played out as a referee would (sgfcheck.endgame): positions built
for each claim of the solver, their values worked by hand, and the search over independent regions
checked against a plain exhaustive search of the whole board.

Each position is a 9x9 record of setup stones (AB/AW), PL naming the side to move, KM 0.5, every
chain alive beyond doubt: the judgement is the estimate's (a judgement of the position, so the
rows are solved counts where the last points can be played out). Diagrams: row 9 on top, columns
A-J (no I). Values are given as "as it stands" plus what best play adds."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from conftest import corpus_dir

from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.endgame.finish import Finish, Objective, Outcome
from sgfcheck.endgame.stage import Endgame
from sgfcheck.limits import DEFAULT_LIMITS
from sgfcheck.output.reasons import sentence as said
from sgfcheck.replay.board import Board, neighbours_for
from sgfcheck.scoring.adjudicate import GameScore, score_bytes, score_file
from sgfcheck.settings import Settings

BOTH = ("japanese", "chinese")


def record(diagram: str, to_move: str, result: str = "", ruleset: str = "Japanese",
           moves: str = "", root: str = "") -> bytes:
    """A record of setup stones (``X`` Black, ``O`` White), ``PL`` naming the side to move
    (none where ``to_move`` is empty), then ``moves`` (``;B[fe]``)."""
    rows = [line.strip() for line in diagram.strip().splitlines()]
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # SGF's, up to 52x52
    black = "".join(f"[{letters[c]}{letters[r]}]" for r, row in enumerate(rows)
                    for c, ch in enumerate(row) if ch == "X")
    white = "".join(f"[{letters[c]}{letters[r]}]" for r, row in enumerate(rows)
                    for c, ch in enumerate(row) if ch == "O")
    re = f"RE[{result}]" if result else ""
    player = f"PL[{to_move}]" if to_move else ""
    return (f"(;GM[1]FF[4]SZ[{len(rows)}]KM[0.5]RU[{ruleset}]{re}{root}AB{black}AW{white}"
            f"{player}{moves})").encode()


def game_of(diagram: str, to_move: str, **options: object) -> GameScore:
    result = str(options.pop("result", ""))
    ruleset = str(options.pop("ruleset", "Japanese"))
    moves = str(options.pop("moves", ""))
    root = str(options.pop("root", ""))
    options.setdefault("compare", BOTH)
    options.setdefault("engine", "none")
    report = score_bytes(record(diagram, to_move, result, ruleset, moves, root), "built.sgf",
                         Settings(**options))  # type: ignore[arg-type]
    (game,) = report.games
    return game


def rows(game: GameScore) -> dict[str, tuple[str, bool]]:
    return {s.ruleset.name: (s.result_text, s.solved) for s in game.scores}


def line(game: GameScore, objective: Objective) -> list[str]:
    """The solved line as ``B E5``, ``W pass``."""
    found = finish_for(game, objective)
    assert game.position is not None
    board = game.position.board
    return [("B " if c == BLACK else "W ") + ("pass" if p is None else board.name(p))
            for c, p in found.line]


def finish_for(game: GameScore, objective: Objective) -> Finish:
    return next(f for f in game.finishes if f.objective is objective)


# A lone dame at E5 between Black's wall (D, E1-E4) and White's (F, E6-E9). As it stands:
# territory 27 : 27 (Black A-C, White G-J), area 40 : 40.
LONE_DAME = """
    ...XXO...
    ...XXO...
    ...XXO...
    ...XXO...
    ...X.O...
    ...XOO...
    ...XOO...
    ...XOO...
    ...XOO...
"""


@pytest.mark.parametrize(("to_move", "japanese", "chinese"), [
    ("B", "W+0.5", "B+0.5"),  # territory: the dame is worth nothing; area: the mover's point
    ("W", "W+0.5", "W+1.5"),
])
def test_a_lone_dame(to_move: str, japanese: str, chinese: str) -> None:
    game = game_of(LONE_DAME, to_move)
    assert rows(game) == {"japanese": (japanese, True), "chinese": (chinese, True)}
    area = finish_for(game, Objective.AREA)
    assert area.names == ("E5",) and area.regions == 1
    mover, other = ("B", "W") if to_move == "B" else ("W", "B")
    assert line(game, Objective.AREA) == [f"{mover} E5", f"{other} pass", f"{mover} pass"]
    # Under territory counting the dame changes nothing: the side to move may pass at once.
    assert line(game, Objective.TERRITORY) == [f"{mover} pass", f"{other} pass"]


# Nine dame in a row between two walls, every one beside both: nine regions, each a lone
# dame, however long the string. As it stands: territory 18 : 18, area 36 : 36.
DAME_STRING = """
    .........
    .........
    XXXXXXXXX
    XXXXXXXXX
    .........
    OOOOOOOOO
    OOOOOOOOO
    .........
    .........
"""


@pytest.mark.parametrize(("to_move", "chinese"), [
    ("B", "B+0.5"),  # area: the side to move takes five of the nine (41 : 40)
    ("W", "W+1.5"),  # 40 : 41
])
def test_a_long_dame_string_splits_into_lone_dame(to_move: str, chinese: str) -> None:
    game = game_of(DAME_STRING, to_move)
    assert rows(game) == {"japanese": ("W+0.5", True), "chinese": (chinese, True)}
    area = finish_for(game, Objective.AREA)
    assert area.regions == 9 and len(area.names) == 9
    played = [m for m in line(game, Objective.AREA) if not m.endswith("pass")]
    mover = to_move + " "
    assert len(played) == 9 and sum(m.startswith(mover) for m in played) == 5
    # Under territory counting none of them is worth a move.
    other = "W" if to_move == "B" else "B"
    assert line(game, Objective.TERRITORY) == [f"{to_move} pass", f"{other} pass"]


# A 1-point gote border: E5 open; behind it D5, Black's point if Black takes E5, dame if White
# does. As it stands: territory Black 26 (A, B, C less C5) : White 27; area 39 : 40.
ONE_POINT_GOTE = """
    ...XXO...
    ...XXO...
    ...XXO...
    ...XXO...
    ..X..O...
    ...XOO...
    ...XOO...
    ...XOO...
    ...XOO...
"""


@pytest.mark.parametrize(("to_move", "japanese", "chinese", "first"), [
    # Black E5: D5 Black's (territory 27 : 27, W+0.5; area 41 : 40, B+0.5).
    ("B", "W+0.5", "B+0.5", "B E5"),
    # White E5: D5 dame (26 : 27, W+1.5); area: White E5, Black fills D5 (40 : 41, W+1.5).
    ("W", "W+1.5", "W+1.5", "W E5"),
])
def test_a_one_point_gote_border(to_move: str, japanese: str, chinese: str,
                                 first: str) -> None:
    game = game_of(ONE_POINT_GOTE, to_move)
    assert rows(game) == {"japanese": (japanese, True), "chinese": (chinese, True)}
    assert finish_for(game, Objective.TERRITORY).names == ("D5", "E5")
    assert line(game, Objective.TERRITORY)[0] == first
    assert line(game, Objective.AREA)[0] == first


# Two independent borders: C5 (a 2-point gote: C6 Black's if Black takes C5, C4 White's if White
# does) and G5 (1 point: G6 Black's if Black takes G5, dame if White does). As it stands:
# territory 25 : 18 (B+7), area 37 : 39. The order decides: the bigger first.
TWO_REGIONS = """
    .........
    .........
    ..X...X..
    XX.XXX.XX
    XX.OOX.OO
    OO.OOOOOO
    OOOOOOOOO
    .........
    .........
"""


def test_two_regions_the_bigger_first() -> None:
    # Black first: C5 (+1), White G5 (0): B+8 - 0.5. Taking G5 first would give B+7 only.
    black = game_of(TWO_REGIONS, "B")
    assert rows(black) == {"japanese": ("B+7.5", True), "chinese": ("W+1.5", True)}
    assert line(black, Objective.TERRITORY) == ["B C5", "W G5", "B pass", "W pass"]
    assert black.finishes[0].regions == 2
    # White first: C5 (-1), Black G5 (+1): B+7 - 0.5; area: White gets C5, C4, C6 (42 : 39).
    white = game_of(TWO_REGIONS, "W")
    assert rows(white) == {"japanese": ("B+6.5", True), "chinese": ("W+3.5", True)}
    assert line(white, Objective.TERRITORY)[:2] == ["W C5", "B G5"]


# White's E5 stone is in atari (Black D5, E4, E6); F5 is the ko: Black F5 captures it and may
# not be recaptured at once. As it stands: territory 27 : 18; area 44 : 36, F5 open.
LAST_POINT_KO = """
    ...XXOO..
    ...XXOO..
    ...XXOO..
    ...XXOO..
    ...XO.O..
    ...XXOO..
    ...XXOO..
    ...XXOO..
    ...XXOO..
"""


@pytest.mark.parametrize("ruleset", ["Japanese", "Chinese"])  # simple ko; positional superko
def test_a_last_point_ko(ruleset: str) -> None:
    # Black to move wins the ko: F5 captures (1 prisoner), White has no threat, Black fills
    # E5: territory 27 + 1 : 18 (B+9.5); area 46 : 35 (B+10.5).
    black = game_of(LAST_POINT_KO, "B", ruleset=ruleset)
    assert rows(black) == {"japanese": ("B+9.5", True), "chinese": ("B+10.5", True)}
    assert line(black, Objective.AREA) == ["B F5", "W pass", "B E5", "W pass", "B pass"]
    # White to move connects at F5: 27 : 18 (B+8.5); area 44 : 37 (B+6.5).
    white = game_of(LAST_POINT_KO, "W", ruleset=ruleset)
    assert rows(white) == {"japanese": ("B+8.5", True), "chinese": ("B+6.5", True)}
    assert line(white, Objective.AREA) == ["W F5", "B pass", "W pass"]


def _endgame_of(data: bytes, ko: bool = True) -> tuple[Endgame, Board]:
    """The endgame stage of a record's one game, every stone alive (the estimate is unsure of
    a stone that just took a ko, and the stage is what is under test); ``ko`` False: the same
    state without the ko ban."""
    from types import SimpleNamespace

    from sgfcheck.endgame.stage import play_out, solving
    from sgfcheck.position.analysis import analyse
    from sgfcheck.records.record import load_bytes
    from sgfcheck.replay.check import check_loaded

    (report,) = check_loaded(load_bytes(data, "built.sgf"), Settings()).games
    assert report.replay is not None and report.line is not None
    settled = SimpleNamespace(assumed=False, uncertain=[])
    state = solving(report.game, report.line, report.replay, settled,  # type: ignore[arg-type]
                    True, False, Settings())
    if not ko:
        state = replace(state, ko=-1)
    board = report.replay.board
    return play_out(analyse(board, set()), None, state, Objective), board


def test_the_record_s_last_move_leaves_its_ko_ban() -> None:
    # The record's last move is Black's F5, taking White's E5 in the ko: White, to move, may
    # not take back at once and has no threat; Black connects at E5.
    banned, board = _endgame_of(record(LAST_POINT_KO, "", moves=";B[fe]"))
    assert banned.solving.to_move == WHITE and board.name(banned.solving.ko) == "E5"
    area, territory = banned.of(Objective.AREA), banned.of(Objective.TERRITORY)
    assert area is not None and territory is not None
    assert [board.name(area.ko), board.name(territory.ko)] == ["E5", "E5"]
    # White passes; Black need not connect: under area counting E5 is Black's as it stands,
    # under territory counting it is the last liberty of F5, a point to fill that is nobody's
    # whether Black fills it or not.
    for finish in (area, territory):
        assert [(c.letter, None if p is None else board.name(p)) for c, p in finish.line] == [
            ("W", None), ("B", None)]
    # Without the ban, White would take back at E5 at once and win the ko (Black has no
    # threat): the line the record's own state forbids.
    free, _ = _endgame_of(record(LAST_POINT_KO, "", moves=";B[fe]"), ko=False)
    area = free.of(Objective.AREA)
    assert area is not None and area.ko == -1
    assert [(c.letter, None if p is None else board.name(p)) for c, p in area.line][:3] == [
        ("W", "E5"), ("B", None), ("W", "F5")]
    # A move that takes no stone leaves no ban.
    quiet, _ = _endgame_of(record(LAST_POINT_KO, "", moves=";B[ai]"))
    assert quiet.solving.ko == -1


KO_RECORDS = [  # professional records (pro19) whose last move takes a ko, and what the ban does
    ("Pro/4p/1495724116019999208.sgf", "W+2.5", "RES102", "W+3.5"),
    ("Pro/7p/1465313765019999900.sgf", "W+1.5", "RES102", "W+0.5"),
]


@pytest.mark.parametrize(("name", "recorded", "code", "without"), KO_RECORDS)
def test_a_professional_record_s_ko_ban_gives_its_recorded_result(
        monkeypatch: pytest.MonkeyPatch, name: str, recorded: str, code: str,
        without: str) -> None:
    from pathlib import Path

    import sgfcheck.endgame.stage as stage
    from sgfcheck.scoring.adjudicate import score_file

    path = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "pro19" / name
    if not path.is_file():
        pytest.skip(f"the shared corpus is not beside the repository ({path} is absent)")
    options = Settings(compare=("japanese",), engine="none")  # type: ignore[arg-type]
    (game,) = score_file(path, options).games
    assert game.result_check is not None and game.check.result.raw == recorded
    assert game.result_check.code == code and game.result_check.computed == recorded
    monkeypatch.setattr(stage, "_ko_ban", lambda *args: -1)
    (free,) = score_file(path, options).games
    assert free.result_check is not None and free.result_check.computed == without


def test_a_record_without_passes_says_its_side_to_move_is_assumed() -> None:
    # A Fox record writes no passes: the side to move after its last move (White's F9 here:
    # the position is the 1-point gote border, Black to move) is an assumption, said with the
    # solved count (RES011); a record from elsewhere reads it as written.
    setup = ONE_POINT_GOTE.replace("...XXO...", "...XX....", 1)
    fox = game_of(setup, "", moves=";W[fa]", root="AP[foxwq]", result="W+0.5")
    check = fox.result_check
    assert check is not None and check.code == "RES102"
    assert [a.code.code for a in check.assumptions] == ["RES011"]
    assert check.assumptions[0].message == (
        "the last points were played out with Black to move, the opponent of the last move "
        "(Fox records write no passes: the game may have ended by passes not written)")
    plain = game_of(setup, "", moves=";W[fa]", result="W+0.5").result_check
    assert plain is not None and plain.code == "RES102" and not plain.assumptions


# Black's C5 stone has two liberties: D6 (inside Black's area) and E5 (dame). Once White takes
# E5, Black must fill D6 (teire) or lose C5 and the corner it seals. As it stands: territory
# 28 (rows 7-9 and D6) : 27; area 39 : 41.
POINT_TO_FILL = """
    .........
    .........
    .........
    XXX.XXXXX
    XXOX.OOOO
    OOOOOOOOO
    .........
    .........
    .........
"""


def test_a_point_to_fill() -> None:
    # Black takes the dame: no point to fill (28 : 27, B+0.5; area 40 : 41, W+1.5).
    black = game_of(POINT_TO_FILL, "B")
    assert rows(black) == {"japanese": ("B+0.5", True), "chinese": ("W+1.5", True)}
    assert line(black, Objective.TERRITORY)[0] == "B E5"
    # White takes it, Black fills D6: 27 : 27 (W+0.5); area 39 : 42 (W+3.5).
    white = game_of(POINT_TO_FILL, "W")
    assert rows(white) == {"japanese": ("W+0.5", True), "chinese": ("W+3.5", True)}
    assert line(white, Objective.TERRITORY)[:2] == ["W E5", "B D6"]
    assert "D6" in [white.position.board.name(p)  # type: ignore[union-attr]
                    for p in finish_for(white, Objective.TERRITORY).searched]


def test_the_verdict_rests_on_the_solved_count() -> None:
    # RE equal to the solved count: a match, naming the points played out.
    right = game_of(ONE_POINT_GOTE, "B", result="W+0.5").result_check
    assert right is not None and right.status == "match" and right.reproduced == "solved"
    assert right.code == "RES102"
    assert "the last 2 open points (D5, E5) played out as well as possible" in said(right)
    # RE half a point off (a Fox record's units), its winner the solved count's: the winner is
    # confirmed, not the margin.
    near = game_of(ONE_POINT_GOTE, "B", result="W+1").result_check
    assert near is not None and near.status == "match" and near.code == "RES105"
    assert near.reproduced == "near" and near.delta == 0.5
    assert said(near).startswith("the solved count (W+0.5) gives the recorded winner, 0.5 "
                                  "point from RE[W+1]")
    # A point off: in the band but not the solved count, neither confirmed nor a mismatch (at a
    # point, RES105 matched 18 more professional margins moved by 2 and 3 more flipped winners
    # of games cut short).
    point = game_of(ONE_POINT_GOTE, "B", result="W+1.5").result_check
    assert point is not None and (point.status, point.code) == ("unverifiable", "RES127")
    # Two points off: just outside the band of a game that did not end by two passes: too close
    # to call, never a match (moved by 2, a margin would be confirmed too often), never a
    # mismatch.
    off = game_of(ONE_POINT_GOTE, "B", result="W+2.5").result_check
    assert off is not None and off.status == "unverifiable" and off.code == "RES129"
    # The other winner is never a match, a point away or not.
    for flipped in ("B+0.5", "B+1.5"):
        check = game_of(ONE_POINT_GOTE, "B", result=flipped).result_check
        assert check is not None and check.status != "match", flipped


def test_a_bound_on_work_leaves_the_position_open() -> None:
    game = game_of(TWO_REGIONS, "B", limits=replace(DEFAULT_LIMITS, solver=10))
    assert rows(game)["japanese"][1] is False
    why = finish_for(game, Objective.TERRITORY).why
    assert why == ("playing out the last points needs more than 10 units of work "
                   "(--limit solver=10)")


# --- the decomposition against a plain exhaustive search --------------------------------------


FALLS = 10**4


def plain_value(diagram: str, points: tuple[int, ...], to_move: int,
                territory: bool) -> int | None:
    """Black's margin (no komi) after best play on ``points`` alone, searched over the whole
    board as one game (no regions, no table of values but a memo): captures, no suicide, simple
    ko, two passes end; area: stones and empty points reached by one colour; territory: the
    empty points reached by one colour and the prisoners. The solver's model: a capture of a
    chain with a stone outside ``points`` (a chain the judgement counts alive) ends the count
    with ``FALLS`` for the capturer; at the end, a chain the play made that can never live
    (joined neither to a stone that stood there before nor to an empty point outside ``points``
    that its colour reaches as it stands) is removed as dead, a prisoner under territory
    counting. A line back to a position already on it is scored lost for Black, then for
    White: None where the two differ (the value rests on how the rules end a cycle)."""
    lines = [line.strip() for line in diagram.strip().splitlines()]
    size = len(lines)
    nbrs = neighbours_for(size, size)
    start = tuple(BLACK if ch == "X" else WHITE if ch == "O" else EMPTY
                  for row in lines for ch in row)

    def chain(colour: list[int], p: int) -> tuple[set[int], bool]:
        group, todo, free = {p}, [p], False
        while todo:
            for q in nbrs[todo.pop()]:
                if colour[q] == EMPTY:
                    free = True
                elif colour[q] == colour[p] and q not in group:
                    group.add(q)
                    todo.append(q)
        return group, free

    # What each empty point's region touches as it stands (bits): the solver's walls.
    owner = [0] * len(start)
    for p in range(len(start)):
        if start[p] == EMPTY and not owner[p]:
            area, todo, touch = {p}, [p], 0
            while todo:
                for q in nbrs[todo.pop()]:
                    if start[q] == EMPTY and q not in area:
                        area.add(q)
                        todo.append(q)
                    elif start[q] != EMPTY:
                        touch |= start[q]
            for q in area:
                owner[q] = touch or 4
    outside = set(range(len(start))) - set(points)

    def dead(colour: tuple[int, ...]) -> set[int]:
        """Stones a referee removes: chains the play made that can never live, joined neither
        to a stone that stood there before nor to an empty point outside the points played
        that their colour reaches as it stands."""
        out: set[int] = set()
        grouped: set[int] = set()
        for p in range(len(colour)):
            if colour[p] == EMPTY or p in grouped:
                continue
            group, _ = chain(list(colour), p)
            grouped |= group
            own = colour[p]
            if not any(start[s] == own or any(q in outside and start[q] == EMPTY
                                               and owner[q] & own for q in nbrs[s])
                       for s in group):
                out |= group
        return out

    def count(colour: tuple[int, ...]) -> int:
        margin = 0
        removed = dead(colour)
        if removed:
            margin += sum(1 if colour[p] == WHITE else -1 for p in removed) if territory else 0
            colour = tuple(EMPTY if p in removed else c for p, c in enumerate(colour))
        # Under territory counting the last liberty of a chain in atari is a point its owner
        # must still fill (a ko not yet connected), not territory.
        to_fill: set[int] = set()
        if territory:
            grouped: set[int] = set()
            for p in range(len(colour)):
                if colour[p] != EMPTY and p not in grouped:
                    group, _ = chain(list(colour), p)
                    grouped |= group
                    libs = {q for s in group for q in nbrs[s] if colour[q] == EMPTY}
                    if len(libs) == 1:
                        to_fill |= libs
        seen: set[int] = set()
        for p, c in enumerate(colour):
            if c != EMPTY:
                margin += 0 if territory else (1 if c == BLACK else -1)
            elif p not in seen:
                area, todo, touch = {p}, [p], set()
                while todo:
                    for q in nbrs[todo.pop()]:
                        if colour[q] == EMPTY and q not in area:
                            area.add(q)
                            todo.append(q)
                        elif colour[q] != EMPTY:
                            touch.add(colour[q])
                seen |= area
                if area & to_fill:
                    continue
                if touch == {BLACK}:
                    margin += len(area)
                elif touch == {WHITE}:
                    margin -= len(area)
        return margin

    def value(colour: tuple[int, ...], who: int, passes: int, banned: tuple[int, ...] | None,
              cycle: int) -> tuple[int, int]:
        """(value from here on, the depth of the highest position of the path a line below
        returned to): a line that returns to a position of the path scores ``cycle``; a value
        that rests on a position above this one is not memoised."""
        if passes == 2:
            return count(colour), clear
        key = (colour, who, passes, banned)
        if key in memo:
            return memo[key], clear
        if key in path:
            return cycle, path[key]
        depth = path[key] = len(path)
        best, cyclic = value(colour, 3 - who, passes + 1, None, cycle)
        for p in points:
            if colour[p] != EMPTY:
                continue
            after = list(colour)
            after[p] = who
            taken = 0
            falls = False
            for q in nbrs[p]:
                if after[q] == 3 - who:
                    group, free = chain(after, q)
                    if not free:
                        taken += len(group)
                        falls = falls or not group <= set(points)
                        for s in group:
                            after[s] = EMPTY
            if not chain(after, p)[1]:
                continue  # suicide
            if tuple(after) == banned:
                continue  # simple ko
            if falls:  # a chain the judgement counts alive falls: the count stops there
                child, met = (FALLS if who == BLACK else -FALLS), clear
                best = max(best, child) if who == BLACK else min(best, child)
                continue
            child, met = value(tuple(after), 3 - who, 0, colour if taken == 1 else None, cycle)
            if territory:
                child += taken if who == BLACK else -taken
            cyclic = min(cyclic, met)
            best = max(best, child) if who == BLACK else min(best, child)
        del path[key]
        if cyclic >= depth:
            memo[key] = best
        return best, cyclic

    clear = 10**6  # no position of the path met below
    values = set()
    for cycle in (-1000, 1000):  # a cycle lost for Black, then for White
        memo: dict[tuple[object, ...], int] = {}
        path: dict[tuple[object, ...], int] = {}
        values.add(value(start, to_move, 0, None, cycle)[0])
    return values.pop() if len(values) == 1 else None


def random_border(seed: int) -> str:
    """Black above, White below, a border on rows 4-6 of one of four kinds: random gaps and
    stones; stones of both colours on every row (kos, captures and recaptures); a line of dame
    between walls with gaps; thin walls with stones between."""
    rng = random.Random(seed)
    kind = rng.randrange(4)
    rows = ["." * 9, "." * 9, "X" * 9]
    middle = {0: ("XXXX.", "XO..", "OOOO."), 1: ("XXX.O", "XO.", "OOO.X"),
              2: ("XXXXX.", "...X", "OOOOO."), 3: ("X.", "XO....", "O.")}[kind]
    rows += ["".join(rng.choice(pick) for _ in range(9)) for pick in middle]
    rows += ["O" * 9, "." * 9, "." * 9]
    return "\n".join(rows)


BUILT = {"lone dame": LONE_DAME, "one-point gote": ONE_POINT_GOTE, "two regions": TWO_REGIONS,
         "last-point ko": LAST_POINT_KO, "point to fill": POINT_TO_FILL}
GROUPS = 8
SEEDS = 200
"""Random borders, in groups of SEEDS / GROUPS (each group a test)."""


def compared(diagram: str, most: int) -> tuple[int, list[str]]:
    """The solver's count of ``diagram`` against the plain search, both sides to move, both
    objectives, where the points it plays are at most ``most`` (the plain search is slow) and
    the estimate marks no stone dead (the plain search knows none): (how many were compared,
    what disagreed)."""
    checked, wrong = 0, []
    for to_move in ("B", "W"):
        game = game_of(diagram, to_move)
        if game.dead is not None and game.dead.points:
            continue
        for objective, ruleset in ((Objective.AREA, "chinese"),
                                   (Objective.TERRITORY, "japanese")):
            score = next(s for s in game.scores if s.ruleset.name == ruleset)
            found = finish_for(game, objective) if game.finishes else None
            if found is None or len(found.searched) > most:
                continue  # nothing to play out, or too many points for the plain search
            plain = plain_value(diagram, found.searched, BLACK if to_move == "B" else WHITE,
                                objective is Objective.TERRITORY)
            where = f"{to_move} {objective.value}: solver {found.outcome.value}"
            if plain is None:  # a cycle decides: the solver leaves it open
                if found.outcome is not Outcome.CYCLE:
                    wrong.append(f"{where}, plain: a cycle decides")
            elif abs(plain) >= FALLS // 2:  # best play captures a settled chain
                if found.outcome is not Outcome.CAPTURE:
                    wrong.append(f"{where}, plain: a settled chain falls")
            elif not found.solved:
                wrong.append(f"{where} ({found.why}), plain {plain}")
            elif score.solved and score.margin != plain - 0.5:
                wrong.append(f"{where} {score.margin}, plain {plain - 0.5}")
            checked += 1
    return checked, wrong


@pytest.mark.parametrize("name", BUILT)
def test_the_built_positions_agree_with_a_plain_search(name: str) -> None:
    assert compared(BUILT[name], 7) == (4, [])


@pytest.mark.parametrize("group", range(GROUPS))
def test_random_borders_agree_with_a_plain_search_of_the_whole_board(group: int) -> None:
    """Every random border whose points the plain search can take: the same value, the same
    cycle, the same settled chain falling. (Of the 200, about 120 are compared: a border of
    more than 6 points is too slow for the plain search, and the estimate marks stones dead in
    a few.)"""
    size = SEEDS // GROUPS
    total, wrong = 0, []
    for seed in range(group * size, (group + 1) * size):
        checked, found = compared(random_border(seed), 6)
        total += checked
        wrong += [f"seed {seed}: {w}" for w in found]
    assert wrong == []
    assert total >= 8  # a group where nothing could be compared proves nothing


# --- who moves first and after how many passes (read from the end of the line) ----------------


def _line(*events: object) -> object:
    from types import SimpleNamespace

    return SimpleNamespace(events=list(events))


def _solving_of(events: list[object], moves: int, move: int | None = None,
                final: bool = False) -> tuple[object, int, str | None]:
    from types import SimpleNamespace

    from sgfcheck.endgame.stage import solving
    from sgfcheck.records.servers import Server
    from sgfcheck.replay.board import Board

    rep = SimpleNamespace(moves=moves, board=Board(19, 19))
    dead = SimpleNamespace(assumed=False, uncertain=[])
    game = SimpleNamespace(server=Server.UNKNOWN)
    got = solving(game, _line(*events), rep, dead, True, final,  # type: ignore[arg-type]
                  Settings(move=move))
    return got.to_move, got.passes, got.why_not


def _play(colour: object, point: tuple[int, int] | None) -> object:
    from sgfcheck.records.lines import Move

    return Move(colour, point, 0, False)  # type: ignore[arg-type]


def _pl(player: object, black: list[tuple[int, int]] | None = None) -> object:
    from sgfcheck.records.lines import Setup

    return Setup(0, black or [], [], [], player)  # type: ignore[arg-type]


def test_the_side_to_move_is_the_opponent_of_the_last_move_replayed() -> None:
    moves = [_play(BLACK, (3, 3)), _play(WHITE, (15, 15)), _play(BLACK, None)]
    assert _solving_of(moves, 3) == (WHITE, 1, None)
    assert _solving_of(moves[:2], 2) == (BLACK, 0, None)


def test_two_passes_in_a_row_end_the_game_and_a_setup_between_them_does_not_part_them() -> None:
    two = [_play(BLACK, (3, 3)), _play(WHITE, None), _pl(None, [(0, 0)]), _play(BLACK, None)]
    assert _solving_of(two, 3) == (WHITE, 1, "the game ended by two passes")
    three = [*two, _play(WHITE, None)]
    assert _solving_of(three, 4) == (BLACK, 1, "the game ended by two passes")
    # a play between the passes parts them
    parted = [_play(BLACK, None), _play(WHITE, (3, 3)), _play(BLACK, None)]
    assert _solving_of(parted, 3) == (WHITE, 1, None)


def test_a_pl_after_the_last_move_names_the_side_to_move() -> None:
    after = [_play(BLACK, (3, 3)), _play(WHITE, (15, 15)), _pl(WHITE)]
    assert _solving_of(after, 2) == (WHITE, 0, None)
    # a PL before the last move is overtaken by it
    before = [_pl(WHITE), _play(WHITE, (3, 3)), _play(BLACK, None)]
    assert _solving_of(before, 2) == (WHITE, 1, None)
    # no move at all: the PL, else Black
    assert _solving_of([_pl(WHITE, [(0, 0)])], 0) == (WHITE, 0, None)
    assert _solving_of([_pl(None, [(0, 0)])], 0) == (BLACK, 0, None)


def test_with_move_the_line_is_read_up_to_that_move() -> None:
    line = [_play(BLACK, (3, 3)), _play(WHITE, (15, 15)), _pl(BLACK), _play(BLACK, None),
            _play(WHITE, None)]
    # --move 2: the two passes after it are not read; the PL after move 2 is
    assert _solving_of(line, 2, move=2) == (BLACK, 0, None)
    assert _solving_of(line, 3, move=3) == (WHITE, 1, None)
    assert _solving_of(line, 4, move=4) == (BLACK, 1, "the game ended by two passes")


# --- the reproducers, each a test of its bound ------------------------------------------

# A 2x8 band open between two living walls, not played out: one region of 16 points whose game
# has more positions than the budget of work (it gave up after 6.8 s before the regions were
# worked out in the compiled core; now it gives up where the work runs out, the same on any
# machine).
BAND = """
    OOOOOOOOO
    O.OO.OO.O
    OOOOOOOOO
    ........O
    ........X
    XXXXXXXXX
    X.XX.XX.X
    XXXXXXXXX
    X.XX.XX.X
"""


def test_an_open_band_stops_where_the_work_runs_out() -> None:
    budget = 20_000
    game = game_of(BAND, "B", limits=replace(DEFAULT_LIMITS, solver=budget))
    for objective in Objective:
        found = finish_for(game, objective)
        assert (found.outcome, found.positions, found.regions) == (Outcome.OVER_WORK, budget, 1)
        assert found.why == ("playing out the last points needs more than 20,000 units of work "
                             "(--limit solver=20000)")
    assert rows(game)["japanese"][1] is False and game.result_check is not None


def stripes(size: int = 52) -> str:
    """Walls of both colours, three columns wide with eyes, and between each two a border of
    two columns whose every empty point touches both colours: a lone dame."""
    grid = [["."] * size for _ in range(size)]
    column, walls = 0, []
    while column < size:
        walls += [("X", column), ("border XO", column + 3), ("O", column + 5),
                  ("border OX", column + 8)]
        column += 10
    for kind, start in walls:
        for row in range(size):
            for offset in range(3 if kind in "XO" else 2):
                x = start + offset
                if x >= size:
                    continue
                if kind in "XO":
                    grid[row][x] = "." if offset == 1 and row % 4 == 1 else kind
                else:
                    left, right = kind[-2], kind[-1]
                    stone = left if offset == 0 else right
                    grid[row][x] = stone if (row + offset) % 2 == 0 else "."
    return "\n".join("".join(row) for row in grid)


def test_a_52x52_board_of_520_lone_dame_is_counted() -> None:
    """It exceeded Python's recursion limit (the search went one level down a dame). Now every
    dame is a region of its own; pairs of them add nothing, whoever fills them."""
    game = game_of(stripes(), "B", ruleset="Chinese")
    off = game_of(stripes(), "B", ruleset="Chinese", limits=replace(DEFAULT_LIMITS, solver=0))
    area, territory = finish_for(game, Objective.AREA), finish_for(game, Objective.TERRITORY)
    assert area.solved and territory.solved and area.regions == 520 == len(area.names)
    assert len(area.line) == 522 and territory.line[0][1] is None
    # The count as it stands (the solver off) is the solved count: 520 dame filled in pairs.
    assert [s.margin for s in game.scores] == [s.margin for s in off.scores]
    assert all(s.solved for s in game.scores) and not any(s.solved for s in off.scores)


def test_the_solver_is_turned_off_from_the_command_line(tmp_path: object) -> None:
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from sgfcheck.cli.app import app

    path = Path(str(tmp_path)) / "gote.sgf"
    path.write_bytes(record(ONE_POINT_GOTE, "B", result="W+0.5"))
    runner = CliRunner()
    on = runner.invoke(app, ["score", str(path), "--format", "json", "--engine", "none"])
    off = runner.invoke(app, ["score", str(path), "--format", "json", "--engine", "none",
                              "--limit", "solver=0"])
    assert on.exit_code == 0 and off.exit_code == 0, off.output
    (solved,) = json.loads(on.stdout)["games"]
    (banded,) = json.loads(off.stdout)["games"]
    assert solved["result_check"]["code"] == "RES102" and len(solved["finishes"]) == 2
    assert banded["finishes"] == [] and banded["result_check"]["code"] != "RES102"


def test_a_file_of_open_bands_keeps_its_illegal_move_in_batch() -> None:
    """Game 1 plays on an occupied point; twelve games of an open band follow. The file used to
    end as one SGF031 row (not finished within the time limit) that hid the illegal move."""
    from sgfcheck.records.items import WorkItem
    from sgfcheck.run.batch import BatchOptions, process_item
    from sgfcheck.run.reportfile import ReportKind

    band = record(BAND, "B").decode()
    illegal = "(;GM[1]FF[4]SZ[9]KM[6.5]RE[B+R];B[ee];W[ee])"
    data = (illegal + band * 12).encode()
    options = BatchOptions.of(jobs=1, report_kind=ReportKind.JSONL,
                              dead_stones="estimate", engine="none",
                              limits=replace(DEFAULT_LIMITS, solver=20_000))
    outcome = process_item(WorkItem("bands.sgf", None, data), options)
    assert not outcome.timed_out and len(outcome.rows) == 13
    rows_text = "".join(outcome.rows)
    assert '"RUL001"' in rows_text and '"SGF031"' not in rows_text
    assert outcome.games[0].illegal == ("occupied point",)
    # Each band gives up where its work runs out; on a slow machine (the pure-Python core under
    # load) the file's share of --timeout, a safety, may end the last ones first: the same
    # verdict (the band stands), said as over-time.
    assert all(g.solver in ("over-work", "over-time") for g in outcome.games[1:])
    assert outcome.games[1].solver == "over-work"


def test_the_diagram_caption_says_what_the_answer_says() -> None:
    # Issue 62: "the last 14 open points played out" in the answer beside "(solved: 0 moves
    # played out)" in the caption of the same game.
    from conftest import FIXTURES

    from sgfcheck.output.diagrams import scored_picture
    from sgfcheck.scoring.adjudicate import score_file
    from sgfcheck.settings import Settings

    (game,) = score_file(FIXTURES / "open-boundary-9x9.sgf", Settings()).games
    picture = scored_picture(game, game.scores[0])
    assert picture.title == ("japanese: W+15.5 (solved: the last 5 open points played out, 1 "
                             "stone placed)")


def test_a_solved_line_is_held_against_the_points_of_its_own_way_of_counting() -> None:
    """Where the position's empty points go is kept once a way of counting them (seki points
    left out or not, points still to fill or not), and a solved line is held against its own
    ruleset's way. A professional game with a seki on the board: the area counts' solved lines
    hold (held against the territory way's points they were refused, and the counts fell back
    to W+74, W+76 and W+75 as they stand)."""
    path = corpus_dir("pro19", "Pro", "9p") / "1511449759010001926.sgf"
    game = score_file(path, Settings(dead_stones="estimate", engine="none")).games[0]
    assert [(s.ruleset.name, s.result_text, s.solved) for s in game.scores] == [
        ("japanese", "W+72", True), ("tromp-taylor", "W+75", True), ("chinese", "W+77", True),
        ("aga", "W+76", True), ("stone-scoring", "W+73", False)]
