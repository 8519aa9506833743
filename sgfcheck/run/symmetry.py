"""Game identity under the board's symmetries, for finding duplicate games in an archive.

Two records are the same game when their setup and move sequences are equal after one of the 8
symmetries of a square board (4 of a rectangle): a rotated or mirrored copy of a game is still
the same game, as chess archive tools (pgn-extract, Kombilo for Go) treat it.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType
from typing import NamedTuple

from sgfcheck import core
from sgfcheck.points import Point
from sgfcheck.records.lines import Line, Move, Setup
from sgfcheck.records.record import GameRecord

MIN_MOVES = 20
"""Shorter games (blank boards, problems, resignations after a few moves) are not compared."""

Transform = Callable[[int, int], Point]


def transforms(width: int, height: int) -> list[Transform]:
    w, h = width - 1, height - 1
    out: list[Transform] = [
        lambda c, r: (c, r),
        lambda c, r: (w - c, r),
        lambda c, r: (c, h - r),
        lambda c, r: (w - c, h - r),
    ]
    if width == height:
        out += [
            lambda c, r: (r, c),
            lambda c, r: (h - r, c),
            lambda c, r: (r, w - c),
            lambda c, r: (h - r, w - c),
        ]
    return out


@lru_cache(maxsize=64)
def _tables(width: int, height: int) -> list[array[int]]:
    """For each symmetry, the image of every point index (row * width + col); pass = -1 last."""
    tables = []
    for f in transforms(width, height):
        table = array("H")
        for r in range(height):
            for c in range(width):
                tc, tr = f(c, r)
                table.append(tr * width + tc)
        table.append(0xFFFF)
        tables.append(table)
    return tables


@core.contract
class MovePoints(NamedTuple):
    """A line's moves as the cores read them."""

    colours: bytes
    """The colour of each move."""
    points: bytes
    """Each move's point index as a native uint16 (width * height for a pass or off the
    board)."""
    plays: int
    """Moves on the board."""
    setup_at: list[int]
    """Where the Setup events stand in the line's events."""


def _move_points_compiled(fast: ModuleType, events: list[Move | Setup], width: int,
                          height: int) -> MovePoints:
    """:func:`_move_points_pure` in the compiled core."""
    read: MovePoints = fast.move_points(events, width, height)
    return read


def _move_points_pure(events: list[Move | Setup], width: int, height: int) -> MovePoints:
    """A line's moves as colours and point indices (see :class:`MovePoints`)."""
    npoints = width * height
    colours = bytearray()
    points = array("H")
    setup_at: list[int] = []
    for i, e in enumerate(events):
        if type(e) is Move:
            colours.append(e.colour)
            at = e.point
            points.append(npoints if at is None or at[0] >= width or at[1] >= height
                          else at[1] * width + at[0])
        else:
            setup_at.append(i)
    return MovePoints(bytes(colours), points.tobytes(), sum(1 for p in points if p != npoints),
                      setup_at)


_move_points = core.door(_move_points_compiled, _move_points_pure)


def _remap_compiled(fast: ModuleType, packed: bytes, table: array[int]) -> bytes:
    """:func:`_remap_pure` in the compiled core."""
    mapped: bytes = fast.remap16(packed, table)
    return mapped


def _remap_pure(packed: bytes, table: array[int]) -> bytes:
    """Each native uint16 point index of ``packed`` through ``table``, packed the same way."""
    points = array("H")
    points.frombytes(packed)
    return array("H", [table[p] for p in points]).tobytes()


_remap = core.door(_remap_compiled, _remap_pure)


def sequence_key(game: GameRecord, line: Line) -> bytes | None:
    """A digest equal for the same game under any symmetry; None for games too short to tell."""
    width, height = game.width, game.height
    setup: list[tuple[bytes, list[int]]] = []
    colours, packed, plays, setup_at = _move_points(line.events, width, height)
    setups = [line.events[i] for i in setup_at]
    points = array("H")
    points.frombytes(packed)
    for e in setups:
        assert isinstance(e, Setup)
        for tag, pts in ((b"B", e.black), (b"W", e.white), (b"E", e.empty)):
            if pts:
                setup.append((tag, [row * width + col for col, row in pts]))
    if plays < MIN_MOVES:
        return None
    # The canonical orientation: the symmetries under which the move sequence is smallest,
    # narrowed move by move (usually one is left after the first move or two); of those, the one
    # with the smallest digest (setup included). Equal for any two symmetric copies.
    tables = _tables(width, height)
    candidates = list(range(len(tables)))
    for p in points:
        if len(candidates) == 1:
            break
        images = [tables[t][p] for t in candidates]
        low = min(images)
        candidates = [t for t, image in zip(candidates, images, strict=True) if image == low]
    head = f"{width}x{height}".encode() + bytes(colours)
    best: bytes | None = None
    for t in candidates:
        table = tables[t]
        digest = hashlib.blake2b(head, digest_size=12)
        for tag, indices in setup:
            digest.update(tag + array("H", sorted(table[p] for p in indices)).tobytes())
        digest.update(_remap(packed, table))
        key = digest.digest()
        if best is None or key < best:
            best = key
    return best
