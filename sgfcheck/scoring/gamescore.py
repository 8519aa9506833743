"""A game's judgement as one value: its check, dead stones and position, each row's count and
band, the verdict on RE and what it weighed, built once by
:func:`sgfcheck.scoring.adjudicate.score_game` and never changed after; and a file's games
(:class:`FileScore`). What only a picture or a page asks (each row's counted points, the seki
stones, the position at the end of a solved line) is worked out from it when asked, each time
(a few milliseconds; nothing is written into the value, so no answer depends on what was asked
before it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sgfcheck.counting.band import Band
from sgfcheck.counting.count import CountedPoints, Score, counted_points
from sgfcheck.counting.explain import Difference
from sgfcheck.counting.judged import Judgement, Rows, Worked
from sgfcheck.endgame.finish import Finish, finished_position, objective_of
from sgfcheck.findings import Finding
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.position.analysis import Position
from sgfcheck.replay.check import CheckVerdict, FileReport, GameReport, verdict_of
from sgfcheck.verdict.decision import Outcome, ResultCheck, Weighing
from sgfcheck.verdict.readings import Reading


@dataclass(frozen=True)
class GameScore:
    """One game counted under its own ruleset and the rows asked for, and the verdict on its
    RE: built once by :func:`~sgfcheck.scoring.adjudicate.score_game`, never changed after.
    Its parts: the check, the position judged, the table of counts, the verdict weighed, or why
    there is nothing to count; what only a picture asks is worked out from it when asked,
    nothing written into it."""

    check: GameReport
    judged: Judgement | None = None
    rows: Rows = field(default_factory=Rows)
    weighing: Weighing = field(default_factory=Weighing)
    error: str | None = None
    worked: Worked = field(default_factory=Worked, repr=False, compare=False)

    # The parts' values, by the names every output reads.
    @property
    def dead(self) -> DeadStones | None:
        return self.judged.dead if self.judged is not None else None

    @property
    def position(self) -> Position | None:
        return self.judged.position if self.judged is not None else None

    @property
    def final(self) -> bool:
        return self.judged is not None and self.judged.final

    @property
    def scored_move(self) -> int:
        return self.judged.scored_move if self.judged is not None else 0

    @property
    def scores(self) -> list[Score]:
        return self.rows.scores

    @property
    def bands(self) -> list[Band | None]:
        return self.rows.bands

    @property
    def differences(self) -> tuple[Difference, ...]:
        return self.rows.differences

    @property
    def reading_row(self) -> int:
        return self.rows.reading_row

    @property
    def added_reading(self) -> str | None:
        return self.rows.added_reading

    @property
    def finishes(self) -> tuple[Finish, ...]:
        return self.rows.finishes

    @property
    def result_check(self) -> ResultCheck | None:
        return self.weighing.result_check

    @property
    def readings(self) -> tuple[Reading, ...]:
        return self.weighing.asked.readings

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return self.weighing.outcomes

    @property
    def doubts(self) -> tuple[Finding, ...]:
        return self.weighing.asked.doubts

    @property
    def conventions(self) -> tuple[Finding, ...]:
        return self.weighing.asked.conventions

    @property
    def komi_unknown(self) -> str | None:
        return self.weighing.asked.komi_unknown

    @property
    def findings(self) -> list[Finding]:
        """The check's findings, those of the dead-stone judgement (``LIF001``) and the
        assumptions of the result check (``RES002``-``RES005``)."""
        extra = self.dead.findings if self.dead is not None else []
        assumed = list(self.result_check.assumptions) if self.result_check is not None else []
        return self.check.findings + extra + assumed

    @property
    def verdict(self) -> CheckVerdict:
        return verdict_of(self.check.game.playable, self.findings)

    def finish_of(self, score: Score) -> Finish | None:
        """The solved line behind ``score``, where it is a solved count."""
        if not score.solved:
            return None
        objective = objective_of(score.ruleset)
        return next((f for f in self.finishes if f.objective is objective and f.solved), None)

    def scored_position(self, score: Score) -> Position:
        """The position ``score`` counts: the position as judged, or where its count is solved,
        the position at the end of the solved line."""
        assert self.position is not None
        found = self.finish_of(score)
        return self.position if found is None else finished_position(found, self.position)

    def counted(self, score: Score) -> CountedPoints:
        """The points behind ``score``'s count, what its picture marks (a batch row never
        needs them)."""
        return counted_points(self.scored_position(score), score.ruleset)

    def seki_stones_of(self, score: Score) -> set[int]:
        """The stones alive in seki in the position ``score`` counts."""
        return self.scored_position(score).seki_alive()

    @property
    def asked_scores(self) -> list[Score]:
        """The rows asked for (the game's own ruleset first), without the row added for the
        verdict's reading: what pictures and pages draw, one board a ruleset."""
        return self.scores[:-1] if self.added_reading is not None else self.scores


@dataclass
class FileScore:
    path: str
    check: FileReport
    games: list[GameScore]
