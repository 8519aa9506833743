"""Which picture shows what: a scored position under one ruleset, a position at a move, an
illegal move and the stones it concerns (:mod:`sgfcheck.output.svg` draws them).

A scored picture marks what that ruleset's count does with each point
(:func:`sgfcheck.scoring.count. counted_points`): the territory it counts for each colour, the seki
points it counts for nobody, the points still to fill; dead stones and chains the estimate left
uncertain are marked as the dead-stone source judged them, the same for every ruleset.
"""

from __future__ import annotations

from dataclasses import replace

from sgfcheck.colour import BLACK, EMPTY, WHITE, Colour
from sgfcheck.findings import Finding
from sgfcheck.output.svg import Picture
from sgfcheck.points import parse_point_name
from sgfcheck.records.record import Line
from sgfcheck.replay.board import Board
from sgfcheck.replay.check import GameReport
from sgfcheck.replay.replay import replay
from sgfcheck.scoring.adjudicate import GameScore, score_game
from sgfcheck.scoring.count import Score, counted_points
from sgfcheck.scoring.life import mutual_seki
from sgfcheck.settings import Settings


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
    """The scored position as ``score``'s ruleset counts it."""
    assert game.position is not None and game.dead is not None
    position = game.position
    board = position.board
    title = f"{score.ruleset.name}: {score.result_text}"
    picture = position_picture(board, game.check.line, game.scored_move, numbers=numbers,
                               title=title)
    picture.dead = set(game.dead.points)
    picture.uncertain = {p for chain in game.dead.uncertain for p in chain.stones}
    picture.seki_stones = mutual_seki(board, position.seki_stones[BLACK],
                                      position.seki_stones[WHITE], set(position.dame))
    counted = counted_points(position, score.ruleset)
    picture.territory = counted.territory
    picture.seki = counted.seki
    picture.fill = counted.fill
    return picture


def concerned_stones(board: Board, point: int, colour: Colour) -> set[int]:
    """The stones a move at ``point`` by ``colour`` concerns: the stone already there; else the
    opponent stones it would capture (a ko or superko retake takes them back); else its own
    chains it would leave without liberties (suicide)."""
    if board.colour[point] != EMPTY:
        chain = board.chain_of[point]
        return set(chain.stones) if chain is not None else {point}
    captured: set[int] = set()
    own: set[int] = set()
    for q in board.neighbours[point]:
        chain = board.chain_of[q]
        if chain is None or chain.liberties != {point}:
            continue
        (captured if chain.colour != colour else own).update(chain.stones)
    return captured or own


def illegal_move_picture(report: GameReport, finding: Finding, *,
                         numbers: bool = False) -> Picture | None:
    """The position before an illegal move, its point and the stones it concerns; None when the
    move has no point on the board or the game was not replayed."""
    game = report.game
    if (finding.move is None or finding.point is None or finding.colour is None
            or report.context is None or report.line is None):
        return None
    try:
        col, row = parse_point_name(finding.point, game.width, game.height)
    except ValueError:
        return None
    if not (0 <= col < game.width and 0 <= row < game.height):
        return None
    before = replay(game, report.line, report.context.ruleset, upto=finding.move - 1)
    board = before.board
    index = row * game.width + col
    title = (f"move {finding.move}: {finding.colour.word} {finding.point}, "
             f"{finding.code.rule} ({finding.code.code})")
    picture = position_picture(board, report.line, finding.move - 1, numbers=numbers,
                               title=title)
    picture.illegal = (index, finding.colour)
    picture.concerned = concerned_stones(board, index, finding.colour)
    return picture


class Unavailable(ValueError):
    """The picture asked for cannot be drawn (no illegal move, nothing to count); the message
    says why."""


def picture_of(report: GameReport, settings: Settings, *, illegal: bool = False,
               plain: bool = False, numbers: bool = False) -> Picture:
    """The picture ``sgfcheck diagram`` draws of a checked game: an illegal move (the first, or
    the one at ``settings.move``), the stones alone, or the position scored under the game's
    ruleset with its dead stones and territory. Raises :class:`Unavailable`."""
    record = report.game
    if not record.playable or report.context is None:
        raise Unavailable("not a game of Go that can be replayed")
    move = settings.move
    if illegal:
        wanted = [f for f in report.illegal_moves if move is None or f.move == move]
        if not wanted:
            at = f" at move {move}" if move is not None else ""
            raise Unavailable(f"no illegal move{at} under {report.context.ruleset.name}")
        picture = illegal_move_picture(report, wanted[0], numbers=numbers)
        if picture is None:
            raise Unavailable(f"move {wanted[0].move} has no point on the board to draw")
        return picture
    if plain:
        rep = replay(record, report.line or record.main_line(), report.context.ruleset,
                     upto=move)
        return position_picture(rep.board, report.line, rep.moves, numbers=numbers,
                                title=f"after move {rep.moves}")
    scored = score_game(report, replace(settings, compare=()))
    if not scored.scores:
        raise Unavailable(scored.error or "nothing to count")
    picture = scored_picture(scored, scored.scores[0], numbers=numbers)
    assert scored.dead is not None
    picture.title += (f", after move {scored.scored_move}, dead stones: "
                      f"{scored.dead.source.value}")
    return picture
