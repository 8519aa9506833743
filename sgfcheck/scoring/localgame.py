"""The game of one region of the last open points: every position either side can reach by
moves inside it, and what each is worth.

A region (:mod:`sgfcheck.scoring.regions`) is played out as Go is played, with captures,
suicide forbidden, and the ko point of a single-stone capture kept with the move (the search
over the whole board, :mod:`sgfcheck.scoring.finish`, forbids its retaking at once). Everything
outside the region stays as it is: a chain outside it keeps its liberties outside it, and an
empty point outside it counts for the colour that encloses it.

Each position's **worth** is its count as it stands, for Black (area counting: each stone and
each empty point reached by one colour only, over the region's points), after removing the chains
the search created that can never live: a chain joined neither to a stone that stood before nor to
territory of its colour, standing on the region's points alone (a referee removes such stones as
dead; they are the other colour's prisoners). A move under territory counting costs its player a
point as well (its stone is not territory: the count of territory is the count of area less the
stones each colour put on the board, which holds with every capture and every dead stone
removed); under area counting it costs nothing.

A line that captures a chain standing outside the region ends there: the count cannot follow it
(its worth is :data:`FALLS` for the capturer, so that a search avoids it when it can, and says so
when it cannot).

Positions are kept once each; identical games (the same worths and moves, the same shape of
graph) get the same **signature**, so that a search over many regions treats two lone dame, or
two identical borders, as one. A region whose moves can lead back to an earlier position (a ko,
a capture and a recapture) is *cyclic*: its positions keep signatures of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.replay.board import Chain
from sgfcheck.scoring.regions import Region

FALLS = 100_000
"""The worth (for the capturer) of a line that captures a chain standing outside the region."""


class OutOfBudget(Exception):
    """The positions worked out went past the budget."""


@dataclass
class Move:
    point: int
    """The board point played."""
    child: int
    """The position it leads to (an index into :attr:`LocalGame.worth`)."""
    cost: int
    """What the move costs its player, for Black: -1 for a Black move under territory counting,
    +1 for a White one, 0 under area counting."""
    ko: int = -1
    """The point the opponent may not retake at once (a single-stone capture), or -1."""


class LocalGame:
    """A region's positions and moves (position 0 is the region as it stands). A small region's
    positions are all worked out at once (:data:`EAGER`), and identical games sign alike; a
    larger one's are worked out as a search reaches them, each signing apart."""

    def __init__(self, region: Region, board: _Builder, territory: bool,
                 counter: Counter) -> None:
        self.region = region
        self.board = board
        self.cost = 1 if territory else 0
        self.counter = counter
        self.worth: list[int] = []
        """Each position's count as it stands over the region, for Black."""
        self.states: list[bytes] = []
        """Each position: the colour of every point of the region, in its order."""
        self._moves: list[tuple[list[Move], list[Move]] | None] = []
        self._index: dict[bytes, int] = {}
        self.signature: list[int] = []
        self.cyclic = False
        self.complete = False
        """Every position is worked out (and the signatures read the whole graph)."""

    def position(self, state: bytes) -> int:
        found = self._index.get(state)
        if found is None:
            self.counter.spend()
            found = self._index[state] = len(self.states)
            self.states.append(state)
            self.worth.append(FALLS if state == _FELL[0] else -FALLS if state == _FELL[1]
                              else self.board.worth(state))
            self._moves.append(None)
            if not self.complete:
                self.signature.append(hash(("apart", id(self), found)))
        return found

    def moves(self, position: int, colour: int) -> list[Move]:
        found = self._moves[position]
        if found is None:
            found = self._moves[position] = self._expand(position)
        return found[0] if colour == BLACK else found[1]

    def _expand(self, position: int) -> tuple[list[Move], list[Move]]:
        state = self.states[position]
        if state in _FELL:
            return [], []
        out: tuple[list[Move], list[Move]] = ([], [])
        points = self.region.points
        for who, moves in ((BLACK, out[0]), (WHITE, out[1])):
            for i in range(len(points)):
                if state[i] != EMPTY:
                    continue
                played = self.board.play(state, i, who)
                if played is None:
                    continue
                after, ko = played
                moves.append(Move(points[i], self.position(after),
                                  -self.cost if who == BLACK else self.cost, ko))
        return out

    @property
    def still(self) -> bool:
        """No move ever changes the count (every move's worth and cost balance out): playing
        here is the same as passing (a lone dame under territory counting). Only a game worked
        out whole and without cycles can be known still."""
        if not self.complete or self.cyclic:
            return False
        worth = self.worth
        for here in range(len(self.states)):
            for m in (*self.moves(here, BLACK), *self.moves(here, WHITE)):
                if worth[m.child] + m.cost != worth[here]:
                    return False
        return True

    def owners(self, position: int) -> list[int]:
        """What the count gives each point of the region in that position (see
        :meth:`_Builder.owners`)."""
        return self.board.owners(self.states[position])

    def removed(self, position: int) -> list[int]:
        """The stones of that position the count removes as dead (chains the search created
        that can never live)."""
        state = self.states[position]
        alive = self.board.alive(state)
        return [p for i, p in enumerate(self.region.points)
                if state[i] != EMPTY and alive[i] == EMPTY]


