"""The position: stones, chains with their liberties, captures, and an incremental Zobrist hash.

Points are indices ``row * width + col``. Each chain keeps its stones and its set of liberties,
updated as stones are played and removed, so a move costs work proportional to what it touches,
never a scan of the whole board. The hash is updated by XOR for every stone added or removed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from types import ModuleType

from sgfcheck import core
from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.points import Point, point_names

MAX_POINTS = 52 * 52

_rng = random.Random(0x5F3759DF)
ZOBRIST_BLACK: list[int] = [_rng.getrandbits(64) for _ in range(MAX_POINTS)]
ZOBRIST_WHITE: list[int] = [_rng.getrandbits(64) for _ in range(MAX_POINTS)]
TO_MOVE_KEY = {BLACK: _rng.getrandbits(64), WHITE: _rng.getrandbits(64)}
"""XORed into the position hash for situational comparisons (who is to move / who moved)."""
core.prepare(lambda fast: fast.set_zobrist(ZOBRIST_BLACK, ZOBRIST_WHITE, TO_MOVE_KEY[BLACK],
                                           TO_MOVE_KEY[WHITE]))

_NEIGHBOURS: dict[tuple[int, int], list[tuple[int, ...]]] = {}


def neighbours_for(width: int, height: int) -> list[tuple[int, ...]]:
    """On-board neighbours of every point (cached per board size)."""
    key = (width, height)
    table = _NEIGHBOURS.get(key)
    if table is None:
        table = []
        for row in range(height):
            for col in range(width):
                around = []
                if row > 0:
                    around.append((row - 1) * width + col)
                if col > 0:
                    around.append(row * width + col - 1)
                if col < width - 1:
                    around.append(row * width + col + 1)
                if row < height - 1:
                    around.append((row + 1) * width + col)
                table.append(tuple(around))
        _NEIGHBOURS[key] = table
    return table


class Chain:
    """A maximal group of connected stones of one colour and its liberties."""

    __slots__ = ("colour", "stones", "liberties")

    def __init__(self, colour: int, stones: list[int], liberties: set[int]) -> None:
        self.colour = colour
        self.stones = stones
        self.liberties = liberties


class Board:
    """A Go position on a width x height board (1x1 to 52x52)."""

    __slots__ = ("width", "height", "colour", "_chain_of", "neighbours", "hash")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.colour: list[int] = [EMPTY] * (width * height)
        self._chain_of: list[Chain | None] | None = [None] * (width * height)
        self.neighbours = neighbours_for(width, height)
        self.hash = 0

    @classmethod
    def from_colours(cls, width: int, height: int, colours: Iterable[int], hash_: int) -> Board:
        """A position given by its colours (as the compiled replay returns it); its chains are
        found when first asked for."""
        board = cls(width, height)
        board.colour = list(colours)
        board._chain_of = None
        board.hash = hash_
        return board

    @property
    def chain_of(self) -> list[Chain | None]:
        """The chain of every point (None for an empty one)."""
        chains = self._chain_of
        if chains is None:
            self._rebuild()
            chains = self._chain_of
            assert chains is not None
        return chains

    def index(self, col: int, row: int) -> int:
        return row * self.width + col

    def point(self, index: int) -> Point:
        return index % self.width, index // self.width

    def name(self, index: int) -> str:
        """The GTP name of a point index (``Q16``)."""
        return point_names(self.width, self.height)[index]

    # --- setup ------------------------------------------------------------------------------

    def set_stones(
        self, black: Iterable[int], white: Iterable[int], empty: Iterable[int]
    ) -> list[Chain]:
        """Overwrite points as AB/AW/AE do (no captures). Returns chains left without liberties."""
        colour = self.colour
        for p in empty:
            colour[p] = EMPTY
        for p in black:
            colour[p] = BLACK
        for p in white:
            colour[p] = WHITE
        return self._rebuild()

    def _rebuild(self) -> list[Chain]:
        """Every chain found afresh from the colours, and the hash; the chains without a
        liberty returned."""
        return _rebuild(self)

    # --- play -------------------------------------------------------------------------------

    def play(self, p: int, c: int) -> tuple[int, int, int]:
        """Put a stone of colour c on the empty point p: captures, then self-capture.

        Returns (stones captured, ko point or -1, own stones removed by self-capture). The ko
        point is where the opponent may not play next under simple ko.
        """
        colour = self.colour
        chain_of = self.chain_of
        nbrs = self.neighbours[p]
        colour[p] = c
        h = self.hash ^ (ZOBRIST_BLACK[p] if c == BLACK else ZOBRIST_WHITE[p])
        captured = 0
        last_captured = -1
        friends: list[Chain] | None = None
        libs: set[int] = set()
        for n in nbrs:
            ch = chain_of[n]
            if ch is None:
                if colour[n] == EMPTY:
                    libs.add(n)
            elif ch.colour == c:
                if friends is None:
                    friends = [ch]
                elif ch not in friends:
                    friends.append(ch)
            else:
                ch_libs = ch.liberties
                ch_libs.discard(p)
                if not ch_libs:
                    captured += len(ch.stones)
                    last_captured = ch.stones[0]
                    h = self._remove(ch, h)
        if captured:
            for n in nbrs:
                if colour[n] == EMPTY:
                    libs.add(n)
        if friends is None:
            chain = Chain(c, [p], libs)
            chain_of[p] = chain
        else:
            chain = friends[0]
            if len(friends) > 1:
                for other in friends[1:]:
                    if len(other.stones) > len(chain.stones):
                        chain = other
                for other in friends:
                    if other is not chain:
                        for s in other.stones:
                            chain_of[s] = chain
                        chain.stones.extend(other.stones)
                        chain.liberties |= other.liberties
            chain.stones.append(p)
            chain_of[p] = chain
            chain_libs = chain.liberties
            chain_libs |= libs
            chain_libs.discard(p)
        self_captured = 0
        ko = -1
        chain_libs = chain.liberties
        if not chain_libs:
            self_captured = len(chain.stones)
            h = self._remove(chain, h)
        elif captured == 1 and friends is None and len(chain_libs) == 1 and last_captured in libs:
            ko = last_captured
        self.hash = h
        return captured, ko, self_captured

    def _remove(self, chain: Chain, h: int) -> int:
        colour = self.colour
        chain_of = self.chain_of
        nbrs = self.neighbours
        keys = ZOBRIST_BLACK if chain.colour == BLACK else ZOBRIST_WHITE
        stones = chain.stones
        for s in stones:
            colour[s] = EMPTY
            chain_of[s] = None
            h ^= keys[s]
        for s in stones:
            for n in nbrs[s]:
                other = chain_of[n]
                if other is not None:
                    other.liberties.add(s)
        return h

    # --- questions --------------------------------------------------------------------------

    def chains(self) -> list[Chain]:
        seen: set[int] = set()
        out = []
        for ch in self.chain_of:
            if ch is not None and id(ch) not in seen:
                seen.add(id(ch))
                out.append(ch)
        return out

    def would_capture_or_suicide(self, p: int, c: int) -> tuple[int, int]:
        """Without playing: (opponent stones p would capture, own stones p would self-capture)."""
        colour = self.colour
        chain_of = self.chain_of
        captured = 0
        has_liberty = False
        friends: list[Chain] = []
        for n in self.neighbours[p]:
            ch = chain_of[n]
            if ch is None:
                if colour[n] == EMPTY:
                    has_liberty = True
            elif ch.colour == c:
                if ch not in friends:
                    friends.append(ch)
            elif ch.liberties <= {p}:
                captured += len(ch.stones)
        if captured or has_liberty:
            return captured, 0
        if any(len(ch.liberties - {p}) > 0 for ch in friends):
            return 0, 0
        return 0, 1 + sum(len(ch.stones) for ch in friends)


def _rebuild_pure(board: Board) -> list[Chain]:
    """:meth:`Board._rebuild`: every chain found afresh from the colours (by first point, each
    flooded depth first), and the hash."""
    colour = board.colour
    nbrs = board.neighbours
    chain_of: list[Chain | None] = [None] * len(colour)
    dead: list[Chain] = []
    h = 0
    for start, c in enumerate(colour):
        if c == EMPTY or chain_of[start] is not None:
            continue
        chain = Chain(c, [start], set())
        chain_of[start] = chain
        todo = [start]
        while todo:
            p = todo.pop()
            for n in nbrs[p]:
                nc = colour[n]
                if nc == EMPTY:
                    chain.liberties.add(n)
                elif nc == c and chain_of[n] is None:
                    chain_of[n] = chain
                    chain.stones.append(n)
                    todo.append(n)
        if not chain.liberties:
            dead.append(chain)
    for p, c in enumerate(colour):
        if c == BLACK:
            h ^= ZOBRIST_BLACK[p]
        elif c == WHITE:
            h ^= ZOBRIST_WHITE[p]
    board._chain_of = chain_of
    board.hash = h
    return dead


def _rebuild_compiled(fast: ModuleType, board: Board) -> list[Chain]:
    """:func:`_rebuild_pure` in the compiled core: the same chains in the same order, each
    one's stones and liberties added in the same order, the same hash."""
    colour = board.colour
    found, board.hash = fast.chains(bytes(colour), board.width, board.height)
    chain_of: list[Chain | None] = [None] * len(colour)
    dead: list[Chain] = []
    for stones, liberties in found:
        chain = Chain(colour[stones[0]], stones, set(liberties))
        for p in stones:
            chain_of[p] = chain
        if not liberties:
            dead.append(chain)
    board._chain_of = chain_of
    return dead


_rebuild = core.door(_rebuild_compiled, _rebuild_pure)
