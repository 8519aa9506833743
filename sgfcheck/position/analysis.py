"""Position analysis at the end of a game: who owns each empty point, seki and the points still
to fill.

Everything here is a function of the final position and its dead stones, computed once and shared
by every ruleset's count (:mod:`sgfcheck.counting.count`), the chain statuses
(:mod:`sgfcheck.scoring.chains`) and the ways uncertain chains may go
(:mod:`sgfcheck.judge.deadstones`). Nothing here knows a ruleset.

- owners: each empty region (dead stones removed) belongs to the colour(s) it touches
  (Tromp-Taylor reach): what area counting counts;
- the referee's map (:mod:`sgfcheck.position.referee`): which of a colour's own points a referee
  counts as territory, which belong to a group in seki, which are false eyes or connections it
  must still fill;
- areas: stones of one colour joined through their own empty points and through dame, as CGoban
  joins them (for the ways uncertain chains may go).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import NamedTuple

from sgfcheck import core
from sgfcheck.colour import BLACK, COLOURS, EMPTY, WHITE, Colour
from sgfcheck.position.referee import RefereeMap, referee_map
from sgfcheck.replay.board import Board


@dataclass
class _Referee:
    """What the referee's map says of a position, by colour."""

    map: RefereeMap
    seki_empty: dict[Colour, list[int]]
    seki_stones: dict[Colour, list[int]]
    groups: dict[Colour, int]
    must_fill: dict[Colour, list[int]]


@dataclass
class Position:
    """The final position with dead stones removed, analysed once for every ruleset. What only
    territory counting and the group tax need (the referee's map: seki, points to fill, living
    groups) is worked out when first asked for."""

    board: Board
    colour: list[int]
    """The board's colours with the dead stones removed."""
    empty: dict[Colour, int]
    """Empty points owned by each colour (reached by that colour only)."""
    dame: list[int]
    stones: dict[Colour, int]
    dead: dict[Colour, int]
    """Dead stones of each colour (removed, prisoners for the other colour)."""
    owner: Sequence[int]
    """Who each empty point's region touches (see :func:`empty_owners`)."""
    dead_points: frozenset[int]
    _referee: _Referee | None = field(default=None, repr=False, compare=False)

    @property
    def referee(self) -> RefereeMap:
        """The referee's map of every point (territory, seki, false eyes, dame, eye values)."""
        return self._judged().map

    @property
    def seki_empty(self) -> dict[Colour, list[int]]:
        """Each colour's own empty points inside groups that live in seki."""
        return self._judged().seki_empty

    @property
    def seki_stones(self) -> dict[Colour, list[int]]:
        return self._judged().seki_stones

    def seki_alive(self) -> set[int]:
        """The stones alive in seki: the chains of groups without two eyes that share a dame
        point with such a group of the other colour (seki is mutual)."""
        board, nbrs, dame = self.board, self.board.neighbours, set(self.dame)
        in_seki = {BLACK: set(self.seki_stones[BLACK]), WHITE: set(self.seki_stones[WHITE])}
        keep: set[int] = set()
        for colour in (BLACK, WHITE):
            other = in_seki[colour.opponent]
            chains = {id(chain): chain for p in in_seki[colour]
                      if (chain := board.chain_of[p]) is not None}
            for chain in chains.values():
                if any(q in dame and any(r in other for r in nbrs[q])
                       for s in chain.stones for q in nbrs[s]):
                    keep.update(chain.stones)
        return keep

    @property
    def groups(self) -> dict[Colour, int]:
        """Independently living groups (regions not in seki) per colour, for the group tax."""
        return self._judged().groups

    @property
    def must_fill(self) -> dict[Colour, list[int]]:
        """Own empty points a colour must still fill (false eyes, points that keep a chain
        connected once the opponent fills the dame) or that the opponent can still reach past a
        wall: not territory under territory counting; area counting is unaffected."""
        return self._judged().must_fill

    def _judged(self) -> _Referee:
        if self._referee is None:
            self._referee = _referee_reading(self)
        return self._referee


def _referee_compiled(fast: ModuleType, position: Position) -> _Referee:
    """:func:`_referee_pure` in the compiled core (its ``seki_reading`` gives the same lists)."""
    ref = _map_of(position)
    sb, sw, fb, fw, stb, stw = fast.seki_reading(bytes(position.owner), ref.territory, ref.seki,
                                                 bytes(position.colour))
    return _Referee(ref, {BLACK: sb, WHITE: sw}, {BLACK: stb, WHITE: stw}, _groups(ref),
                    {BLACK: fb, WHITE: fw})


