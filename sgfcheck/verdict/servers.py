"""Counts that servers made, not a referee: the territory a server's own scorer gave each colour,
for the readings that a record naming that server allows. Each such count is one
:class:`ServerCount` entry of :data:`SERVER_COUNTS` (when a record allows it, the territory it
counts, its words and its cited note): a new one is its entry here and its :class:`Counting`
member (:mod:`sgfcheck.verdict.readings`).

**The record's own territory marks (TB/TW)**, counted as they stand, as the server that wrote
them counts: read where they part from the referee's map.

**OGS before 2024-06-08.** OGS's engine (``online-go/goban``, ``GoEngine.computeScore`` with
``GoStoneGroups``/``GoStoneGroup.computeIsTerritory``, from the public import of 2019-10-03,
cdbe1b5f, until "Integrate goscorer and update the stone removal phase code", ca2b00c2,
2024-06-08) counted, once the dead stones were removed, every empty region bordered by stones of
one colour alone as that colour's territory: no point to fill (a false eye, a protective move)
was deducted, and the eyes of groups in seki were counted too. Under Japanese and Korean rules
(``score_territory_in_seki`` off) a region was left out only in *strict seki mode*
(``strict_seki_mode``), and then by its own test (``computeIsTerritoryInSeki``): a region one of
whose bordering chains also touches an empty region that is nobody's (bordered by both colours,
or by none) and not made of removed stones alone. Since ca2b00c2 OGS counts with goscorer, as a
referee does: nothing to read there.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sgfcheck import findings as F
from sgfcheck.colour import BLACK, EMPTY, WHITE, Colour
from sgfcheck.counting.explain import marks_against_referee
from sgfcheck.findings import Finding
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.points import pieces
from sgfcheck.position.analysis import Position
from sgfcheck.records.record import GameRecord
from sgfcheck.records.servers import Server
from sgfcheck.rules.ruleset import Ruleset, Scoring
from sgfcheck.verdict.readings import OGS_GOSCORER_SINCE, Counting, Reading

Territory = dict[Colour, set[int]]


@dataclass(frozen=True)
class ServerCount:
    """One server's own count of the territory, read beside the referee's."""

    counting: Counting
    short: str
    """Its name in a row's name (``OGS``)."""
    counted_as: str
    """What the count took as territory, for the row's words."""
    allowed: Callable[[GameRecord, Ruleset, DeadStones], bool]
    """The record allows the reading: it names the server, its date, its rules; or holds the
    marks."""
    territory: Callable[[Position, DeadStones], Territory | None]
    """The territory the count gives each colour in a position (dead stones removed)."""
    why: str
    """Why RE is read so, cited: the note every reading of it carries (before ``a referee's
    count differs: ...``)."""
    against: str = ""
    """Whose count parts from the referee's map, in words (``OGS's count``; the record's marks
    where empty)."""
    referee_only: bool = True
    """Read only on the readings the referee counts (not on another server's)."""


def _ogs_allowed(game: GameRecord, ruleset: Ruleset) -> bool:
    """A record names OGS (``PC``) and its date (``DT``) falls before OGS began to count with
    goscorer (2024-06-08), under territory counting (under area counting OGS's regions are what
    the referee counts)."""
    date = (game.info.get("DT") or "")[:10]
    return (game.server is Server.OGS and ruleset.scoring is Scoring.TERRITORY
            and len(date) == 10 and date[:4].isdigit() and date < OGS_GOSCORER_SINCE)


_OGS_WHY = ("RE read as OGS's own count of the record's date{strict} (online-go/goban, "
            "GoEngine.computeScore until ca2b00c2, 2024-06-08): every empty region bordered by "
            "one colour counted as its territory, no point to fill deducted")

