"""The game of one region of the last open points: the positions either side can reach by moves
inside it, what each is worth, and what a search of the whole board needs to know of it.

A region (:mod:`sgfcheck.endgame.regions`) is played out as Go is played, with captures, suicide
forbidden, and the ko point of a single-stone capture kept with the move (the search over the
whole board, :mod:`sgfcheck.endgame.search`, forbids retaking it at once). Everything outside
the region stays as it is: a chain outside it keeps its liberties outside it, and an empty point
outside it counts for the colour that encloses it.

Each position's **worth** is its count as it stands, for Black (area counting: each stone and
each empty point reached by one colour only, over the region's points), after removing the
chains the play created that can never live: a chain joined neither to a stone that stood before
nor to territory of its colour, standing on the region's points alone (a referee removes such
stones as dead; they are the other colour's prisoners). A move under territory counting costs
its player a point as well (its stone is not territory: the count of territory is the count of
area less the stones each colour put on the board, which holds with every capture and every dead
stone removed); under area counting it costs nothing.

A line that captures a chain standing outside the region ends there: the count cannot follow it
(its worth is :data:`FALLS` for the capturer, so that a search avoids it when it can, and says so
when it cannot).

A small region's positions are all worked out at once (at most :data:`EAGER`). Such a game is
then known whole: whether a move can lead back to an earlier position (a ko, a capture and a
recapture: *cyclic*), and, when it cannot, each position's **class**: positions whose games are
the same up to a constant (the same gains to the same classes, for both colours) share a class,
across all the regions of one search (two lone dame, two identical borders), and a position where
no move ever changes the count is class :data:`STILL` (the same as passing). Its **stops** are the
count each colour reaches moving first in the region alone (both may pass; two passes end it):
their difference is the region's heat, which orders a search's moves. A larger region is worked
out as a search reaches its positions, each its own class.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any, NamedTuple

from sgfcheck import core
from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.endgame.regions import Region
from sgfcheck.replay.board import Chain

FALLS = 1_000_000
"""The worth (for the capturer) of a line that captures a chain standing outside the region."""

EAGER = 100_000
"""Positions of a region worked out at once at most: a region within it is known whole (classes,
stops, cycles); a larger one is worked out as a search reaches it."""

STILL = 0
"""The class of a position where neither colour has a move left."""


@core.contract
class RegionRequest(NamedTuple):
    """What the compiled core's ``region_game`` is asked: the region as :class:`_Builder` holds
    it."""

    k: int
    colours: bytes
    """Every node's colour (the region's points as they stand, then the chains beside it)."""
    free: bytes
    adj: tuple[tuple[int, ...], ...]
    wall: bytes
    start: bytes
    twins: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    territory: int
    limit: int
    """Positions worked out at most before the game is left to be worked out as reached."""
    room: int
    """New positions the work allows."""


@core.contract
class RegionGame(NamedTuple):
    """What ``region_game`` gives back (the moves flat: point, position, ko point)."""

    states: bytes
    worth: list[int]
    expanded: int
    move_start: list[int]
    black: list[int]
    white: list[int]
    moves: list[int]
    out_of_work: int
    """The work ran out: the search stops, and nothing else is handed back (no positions)."""
    cls: Any
    """Each position's class in the core's own numbering (-1: a line from it can return), or
    None where the game is not known whole."""
    stop_black: Any
    stop_white: Any
    keys: Any
    """Each class's key: (0, Black's options, White's options) with options (gain, class), or
    (1 or 2, (), ()) for a capture outside by Black or White."""
    cyclic: int
    longer_cycles: int


class OutOfWork(Exception):
    """The work allowed (positions and search nodes) ran out."""


class Work:
    """Positions worked out and nodes searched, within a budget, and a time bound kept only as a
    safety: the budget decides (the same on any machine); the clock is read every few thousand
    units, and where it ends first the search says so."""

    def __init__(self, budget: int, deadline: float | None = None) -> None:
        self.budget = budget
        self.spent = 0
        self.deadline = deadline
        self.timed_out = False
        self._next_look = 4096

    def spend(self, units: int = 1) -> None:
        self.spent += units
        if self.spent > self.budget:
            raise OutOfWork
        if self.deadline is not None and self.spent >= self._next_look:
            self._next_look = self.spent + 4096
            if time.monotonic() > self.deadline:
                self.timed_out = True
                raise OutOfWork


Move = tuple[int, int, int]
"""A move of a region: (the board point played, the position it leads to, the ko point the
opponent may not retake at once or -1)."""


class Classes:
    """The classes of one search's regions, shared so that identical games share them: a class
    is a number for each distinct game (up to a constant)."""

    def __init__(self) -> None:
        self._ids: dict[tuple[object, ...], int] = {((), ()): STILL}

    def of(self, key: tuple[object, ...]) -> int:
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self._ids)
        return found


class LocalGame:
    """A region's positions and moves (position 0 is the region as it stands)."""

    def __init__(self, region: Region, board: _Builder, territory: bool, work: Work) -> None:
        self.region = region
        self.board = board
        self.cost = 1 if territory else 0
        """What a move costs its player under territory counting (Black's count -1, White's +1)."""
        self.work = work
        self.states: list[bytes] | _Packed = []
        """Each position: the colour of every point of the region, in its order."""
        self.worth: list[int] = []
        """Each position's count as it stands over the region, for Black."""
        self._black: list[tuple[Move, ...] | None] = []
        self._white: list[tuple[Move, ...] | None] = []
        self._index: dict[bytes, int] = {}
        self._flat: RegionGame | None = None
        """The moves the compiled core worked out, made into tuples as they are asked."""
        self.complete = False
        """Every position is worked out."""
        self.cyclic = False
        """A move can lead back to an earlier position (known only when complete)."""
        self.longer_cycles = False
        """A cycle longer than a ko's capture and retake (known only when complete)."""
        self.cls: list[int] = []
        """Each position's class where the game is worked out whole (-1 where a line from it can
        return to a position already on it), else empty."""
        self.heat: list[int] = []
        """Each position's stops apart (Black first less White first), where its class is
        known."""
        self.stop_black: list[int] = []
        self.stop_white: list[int] = []

    def position(self, state: bytes) -> int:
        found = self._index.get(state)
        if found is None:
            self.work.spend()
            found = self._index[state] = len(self.states)
            assert isinstance(self.states, list)  # a game worked out whole has every position
            self.states.append(state)
            self.worth.append(FALLS if state == _FELL[0] else -FALLS if state == _FELL[1]
                              else self.board.worth(state))
            self._black.append(None)
            self._white.append(None)
        return found

    def fell(self, position: int) -> bool:
        """The line captured a chain outside the region (the worth is ``FALLS`` for the
        capturer; no position of a region is worth that much otherwise)."""
        return abs(self.worth[position]) == FALLS

    def moves(self, position: int, colour: int) -> tuple[Move, ...]:
        table = self._black if colour == BLACK else self._white
        found = table[position]
        if found is None:
            flat = self._flat
            if flat is not None and position < flat.expanded:
                at, black = flat.move_start[position], flat.black[position]
                count = black if colour == BLACK else flat.white[position]
                if colour != BLACK:
                    at += 3 * black
                moves = flat.moves
                found = table[position] = tuple(
                    (moves[j], moves[j + 1], moves[j + 2]) for j in range(at, at + 3 * count, 3))
                return found
            self._expand(position)
            found = table[position]
            assert found is not None
        return found

    def gain(self, position: int, move: Move, colour: int) -> int:
        """What ``move`` by ``colour`` changes the count by, for Black (its cost included)."""
        return self.worth[move[1]] - self.worth[position] + (
            -self.cost if colour == BLACK else self.cost)

    def _expand(self, position: int) -> None:
        state = self.states[position]
        if state in _FELL:
            self._black[position] = self._white[position] = ()
            return
        points = self.region.points
        first_of = self.board.first_of
        for who, table in ((BLACK, self._black), (WHITE, self._white)):
            moves = []
            offered: set[int] = set()
            for i in range(len(points)):
                if state[i] != EMPTY:
                    continue
                twin = first_of.get(i)
                if twin is not None:
                    if twin in offered:
                        continue  # the first empty twin of its class was offered
                    offered.add(twin)
                played = self.board.play(state, i, who)
                if played is None:
                    continue
                after, ko = played
                moves.append((points[i], self.position(after), ko))
            table[position] = tuple(moves)

    def owners(self, position: int) -> list[int]:
        """What the count gives each point of the region in that position (see
        :meth:`_Builder.owners`)."""
        return self.board.owners(self.states[position])

    def removed(self, position: int) -> list[int]:
        """The stones of that position the count removes as dead (chains the play created that
        can never live)."""
        state = self.states[position]
        alive = self.board.alive(state)
        return [p for i, p in enumerate(self.region.points)
                if state[i] != EMPTY and alive[i] == EMPTY]

    # --- known whole ---------------------------------------------------------------------------

    def know(self, classes: Classes) -> None:
        """Work out every position (at most :data:`EAGER`); when the game is known whole, each
        position's class and stops where no line from it returns (the compiled core's
        ``region_game`` where it is built and the region within its sizes, else the loops
        below: the same positions, moves, classes and stops)."""
        _know(self, classes)

    def _know_loops(self, classes: Classes) -> None:
        """:meth:`know` in Python."""
        todo = 0
        while todo < len(self.states) and len(self.states) <= EAGER:
            self.moves(todo, BLACK)
            todo += 1
        if todo < len(self.states):
            return
        self.complete = True
        order, looping = self._order()
        if looping:
            self.cyclic = True
            self.longer_cycles = self._largest_loop() > 2
        self._classify(order, looping, classes)

    def _know_compiled(self, fast: ModuleType, classes: Classes) -> bool:
        """:meth:`know` in the compiled core (False where the region is beyond its sizes)."""
        board, work = self.board, self.work
        assert len(self.states) == 1
        request = RegionRequest(
            board.k, bytes(board.node_colour), bytes(board.free),
            tuple(tuple(a) for a in board.adj), bytes(board.wall), board.start,
            tuple(tuple(c) for c in board.twins), tuple(board.points), self.cost, EAGER,
            max(0, work.budget - work.spent + 1))
        try:
            found = fast.region_game(request)
        except ValueError:
            return False
        if found.out_of_work:  # as the loops below would: the position past the budget raises
            work.spent = work.budget
            work.spend()
        count = len(found.worth)
        work.spend(count - 1)  # the first position was counted already
        self.worth = list(found.worth)
        self._black = [None] * count
        self._white = [None] * count
        self._flat = found
        states = _Packed(found.states, board.k, count)
        if found.cls is None:  # worked out further as the search reaches them: a list
            self.states = list(states)
            self._index = {state: i for i, state in enumerate(self.states)}
            return True
        self.states = states
        self.complete = True
        self.cyclic = bool(found.cyclic)
        self.longer_cycles = bool(found.longer_cycles)
        ours: list[int] = []
        for kind, black_options, white_options in found.keys:
            if kind:
                ours.append(classes.of(("fell", kind == 1)))
            else:
                ours.append(classes.of((
                    tuple(sorted((gain, ours[c]) for gain, c in black_options)),
                    tuple(sorted((gain, ours[c]) for gain, c in white_options)))))
        self.cls = [ours[c] if c >= 0 else -1 for c in found.cls]
        self.stop_black = list(found.stop_black)
        self.stop_white = list(found.stop_white)
        self.heat = [b - w for b, w in zip(self.stop_black, self.stop_white, strict=True)]
        return True

    def known(self, position: int) -> bool:
        """The position's class and stops are known: the game is worked out whole, and no line
        from the position can return to a position already on it."""
        return bool(self.cls) and self.cls[position] >= 0

    def _largest_loop(self) -> int:
        """The most positions of one set that lead to one another (a strongly connected
        component: 2 for a ko, its capture and its retake; more for a longer cycle)."""
        n = len(self.states)
        index = [-1] * n
        low = [0] * n
        on_stack = [False] * n
        stack: list[int] = []
        counter = 0
        largest = 1
        for root in range(n):
            if index[root] >= 0:
                continue
            work = [(root, self._successors(root), 0)]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack[root] = True
            while work:
                here, successors, step = work[-1]
                if step < len(successors):
                    work[-1] = (here, successors, step + 1)
                    child = successors[step]
                    if index[child] < 0:
                        index[child] = low[child] = counter
                        counter += 1
                        stack.append(child)
                        on_stack[child] = True
                        work.append((child, self._successors(child), 0))
                    elif on_stack[child]:
                        low[here] = min(low[here], index[child])
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[here])
                if low[here] == index[here]:
                    size = 0
                    while True:
                        member = stack.pop()
                        on_stack[member] = False
                        size += 1
                        if member == here:
                            break
                    largest = max(largest, size)
        return largest

    def _successors(self, here: int) -> list[int]:
        """The positions either colour's moves lead to from ``here`` (made once a visit of a
        walk over the game, not once a step)."""
        return [m[1] for m in self.moves(here, BLACK)] + [m[1] for m in self.moves(here, WHITE)]

    def _order(self) -> tuple[list[int], set[int]]:
        """Every position after every position it leads to, and the positions from which a line
        can return to a position already on it (those lie on a cycle or lead to one)."""
        n = len(self.states)
        mark = [0] * n  # 0 not seen, 1 on the path, 2 done
        out: list[int] = []
        looping: set[int] = set()
        for root in range(n):
            if mark[root]:
                continue
            stack = [(root, self._successors(root), 0)]
            mark[root] = 1
            while stack:
                here, successors, step = stack[-1]
                if step < len(successors):
                    stack[-1] = (here, successors, step + 1)
                    child = successors[step]
                    if mark[child] == 1:
                        looping.add(child)  # a cycle through the path back to ``child``
                        looping.add(here)
                    elif mark[child] == 0:
                        mark[child] = 1
                        stack.append((child, self._successors(child), 0))
                    elif child in looping:
                        looping.add(here)
                    continue
                stack.pop()
                mark[here] = 2
                if stack and here in looping:
                    looping.add(stack[-1][0])
                out.append(here)
        return out, looping

    def _classify(self, order: list[int], looping: set[int], classes: Classes) -> None:
        n = len(self.states)
        cls = [STILL] * n
        black0 = [0] * n  # Black to move, no pass before: the count Black reaches (relative)
        white0 = [0] * n
        for here in order:
            if here in looping:
                cls[here] = -1
                continue
            if self.fell(here):
                cls[here] = classes.of(("fell", self.worth[here] > 0))
                continue
            key = []
            best_b = best_w = None
            for colour in (BLACK, WHITE):
                options = []
                for move in self.moves(here, colour):
                    child = move[1]
                    gain = self.gain(here, move, colour)
                    if self.fell(child):
                        after = gain
                    else:
                        after = gain + (white0[child] if colour == BLACK else black0[child])
                    options.append((gain, cls[child]))
                    if colour == BLACK:
                        best_b = after if best_b is None else max(best_b, after)
                    else:
                        best_w = after if best_w is None else min(best_w, after)
                key.append(tuple(sorted(set(options))))
            cls[here] = classes.of(tuple(key))
            # Alone, both may pass and two passes end it: Black moving first reaches the best of
            # passing (White then moves or ends it) and its moves; after a pass the game ends at
            # the count as it stands unless the mover gains.
            black1 = max(0, best_b) if best_b is not None else 0
            white1 = min(0, best_w) if best_w is not None else 0
            black0[here] = max(white1, best_b) if best_b is not None else white1
            white0[here] = min(black1, best_w) if best_w is not None else black1
        self.cls = cls
        self.stop_black = black0
        self.stop_white = white0
        self.heat = [b - w for b, w in zip(black0, white0, strict=True)]


