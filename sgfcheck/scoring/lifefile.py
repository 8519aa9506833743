"""Every chain's status in each game of a file, and who decided it (``sgfcheck life``): the
check, the position asked for and its dead stones
(:func:`sgfcheck.scoring.adjudicate.judge_position`), then each chain's status and the points
the judgement leaves open.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sgfcheck.findings import Finding
from sgfcheck.judge.clock import per_file, per_game
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.position.analysis import analyse
from sgfcheck.position.owners import PointOwners, point_owners
from sgfcheck.records.record import LoadedFile, load_bytes, load_file
from sgfcheck.replay.board import Board
from sgfcheck.replay.check import FileReport, GameReport
from sgfcheck.scoring.adjudicate import checked_file, judge_position
from sgfcheck.scoring.chains import ChainStatus, chain_statuses
from sgfcheck.settings import Settings


@dataclass
class GameLife:
    """Every chain's status in one game's position (``sgfcheck life``)."""

    check: GameReport
    board: Board | None = None
    dead: DeadStones | None = None
    chains: list[ChainStatus] = field(default_factory=list)
    owners: PointOwners | None = None
    """The points the count gives nobody, read from both sides (settled, open, dame), where the
    dead-stone source gives ownership."""
    move: int = 0
    error: str | None = None

    @property
    def findings(self) -> list[Finding]:
        """The check's findings and those of the dead-stone judgement (``LIF001``)."""
        extra = self.dead.findings if self.dead is not None else []
        return self.check.findings + extra


@dataclass
class FileLife:
    path: str
    check: FileReport
    games: list[GameLife]


def life_file(path: str | Path, settings: Settings | None = None) -> FileLife:
    """Each game's chains with their status, for ``sgfcheck life``."""
    settings = settings or Settings()
    return life_loaded(load_file(path, settings.encoding, settings.limits), settings)


def life_bytes(data: bytes, name: str = "<bytes>",
               settings: Settings | None = None) -> FileLife:
    """As :func:`life_file`, for a record held in memory."""
    settings = settings or Settings()
    return life_loaded(load_bytes(data, name, settings.encoding, settings.limits), settings)


def life_loaded(loaded: LoadedFile, settings: Settings,
                on_game: Callable[[], None] | None = None) -> FileLife:
    """Every chain of every game of a file read already (at most ``--limit judged``);
    ``on_game`` after each (progress)."""
    checked = checked_file(loaded, settings)
    out = []
    with per_file(settings.limits):
        for report in checked.games:
            if on_game is not None:
                on_game()
            out.append(_life_of(report, settings))
    return FileLife(loaded.path, checked, out)


def _life_of(report: GameReport, settings: Settings) -> GameLife:
    life = GameLife(report)
    with per_game(settings.limits):
        judged = judge_position(report, settings)
    if judged.replay is None or judged.dead is None:
        life.error = judged.error
        return life
    board, dead = judged.replay.board, judged.dead
    life.board, life.dead, life.move = board, dead, judged.replay.moves
    life.chains = chain_statuses(board, dead)
    if dead.ownership is not None:
        life.owners = point_owners(analyse(board, dead.points), dead.ownership)
    return life
