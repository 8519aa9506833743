"""Engines behind one interface: start, judge a position, close (the list of them:
:mod:`sgfcheck.judge.engines`).

An engine judges the final position of a game (its stones on a board, the player to move, and
the game's context: the ruleset and komi the count uses) and answers which stones are dead,
which are in seki, and, where it can tell, how sure it is of each chain
(:class:`EngineJudgement`). Nothing outside the engines' own modules knows which engine it talks
to: the dead-stone sources ask :func:`sgfcheck.judge.engines.running` for one by name.

- ``gnugo`` (:mod:`sgfcheck.judge.gnugo`): GNU Go 3.8 over GTP, ``final_status_list dead`` and
  ``seki``; no confidence.
- ``katago`` (:mod:`sgfcheck.judge.katago`): KataGo's ownership of every point over its JSON
  analysis protocol, asked once with each side to move; a chain is dead when the opponent owns
  its points beyond 0.5 both times, unsettled when only one answer says so, and its confidence
  is its weaker mean ownership on the side of its verdict.

Every failure is an :class:`EngineError` whose ``code`` is the finding that reports it
(``LIF001`` GNU Go, ``LIF002`` KataGo).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from sgfcheck.findings import Code

if TYPE_CHECKING:
    from sgfcheck.colour import Colour
    from sgfcheck.records.context import GameContext
    from sgfcheck.replay.board import Board


def end_process(process: subprocess.Popen[Any]) -> None:
    """End an engine's process and everything it started (a wrapper script's child too): the
    engines run in a session of their own (``start_new_session``), so its whole group is killed,
    which no engine can ignore (an engine that ignores SIGTERM and the end of its input was once
    left running after the command ended). Waits for it."""
    if os.name == "posix":
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)  # the group outlives a wrapper that ended
    if process.poll() is None:
        with contextlib.suppress(OSError):
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)


@dataclass(frozen=True)
class EngineStatus:
    """Whether an engine is installed here and usable, and the details (``engines list``)."""

    name: str
    usable: bool
    detail: str


class EngineError(Exception):
    """An engine is missing, failed, or did not answer in time; the message says which."""

    code: Code
    """The finding that reports it."""


@dataclass
class EngineJudgement:
    """An engine's word on a position."""

    dead: set[int]
    """Board indices of dead stones."""
    seki: set[int] = field(default_factory=set)
    """Board indices of stones in seki (where the engine says)."""
    confidence: dict[int, float] = field(default_factory=dict)
    """Each chain's confidence in its verdict, keyed by its first stone (empty when the engine
    gives none)."""
    notes: list[str] = field(default_factory=list)
    """What the engine did, for the reader."""
    unsettled: set[int] = field(default_factory=set)
    """Board indices of stones whose verdict depends on who moves first (the engine asked with
    each side to move disagrees), counted alive in ``dead``."""
    ownership: tuple[list[float], list[float]] | None = None
    """Every point's ownership (+1 Black .. -1 White) with Black to move, and with White (None
    when the engine gives none)."""


class Engine(Protocol):
    """A running engine."""

    name: str

    def judge(self, board: Board, context: GameContext, to_move: Colour) -> EngineJudgement:
        """The engine's word on the position; raises :class:`EngineError`."""
        ...

    def close(self) -> None:
        """Stop the engine (its process, if it keeps one)."""
        ...