_FELL = (b"\xff", b"\xfe")  # Black, White captured a chain outside the region


def _know_compiled(fast: ModuleType, game: LocalGame, classes: Classes) -> None:
    """:meth:`LocalGame.know` in the compiled core where the region is within its sizes, else
    in Python."""
    if not game._know_compiled(fast, classes):
        game._know_loops(classes)


def _know_pure(game: LocalGame, classes: Classes) -> None:
    """:meth:`LocalGame.know` in Python."""
    game._know_loops(classes)


_know = core.door(_know_compiled, _know_pure)


class _Packed(Sequence[bytes]):
    """The positions the compiled core worked out, as one bytes of ``k`` bytes each (a capture
    outside: every byte 255 for Black's, 254 for White's), each made when asked."""

    def __init__(self, raw: bytes, k: int, size: int) -> None:
        self.raw, self.k, self.size = raw, k, size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.size))]
        if not -self.size <= i < self.size:
            raise IndexError(i)
        i %= self.size
        state = self.raw[i * self.k:(i + 1) * self.k]
        if state[0] == 255:
            return _FELL[0]
        if state[0] == 254:
            return _FELL[1]
        return state


def local_game(region: Region, colour: Sequence[int], nbrs: Sequence[tuple[int, ...]],
               walls: dict[int, int], chain_of: Sequence[Chain | None], territory: bool,
               work: Work, classes: Classes) -> LocalGame:
    """The game of ``region``, known whole when it has at most :data:`EAGER` positions, else
    worked out as a search reaches them (every position counted against ``work``).
    ``colour``: the board with the dead stones removed; ``walls``: the colour that encloses
    each empty point outside the regions; ``chain_of``: the chain of every point of
    ``colour``."""
    board = _Builder(region, colour, nbrs, walls, chain_of, territory)
    game = LocalGame(region, board, territory, work)
    game.position(board.start)
    game.know(classes)
    return game


