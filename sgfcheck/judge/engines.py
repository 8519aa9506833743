"""The one list of engines sgfcheck can ask about dead stones, by name, each behind the interface
of :mod:`sgfcheck.judge.engine`."""

from __future__ import annotations

from collections.abc import Callable

from sgfcheck.judge.engine import Engine
from sgfcheck.judge.gnugo import GnuGo
from sgfcheck.judge.katago import start_katago

ENGINES: dict[str, Callable[[], Engine]] = {"gnugo": GnuGo, "katago": start_katago}
"""Every engine sgfcheck can ask, by name: a function that gives it running (raises
:class:`~sgfcheck.judge.engine.EngineError`)."""


def running(name: str) -> Engine:
    """The engine of that name, running: an engine that keeps a process keeps one per process
    and configuration (KataGo loads its network once a run). Raises
    :class:`~sgfcheck.judge.engine.EngineError`; a ``KeyError`` for a name not in
    :data:`ENGINES`."""
    return ENGINES[name]()
