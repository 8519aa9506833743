"""A second opinion on RE: which verdicts of the built-in judge are put to an engine under
``--engine auto``, and how the two verdicts make the one the user reads.

The estimate (Benson's proofs, then playouts) decides most games; where its verdict would raise an
alarm (a mismatch) or stays open because of its own judgement of the position (chains it could
not decide, points it leaves to nobody, a band too wide), the game is counted again on the
engine's dead stones and ownership (:func:`wanted`). The two verdicts then make one
(:func:`combined`): where an engine answers, an alarm stands only where both judges give it; an
open verdict is decided by the engine only where its count gives RE (a match); where the engine's
count disagrees with an open estimate, the verdict stays open, saying what the engine gave. A
flipped or moved result is thus never confirmed by one judge against the other's doubt. Where
no engine is installed or it fails, the estimate's verdict stands, resting on the estimate, as
its basis says.
"""

from __future__ import annotations

from sgfcheck.engineregistry import ENGINES
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.judge.engines import installed
from sgfcheck.records.results import Result, ResultKind
from sgfcheck.settings import DeadStoneChoice
from sgfcheck.status import Source
from sgfcheck.verdict.decision import ResultCheck
from sgfcheck.verdict.reasons import Answer, CheckStatus, Reason, Second

OPEN_ON_THE_JUDGEMENT = frozenset({Reason.FAR_FROM_END, Reason.UNDECIDED_CHAINS,
                                   Reason.NOT_FIRM, Reason.IN_BAND_NOT_SOLVED,
                                   Reason.BAND_UNDECIDED, Reason.JUST_OUTSIDE,
                                   Reason.MARGIN_FROM_ELSEWHERE})
"""Unverifiable verdicts that rest on the built-in judgement of the position (an engine's own
may decide them): stopped far from the end, undecided chains, a band that does not decide, the
solved count not RE. Not asked: no dead-stone information, a winner without margin that depends
on the reading, an unknown komi, an assumption about the record (an engine changes none)."""


DECIDES = frozenset({Reason.EXACT, Reason.SOLVED, Reason.NEAR_SOLVED})
"""The engine's matches that decide an open verdict: its count gives RE exactly, as it stands or
with the last open points played out, or its winner within half a point. A match only because
RE lies in the engine's band, or on the winner alone, does not. Measured on professional records
(pro19, every 4th file, 202 results with a margin): taking every match of the engine made 181
right results a match (160 without an engine) but also 95 margins moved by 2 points (47), and
a flipped winner-only result; taking a band match whose count is RE as well made 169 and 59;
these three alone 165 and 50."""


def decides(engine: ResultCheck) -> bool:
    """The engine's verdict gives RE (:data:`DECIDES`)."""
    return engine.status is CheckStatus.MATCH and engine.code in DECIDES


def second_judge() -> DeadStoneChoice | None:
    """The engine asked for a second opinion: the first of the registry's engines installed
    (KataGo, else GNU Go), else none."""
    found = next((e for e in ENGINES if installed(e.name)), None)
    return DeadStoneChoice(found.name) if found is not None else None


def wanted(check: ResultCheck | None, dead: DeadStones | None, result: Result) -> bool:
    """The verdict rests on the estimate and is a mismatch, or is open because of it and RE has
    a margin (only a count that gives RE decides an open verdict: a winner alone never is one,
    so the engine is not asked)."""
    if check is None or dead is None or dead.source is not Source.ESTIMATE:
        return False
    return check.status is CheckStatus.MISMATCH or (
        check.status is CheckStatus.UNVERIFIABLE and check.code in OPEN_ON_THE_JUDGEMENT
        and result.kind is ResultKind.SCORE and result.margin is not None)


def combined(estimate: ResultCheck, engine: ResultCheck, judge: DeadStoneChoice,
             ownership: bool, recorded: str) -> tuple[ResultCheck, bool]:
    """The verdict of the two judges, and whether it is the engine's (its count the answer's).

    - The estimate's mismatch: the engine's verdict is the answer (a mismatch only where the
      engine's count confirms it).
    - The estimate's open verdict: the engine's match decides it where its count gives RE
      (:func:`decides`); any other verdict of the engine leaves it open, with what the engine
      gave.

    ``ownership``: the engine's count rests on its ownership of the points too (KataGo)."""
    def second(answer: Answer, other: ResultCheck) -> Second:
        return Second(judge.value, ownership, answer, recorded, other.status, other.code,
                      other.computed, other.reading)

    if estimate.status is CheckStatus.MISMATCH:
        answer = (Answer.CONFIRMED if engine.status is CheckStatus.MISMATCH
                  else Answer.NOT_CONFIRMED)
        return engine.seconded(second(answer, estimate)), True
    if decides(engine):
        return engine.seconded(second(Answer.DECIDED, estimate)), True
    return estimate.seconded(second(Answer.LEFT_OPEN, engine)), False
