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

from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.endgame.finish import Finish, Objective
from sgfcheck.limits import DEFAULT_LIMITS
from sgfcheck.replay.board import neighbours_for
from sgfcheck.scoring.adjudicate import GameScore, score_bytes
from sgfcheck.settings import Settings

BOTH = ("japanese", "chinese")


def record(diagram: str, to_move: str, result: str = "", ruleset: str = "Japanese") -> bytes:
    rows = [line.strip() for line in diagram.strip().splitlines()]
    black = "".join(f"[{chr(97 + c)}{chr(97 + r)}]" for r, row in enumerate(rows)
                    for c, ch in enumerate(row) if ch == "X")
    white = "".join(f"[{chr(97 + c)}{chr(97 + r)}]" for r, row in enumerate(rows)
                    for c, ch in enumerate(row) if ch == "O")
    re = f"RE[{result}]" if result else ""
    return (f"(;GM[1]FF[4]SZ[{len(rows)}]KM[0.5]RU[{ruleset}]{re}AB{black}AW{white}"
            f"PL[{to_move}])").encode()


def game_of(diagram: str, to_move: str, **options: object) -> GameScore:
    result = str(options.pop("result", ""))
    ruleset = str(options.pop("ruleset", "Japanese"))
    options.setdefault("compare", BOTH)
    options.setdefault("engine", "none")
    report = score_bytes(record(diagram, to_move, result, ruleset), "built.sgf",
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
    assert "the last 2 open points (D5, E5) played out as well as possible" in right.reason
    # RE one point off: inside the band, not the solved count: unverifiable, never a mismatch.
    off = game_of(ONE_POINT_GOTE, "B", result="W+1.5").result_check
    assert off is not None and off.status == "unverifiable"
    assert "but is not the solved count (W+0.5 under" in off.reason
    # The other winner is never a match.
    flipped = game_of(ONE_POINT_GOTE, "B", result="B+0.5").result_check
    assert flipped is not None and flipped.status != "match"


def test_a_bound_on_work_leaves_the_position_open() -> None:
    game = game_of(TWO_REGIONS, "B", limits=replace(DEFAULT_LIMITS, solver=10))
    assert rows(game)["japanese"][1] is False
    why = finish_for(game, Objective.TERRITORY).why
    assert why == ("playing out the last points needs more than 10 units of work "
                   "(--limit solver=10)")


# --- the decomposition against a plain exhaustive search --------------------------------------


def plain_value(diagram: str, points: tuple[int, ...], to_move: int,
                territory: bool) -> int | None:
    """Black's margin (no komi) after best play on ``points`` alone, searched over the whole
    board as one game (no regions, no table of values but a memo): captures, no suicide, simple
    ko, two passes end; area: stones and empty points reached by one colour; territory: the
    empty points reached by one colour and the prisoners. A line back to a position already on
    it is scored lost for Black, then for White: None where the two differ (the value rests on
    how the rules end a cycle)."""
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

    def count(colour: tuple[int, ...]) -> int:
        margin = 0
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
            for q in nbrs[p]:
                if after[q] == 3 - who:
                    group, free = chain(after, q)
                    if not free:
                        taken += len(group)
                        for s in group:
                            after[s] = EMPTY
            if not chain(after, p)[1]:
                continue  # suicide
            if tuple(after) == banned:
                continue  # simple ko
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
    """Black above, White below, a border on rows 4-6 with random gaps and stones."""
    rng = random.Random(seed)
    rows = ["." * 9, "." * 9, "X" * 9]
    rows.append("".join(rng.choice("XXXX.") for _ in range(9)))
    rows.append("".join(rng.choice("XO..") for _ in range(9)))
    rows.append("".join(rng.choice("OOOO.") for _ in range(9)))
    rows += ["O" * 9, "." * 9, "." * 9]
    return "\n".join(rows)


BUILT = {"lone dame": LONE_DAME, "one-point gote": ONE_POINT_GOTE, "two regions": TWO_REGIONS,
         "last-point ko": LAST_POINT_KO}
RANDOM = {f"random border {seed}": random_border(seed) for seed in range(24)}


@pytest.mark.parametrize("name", [*BUILT, *RANDOM])
def test_the_regions_agree_with_a_plain_search_of_the_whole_board(name: str) -> None:
    diagram = BUILT.get(name) or RANDOM[name]
    checked = 0
    for to_move in ("B", "W"):
        game = game_of(diagram, to_move)
        for objective, ruleset in ((Objective.AREA, "chinese"),
                                   (Objective.TERRITORY, "japanese")):
            score = next(s for s in game.scores if s.ruleset.name == ruleset)
            found = finish_for(game, objective) if game.finishes else None
            if found is None or len(found.searched) > 7:
                continue  # nothing to play out, or too many points for the plain search
            plain = plain_value(diagram, found.searched, BLACK if to_move == "B" else WHITE,
                                objective is Objective.TERRITORY)
            if found.why is not None and "--limit solver" in found.why:
                continue  # a cycle the solver's budget does not reach the end of
            if plain is None:  # a cycle decides: the solver leaves it open
                assert found.why is not None and "cycle" in found.why, (name, to_move)
            elif found.solved and score.solved:
                assert score.margin == plain - 0.5, (name, to_move, ruleset)
            else:  # solved, but the count of the line refused: never a different value
                assert found.solved, (name, to_move, found.why)
            checked += 1
    if name in BUILT:
        assert checked == 4


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
