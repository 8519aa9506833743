"""A referee's map of the final position: which points are territory, which belong to groups in
seki, which are false eyes a player must still fill, which are dame, and what each eye is worth.

It reads the final position with the dead stones still on it (they are passable, and what lies
under them counts) and judges as the Japanese 1989 rules do after the players agreed on the dead
stones: a group with fewer than two eyes that is on the board at the end lives only in seki
(Art. 7, 8: its eye points are not territory); a point a player must still fill to stay connected
is not territory; a point both colours reach is dame. Nothing here knows a ruleset: every count
(:mod:`sgfcheck.counting.count`) takes from it what its rules count.

The analysis follows the method of lightvector's goscorer (territory scoring with seki
detection, MIT), re-stated here over sgfcheck's flat boards:

1. **Walls.** An empty point inside shapes that keep the opponent out (a tiger's mouth, a
   bamboo joint's gap, a hane on the first line) is *blocked* for the opponent: he may reach it,
   not go past it.
2. **Reach.** Which living stones each point can reach without crossing a living opponent stone:
   *strictly* (walls ignored) and through the walls.
3. **Regions.** The points only one colour reaches, joined through dame into regions; every
   living stone belongs to its colour's region.
4. **Groups.** Living chains of one colour joined through dame (*groups*, goscorer's
   macrochains): what shares its liberties.
5. **Eyes.** Each connected run of empty points and dead stones inside a region; a point of an
   eye is *false* when the groups around it cannot reach its other sides except through the point
   itself (nor through an eye that is already worth something).
6. **Eye values** (0, 1 or 2) from the eye's real points: how many moves each point needs to be
   sealed, cut points that split the eye into separate eyes, large eyes and eyes full of dead
   stones.
7. **The count.** A region whose eyes are worth fewer than two in all is in seki: none of its
   points is territory. Else its empty points and dead stones are territory, except false eyes
   that must still be filled, points a living opponent stone still reaches and runs of empty
   points that reach out of the region.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from types import ModuleType

from sgfcheck import core
from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.points import on_edge, spread
from sgfcheck.points import pieces as split_pieces
from sgfcheck.position.walls import wall_table


@dataclass
class RefereeMap:
    """The referee's reading of every point of the board (flat indices, as :class:`Board`): a
    byte a point, as the compiled core makes them (kept as bytes from the core to the counts)."""

    territory: bytes
    """The colour a point counts for as territory (0: nobody); points under dead stones
    included, the dead stones themselves not (they are prisoners)."""
    seki: bytes
    """The colour of the group in seki a point belongs to (its stones and the empty points and
    dead stones it encloses), 0 elsewhere."""
    false_eye: bytes
    """1 on an eye point that does not help its group live (0 elsewhere)."""
    to_fill: bytes
    """1 on a false eye its owner must still fill: not territory."""
    dame: bytes
    """1 on a point reached by both colours (or walled off from both): nobody's."""
    eye_value: bytes
    """What the eye holding the point is worth (0, 1, 2); 0 outside eyes."""
    groups: dict[int, int] = field(default_factory=dict)
    """Independently living regions (eyes worth two or more) per colour."""


def _referee_map_compiled(fast: ModuleType, stone: Sequence[int], dead: Collection[int],
                          width: int, height: int, nbrs: Sequence[tuple[int, ...]]
                          ) -> RefereeMap:
    """:func:`referee_map` in the compiled core (its ``referee`` takes the same steps)."""
    flags = bytearray(width * height)
    for p in dead:
        flags[p] = 1
    territory, seki, false_eye, to_fill, dame, values, black, white = fast.referee(
        bytes(stone), bytes(flags), width, height)
    return RefereeMap(territory, seki, false_eye, to_fill, dame, values,
                      {BLACK: black, WHITE: white})


