"""The count as a band: the least and the greatest margin the position may still be worth.

A count as it stands gives nobody a point that is not yet enclosed. Where the dead stones come
from a judgement of the position (the estimate, an engine, proofs alone), the count is read as
a band around it:

- **settled points**: an empty point the count gives nobody but both sides' playouts give one
  colour (the owner at least :data:`AGREED` whichever side moves first: territory not yet
  sealed) counts for that colour;
- **dame**: a point the count gives nobody between living stones of both colours. Under
  territory counting it is worth nothing whoever fills it (it becomes a stone, not territory);
  under area counting it is a point to whoever fills it, and since both sides want them they
  are filled in turn: together they move the margin by one point at most (the odd one). A game
  stopped before two passes keeps one point each way under any counting: the move in hand (a
  protective move once the dame are filled, a last ko, the odd dame);
- **open points**: every other point the count gives nobody may still go to either colour or
  stay nobody's, one point each way (a boundary not yet sealed: who moves first decides it);
- **unsettled chains**: each way they may go is its own count (:mod:`sgfcheck.scoring.ways`); the
  band of a reading spans all of them (:func:`union`).

The band is a claim only as good as the settled decisions it rests on (the dead stones, the
agreed points); the result check (:mod:`sgfcheck.scoring.result_check`) reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.scoring.count import Score
from sgfcheck.scoring.position import Position

AGREED = 0.45
"""An empty point both sides' playouts give one colour with ownership at least this (in at least
72.5% of the playouts each way) is settled for that colour. Random playouts let the opponent
live now and then in a large empty area, so a wide territory's points stand at 0.5 to 0.8; on
professional records 0.45 and 0.6 gave the same verdicts on right results, 0.45 a few more
falsified ones caught, 0.3 false alarms."""


@dataclass(frozen=True)
class Band:
    """Black's margin: at least ``low``, at most ``high``; ``settled`` the count with every
    settled decision (the count as it stands plus the settled points not yet enclosed)."""

    low: float
    high: float
    settled: float
    open_points: tuple[int, ...] = ()
    """Points whose owner is not settled (board indices)."""
    settled_points: tuple[int, ...] = ()
    """Points the count gives nobody that both sides give one colour."""
    unsettled: tuple[str, ...] = ()
    """The unsettled chains the band spans (``B N18``), if any."""

    @property
    def width(self) -> float:
        return self.high - self.low

    def holds(self, margin: float) -> bool:
        return self.low - 1e-9 <= margin <= self.high + 1e-9

    @property
    def decided_winner(self) -> int | None:
        """The colour that wins everywhere in the band (None: either may)."""
        if self.low > 0:
            return int(BLACK)
        if self.high < 0:
            return int(WHITE)
        return None


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


def point_owners(position: Position,
                 ownership: tuple[Sequence[float], Sequence[float]] | None) -> PointOwners:
    """The points of ``position.dame`` (those the count gives nobody), each settled, open or
    dame (see the module's text)."""
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


def band_of(score: Score, position: Position,
            ownership: tuple[Sequence[float], Sequence[float]] | None,
            finished: bool = False) -> Band:
    """The band of one count (one reading, one way of the unsettled chains): its points the
    count gives nobody, settled where both sides' ownership agrees, dame between living stones
    of both colours, open otherwise (see the module's text). ``finished``: the game ended by
    two passes (no move is left in hand)."""
    owners = point_owners(position, ownership)
    settled = score.margin + sum(1 if c == BLACK else -1 for c in owners.settled.values())
    widen = len(owners.open)
    if not finished or (owners.dame and score.method.counts_stones):
        # Dame are filled in turn: under area counting each is a point to whoever fills it,
        # so together they move the margin by one point at most (the odd one); under
        # territory counting they are worth nothing. A game stopped before two passes keeps
        # that one point each way under any counting: the move in hand (a protective move once
        # the dame are filled, a last ko, the odd dame).
        widen += 1
    return Band(settled - widen, settled + widen, settled, owners.open,
                tuple(owners.settled))


def union(bands: Iterable[Band], unsettled: Sequence[str] = ()) -> Band:
    """One band over the counts of every way the unsettled chains may go; the first band is
    the way as judged (its settled count and points are kept)."""
    listed = list(bands)
    first = listed[0]
    opened = dict.fromkeys(p for b in listed for p in b.open_points)
    return Band(min(b.low for b in listed), max(b.high for b in listed), first.settled,
                tuple(opened), first.settled_points, tuple(unsettled))
