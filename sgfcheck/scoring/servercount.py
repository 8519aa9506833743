"""Counts that servers made, not a referee: the territory a server's own scorer gave each colour,
for the readings that a record naming that server allows (:mod:`sgfcheck.scoring.conventions`).

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

from sgfcheck.colour import BLACK, EMPTY, WHITE, Colour
from sgfcheck.position.analysis import Position


def ogs_territory(position: Position, strict_seki: bool) -> dict[Colour, set[int]]:
    """Each colour's territory as OGS's scorer counted it before 2024-06-08 (see the module's
    text): the empty points of regions bordered by that colour alone (dead stones removed);
    with ``strict_seki``, without the regions its strict seki mode left out."""
    colour = position.colour
    if not strict_seki:  # the one-colour regions: Position.owner has them already
        return {side: {p for p, owner in enumerate(position.owner)
                       if owner == side and colour[p] == EMPTY} for side in (BLACK, WHITE)}
    nbrs = position.board.neighbours
    n = len(colour)
    region = [-1] * n
    regions: list[list[int]] = []
    borders: list[int] = []
    for start in range(n):
        if colour[start] != EMPTY or region[start] >= 0:
            continue
        rid = len(regions)
        region[start] = rid
        points = [start]
        touch = 0
        i = 0
        while i < len(points):
            for q in nbrs[points[i]]:
                if colour[q] == EMPTY:
                    if region[q] < 0:
                        region[q] = rid
                        points.append(q)
                else:
                    touch |= colour[q]
            i += 1
        regions.append(points)
        borders.append(touch)
    territory: dict[Colour, set[int]] = {BLACK: set(), WHITE: set()}
    in_seki = _regions_in_seki(position, region, regions, borders)
    for rid, points in enumerate(regions):
        if borders[rid] in (BLACK, WHITE) and rid not in in_seki:
            territory[Colour(borders[rid])].update(points)
    return territory


def _regions_in_seki(position: Position, region: list[int], regions: list[list[int]],
                     borders: list[int]) -> set[int]:
    """The territory regions OGS's strict seki mode left out: one of their bordering chains
    touches a region that is nobody's and holds a point that is not a removed stone."""
    colour = position.colour
    nbrs = position.board.neighbours
    dead = position.dead_points
    blocking = {rid for rid, points in enumerate(regions)
                if borders[rid] not in (BLACK, WHITE) and any(p not in dead for p in points)}
    if not blocking:
        return set()
    chain = [-1] * len(colour)
    out: set[int] = set()
    for start, here in enumerate(colour):
        if here == EMPTY or chain[start] >= 0:
            continue
        chain[start] = start
        stones = [start]
        touched: set[int] = set()
        i = 0
        while i < len(stones):
            for q in nbrs[stones[i]]:
                if colour[q] == here:
                    if chain[q] < 0:
                        chain[q] = start
                        stones.append(q)
                elif colour[q] == EMPTY:
                    touched.add(region[q])
            i += 1
        if touched & blocking:
            out.update(rid for rid in touched if borders[rid] == here)
    return out
