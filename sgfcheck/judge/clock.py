"""Engine time: the seconds engines (KataGo, GNU Go) may take, and what they took.

An engine answers in its own time, which the input does not bound (KataGo on a CPU takes about
half a second a question; a file of thousands of games would take hours). So every question to an
engine waits within the bounds that hold where it is asked: one game's position
(``--limit engine-game``), one file's games together (``--limit engine-file``; in ``batch`` also
half the file's ``--timeout``, so that the check and the count always have the other half), and
a whole command (``--timeout`` of ``score``, ``annotate``, ``life``). Each bound is a block
(:func:`bounded`); blocks nest and the earliest end holds. A question asked when a bound has ended
raises :class:`TimeSpent` (finding ``LIF003``), which the dead-stone sources turn into the
estimate's decision standing, said so: a slow judge never costs a record its findings.

What the engines took is counted per process (:data:`USE`: games asked, seconds, games an ended
bound refused) for the summaries, and a watcher (:func:`watching`) is told when an engine is
asked, for the progress display.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from sgfcheck import findings as F
from sgfcheck.engineregistry import shown_name
from sgfcheck.judge.interface import EngineError
from sgfcheck.limits import Limits


@dataclass(frozen=True)
class Bound:
    """A bound on engine time: when it ends and how the user sets it."""

    deadline: float
    """``time.monotonic()`` at its end."""
    seconds: float
    option: str
    """How it is set (``--limit engine-file=30``), for the finding."""
    game: bool = False
    """The bound of one game's position: an engine's start (once a process) is not the game's
    to pay."""


class TimeSpent(EngineError):
    """An engine was not asked, or stopped waiting for, because a bound on engine time ended."""

    code = F.LIF_TIME

    def __init__(self, engine: str, bound: Bound, waiting: bool = False) -> None:
        shown = shown_name(engine)
        what = f"{shown}'s answer not waited for" if waiting else f"{shown} not asked"
        super().__init__(f"{what}: the engine time of {bound.option} "
                         f"({bound.seconds:g} s) was spent")
        self.bound = bound


_BOUNDS: ContextVar[tuple[Bound, ...]] = ContextVar("sgfcheck_engine_bounds", default=())


@contextmanager
def bounded(seconds: float, option: str, game: bool = False) -> Iterator[None]:
    """Within this block engines take at most ``seconds`` more (0 or less: no bound of its own);
    ``option`` says how the user sets it; ``game``: the bound of one game's position."""
    if seconds <= 0:
        yield
        return
    token = _BOUNDS.set((*_BOUNDS.get(),
                         Bound(time.monotonic() + seconds, seconds, option, game)))
    try:
        yield
    finally:
        _BOUNDS.reset(token)


def per_game(limits: Limits) -> AbstractContextManager[None]:
    """The bound of one game's position (``--limit engine-game``)."""
    return bounded(limits.engine_game, f"--limit {limits.describe('engine_game')}", game=True)


def per_file(limits: Limits) -> AbstractContextManager[None]:
    """The bound of one file's games (``--limit engine-file``)."""
    return bounded(limits.engine_file, f"--limit {limits.describe('engine_file')}")


def allowance(engine: str, wanted: float, start: bool = False) -> tuple[float, Bound | None]:
    """How long an engine may take now: ``wanted`` seconds, or less where a bound ends sooner
    (that bound is returned with it, else None). Raises :class:`TimeSpent` when one has ended.
    ``start``: for starting the engine's process, which the game's own bound does not pay for
    (the file's and the command's do)."""
    now = time.monotonic()
    left, ending = wanted, None
    for bound in _BOUNDS.get():
        if start and bound.game:
            continue
        remaining = bound.deadline - now
        if remaining <= 0:
            raise TimeSpent(engine, bound)
        if remaining < left:
            left, ending = remaining, bound
    return left, ending


@dataclass
class EngineUse:
    """What the engines took in this process."""

    games: int = 0
    """Positions asked of an engine (a game asked again, to confirm, counts again)."""
    seconds: float = 0.0
    refused: int = 0
    """Positions not asked, or not answered, because a bound on engine time ended."""

    def since(self, before: EngineUse) -> EngineUse:
        return EngineUse(self.games - before.games, self.seconds - before.seconds,
                         self.refused - before.refused)

    def copy(self) -> EngineUse:
        return EngineUse(self.games, self.seconds, self.refused)


USE = EngineUse()
"""This process's engine use (a batch worker's travels with each file's outcome)."""

_WATCHER: ContextVar[Callable[[str], None] | None] = ContextVar("sgfcheck_engine_watcher",
                                                               default=None)


@contextmanager
def watching(watcher: Callable[[str], None]) -> Iterator[None]:
    """Within this block, ``watcher`` is told the engine's name each time one is asked."""
    token = _WATCHER.set(watcher)
    try:
        yield
    finally:
        _WATCHER.reset(token)


@contextmanager
def asking(engine: str) -> Iterator[None]:
    """One position asked of ``engine``: the watcher told, the time counted in :data:`USE`."""
    watcher = _WATCHER.get()
    if watcher is not None:
        watcher(engine)
    start = time.monotonic()
    try:
        yield
    except TimeSpent:
        USE.refused += 1
        raise
    else:
        USE.games += 1
    finally:
        USE.seconds += time.monotonic() - start
