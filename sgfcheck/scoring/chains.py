"""The life of every chain at the end of a game (``sgfcheck life``): alive, dead, seki,
uncertain or unknown, who decided it and how sure it is.

Built on the dead stones (:mod:`sgfcheck.judge.deadstones`) and the position analysis
(:mod:`sgfcheck.position.analysis`): the dead-stone source's word decides where it has one; Benson's
proofs decide the rest; groups that live only in seki, sharing a dame point with such a group of
the other colour, are seki.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgfcheck.colour import Colour
from sgfcheck.judge.benson import prove
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.position.analysis import analyse
from sgfcheck.replay.board import Board
from sgfcheck.status import ENGINE_SOURCES, Source, Status


@dataclass
class ChainStatus:
    """One chain's life and who said so."""

    stones: list[int]
    """Its stones (board indices), in board order."""
    points: list[str]
    """The same stones' GTP names."""
    colour: Colour
    status: Status
    source: Source
    confidence: float | None
    """1.0 for proofs and the players' agreement; for the estimate, the share of playouts that
    agree (the weaker of its two sides'); None when the source gives none (GNU Go)."""
    shares: tuple[float, float] | None = None
    """For the estimate: the share of playouts in which the chain stayed its colour's, with
    Black to move first and with White."""


def chain_statuses(board: Board, dead: DeadStones | None) -> list[ChainStatus]:
    """Every chain's status. With a dead-stone source (markup, GNU Go, --dead) its word decides;
    without one, only Benson's proofs decide and the rest is ``unknown``. Groups that live only
    in seki (found after removing the dead stones) are ``seki``."""
    proof = prove(board)
    known = dead is not None and not dead.assumed
    dead_points = set(dead.points) if known and dead is not None else set(proof.dead)
    verdicts = dead.judgement.by_point() if dead is not None and dead.judgement else {}
    position = analyse(board, dead_points)
    seki = position.seki_alive()
    out = []
    for chain in board.chains():
        stones = sorted(chain.stones)
        first = stones[0]
        verdict = verdicts.get(first)
        status: Status
        source: Source
        conf: float | None
        if verdict is not None:
            status, source, conf = verdict.status, verdict.source, verdict.confidence
        elif first in proof.alive:
            status, source, conf = Status.ALIVE, Source.BENSON, 1.0
        elif first in proof.dead:
            status, source, conf = Status.DEAD, Source.BENSON, 1.0
        elif known and dead is not None:
            status = Status.DEAD if first in dead_points else Status.ALIVE
            source = dead.source
            conf = None if dead.source in ENGINE_SOURCES else 1.0
        else:
            status, source, conf = Status.UNKNOWN, Source.NONE, None
        if (status in (Status.ALIVE, Status.UNKNOWN) and first in seki
                and first not in proof.alive):
            status, source = Status.SEKI, Source.SEKI_ANALYSIS
        out.append(ChainStatus(stones, [board.name(p) for p in stones], Colour(chain.colour),
                               status, source, conf,
                               verdict.shares if verdict is not None else None))
    return out