class _Builder:
    """The region as a small graph: its points (0..k-1), then every chain outside it beside them
    (k..), each with its colour and whether it has a liberty outside the region.

    A chain with a liberty outside the region has two outside the points any search plays (else
    the regions would have joined through it): no move can ever take it or put it in atari, and
    which of them a stone joins changes nothing. So all of one colour are one node. Points of the
    region that are the same to every move (**twins**: empty, beside chains of both colours, the
    same chains and the same points of the region around them, a stone there joining those
    chains) hold only how many stones of each colour stand on them: a position keeps their
    stones on the first of them, and a move is offered on the first empty one."""

    def __init__(self, region: Region, colour: Sequence[int], nbrs: Sequence[tuple[int, ...]],
                 walls: dict[int, int], chain_of: Sequence[Chain | None],
                 territory: bool = False) -> None:
        self.territory = territory
        points = region.points
        index = {p: i for i, p in enumerate(points)}
        k = len(points)
        self.region, self.points, self.k = region, points, k
        self.start = bytes(colour[p] for p in points)
        outside: dict[int, int] = {}  # a stone of a chain outside -> its node
        safe: dict[int, int] = {}  # colour -> the node of its chains with a liberty outside
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
                        free = any(lib not in index for lib in chain.liberties)
                        node = safe.get(colour[q]) if free else None
                        if node is None:
                            node = len(self.node_colour)
                            self.node_colour.append(colour[q])
                            self.free.append(free)
                            self.adj.append([])
                            if free:
                                safe[colour[q]] = node
                        for s in chain.stones:
                            outside[s] = node
                    if i not in self.adj[node]:
                        self.adj[node].append(i)
                        self.adj[i].append(node)
        self.twins = self._twins()
        """Classes of twin points (each sorted, at least two)."""
        self.first_of: dict[int, int] = {i: cls[0] for cls in self.twins for i in cls}
        self.start = self.canonical(self.start)

    def _twins(self) -> list[list[int]]:
        k, start = self.k, self.start
        hard = []
        for i in range(k):
            if start[i] != EMPTY or self.wall[i]:
                continue
            colours = 0
            for n in self.adj[i]:
                if n >= k:
                    colours |= self.node_colour[n]
                elif start[n] != EMPTY:
                    colours = -1  # beside a stone that may be taken: not a twin
                    break
            if colours == 3:
                hard.append(i)
        outside = {i: frozenset(n for n in self.adj[i] if n >= k) for i in hard}
        hard_set = set(hard)
        groups: dict[tuple[frozenset[int], frozenset[int]], list[int]] = {}
        for i in hard:
            # A hard neighbour beside the same chains is the same to every move: left out.
            inside = frozenset(n for n in self.adj[i] if n < k and not (
                n in hard_set and outside[n] == outside[i]))
            groups.setdefault((outside[i], inside), []).append(i)
        return [sorted(g) for g in groups.values() if len(g) > 1]

    def canonical(self, state: bytes) -> bytes:
        """``state`` with each class of twins holding its stones on its first points (White,
        Black, then the empty ones)."""
        if not self.twins:
            return state
        out = bytearray(state)
        for cls in self.twins:
            values = sorted((out[i] for i in cls), reverse=True)
            for i, v in zip(cls, values, strict=True):
                out[i] = v
        return bytes(out)

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
        return self.canonical(bytes(after)), ko

    # --- worth -------------------------------------------------------------------------------

    def worth(self, state: bytes) -> int:
        """The region's count as it stands, for Black, after removing the chains the play
        created that can never live (see the module's text); under territory counting an empty
        area holding the last liberty of a chain in atari is nobody's (a point its owner must
        still fill, as the referee counts it)."""
        here = self.alive(state)
        fill = self._to_fill(here) if self.territory else ()
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
                if fill and any(a in fill for a in area):
                    continue
                if touching == BLACK:
                    total += len(area)
                elif touching == WHITE:
                    total -= len(area)
        return total

    def owners(self, state: bytes) -> list[int]:
        """What the count gives each point of the region in ``state``: the colour of a stone
        that stays, the colour alone reaching an empty point (the removed chains' points
        included; under territory counting not an area holding a point to fill), 0 for
        nobody."""
        here = self.alive(state)
        fill = self._to_fill(here) if self.territory else ()
        out = [0] * self.k
        for i in range(self.k):
            if here[i] != EMPTY:
                out[i] = here[i]
            else:
                area, touching = self._area(here, i)
                if fill and any(a in fill for a in area):
                    continue
                out[i] = touching if touching in (BLACK, WHITE) else 0
        return out

    def _to_fill(self, here: bytearray) -> set[int]:
        """The region's empty points that are the last liberty of a chain in atari (a chain of
        the region, or one outside it with no liberty elsewhere)."""
        k = self.k
        fill: set[int] = set()
        seen: set[int] = set()
        for start in range(len(self.node_colour)):
            if start in seen or (start < k and here[start] == EMPTY) or (
                    start >= k and self.free[start]):
                continue
            members, _ = self._chain(here, start)
            seen.update(members)
            liberties: set[int] = set()
            outside = False
            for n in members:
                if (self.free[n] if n >= k else self.wall[n] != 0):
                    outside = True
                    break
                liberties.update(m for m in self.adj[n] if m < k and here[m] == EMPTY)
                if len(liberties) > 1:
                    break
            if not outside and len(liberties) == 1:
                fill |= liberties
        return fill

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
        """``state`` without the chains the play created that can never live: joined neither to
        a stone that stood before (in the region or beside it) nor to territory of their
        colour."""
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
