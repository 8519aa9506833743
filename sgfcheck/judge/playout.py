"""Monte-Carlo playouts from a final position: who ends up owning each point.

A playout continues the game with random legal moves, alternately, until both sides pass, under
a policy that keeps it close to sensible play at the end of a game:

- never fill one's own true eye (a point surrounded by own stones, not a false eye by its
  diagonals);
- never put two or more of one's own stones in atari without capturing (so a seki stays a seki,
  and a living group does not kill itself); a single stone may still be thrown in, and up to
  two when it is a nakade (inside the opponent's eye space, enclosed by its stones alone);
- capture the opponent's last-moved chain when it is in atari, and save one's own chain put in
  atari by the last move when extending gives it two liberties or more.

Ownership at the end is Tromp-Taylor (stones, and empty points touched by one colour only).
Seeded: the same position and seed give the same answer.

For speed this module keeps its own chains in flat arrays (a head point per stone, stones and
liberties per head) rather than :class:`sgfcheck.replay.board.Board`'s chain objects, and colours as
plain ints (``3 - c`` is the opponent): a playout plays hundreds of moves and is copied per run.
It shares the board's neighbour table and keeps its diagonal table beside it.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import NamedTuple

from sgfcheck import core
from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.replay.board import Board

_BLACK, _WHITE = int(BLACK), int(WHITE)

_DIAGONALS: dict[tuple[int, int], list[tuple[int, ...]]] = {}


def diagonals_for(width: int, height: int) -> list[tuple[int, ...]]:
    """On-board diagonal neighbours of every point (cached per board size)."""
    key = (width, height)
    table = _DIAGONALS.get(key)
    if table is None:
        table = []
        for row in range(height):
            for col in range(width):
                table.append(tuple(
                    (row + dr) * width + col + dc for dr in (-1, 1) for dc in (-1, 1)
                    if 0 <= row + dr < height and 0 <= col + dc < width))
        _DIAGONALS[key] = table
    return table


@core.contract
class PlayoutRequest(NamedTuple):
    """What the compiled playouts are asked."""

    colours: bytes
    width: int
    height: int
    rng_state: tuple[int, ...]
    """The state of Python's Mersenne Twister (``random.Random.getstate()[1]``)."""
    local: float
    """How often a move answers near the last one."""
    playouts: int
    first: int
    """The side to move first in the first playout (they alternate); negated, the side to
    move first in every playout."""


@core.contract
class PlayoutCounts(NamedTuple):
    """What the compiled playouts return."""

    black: list[int]
    """Per point, how many playouts ended with it Black's."""
    white: list[int]
    rng_state: tuple[int, ...]
    """The random generator's state after them."""


