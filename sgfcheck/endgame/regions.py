"""The last open points of a judged position, and the independent regions they fall into.

When every chain is settled (alive or dead, by the players' word, a proof, an engine or the
estimate), what is left of a game is its last open points: the points a count as it stands gives
nobody (dame, borders not yet sealed, territory not yet enclosed). A referee plays them out in
their head; :mod:`sgfcheck.endgame.search` does it exactly, region by region. This module says
which points that search may play and how they split:

- **the open points**: every empty point the count as it stands gives nobody
  (:attr:`Position.dame <sgfcheck.position.analysis.Position.dame>`, dead stones already
  removed), whatever the judge's ownership says of it; where that makes a region too large to
  play out (an unsealed territory of dozens of points), the points the judge's ownership settles
  (:mod:`sgfcheck.position.owners`) beyond the first ring around the open points and dame are
  taken as their owner's instead (*assumed*: walls of that colour), said so;
- **moves in hand**: the last liberty of every chain in atari, wherever it stands (a capture, a
  connection, a ko), and the liberties outside the open points of every chain that moves among
  them could capture (a chain left with at most one liberty outside them): a point the owner
  must fill once the dame are filled (*teire*) is a move of the search, not a guess. A chain
  in atari joins the search with its stones when it is small (:data:`SMALL_CHAIN`): its capture
  is then a move like any other, and so is what follows it (a recapture, a ko). Any other chain
  the judgement counts alive stays outside: a line that captures it ends the search's count
  there, and where best play does so the position is left open (the judgement is in doubt);
- **regions**: the points above, joined where they touch and where a chain that moves inside
  could capture touches several of them. Moves in one region cannot change what happens in
  another: every chain between them keeps at least two liberties no move of the search can
  fill. A **lone dame**, an empty point beside stones of both colours whose chains keep two
  liberties no move can fill, with no other open point beside it that either colour could
  take, is a region of its own however long the string of dame it stands in (whoever fills it,
  nothing else changes hands). Everything else stays as it is: each empty point outside the
  regions counts for the colour that encloses it (a *wall* of that colour).

Nothing here searches; nothing knows a ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sgfcheck.colour import EMPTY
from sgfcheck.position.analysis import Position
from sgfcheck.position.owners import PointOwners
from sgfcheck.replay.board import Board, Chain

SMALL_CHAIN = 4
"""A chain in atari of at most this many stones joins the search with its stones (its capture
and what follows are moves of the search); a larger one, or one with more liberties, stays
outside, and a line that captures it leaves the position open (a settled chain falls). On the
professional records of the shared corpus, a chain with two liberties joining too gave more
positions left open by the bound of work (69 of 685 games against 28) and fewer right results
confirmed (77.0% against 78.1% of those with a margin)."""

MAX_REGION = 24
"""Points of one region at most; a larger one (an unsealed area too wide to play out) leaves the
position open."""


@dataclass(frozen=True)
class Region:
    """Points the search plays together: what happens in one never changes another."""

    points: tuple[int, ...]
    """Board indices, in board order."""


@dataclass(frozen=True)
class OpenPoints:
    """The points the search of the last points may play, in their regions."""

    points: tuple[int, ...]
    """Every point of every region, in board order."""
    regions: tuple[Region, ...]
    open: tuple[int, ...]
    """The empty points the count as it stands gives nobody (the rest are moves in hand and
    the stones of small chains that moves inside could capture)."""
    walls: dict[int, int]
    """Every empty point outside the regions beside one of their points: the colour that
    encloses it (its territory as it stands), or that the judge settles it for."""
    assumed: dict[int, int]
    """Settled points not yet enclosed taken as their owner's (point -> colour): the points
    the search did not play out (none unless the open points alone would make a region too
    large)."""
    too_large: Region | None = None
    """The first region larger than :data:`MAX_REGION`, if any (the position is then left
    open)."""
    chain_of: tuple[Chain | None, ...] = ()
    """The chain of every point of the position as it stands (None: empty), as the regions
    were read: what a region's game reads of the chains beside it."""


def open_points(position: Position, owners: PointOwners | None = None) -> OpenPoints:
    """The points the search of the last points may play, and their regions (see the module's
    text). ``position``: the position with the dead stones removed; ``owners``: the judge's
    reading of the points the count gives nobody (settled, open, dame), where there is one."""
    colour = position.colour
    unsealed = {p for p in position.dame if colour[p] == EMPTY}
    found = _open(position, unsealed, {})
    if found.too_large is None or owners is None or not owners.settled:
        return found
    nbrs = position.board.neighbours
    contested = set(owners.open) | set(owners.dame)
    ring = {p for p in owners.settled if any(q in contested for q in nbrs[p])}
    assumed = {p: c for p, c in owners.settled.items() if p not in ring}
    return _open(position, unsealed - set(assumed), assumed)


