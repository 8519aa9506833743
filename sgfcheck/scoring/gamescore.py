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

from sgfcheck.colour import BLACK, WHITE
from sgfcheck.endgame.finish import Finish, finished_position, objective_of
from sgfcheck.findings import Finding
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.position.analysis import Position
from sgfcheck.replay.check import FileReport, GameReport, Verdict, verdict_of
from sgfcheck.scoring.band import Band
from sgfcheck.scoring.conventions import Reading
from sgfcheck.scoring.count import CountedPoints, Score, counted_points
from sgfcheck.scoring.counts import Counts, Way
from sgfcheck.scoring.life import mutual_seki
from sgfcheck.scoring.verdict import Outcome, ResultCheck


@dataclass(frozen=True)
class Worked:
    """What the verdict was weighed on, kept for a second weighing of the same position (a
    benchmark's falsified result): the positions of the ways the unsettled chains may go and
    the counts of the position as judged; both made by ``score_game`` before the verdict."""

    ways: tuple[Way, ...] = ()
    """The positions of the ways the unsettled chains may go."""
    counts: Counts | None = None
    """The counts of the position as judged (each ruleset's solved line, worked out once)."""


@dataclass(frozen=True)
class Judgement:
    """The position a game's count stands on: its dead stones, the position analysed once for
    every ruleset, whether the game ended by two passes, and after which move."""

    dead: DeadStones
    position: Position
    final: bool = False
    """The scored position is the end of a game that ended by two passes."""
    scored_move: int = 0


@dataclass(frozen=True)
class Rows:
    """The table of counts: one row a ruleset (the game's own first), each row's band, why the
    rows differ, the row the verdict rests on, and the solved lines behind solved rows."""

    scores: list[Score] = field(default_factory=list)
    bands: list[Band | None] = field(default_factory=list)
    """Each row's band (on a judgement of the position: the estimate, an engine, a game not
    ended by two passes), aligned with ``scores``; None on a firm basis."""
    explanations: list[str] = field(default_factory=list)
    reading_row: int = 0
    """The row of ``scores`` the verdict rests on: the row of its reading (a row is added for a
    reading none of the asked rows counts: a komi or a counting a convention reads)."""
    added_reading: str | None = None
    """The short name of the row added for the verdict's reading (the last row), if one was:
    ``japanese, komi 6.5``, ``japanese, OGS``."""
    finishes: tuple[Finish, ...] = ()
    """The last open points played out (one solved line for each objective the rows and
    readings asked: area, territory), or why not."""


@dataclass(frozen=True)
class Asked:
    """What the verdict on RE is asked to weigh: the readings of the record, and what a count
    of it assumes about the record or reads from its source."""

    readings: tuple[Reading, ...] = ()
    """The record's own reading and those its convention allows (a server's own count is
    added when the result check weighs them all)."""
    readings_fixed: bool = False
    """The user chose the rules, the komi or the move: the record's own reading only."""
    doubts: tuple[Finding, ...] = ()
    """What the count assumes about the record itself (``RES008``)."""
    conventions: tuple[Finding, ...] = ()
    """What the count reads from the record's source's conventions, cited (``RES010``)."""
    komi_unknown: str | None = None
    """Why the record's komi is unknown (the counts are made without komi), if it is."""


@dataclass(frozen=True)
class Weighing:
    """The verdict on RE and what it weighed: what it was asked, and the counts of each reading
    and way."""

    result_check: ResultCheck | None = None
    asked: Asked = field(default_factory=Asked)
    outcomes: tuple[Outcome, ...] = ()
    """The counts the result check weighed: each reading, each way the doubtful chains go
    (empty when the own reading as judged gave the result at once)."""


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
    def explanations(self) -> list[str]:
        return self.rows.explanations

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
    def verdict(self) -> Verdict:
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
        end = self.scored_position(score)
        return mutual_seki(end.board, end.seki_stones[BLACK], end.seki_stones[WHITE],
                           set(end.dame))

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
