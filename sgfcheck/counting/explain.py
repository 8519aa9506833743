"""Why two rulesets' counts of one position differ, as facts.

Each :class:`sgfcheck.counting.count.Score` splits its margin into named contributions; the
difference between two scores is a :class:`Difference`: the terms that differ, and the Go facts
behind the usual ones: area against territory counting (dame parity: who put more stones on the
board), points in seki, points still to fill, pass stones, and whether the winner flips. The
words are :mod:`sgfcheck.output.differences`'.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.counting.count import Score, counted_points
from sgfcheck.position.analysis import Position
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Difference:
    """Why the row ``other`` counts the position otherwise than the row ``base`` (the game's
    own): each term that differs, and what explains it."""

    base: str
    """The two rows' rulesets, by name."""
    other: str
    delta: float
    """How far the margin moves from ``base`` to ``other`` (towards Black when positive)."""
    terms: tuple[tuple[str, float], ...]
    """Each contribution that differs (``stones``, ``prisoners``...), by how much (as the
    margin counts it); empty when the rows count alike."""
    extra_stones: int = 0
    """Where one row counts stones and the other prisoners: how many more stones Black put on
    the board than White (negative: White more; the set-up stones included)."""
    setup_stones: bool = False
    """Black has set-up stones (handicap, AB): they are in ``extra_stones``."""
    seki: tuple[str, ...] = ()
    """The empty points in seki one row counts as territory and the other does not."""
    seki_counted_by: str = ""
    seki_not_by: str = ""
    fill: tuple[tuple[Colour, tuple[str, ...]], ...] = ()
    """The points each colour must still fill (false eyes, connections) that one row counts as
    territory and the other does not."""
    fill_counted_by: str = ""
    fill_not_by: str = ""
    pass_stones: tuple[int, int] | None = None
    """The pass stones ``other`` gives Black and White, where it gives any."""
    flip: tuple[str, str] | None = None
    """Each row's result, where the winner differs."""


def explain(base: Score, other: Score, replay: Replay, position: Position,
            setup_stones: dict[Colour, int]) -> Difference | None:
    """Why two rows differ, by named components (None: they count alike, the same winner)."""
    a, b = base.ruleset.name, other.ruleset.name
    terms = tuple((key, value - base.contributions[key])
                  for key, value in other.contributions.items()
                  if abs(value - base.contributions[key]) > 1e-9)
    flip = (base.result_text, other.result_text) if base.winner != other.winner else None
    if not terms:
        return None if flip is None else Difference(a, b, other.margin - base.margin, (),
                                                    flip=flip)
    extra = 0
    if base.method.counts_stones != other.method.counts_stones:
        extra = (replay.plays[BLACK] + setup_stones[BLACK]) - (
            replay.plays[WHITE] + setup_stones[WHITE])
    board = position.board
    seki: tuple[str, ...] = ()
    in_seki = position.seki_empty[BLACK] + position.seki_empty[WHITE]
    if in_seki and base.ruleset.seki_territory != other.ruleset.seki_territory:
        seki = tuple(board.name(p) for p in sorted(in_seki))
    seki_by = (a, b) if base.ruleset.seki_territory else (b, a)
    base_fills = bool(base.black.must_fill or base.white.must_fill)
    other_fills = bool(other.black.must_fill or other.white.must_fill)
    fill: tuple[tuple[Colour, tuple[str, ...]], ...] = ()
    if base_fills != other_fills:
        fill = tuple((colour, tuple(board.name(p) for p in sorted(position.must_fill[colour])))
                     for colour in (BLACK, WHITE) if position.must_fill[colour])
    fill_by = (b, a) if base_fills else (a, b)
    passes = other.black.pass_stones, other.white.pass_stones
    return Difference(a, b, other.margin - base.margin, terms, extra, bool(setup_stones[BLACK]),
                      seki, *(seki_by if seki else ("", "")), fill,
                      *(fill_by if fill else ("", "")), passes if any(passes) else None, flip)


def marks_against_referee(position: Position, ruleset: Ruleset,
                          marked: dict[Colour, set[int]], whose: str = "") -> str | None:
    """Where a record's territory marks (or ``whose`` count of the territory: ``OGS's
    count``) and the referee's count part, point by point (None where they agree): the marked
    points the referee does not count, and why, and the points it counts that the marks leave
    out."""
    counted = counted_points(position, ruleset)
    board = position.board
    parts = []
    for colour in (BLACK, WHITE):
        mine = {p for p, c in counted.territory.items() if c == colour}
        extra = sorted(marked[colour] - mine)
        missing = sorted(mine - marked[colour])
        why: dict[str, list[str]] = {}
        for p in extra:
            reason = ("in seki" if p in counted.seki else
                      "to fill" if p in counted.fill else
                      "not enclosed by its stones alone")
            why.setdefault(reason, []).append(board.name(p))
        for reason, names in why.items():
            counts = (f"{whose} gives {colour.word}" if whose else
                      f"{colour.word}'s marks count")
            parts.append(f"{counts} {len(names)} point(s) {reason} ({', '.join(names)})")
        if missing:
            left_out = ", ".join(board.name(p) for p in missing)
            leaves = (f"{whose} leaves out {len(missing)} point(s) of {colour.word}'s" if whose
                      else f"{colour.word}'s marks leave out {len(missing)} point(s) of its")
            parts.append(f"{leaves} territory ({left_out})")
    return "; ".join(parts) or None