class Playouts:
    """Playouts from one position; :meth:`run` returns per point how often each colour owned it."""

    def __init__(self, board: Board, seed: int = 0, local: float = 0.5) -> None:
        self.local = local
        self.n = len(board.colour)
        self.nbrs = board.neighbours
        self.diags = diagonals_for(board.width, board.height)
        self.rng = random.Random(seed)
        self.width, self.height = board.width, board.height
        self.colour = [int(c) for c in board.colour]  # plain ints: faster than Colour here
        self._chains: tuple[list[int], list[list[int] | None], list[set[int] | None]] | None = None
        self.black = [0] * self.n
        self.white = [0] * self.n
        self.count = 0

    def run(self, playouts: int, first: int = _BLACK, alternate: bool = True) -> None:
        """Add ``playouts`` playouts, the first side alternating starting with ``first`` (or
        always ``first``)."""
        _add_playouts(self, playouts, first, alternate)

    def _start_chains(self) -> tuple[list[int], list[list[int] | None], list[set[int] | None]]:
        """Chains found afresh from the colours, in point order, each flooded depth first (as
        the compiled core finds them): the same position always starts the same playouts,
        whatever the history of the Board object. Built for the pure playouts only."""
        if self._chains is not None:
            return self._chains
        head = [-1] * self.n
        stones: list[list[int] | None] = [None] * self.n
        libs: list[set[int] | None] = [None] * self.n
        fresh = Board.from_colours(self.width, self.height, self.colour, 0)
        for chain in fresh.chains():  # Board._rebuild's order: the compiled core's
            key = chain.stones[0]
            stones[key] = list(chain.stones)
            libs[key] = set(chain.liberties)
            for s in chain.stones:
                head[s] = key
        self._chains = (head, stones, libs)
        return self._chains

    def share(self, points: list[int], colour: int) -> float:
        """Share of playouts (averaged over the points) in which ``colour`` owned them."""
        own = self.black if colour == _BLACK else self.white
        if not self.count or not points:
            return 0.0
        return sum(own[p] for p in points) / (len(points) * self.count)

    def ownership(self) -> list[float]:
        """Every point's ownership over the playouts so far: +1 always Black's, -1 always
        White's."""
        if not self.count:
            return [0.0] * self.n
        return [round((b - w) / self.count, 3) for b, w in zip(self.black, self.white,
                                                                  strict=True)]

    # --- one playout --------------------------------------------------------------------------

    def _playout(self, to_move: int) -> list[int]:
        n = self.n
        nbrs = self.nbrs
        diags = self.diags
        rnd = self.rng.random
        local = self.local
        col = list(self.colour)
        start_head, start_stones, start_libs = self._start_chains()
        head = list(start_head)
        stones = [s[:] if s is not None else None for s in start_stones]
        libs = [set(s) if s is not None else None for s in start_libs]
        empties = [p for p in range(n) if col[p] == EMPTY]
        where = [-1] * n
        for i, p in enumerate(empties):
            where[p] = i

        def remove_empty(p: int) -> None:
            i = where[p]
            last = empties.pop()
            if last != p:
                empties[i] = last
                where[last] = i
            where[p] = -1

        def play(p: int, c: int) -> int:
            """Play and return the ko point (or -1)."""
            col[p] = c
            remove_empty(p)
            new_libs = set()
            friends = []
            captured: list[int] = []
            for q in nbrs[p]:
                cq = col[q]
                if cq == EMPTY:
                    new_libs.add(q)
                elif cq == c:
                    h = head[q]
                    if h not in friends:
                        friends.append(h)
                else:
                    h = head[q]
                    lq = libs[h]
                    assert lq is not None
                    lq.discard(p)
                    if not lq:
                        group = stones[h]
                        assert group is not None
                        captured.extend(group)
                        for s in group:
                            col[s] = EMPTY
                            head[s] = -1
                            where[s] = len(empties)
                            empties.append(s)
                        stones[h] = None
                        libs[h] = None
                        for s in group:
                            for r in nbrs[s]:
                                hr = head[r]
                                if hr >= 0:
                                    lr = libs[hr]
                                    assert lr is not None
                                    lr.add(s)
            if captured:
                for q in nbrs[p]:
                    if col[q] == EMPTY:
                        new_libs.add(q)
            if not friends:
                head[p] = p
                stones[p] = [p]
                libs[p] = new_libs
                if len(captured) == 1 and len(new_libs) == 1:
                    return captured[0]
                return -1
            big = friends[0]
            for h in friends[1:]:
                if len(stones[h]) > len(stones[big]):  # type: ignore[arg-type]
                    big = h
            members = stones[big]
            own = libs[big]
            assert members is not None and own is not None
            for h in friends:
                if h != big:
                    for s in stones[h]:  # type: ignore[union-attr]
                        head[s] = big
                    members.extend(stones[h])  # type: ignore[arg-type]
                    own |= libs[h]  # type: ignore[arg-type]
                    stones[h] = None
                    libs[h] = None
            members.append(p)
            head[p] = big
            own |= new_libs
            own.discard(p)
            return -1

        def acceptable(p: int, c: int) -> bool:
            """Legal, not filling a true eye of c, not a self-atari of two or more stones."""
            empty_nb = 0
            own_nb = 0
            for q in nbrs[p]:
                cq = col[q]
                if cq == EMPTY:
                    empty_nb += 1
                elif cq == c:
                    own_nb += 1
                elif len(libs[head[q]]) == 1:  # type: ignore[arg-type]
                    return True  # captures
            if empty_nb >= 2:
                return True
            if own_nb == len(nbrs[p]):
                bad = 0
                for d in diags[p]:
                    if col[d] == 3 - c:
                        bad += 1
                if bad == 0 or (bad == 1 and len(diags[p]) == 4):
                    return False  # a true eye
            if own_nb == 0:
                return empty_nb == 1  # a lone stone: legal with its liberty
            return (_gains(p, c, col, nbrs, libs, head)
                    or _nakade(p, c, col, nbrs, libs, head, stones))

        passes = 0
        ko = -1
        last = -1
        limit = 3 * n
        for _ in range(limit):
            c = to_move
            move = -1
            if last >= 0 and col[last] == 3 - c:
                # capture the last-moved chain in atari, or save own chains it put in atari
                lh = libs[head[last]]
                assert lh is not None
                if len(lh) == 1:
                    q = next(iter(lh))
                    if q != ko:
                        move = q
                if move < 0:
                    for q in nbrs[last]:
                        if col[q] == c:
                            lq = libs[head[q]]
                            assert lq is not None
                            if len(lq) == 1:
                                move = _rescue(head[q], c, ko, col, nbrs, libs, head, stones)
                                if move < 0:
                                    r = next(iter(lq))
                                    if r != ko and acceptable(r, c) and _gains(
                                            r, c, col, nbrs, libs, head):
                                        move = r
                                if move >= 0:
                                    break
            if move < 0 and last >= 0 and rnd() < local:
                near = [q for q in nbrs[last] + diags[last]
                        if col[q] == EMPTY and q != ko and acceptable(q, c)]
                if near:
                    move = near[int(rnd() * len(near))]
            if move < 0 and empties:
                m = len(empties)
                i = int(rnd() * m)
                for k in range(m):
                    p = empties[(i + k) % m]
                    if p != ko and acceptable(p, c):
                        move = p
                        break
            if move < 0:
                passes += 1
                ko = -1
                last = -1
                if passes >= 2:
                    break
            else:
                passes = 0
                ko = play(move, c)
                last = move
            to_move = 3 - c
        final = col[:]
        for p in range(n):
            if col[p] == EMPTY:
                seen = 0
                for q in nbrs[p]:
                    seen |= col[q]
                final[p] = seen if seen != 3 else 0
        return final


