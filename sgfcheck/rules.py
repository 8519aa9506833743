"""Rulesets: every rule parameter explicit, named presets, and RU values from real files.

As in KataGo's rules record, a named ruleset is nothing but preset values of :class:`Ruleset`;
the rest of sgfcheck asks for a parameter (``ruleset.ko``), never "is this Japanese?".
Facts and sources: ``shared/docs/rules.md`` sections 1, 2 and 7.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, fields, replace
from enum import Enum
from functools import lru_cache
from typing import Any, get_type_hints


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
    source: str = ""

    @property
    def seki_territory(self) -> bool:
        """Whether empty points inside seki count for the surrounding colour."""
        return self.tax is Tax.NONE

    def parameters(self) -> dict[str, Any]:
        """Every parameter by name, enums as their string values."""
        out: dict[str, Any] = {}
        for f in _FIELDS:
            value = getattr(self, f)
            out[f] = value.value if isinstance(value, Enum) else value
        return out

    def to_string(self) -> str:
        """Canonical one-line form; :func:`parse_rules_string` reads it back."""
        cached = self.__dict__.get("_string")
        if cached is None:
            p = self.parameters()
            name = p.pop("name")
            cached = name + ":" + ",".join(f"{k}={format_value(v)}" for k, v in p.items())
            object.__setattr__(self, "_string", cached)
        return cached


_FIELDS = [f.name for f in fields(Ruleset) if f.name != "source"]


def format_value(value: Any) -> str:
    """A parameter value as written in rule strings and tables (yes/no, 7.5, simple)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


TROMP_TAYLOR = Ruleset(
    "tromp-taylor", ko=KoRule.POSITIONAL, suicide=SuicideRule.ALLOWED, scoring=Scoring.AREA,
    komi=7.5, handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False,
    tax=Tax.NONE, play_may_resume=False,
    source="Tromp-Taylor rules (tromp.github.io/go.html): PSK, suicide allowed, area counting of "
    "everything on the board; komi not fixed by the rules, 7.5 as in KataGo.",
)
CHINESE = Ruleset(
    "chinese", ko=KoRule.SIMPLE, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.AREA, komi=7.5,
    handicap_bonus=HandicapBonus.N, pass_stones=False, white_passes_last=False, tax=Tax.NONE,
    long_cycle=LongCycle.VOID,
    source="Chinese rules 2002 as practised (KataGo `chinese`): simple ko with long cycles voided "
    "by the referee (Art. 20), suicide forbidden, area counting, komi 7.5 (3.75 zi), White +N "
    "for N handicap stones.",
)
JAPANESE = Ruleset(
    "japanese", ko=KoRule.SIMPLE, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.TERRITORY,
    komi=6.5, handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False,
    tax=Tax.SEKI, long_cycle=LongCycle.NO_RESULT,
    source="Japanese rules 1989: simple ko (Art. 6), long cycle = no result (Art. 12), suicide "
    "forbidden (Art. 4), territory + prisoners, no territory in seki (Art. 8), komi 6.5.",
)
KOREAN = Ruleset(
    "korean", ko=KoRule.SIMPLE, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.TERRITORY, komi=6.5,
    handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False, tax=Tax.SEKI,
    long_cycle=LongCycle.DRAW,
    source="Korean (KBA 2016): as Japanese, but a repetition ends the game as a draw.",
)
AGA = Ruleset(
    "aga", ko=KoRule.SITUATIONAL, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.AREA, komi=7.5,
    handicap_bonus=HandicapBonus.N_MINUS_ONE, pass_stones=True, white_passes_last=True,
    tax=Tax.NONE,
    source="AGA concise rules (1991, current summary): SSK, self-capture illegal, area counting "
    "or territory with pass stones (equal by design), White passes last, komi 7.5 (0.5 in "
    "handicap games), White +N-1 under area counting.",
)
BGA = Ruleset(
    "bga", ko=KoRule.NATURAL_SITUATIONAL, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.AREA,
    komi=7.5, handicap_bonus=HandicapBonus.N_MINUS_ONE, pass_stones=True, white_passes_last=True,
    tax=Tax.NONE,
    source="BGA rules (britgo.org interpretation of AGA Rule 6): NSSK, otherwise as AGA.",
)
ING = Ruleset(
    "ing", ko=KoRule.POSITIONAL, suicide=SuicideRule.MULTI_STONE, scoring=Scoring.AREA, komi=8.0,
    handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False, tax=Tax.NONE,
    black_wins_ties=True,
    source="Ing SST laws 1991 / GOE 1996: multi-stone suicide legal, single-stone not; area "
    "(fill-in) counting; komi 8 with Black winning ties; no handicap compensation in the "
    "official texts. Ing's fighting/disturbing ko rule is approximated by PSK, as KataGo does.",
)
NEW_ZEALAND = Ruleset(
    "new-zealand", ko=KoRule.SITUATIONAL, suicide=SuicideRule.ALLOWED, scoring=Scoring.AREA,
    komi=7.0, handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False,
    tax=Tax.NONE,
    source="New Zealand rules: SSK counting positions after passes, suicide allowed, area "
    "counting, integer komi 7 (jigo possible), no handicap compensation.",
)
WMSG = Ruleset(
    "wmsg", ko=KoRule.POSITIONAL, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.AREA, komi=6.5,
    handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False, tax=Tax.NONE,
    white_first_pass_bonus=1.0,
    source="World Mind Sports Games 2008 (IGF): PSK, suicide forbidden, area counting, komi 6.5 "
    "plus 1 point to White if White passed first. Handicap not covered (even games): 0 assumed.",
)
STONE_SCORING = Ruleset(
    "stone-scoring", ko=KoRule.SIMPLE, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.STONE,
    komi=7.5, handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False,
    tax=Tax.ALL, long_cycle=LongCycle.NO_RESULT, play_may_resume=False,
    source="Ancient stone scoring (KataGo `stone-scoring`): only stones on the board count, so "
    "every living group pays 2 points for its eyes; simple ko; komi 7.5.",
)

PRESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        TROMP_TAYLOR, CHINESE, JAPANESE, KOREAN, AGA, BGA, ING, NEW_ZEALAND, WMSG, STONE_SCORING
    )
}

# RU spellings (normalised: lower case, letters and digits only) -> preset.
_ALIASES = {
    "japanese": "japanese", "jp": "japanese", "japaneserules": "japanese", "japan": "japanese",
    "nihonkiin": "japanese",
    "korean": "korean", "ko": "korean", "kr": "korean", "korea": "korean",
    "chinese": "chinese", "cn": "chinese", "zh": "chinese", "china": "chinese",
    "chinesepairgo": "chinese", "chinesekgs": "chinese", "chineseogs": "chinese",
    "aga": "aga", "us": "aga", "american": "aga",
    "bga": "bga", "british": "bga",
    "nz": "new-zealand", "newzealand": "new-zealand",
    "goe": "ing", "ing": "ing", "inggoe": "ing", "ingsst": "ing", "sst": "ing",
    "tromptaylor": "tromp-taylor", "tt": "tromp-taylor",
    "wmsg": "wmsg", "igf": "wmsg", "wmsg2008": "wmsg",
    "stonescoring": "stone-scoring", "ancientarea": "stone-scoring", "stone": "stone-scoring",
    "oldchinese": "stone-scoring", "ancientchinese": "stone-scoring",
}
_CLOSEST = {"chinesekgs": "KGS/OGS play Chinese with a superko rule"}


