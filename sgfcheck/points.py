"""Board points: SGF letters <-> (column, row), and GTP names for people.

sgfmill decodes points only on square boards up to 26x26; FF[4] allows 52x52 and rectangles
(``a``-``z`` = 1-26, ``A``-``Z`` = 27-52), so decoding lives here.

A point is ``(col, row)``: col 0 at the left, row 0 at the *top* (SGF order).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

Point = tuple[int, int]

_SGF_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
SGF_COORD = {ord(ch): i for i, ch in enumerate(_SGF_LETTERS)}
_GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP skips I


class BadPoint(ValueError):
    """A point value that is not two SGF letters."""


def sgf_to_point(value: bytes) -> Point:
    """Decode two SGF letters (``b"pd"``) to (col, row). Raises BadPoint."""
    if len(value) != 2:
        raise BadPoint(value)
    col = SGF_COORD.get(value[0])
    row = SGF_COORD.get(value[1])
    if col is None or row is None:
        raise BadPoint(value)
    return col, row


def point_to_sgf(point: Point) -> str:
    return _SGF_LETTERS[point[0]] + _SGF_LETTERS[point[1]]


def gtp_column(col: int) -> str:
    """Column name: A..Z without I, then AA, AB, ... for boards wider than 25."""
    if col < len(_GTP_LETTERS):
        return _GTP_LETTERS[col]
    col -= len(_GTP_LETTERS)
    return _GTP_LETTERS[col // len(_GTP_LETTERS)] + _GTP_LETTERS[col % len(_GTP_LETTERS)]


def point_name(point: Point | None, height: int) -> str:
    """GTP-style name (``Q16``; rows count from the bottom); ``pass`` for None."""
    if point is None:
        return "pass"
    col, row = point
    return f"{gtp_column(col)}{height - row}"


_NAMES: dict[tuple[int, int], tuple[str, ...]] = {}


def point_names(width: int, height: int) -> tuple[str, ...]:
    """The GTP name of every point index (``row * width + col``) of a board size, made once a
    size."""
    key = (width, height)
    names = _NAMES.get(key)
    if names is None:
        names = _NAMES[key] = tuple(point_name((p % width, p // width), height)
                                    for p in range(width * height))
    return names


_GTP_RE = re.compile(r"^([A-HJ-Z]{1,2})(\d{1,2})$")


def parse_point_name(name: str, width: int, height: int) -> Point:
    """Parse a GTP-style name (``D4``) back to (col, row). Raises ValueError."""
    m = _GTP_RE.match(name.strip().upper())
    if not m:
        raise ValueError(f"not a point: {name!r}")
    letters, number = m.groups()
    if len(letters) == 1:
        col = _GTP_LETTERS.index(letters)
    else:
        col = (
            len(_GTP_LETTERS)
            + _GTP_LETTERS.index(letters[0]) * len(_GTP_LETTERS)
            + _GTP_LETTERS.index(letters[1])
        )
    row = height - int(number)
    if not (0 <= col < width and 0 <= row < height):
        raise ValueError(f"{name} is off the {width}x{height} board")
    return col, row


class PointList(NamedTuple):
    """A point list read: the on-board points (no duplicates, order kept), the raw values that
    could not be used (malformed, off-board or inverted rectangles), and how many values were
    left unread because the list named more points than the board has, twice over."""

    points: list[Point]
    bad: list[str]
    unread: int


def expand_point_list(values: list[bytes], width: int, height: int) -> PointList:
    """Expand a list of points, including compressed rectangles ``aa:cc``.

    SGF lists each point once, so a list that expands to more than twice the board's points
    repeats itself: the values after that are counted in ``unread``, not expanded (``AB[aa:ZZ]``
    20,000 times would otherwise cost 54 million steps).
    """
    points: list[Point] = []
    seen: set[Point] = set()
    bad: list[str] = []
    budget = 2 * width * height
    for i, raw in enumerate(values):
        raw = raw.strip()
        try:
            if b":" in raw:
                a, b = raw.split(b":", 1)
                c0, r0 = sgf_to_point(a)
                c1, r1 = sgf_to_point(b)
                if c1 < c0 or r1 < r0:
                    raise BadPoint(raw)
                c1, r1 = min(c1, width), min(r1, height)
                block = [(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
            else:
                block = [sgf_to_point(raw)]
        except BadPoint:
            bad.append(raw.decode("utf-8", "replace"))
            continue
        budget -= len(block)
        if budget < 0:
            return PointList(points, bad, len(values) - i)
        for p in block:
            if not (p[0] < width and p[1] < height):
                bad.append(raw.decode("utf-8", "replace"))
                break
            if p not in seen:
                seen.add(p)
                points.append(p)
    return PointList(points, bad, 0)


def name_list(names: list[str], most: int = 12) -> str:
    """``A1, B2, C3`` for a message; past ``most`` names, ``... and N more`` (a setup of the
    whole board would otherwise be a message of thousands of names)."""
    if len(names) <= most:
        return ", ".join(names)
    return f"{', '.join(names[:most])} and {len(names) - most} more"


def standard_handicap(n: int, width: int, height: int) -> list[Point]:
    """Fixed handicap placement (Japanese order) on boards from 7x7 up, as (column, row from the
    top), or [] if none."""
    if not (2 <= n <= 9) or min(width, height) < 7:
        return []
    edge = 3 if min(width, height) >= 13 else 2
    left, right, top, bottom = edge, width - 1 - edge, edge, height - 1 - edge
    mid_x, mid_y = width // 2, height // 2
    has_centre = width % 2 == 1 and height % 2 == 1
    corners = [(right, top), (left, bottom), (right, bottom), (left, top)]
    sides = [(left, mid_y), (right, mid_y), (mid_x, top), (mid_x, bottom)]
    if n <= 4:
        return corners[:n]
    if not has_centre:
        return []
    if n == 5:
        return corners + [(mid_x, mid_y)]
    if n == 6:
        return corners + sides[:2]
    if n == 7:
        return corners + sides[:2] + [(mid_x, mid_y)]
    if n == 8:
        return corners + sides
    return corners + sides + [(mid_x, mid_y)]


FOX_SIDES_TURNED_UNTIL = "2018-01-01"
"""Fox records dated before this day with 6 or 7 handicap stones had their side stones on the
north and south points, not east and west (KataGo's SGF reader, cpp/dataio/sgf.cpp)."""


def fox_handicap(count: int, date: str | None) -> list[Point]:
    """Where a Fox record that writes ``HA`` without its stones had them on 19x19, as KataGo's
    SGF reader places them (``PlayUtils::placeFixedHandicap``, then for 6 and 7 stones before
    2018-01-01 the board transposed): the two diagonal corners (D4, Q16), then D16, Q4, the
    east and west side points (north and south before 2018), the centre, as (column, row from
    the top). ``date``: the record's ``DT`` as ``YYYY-MM-DD`` (another form is not read, as
    KataGo reads none). [] outside 2..9."""
    if not 2 <= count <= 9:
        return []
    near, far, mid = 3, 15, 9
    spots = {"sw": (near, far), "ne": (far, near), "nw": (near, near), "se": (far, far),
             "w": (near, mid), "e": (far, mid), "n": (mid, near), "s": (mid, far),
             "c": (mid, mid)}
    order = {2: "sw ne", 3: "sw ne nw", 4: "sw ne nw se", 5: "sw ne nw se c",
             6: "sw ne nw se w e", 7: "sw ne nw se w e c", 8: "sw ne nw se w e n s",
             9: "sw ne nw se w e n s c"}[count].split()
    if count in (6, 7) and date is not None and _iso_date(date) \
            and date < FOX_SIDES_TURNED_UNTIL:
        order = [{"w": "n", "e": "s"}.get(k, k) for k in order]
    return [spots[k] for k in order]


def _iso_date(text: str) -> bool:
    """``YYYY-MM-DD`` with a real month and day (a plausible calendar date)."""
    if len(text) != 10 or text[4] != "-" or text[7] != "-":
        return False
    digits = text[:4] + text[5:7] + text[8:]
    if not digits.isdigit():
        return False
    month, day = int(text[5:7]), int(text[8:])
    return 1 <= month <= 12 and 1 <= day <= 31


def tygem_handicap(count: int, size: int) -> list[Point]:
    """Tygem's (and WBaduk's) fixed handicap points on a square board, as (column, row from the
    top), or [] if none: the corner order differs from the Japanese one (a third stone goes top
    left, not bottom right)."""
    if size <= 6 or count < 2:
        return []
    near = 3 if size >= 13 else 2
    far = size - near - 1
    middle = (size - 1) // 2
    points = [(near, far), (far, near), (near, near), (far, far)]
    if size % 2 and size != 7:
        if count == 5:
            points.append((middle, middle))
        points += [(near, middle), (far, middle)]
        if count == 7:
            points.append((middle, middle))
        points += [(middle, near), (middle, far), (middle, middle)]
    return points[:count] if count <= len(points) else []


# --- sets of points on a board's neighbour table (flat indices) ---------------------------------


def spread(nbrs: Sequence[tuple[int, ...]], within: set[int], start: Iterable[int],
            excluded: set[int]) -> set[int]:
    """The points of ``within`` connected to ``start`` without entering ``excluded``."""
    out: set[int] = set()
    todo = [p for p in start if p in within and p not in excluded]
    out.update(todo)
    while todo:
        p = todo.pop()
        for q in nbrs[p]:
            if q in within and q not in excluded and q not in out:
                out.add(q)
                todo.append(q)
    return out


def pieces(nbrs: Sequence[tuple[int, ...]], points: set[int],
            removed: set[int]) -> list[set[int]]:
    """The connected pieces of ``points`` once ``removed`` is taken out."""
    left = points - removed
    out = []
    while left:
        start = left.pop()
        piece = {start}
        todo = [start]
        while todo:
            p = todo.pop()
            for q in nbrs[p]:
                if q in left:
                    left.discard(q)
                    piece.add(q)
                    todo.append(q)
        out.append(piece)
    return out


def on_edge(p: int, w: int, h: int) -> bool:
    """Point ``p`` (a flat index) lies on the edge of a ``w`` x ``h`` board."""
    row, col = divmod(p, w)
    return row == 0 or col == 0 or row == h - 1 or col == w - 1
