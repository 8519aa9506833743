"""The count as a band: the least and the greatest margin the position may still be worth.

A count as it stands gives nobody a point that is not yet enclosed. Where the dead stones come
from a judgement of the position (the estimate, an engine, proofs alone), the count is read as
a band around it:

- **settled points**: an empty point the count gives nobody but both sides' playouts give one
  colour (:mod:`sgfcheck.position.owners`: territory not yet sealed) counts for that colour;
- **dame**: a point the count gives nobody between living stones of both colours. Under
  territory counting it is worth nothing whoever fills it (it becomes a stone, not territory);
  under area counting it is a point to whoever fills it, and since both sides want them they
  are filled in turn: together they move the margin by one point at most (the odd one). A game
  stopped before two passes keeps one point each way under any counting: the move in hand (a
  protective move once the dame are filled, a last ko, the odd dame);
- **open points**: every other point the count gives nobody may still go to either colour or
  stay nobody's, one point each way (a boundary not yet sealed: who moves first decides it);
- **unsettled chains**: each way they may go is its own count (:mod:`sgfcheck.counting.ways`); the
  band of a reading spans all of them (:func:`union`).

The band is a claim only as good as the settled decisions it rests on (the dead stones, the
agreed points); the result check (:mod:`sgfcheck.verdict.decide`) reads it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from sgfcheck.colour import BLACK, WHITE
from sgfcheck.position.owners import PointOwners


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


def band_of(margin: float, counts_stones: bool, owners: PointOwners,
            finished: bool = False) -> Band:
    """The band of one count (one reading, one way of the unsettled chains), read from its
    margin (Black's) and whether its counting counts stones (area, stones): its points the
    count gives nobody, settled where both sides' ownership agrees, dame between living stones
    of both colours, open otherwise (see the module's text), holding the count. A stopped
    game's count already counts the settled points (:func:`sgfcheck.counting.count.count`'s
    ``settled``); a finished one's does not (``finished``: the game ended by two passes, counted
    as it stands, no move left in hand), and its band's count with every settled decision adds
    them. ``owners``: the points of the position the count gives nobody, read from both sides
    (:func:`~sgfcheck.position.owners.point_owners`, worked out once a position)."""
    settled = margin
    if finished:
        settled += sum(1 if c == BLACK else -1 for c in owners.settled.values())
    widen = len(owners.open)
    if not finished or (owners.dame and counts_stones):
        # Dame are filled in turn: under area counting each is a point to whoever fills it,
        # so together they move the margin by one point at most (the odd one); under
        # territory counting they are worth nothing. A game stopped before two passes keeps
        # that one point each way under any counting: the move in hand (a protective move once
        # the dame are filled, a last ko, the odd dame).
        widen += 1
    return holding(Band(settled - widen, settled + widen, settled, owners.open,
                        tuple(owners.settled)), margin)


def holding(band: Band, margin: float) -> Band:
    """The band widened, where needed, to hold ``margin``, the count it is the band of (a
    solved count the band's rule of thumb did not reach; a finished game's count as it
    stands), ``margin`` its count."""
    return replace(band, low=min(band.low, margin), high=max(band.high, margin), settled=margin)


def union(bands: Iterable[Band], unsettled: Sequence[str] = ()) -> Band:
    """One band over the counts of every way the unsettled chains may go; the first band is
    the way as judged (its settled count and points are kept)."""
    listed = list(bands)
    first = listed[0]
    opened = dict.fromkeys(itertools.chain.from_iterable(b.open_points for b in listed))
    return Band(min(b.low for b in listed), max(b.high for b in listed), first.settled,
                tuple(opened), first.settled_points, tuple(unsettled))
