"""Lines of play: one path through a game tree read as setup and moves in order
(:class:`Line`), every value that is not what it should be a finding, read as said."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import NamedTuple

from sgfmill import sgf_grammar

from sgfcheck import core
from sgfcheck import findings as F
from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.findings import Finding
from sgfcheck.points import SGF_COORD, Point, expand_point_list

Node = dict[str, list[bytes]]


@core.contract
class Move(NamedTuple):
    """A B or W property. ``point`` is None for a pass; off-board points are kept as read."""

    colour: Colour
    point: Point | None
    node: int
    forced: bool
    """The node has ``KO[]``: play it even if illegal."""


@core.contract
class Setup(NamedTuple):
    """AB/AW/AE (and PL) in one node."""

    node: int
    black: list[Point]
    white: list[Point]
    empty: list[Point]
    player: Colour | None


@dataclass
class Line:
    """One path through a game tree: setup and moves in order."""

    events: list[Move | Setup]
    findings: list[Finding]
    final_node: Node
    variation: list[int]
    """Child index chosen at each branch (all zeros for the main line)."""

    @property
    def move_count(self) -> int:
        return sum(1 for e in self.events if isinstance(e, Move))

    def numbered_moves(self) -> Iterator[tuple[int, Move]]:
        """The moves with their numbers (1-based, passes counted, setup not), as findings
        number them."""
        return enumerate((e for e in self.events if isinstance(e, Move)), start=1)

    def last_play(self) -> tuple[int, Move] | None:
        """The last move on the board (the passes after it left out) with its number, as
        :meth:`numbered_moves` numbers it; None where no move is on the board."""
        moves = [e for e in self.events if isinstance(e, Move)]
        for number in range(len(moves), 0, -1):
            if moves[number - 1].point is not None:
                return number, moves[number - 1]
        return None


MAX_TEXT = 256
"""Bytes of a game-information value kept (``RU``, ``RE``, ``KM``, names...): no real one is
longer, and every message that quotes one stays a line."""
MAX_SHOWN = 20
"""Bad points of one setup list spelled out; the rest are counted."""


def first_text(values: list[bytes]) -> str:
    return simple_text(values[0])


_UNESCAPED = re.compile(rb"[\\\n\r\t\f\v]")
"""The bytes sgfmill's SimpleText reading changes (escapes and blanks other than spaces): a value
without them reads as it is."""


def simple_text(value: bytes) -> str:
    """A SimpleText value, cut to :data:`MAX_TEXT` bytes (``…`` marks the cut)."""
    cut = value[:MAX_TEXT]
    if _UNESCAPED.search(cut) is not None:
        cut = sgf_grammar.simpletext_value(cut)
    text = cut.decode("utf-8", "replace").strip()
    return text + "…" if len(value) > MAX_TEXT else text


_PASS_VALUES = (b"", b"tt")


def _plain_moves_compiled(fast: ModuleType, nodes: list[Node], index: int, tt_is_pass: bool,
                         events: list[Move | Setup]) -> int:
    """The run of plain move nodes from ``index`` read into ``events`` by the compiled core;
    where it stops."""
    stop: int = fast.simple_moves(nodes, index, tt_is_pass, BLACK, WHITE, events)
    return stop


def _plain_moves_pure(nodes: list[Node], index: int, tt_is_pass: bool,
                      events: list[Move | Setup]) -> int:
    """Nothing read ahead: :func:`extract_line` reads every node itself."""
    return index


_plain_moves = core.door(_plain_moves_compiled, _plain_moves_pure)


def extract_line(width: int, height: int, start: list[Move | Setup], nodes: list[Node],
                 variation: list[int]) -> Line:
    """The line of play through ``nodes`` (the path ``variation`` took) on a board of that
    size, after the events of ``start`` (handicap stones the record leaves out): every setup
    and move in order, and what was wrong with any of them (each a finding, the value read as
    said)."""
    tt_is_pass = width <= 19 and height <= 19
    events: list[Move | Setup] = list(start)
    found: list[Finding] = []
    move_no = 0
    coord = SGF_COORD
    index = -1
    while index + 1 < len(nodes):
        index += 1
        # The run of plain move nodes from here, read by the compiled core (the pure one reads
        # every node below); the node it stops at (setup, PL, KO, odd values) is read below.
        before = len(events)
        index = _plain_moves(nodes, index, tt_is_pass, events)
        move_no += len(events) - before
        if index >= len(nodes):
            break
        node = nodes[index]
        if "AB" in node or "AW" in node or "AE" in node or "PL" in node:
            lists = {ident: expand_point_list(node.get(ident, []), width, height)
                     for ident in ("AB", "AW", "AE")}
            black, white, empty = (lists[i].points for i in ("AB", "AW", "AE"))
            for ident, read in lists.items():
                for bad in read.bad[:MAX_SHOWN]:
                    found.append(Finding(F.SGF_BAD_POINT,
                                         f"setup point [{bad[:20]}] in node {index} is not on "
                                         f"the {width}x{height} board; ignored",
                                         move=move_no or None))
                if len(read.bad) > MAX_SHOWN:
                    found.append(Finding(F.SGF_BAD_POINT,
                                         f"{len(read.bad) - MAX_SHOWN} more bad {ident} points "
                                         f"in node {index}; ignored", move=move_no or None))
                if read.unread:
                    found.append(Finding(F.SGF_BAD_VALUE,
                                         f"{ident} in node {index} lists more than twice the "
                                         f"board's points; its last {read.unread} value(s) "
                                         "were not read", move=move_no or None))
            player = None
            if "PL" in node:
                pl = first_text(node["PL"]).upper()
                player = Colour.from_letter(pl)
                if player is None:
                    found.append(Finding(F.SGF_BAD_PLAYER,
                                         f"PL[{pl}] is neither B nor W; ignored",
                                         move=move_no or None))
                elif move_no:
                    found.append(Finding(F.SGF_BAD_PLAYER,
                                         f"PL[{pl}] after move {move_no}: the player to move is "
                                         "set in the middle of the game", move=move_no))
            if move_no and (black or white or empty):
                found.append(Finding(F.SGF_SETUP_MIDGAME,
                                     f"setup (AB/AW/AE) in node {index}, after move {move_no}; "
                                     "the position is changed as written and the repetition "
                                     "history starts again", move=move_no))
            events.append(Setup(index, black, white, empty, player))
        has_b = "B" in node
        has_w = "W" in node
        if not (has_b or has_w):
            continue
        if has_b and has_w:
            found.append(Finding(F.SGF_TWO_MOVES_IN_NODE,
                                 f"node {index} holds both B and W; both are played, B first",
                                 move=move_no + 1))
        forced = "KO" in node and not first_text(node["KO"])
        for ident, colour in (("B", BLACK), ("W", WHITE)):
            values = node.get(ident)
            if values is None:
                continue
            move_no += 1
            value = values[0]
            if len(values) > 1:
                found.append(Finding(F.SGF_REPEATED_PROPERTY,
                                     f"{ident} has {len(values)} values in node {index}; the "
                                     "first is played", move=move_no))
            point: Point | None
            if len(value) == 2 and value != b"tt":
                col = coord.get(value[0])
                row = coord.get(value[1])
                if col is None or row is None:
                    point = None
                    found.append(_bad_move(colour, value, move_no))
                else:
                    point = (col, row)
            elif value in _PASS_VALUES:
                point = None
                if value == b"tt" and not tt_is_pass:
                    point = (19, 19)
            elif not value.strip():
                point = None
                found.append(Finding(F.SGF_PASS_SPELLING,
                                     f"{ident}[{value.decode('utf-8', 'replace')}] (blanks) read "
                                     "as a pass", move=move_no, colour=colour))
            else:
                point = None
                found.append(_bad_move(colour, value, move_no))
            events.append(Move(colour, point, index, forced))
    return Line(events, found, nodes[-1] if nodes else {}, variation)


def _bad_move(colour: Colour, value: bytes, move_no: int) -> Finding:
    shown = value.decode("utf-8", "replace")[:20]
    return Finding(F.SGF_BAD_POINT,
                   f"{colour.letter}[{shown}] is not a point; the move is read as a pass",
                   move=move_no, colour=colour)
