"""The points a count as it stands gives nobody, read from both sides: settled, open, dame.

A count as it stands gives nobody an empty point that is not yet enclosed. Where the judge of
the dead stones gives every point's ownership with each side to move first (the estimate's
playouts, KataGo), such a point is:

- **settled** for a colour when both sides give it that colour (territory not yet sealed);
- **dame** when it lies between living stones of both colours;
- **open** otherwise: who moves first decides it, or the judge cannot tell.

The count's band (:mod:`sgfcheck.counting.band`) and the solver of the last points
(:mod:`sgfcheck.endgame.regions`) read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from sgfcheck import core
from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.position.analysis import Position

AGREED = 0.45
"""An empty point both sides' playouts give one colour with ownership at least this (in at least
72.5% of the playouts each way) is settled for that colour. Random playouts let the opponent
live now and then in a large empty area, so a wide territory's points stand at 0.5 to 0.8; on
professional records 0.45 and 0.6 gave the same verdicts on right results, 0.45 a few more
falsified ones caught, 0.3 false alarms."""


@dataclass(frozen=True)
class PointOwners:
    """The points a count as it stands gives nobody, read from both sides."""

    settled: dict[int, int]
    """Points both sides' ownership gives one colour (its int), not yet enclosed."""
    open: tuple[int, ...]
    """Points whose owner depends on who moves first, or that the judge cannot tell."""
    dame: tuple[int, ...]
    """Points between living stones of both colours (worth nothing under territory counting,
    a point to whoever fills them under area counting)."""


def _point_owners_compiled(fast: ModuleType, position: Position,
                           ownership: tuple[Sequence[float], Sequence[float]] | None
                           ) -> PointOwners:
    """:func:`point_owners` in the compiled core."""
    board = position.board
    first_black, first_white = ownership if ownership is not None else (None, None)
    settled, colours, open_points, dame = fast.point_owners(
        bytes(position.colour), position.dame, first_black, first_white, AGREED, board.width,
        board.height)
    return PointOwners(dict(zip(settled, colours, strict=True)), tuple(open_points), tuple(dame))


def _point_owners(position: Position,
                  ownership: tuple[Sequence[float], Sequence[float]] | None) -> PointOwners:
    """The points of ``position.dame`` (those the count gives nobody), each settled, open or
    dame (see the module's text). The reference of the compiled core (tests/test_core.py holds
    the two equal point for point)."""
    colour = position.colour
    nbrs = position.board.neighbours
    settled: dict[int, int] = {}
    open_points: list[int] = []
    dame: list[int] = []
    for p in position.dame:
        if colour[p] != EMPTY:
            continue
        if ownership is not None:
            first_black, first_white = ownership[0][p], ownership[1][p]
            if first_black >= AGREED and first_white >= AGREED:
                settled[p] = int(BLACK)
                continue
            if first_black <= -AGREED and first_white <= -AGREED:
                settled[p] = int(WHITE)
                continue
        touching = {colour[q] for q in nbrs[p]}
        if BLACK in touching and WHITE in touching:
            dame.append(p)
        else:
            open_points.append(p)
    return PointOwners(settled, tuple(open_points), tuple(dame))


point_owners = core.door(_point_owners_compiled, _point_owners)
