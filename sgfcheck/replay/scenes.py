"""What a picture of an illegal move draws, computed here so that pictures only draw: the
position before the move and the stones it concerns (:class:`Scene`)."""

from __future__ import annotations

from dataclasses import dataclass

from sgfcheck.colour import EMPTY, Colour
from sgfcheck.findings import Finding
from sgfcheck.points import parse_point_name
from sgfcheck.records.lines import Line
from sgfcheck.records.record import GameRecord
from sgfcheck.replay.board import Board
from sgfcheck.replay.replay import replay
from sgfcheck.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Scene:
    """An illegal move on the position before it."""

    finding: Finding
    board: Board
    """The position before the move."""
    point: int
    """The move's point (an index of the board)."""
    colour: Colour
    concerned: frozenset[int]
    """The stones the move concerns (:func:`concerned_stones`)."""


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


def scene_of(game: GameRecord, line: Line, ruleset: Ruleset, finding: Finding
             ) -> Scene | None:
    """The position before an illegal move of ``line`` under ``ruleset`` and the stones it
    concerns; None when the move has no point on the board."""
    if finding.move is None or finding.point is None or finding.colour is None:
        return None
    try:
        col, row = parse_point_name(finding.point, game.width, game.height)
    except ValueError:
        return None
    if not (0 <= col < game.width and 0 <= row < game.height):
        return None
    board = replay(game, line, ruleset, upto=finding.move - 1).board
    index = row * game.width + col
    return Scene(finding, board, index, finding.colour,
                 frozenset(concerned_stones(board, index, finding.colour)))
