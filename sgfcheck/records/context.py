"""A game's context: the ruleset and komi in force for one game, and where each came from.

The user's :class:`~sgfcheck.settings.Settings` and the record's own ``RU``, ``KM`` and
handicap are resolved here, once per game, into a :class:`GameContext`. Everything after (the
replay, the dead-stone sources and engines, the counts, the result check) takes the context;
nothing else reads ``RU`` or ``KM`` again. The one other komi a count is made with is a reading
of :mod:`sgfcheck.verdict.readings` (a server's convention the record's source allows), which
the result check weighs beside the context's and names, with its finding, when it rests on it.

Origins are an enum (:class:`Origin`): the user's option, the record, a server convention, or a
default. The rules: ``--rules`` (when not ``auto``), else the record's ``RU`` mapped to a preset,
else :data:`DEFAULT_RULES` (an unknown ``RU`` is a warning). The komi: ``--komi``, else the komi
the rule string sets (``japanese:komi=0.5``), else ``KM``. A record without ``KM`` is never given
a ruleset's usual komi in silence (:func:`komi_without_km`): where the rules it names fix the komi
(Ing's 8), that komi; where RE is in whole points (or a draw), komi 0, a reading of the record
(games before komi existed had none; a half-point komi cannot give a whole-point result), said as
such; otherwise the komi is unknown: counted without it, and the result check says what komi RE
would need.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from sgfcheck import findings as F
from sgfcheck.findings import Finding
from sgfcheck.points import point_name
from sgfcheck.records.record import GameRecord, HandicapPlacement
from sgfcheck.records.results import Result, ResultKind
from sgfcheck.rules.presets import PRESETS
from sgfcheck.rules.ruleset import Ruleset, Scoring
from sgfcheck.rules.spellings import explicit_parameters, parse_rules_string, rules_from_ru
from sgfcheck.settings import Settings
from sgfcheck.status import StrEnum

DEFAULT_RULES = "japanese"
"""Used when RU is missing or unknown and the user chose no ruleset."""



class Origin(StrEnum):
    """Where a part of the context came from."""

    USER = "user"
    """An option the user gave (``--rules``, ``--komi``)."""
    RECORD = "record"
    """The record's own property (``RU``, ``KM``)."""
    CONVENTION = "convention"
    """A server's convention read beside the record (the result check's other readings)."""
    DEFAULT = "default"
    """Nothing said it: a default."""
    UNKNOWN = "unknown"
    """The record gives no komi a game can have (``KM[1e308]``), or none at all and nothing
    that tells it: unknown, and the counts are made without it."""


@dataclass(frozen=True)
class GameContext:
    """The rules and komi in force for one game, and where they came from."""

    ruleset: Ruleset
    """Every rule parameter, the komi in force included."""
    rules_origin: Origin
    rules_detail: str
    """How the rules were read (``RU[Japanese] -> japanese``)."""
    komi_origin: Origin
    komi_detail: str
    """How the komi was found, as the JSON's ``komi_source`` says it (``KM``, ``--komi``,
    ``handicap game without KM: 0.5``, ``ruleset default``)."""
    handicap: int = 0

    @property
    def komi(self) -> float:
        """The komi in force (0 when it is unknown: see :attr:`komi_known`)."""
        return self.ruleset.komi

    @property
    def komi_known(self) -> bool:
        return self.komi_origin is not Origin.UNKNOWN

    @property
    def komi_text(self) -> str:
        """The komi as a report says it: ``6.5``, or ``unknown`` with why."""
        return f"{self.komi:g}" if self.komi_known else f"unknown ({self.komi_detail})"

    @property
    def komi_with_source(self) -> str:
        """The komi and where it came from: ``6.5 (KM)``, or ``unknown`` with why."""
        return f"{self.komi:g} ({self.komi_detail})" if self.komi_known else self.komi_text

    @property
    def rules_source(self) -> str:
        """The JSON's ``rules.source``: ``--rules``, ``RU`` or ``default``."""
        return {Origin.USER: "--rules", Origin.RECORD: "RU"}.get(self.rules_origin, "default")


def resolve(game: GameRecord, settings: Settings, result: Result
            ) -> tuple[GameContext, list[Finding]]:
    """The context of one game under the user's settings (``result``: its RE as read), and the
    findings of reading its RU (mapped: ``SGF024``; unknown: ``SGF023``)."""
    found: list[Finding] = []
    if settings.rules != "auto":
        ruleset = parse_rules_string(settings.rules)
        origin, detail = Origin.USER, f"--rules {settings.rules}"
    elif game.rules_raw:
        mapped, detail = rules_from_ru(game.rules_raw)
        if mapped is None:
            ruleset, origin = PRESETS[DEFAULT_RULES], Origin.DEFAULT
            detail += f"; {DEFAULT_RULES} assumed (use --rules to choose)"
            found.append(Finding(F.SGF_RULES_UNKNOWN, detail))
        else:
            ruleset, origin = mapped, Origin.RECORD
            found.append(Finding(F.SGF_RULES_MAPPED, detail))
    else:
        ruleset, origin = PRESETS[DEFAULT_RULES], Origin.DEFAULT
        detail = f"no RU property; {DEFAULT_RULES} assumed"
    changes: dict[str, Any] = {}
    if settings.ko is not None:
        changes["ko"] = settings.ko
    if settings.suicide is not None:
        changes["suicide"] = settings.suicide
    if settings.komi is not None:
        changes["komi"] = settings.komi
        komi_origin, komi_detail = Origin.USER, "--komi"
    elif "komi" in explicit_parameters(settings.rules):
        komi_origin, komi_detail = Origin.USER, "--rules"
    elif game.komi is not None:
        changes["komi"] = game.komi
        komi_origin, komi_detail = Origin.RECORD, "KM"
    elif game.komi_unknown:
        changes["komi"] = 0.0
        komi_origin = Origin.UNKNOWN
        komi_detail = f"KM[{game.komi_raw}] is no komi a game can have; counted without komi"
    else:
        komi, komi_origin, komi_detail = komi_without_km(game, ruleset, result)
        changes["komi"] = komi
    if changes:
        ruleset = _changed(ruleset, tuple(changes.items()), repr(changes.get("komi")))
        if settings.ko is not None or settings.suicide is not None:
            detail += " with " + ", ".join(
                f"{k}={v.value}" for k, v in changes.items() if k in ("ko", "suicide"))
    return GameContext(ruleset, origin, detail, komi_origin, komi_detail, game.handicap), found