SERVER_COUNTS: tuple[ServerCount, ...] = (
    ServerCount(
        Counting.MARKED, "marks", "territory as the record marks it (TB/TW), counted as it stands",
        lambda game, ruleset, dead: dead.territory is not None,
        lambda where, dead: dead.territory,
        "the territory the record marks (TB/TW) counted as it stands, as the server that wrote "
        "it counts", referee_only=False),
    ServerCount(
        Counting.OGS, "OGS", "territory as OGS counted it before 2024-06-08: every empty region "
        "bordered by one colour, no point to fill",
        lambda game, ruleset, dead: _ogs_allowed(game, ruleset),
        lambda where, dead: ogs_territory(where, False),
        _OGS_WHY.format(strict=""), "OGS's count"),
    ServerCount(
        Counting.OGS_STRICT, "OGS strict seki",
        "territory as OGS counted it before 2024-06-08 in strict seki mode",
        # strict seki mode where the rules leave seki territory uncounted (the record does not
        # say whether the game was in it, so both are read)
        lambda game, ruleset, dead: _ogs_allowed(game, ruleset) and not ruleset.seki_territory,
        lambda where, dead: ogs_territory(where, True),
        _OGS_WHY.format(strict=" in strict seki mode"), "OGS's count"),
)
BY_COUNTING = {entry.counting: entry for entry in SERVER_COUNTS}


def server_readings(game: GameRecord, own: Ruleset, dead: DeadStones, position: Position,
                    found: list[Reading]) -> list[Reading]:
    """Each possible reading again as every server's count the record allows, where that
    count parts from the referee's map (``found``: the readings so far; a count already among
    them is not read again)."""
    out: list[Reading] = []
    for entry in SERVER_COUNTS:
        if (any(r.counting is entry.counting for r in found)
                or not entry.allowed(game, own, dead)):
            continue
        territory = entry.territory(position, dead)
        assert territory is not None
        parting = marks_against_referee(position, own, territory, entry.against)
        if parting is None:
            continue
        note = Finding(F.RES_SERVER_COUNT, f"{entry.why}; a referee's count differs: {parting}")
        out += [r.as_server(entry.counting, note) for r in found
                if r.possible and (not entry.referee_only or r.counting is Counting.REFEREE)]
    return out


def ogs_territory(position: Position, strict_seki: bool) -> dict[Colour, set[int]]:
    """Each colour's territory as OGS's scorer counted it before 2024-06-08 (see the module's
    text): the empty points of regions bordered by that colour alone (dead stones removed);
    with ``strict_seki``, without the regions its strict seki mode left out."""
    colour = position.colour
    if not strict_seki:  # the one-colour regions: Position.owner has them already
        return {side: {p for p, owner in enumerate(position.owner)
                       if owner == side and colour[p] == EMPTY} for side in (BLACK, WHITE)}
    nbrs = position.board.neighbours
    regions = pieces(nbrs, {p for p, here in enumerate(colour) if here == EMPTY}, set())
    borders = [_touching(points, colour, nbrs) for points in regions]
    territory: dict[Colour, set[int]] = {BLACK: set(), WHITE: set()}
    in_seki = _regions_in_seki(position, regions, borders)
    for rid, points in enumerate(regions):
        if borders[rid] in (BLACK, WHITE) and rid not in in_seki:
            territory[Colour(borders[rid])].update(points)
    return territory


def _touching(points: set[int], colour: Sequence[int], nbrs: Sequence[tuple[int, ...]]) -> int:
    """The colours the points' neighbours hold, as bits (1 Black, 2 White)."""
    return functools.reduce(operator.or_, (colour[q] for p in points for q in nbrs[p]), 0)


def _regions_in_seki(position: Position, regions: list[set[int]], borders: list[int]
                     ) -> set[int]:
    """The territory regions OGS's strict seki mode left out: one of their bordering chains
    touches a region that is nobody's and holds a point that is not a removed stone."""
    colour = position.colour
    nbrs = position.board.neighbours
    dead = position.dead_points
    blocking = {rid for rid, points in enumerate(regions)
                if borders[rid] not in (BLACK, WHITE) and any(p not in dead for p in points)}
    if not blocking:
        return set()
    region = {p: rid for rid, points in enumerate(regions) for p in points}
    out: set[int] = set()
    for side in (BLACK, WHITE):
        for chain in pieces(nbrs, {p for p, here in enumerate(colour) if here == side}, set()):
            touched = {region[q] for p in chain for q in nbrs[p] if colour[q] == EMPTY}
            if touched & blocking:
                out.update(rid for rid in touched if borders[rid] == side)
    return out
