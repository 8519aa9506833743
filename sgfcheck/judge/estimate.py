"""Dead-stone judgement without markup: proofs first, then seeded playouts, with a confidence.

Every chain gets a status and says who decided it:

1. ``benson``: unconditionally alive, or dead inside such a group's territory with no room for
   two eyes (:mod:`sgfcheck.judge.benson`) - a proof, confidence 1.
2. ``estimate``: the share of playouts (:mod:`sgfcheck.judge.playout`) in which the chain's points
   end up its own colour's. At or above ``alive_from`` the chain is alive, below ``dead_below`` it
   is dead; the confidence is that share (or one minus it). In between it is ``uncertain``: the
   estimate does not decide, and whoever uses it must look at those chains.

Playouts run in rounds: a first round, then more while some chain is in or near the uncertain band
(up to ``max_playouts``). Seki is recognised afterwards on the decided position (groups without two
eyes sharing a dame point, :func:`sgfcheck.scoring.life.chain_statuses`): the playouts never put
two or more of their own stones in atari, so a seki survives them and comes out alive.

Deterministic: the same position, seed and settings give the same judgement.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sgfcheck.colour import Colour
from sgfcheck.judge.benson import prove
from sgfcheck.judge.playout import Playouts
from sgfcheck.replay.board import Board
from sgfcheck.status import Source, Status

FIRST_ROUND = 32
MAX_PLAYOUTS = 128
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
    """Share of playouts in which the chain's points stayed its colour's."""


@dataclass
class Judgement:
    chains: list[ChainVerdict]
    playouts: int
    seed: int
    settings: dict[str, float] = field(default_factory=dict)

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
          alive_from: float = ALIVE_FROM) -> Judgement:
    """Judge every chain of the position (see the module's text)."""
    proof = prove(board)
    chains = board.chains()
    open_chains = [c for c in chains
                   if c.stones[0] not in proof.alive and c.stones[0] not in proof.dead]
    playouts = Playouts(board, seed=seed)
    if open_chains:
        playouts.run(first_round)
        while playouts.count < max_playouts and any(
                dead_below - CLOSE <= playouts.share(c.stones, c.colour) < alive_from + CLOSE
                for c in open_chains):
            playouts.run(min(first_round, max_playouts - playouts.count))
    out = []
    for c in chains:
        stones = sorted(c.stones)
        colour = Colour(c.colour)
        if stones[0] in proof.alive:
            out.append(ChainVerdict(stones, colour, Status.ALIVE, Source.BENSON, 1.0, 1.0))
        elif stones[0] in proof.dead:
            out.append(ChainVerdict(stones, colour, Status.DEAD, Source.BENSON, 1.0, 0.0))
        else:
            share = round(playouts.share(stones, c.colour), 3)
            if share >= alive_from:
                out.append(ChainVerdict(stones, colour, Status.ALIVE, Source.ESTIMATE, share,
                                        share))
            elif share < dead_below:
                out.append(ChainVerdict(stones, colour, Status.DEAD, Source.ESTIMATE,
                                        round(1 - share, 3), share))
            else:
                out.append(ChainVerdict(stones, colour, Status.UNCERTAIN, Source.ESTIMATE,
                                        max(share, round(1 - share, 3)), share))
    return Judgement(out, playouts.count, seed, {
        "dead_below": dead_below, "alive_from": alive_from, "first_round": first_round,
        "max_playouts": max_playouts})
