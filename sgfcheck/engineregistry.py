"""The engines sgfcheck can ask about dead stones, one entry each: what every list of engines
is made from. Their names on the command line and in the JSON (the words of
:mod:`sgfcheck.status` that are engines: a chain's source, a ``--dead-stones`` choice, an
``--engine`` name), their names for people and the words a verdict uses, the finding an
engine's failure is (:mod:`sgfcheck.findings` makes it from the entry), how to install it (the
command line's help), the order ``--engine auto`` asks them in for a second opinion, and where
its start, finder and status are, by reference (:mod:`sgfcheck.judge.engines` imports an
engine's module only when it is asked for). Whether a count rests on an engine's ownership is
read from its answer, not listed here.

Adding an engine is two files: its module (its start, finder and status, behind the interface of
:mod:`sgfcheck.judge.interface`) and its entry here. Nothing else names an engine. This module
is plain data on the lowest floor, so that the word lists and the findings below every stage
can be made from it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EngineEntry:
    """One engine sgfcheck can ask."""

    name: str
    """Its name on the command line (``--dead-stones``, ``--engine``) and in the JSON
    (``katago``)."""
    shown: str
    """Its name as people write it (``KataGo``)."""
    decides_by: str
    """What decides a chain when it is asked (``KataGo's ownership``)."""
    failure: str
    """The code of the finding its failure is (``LIF002``): a code of its own, never reused."""
    install: str
    """Where it comes from, for the command line's help (``sgfcheck engines install katago``)."""
    start: str
    """``module:function`` giving it running (raises
    :class:`~sgfcheck.judge.interface.EngineError`)."""
    found: str
    """``module:function`` saying whether it is installed here (and can run)."""
    status: str
    """``module:function`` saying, for ``engines list``, whether it is installed and usable here
    and where (given ``start``: whether it may be started to answer a query)."""


ENGINES: tuple[EngineEntry, ...] = (
    EngineEntry("katago", "KataGo", "KataGo's ownership", "LIF002",
                "sgfcheck engines install katago",
                "sgfcheck.judge.katago:start_katago", "sgfcheck.judge.install:katago_usable",
                "sgfcheck.judge.install:katago_status"),
    EngineEntry("gnugo", "GNU Go", "GNU Go", "LIF001",
                "Debian package gnugo (GNU Go 3.8), or SGFCHECK_GNUGO",
                "sgfcheck.judge.gnugo:GnuGo", "sgfcheck.judge.gnugo:gnugo_installed",
                "sgfcheck.judge.gnugo:gnugo_status"),
)
"""Every engine, in the order ``--engine auto`` asks for a second opinion (the first one
installed)."""

BY_NAME = {e.name: e for e in ENGINES}
"""Each engine by its name (``katago``)."""

NAMES = tuple(sorted(BY_NAME))
"""The engines' names in the order the word lists show them (``gnugo``, ``katago``)."""


def shown_name(name: str) -> str:
    """An engine's name as people write it (``KataGo`` for ``katago``); another name as it is."""
    return BY_NAME[name].shown if name in BY_NAME else name
