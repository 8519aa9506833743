"""How each engine of the registry (:mod:`sgfcheck.judge.registry`) is started and found, each
behind the interface of :mod:`sgfcheck.judge.interface`."""

from __future__ import annotations

from collections.abc import Callable

from sgfcheck.judge.gnugo import GnuGo, find_gnugo
from sgfcheck.judge.install import katago_usable
from sgfcheck.judge.interface import Engine
from sgfcheck.judge.katago import start_katago
from sgfcheck.status import Source

ENGINES: dict[str, Callable[[], Engine]] = {Source.GNUGO.value: GnuGo,
                                            Source.KATAGO.value: start_katago}
"""Every engine of the registry, by name: a function that gives it running (raises
:class:`~sgfcheck.judge.interface.EngineError`)."""


INSTALLED: dict[str, Callable[[], bool]] = {Source.GNUGO.value: lambda: find_gnugo() is not None,
                                            Source.KATAGO.value: katago_usable}
"""Whether each engine of the registry is installed here (and, for KataGo, can run)."""


def installed(name: str) -> bool:
    """The engine of that name is installed here."""
    return INSTALLED[name]()


def running(name: str) -> Engine:
    """The engine of that name, running: an engine that keeps a process keeps one per process
    and configuration (KataGo loads its network once a run). Raises
    :class:`~sgfcheck.judge.interface.EngineError`; a ``KeyError`` for a name not in
    :data:`ENGINES`."""
    return ENGINES[name]()
