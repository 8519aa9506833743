"""The engines sgfcheck can ask about dead stones, one entry each: what every list of engines
is made from (their names for people, the words a verdict uses, the finding an engine's failure
is, and the order ``--engine auto`` asks them in for a second opinion). Whether a count rests on
an engine's ownership is read from its answer, not listed here. How each is started and found
is :mod:`sgfcheck.judge.engines`'s.

Adding an engine: its entry here (and a member of :class:`~sgfcheck.status.Source` named as its
entry's value), its start and its finder in :mod:`sgfcheck.judge.engines`.
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


ENGINES: tuple[EngineEntry, ...] = (
    EngineEntry(Source.KATAGO, "KataGo", "KataGo's ownership", F.LIF_KATAGO),
    EngineEntry(Source.GNUGO, "GNU Go", "GNU Go", F.LIF_GNUGO),
)
"""Every engine, in the order ``--engine auto`` asks for a second opinion (the first one
installed)."""

ENGINE_SOURCES = frozenset(e.source for e in ENGINES)
"""The dead-stone sources that are engines."""

FAILURES = frozenset(e.failure for e in ENGINES)
"""The findings an engine's failure is."""


BY_NAME = {e.source.value: e for e in ENGINES}
"""Each engine by its name (``katago``)."""


def shown_name(name: str) -> str:
    """An engine's name as people write it (``KataGo`` for ``katago``); another name as it is."""
    return BY_NAME[name].shown if name in BY_NAME else name
