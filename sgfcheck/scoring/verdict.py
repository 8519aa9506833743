"""The verdict on a recorded result, as values: its status and the stable code of its reason
(:data:`REASONS`), the basis it rests on, the counts it weighed (:class:`Outcome`), and the draft a
check fills in before it is frozen into a :class:`ResultCheck`. The rules that decide are in
:mod:`sgfcheck.scoring.result_check` (and, for a count read as a band,
:mod:`sgfcheck.scoring.bandcheck`); the words of each reason are theirs, the code is the one to
rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from sgfcheck import findings as F
from sgfcheck.colour import BLACK
from sgfcheck.endgame.finish import Finish
from sgfcheck.findings import Finding
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.judge.registry import ENGINE_SOURCES
from sgfcheck.records.results import Result, ResultKind
from sgfcheck.scoring.band import Band
from sgfcheck.scoring.conventions import Reading
from sgfcheck.scoring.count import Score
from sgfcheck.status import Source, Status, StrEnum

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


class CheckStatus(StrEnum):
    MATCH = "match"
    MISMATCH = "mismatch"
    NOT_SCORED = "not-scored"
    UNVERIFIABLE = "unverifiable"


class Basis(StrEnum):
    """What a result check rests on: where the dead stones come from, and so how firm the count
    is."""

    MARKUP = "markup"
    """The players' agreement (TB/TW on the final node)."""
    USER = "user"
    """The user's dead stones (``--dead``, ``--alive``)."""
    FINISHED = "finished"
    """A game ended by two passes, counted as it stands (only stones proven dead removed)."""
    ENGINE = "engine"
    """An engine's judgement (GNU Go, KataGo)."""
    ESTIMATE = "estimate"
    """sgfcheck's estimate (proofs, then playouts)."""
    PROOF = "proof"
    """Only stones proven dead removed, in a game that did not end by two passes."""

    @property
    def firm(self) -> bool:
        return self in (Basis.MARKUP, Basis.USER, Basis.FINISHED)


_BASIS = {Source.MARKUP: Basis.MARKUP, Source.USER_DEAD: Basis.USER,
          Source.USER_ALIVE: Basis.USER, Source.ESTIMATE: Basis.ESTIMATE,
          **{source: Basis.ENGINE for source in ENGINE_SOURCES}}


def basis_of(dead: DeadStones, final: bool) -> Basis:
    found = _BASIS.get(dead.source)
    if found is not None:
        return found
    return Basis.FINISHED if final else Basis.PROOF


def least_confidence(dead: DeadStones) -> float | None:
    """The estimate's least sure decision (uncertain chains excluded), if any."""
    if dead.judgement is None:
        return None
    decided = [c.confidence for c in dead.judgement.chains
               if c.source is Source.ESTIMATE and c.status is not Status.UNCERTAIN]
    return min(decided) if decided else None


class Reproduced(StrEnum):
    """What of RE a match reproduced."""

    MARGIN = "margin"
    """The margin, exactly."""
    SOLVED = "solved"
    """The margin, exactly, by the solved count (the last open points played out)."""
    NEAR = "near"
    """The winner, by a solved count within half a point of RE."""
    BAND = "band"
    """The result lies in the count's band."""
    WINNER = "winner"
    """The winner alone."""


class Reason(StrEnum):
    """Why a verdict on RE is what it is: a stable code (``result_check.code`` in the JSON; the
    manual's findings page lists them), with the status it gives and what it means."""

    EXACT = "RES101"
    SOLVED = "RES102"
    WINNER = "RES103"
    IN_BAND = "RES104"
    NEAR_SOLVED = "RES105"
    NO_WAY_GIVES_RE = "RES111"
    OUTSIDE_EVERY_BAND = "RES112"
    UNFINISHED_UNMARKED = "RES121"
    FAR_FROM_END = "RES122"
    EVERY_STONE_ALIVE = "RES123"
    UNDECIDED_CHAINS = "RES124"
    READING_DECIDES = "RES125"
    NOT_FIRM = "RES126"
    IN_BAND_NOT_SOLVED = "RES127"
    BAND_UNDECIDED = "RES128"
    JUST_OUTSIDE = "RES129"
    MARGIN_FROM_ELSEWHERE = "RES130"
    KOMI_UNKNOWN = "RES131"
    ON_AN_ASSUMPTION = "RES132"
    NOT_PLAYED_OUT = "RES141"
    NO_SCORE = "RES142"
    STUB = "RES143"

    @property
    def status(self) -> CheckStatus:
        """The verdict this reason gives."""
        return _REASONS[self][0]

    @property
    def meaning(self) -> str:
        """What the code means, led by its verdict (``match: the count gives ...``)."""
        return _REASONS[self][1]


_M, _X, _U, _N = (CheckStatus.MATCH, CheckStatus.MISMATCH, CheckStatus.UNVERIFIABLE,
                  CheckStatus.NOT_SCORED)