def _referee_pure(position: Position) -> _Referee:
    """The referee's map, and by colour the own points it does not count as territory (in seki,
    or to fill) and the stones of groups in seki."""
    ref = _map_of(position)
    seki_empty: dict[Colour, list[int]] = {BLACK: [], WHITE: []}
    seki_stones: dict[Colour, list[int]] = {BLACK: [], WHITE: []}
    must_fill: dict[Colour, list[int]] = {BLACK: [], WHITE: []}
    seki, territory, colour = ref.seki, ref.territory, position.colour
    # An empty point only one colour reaches (owner 1 or 2; stones have owner 0) that the
    # referee does not count for it: enclosed by a group in seki, or a point to fill.
    owner = position.owner
    differ = [p for p, (own, counted) in enumerate(zip(owner, territory, strict=True))
              if own != counted]
    for p in differ:
        own = owner[p]
        if own == 1 or own == 2:
            (seki_empty if seki[p] == own else must_fill)[Colour(own)].append(p)
    if any(seki):
        for p, here in enumerate(colour):
            if here and seki[p] == here:
                seki_stones[Colour(here)].append(p)
    return _Referee(ref, seki_empty, seki_stones, _groups(ref), must_fill)


_referee_reading = core.door(_referee_compiled, _referee_pure)


def _map_of(position: Position) -> RefereeMap:
    board = position.board
    return referee_map(board.colour, position.dead_points, board.width, board.height,
                       board.neighbours)


def _groups(ref: RefereeMap) -> dict[Colour, int]:
    return {BLACK: ref.groups.get(BLACK, 0), WHITE: ref.groups.get(WHITE, 0)}


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


def areas(colour: list[int], owner: Sequence[int], nbrs: list[tuple[int, ...]]) -> Areas:
    """Areas: stones of one colour joined through their own empty points and through dame (as
    CGoban does)."""
    n = len(colour)
    area_of = [-1] * n
    out: list[Area] = []
    for start in range(n):
        c = colour[start]
        if c == EMPTY or area_of[start] >= 0:
            continue
        area_of[start] = start
        members = [start]
        through: set[int] = set()  # dame passed through: shared by both colours' areas
        i = 0
        while i < len(members):
            for q in nbrs[members[i]]:
                if area_of[q] >= 0 or q in through:
                    continue
                qc = colour[q]
                if qc == EMPTY and owner[q] == 3:
                    through.add(q)
                    members.append(q)
                elif qc == c or (qc == EMPTY and owner[q] == c):
                    area_of[q] = start
                    members.append(q)
            i += 1
        stones = [p for p in members if colour[p] == c]
        own = [p for p in members if colour[p] == EMPTY and owner[p] == c]
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


def _tally_compiled(fast: ModuleType, colour: list[int], board: Board
                   ) -> tuple[Sequence[int], Census]:
    """:func:`_tally_pure` in the compiled core."""
    packed = bytes(colour)
    owner = fast.empty_owners(packed, board.width, board.height)
    return owner, fast.census(packed, owner, board.width, board.height)


def _tally_pure(colour: list[int], board: Board) -> tuple[Sequence[int], Census]:
    """Who every empty point's region touches (:func:`empty_owners`), and the counting loop's
    tallies (:func:`census`)."""
    owner = empty_owners(colour, board.neighbours)
    return owner, census(colour, owner)


_tally = core.door(_tally_compiled, _tally_pure)


def analyse(board: Board, dead: set[int]) -> Position:
    """The position with the ``dead`` stones removed, analysed (see :class:`Position`)."""
    colour = list(board.colour)
    dead_count = {BLACK: 0, WHITE: 0}
    for p in dead:
        if colour[p] != EMPTY:
            dead_count[Colour(colour[p])] += 1
            colour[p] = EMPTY
    owner, tally = _tally(colour, board)
    empty = {BLACK: tally.empty_black, WHITE: tally.empty_white}
    stones = {BLACK: tally.stones_black, WHITE: tally.stones_white}

    return Position(board, colour, empty, tally.dame, stones, dead_count, list(owner),
                    frozenset(dead))


def _area_map_compiled(fast: ModuleType, colour: list[int], board: Board) -> list[int]:
    """:func:`area_map` in the compiled core."""
    packed = bytes(colour)
    owner = fast.empty_owners(packed, board.width, board.height)
    found: Areas = fast.areas(packed, owner, board.width, board.height)
    return found.area_of


def _area_map_pure(colour: list[int], board: Board) -> list[int]:
    """The area of every stone and own empty point (see :func:`areas`), -1 elsewhere."""
    return areas(colour, empty_owners(colour, board.neighbours), board.neighbours).area_of


area_map = core.door(_area_map_compiled, _area_map_pure)
