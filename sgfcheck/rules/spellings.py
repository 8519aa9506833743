"""How rulesets are named in the wild and on the command line: ``RU`` values from real files,
preset names and aliases, ``preset:param=value`` strings, and KataGo's rule strings (its legacy
``koPOSITIONALscoreAREA...`` form and JSON)."""

from __future__ import annotations

import difflib
import re
from dataclasses import replace
from enum import Enum
from functools import lru_cache
from typing import Any, get_type_hints

from sgfcheck.rules.presets import PRESETS
from sgfcheck.rules.ruleset import (
    FIELD_NAMES,
    HandicapBonus,
    KoRule,
    LongCycle,
    Ruleset,
    Scoring,
    SuicideRule,
    Tax,
    komi_value,
)

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
        import json  # KataGo's JSON form is rare: json is not loaded for the others

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
    name: kind for name, kind in get_type_hints(Ruleset).items() if name in FIELD_NAMES[1:]
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
        near = difflib.get_close_matches(name.lower(), list(PRESETS), n=1, cutoff=0.6)
        raise ValueError(
            f"unknown ruleset {name!r}" + (f" (did you mean {near[0]}?)" if near else "")
            + f"; known: {', '.join(PRESETS)}"
        ) from None
    changes: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, _, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if key not in _PARAM_TYPES:
            raise ValueError(f"{name}:{item}: no rule parameter {key!r}; the parameters are "
                             + ", ".join(p.replace("_", "-") for p in _PARAM_TYPES))
        changes[key] = _parameter_value(f"{name}:{item}", key, value.strip())
    return replace(base, **changes) if changes else base


def _parameter_value(where: str, key: str, value: str) -> Any:
    """One parameter's value read from text (``where``: as the user wrote it); a ValueError
    names the parameter and, in words, the values it takes."""
    kind = _PARAM_TYPES[key]
    spelled = key.replace("_", "-")
    if kind is bool:
        if value.lower() not in ("yes", "no", "true", "false", "1", "0"):
            raise ValueError(f"{where}: {spelled} takes yes or no")
        return value.lower() in ("yes", "true", "1")
    if kind is float:
        try:
            return komi_value(value) if key == "komi" else float(value)
        except ValueError:
            what = ("a number of points such as 6.5, 0 or -3 (at most 2704 either way)"
                    if key == "komi" else "a number of points, such as 1 or 0.5")
            raise ValueError(f"{where}: {spelled} takes {what}") from None
    if isinstance(kind, type) and issubclass(kind, Enum):
        try:
            return kind(value)
        except ValueError:
            values = [str(member.value) for member in kind]
            raise ValueError(f"{where}: {spelled} takes " + ", ".join(values[:-1])
                             + f" or {values[-1]}") from None
    return value  # no parameter of another type
