"""The walls of the referee's map (:mod:`sgfcheck.position.referee`, step 1): the shapes that keep
the opponent out of an empty point (a tiger's mouth, a bamboo joint's gap, a hane on the first
line), and for every point of a board size the shapes that fit there."""

from __future__ import annotations

# Shapes that block the opponent's way at "@" (an empty point), for the player whose stones are
# "p". "e": empty, the player's living stone or a dead opponent stone; "?": anything; a last row
# of "#" stands off the board (the shape lies on the edge). Every shape is tried in its eight
# orientations.
_WALLS = (
    ("pp",
     "@e",
     "pe"),
    ("ep?",
     "e@e",
     "ep?"),
    ("pee",
     "e@p",
     "pee"),
    ("?e?",
     "p@p",
     "###"),
    ("pp",
     "@e",
     "##"),
    ("ep?",
     "e@e",
     "###"),
)

_TURNS = ((1, 0, 0, 1), (-1, 0, 0, 1), (1, 0, 0, -1), (-1, 0, 0, -1),
          (0, 1, 1, 0), (0, -1, 1, 0), (0, 1, -1, 0), (0, -1, -1, 0))


def _wall_cells() -> list[tuple[list[tuple[int, int, str]], list[tuple[int, int]]]]:
    """Every wall shape in every orientation: its cells relative to "@" (row, column, kind) and
    the cells that must lie off the board."""
    out = []
    seen = set()
    for shape in _WALLS:
        at = next((r, c) for r, row in enumerate(shape) for c, k in enumerate(row) if k == "@")
        for a, b, c_, d in _TURNS:
            cells = []
            off = []
            for r, row in enumerate(shape):
                for c, kind in enumerate(row):
                    dr, dc = r - at[0], c - at[1]
                    cell = (a * dr + c_ * dc, b * dr + d * dc)
                    if kind == "#":
                        off.append(cell)
                    elif kind != "?" and kind != "@":
                        cells.append((*cell, kind))
                    elif kind == "?":
                        cells.append((*cell, "?"))
            key = (tuple(sorted(cells)), tuple(sorted(off)))
            if key not in seen:
                seen.add(key)
                out.append((cells, off))
    return out


_WALL_CELLS = _wall_cells()

WALL_TABLES_KEPT = 8
"""Board sizes whose wall tables are kept (an archive holds few sizes; a hostile one may hold
every size from 1x1 to 52x52)."""
_WALL_TABLES: dict[tuple[int, int], list[list[tuple[tuple[int, ...], tuple[int, ...]]]]] = {}


def wall_table(width: int, height: int
                ) -> list[list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """For every point of a board size, the wall shapes that fit there with "@" on it (the whole
    shape on the board, an edge shape's last row just beyond the edge): the points that must
    hold the player's living stones and those that must be open."""
    key = (width, height)
    table = _WALL_TABLES.get(key)
    if table is not None:
        return table
    if len(_WALL_TABLES) >= WALL_TABLES_KEPT:
        _WALL_TABLES.clear()  # a table of 52x52 is 15 MB: a few sizes are kept, not every one
    table = []
    for p in range(width * height):
        row, col = divmod(p, width)
        fits = []
        for cells, off in _WALL_CELLS:
            if any(0 <= row + dr < height and 0 <= col + dc < width for dr, dc in off):
                continue
            if not all(0 <= row + dr < height and 0 <= col + dc < width for dr, dc, _ in cells):
                continue
            stones = tuple((row + dr) * width + col + dc for dr, dc, k in cells if k == "p")
            opens = tuple((row + dr) * width + col + dc for dr, dc, k in cells if k == "e")
            fits.append((stones, opens))
        table.append(fits)
    _WALL_TABLES[key] = table
    return table
