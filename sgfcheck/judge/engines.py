"""How each engine of the registry (:mod:`sgfcheck.engineregistry`) is started and found, each
behind the interface of :mod:`sgfcheck.judge.interface`: its entry says where, and its module is
imported only when it is asked for."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from sgfcheck.engineregistry import ENGINES as REGISTRY
from sgfcheck.judge.interface import Engine, EngineStatus


def _later(reference: str) -> Callable[..., Any]:
    """``module:function``, imported when first called."""
    def call(*args: Any) -> Any:
        module, _, name = reference.partition(":")
        return getattr(importlib.import_module(module), name)(*args)
    return call


ENGINES: dict[str, Callable[[], Engine]] = {e.name: _later(e.start) for e in REGISTRY}
"""Every engine of the registry, by name: a function that gives it running (raises
:class:`~sgfcheck.judge.interface.EngineError`)."""

INSTALLED: dict[str, Callable[[], bool]] = {e.name: _later(e.found) for e in REGISTRY}
"""Whether each engine of the registry is installed here (and, for KataGo, can run)."""


def statuses(start: bool = True) -> list[EngineStatus]:
    """Every engine of the registry, by name: whether it is installed and usable here, and
    where (``start``: an engine may be started to answer a query; KataGo's start takes seconds,
    loading its network)."""
    return [_later(e.status)(start) for e in sorted(REGISTRY, key=lambda e: e.name)]


def installed(name: str) -> bool:
    """The engine of that name is installed here."""
    return INSTALLED[name]()


def running(name: str) -> Engine:
    """The engine of that name, running: an engine that keeps a process keeps one per process
    and configuration (KataGo loads its network once a run). Raises
    :class:`~sgfcheck.judge.interface.EngineError`; a ``KeyError`` for a name not in
    :data:`ENGINES`."""
    return ENGINES[name]()
