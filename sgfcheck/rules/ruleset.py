"""The rules of Go as parameters: :class:`Ruleset`, every parameter one typed field.

As in KataGo's rules record, a named ruleset is nothing but values of :class:`Ruleset`
(:mod:`sgfcheck.rules.presets`); the rest of sgfcheck asks for a parameter (``ruleset.ko``),
never "is this Japanese?". A ruleset prints itself as a canonical string
(:meth:`Ruleset.to_string`) that :func:`sgfcheck.rules.spellings.parse_rules_string` reads back.
The manual's rulesets page gives each parameter's sources.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any


class KoRule(str, Enum):
    SIMPLE = "simple"
    """Only the immediate recapture of a single stone is forbidden."""
    POSITIONAL = "positional"
    """PSK: no board play may recreate an earlier whole-board position."""
    SITUATIONAL = "situational"
    """SSK: no board play may recreate an earlier position with the same player to move
    (positions reached by passes count, as in KataGo and New Zealand rules)."""
    NATURAL_SITUATIONAL = "natural-situational"
    """NSSK: no board play may recreate a position the same player created by a board play."""


class SuicideRule(str, Enum):
    FORBIDDEN = "forbidden"
    MULTI_STONE = "multi-stone"
    """Suicide of two or more stones is legal; single-stone suicide is not."""
    ALLOWED = "allowed"


class Scoring(str, Enum):
    AREA = "area"
    TERRITORY = "territory"
    STONE = "stone"


class Tax(str, Enum):
    NONE = "none"
    """Eyes of groups in seki count for their owner."""
    SEKI = "seki"
    """Empty points surrounded by groups in seki are nobody's (Japanese 1989 Art. 8)."""
    ALL = "all"
    """As SEKI, and every living group pays two points (stone scoring)."""


class HandicapBonus(str, Enum):
    """Points White receives under area counting for N handicap stones."""

    ZERO = "0"
    N = "N"
    N_MINUS_ONE = "N-1"

    def points(self, stones: int) -> int:
        if stones < 2:
            return 0
        if self is HandicapBonus.N:
            return stones
        if self is HandicapBonus.N_MINUS_ONE:
            return stones - 1
        return 0


class LongCycle(str, Enum):
    """What a repeating cycle (triple ko, eternal life) means under simple-ko rules."""

    NO_RESULT = "no-result"
    DRAW = "draw"
    VOID = "void"
    FORBIDDEN = "forbidden"


@dataclass(frozen=True)
class Ruleset:
    """Every parameter that changes legality or the count."""

    name: str
    ko: KoRule
    suicide: SuicideRule
    scoring: Scoring
    komi: float
    handicap_bonus: HandicapBonus
    pass_stones: bool
    white_passes_last: bool
    tax: Tax
    first_pass_bonus: float = 0.0
    """Points for the first player to pass (KataGo's button)."""
    white_first_pass_bonus: float = 0.0
    """Points for White only if White passed first (WMSG 2008)."""
    black_wins_ties: bool = False
    long_cycle: LongCycle = LongCycle.FORBIDDEN
    play_may_resume: bool = True
    """Whether play may go on after two consecutive passes (disputes, confirmation)."""
    bent_four_dead: bool = False
    """Whether bent four in the corner is dead as it stands, without a ko fight (the Japanese
    1989 rules' precedent: the attacker may start the ko when he likes, the defender never).
    Elsewhere it must be played out, and a position left so counts as the seki it looks like."""
    komi_fixed: bool = False
    """Whether the rules themselves fix the komi of an even game (Ing: 8, Black winning ties),
    so that a record without ``KM`` is read with it. Elsewhere the komi is the organiser's
    choice, and a record without ``KM`` does not say it."""
    source: str = ""

    @property
    def seki_territory(self) -> bool:
        """Whether empty points inside seki count for the surrounding colour."""
        return self.tax is Tax.NONE

    def parameters(self) -> dict[str, Any]:
        """Every parameter by name, enums as their string values (a new dict each call; worked
        out once per ruleset: every row of a batch report writes them)."""
        cached = self.__dict__.get("_parameters")
        if cached is None:
            cached = {}
            for f in FIELD_NAMES:
                value = getattr(self, f)
                cached[f] = value.value if isinstance(value, Enum) else value
            object.__setattr__(self, "_parameters", cached)
        return dict(cached)

    def __hash__(self) -> int:
        """The hash of every field, as the dataclass's own, worked out once per value (a
        ruleset keys the counts of every game: its 26 fields were hashed again each time). Not
        carried by pickling: a string's hash differs from process to process."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, name) for name in _ALL_FIELDS))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    def with_komi(self, komi: float) -> Ruleset:
        """The same rules with another komi."""
        return replace(self, komi=komi)

    def to_string(self) -> str:
        """Canonical one-line form; :func:`parse_rules_string` reads it back."""
        cached = self.__dict__.get("_string")
        if cached is None:
            p = self.parameters()
            name = p.pop("name")
            cached = name + ":" + ",".join(f"{k}={format_value(v)}" for k, v in p.items())
            object.__setattr__(self, "_string", cached)
        return cached


FIELD_NAMES = [f.name for f in fields(Ruleset) if f.name != "source"]
_ALL_FIELDS = tuple(f.name for f in fields(Ruleset))
"""Every field, ``source`` too: what equality compares, and the hash reads."""


def format_value(value: Any) -> str:
    """A parameter value as written in rule strings and tables (yes/no, 7.5, simple)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


MAX_KOMI = 2704.0
"""No komi can be larger than the points of the largest board (52x52)."""


def komi_value(text: object) -> float:
    """A komi from text or a number; ValueError unless it is a finite number a game can have
    (``inf``, ``nan`` and ``1e400`` would make counts no JSON can hold)."""
    komi = float(text)  # type: ignore[arg-type]
    if not math.isfinite(komi) or abs(komi) > MAX_KOMI:
        raise ValueError(f"komi {text!r} is not a number a game can have")
    return komi
