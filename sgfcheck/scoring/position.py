"""Position analysis at the end of a game: who owns each empty point, areas, eyes, seki and the
points still to fill.

Everything here is a function of the board with the dead stones removed, computed once and shared
by every ruleset's count (:mod:`sgfcheck.scoring.count`), the chain statuses
(:mod:`sgfcheck.scoring.life`) and the ways uncertain chains may go
(:mod:`sgfcheck.judge.deadstones`). Nothing here knows a ruleset.

- owners: each empty region belongs to the colour(s) it touches (Tromp-Taylor reach);
- areas: stones of one colour joined through their own empty points and through dame, as CGoban
  joins them; an area's own empty points are its eye space;
- seki: an area whose eye space makes fewer than two eyes lives only in seki;
- points to fill: own points a colour must still fill (false eyes, protective connections), found
  as CGoban's Japanese counting finds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from sgfcheck import core
from sgfcheck.colour import BLACK, COLOURS, EMPTY, WHITE, Colour
from sgfcheck.replay.board import Board


@dataclass
class Position:
    """The final position with dead stones removed, analysed once for every ruleset."""

    board: Board
    colour: list[int]
    """The board's colours with the dead stones removed."""
    empty: dict[Colour, int]
    """Empty points owned by each colour (reached by that colour only)."""
    dame: list[int]
    stones: dict[Colour, int]
    dead: dict[Colour, int]
    """Dead stones of each colour (removed, prisoners for the other colour)."""
    seki_empty: dict[Colour, list[int]]
    """Each colour's own empty points inside groups that live in seki."""
    seki_stones: dict[Colour, list[int]]
    groups: dict[Colour, int]
    """Independently living groups (areas not in seki) per colour, for the group tax."""
    must_fill: dict[Colour, list[int]]
    """Own empty points a colour must still fill: a chain touching dame has exactly one other
    liberty, so once the opponent fills the dame that point must be played. Territory counting
    does not count them (as KGS and goscorer do); area counting is unaffected."""


def empty_owners(colour: list[int], nbrs: list[tuple[int, ...]]) -> list[int]:
    """For every empty point, who its empty region touches: 1 black, 2 white, 3 both (dame),
    0 nobody; 0 for stones."""
    n = len(colour)
    owner = [0] * n
    seen = [False] * n
    for start in range(n):
        if colour[start] != EMPTY or seen[start]:
            continue
        seen[start] = True
        points = [start]
        borders = 0
        i = 0
        while i < len(points):
            for q in nbrs[points[i]]:
                c = colour[q]
                if c == EMPTY:
                    if not seen[q]:
                        seen[q] = True
                        points.append(q)
                else:
                    borders |= c
            i += 1
        for p in points:
            owner[p] = borders
    return owner


@core.contract
class Area(NamedTuple):
    """Stones of one colour joined through their own empty points and through dame."""

    first: int
    """Its first point (its key)."""
    colour: int
    stones: list[int]
    own: list[int]
    """Its own empty points: its eye space."""


@core.contract
class Areas(NamedTuple):
    area_of: list[int]
    """The area (its first point) of every stone and own empty point, -1 elsewhere."""
    areas: list[Area]
    """Every area, by its first point."""


@core.contract
class Census(NamedTuple):
    """The counting loop's tallies of a position."""

    empty_black: int
    """Empty points reached by Black only."""
    empty_white: int
    dame: list[int]
    """Empty points reached by both colours or neither."""
    stones_black: int
    stones_white: int


def areas(colour: list[int], owner: Sequence[int], nbrs: list[tuple[int, ...]],
          neutral: dict[Colour, set[int]] | None = None) -> Areas:
    """Areas: stones of one colour joined through their own empty points and through dame (as
    CGoban does). ``neutral[c]`` are own points of c that count as dame (points to fill)."""
    n = len(colour)
    area_of = [-1] * n
    out: list[Area] = []
    for start in range(n):
        c = colour[start]
        if c == EMPTY or area_of[start] >= 0:
            continue
        fill = neutral[Colour(c)] if neutral else set()
        area_of[start] = start
        members = [start]
        through: set[int] = set()  # dame passed through: shared by both colours' areas
        i = 0
        while i < len(members):
            for q in nbrs[members[i]]:
                if area_of[q] >= 0 or q in through:
                    continue
                qc = colour[q]
                if qc == EMPTY and (owner[q] == 3 or q in fill):
                    through.add(q)
                    members.append(q)
                elif qc == c or (qc == EMPTY and owner[q] == c):
                    area_of[q] = start
                    members.append(q)
            i += 1
        stones = [p for p in members if colour[p] == c]
        own = [p for p in members if colour[p] == EMPTY and owner[p] == c and p not in fill]
        out.append(Area(start, c, stones, own))
    return Areas(area_of, out)


def census(colour: list[int], owner: Sequence[int]) -> Census:
    """The counting loop: own empty points of each colour, the dame, the stones of each."""
    empty = {BLACK: 0, WHITE: 0}
    dame: list[int] = []
    for p, c in enumerate(colour):
        if c == EMPTY:
            if owner[p] in COLOURS:
                empty[Colour(owner[p])] += 1
            else:
                dame.append(p)
    return Census(empty[BLACK], empty[WHITE], dame, colour.count(BLACK), colour.count(WHITE))


