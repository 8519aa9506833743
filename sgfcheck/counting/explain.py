"""Why two rulesets' counts of one position differ, in plain words.

Each :class:`sgfcheck.counting.count.Score` splits its margin into named contributions; the
difference between two scores is told term by term, with the Go reason behind the usual ones: area
against territory counting (dame parity: who put more stones on the board), points in seki, pass
stones, and whether the winner flips.
"""

from __future__ import annotations

from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.counting.count import Score, counted_points
from sgfcheck.position.analysis import Position
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset


def explain(base: Score, other: Score, replay: Replay, position: Position,
            setup_stones: dict[Colour, int]) -> list[str]:
    """Plain words for why two rows differ, by named components."""
    delta = other.margin - base.margin
    a, b = base.ruleset.name, other.ruleset.name
    lines: list[str] = []
    parts = []
    for key, value in other.contributions.items():
        d = value - base.contributions[key]
        if abs(d) > 1e-9:
            parts.append(f"{key} {d:+g}")
    if parts:
        # Terms that differ explain the rows, also where they cancel: the same margin reached
        # two ways (dame parity against a handicap bonus) is said, not left for the same count.
        lines.append(f"{b} vs {a}: the margin moves {delta:+g} towards "
                     f"{'Black' if delta > 0 else 'White'} ({', '.join(parts)})"
                     if abs(delta) > 1e-9 else
                     f"{b} vs {a}: the same margin, the terms that differ cancel "
                     f"({', '.join(parts)})")
        if base.method.counts_stones != other.method.counts_stones:
            extra = (replay.plays[BLACK] + setup_stones[BLACK]) - (
                replay.plays[WHITE] + setup_stones[WHITE])
            who = "Black" if extra > 0 else "White"
            if extra:
                lines.append(f"  area counts stones on the board, territory counts prisoners: "
                             f"{who} put {abs(extra)} more stone(s) on the board"
                             f"{' (set-up stones included)' if setup_stones[BLACK] else ''}"
                             " (dame parity)")
        seki = position.seki_empty[BLACK] + position.seki_empty[WHITE]
        if seki and base.ruleset.seki_territory != other.ruleset.seki_territory:
            board = position.board
            names = ", ".join(board.name(p) for p in sorted(seki))
            counted, not_counted = (a, b) if base.ruleset.seki_territory else (b, a)
            lines.append(f"  {len(seki)} point(s) in seki at {names} count under {counted} "
                         f"but not as {not_counted} territory")
        base_fills = bool(base.black.must_fill or base.white.must_fill)
        other_fills = bool(other.black.must_fill or other.white.must_fill)
        if base_fills != other_fills:
            fill = {c: sorted(position.must_fill[c]) for c in (BLACK, WHITE)}
            board = position.board
            counted, not_counted = (b, a) if base_fills else (a, b)
            for colour in (BLACK, WHITE):
                if fill[colour]:
                    names = ", ".join(board.name(p) for p in fill[colour])
                    lines.append(f"  {len(fill[colour])} point(s) {colour.word} must still fill "
                                 f"(false eyes, connections) at {names} count under "
                                 f"{counted} but are not {not_counted} territory")
        if other.black.pass_stones or other.white.pass_stones:
            lines.append(f"  {b}: Black receives {other.black.pass_stones} and White "
                         f"{other.white.pass_stones} pass stone(s)")
    if base.winner != other.winner:
        lines.append(f"the winner flips between {a} ({base.result_text}) and "
                     f"{b} ({other.result_text})")
    return lines


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
