"""Readings of a record for the result check: its own, and the few a server convention allows.

A record's KM and RU are usually what was played. Sometimes they cannot be, and the record says so
itself; then the result check also reads the game under the convention's values, and every such
reading carries its assumption as a finding (``RES002`` komi, ``RES003`` rules). The evidence for
each convention is in ``docs/conventions.md``. The candidates are a short fixed list, never a
search for a komi that fits: a falsified result must still be caught.

- **A half-point result with an integer komi** (any server): area and territory counts are whole
  numbers, so ``RE[B+3.5]`` with ``KM[0]`` contradicts itself; the ruleset's usual komi is read
  (6.5 territory, 7.5 area; 0.5 in a handicap game).
- **Fox** (``AP[foxwq]``, or Fox's ``AP[GNU Go:3.8]`` with its ``TC``/``TT`` byo-yomi
  properties): even games are often written ``KM[0]`` although played with komi, so a ``KM[0]``
  even game without a half-point margin is also read with 6.5 (japanese) and 7.5 (chinese); and
  Fox writes ``RU[Japanese]`` on games played under Chinese rules (komi 7.5), so a Fox game with an
  area-sized komi (7 or more) is also read under chinese.
- **No RU**: nothing says which rules were played; chinese is read beside the default japanese,
  with the game's komi.
- **No KM** (:func:`sgfcheck.records.context.komi_without_km`): a whole-point RE is read with
  komi 0, and every reading says so (``RES002``); the result check never calls a disagreement
  under it a mismatch.
- **OGS before 2024-06-08** (``PC[OGS: ...]`` and ``DT``, territory counting): OGS's scorer
  counted every empty region bordered by one colour, no point to fill deducted, eyes in seki
  counted unless the game was in strict seki mode; where that count parts from the referee's,
  it is read too (``RES009``), both ways of seki (:mod:`sgfcheck.verdict.servers`).
- **Territory marks** (TB/TW, KGS, IGS and the programs that write them): the server counted the
  territory it marked, as it stands; where a referee would not count a marked point (a false eye
  to fill, an eye of a group in seki) or would count one the marks leave out, the record's own
  rules are also read with the marks as the territory (``RES009``), and a match under that reading
  names the points where the two counts part.

When the user gives ``--komi`` or ``--game-rules``/``--rules``, only the record's own reading (with
the user's values) is used.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sgfcheck import findings as F
from sgfcheck.findings import Finding
from sgfcheck.records.context import GameContext, Origin, usual_komi
from sgfcheck.records.record import GameRecord
from sgfcheck.records.results import Result, ResultKind
from sgfcheck.records.servers import Server
from sgfcheck.rules.presets import CHINESE, JAPANESE
from sgfcheck.rules.ruleset import Ruleset, Scoring
from sgfcheck.status import StrEnum

OGS_GOSCORER_SINCE = "2024-06-08"
"""The day OGS's engine began to count with goscorer (online-go/goban ca2b00c2): records dated
before it were counted by its regions (:mod:`sgfcheck.verdict.servers`)."""


class Counting(StrEnum):
    """Whose territory a reading counts."""

    REFEREE = "referee"
    """The referee's map (:mod:`sgfcheck.position.referee`): seki and false eyes not territory."""
    MARKED = "marked"
    """The record's territory marks (TB/TW) as they stand, as the server that wrote them."""
    OGS = "ogs"
    """OGS's scorer before 2024-06-08: every empty region bordered by one colour is its
    territory, eyes in seki included (:mod:`sgfcheck.verdict.servers`)."""
    OGS_STRICT = "ogs-strict"
    """The same in OGS's strict seki mode: the regions its own seki test found left out."""

    @property
    def server(self) -> bool:
        """A server's count of the territory, not the referee's."""
        return self is not Counting.REFEREE


_COUNTING_LABELS = {
    Counting.MARKED: "territory as marked (TB/TW)",
    Counting.OGS: "as OGS counted before 2024-06-08",
    Counting.OGS_STRICT: "as OGS counted before 2024-06-08 in strict seki mode",
}


