"""Which picture shows what: a scored position under one ruleset, a position at a move, an
illegal move and the stones it concerns (:mod:`sgfcheck.output.svg` draws them).

A scored picture marks what that ruleset's count does with each point (the game's
:meth:`~sgfcheck.scoring.adjudicate.GameScore.counted`): the territory it counts for each colour,
the seki points it counts for nobody, the points still to fill; dead stones and chains the
estimate left uncertain are marked as the dead-stone source judged them, the same for every
ruleset. An illegal move is drawn on its :class:`~sgfcheck.replay.scenes.Scene`. Nothing here
replays or counts: the pictures draw what they are given.
"""

from __future__ import annotations

from sgfcheck.colour import EMPTY, Colour
from sgfcheck.counting.count import Score
from sgfcheck.output.svg import Picture
from sgfcheck.records.lines import Line
from sgfcheck.replay.board import Board
from sgfcheck.replay.scenes import Scene
from sgfcheck.scoring.gamescore import GameScore


def stones_of(board: Board) -> dict[int, Colour]:
    return {p: Colour(c) for p, c in enumerate(board.colour) if c != EMPTY}


def move_marks(line: Line | None, width: int, height: int, upto: int
               ) -> tuple[int | None, dict[int, int]]:
    """The last move played on the board among the first ``upto`` moves, and for every point the
    number of the last move played there."""
    last: int | None = None
    numbers: dict[int, int] = {}
    if line is None:
        return None, numbers
    for number, event in line.numbered_moves():
        if number > upto:
            break
        if event.point is None:
            last = None
            continue
        col, row = event.point
        if 0 <= col < width and 0 <= row < height:  # off-board points are kept as read
            index = row * width + col
            numbers[index] = number
            last = index
    return last, numbers


def position_picture(board: Board, line: Line | None, moves: int, *,
                     numbers: bool = False, title: str = "") -> Picture:
    """The stones after ``moves`` moves, the last one marked (move numbers if asked)."""
    last, at = move_marks(line, board.width, board.height, moves)
    at = {p: n for p, n in at.items() if board.colour[p] != EMPTY}
    if last is not None and board.colour[last] == EMPTY:
        last = None  # captured since (or off the board)
    return Picture(board.width, board.height, stones_of(board), last_move=last,
                   numbers=at if numbers else {}, title=title)


def scored_picture(game: GameScore, score: Score, *, numbers: bool = False) -> Picture:
    """The scored position as ``score``'s ruleset counts it (a solved count: the position at
    the end of its solved line)."""
    assert game.position is not None and game.dead is not None
    position = game.scored_position(score)
    board = position.board
    title = f"{score.ruleset.name}: {score.result_text}"
    finished = game.finish_of(score)
    if finished is not None:
        # As the answer says it: the open points played out, and how many stones that took
        # (none where every open point is worth nothing to either side: the count as it stands).
        played = sum(1 for _, point in finished.line if point is not None)
        points = len(finished.points)
        title += (" (solved: nothing left open)" if not points else
                  f" (solved: the last {points} open point{'s' if points != 1 else ''} played "
                  f"out, {played} stone{'s' if played != 1 else ''} placed)")
    picture = position_picture(board, game.check.line, game.scored_move, numbers=numbers,
                               title=title)
    picture.dead = set(position.dead_points)
    picture.uncertain = {p for chain in game.dead.uncertain for p in chain.stones}
    picture.seki_stones = game.seki_stones_of(score)
    counted = game.counted(score)
    picture.territory = counted.territory
    picture.seki = counted.seki
    picture.fill = counted.fill
    return picture


def illegal_move_picture(scene: Scene, line: Line | None, *, numbers: bool = False
                         ) -> Picture:
    """The position before an illegal move, its point and the stones it concerns."""
    finding = scene.finding
    assert finding.move is not None
    title = (f"move {finding.move}: {scene.colour.word} {finding.point}, "
             f"{finding.code.rule} ({finding.code.code})")
    picture = position_picture(scene.board, line, finding.move - 1, numbers=numbers,
                               title=title)
    picture.illegal = (scene.point, scene.colour)
    picture.concerned = set(scene.concerned)
    return picture
