"""The one list of engines sgfcheck can ask about dead stones, by name, each behind the interface
of :mod:`sgfcheck.judge.interface`."""

from __future__ import annotations

from collections.abc import Callable

from sgfcheck.judge.gnugo import GnuGo
from sgfcheck.judge.interface import Engine
from sgfcheck.judge.katago import start_katago
from sgfcheck.status import Source

ENGINES: dict[str, Callable[[], Engine]] = {Source.GNUGO.value: GnuGo,
                                            Source.KATAGO.value: start_katago}
"""Every engine sgfcheck can ask, by name: a function that gives it running (raises
:class:`~sgfcheck.judge.interface.EngineError`)."""


def running(name: str) -> Engine:
    """The engine of that name, running: an engine that keeps a process keeps one per process
    and configuration (KataGo loads its network once a run). Raises
    :class:`~sgfcheck.judge.interface.EngineError`; a ``KeyError`` for a name not in
    :data:`ENGINES`."""
    return ENGINES[name]()