class Counter:
    """Positions worked out (the regions' and a search's together), within a budget."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.spent = 0

    def spend(self) -> None:
        self.spent += 1
        if self.spent > self.budget:
            raise OutOfBudget


EAGER = 2048
"""Positions of a region worked out at once at most: a region within it is worked out whole
(and signed, so that identical regions count once); a larger one as the search reaches it."""


_FELL = (b"\xff", b"\xfe")  # Black, White captured a chain outside the region


def local_game(region: Region, colour: Sequence[int], nbrs: Sequence[tuple[int, ...]],
               walls: dict[int, int], chain_of: Sequence[Chain | None], territory: bool,
               counter: Counter) -> LocalGame:
    """The game of ``region``: worked out whole when it has at most :data:`EAGER` positions,
    else as a search reaches them (every position counted against ``counter``: raises
    :class:`OutOfBudget` past it). ``colour``: the board with the dead stones removed;
    ``walls``: the colour that encloses each empty point outside the regions; ``chain_of``: the
    chain of every point of ``colour``."""
    board = _Builder(region, colour, nbrs, walls, chain_of)
    game = LocalGame(region, board, territory, counter)
    game.position(board.start)
    todo = 0
    while todo < len(game.states) and len(game.states) <= EAGER:
        game.moves(todo, BLACK)
        todo += 1
    if todo == len(game.states):
        game.complete = True
        _sign(game)
    return game


class _Builder:
    """The region as a small graph: its points (0..k-1), then every chain outside it beside them
    (k..), each with its colour and whether it has a liberty outside the region."""

    def __init__(self, region: Region, colour: Sequence[int], nbrs: Sequence[tuple[int, ...]],
                 walls: dict[int, int], chain_of: Sequence[Chain | None]) -> None:
        points = region.points
        index = {p: i for i, p in enumerate(points)}
        k = len(points)
        self.region, self.points, self.k = region, points, k
        self.start = bytes(colour[p] for p in points)
        outside: dict[int, int] = {}  # a stone of a chain outside -> its node
        self.node_colour: list[int] = list(self.start)
        self.free: list[bool] = [False] * k
        self.adj: list[list[int]] = [[] for _ in range(k)]
        self.wall: list[int] = [0] * k
        """For each point: the colours of the walls beside it (1 Black, 2 White, bits)."""
        for i, p in enumerate(points):
            for q in nbrs[p]:
                if q in index:
                    self.adj[i].append(index[q])
                elif colour[q] == EMPTY:
                    self.wall[i] |= walls.get(q, 3)
                else:
                    node = outside.get(q)
                    if node is None:
                        chain = chain_of[q]
                        assert chain is not None
                        node = len(self.node_colour)
                        for s in chain.stones:
                            outside[s] = node
                        self.node_colour.append(colour[q])
                        self.free.append(any(lib not in index for lib in chain.liberties))
                        self.adj.append([])
                    if i not in self.adj[node]:
                        self.adj[node].append(i)
                        self.adj[i].append(node)

    # --- chains ------------------------------------------------------------------------------

    def _chain(self, state: bytearray, start: int) -> tuple[list[int], bool]:
        """The nodes of the chain at ``start`` and whether it has a liberty."""
        k, colour = self.k, self.node_colour
        own = state[start] if start < k else colour[start]
        members = [start]
        seen = {start}
        free = False
        i = 0
        while i < len(members):
            n = members[i]
            if (self.free[n] if n >= k else self.wall[n] != 0):
                free = True  # a liberty outside the region
            for m in self.adj[n]:
                if m in seen:
                    continue
                c = state[m] if m < k else colour[m]
                if c == EMPTY:
                    free = True
                elif c == own:
                    seen.add(m)
                    members.append(m)
            i += 1
        return members, free

    def play(self, state: bytes, i: int, who: int) -> tuple[bytes, int] | None:
        """The position after ``who`` plays the region's point ``i``, and the ko point (-1), or
        None where the move is suicide; a capture of a chain outside the region leads to
        :data:`_FELL`."""
        k = self.k
        after = bytearray(state)
        after[i] = who
        opp = 3 - who
        captured: list[int] = []
        for n in self.adj[i]:
            c = after[n] if n < k else self.node_colour[n]
            if c != opp or n in captured:
                continue
            members, free = self._chain(after, n)
            if free:
                continue
            if any(m >= k for m in members):
                return _FELL[0 if who == BLACK else 1], -1
            captured.extend(members)
        for m in captured:
            after[m] = EMPTY
        members, free = self._chain(after, i)
        if not free:
            return None
        ko = -1
        if len(captured) == 1 and len(members) == 1:
            liberties = [m for m in self.adj[i] if m < k and after[m] == EMPTY]
            if liberties == captured and not self.wall[i]:
                ko = self.points[captured[0]]
        return bytes(after), ko

    # --- worth -------------------------------------------------------------------------------

    def worth(self, state: bytes) -> int:
        """The region's count as it stands, for Black, after removing the chains the search
        created that can never live (see the module's text)."""
        here = self.alive(state)
        k = self.k
        total = 0
        counted: set[int] = set()
        for i in range(k):
            c = here[i]
            if c == BLACK:
                total += 1
            elif c == WHITE:
                total -= 1
            elif i not in counted:
                area, touching = self._area(here, i)
                counted.update(area)
                if touching == BLACK:
                    total += len(area)
                elif touching == WHITE:
                    total -= len(area)
        return total

    def owners(self, state: bytes) -> list[int]:
        """What the count gives each point of the region in ``state``: the colour of a stone
        that stays, the colour alone reaching an empty point (the removed chains' points
        included), 0 for nobody."""
        here = self.alive(state)
        out = [0] * self.k
        for i in range(self.k):
            if here[i] != EMPTY:
                out[i] = here[i]
            else:
                _, touching = self._area(here, i)
                out[i] = touching if touching in (BLACK, WHITE) else 0
        return out

    def _area(self, here: bytearray, i: int) -> tuple[list[int], int]:
        """The empty points of the region joined to ``i``, and the colours they touch (bits)."""
        k = self.k
        area = [i]
        seen = {i}
        touching = 0
        j = 0
        while j < len(area):
            n = area[j]
            touching |= self.wall[n]
            for m in self.adj[n]:
                if m >= k:
                    touching |= self.node_colour[m]
                elif here[m] == EMPTY:
                    if m not in seen:
                        seen.add(m)
                        area.append(m)
                else:
                    touching |= here[m]
            j += 1
        return area, touching

    def alive(self, state: bytes) -> bytearray:
        """``state`` without the chains the search created that can never live: joined
        neither to a stone that stood before (in the region or beside it) nor to territory of
        their colour."""
        k, start = self.k, self.start
        here = bytearray(state)
        seen: set[int] = set()
        for i in range(k):
            if here[i] == EMPTY or i in seen:
                continue
            members, _ = self._chain(here, i)
            seen.update(members)
            own = here[i]
            if not any(m >= k or start[m] == own or self.wall[m] & own for m in members):
                for m in members:
                    if m < k:
                        here[m] = EMPTY
        return here


def _sign(game: LocalGame) -> None:
    """Each position's signature: its worth and its moves' costs and signatures (identical
    games sign alike); positions of a cyclic game each sign apart."""
    n = len(game.states)
    signature = [0] * n
    state = [0] * n  # 0 not seen, 1 on the path, 2 done
    for root in range(n):
        if state[root]:
            continue
        stack = [(root, 0)]
        state[root] = 1
        while stack:
            here, step = stack[-1]
            moves = game.moves(here, BLACK) + game.moves(here, WHITE)
            if step < len(moves):
                stack[-1] = (here, step + 1)
                child = moves[step].child
                if state[child] == 1:
                    game.cyclic = True  # its positions keep the signatures they were born with
                    return
                if state[child] == 0:
                    state[child] = 1
                    stack.append((child, 0))
                continue
            stack.pop()
            state[here] = 2
            signature[here] = hash((
                game.worth[here],
                tuple(sorted((m.cost, signature[m.child]) for m in game.moves(here, BLACK))),
                tuple(sorted((m.cost, signature[m.child]) for m in game.moves(here, WHITE)))))
    game.signature = signature