def referee_map_pure(stone: Sequence[int], dead: Collection[int], width: int, height: int,
                     nbrs: Sequence[tuple[int, ...]]) -> RefereeMap:
    """The referee's map of a final position: ``stone`` the colours on the board (dead stones
    still there), ``dead`` the points of the stones agreed dead. The reference of the compiled
    core."""
    return _Analysis(stone, dead, width, height, nbrs).run()


referee_map = core.door(_referee_map_compiled, referee_map_pure)


class _Analysis:
    def __init__(self, stone: Sequence[int], dead: Collection[int], width: int, height: int,
                 nbrs: Sequence[tuple[int, ...]]) -> None:
        self.stone = stone
        self.n = n = width * height
        self.dead = [False] * n
        for p in dead:
            if stone[p] != EMPTY:
                self.dead[p] = True
        self.width, self.height, self.nbrs = width, height, nbrs
        # The living colour of every point (0: empty or a dead stone).
        self.alive = [EMPTY if self.dead[p] else stone[p] for p in range(n)]

    # --- 1. walls -----------------------------------------------------------------------------

    def walls(self) -> list[int]:
        """For every empty point, the colour whose shape blocks the opponent there (0: none)."""
        stone, alive, dead, nbrs = self.stone, self.alive, self.dead, self.nbrs
        table = wall_table(self.width, self.height)
        blocked = [EMPTY] * self.n
        for pla in (BLACK, WHITE):
            opp = 3 - pla
            # "e": empty, the player's living stone or a dead opponent stone.
            open_ = [stone[q] == EMPTY or alive[q] == pla or (stone[q] == opp and dead[q])
                     for q in range(self.n)]
            for p in range(self.n):
                if stone[p] != EMPTY or not any(alive[q] == pla for q in nbrs[p]):
                    continue  # every shape has one of the player's stones beside "@"
                for stones, opens in table[p]:
                    if all(alive[q] == pla for q in stones) and all(open_[q] for q in opens):
                        blocked[p] = pla  # White's shape, tried last, wins where both fit
                        break
        return blocked

    # --- 2. reach -----------------------------------------------------------------------------

    def reach(self, pla: int, blocked: Sequence[int] | None) -> list[bool]:
        """Points a living stone of ``pla`` reaches without crossing a living opponent stone
        (and, with ``blocked``, without going past a point the opponent walls off)."""
        alive, nbrs = self.alive, self.nbrs
        opp = 3 - pla
        seen = [False] * self.n
        todo = [p for p in range(self.n) if alive[p] == pla]
        for p in todo:
            seen[p] = True
        while todo:
            p = todo.pop()
            if blocked is not None and blocked[p] == opp:
                continue
            for q in nbrs[p]:
                if not seen[q] and alive[q] != opp:
                    seen[q] = True
                    todo.append(q)
        return seen

    # --- the whole analysis -------------------------------------------------------------------

    def run(self) -> RefereeMap:
        blocked = self.walls()
        strict: dict[int, list[bool]] = {pla: self.reach(pla, None) for pla in (BLACK, WHITE)}
        reach: dict[int, list[bool]] = {pla: self.reach(pla, blocked) for pla in (BLACK, WHITE)}
        region, region_colour = self._regions(reach, blocked)
        chain_region = self._chains(region)
        group, group_count = self._groups(region, blocked)
        eyes, group_eyes, eye = self._eyes(region, region_colour, group, group_count)
        self.eyes, self.group_eyes, self.region = eyes, group_eyes, region

        # 6. False eye points, then eye values, then the false eyes once more with the values.
        false_point = self.false_points()
        for e in eyes:
            e.value = self.eye_value(e, false_point)
        # With the values known a search can only succeed more often: only the points false
        # without them need looking at again.
        to_fill = self.false_points(false_point)
        return self._count(region, region_colour, chain_region, eye, strict, false_point,
                           to_fill)

    def _regions(self, reach: dict[int, list[bool]],
                 blocked: list[int]) -> tuple[list[int], list[int]]:
        """3. Regions: points only one colour reaches, joined through what both reach; each
        point's region (-1: none) and each region's colour."""
        n, nbrs, alive = self.n, self.nbrs, self.alive
        region = [-1] * n
        region_colour: list[int] = []
        for start in range(n):
            for pla in (BLACK, WHITE):
                opp = 3 - pla
                if region[start] != -1 or not reach[pla][start] or reach[opp][start]:
                    continue
                rid = len(region_colour)
                region_colour.append(pla)
                seen = {start}
                todo = [start]
                while todo:
                    p = todo.pop()
                    if reach[pla][p] and not reach[opp][p]:
                        region[p] = rid
                    if blocked[p] == opp:
                        continue
                    for q in nbrs[p]:
                        if q not in seen and region[q] == -1 and alive[q] != opp:
                            seen.add(q)
                            todo.append(q)
        return region, region_colour

    def _chains(self, region: list[int]) -> list[int]:
        """Chains: connected points of one colour and one life (empty points too), kept in
        ``self.chain`` and ``self.chain_liberties``; returns the region of each chain, the one
        all its points share (-1 if they do not)."""
        n, nbrs, stone, dead = self.n, self.nbrs, self.stone, self.dead
        chain = [-1] * n
        chain_region: list[int] = []
        chain_liberties: list[set[int]] = []
        for start in range(n):
            if chain[start] != -1:
                continue
            cid = len(chain_region)
            colour, life = stone[start], dead[start]
            chain[start] = cid
            points = [start]
            libs: set[int] = set()
            same_region = region[start]
            i = 0
            while i < len(points):
                p = points[i]
                i += 1
                if region[p] != same_region:
                    same_region = -1
                for q in nbrs[p]:
                    if chain[q] == -1 and stone[q] == colour and dead[q] == life:
                        chain[q] = cid
                        points.append(q)
                    elif stone[q] == EMPTY and chain[q] != cid:
                        libs.add(q)
            chain_region.append(same_region)
            chain_liberties.append(libs)
        self.chain, self.chain_liberties = chain, chain_liberties
        return chain_region

    def _groups(self, region: list[int], blocked: list[int]) -> tuple[list[int], int]:
        """4. Groups: living chains of one colour joined through dame not walled off from it;
        each point's group (-1: none) and how many there are."""
        n, nbrs, alive = self.n, self.nbrs, self.alive
        group = [-1] * n
        group_count = 0
        for pla in (BLACK, WHITE):
            opp = 3 - pla
            seen_g = [False] * n
            for start in range(n):
                if alive[start] != pla or group[start] != -1:
                    continue
                gid = group_count
                group_count += 1
                todo = [start]
                seen_g[start] = True
                while todo:
                    p = todo.pop()
                    if alive[p] == pla:
                        group[p] = gid
                    elif not (region[p] == -1 and blocked[p] != opp):
                        continue
                    for q in nbrs[p]:
                        if not seen_g[q]:
                            seen_g[q] = True
                            todo.append(q)
        return group, group_count

    def _eyes(self, region: list[int], region_colour: list[int], group: list[int],
              group_count: int) -> tuple[list[_Eye], list[dict[int, set[int]]], list[int]]:
        """5. Eyes: connected empty points and dead stones inside one region; the eyes, each
        group's eyes (eye -> the group's points beside it), and each point's eye (-1: none)."""
        n, nbrs, alive = self.n, self.nbrs, self.alive
        eye = [-1] * n
        eyes: list[_Eye] = []
        group_eyes: list[dict[int, set[int]]] = [{} for _ in range(group_count)]
        for start in range(n):
            if eye[start] != -1 or alive[start] != EMPTY or region[start] == -1:
                continue
            rid = region[start]
            e = _Eye(len(eyes), region_colour[rid], rid)
            eyes.append(e)
            eye[start] = e.index
            todo = [start]
            while todo:
                p = todo.pop()
                e.points.add(p)
                for q in nbrs[p]:
                    if region[q] != rid:
                        continue
                    g = group[q]
                    if g != -1:
                        e.groups.setdefault(g, set()).add(p)
                        group_eyes[g].setdefault(e.index, set()).add(q)
                    elif alive[q] == EMPTY and eye[q] == -1:
                        eye[q] = e.index
                        todo.append(q)
        return eyes, group_eyes, eye

    def _count(self, region: list[int], region_colour: list[int], chain_region: list[int],
               eye: list[int], strict: dict[int, list[bool]], false_point: list[bool],
               to_fill: list[bool]) -> RefereeMap:
        """7. The count: each point's territory, seki, points not counted, dame and eye
        value."""
        n, nbrs, alive, stone, dead, eyes = (self.n, self.nbrs, self.alive, self.stone,
                                             self.dead, self.eyes)
        chain = self.chain
        extra: dict[int, set[int]] = {BLACK: set(), WHITE: set()}
        for p in range(n):
            if to_fill[p] and dead[p]:
                extra[3 - stone[p]].update(nbrs[p])
        region_eyes = [0] * len(region_colour)
        for e in eyes:
            region_eyes[e.region] += e.value
        territory = [EMPTY] * n
        seki = [EMPTY] * n
        dame = [False] * n
        eye_value = [0] * n
        unscored = [False] * n
        groups: dict[int, int] = {BLACK: 0, WHITE: 0}
        for rid, colour in enumerate(region_colour):
            if region_eyes[rid] >= 2:
                groups[colour] += 1
        for p in range(n):
            rid = region[p]
            if rid == -1:
                dame[p] = True
                continue
            colour = region_colour[rid]
            if region_eyes[rid] <= 1:
                seki[p] = colour
            if to_fill[p] or (alive[p] == EMPTY and p in extra[colour]):
                unscored[p] = True
            if eye[p] != -1:
                eye_value[p] = eyes[eye[p]].value
            if (alive[p] != colour and not seki[p] and not unscored[p]
                    and chain_region[chain[p]] == rid
                    and not strict[3 - colour][p]):
                territory[p] = colour
        return RefereeMap(bytes(territory), bytes(seki), bytes(false_point), bytes(unscored),
                          bytes(dame), bytes(eye_value), groups)

    # --- 5. false eyes ------------------------------------------------------------------------

    def false_points(self, among: list[bool] | None = None) -> list[bool]:
        """Eye points that do not help: the group beside the point cannot come round to the
        point's other sides (through its own stones, other groups and the eye's other points,
        never through the point itself), nor reach an eye already worth something. ``among``:
        only these points can be false."""
        nbrs = self.nbrs
        false = [False] * self.n
        for home in self.eyes:
            for first_group, touching in home.groups.items():
                for point in touching:
                    if among is not None and not among[point]:
                        continue
                    if sum(1 for q in nbrs[point] if q in home.points) > 1:
                        continue  # a point joined to two of the eye's points is never false
                    if not self._comes_round(home, point, first_group):
                        false[point] = True
        return false

    def _comes_round(self, home: _Eye, point: int, first_group: int) -> bool:
        """Whether ``first_group`` reaches every side of ``point`` (its sides inside the
        region) other than through the point, or an eye worth something.

        The groups reached are the closure of: a group's other eyes lead to their groups; the
        eye's own points, spread from a group without crossing ``point``, lead to the groups
        beside them. The answer depends on that closure only, not on the order it is walked
        in."""
        nbrs, eyes, group_eyes = self.nbrs, self.eyes, self.group_eyes
        needed = sum(1 for q in nbrs[point] if self.region[q] == home.region)
        beside = set(nbrs[point])
        sides: set[int] = set()
        seen_groups = {first_group}
        seen_eyes: set[int] = set()
        used = {point}
        todo = [first_group]  # breadth first: the sides near the point are found soonest
        head = 0
        while head < len(todo):
            g = todo[head]
            head += 1
            for eid, stones in group_eyes[g].items():
                if eid in seen_eyes:
                    continue
                if eid == home.index:
                    sides.update(stones & beside)
                    if len(sides) >= needed:
                        return True
                    reached = spread(nbrs, home.points, home.groups[g], used)
                    if not reached:
                        continue
                    used.update(reached)
                    if home.value > 0 and reached & home.real:
                        return True
                    sides.update(reached & beside)
                    if len(sides) >= needed:
                        return True
                    for g2, from_points in home.groups.items():
                        if g2 not in seen_groups and from_points & reached:
                            seen_groups.add(g2)
                            todo.append(g2)
                else:
                    seen_eyes.add(eid)
                    other = eyes[eid]
                    if other.value > 0:
                        return True
                    for g2 in other.groups:
                        if g2 not in seen_groups:
                            seen_groups.add(g2)
                            todo.append(g2)
        return False

    # --- 6. eye values ------------------------------------------------------------------------

    def playable(self, p: int, pla: int) -> bool:
        """``pla`` may play at ``p`` as far as suicide goes (an empty point beside an empty
        point or a friendly stone, or capturing)."""
        if self.stone[p] != EMPTY:
            return False
        opp = 3 - pla
        for q in self.nbrs[p]:
            if self.stone[q] != opp:
                return True
            if len(self.chain_liberties[self.chain[q]]) <= 1:
                return True
        return False

    def eye_value(self, e: _Eye, false: list[bool]) -> int:
        stone, dead, nbrs = self.stone, self.dead, self.nbrs
        pla = e.colour
        opp = 3 - pla
        real = e.real = {p for p in e.points if not false[p]}
        if not real:
            return 0
        inner = {p: [q for q in nbrs[p] if q in real] for p in real}
        empty_inner = {p: sum(1 for q in inner[p] if stone[q] == EMPTY) for p in real}
        opp_false = {p: sum(1 for q in nbrs[p] if stone[q] == opp and false[q]) for p in real}
        moves = self._moves_to_seal(real, false, opp, opp_false)

        # Each rule below can only raise the value; the cheap ones first, and the search for
        # cut points only while the eye is not already worth two.
        value = 1 if any(m <= 1 for m in moves.values()) else 0
        dead_inside = sum(1 for p in real if stone[p] == opp and dead[p])
        if dead_inside >= 8:
            value = 2
        elif dead_inside >= 5:
            value = max(value, 1)
        if value < 2 and (len(real) - sum(1 for p in real if moves[p] >= 1)
                          - sum(1 for p in real if moves[p] >= 2)
                          - sum(1 for p in real if stone[p] == opp and len(inner[p]) >= 2)
                          >= 6):
            value = 2
        if value < 2 and (sum(1 for p in real if stone[p] == EMPTY and len(inner[p]) >= 4)
                          + sum(1 for p in real if stone[p] == EMPTY and len(inner[p]) >= 3)
                          >= 6):
            value = 2
        if value < 2:
            value = max(value, self._cut_value(real, pla, moves, opp_false))
        if value < 2 and self._two_point_cut(e, real, inner, empty_inner, moves, pla):
            value = 2
        if value < 2 and self._dead_shape_lives(e, real, false, pla):
            value = 2
        return min(value, 2)

    def _moves_to_seal(self, real: set[int], false: list[bool], opp: int,
                       opp_false: dict[int, int]) -> dict[int, int]:
        """For each real point of an eye, the moves the opponent has in hand before it can be
        sealed off as an eye (1000: never)."""
        stone, nbrs = self.stone, self.nbrs
        empty_false = {p: sum(1 for q in nbrs[p] if stone[q] == EMPTY and false[q])
                       for p in real}
        poke = {p: stone[p] == opp and (opp_false[p] > 0 or empty_false[p] >= 2) for p in real}
        moves: dict[int, int] = {}
        for p in real:
            total = 0
            for q in nbrs[p]:
                block = 0
                if stone[q] == EMPTY and q not in real:
                    block = 1
                if stone[q] == EMPTY and q in real and opp_false[q] >= 1:
                    block = 1
                if stone[q] == opp and q in real and empty_false[q] >= 1:
                    block = 1
                if stone[q] == opp and false[q]:
                    block = 1000
                if stone[q] == opp and q in real and poke[q]:
                    block = 1000
                total += block
            moves[p] = total
        return moves

    def _cut_value(self, real: set[int], pla: int, moves: dict[int, int],
                   opp_false: dict[int, int]) -> int:
        """What a cut point the owner can play, leaving separate eyes, makes the eye worth (up
        to two)."""
        value = 0
        for cut in real:
            if not self.playable(cut, pla):
                continue
            pieces = split_pieces(self.nbrs, real, {cut})
            if len(pieces) < 2:
                continue
            bonus = opp_false[cut] == 1
            sure = sum(1 for piece in pieces
                       if any(moves[p] <= 0 or (bonus and moves[p] <= 1) for p in piece))
            value = max(value, sure)
            if value >= 2:
                break
        return value

    def _two_point_cut(self, e: _Eye, real: set[int], inner: dict[int, list[int]],
                       empty_inner: dict[int, int], moves: dict[int, int], pla: int) -> bool:
        """Two adjacent points of the eye, each joined to three of its points, that split it
        into pieces that each hold a point already sealed (one of them two)."""
        stone, w, h = self.stone, self.width, self.height
        for a in real:
            if stone[a] != EMPTY or on_edge(a, w, h) or not self.playable(a, pla):
                continue
            if moves[a] > 1 or len(inner[a]) < 3:
                continue
            for b in inner[a]:
                if len(inner[b]) < 3 or moves[b] > 1:
                    continue
                if stone[b] != EMPTY and empty_inner[b] <= 1:
                    continue
                pieces = split_pieces(self.nbrs, real, {a, b})
                if len(pieces) < 2:
                    continue
                sure = double = 0
                for piece in pieces:
                    sealed = sum(1 for p in piece if moves[p] <= 0)
                    if sealed >= 1:
                        sure += 1
                    if sealed >= 2:
                        double += 1
                if sure >= 2 and double >= 1 and (stone[b] == EMPTY or double >= 2):
                    return True
        return False

    def _dead_shape_lives(self, e: _Eye, real: set[int], false: list[bool], pla: int) -> bool:
        """An eye filled with dead opponent stones and no cut point: once they are captured,
        the space they leave (with the points the owner cannot fill) makes two eyes, whichever
        of those points the opponent holds back."""
        stone, dead, nbrs = self.stone, self.dead, self.nbrs
        opp = 3 - pla
        dead_opp = {p for p in real if stone[p] == opp and dead[p]}
        if not dead_opp:
            return False
        unplayable = [p for p in real if p not in dead_opp and not self.playable(p, pla)]
        throw_ins = sum(1 for p in e.points if stone[p] == opp and false[p])
        for left_out in [*unplayable, None]:
            shape = set(dead_opp)
            shape.update(p for p in unplayable if p != left_out)
            pieces = len(split_pieces(nbrs, shape, set()))
            cuts = high = 0
            for p in shape:
                if len(split_pieces(nbrs, shape, {p})) > pieces:
                    cuts += 1
                elif sum(1 for q in nbrs[p] if q in shape) >= 3:
                    high += 1
            bonus = 1 if len(shape) >= 7 else 0
            if pieces - throw_ins + (cuts + high + bonus) // 2 < 2:
                return False
        return True


@dataclass
class _Eye:
    index: int
    colour: int
    region: int
    points: set[int] = field(default_factory=set)
    groups: dict[int, set[int]] = field(default_factory=dict)
    """For every group beside the eye, the eye's points that touch it."""
    real: set[int] = field(default_factory=set)
    value: int = 0
