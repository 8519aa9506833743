"""Dead-stone judgement without markup: proofs first, then seeded playouts, with a confidence.

Every chain gets a status and says who decided it:

1. ``benson``: unconditionally alive, or dead inside such a group's territory with no room for
   two eyes (:mod:`sgfcheck.judge.benson`) - a proof, confidence 1.
2. ``estimate``: the position is played out from both sides: one set of playouts
   (:mod:`sgfcheck.judge.playout`) with Black to move first, one with White. For each side, the
   share of its playouts in which the chain's points end up its own colour's. A chain is alive
   when both shares are at or above ``alive_from``, dead when both are below ``dead_below``; the
   confidence is the weaker of the two (or one minus the stronger). Otherwise it is
   ``uncertain`` (unsettled: it depends on who moves first, or the playouts cannot tell): the
   estimate does not decide, and whoever uses it must look at those chains.

Every point's ownership is kept for each side to move (+1 Black .. -1 White): an empty point both
sides give one colour is settled; one they disagree on is open (the count's band, see
:mod:`sgfcheck.counting.band`).

Playouts run in rounds: a first round for each side, then more while some chain is in or near the
uncertain band (up to ``max_playouts`` for each side). Seki is recognised afterwards on the
decided position (groups without two eyes sharing a dame point,
:func:`sgfcheck.scoring.chains.chain_statuses`): the playouts never put two or more of their own
stones in atari, so a seki survives them and comes out alive.

Deterministic: the same position, seed and settings give the same judgement.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sgfcheck.colour import Colour
from sgfcheck.judge.benson import prove
from sgfcheck.judge.playout import Playouts
from sgfcheck.replay.board import Board, Chain
from sgfcheck.status import Source, Status

FIRST_ROUND = 32
"""Playouts of the first round, for each side to move."""
MAX_PLAYOUTS = 96
"""Playouts at most, for each side to move."""
DEAD_BELOW = 0.4
ALIVE_FROM = 0.6
CLOSE = 0.2
"""A chain within this distance of the uncertain band asks for another round of playouts."""


@dataclass
class ChainVerdict:
    stones: list[int]
    colour: Colour
    status: Status
    """Alive, dead or uncertain."""
    source: Source
    """Benson (a proof) or the estimate (playouts)."""
    confidence: float
    """1.0 for a proof; else the share of playouts that agree with the status (for an
    uncertain chain: the larger of its share and one minus it)."""
    share: float
    """Share of playouts in which the chain's points stayed its colour's (both sides'
    playouts together)."""
    shares: tuple[float, float] | None = None
    """The same share with Black to move first, and with White (None: not played out)."""


@dataclass
class ChainVerdicts:
    """Every chain's verdict, and how they were reached (the playouts, their seed and settings,
    each point's ownership): the estimate's, or an engine's (no playouts)."""

    chains: list[ChainVerdict]
    playouts: int
    seed: int
    settings: dict[str, float] = field(default_factory=dict)
    ownership: tuple[list[float], list[float]] | None = None
    """Every point's ownership (+1 Black .. -1 White) with Black to move first, and with White;
    None when nothing was played out (every chain proven)."""

    @property
    def dead(self) -> set[int]:
        return {s for c in self.chains if c.status is Status.DEAD for s in c.stones}

    @property
    def uncertain(self) -> list[ChainVerdict]:
        return [c for c in self.chains if c.status is Status.UNCERTAIN]

    def by_point(self) -> dict[int, ChainVerdict]:
        """Every stone's chain verdict."""
        return {s: c for c in self.chains for s in c.stones}


def judge(board: Board, seed: int = 0, first_round: int = FIRST_ROUND,
          max_playouts: int = MAX_PLAYOUTS, dead_below: float = DEAD_BELOW,
          alive_from: float = ALIVE_FROM) -> ChainVerdicts:
    """Judge every chain of the position (see the module's text)."""
    proof = prove(board)
    chains = board.chains()
    open_chains = [c for c in chains
                   if c.stones[0] not in proof.alive and c.stones[0] not in proof.dead]
    sides = (Playouts(board, seed=seed), Playouts(board, seed=seed + 1))
    firsts = (int(Colour.BLACK), int(Colour.WHITE))
    if open_chains:
        for side, first in zip(sides, firsts, strict=True):
            side.run(first_round, first, alternate=False)

        def near(c: Chain) -> bool:
            return any(dead_below - CLOSE <= side.share(c.stones, c.colour) < alive_from + CLOSE
                       for side in sides)

        while sides[0].count < max_playouts and any(near(c) for c in open_chains):
            more = min(first_round, max_playouts - sides[0].count)
            for side, first in zip(sides, firsts, strict=True):
                side.run(more, first, alternate=False)
    out = []
    for c in chains:
        stones = sorted(c.stones)
        colour = Colour(c.colour)
        if stones[0] in proof.alive:
            out.append(ChainVerdict(stones, colour, Status.ALIVE, Source.BENSON, 1.0, 1.0))
        elif stones[0] in proof.dead:
            out.append(ChainVerdict(stones, colour, Status.DEAD, Source.BENSON, 1.0, 0.0))
        else:
            by_side = (round(sides[0].share(stones, c.colour), 3),
                       round(sides[1].share(stones, c.colour), 3))
            share = round(sum(by_side) / 2, 3)
            low, high = min(by_side), max(by_side)
            if low >= alive_from:
                out.append(ChainVerdict(stones, colour, Status.ALIVE, Source.ESTIMATE, low,
                                        share, by_side))
            elif high < dead_below:
                out.append(ChainVerdict(stones, colour, Status.DEAD, Source.ESTIMATE,
                                        round(1 - high, 3), share, by_side))
            else:
                out.append(ChainVerdict(stones, colour, Status.UNCERTAIN, Source.ESTIMATE,
                                        max(share, round(1 - share, 3)), share, by_side))
    ownership = None
    if sides[0].count:
        ownership = (sides[0].ownership(), sides[1].ownership())
    return ChainVerdicts(out, sides[0].count + sides[1].count, seed, {
        "dead_below": dead_below, "alive_from": alive_from, "first_round": first_round,
        "max_playouts": max_playouts}, ownership)
