"""A second opinion on RE: which verdicts of the built-in judge are put to an engine under
``--engine auto``, and how the two verdicts make the one the user reads.

The estimate (Benson's proofs, then playouts) decides most games; where its verdict would raise an
alarm (a mismatch) or stays open because of its own judgement of the position (chains it could
not decide, points it leaves to nobody, a band too wide), the game is counted again on the
engine's dead stones and ownership (:func:`wanted`). The two verdicts then make one
(:func:`combined`): an alarm stands only where both judges give it; an open verdict is decided
by the engine only where its count gives RE (a match); where the engine's count disagrees with an
open estimate, the verdict stays open, saying what the engine gave. A flipped or moved result is
thus never confirmed by one judge against the other's doubt, and no alarm rests on one judgement.
"""

from __future__ import annotations

from dataclasses import replace

from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.judge.gnugo import find_gnugo
from sgfcheck.judge.install import katago_usable
from sgfcheck.scoring.verdict import REASONS, CheckStatus, ResultCheck
from sgfcheck.settings import DeadStoneChoice
from sgfcheck.status import Source

OPEN_ON_THE_JUDGEMENT = frozenset({"RES122", "RES124", "RES126", "RES127", "RES128",
                                   "RES129", "RES130"})
"""Unverifiable verdicts that rest on the built-in judgement of the position (an engine's own
may decide them): stopped far from the end, undecided chains, a band that does not decide, the
solved count not RE. Not asked: no dead-stone information, a winner without margin that depends
on the reading, an unknown komi, an assumption about the record (an engine changes none)."""


DECIDES = frozenset({"RES101", "RES102", "RES105"})
"""The engine's matches that decide an open verdict: its count gives RE exactly, as it stands or
with the last open points played out, or its winner within half a point; or RE lies in its band
and is its count with every settled decision (:func:`decides`). A match only because RE lies
somewhere in a band, or on the winner alone, does not: on professional records (pro19, every
4th file) such matches took margins moved by 2 points as a match twice as often (95 of 202
against 47) and a flipped winner."""


def decides(engine: ResultCheck) -> bool:
    """The engine's verdict gives RE: :data:`DECIDES`, or a band match whose count is RE."""
    if engine.status is not CheckStatus.MATCH:
        return False
    return engine.code in DECIDES or (engine.code == "RES104" and engine.delta is not None
                                      and abs(engine.delta) < 1e-9)


def second_judge() -> DeadStoneChoice | None:
    """The engine asked for a second opinion: KataGo where it is installed, else GNU Go where it
    is, else none."""
    if katago_usable():
        return DeadStoneChoice.KATAGO
    if find_gnugo() is not None:
        return DeadStoneChoice.GNUGO
    return None


JUDGES = {DeadStoneChoice.KATAGO: ("KataGo", "KataGo's dead stones and ownership"),
          DeadStoneChoice.GNUGO: ("GNU Go", "GNU Go's dead stones")}
"""Each second judge's name and what of its judgement a count rests on."""


def wanted(check: ResultCheck | None, dead: DeadStones | None) -> bool:
    """The verdict rests on the estimate and is a mismatch, or is open because of it."""
    if check is None or dead is None or dead.source is not Source.ESTIMATE:
        return False
    return check.status is CheckStatus.MISMATCH or (
        check.status is CheckStatus.UNVERIFIABLE and check.code in OPEN_ON_THE_JUDGEMENT)


def combined(estimate: ResultCheck, engine: ResultCheck, judge: DeadStoneChoice,
             recorded: str) -> tuple[ResultCheck, bool]:
    """The verdict of the two judges, and whether it is the engine's (its count the answer's).

    - The estimate's mismatch: the engine's verdict is the answer (a mismatch only where the
      engine's count confirms it).
    - The estimate's open verdict: the engine's match decides it where its count gives RE
      (:func:`decides`); any other verdict of the engine leaves it open, with what the engine
      gave."""
    engine_name, words = JUDGES[judge]
    first = (f"the estimate's dead stones gave {estimate.computed} ({estimate.reading}) against "
             f"RE[{recorded}]")
    if estimate.status is CheckStatus.MISMATCH:
        if engine.status is CheckStatus.MISMATCH:
            said = f"; {engine_name}'s dead stones confirm the mismatch ({first} too)"
        else:
            said = (f"; {engine_name}'s dead stones were asked because {first}, a mismatch "
                    "they do not confirm")
        return replace(engine, reason=engine.reason + said), True
    why = REASONS.get(estimate.code, estimate.reason).removeprefix("unverifiable: ")
    if decides(engine):
        said = (f"; decided by {words}: the estimate left it "
                f"open ({estimate.code}: {why})")
        return replace(engine, reason=engine.reason + said), True
    gave = engine.computed or "no count"
    said = (f"; {engine_name}, asked too (--engine auto), counts {gave} ({engine.code}: "
            f"{REASONS.get(engine.code, engine.status.value)}), which does not decide it")
    return replace(estimate, reason=estimate.reason + said), False
