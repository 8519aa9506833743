"""The words for why two rows' counts differ (:class:`sgfcheck.counting.explain.Difference`):
one line for the terms that differ, an indented line for each fact behind them, and a line where
the winner flips. Text, HTML, JSON and annotated SGF say the same lines."""

from __future__ import annotations

from collections.abc import Iterable

from sgfcheck.counting.explain import Difference


def difference_lines(differences: Iterable[Difference]) -> list[str]:
    """Every difference's lines, in order."""
    return [line for difference in differences for line in said(difference)]


def said(d: Difference) -> list[str]:
    """The lines of one difference."""
    out: list[str] = []
    a, b = d.base, d.other
    if d.terms:
        parts = ", ".join(f"{key} {value:+g}" for key, value in d.terms)
        # Terms that differ explain the rows, also where they cancel: the same margin reached
        # two ways (dame parity against a handicap bonus) is said, not left for the same count.
        out.append(f"{b} vs {a}: the margin moves {d.delta:+g} towards "
                   f"{'Black' if d.delta > 0 else 'White'} ({parts})"
                   if abs(d.delta) > 1e-9 else
                   f"{b} vs {a}: the same margin, the terms that differ cancel ({parts})")
        if d.extra_stones:
            who = "Black" if d.extra_stones > 0 else "White"
            out.append(f"  area counts stones on the board, territory counts prisoners: "
                       f"{who} put {abs(d.extra_stones)} more stone(s) on the board"
                       f"{' (set-up stones included)' if d.setup_stones else ''}"
                       " (dame parity)")
        if d.seki:
            out.append(f"  {len(d.seki)} point(s) in seki at {', '.join(d.seki)} count under "
                       f"{d.seki_counted_by} but not as {d.seki_not_by} territory")
        for colour, names in d.fill:
            out.append(f"  {len(names)} point(s) {colour.word} must still fill (false eyes, "
                       f"connections) at {', '.join(names)} count under {d.fill_counted_by} "
                       f"but are not {d.fill_not_by} territory")
        if d.pass_stones is not None:
            out.append(f"  {b}: Black receives {d.pass_stones[0]} and White "
                       f"{d.pass_stones[1]} pass stone(s)")
    if d.flip is not None:
        out.append(f"the winner flips between {a} ({d.flip[0]}) and {b} ({d.flip[1]})")
    return out
