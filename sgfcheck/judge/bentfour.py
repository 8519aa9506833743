"""Bent four in the corner: a standoff that looks like a seki and is a ko only one side can start.

The shape, as a final position: a defender's chain whose only liberties are two points it shares
with an attacker's chain enclosed inside it, in a corner. Neither may fill a shared liberty as it
stands (filling one puts the filler in atari), so the playouts and the seki analysis read it as a
seki. But the attacker may fill the liberty that leaves, once the defender captures, the four
points of a bent four whose bend is the corner point itself; his next move there makes a ko the
defender must win. The attacker can choose the moment (after removing every ko threat), the
defender can never resolve it. The Japanese 1989 rules (the commentary to Art. 7) count such a
defender dead without play; other rules have it played out. Which rules say so is a parameter of
the ruleset (``bent_four_dead``); this module only finds the shape::

    A B C D            Black's A1-A3 and White's chain share B1 and B3. Black at B1 puts four
  4 O O O X            stones in atari; White takes them at B3 and holds A1, A2, A3, B1: bent
  3 X . O X            four with its bend at the corner, where Black's A2 makes a ko White has
  2 X O O X            to win. The attacker's walls (D1-D4, A5...) must live on their own.
  1 X . O X
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sgfcheck.replay.board import Board, Chain


@dataclass(frozen=True)
class BentFour:
    """A bent four in the corner standoff: the defender's chain, the attacker's chain inside it,
    the liberty the attacker gives up and the corner point."""

    defender: tuple[int, ...]
    attacker: tuple[int, ...]
    sacrifice: int
    corner: int


def _is_corner(p: int, board: Board) -> bool:
    col, row = p % board.width, p // board.width
    return col in (0, board.width - 1) and row in (0, board.height - 1)


def _bent_in_corner(points: set[int], board: Board) -> int | None:
    """The corner point when ``points`` (four of them) are a bent four bent at a corner: the
    corner, both of its neighbours, and the point beyond one of them along the edge."""
    if len(points) != 4 or board.width < 3 or board.height < 3:
        return None
    for corner in points:
        if not _is_corner(corner, board):
            continue
        arms = board.neighbours[corner]
        if len(arms) != 2 or not all(a in points for a in arms):
            continue
        (rest,) = points - {corner, *arms}
        for arm in arms:
            beyond = 2 * arm - corner  # the next point along the same edge
            if beyond == rest and rest in board.neighbours[arm]:
                return corner
    return None


def bent_fours(board: Board, lives: Callable[[Chain], bool]) -> list[BentFour]:
    """Every bent-four-in-the-corner standoff of the position whose attacker walls ``lives``
    says live on their own (the attacker's chains around the defender, not the one inside)."""
    out = []
    for defender in board.chains():
        if len(defender.liberties) != 2:
            continue
        shared = set(defender.liberties)
        inside = {board.chain_of[q] for s in defender.stones for q in board.neighbours[s]
                  if board.colour[q] not in (0, defender.colour)}
        for attacker in inside:
            if attacker is None or set(attacker.liberties) != shared or len(attacker.stones) != 3:
                continue
            own = set(attacker.stones)
            enclosed = all(board.chain_of[q] in (attacker, defender) or q in shared
                           for s in own for q in board.neighbours[s])
            sealed = all(board.chain_of[q] in (attacker, defender) for p in shared
                         for q in board.neighbours[p])
            if not (enclosed and sealed):
                continue
            walls = [c for c in inside if c is not attacker and c is not None]
            if not walls or not all(lives(c) for c in walls):
                continue
            for sacrifice in sorted(shared):
                corner = _bent_in_corner(own | {sacrifice}, board)
                if corner is not None:
                    out.append(BentFour(tuple(sorted(defender.stones)),
                                        tuple(sorted(attacker.stones)), sacrifice, corner))
                    break
    return out