def _open(position: Position, unsealed: set[int], assumed: dict[int, int]) -> OpenPoints:
    colour = position.colour
    nbrs = position.board.neighbours
    standing = Board.from_colours(position.board.width, position.board.height, colour, 0)
    chains = standing.chains()
    chosen = set(unsealed)
    # The last liberty of a chain in atari, wherever it stands.
    for chain in chains:
        if len(chain.liberties) == 1:
            chosen |= chain.liberties
            if len(chain.stones) <= SMALL_CHAIN:
                chosen.update(chain.stones)
    # The chains moves among the chosen points could capture: their other liberties, and the
    # stones of the small ones, until nothing more joins.
    grew = True
    while grew:
        grew = False
        for chain in chains:
            stones = chain.stones
            if chosen.issuperset(stones) or not _touches(stones, chosen, nbrs):
                continue
            outside = chain.liberties - chosen
            if len(outside) <= 1:
                if outside:
                    chosen |= outside
                    grew = True
                if len(stones) <= SMALL_CHAIN and len(chain.liberties) == 1:
                    chosen.update(stones)
                    grew = True
    assumed = {p: c for p, c in assumed.items() if p not in chosen}
    alone = _lone_dame(chosen, colour, chains, standing.chain_of, nbrs)
    regions = _regions(chosen, chains, nbrs, alone)
    walls = {q: assumed.get(q, position.owner[q]) for p in chosen for q in nbrs[p]
             if q not in chosen and colour[q] == EMPTY}
    too_large = next((r for r in regions if len(r.points) > MAX_REGION), None)
    return OpenPoints(tuple(sorted(chosen)), tuple(regions),
                      tuple(sorted(p for p in unsealed if p in chosen)), walls, assumed,
                      too_large, tuple(standing.chain_of))


def _touches(stones: list[int], points: set[int], nbrs: Sequence[tuple[int, ...]]) -> bool:
    return any(q in points for s in stones for q in nbrs[s])


def _lone_dame(chosen: set[int], colour: Sequence[int], chains: list[Chain],
               chain_of: Sequence[Chain | None], nbrs: Sequence[tuple[int, ...]]) -> set[int]:
    """The dame that are regions of their own: an empty point beside stones of both colours
    whose chains keep at least two liberties outside the chosen points (no move of the search
    can put them in atari), and whose every neighbour is such a stone or an empty chosen point
    beside such stones of both colours. Whoever fills it, no other point changes hands: its
    neighbours stay open to both colours, and its stone joins a chain that cannot be taken."""
    safe = {id(c) for c in chains if len(c.liberties - chosen) >= 2}

    def between(p: int) -> bool:
        touching = 0
        for q in nbrs[p]:
            c = colour[q]
            if c == EMPTY:
                continue
            chain = chain_of[q]
            if chain is None or id(chain) not in safe:
                return False
            touching |= c
        return touching == 3

    hard = {p for p in chosen if colour[p] == EMPTY and between(p)}
    return {p for p in hard
            if all(colour[q] != EMPTY or q in hard for q in nbrs[p])}


def _regions(chosen: set[int], chains: list[Chain],
             nbrs: Sequence[tuple[int, ...]], alone: set[int]) -> list[Region]:
    """The chosen points joined where they touch and through every chain outside them with at
    most one liberty outside them (moves on either side could fill its liberties); a lone dame
    (:func:`_lone_dame`) is a region of its own."""
    parent = {p: p for p in chosen}

    def root(p: int) -> int:
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    def join(a: int, b: int) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    for p in chosen:
        if p in alone:
            continue
        for q in nbrs[p]:
            if q in chosen and q not in alone:
                join(p, q)
    for chain in chains:
        if chain.stones[0] in chosen or len(chain.liberties - chosen) > 1:
            continue
        touched = sorted({q for s in chain.stones for q in nbrs[s] if q in chosen})
        for q in touched[1:]:
            join(touched[0], q)
    groups: dict[int, list[int]] = {}
    for p in sorted(chosen):
        groups.setdefault(root(p), []).append(p)
    return [Region(tuple(points)) for points in groups.values()]