AREA_KOMI = 7.0
"""Komi at or above this is sized for area counting (7.5 Chinese, 7 New Zealand)."""


@dataclass(frozen=True)
class Reading:
    """One way to read a record's rules and komi for the result check."""

    ruleset: Ruleset
    own: bool
    """The record's own reading (its RU and KM as sgfcheck reads them, or the user's values)."""
    assumptions: tuple[Finding, ...] = ()
    """What this reading assumes beyond the record."""
    possible: bool = True
    """False for the record's own reading when the record contradicts it (a half-point result
    with an integer komi): counted and shown, never matched."""
    counting: Counting = Counting.REFEREE

    def as_server(self, counting: Counting, note: Finding) -> Reading:
        """The same rules and komi read as a server's own count of the territory, ``note``
        saying so: never the record's own reading."""
        return replace(self, own=False, counting=counting,
                       assumptions=(*self.assumptions, note))

    @property
    def label(self) -> str:
        label = f"{self.ruleset.name} with komi {self.ruleset.komi:g}"
        if self.counting.server:
            label += ", " + _COUNTING_LABELS[self.counting]
        return label


def _half_point(result: Result) -> bool:
    return (result.kind is ResultKind.SCORE and result.margin is not None
            and (result.margin * 2) % 2 == 1)


def readings(game: GameRecord, context: GameContext, result: Result,
             fixed: bool) -> list[Reading]:
    """The record's own reading first, then those its convention allows (none when ``fixed``:
    the user chose the komi or the rules)."""
    own = context.ruleset
    if fixed:
        return [Reading(own, True)]
    komi_from_record = context.komi_origin is Origin.RECORD
    contradiction = komi_from_record and float(own.komi).is_integer() and _half_point(result)
    read_komi = (Finding(F.RES_KOMI_CONVENTION, context.komi_detail),) \
        if context.komi_origin is Origin.CONVENTION else ()
    out = [Reading(own, True, read_komi, possible=not contradiction)]
    fox = game.server is Server.FOX
    even = game.handicap < 2
    if contradiction:
        why = (f"KM[{game.komi_raw}] with a half-point result RE[{result.raw}]: area and "
               "territory counts are whole numbers, so the komi cannot be "
               f"{own.komi:g}")
        candidates = [own] + ([CHINESE if own.scoring is Scoring.TERRITORY else JAPANESE]
                              if fox and even else [])
        for ruleset in candidates:
            komi = usual_komi(ruleset, game.handicap)
            out.append(Reading(ruleset.with_komi(komi), False, (Finding(
                F.RES_KOMI_CONVENTION, f"{why}; komi {komi:g} ({ruleset.name}) assumed"),)))
        return out
    if fox and even and komi_from_record and own.komi == 0 and not _integer_margin(result):
        why = (f"KM[{game.komi_raw}] on a Fox record of an even game: Fox often writes KM[0] for "
               "games played with komi")
        for ruleset in (JAPANESE, CHINESE):
            komi = usual_komi(ruleset, 0)
            out.append(Reading(ruleset.with_komi(komi), False, (Finding(
                F.RES_KOMI_CONVENTION, f"{why}; komi {komi:g} ({ruleset.name}) read too"),)))
        return out
    if fox and own.scoring is Scoring.TERRITORY and own.komi >= AREA_KOMI:
        out.append(Reading(CHINESE.with_komi(own.komi), False, (Finding(
            F.RES_RULES_INFERRED, f"RU[{game.rules_raw}] with komi {own.komi:g} on a Fox record: "
            "Fox writes RU[Japanese] on games played under Chinese rules, whose komi this is; "
            "chinese read too"),)))
    elif context.rules_origin is Origin.DEFAULT and not game.rules_raw:
        out.append(Reading(CHINESE.with_komi(own.komi), False, (*read_komi, Finding(
            F.RES_RULES_INFERRED, "no RU: the record says nothing of the rules; chinese read "
            "beside the default japanese"),)))
    return out


def _integer_margin(result: Result) -> bool:
    return (result.kind is ResultKind.SCORE and result.margin is not None
            and float(result.margin).is_integer())