def analyse(board: Board, dead: set[int]) -> Position:
    """The position with the ``dead`` stones removed, analysed (see :class:`Position`)."""
    colour = list(board.colour)
    dead_count = {BLACK: 0, WHITE: 0}
    for p in dead:
        if colour[p] != EMPTY:
            dead_count[Colour(colour[p])] += 1
            colour[p] = EMPTY
    nbrs = board.neighbours
    fast = core.compiled
    owner: Sequence[int]
    if fast is not None:
        w, h = board.width, board.height
        packed = bytes(colour)
        owner = fast.empty_owners(packed, w, h)
        must_fill = {c: set(fast.points_to_fill(packed, owner, w, h, c)) for c in COLOURS}
        flags = [_flags(must_fill[c], len(colour)) for c in COLOURS]
        found: Areas = fast.areas(packed, owner, w, h, *flags)
        tally: Census = fast.census(packed, owner, w, h)
    else:
        owner = empty_owners(colour, nbrs)
        # Points each colour must still fill (false eyes, protective connections): never
        # territory.
        must_fill = {c: _points_to_fill(colour, owner, nbrs, c) for c in COLOURS}
        found = areas(colour, owner, nbrs, must_fill)
        tally = census(colour, owner)
    empty = {BLACK: tally.empty_black, WHITE: tally.empty_white}
    stones = {BLACK: tally.stones_black, WHITE: tally.stones_white}
    dame = tally.dame

    # The own empty points of an area, false eyes excluded, are its eye space; an area with
    # fewer than two eyes lives only in seki.
    seki_empty: dict[Colour, list[int]] = {BLACK: [], WHITE: []}
    seki_stones: dict[Colour, list[int]] = {BLACK: [], WHITE: []}
    groups = {BLACK: 0, WHITE: 0}
    for area in found.areas:
        c = Colour(area.colour)
        area_stones, own_empty = area.stones, area.own
        if _eyes(own_empty, nbrs, board.width) < 2:
            seki_empty[c].extend(own_empty)
            seki_stones[c].extend(area_stones)
        else:
            groups[c] += 1
    return Position(board, colour, empty, dame, stones, dead_count, seki_empty, seki_stones,
                    groups, {c: sorted(v) for c, v in must_fill.items()})


def area_map(colour: list[int], board: Board) -> list[int]:
    """The area of every stone and own empty point (see :func:`areas`), -1 elsewhere."""
    if core.compiled is not None:
        packed = bytes(colour)
        owner = core.compiled.empty_owners(packed, board.width, board.height)
        found: Areas = core.compiled.areas(packed, owner, board.width, board.height, None, None)
        return found.area_of
    return areas(colour, empty_owners(colour, board.neighbours), board.neighbours).area_of


def _flags(points: set[int], n: int) -> bytes:
    flags = bytearray(n)
    for p in points:
        flags[p] = 1
    return bytes(flags)


def _points_to_fill(colour: list[int], owner: Sequence[int], nbrs: list[tuple[int, ...]],
                    c: int) -> set[int]:
    """Own empty points colour c must still fill before the game is really over.

    Stones of c that are joined through neutral points (dame) form a related group. If such a
    group touches exactly one point of c's territory, and that point is not an eye enclosed by
    the group on every side, the group depends on it to connect or to keep a liberty: it is a
    false eye or a protective move, not territory. The point then becomes neutral, which joins
    the groups around it; the test is repeated on the joined group (the method of CGoban's
    Japanese counting).
    """
    n = len(colour)
    group_of = [-1] * n
    members: list[list[int]] = []
    touching: list[set[int]] = []
    for start in range(n):
        if colour[start] != c or group_of[start] >= 0:
            continue
        gid = len(members)
        group_of[start] = gid
        todo = [start]
        stones = []
        touch: set[int] = set()
        while todo:
            p = todo.pop()
            if colour[p] == c:
                stones.append(p)
            for q in nbrs[p]:
                if group_of[q] >= 0:
                    continue
                qc = colour[q]
                if qc == c or (qc == EMPTY and owner[q] == 3):
                    group_of[q] = gid
                    todo.append(q)
                elif qc == EMPTY and owner[q] == c and colour[p] == c:
                    touch.add(q)
        members.append(stones)
        touching.append(touch)
    removed: set[int] = set()
    parent = list(range(len(members)))

    def find(g: int) -> int:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    work = [g for g in range(len(members)) if len(touching[g]) == 1]
    while work:
        g = find(work.pop())
        if len(touching[g]) != 1:
            continue
        (point,) = touching[g]
        if all(colour[q] == c and find(group_of[q]) == g for q in nbrs[point]):
            continue  # a real one-point eye
        removed.add(point)
        # The point is now neutral: the groups of c around it become one related group.
        around = {find(group_of[q]) for q in nbrs[point] if colour[q] == c}
        around.add(g)
        root = min(around)
        merged: set[int] = set()
        for h in around:
            merged |= touching[h]
            parent[h] = root
        merged -= removed
        touching[root] = merged
        if len(merged) == 1:
            work.append(root)
    return removed


def _eyes(points: list[int], nbrs: list[tuple[int, ...]], width: int) -> int:
    """Eyes an area can make from its own empty points: each region of one or two points (or a
    2x2 square) is one eye, a larger region can make two."""
    inside = set(points)
    eyes = 0
    while inside:
        start = inside.pop()
        region = [start]
        todo = [start]
        while todo:
            p = todo.pop()
            for q in nbrs[p]:
                if q in inside:
                    inside.discard(q)
                    region.append(q)
                    todo.append(q)
        if len(region) <= 2 or len(region) == 4 and _is_square(region, width):
            eyes += 1
        else:
            eyes += 2
        if eyes >= 2:
            return eyes
    return eyes


def _is_square(region: list[int], width: int) -> bool:
    cols = {p % width for p in region}
    rows = {p // width for p in region}
    return len(cols) == 2 and len(rows) == 2