def normalise_name(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def preset(name: str) -> Ruleset:
    """A preset by name or alias. Raises KeyError."""
    key = normalise_name(name)
    if key in _ALIASES:
        return PRESETS[_ALIASES[key]]
    raise KeyError(name)


_KATAGO_RE = re.compile(
    r"^ko(SIMPLE|POSITIONAL|SITUATIONAL|SPIGHT)score(AREA|TERRITORY)(?:tax(NONE|SEKI|ALL))?"
    r"(?:sui([01]))?(?:button([01]))?(?:whb(0|N|N-1))?(?:fpok([01]))?(?:komi(-?[0-9.]+))?$"
)
_KATAGO_KO = {
    "SIMPLE": KoRule.SIMPLE, "SPIGHT": KoRule.SIMPLE,
    "POSITIONAL": KoRule.POSITIONAL, "SITUATIONAL": KoRule.SITUATIONAL,
}


def _from_katago(
    ko: str, score: str, tax: str | None, sui: bool, button: bool, whb: str, komi: float | None
) -> Ruleset:
    scoring = Scoring.TERRITORY if score == "TERRITORY" else Scoring.AREA
    tax_rule = Tax(tax.lower()) if tax else (Tax.SEKI if scoring is Scoring.TERRITORY else Tax.NONE)
    if komi is None:
        komi = 6.5 if scoring is Scoring.TERRITORY else (7.0 if button else 7.5)
    ko_rule = _KATAGO_KO[ko]
    return Ruleset(
        "katago",
        ko=ko_rule,
        suicide=SuicideRule.MULTI_STONE if sui else SuicideRule.FORBIDDEN,
        scoring=scoring,
        komi=komi,
        handicap_bonus=HandicapBonus(whb),
        pass_stones=False,
        white_passes_last=False,
        tax=tax_rule,
        first_pass_bonus=0.5 if button else 0.0,
        long_cycle=LongCycle.NO_RESULT if ko_rule is KoRule.SIMPLE else LongCycle.FORBIDDEN,
        source="KataGo rule string",
    )


MAX_KOMI = 2704.0
"""No komi can be larger than the points of the largest board (52x52)."""


def komi_value(text: object) -> float:
    """A komi from text or a number; ValueError unless it is a finite number a game can have
    (``inf``, ``nan`` and ``1e400`` would make counts no JSON can hold)."""
    komi = float(text)  # type: ignore[arg-type]
    if not math.isfinite(komi) or abs(komi) > MAX_KOMI:
        raise ValueError(f"komi {text!r} is not a number a game can have")
    return komi


def parse_katago(text: str) -> Ruleset | None:
    """KataGo's legacy string (``koPOSITIONALscoreAREAtaxNONEsui1``) or JSON form."""
    text = text.strip()
    m = _KATAGO_RE.match(text)
    if m:
        ko, score, tax, sui, button, whb, _fpok, komi = m.groups()
        return _from_katago(
            ko, score, tax, sui == "1", button == "1", whb or "0",
            komi_value(komi) if komi else None,
        )
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except ValueError:
            return None
        if not isinstance(obj, dict):
            return None
        try:
            komi = obj.get("komi")
            return _from_katago(
                str(obj.get("ko", "POSITIONAL")).upper(),
                str(obj.get("scoring", obj.get("score", "AREA"))).upper(),
                str(obj["tax"]).upper() if "tax" in obj else None,
                bool(obj.get("suicide", True)),
                bool(obj.get("hasButton", False)),
                str(obj.get("whiteHandicapBonus", "0")),
                komi_value(komi) if komi is not None else None,
            )
        except (KeyError, ValueError, TypeError):
            return None
    return None


def rules_from_ru(raw: str) -> tuple[Ruleset | None, str]:
    """Map an RU value to a ruleset. Returns (ruleset or None, how it was read)."""
    key = normalise_name(raw)
    if key in _ALIASES:
        name = _ALIASES[key]
        note = _CLOSEST.get(key, "")
        return PRESETS[name], f"RU[{raw}] -> {name}" + (f" ({note})" if note else "")
    katago = parse_katago(raw)
    if katago is not None:
        return katago, f"RU[{raw}] -> KataGo rules {katago.to_string()}"
    return None, f"RU[{raw}] is not a known ruleset"


_PARAM_TYPES: dict[str, type] = {
    name: kind for name, kind in get_type_hints(Ruleset).items() if name in _FIELDS[1:]
}
"""Each parameter's type (``KoRule``, ``float``, ``bool``...), read off :class:`Ruleset`."""


def explicit_parameters(text: str) -> frozenset[str]:
    """The parameters a ``preset:param=value,...`` string sets itself (``japanese:komi=0.5`` ->
    ``{"komi"}``); empty for a bare preset name or a KataGo string."""
    if parse_katago(text) is not None:
        return frozenset()
    _, _, params = text.strip().partition(":")
    return frozenset(item.partition("=")[0].strip().replace("-", "_")
                     for item in params.split(",") if item.strip())


@lru_cache(maxsize=256)
def parse_rules_string(text: str) -> Ruleset:
    """Read a preset name, a KataGo string, or :meth:`Ruleset.to_string` output.

    ``japanese:komi=0.5`` starts from a preset and overrides parameters. Raises ValueError.
    """
    text = text.strip()
    katago = parse_katago(text)
    if katago is not None:
        return katago
    name, _, params = text.partition(":")
    try:
        base = preset(name)
    except KeyError:
        raise ValueError(
            f"unknown ruleset {name!r}; known: {', '.join(PRESETS)}"
        ) from None
    changes: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, _, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if key not in _PARAM_TYPES:
            raise ValueError(f"unknown rule parameter {key!r}")
        kind = _PARAM_TYPES[key]
        value = value.strip()
        if kind is bool:
            if value.lower() not in ("yes", "no", "true", "false", "1", "0"):
                raise ValueError(f"{key} takes yes or no, not {value!r}")
            changes[key] = value.lower() in ("yes", "true", "1")
        elif key == "komi":
            changes[key] = komi_value(value)
        elif kind is float:
            changes[key] = float(value)
        else:
            changes[key] = kind(value)
    return replace(base, **changes) if changes else base
