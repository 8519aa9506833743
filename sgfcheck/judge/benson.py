"""Unconditional life (Benson's algorithm): what is alive or dead whatever anyone plays.

A chain is unconditionally alive when the opponent cannot capture it even by moving forever
while its owner passes. Benson's test: take the regions a colour encloses (maximal connected sets
of points that are not its stones); a region is *vital* to a chain when every empty point of the
region is a liberty of that chain. Repeatedly drop chains with fewer than two vital regions among
the healthy ones, and regions that touch a dropped chain, until nothing changes; the chains left
are unconditionally alive.

Opponent stones inside a region enclosed only by such chains are dead when the region leaves them
no room for two eyes: at most one of its points is not next to the enclosing stones (KataGo's
"pass-dead" test). Both answers are proofs, never estimates.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import NamedTuple

from sgfcheck import core
from sgfcheck.colour import COLOURS, EMPTY
from sgfcheck.replay.board import Board, Chain


@dataclass
class Proof:
    """Stones proven alive and proven dead, per the tests above."""

    alive: set[int]
    dead: set[int]
    territory: set[int]
    """Points of regions enclosed only by unconditionally alive chains (either colour)."""


def _regions(board: Board, colour: int) -> list[list[int]]:
    col = board.colour
    nbrs = board.neighbours
    seen = [False] * len(col)
    regions = []
    for start, c in enumerate(col):
        if c == colour or seen[start]:
            continue
        seen[start] = True
        members = [start]
        i = 0
        while i < len(members):
            for q in nbrs[members[i]]:
                if not seen[q] and col[q] != colour:
                    seen[q] = True
                    members.append(q)
            i += 1
        regions.append(members)
    return regions


def unconditional(board: Board, colour: int) -> tuple[list[Chain], list[list[int]]]:
    """Benson: the unconditionally alive chains of ``colour`` and the regions they enclose."""
    col = board.colour
    nbrs = board.neighbours
    chain_of = board.chain_of
    chains: dict[int, Chain] = {}
    for ch in chain_of:
        if ch is not None and ch.colour == colour:
            chains[id(ch)] = ch
    regions = _regions(board, colour)
    borders: list[set[int]] = []
    vital: dict[int, set[int]] = {cid: set() for cid in chains}
    for rid, members in enumerate(regions):
        touching: set[int] = set()
        for p in members:
            for q in nbrs[p]:
                ch = chain_of[q]
                if ch is not None and ch.colour == colour:
                    touching.add(id(ch))
        borders.append(touching)
        empties = [p for p in members if col[p] == EMPTY]
        for cid in touching:
            libs = chains[cid].liberties
            if empties and all(p in libs for p in empties):
                vital[cid].add(rid)
    alive = set(chains)
    healthy = set(range(len(regions)))
    changed = True
    while changed:
        changed = False
        for cid in list(alive):
            if len(vital[cid] & healthy) < 2:
                alive.discard(cid)
                changed = True
        for rid in list(healthy):
            if not borders[rid] or not borders[rid] <= alive:
                healthy.discard(rid)
                changed = True
    return [chains[cid] for cid in alive], [regions[rid] for rid in healthy]


@core.contract
class Proved(NamedTuple):
    """The compiled core's answer: :class:`Proof`'s points as lists."""

    alive: list[int]
    dead: list[int]
    territory: list[int]


def _prove_compiled(fast: ModuleType, board: Board) -> Proof:
    """:func:`prove` in the compiled core."""
    proved: Proved = fast.benson(bytes(board.colour), board.width, board.height)
    return Proof(set(proved.alive), set(proved.dead), set(proved.territory))


def _prove_pure(board: Board) -> Proof:
    """Unconditionally alive stones of both colours, and the opponent stones they make dead."""
    alive: set[int] = set()
    dead: set[int] = set()
    territory: set[int] = set()
    col = board.colour
    nbrs = board.neighbours
    for colour in COLOURS:
        chains, regions = unconditional(board, colour)
        for ch in chains:
            alive.update(ch.stones)
        for members in regions:
            territory.update(members)
            interior = [p for p in members if all(col[q] != colour for q in nbrs[p])]
            if len(interior) <= 1:
                dead.update(p for p in members if col[p] not in (EMPTY, colour))
    return Proof(alive, dead, territory)


prove = core.door(_prove_compiled, _prove_pure)
