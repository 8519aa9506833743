"""What the game page draws of a game's moves, computed here once so that the page only draws
(:class:`Story`): the stones each move adds and removes, the prisoners, and each preset's verdict
on every move some preset forbids."""

from __future__ import annotations

from dataclasses import dataclass

from sgfcheck.colour import BLACK, EMPTY, WHITE
from sgfcheck.replay.check import GameReport, RulesetVerdicts, compare_rulesets
from sgfcheck.replay.replay import replay


@dataclass(frozen=True)
class Step:
    """One move as the page draws it."""

    added: list[list[int]]
    """``[point, colour]`` of each stone the move leaves where there was none or another."""
    removed: list[int]
    """The points it empties (captures)."""
    prisoners: list[int]
    """Black's and White's prisoners after it."""


@dataclass(frozen=True)
class Story:
    """A game move by move, from one replay under its own rules."""

    start: list[int]
    """The points with a stone before the first move (handicap, setup)."""
    start_colours: list[int]
    steps: list[Step]
    """One for each move of the line, in order."""
    verdicts: list[RulesetVerdicts]
    """Each preset's verdict on every move some preset forbids."""


def story_of(report: GameReport) -> Story:
    """The game's story: one replay told of every move (time linear in the game's length),
    and one replay under each preset for their verdicts."""
    record = report.game
    line = report.line if report.line is not None else record.main_line()
    assert report.context is not None
    own = report.context.ruleset
    first = replay(record, line, own, upto=0).board.colour
    start = [p for p, c in enumerate(first) if c != EMPTY]
    before = list(first)
    steps: list[Step] = []

    def visit(number: int, after: list[int], prisoners: list[int]) -> None:
        added = [[p, int(c)] for p, c in enumerate(after) if c != EMPTY and before[p] != c]
        removed = [p for p, c in enumerate(after) if c == EMPTY and before[p] != EMPTY]
        steps.append(Step(added, removed, [prisoners[BLACK], prisoners[WHITE]]))
        before[:] = after

    replay(record, line, own, visit=visit)
    return Story(start, [int(first[p]) for p in start], steps, compare_rulesets(record, line))