_REASONS: dict[Reason, tuple[CheckStatus, str]] = {
    Reason.EXACT: (_M, "match: the count gives the recorded result exactly"),
    Reason.SOLVED: (_M, "match: the solved count (the last open points played out) gives the "
                        "recorded result"),
    Reason.WINNER: (_M, "match: the count gives the recorded winner (RE without a margin, or "
                        "the winner alone confirmed)"),
    Reason.IN_BAND: (_M, "match: the recorded result lies in the count's band, which gives its "
                         "winner throughout"),
    Reason.NEAR_SOLVED: (_M, "match on the winner: the solved count gives the recorded winner "
                             "and lies within half a point of RE (every chain settled, the "
                             "record's own rules and komi)"),
    Reason.NO_WAY_GIVES_RE: (_X, "mismatch: no reading and no way of the doubtful chains gives "
                                 "the recorded result"),
    Reason.OUTSIDE_EVERY_BAND: (_X, "mismatch: the recorded result lies outside the count's "
                                    "band under every reading"),
    Reason.UNFINISHED_UNMARKED: (_U, "unverifiable: no dead-stone information, and the game "
                                     "did not end with two passes"),
    Reason.FAR_FROM_END: (_U, "unverifiable: the game stopped far from a finished position"),
    Reason.EVERY_STONE_ALIVE: (_U, "unverifiable: no dead-stone information (every stone "
                                   "counted alive)"),
    Reason.UNDECIDED_CHAINS: (_U, "unverifiable: the winner depends on chains the estimate "
                                  "could not decide"),
    Reason.READING_DECIDES: (_U, "unverifiable: the winner depends on the reading, and RE has "
                                 "no margin"),
    Reason.NOT_FIRM: (_U, "unverifiable: not a firm disagreement, the recorded winner comes "
                          "out under other plausible readings"),
    Reason.IN_BAND_NOT_SOLVED: (_U, "unverifiable: RE lies in the count's band but is not the "
                                    "solved count"),
    Reason.BAND_UNDECIDED: (_U, "unverifiable: RE lies in the count's band, which does not "
                                "decide it"),
    Reason.JUST_OUTSIDE: (_U, "unverifiable: RE lies just outside the band of a game that did "
                              "not end with two passes (too close to call)"),
    Reason.MARGIN_FROM_ELSEWHERE: (_U, "unverifiable: the margin lies outside the band of a "
                                       "stopped record whose margin may come from a count it "
                                       "does not hold, or from its units"),
    Reason.KOMI_UNKNOWN: (_U, "unverifiable: the komi is unknown"),
    Reason.ON_AN_ASSUMPTION: (_U, "unverifiable: the disagreement rests on an assumption about "
                                  "the record"),
    Reason.NOT_PLAYED_OUT: (_N, "not scored: the game ended by resignation, time or forfeit"),
    Reason.NO_SCORE: (_N, "not scored: no recorded score"),
    Reason.STUB: (_N, "not scored: the record stops before any position worth counting (no "
                      "point of the board is anyone's yet, neither enclosed nor settled by the "
                      "judgement)"),
}

REASONS: dict[str, str] = {reason.value: reason.meaning for reason in Reason}
"""Every reason's code and what it means, by the code as written (the manual's findings page
lists them)."""


@dataclass(frozen=True)
class ResultCheck:
    """The verdict on RE, built once by :func:`check_result` and never changed after (a later
    step that adds to it makes a new one with :func:`dataclasses.replace`)."""

    status: CheckStatus
    reason: str
    computed: str | None = None
    recorded: str | None = None
    delta: float | None = None
    """Computed minus recorded margin, for Black (under the reading named in ``reading``)."""
    basis: Basis | None = None
    finished: bool = False
    """The game ended by two passes."""
    least_confidence: float | None = None
    reading: str | None = None
    """The ruleset and komi the verdict was reached under."""
    reproduced: Reproduced | None = None
    """For a match: what of RE it reproduced."""
    band: Band | None = None
    """The band the verdict was reached on (on a judgement of the position)."""
    assumptions: tuple[Finding, ...] = ()
    finish: Finish | None = None
    """The solved line the verdict rests on (the last open points played out), if any."""
    code: Reason | None = None
    """Why the verdict is what it is, as a stable code."""
    under: Reading | None = None
    """The reading the verdict was reached under (``reading`` names it): the rows and the
    outcomes are found by it, not by its name."""


