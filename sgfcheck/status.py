"""Words for a chain's life: its status, and who decided it; and the base of every word list
(:class:`StrEnum`: an enum whose members are their own string values, so that ``str()``,
f-strings, JSON and CSV give the value; Python 3.11's, or an equivalent on 3.10).

A :class:`Status` is what is said of a chain at the end of a game; a :class:`Source` is who said
it: the players (TB/TW markup), the user (``--dead``, ``--alive``), a proof (Benson), sgfcheck's
estimate, a precedent of the rules, an engine (GNU Go, KataGo), the seki analysis, or nobody.
The dead-stone sources, the estimate and the chain statuses all use these words, and the reports
print their values. Who a user may ask (``--dead-stones``: :class:`DeadStoneChoice`;
``--engine``: :class:`EngineName`) is said in the same words.

The engines' words in the three lists are made from the registry of engines
(:mod:`sgfcheck.engineregistry`), one member each (``Source("katago")``, also
``Source.KATAGO``), in the place of the list where the engines stand: the enum's own way of
making members in a loop (``_ignore_``). A type checker sees only the other members, and no
code outside an engine's own module names an engine's member.
"""

from __future__ import annotations

import sys
from enum import Enum

from sgfcheck.engineregistry import NAMES

_ENGINES = tuple((name.upper().replace("-", "_"), name) for name in NAMES)
"""Each engine's member of the word lists: its member's name and its value (``KATAGO``,
``katago``)."""

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # pragma: no cover - Python 3.10

    class StrEnum(str, Enum):
        """A string enum printed as its value."""

        def __str__(self) -> str:
            return str(self.value)

        def __format__(self, spec: str) -> str:
            return format(str(self.value), spec)


class Status(StrEnum):
    ALIVE = "alive"
    DEAD = "dead"
    SEKI = "seki"
    UNCERTAIN = "uncertain"
    """The estimate looked and could not decide."""
    UNKNOWN = "unknown"
    """Nothing was asked that could decide (no markup, no estimate, no proof)."""


class Source(StrEnum):
    USER_DEAD = "--dead"
    USER_ALIVE = "--alive"
    MARKUP = "markup"
    """TB/TW on the final node: the players' agreement (KGS, CGoban)."""
    BENSON = "benson"
    """A proof: unconditional life, or dead inside such a group's territory."""
    ESTIMATE = "estimate"
    _ignore_ = ["_member", "_value"]
    for _member, _value in _ENGINES:  # GNUGO = "gnugo", KATAGO = "katago" ...
        vars()[_member] = _value
    RULES = "rules"
    """A precedent of the game's rules (bent four in the corner, dead under the Japanese rules)."""
    SEKI_ANALYSIS = "seki analysis"
    NONE = "none"
    """Nobody: every stone counted alive."""

    @property
    def label(self) -> str:
        """The source for people (``--alive`` is also ``--dead-stones none``)."""
        return "none asked: every stone alive" if self is Source.USER_ALIVE else self.value


class DeadStoneChoice(StrEnum):
    """Where dead stones come from (``--dead-stones``)."""

    AUTO = "auto"
    """TB/TW markup when the record has it, else the estimate."""
    MARKUP = "markup"
    """TB/TW markup, else only stones proven dead."""
    ESTIMATE = "estimate"
    BENSON = "benson"
    """Only stones proven dead."""
    _ignore_ = ["_member", "_value"]
    for _member, _value in _ENGINES:  # ask that engine
        vars()[_member] = _value
    NONE = "none"
    """Every stone alive."""


class EngineName(StrEnum):
    """An engine the estimate asks about the chains it cannot decide (``--engine``)."""

    AUTO = "auto"
    """KataGo, where installed, is asked to confirm a mismatch the estimate's dead stones would
    give (and only that); elsewhere the estimate alone."""
    NONE = "none"
    _ignore_ = ["_member", "_value"]
    for _member, _value in _ENGINES:  # the estimate asks that engine
        vars()[_member] = _value


ENGINE_NAMES = frozenset(name for name in EngineName
                         if name not in (EngineName.AUTO, EngineName.NONE))
"""The ``--engine`` names that are engines (not ``auto``, not ``none``)."""
ENGINE_JUDGES = frozenset(DeadStoneChoice(name.value) for name in ENGINE_NAMES)
ENGINE_SOURCES = frozenset(Source(name.value) for name in ENGINE_NAMES)
"""The ``--dead-stones`` choices and the dead-stone sources that are engines: the same names (an
engine ``--engine`` takes that is not a choice and a source fails here, on import)."""