@lru_cache(maxsize=1024)
def _changed(ruleset: Ruleset, changes: tuple[tuple[str, Any], ...], komi: str) -> Ruleset:
    """``ruleset`` with ``changes``, one value for each combination (the few rules and komi of
    an archive recur: what a ruleset works out once, its parameters and its canonical string,
    then serves every game). ``komi``: the new komi's repr, so that -0.0 and 0.0 stay apart."""
    return replace(ruleset, **dict(changes))


def usual_komi(ruleset: Ruleset, handicap: int) -> float:
    """The komi a server's convention reads for these rules where the record's own cannot be
    what was played (Fox: 6.5 under territory counting, 7.5 under area, 0.5 with handicap
    stones); the one table of usual komi (a KataGo rule string's own default is KataGo's, in
    :mod:`sgfcheck.rules.spellings`)."""
    if handicap >= 2:
        return 0.5
    return 7.5 if ruleset.scoring is not Scoring.TERRITORY else 6.5


def komi_without_km(game: GameRecord, ruleset: Ruleset, result: Result
                    ) -> tuple[float, Origin, str]:
    """The komi of a record without ``KM`` (or with an empty one), where it came from, and why
    (``result``: its RE as read).

    - The rules in force fix the komi of an even game (``komi_fixed``: Ing's 8, Black winning
      ties): that komi, from the rules.
    - RE is a score in whole points, or a draw: komi 0. A half-point komi cannot give a whole
      point result; among whole-point komi, 0 is what a record without ``KM`` most often means
      (professional games before komi existed, 1844-1941 in the corpus measured, and teaching
      games). A reading, not the record's word: a verdict resting on it says so, and a
      disagreement under it is never called a mismatch.
    - Otherwise (a half-point RE, a winner alone, a resignation, no RE): the komi is unknown.
      The counts are made without komi and the result check says what komi RE would need; no
      ruleset's usual komi is put in the record's mouth.
    """
    if ruleset.komi_fixed and game.handicap < 2:
        return (ruleset.komi, Origin.RECORD,
                f"no KM; the {ruleset.name} rules fix the komi at {ruleset.komi:g}")
    whole = (result.kind is ResultKind.DRAW or (
        result.kind is ResultKind.SCORE and result.margin is not None
        and float(result.margin).is_integer()))
    if whole:
        said = "a draw" if result.kind is ResultKind.DRAW else "a margin in whole points"
        return (0.0, Origin.CONVENTION,
                f"no KM; RE[{result.raw}] is {said}, so komi 0 is read (games before komi "
                "existed had none)")
    if result.kind is ResultKind.UNKNOWN:
        return 0.0, Origin.UNKNOWN, "no KM; counted without komi"
    return (0.0, Origin.UNKNOWN,
            f"no KM, and RE[{result.raw}] does not tell it; counted without komi")


def record_doubts(game: GameRecord, context: GameContext
                  ) -> tuple[list[Finding], list[Finding]]:
    """What a count of the game assumes about the record itself: where its handicap stones
    stood (``RES008``), the komi of a record without ``KM`` (``RES002``); and what it reads
    from its source's conventions, cited (``RES010``: said with the verdict, never a doubt)."""
    doubts: list[Finding] = []
    if context.komi_origin is Origin.CONVENTION:
        doubts.append(Finding(F.RES_KOMI_CONVENTION, context.komi_detail))
    n, placement = game.handicap, game.handicap_placement
    if placement is HandicapPlacement.UNKNOWN:
        doubts.append(Finding(F.RES_ASSUMED_RECORD,
                              f"the count is made without the {n} handicap stones of HA[{n}]: "
                              "the record does not place them, and the moves show they did not "
                              "stand on the standard points"))
    if placement not in (HandicapPlacement.ASSUMED, HandicapPlacement.CONVENTION):
        return doubts, []
    names = ", ".join(point_name(p, game.height) for p in game.assumed_handicap)
    if placement is HandicapPlacement.ASSUMED:
        doubts.append(Finding(F.RES_ASSUMED_RECORD,
                              f"the count rests on {n} handicap stones assumed on the standard "
                              f"points {names}: the record (HA[{n}]) does not place them"))
        return doubts, []
    return doubts, [Finding(F.RES_SOURCE_CONVENTION,
                            f"the count rests on {n} handicap stones at {names}: the Fox "
                            f"record (HA[{n}]) leaves them out, and they are placed as "
                            "KataGo's SGF reader places them (cpp/dataio/sgf.cpp); no move "
                            "contradicts them")]