@dataclass
class Draft:
    """A verdict while :func:`~sgfcheck.scoring.result_check.check_result` works it out (the
    fields of :class:`ResultCheck`); its status is set only with the reason's code
    (:meth:`decide`)."""

    status: CheckStatus
    reason: str
    computed: str | None = None
    recorded: str | None = None
    delta: float | None = None
    basis: Basis | None = None
    finished: bool = False
    least_confidence: float | None = None
    reading: str | None = None
    reproduced: Reproduced | None = None
    band: Band | None = None
    assumptions: list[Finding] = field(default_factory=list)
    finish: Finish | None = None
    code: Reason | None = None
    under: Reading | None = None

    def read_as(self, reading: Reading) -> None:
        """The verdict is reached under ``reading``."""
        self.reading, self.under = reading.label, reading

    def decide(self, reason: Reason) -> None:
        """The verdict a reason gives, with the reason."""
        self.status, self.code = reason.status, reason

    def frozen(self) -> ResultCheck:
        """The verdict, field for field (the draft holds exactly :class:`ResultCheck`'s)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["assumptions"] = tuple(self.assumptions)
        return ResultCheck(**values)


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


AS_JUDGED = "as judged"
NOT_PLAYED_OUT = (ResultKind.RESIGN, ResultKind.TIME, ResultKind.FORFEIT)


def recorded_margin(result: Result) -> float:
    if result.kind is ResultKind.DRAW:
        return 0.0
    assert result.margin is not None
    return result.margin if result.winner == BLACK else -result.margin


def recorded_winner(result: Result) -> object:
    return None if result.kind is ResultKind.DRAW else result.winner



def played_out(finish: Finish) -> str:
    """``the last 3 open points (H14, T7, T6) played out as well as possible by both sides``,
    with the settled points the search took as their owner's, if any."""
    names = finish.names
    played = sum(1 for _, point in finish.line if point is not None)
    if names:
        shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
        many = f"{len(names)} open points" if len(names) > 1 else "open point"
        out = f"the last {many} ({shown}) played out as well as possible by both sides"
    elif played:
        out = (f"no open point; the {played} moves still in hand (points to fill, captures) "
               "played out as well as possible by both sides")
    else:
        out = "nothing left open: no move changes the count"
    if finish.assumed:
        out += (f", {len(finish.assumed)} settled points not yet enclosed taken as their "
                "owner's")
    return out



def colour_number(colour: object) -> int | None:
    return None if colour is None else int(colour)  # type: ignore[call-overload]


def where(o: Outcome) -> str:
    return o.reading.label + ("" if o.way == AS_JUDGED else f", {o.way}")


def readings_text(outcomes: list[Outcome]) -> str:
    return "; ".join(dict.fromkeys(o.reading.label for o in outcomes))


_MATCHED = {Reproduced.MARGIN: Reason.EXACT, Reproduced.SOLVED: Reason.SOLVED,
            Reproduced.NEAR: Reason.NEAR_SOLVED, Reproduced.WINNER: Reason.WINNER}
"""The reason of a match by one outcome, by what it reproduced."""


def matched(out: Draft, hit: Outcome, result: Result, reproduced: Reproduced,
           notes: list[Finding]) -> Draft:
    reading = hit.reading
    out.decide(_MATCHED[reproduced])
    out.computed = hit.score.result_text
    out.read_as(reading)
    out.reproduced = reproduced
    out.finish = hit.finish
    out.band = hit.band if hit.solved else out.band
    out.delta = None if result.kind is ResultKind.WIN else 0.0 if reproduced in (
        Reproduced.MARGIN, Reproduced.SOLVED) else hit.score.margin - recorded_margin(result)
    what = ("the recorded result" if reproduced in (Reproduced.MARGIN, Reproduced.SOLVED)
            else "the recorded winner")
    reason = f"the count gives {what}"
    if hit.finish is not None:
        reason = f"the solved count gives {what}: {played_out(hit.finish)}"
    if reproduced is Reproduced.NEAR:
        reason = (f"the solved count ({hit.score.result_text}) gives the recorded winner, "
                  f"{abs(out.delta or 0):g} point from RE[{result.raw}]: "
                  f"{played_out(hit.finish)}; the winner is confirmed, not the margin (a "
                  "point can go astray in the last moves or in the count)"
                  if hit.finish is not None else reason)
    if not reading.own:
        reason += f" under {reading.label}, not the record's own reading"
    if hit.way != AS_JUDGED:
        reason += (f" when {hit.way}; the winner is the same whichever way the doubtful chains "
                   "go")
    if reproduced is Reproduced.WINNER and result.kind is not ResultKind.WIN:
        reason += f", not the margin ({hit.score.result_text})"
    out.reason = reason
    out.assumptions.extend(reading.assumptions)
    out.assumptions.extend(notes)
    if hit.finish is not None and hit.finish.to_move_assumed is not None:
        out.assumptions.append(side_to_move(hit.finish.to_move_assumed))
    return out


def side_to_move(assumed: str) -> Finding:
    """``RES011``: the solved count starts from a side to move a record without passes
    implies."""
    return Finding(F.RES_TO_MOVE_ASSUMED, f"the last points were played out with {assumed}")
