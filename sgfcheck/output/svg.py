"""A Go position drawn as SVG: grid, coordinates, hoshi, stones and the marks of a judgement.

Semantic SVG a user can restyle with CSS: every stone is one ``<circle>`` with the classes ``stone
black`` or ``stone white`` (plus ``dead``, ``seki``, ``uncertain``, ``concerned`` where they apply)
and ``data-point="D4"``; territory marks are ``mark territory black|white``, seki points ``mark
seki``, points still to fill ``mark fill``, an illegal move ``illegal black|white``, the last move
``last-move``, move numbers ``move-number``. Nothing here knows a ruleset: what to mark is decided
by the caller (:mod:`sgfcheck.output.diagrams`). Boards from 1x1 to 52x52, rectangular ones too.
Every text that may come from a record is escaped for XML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from sgfcheck.colour import BLACK, Colour
from sgfcheck.escaping import visible
from sgfcheck.points import gtp_column, point_names

CELL = 24
"""Pixels between two lines."""

STYLE = """
.goban .board{fill:#e3b868}
.goban .grid{stroke:#3a2a10;stroke-width:1;fill:none}
.goban .hoshi{fill:#3a2a10}
.goban .coordinates{font:11px sans-serif;fill:#3a2a10;text-anchor:middle;dominant-baseline:central}
.goban .stone{stroke:#000;stroke-width:1}
.goban .stone.black{fill:#111}
.goban .stone.white{fill:#fafafa}
.goban .stone.dead{opacity:.45}
.goban .stone.uncertain{stroke:#c07000;stroke-width:2.5;stroke-dasharray:3 2}
.goban .stone.concerned{stroke:#d01010;stroke-width:3}
.goban .mark.territory.black{fill:#111}
.goban .mark.territory.white{fill:#fafafa;stroke:#111;stroke-width:1}
.goban .mark.seki{fill:none;stroke:#1060c0;stroke-width:2}
.goban .mark.fill{fill:none;stroke:#b01080;stroke-width:2}
.goban .last-move{fill:none;stroke:#d01010;stroke-width:2}
.goban .move-number{font:bold 10px sans-serif;text-anchor:middle;dominant-baseline:central}
.goban .move-number.on-black{fill:#fff}
.goban .move-number.on-white{fill:#000}
.goban .illegal circle{fill:none;stroke:#d01010;stroke-width:2.5;stroke-dasharray:4 3}
.goban .illegal path{stroke:#d01010;stroke-width:3}
.goban .legend text{font:11px sans-serif;fill:#3a2a10;dominant-baseline:central}
.goban .caption text{font:12px sans-serif;fill:#3a2a10;dominant-baseline:central}
"""
"""The default look; pages that hold several boards write it once and draw with ``style=False``."""


@dataclass
class Picture:
    """What to draw on a ``width`` x ``height`` board. Points are board indices
    (``row * width + col``, row 0 at the top)."""

    width: int
    height: int
    stones: dict[int, Colour] = field(default_factory=dict)
    dead: set[int] = field(default_factory=set)
    seki_stones: set[int] = field(default_factory=set)
    uncertain: set[int] = field(default_factory=set)
    concerned: set[int] = field(default_factory=set)
    """Stones an illegal move concerns (the ko stone it would take back, the chain it would
    leave without liberties, the stone already on its point)."""
    territory: dict[int, Colour] = field(default_factory=dict)
    """Points counted for a colour (empty points, or dead stones' points)."""
    seki: set[int] = field(default_factory=set)
    """Empty points of groups that live in seki and are not counted."""
    fill: set[int] = field(default_factory=set)
    """Own points a colour must still fill (not counted as territory)."""
    last_move: int | None = None
    numbers: dict[int, int] = field(default_factory=dict)
    """Move numbers to write on points (the last move played there)."""
    illegal: tuple[int, Colour] | None = None
    """An illegal move: its point and the colour that tried it."""
    title: str = ""


def hoshi(size: int) -> list[int]:
    """Star-point lines along one side of ``size`` lines (0-based from the edge): the 4th line on
    boards of 13 and more, the 3rd from 7, the centre of odd sides from 9 (13: not the sides'
    centres, as on real boards; see :func:`hoshi_points`)."""
    if size < 7:
        return [size // 2] if size % 2 == 1 and size >= 5 else []
    edge = 3 if size >= 13 else 2
    lines = [edge, size - 1 - edge]
    if size % 2 == 1 and size >= 9:
        lines.insert(1, size // 2)
    return lines


def hoshi_points(width: int, height: int) -> list[tuple[int, int]]:
    """Star points (col, row): the corners' points and the centre, and the centres of the sides
    on sides of 15 lines or more (19x19: 9 points; 13x13 and 9x9: 5)."""
    cols, rows = hoshi(width), hoshi(height)
    mid_col = width // 2 if width % 2 == 1 else -1
    mid_row = height // 2 if height % 2 == 1 else -1
    out = []
    for c in cols:
        for r in rows:
            if c == mid_col and r != mid_row and width < 15:
                continue  # centre of the top or bottom side
            if r == mid_row and c != mid_col and height < 15:
                continue  # centre of the left or right side
            out.append((c, r))
    return out


def _n(value: float) -> str:
    return f"{value:g}"


def _attribute(value: str) -> str:
    """An attribute value, quoted and escaped (``&``, ``<``, ``>`` and both quotes)."""
    return f'"{escape(value, quote=True)}"'


LEGEND_ENTRIES = (
    ("territory", "territory: counted for that colour"),
    ("dead", "faded stone: dead"),
    ("seki", "blue ring: a point of a group in seki, counted for nobody"),
    ("fill", "purple diamond: a point still to fill, not territory"),
    ("uncertain", "dashed orange: a chain the estimate could not decide (counted as most "
                  "playouts left it)"),
    ("last", "red ring: the last move"),
    ("illegal", "red cross: an illegal move (red outline: the stones it concerns)"),
)
"""The marks of a picture, each drawn as on the board beside its meaning (``--legend``)."""


def legend_entries(picture: Picture) -> list[tuple[str, str]]:
    """The entries of :data:`LEGEND_ENTRIES` whose mark the picture has: a legend lists what
    is on the board, not every mark there could be."""
    present = {"territory": bool(picture.territory), "dead": bool(picture.dead),
               "seki": bool(picture.seki), "fill": bool(picture.fill),
               "uncertain": bool(picture.uncertain), "last": picture.last_move is not None,
               "illegal": picture.illegal is not None}
    return [(kind, text) for kind, text in LEGEND_ENTRIES if present[kind]]


def render_svg(picture: Picture, *, style: bool = True, css_class: str = "",
               legend: bool = False, caption: bool = False) -> str:
    """The picture as an SVG document fragment (``<svg>`` element, with its namespace);
    ``legend``: with the meaning of every mark under the board; ``caption``: with its title
    (the ruleset and count, or the move) written under the board, for a picture that stands
    alone (a PNG has no tooltip)."""
    w, h = picture.width, picture.height
    margin = CELL * 1.25
    width = (w - 1) * CELL + 2 * margin
    row = CELL * 0.9
    lines = _caption_lines(visible(picture.title), width) if caption and picture.title else []
    board_height = (h - 1) * CELL + 2 * margin
    caption_height = len(lines) * row + (CELL * 0.3 if lines else 0)
    entries = legend_entries(picture) if legend else []
    height = board_height + caption_height + (
        len(entries) * row + CELL * 0.5 if entries else 0)
    if entries:  # room for the longest meaning (11 px sans-serif: about 6.3 px a character)
        width = max(width, margin + CELL + 6.3 * max(len(t) for _, t in entries))

    def x(col: int) -> float:
        return margin + col * CELL

    def y(row: int) -> float:
        return margin + row * CELL

    def at(index: int) -> tuple[str, str]:
        return _n(x(index % w)), _n(y(index // w))

    def name(index: int) -> str:
        return point_names(w, h)[index]

    title = visible(picture.title)
    classes = " ".join(c for c in ("goban", css_class) if c)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class={_attribute(classes)} '
           f'viewBox="0 0 {_n(width)} {_n(height)}" width="{_n(width)}" height="{_n(height)}" '
           f'role="img" aria-label={_attribute(title or f"{w}x{h} board")} '
           f'data-size="{w}x{h}">']
    if title:
        out.append(f"<title>{escape(title, quote=False)}</title>")
    if style:
        out.append(f"<style>{STYLE.strip()}</style>")
    out.append(f'<rect class="board" x="0" y="0" width="{_n(width)}" height="{_n(height)}"/>')
    path = [f"M{_n(x(0))} {_n(y(r))}H{_n(x(w - 1))}" for r in range(h)]
    path += [f"M{_n(x(c))} {_n(y(0))}V{_n(y(h - 1))}" for c in range(w)]
    out.append(f'<path class="grid" d="{"".join(path)}"/>')
    for c, r in hoshi_points(w, h):
        out.append(f'<circle class="hoshi" cx="{_n(x(c))}" cy="{_n(y(r))}" r="2.5"/>')
    out.append('<g class="coordinates">')
    for c in range(w):
        label = gtp_column(c)
        out.append(f'<text x="{_n(x(c))}" y="{_n(margin / 2.4)}">{label}</text>')
        out.append(f'<text x="{_n(x(c))}" y="{_n(board_height - margin / 2.4)}">{label}</text>')
    for r in range(h):
        label = str(h - r)
        out.append(f'<text x="{_n(margin / 2.4)}" y="{_n(y(r))}">{label}</text>')
        out.append(f'<text x="{_n(x(w - 1) + margin - margin / 2.4)}" y="{_n(y(r))}">'
                   f"{label}</text>")
    out.append("</g>")

    radius = _n(CELL * 0.47)
    for index in sorted(picture.stones):
        colour = picture.stones[index]
        cls = ["stone", "black" if colour is BLACK else "white"]
        for flag, points in (("dead", picture.dead), ("seki", picture.seki_stones),
                             ("uncertain", picture.uncertain),
                             ("concerned", picture.concerned)):
            if index in points:
                cls.append(flag)
        cx, cy = at(index)
        out.append(f'<circle class="{" ".join(cls)}" data-point="{name(index)}" cx="{cx}" '
                   f'cy="{cy}" r="{radius}"/>')

    side = CELL * 0.36
    for index in sorted(picture.territory):
        colour = picture.territory[index]
        cx, cy = at(index)
        out.append(f'<rect class="mark territory {"black" if colour is BLACK else "white"}" '
                   f'data-point="{name(index)}" x="{_n(float(cx) - side / 2)}" '
                   f'y="{_n(float(cy) - side / 2)}" width="{_n(side)}" height="{_n(side)}"/>')
    for kind, points in (("seki", picture.seki), ("fill", picture.fill)):
        for index in sorted(points):
            cx, cy = at(index)
            if kind == "seki":
                out.append(f'<circle class="mark seki" data-point="{name(index)}" cx="{cx}" '
                           f'cy="{cy}" r="{_n(CELL * 0.2)}"/>')
            else:
                d = CELL * 0.22
                out.append(f'<path class="mark fill" data-point="{name(index)}" '
                           f'd="M{cx} {_n(float(cy) - d)}L{_n(float(cx) + d)} {cy}'
                           f'L{cx} {_n(float(cy) + d)}L{_n(float(cx) - d)} {cy}Z"/>')
    for index in sorted(picture.numbers):
        cx, cy = at(index)
        on = "on-black" if picture.stones.get(index) is BLACK else "on-white"
        out.append(f'<text class="move-number {on}" data-point="{name(index)}" x="{cx}" '
                   f'y="{cy}">{picture.numbers[index]}</text>')
    if picture.last_move is not None and picture.last_move not in picture.numbers:
        cx, cy = at(picture.last_move)
        out.append(f'<circle class="last-move" data-point="{name(picture.last_move)}" '
                   f'cx="{cx}" cy="{cy}" r="{_n(CELL * 0.22)}"/>')
    if picture.illegal is not None:
        index, colour = picture.illegal
        cx, cy = at(index)
        d = CELL * 0.25
        fx, fy = float(cx), float(cy)
        out.append(f'<g class="illegal {"black" if colour is BLACK else "white"}" '
                   f'data-point="{name(index)}"><circle cx="{cx}" cy="{cy}" r="{radius}"/>'
                   f'<path d="M{_n(fx - d)} {_n(fy - d)}L{_n(fx + d)} {_n(fy + d)}'
                   f'M{_n(fx + d)} {_n(fy - d)}L{_n(fx - d)} {_n(fy + d)}"/></g>')
    if lines:
        out.append('<g class="caption">')
        out.extend(f'<text x="{_n(margin / 2.4)}" y="{_n(board_height + row * (n + 0.5))}">'
                   f"{escape(line, quote=False)}</text>" for n, line in enumerate(lines))
        out.append("</g>")
    if entries:
        out.extend(_legend(entries, margin, board_height + caption_height, row))
    out.append("</svg>")
    return "\n".join(out)


def _caption_lines(text: str, width: float) -> list[str]:
    """The caption broken into lines that fit the picture's width (12 px sans-serif: about
    6.8 px a character)."""
    import textwrap

    return textwrap.wrap(text, max(20, int(width / 6.8))) or [text]


def _legend(entries: list[tuple[str, str]], left: float, top: float, row: float) -> list[str]:
    """Each mark of ``entries`` drawn small, with its meaning beside it."""
    out = ['<g class="legend">']
    r = CELL * 0.3
    for i, (kind, text) in enumerate(entries):
        cx, cy = left, top + row * (i + 0.5)
        c, y = _n(cx), _n(cy)
        if kind == "territory":
            side = CELL * 0.36
            out.append(f'<rect class="mark territory black" x="{_n(cx - side / 2)}" '
                       f'y="{_n(cy - side / 2)}" width="{_n(side)}" height="{_n(side)}"/>')
        elif kind in ("dead", "uncertain"):
            out.append(f'<circle class="stone black {kind}" cx="{c}" cy="{y}" r="{_n(r)}"/>')
        elif kind == "seki":
            out.append(f'<circle class="mark seki" cx="{c}" cy="{y}" r="{_n(CELL * 0.2)}"/>')
        elif kind == "fill":
            d = CELL * 0.22
            out.append(f'<path class="mark fill" d="M{c} {_n(cy - d)}L{_n(cx + d)} {y}'
                       f'L{c} {_n(cy + d)}L{_n(cx - d)} {y}Z"/>')
        elif kind == "last":
            out.append(f'<circle class="last-move" cx="{c}" cy="{y}" r="{_n(CELL * 0.22)}"/>')
        else:
            d = CELL * 0.2
            out.append(f'<g class="illegal black"><path d="M{_n(cx - d)} {_n(cy - d)}'
                       f'L{_n(cx + d)} {_n(cy + d)}M{_n(cx + d)} {_n(cy - d)}'
                       f'L{_n(cx - d)} {_n(cy + d)}"/></g>')
        out.append(f'<text x="{_n(cx + CELL * 0.7)}" y="{y}">{escape(text, quote=False)}</text>')
    out.append("</g>")
    return out


class PngUnavailable(RuntimeError):
    """PNG was asked for and no converter is installed."""


PNG_HELP = ("PNG needs cairosvg and the Cairo library: pip install 'sgfcheck[png]' "
            "(and on Debian or Ubuntu: apt-get install libcairo2)")


def svg_to_png(svg: str, scale: float = 2.0) -> bytes:
    """An SVG picture as PNG bytes through cairosvg (the ``png`` extra). Raises
    :class:`PngUnavailable` when cairosvg or the Cairo library it loads is missing."""
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError) as exc:  # OSError: cairocffi finds no libcairo
        raise PngUnavailable(f"{PNG_HELP} ({exc})") from None
    data: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return data
