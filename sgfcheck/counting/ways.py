"""The ways doubtful chains may go: for a result check that counts the position each way.

The uncertain (unsettled) chains are the ones the count's band spans; with the estimate's
decisions less sure than :data:`LOW_CONFIDENCE` they are doubtful (:func:`doubtful_chains`): the
wide band a mismatch must lie outside of spans them too. :func:`other_ways` lists every way they
may go other than as judged, chains of one colour in one area together (joined through own empty
points or dame, as the scorer's areas join them).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

from sgfcheck.colour import BLACK, EMPTY, Colour
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.judge.estimate import ChainVerdict
from sgfcheck.position.analysis import area_map
from sgfcheck.replay.board import Board
from sgfcheck.status import Source, Status

MAX_UNCERTAIN_GROUPS = 6
"""Up to this many doubtful groups, every way they may go is counted; beyond, only the ways
that favour one colour most (all of Black's dead and White's alive, and the reverse)."""

LOW_CONFIDENCE = 0.7
"""An estimate decision less sure than this is doubtful: a result check reads it both ways
before it calls a result a mismatch (on professional records, 0.7 against 0.8: the same false
alarms, 5 points more falsified results caught; 0.6: twice the false alarms)."""


def doubtful_chains(dead: DeadStones) -> list[ChainVerdict]:
    """The estimate's uncertain chains and its decisions below :data:`LOW_CONFIDENCE`."""
    if dead.judgement is None:
        return []
    return [c for c in dead.judgement.chains if c.source is Source.ESTIMATE
            and (c.status is Status.UNCERTAIN or c.confidence < LOW_CONFIDENCE)]


def other_ways(board: Board, dead: DeadStones,
               chains: list[ChainVerdict] | None = None) -> list[tuple[str, set[int]]]:
    """Ways the doubtful chains (default: the uncertain ones) may go other than as judged:
    (description, the dead stones that way). Doubtful chains of one colour in one area (joined
    through own empty points or dame, as the scorer's areas) go together; a group judged dead
    comes back alive, one judged alive or uncertain dies."""
    chains = dead.uncertain if chains is None else chains
    if not chains:  # nothing doubtful: no other way (and no map of the areas to make)
        return []
    colour = list(board.colour)
    for p in dead.points:
        colour[p] = EMPTY
    area_of = area_map(colour, board)
    groups: dict[tuple[int, bool], list[int]] = {}
    for chain in chains:
        judged_dead = chain.stones[0] in dead.points
        anchor = chain.stones[0] if judged_dead else area_of[chain.stones[0]]
        groups.setdefault((anchor, judged_dead), []).extend(chain.stones)
    named = [(f"{Colour(board.colour[g[0]]).letter} {board.name(min(g))}", set(g), judged_dead)
             for (_, judged_dead), g in groups.items()]
    if len(named) <= MAX_UNCERTAIN_GROUPS:
        choices = [c for c in product((False, True), repeat=len(named)) if any(c)]
    else:
        black = tuple(board.colour[min(g)] == BLACK for _, g, _ in named)
        choices = [black, tuple(not b for b in black), tuple(True for _ in named)]
    out = []
    for choice in choices:
        stones = set(dead.points)
        died, lived = [], []
        for (name, g, judged_dead), flip in zip(named, choice, strict=True):
            if not flip:
                continue
            if judged_dead:
                stones -= g
                lived.append(name)
            else:
                stones |= g
                died.append(name)
        how = ", ".join(part for part in (", ".join(died) + " dead" if died else "",
                                          ", ".join(lived) + " alive" if lived else "") if part)
        out.append((how, stones))
    return out


def way_chains(ways: Iterable[str]) -> tuple[str, ...]:
    """The chains named by ways' descriptions (``W H5, B D4 dead`` -> ``W H5``, ``B D4``), in
    order, once each."""
    return tuple(dict.fromkeys(part.strip().removesuffix(" dead").removesuffix(" alive")
                               for how in ways for part in how.split(",")))
