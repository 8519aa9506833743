"""Dead stones at the end of a game: where they come from.

A source is a function ``(game, line, board) -> DeadStones | None``; :func:`find_dead_stones`
tries the user's list, then the final node's TB/TW markup, then falls back to "everything alive".
The dead-stone estimator (a later source) plugs in as one more function in that chain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sgfcheck.board import EMPTY, Board
from sgfcheck.points import expand_point_list, parse_point_name, point_name
from sgfcheck.records import GameRecord, Line


@dataclass
class DeadStones:
    """Stones to remove before counting, with where that decision came from."""

    points: set[int]
    """Board indices of dead stones."""
    source: str
    """``--dead``, ``--alive``, ``markup`` (TB/TW) or ``none`` (all alive, assumed)."""
    notes: list[str] = field(default_factory=list)
    assumed: bool = False
    """True when nobody said which stones are dead: all stones are counted alive."""

    def names(self, board: Board) -> list[str]:
        return sorted(point_name(board.point(p), board.height) for p in self.points)


DeadStoneSource = Callable[[GameRecord, Line, Board], "DeadStones | None"]


def user_dead_stones(names: list[str]) -> DeadStoneSource:
    """``--dead D4,Q16``: each named point marks its whole chain dead."""

    def source(game: GameRecord, line: Line, board: Board) -> DeadStones | None:
        points: set[int] = set()
        notes = []
        for name in names:
            col, row = parse_point_name(name, board.width, board.height)
            p = board.index(col, row)
            chain = board.chain_of[p]
            if chain is None:
                notes.append(f"--dead {name}: no stone there; ignored")
                continue
            points.update(chain.stones)
        return DeadStones(points, "--dead", notes)

    return source


def all_alive(game: GameRecord, line: Line, board: Board) -> DeadStones | None:
    return DeadStones(set(), "--alive")


def markup_dead_stones(game: GameRecord, line: Line, board: Board) -> DeadStones | None:
    """TB/TW on the final node (KGS/CGoban write them once both players agreed).

    A stone standing on a point of the other colour's markup is dead. A living stone on its own
    colour's markup point is simply alive (the point counts once).
    """
    node = line.final_node
    if "TB" not in node and "TW" not in node:
        return None
    tb, _ = expand_point_list(node.get("TB", []), board.width, board.height)
    tw, _ = expand_point_list(node.get("TW", []), board.width, board.height)
    dead: set[int] = set()
    colour = board.colour
    for pts, owner in ((tb, 1), (tw, 2)):
        for col, row in pts:
            p = row * board.width + col
            if colour[p] != EMPTY and colour[p] != owner:
                dead.add(p)
    return DeadStones(dead, "markup", [f"TB/TW on the final node: {len(tb)} black and "
                                        f"{len(tw)} white points"])


def nothing_known(game: GameRecord, line: Line, board: Board) -> DeadStones:
    return DeadStones(set(), "none", ["no dead-stone information: every stone is counted alive "
                                      "(territory counts may be wrong)"], assumed=True)


def find_dead_stones(game: GameRecord, line: Line, board: Board,
                     sources: list[DeadStoneSource] | None = None) -> DeadStones:
    """The first source that knows, else everything alive (said so)."""
    for source in [markup_dead_stones] if sources is None else sources:
        found = source(game, line, board)
        if found is not None:
            return found
    return nothing_known(game, line, board)