def _liberties_after(p: int, c: int, col: list[int], nbrs: list[tuple[int, ...]],
                     libs: list[set[int] | None], head: list[int]) -> set[int]:
    """The liberties of the chain a stone of c at p would make (no capture)."""
    after: set[int] = set()
    for q in nbrs[p]:
        cq = col[q]
        if cq == EMPTY:
            after.add(q)
        elif cq == c:
            after |= libs[head[q]]  # type: ignore[arg-type]
    after.discard(p)
    return after


def _gains(p: int, c: int, col: list[int], nbrs: list[tuple[int, ...]],
           libs: list[set[int] | None], head: list[int]) -> bool:
    """Whether a stone of c at p leaves the joined chain with two liberties or more."""
    return len(_liberties_after(p, c, col, nbrs, libs, head)) >= 2


NAKADE_STONES = 2
"""A self-atari of up to this many stones is played when it is a nakade (see :func:`_nakade`)."""


def _nakade(p: int, c: int, col: list[int], nbrs: list[tuple[int, ...]],
            libs: list[set[int] | None], head: list[int],
            stones: list[list[int] | None]) -> bool:
    """Whether a stone of c at p, putting its chain in atari, is a nakade: the chain has at
    most :data:`NAKADE_STONES` stones, and its points with its one liberty are enclosed by the
    opponent's stones alone (played inside the opponent's eye space, it leaves one eye there
    once captured; a seki's shared liberties are never so enclosed)."""
    after = _liberties_after(p, c, col, nbrs, libs, head)
    if len(after) != 1:
        return False
    members = {p}
    for q in nbrs[p]:
        if col[q] == c:
            members.update(stones[head[q]])  # type: ignore[arg-type]
    if len(members) > NAKADE_STONES:
        return False
    region = members | after
    return all(y in region or col[y] == 3 - c for x in region for y in nbrs[x])


def _rescue(h: int, c: int, ko: int, col: list[int], nbrs: list[tuple[int, ...]],
            libs: list[set[int] | None], head: list[int], stones: list[list[int] | None]) -> int:
    """A capture that saves the chain ``h`` of colour c in atari: the last liberty of an
    adjacent opponent chain that is itself in atari, else -1."""
    members = stones[h]
    assert members is not None
    for s in members:
        for q in nbrs[s]:
            if col[q] == 3 - c:
                lq = libs[head[q]]
                assert lq is not None
                if len(lq) == 1:
                    r = next(iter(lq))
                    if r != ko:
                        return r
    return -1


def _add_compiled(fast: ModuleType, done: Playouts, playouts: int, first: int,
                  alternate: bool) -> None:
    """:meth:`Playouts.run` in the compiled core: the same playouts from the same random
    numbers."""
    if playouts <= 0:
        return
    version, state, gauss = done.rng.getstate()
    counts: PlayoutCounts = fast.playouts(PlayoutRequest(
        bytes(done.colour), done.width, done.height, state, done.local, playouts,
        first if alternate else -first))
    done.rng.setstate((version, counts.rng_state, gauss))
    done.black = [a + b for a, b in zip(done.black, counts.black, strict=True)]
    done.white = [a + b for a, b in zip(done.white, counts.white, strict=True)]
    done.count += playouts


def _add_pure(done: Playouts, playouts: int, first: int, alternate: bool) -> None:
    """:meth:`Playouts.run`'s loop: each playout's final colours added point by point."""
    for i in range(playouts):
        final = done._playout(first if i % 2 == 0 or not alternate else 3 - first)
        black, white = done.black, done.white
        for p, c in enumerate(final):
            if c == _BLACK:
                black[p] += 1
            elif c == _WHITE:
                white[p] += 1
        done.count += 1


_add_playouts = core.door(_add_compiled, _add_pure)
