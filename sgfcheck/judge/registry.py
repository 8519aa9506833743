"""The engines sgfcheck can ask about dead stones, one entry each: what every list of engines
is made from (their names for people, the words a verdict uses, the finding an engine's failure
is, the order ``--engine auto`` asks them in for a second opinion, and where its start and its
finder are, by reference: :mod:`sgfcheck.judge.engines` imports an engine's module only when it
is asked for). Whether a count rests on an engine's ownership is read from its answer, not
listed here.

Adding an engine: its module (its start, finder and status), its entry here, and its name in the
three word lists a type checker must see (:class:`~sgfcheck.status.Source`,
:class:`~sgfcheck.status.DeadStoneChoice`, :class:`~sgfcheck.status.EngineName`, one file; a test
holds them to this registry). Nothing else names an engine: the dead-stone sources, the estimate,
the second opinion, ``engines list`` and the verdict's words are made from these entries.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgfcheck import findings as F
from sgfcheck.findings import Code
from sgfcheck.status import Source


@dataclass(frozen=True)
class EngineEntry:
    """One engine sgfcheck can ask."""

    source: Source
    """Its name on the command line (``--dead-stones``, ``--engine``) and in the JSON."""
    shown: str
    """Its name as people write it (``KataGo``)."""
    decides_by: str
    """What decides a chain when it is asked (``KataGo's ownership``)."""
    failure: Code
    """The finding its failure is (``LIF001``, ``LIF002``)."""
    start: str
    """``module:function`` giving it running (raises
    :class:`~sgfcheck.judge.interface.EngineError`)."""
    found: str
    """``module:function`` saying whether it is installed here (and can run)."""
    status: str
    """``module:function`` saying, for ``engines list``, whether it is installed and usable here
    and where (given ``start``: whether it may be started to answer a query)."""


ENGINES: tuple[EngineEntry, ...] = (
    EngineEntry(Source.KATAGO, "KataGo", "KataGo's ownership", F.LIF_KATAGO,
                "sgfcheck.judge.katago:start_katago", "sgfcheck.judge.install:katago_usable",
                "sgfcheck.judge.install:katago_status"),
    EngineEntry(Source.GNUGO, "GNU Go", "GNU Go", F.LIF_GNUGO,
                "sgfcheck.judge.gnugo:GnuGo", "sgfcheck.judge.gnugo:gnugo_installed",
                "sgfcheck.judge.gnugo:gnugo_status"),
)
"""Every engine, in the order ``--engine auto`` asks for a second opinion (the first one
installed)."""

FAILURES = frozenset(e.failure for e in ENGINES)
"""The findings an engine's failure is."""


BY_NAME = {e.source.value: e for e in ENGINES}
"""Each engine by its name (``katago``)."""


def shown_name(name: str) -> str:
    """An engine's name as people write it (``KataGo`` for ``katago``); another name as it is."""
    return BY_NAME[name].shown if name in BY_NAME else name
