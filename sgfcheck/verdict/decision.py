"""The verdict on a recorded result, as values: its reason (a stable code that gives its
status, :mod:`sgfcheck.verdict.reasons`) with the facts it rests on, the basis (where the dead
stones come from), the counts it weighed (:class:`Outcome`), and what one rule decided
(:class:`Decision`) before :func:`~sgfcheck.verdict.decide.check_result` makes the
:class:`ResultCheck`. The rules that decide are in :mod:`sgfcheck.verdict.decide` (and, for
a count read as a band, :mod:`sgfcheck.verdict.banded`); no sentence is written here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sgfcheck import findings as F
from sgfcheck.colour import BLACK
from sgfcheck.counting.band import Band
from sgfcheck.counting.count import Score
from sgfcheck.counting.judged import Basis
from sgfcheck.endgame.finish import Finish
from sgfcheck.findings import Finding
from sgfcheck.records.results import Result, ResultKind
from sgfcheck.verdict.readings import Reading
from sgfcheck.verdict.reasons import (
    AS_JUDGED,
    CheckStatus,
    Facts,
    Match,
    Reason,
    Reproduced,
    Second,
)

UNFINISHED_SLACK = 2.0
"""A result this close to the band of a game that did not end with two passes is not called a
mismatch: the moves the record does not hold (protective moves once the dame are filled, a last
ko) may still be worth a point or two. On the professional records measured (results taken as
right), 4% of the counts were 2 points from RE where the band saw none (the manual's
benchmarks)."""

FAR_FROM_END = 1 / 6
"""A game that did not end by two passes, with more than this share of the board's points in
regions still open to both colours, is far from finished. On 2,471 professional Fox games
measured, 93% of the games with a margin in RE stop with at most 45 of 361 points open, while
83 of 87 sampled games whose RE names only the winner (median 153 moves) stop with more than 60."""


@dataclass(frozen=True)
class Decision:
    """What one rule of the verdict decided: the reason and its facts, and what the verdict
    shows of the counts: the count and the reading it was reached under (``reading``: its
    label, where it is not ``under``'s own), the difference from RE for Black, the band, the
    solved line, what of RE a match reproduced, and the assumptions it adds."""

    code: Reason
    """Why the verdict is what it is, as a stable code; it gives the status."""
    facts: Facts
    """What the reason rests on (:mod:`sgfcheck.output.reasons` says it in words)."""
    computed: str | None = None
    under: Reading | None = None
    """The reading the verdict was reached under: the rows and the outcomes are found by it,
    not by its name."""
    reading: str | None = None
    """The ruleset and komi the verdict was reached under, by name."""
    delta: float | None = None
    """Computed minus recorded margin, for Black (under the reading named in ``reading``)."""
    band: Band | None = None
    """The band the verdict was reached on (on a judgement of the position)."""
    finish: Finish | None = None
    """The solved line the verdict rests on (the last open points played out), if any."""
    reproduced: Reproduced | None = None
    """For a match: what of RE it reproduced."""
    assumptions: tuple[Finding, ...] = ()

    @property
    def status(self) -> CheckStatus:
        return self.code.status

    @property
    def label(self) -> str | None:
        """The reading's name."""
        return self.reading or (self.under.label if self.under is not None else None)


@dataclass(frozen=True)
class ResultCheck(Decision):
    """The verdict on RE: the decision, with RE as written, the basis it rests on, whether the
    game ended by two passes, the estimate's least sure decision and every assumption; built
    once by :func:`~sgfcheck.verdict.decide.check_result` and never changed after (a
    second opinion makes a new one)."""

    recorded: str | None = None
    basis: Basis | None = None
    finished: bool = False
    """The game ended by two passes."""
    least_confidence: float | None = None
    second: Second | None = None
    """What a second judge (an engine, ``--engine auto``) made of the verdict, if asked."""

    def seconded(self, second: Second) -> ResultCheck:
        """The same verdict, with what a second judge made of it."""
        return replace(self, second=second)


@dataclass(frozen=True)
class Outcome:
    """The count of the position under one reading, one way the doubtful chains may go."""

    reading: Reading
    way: str
    """``as judged``, or how the doubtful chains go (``W H5 dead``)."""
    score: Score
    band: Band | None = None
    """The count's band (on a judgement of the position), if worked out."""
    settled: bool = True
    """The way turns only unsettled chains (False: it also turns a decision the estimate made
    with less confidence: counted for the wide band only)."""
    finish: Finish | None = None
    """Where the count is the solved count (the last open points played out as well as
    possible by both sides, :mod:`sgfcheck.endgame.finish`): the solved line."""

    @property
    def solved(self) -> bool:
        return self.finish is not None


def recorded_margin(result: Result) -> float:
    if result.kind is ResultKind.DRAW:
        return 0.0
    assert result.margin is not None
    return result.margin if result.winner == BLACK else -result.margin


def recorded_winner(result: Result) -> object:
    return None if result.kind is ResultKind.DRAW else result.winner



def colour_number(colour: object) -> int | None:
    return None if colour is None else int(colour)  # type: ignore[call-overload]


def where(o: Outcome) -> str:
    return o.reading.label + ("" if o.way == AS_JUDGED else f", {o.way}")


_MATCHED = {Reproduced.MARGIN: Reason.EXACT, Reproduced.SOLVED: Reason.SOLVED,
            Reproduced.NEAR: Reason.NEAR_SOLVED, Reproduced.WINNER: Reason.WINNER}
"""The reason of a match by one outcome, by what it reproduced."""


def matched(hit: Outcome, result: Result, reproduced: Reproduced) -> Decision:
    """A match by one count: ``hit`` gives what ``reproduced`` names of RE."""
    reading = hit.reading
    exact = reproduced in (Reproduced.MARGIN, Reproduced.SOLVED)
    delta = None if result.kind is ResultKind.WIN else 0.0 if exact else (
        hit.score.margin - recorded_margin(result))
    assumptions = list(reading.assumptions)
    if hit.finish is not None and hit.finish.to_move_assumed is not None:
        assumptions.append(side_to_move(hit.finish.to_move_assumed))
    facts = Match(reproduced, hit.score.result_text, reading.label, reading.own, hit.way,
                  result.raw or "", delta, result.kind is not ResultKind.WIN, hit.finish)
    return Decision(_MATCHED[reproduced], facts, hit.score.result_text, reading, delta=delta,
                    band=hit.band if hit.solved else None, finish=hit.finish,
                    reproduced=reproduced, assumptions=tuple(assumptions))


def side_to_move(assumed: str) -> Finding:
    """``RES011``: the solved count starts from a side to move a record without passes
    implies."""
    return Finding(F.RES_TO_MOVE_ASSUMED, f"the last points were played out with {assumed}")


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
