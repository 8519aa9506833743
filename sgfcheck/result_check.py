"""The result check: is the recorded result (RE) what the count gives under the game's rules?

The verdict is one of four :class:`CheckStatus` values, with a reason a tournament director can
read: ``match``; ``mismatch`` (computed, recorded, and the difference for Black; a mismatch on
estimated dead stones says so); ``not-scored`` (resignation, time, forfeit, void, no score
recorded); ``unverifiable`` (no dead-stone information and no end by two passes, or a winner that
depends on chains the estimate left uncertain).
"""

from __future__ import annotations

from dataclasses import dataclass

from sgfcheck.colour import BLACK
from sgfcheck.count import Score
from sgfcheck.deadstones import DeadStones
from sgfcheck.results import Result, ResultKind
from sgfcheck.status import Source
from sgfcheck.strenum import StrEnum


class CheckStatus(StrEnum):
    MATCH = "match"
    MISMATCH = "mismatch"
    NOT_SCORED = "not-scored"
    UNVERIFIABLE = "unverifiable"


@dataclass
class ResultCheck:
    status: CheckStatus
    reason: str
    computed: str | None = None
    recorded: str | None = None
    delta: float | None = None
    """Computed minus recorded margin, for Black."""


_NOT_PLAYED_OUT = (ResultKind.RESIGN, ResultKind.TIME, ResultKind.FORFEIT)


def check_result(result: Result, score: Score | None, dead: DeadStones,
                 final: bool) -> ResultCheck:
    """Is the recorded result right under the game's own rules?"""
    if result.kind in _NOT_PLAYED_OUT:
        return ResultCheck(CheckStatus.NOT_SCORED, f"the game ended by {result.kind}",
                           recorded=result.raw)
    if result.kind in (ResultKind.VOID, ResultKind.UNKNOWN) or score is None:
        return ResultCheck(CheckStatus.NOT_SCORED,
                           f"no recorded score ({result.note or result.kind})",
                           recorded=result.raw)
    if dead.assumed and not final:
        return ResultCheck(CheckStatus.UNVERIFIABLE, "no dead-stone information and the game "
                           "did not end with two passes", computed=score.result_text,
                           recorded=result.raw)
    computed_margin = score.margin  # Black - White
    if result.kind is ResultKind.DRAW:
        recorded_margin = 0.0
    else:
        assert result.margin is not None
        recorded_margin = result.margin if result.winner == BLACK else -result.margin
    delta = computed_margin - recorded_margin
    same_winner = score.winner == (result.winner if result.kind is not ResultKind.DRAW else None)
    if abs(delta) < 1e-6 and same_winner:
        return ResultCheck(CheckStatus.MATCH, "the count gives the recorded result",
                           computed=score.result_text, recorded=result.raw, delta=0.0)
    reason = f"computed {score.result_text}, recorded {result.raw} ({delta:+g} for Black)"
    if dead.source is Source.ESTIMATE:
        reason += "; dead stones estimated from the position, not marked by the players"
    if dead.assumed:
        return ResultCheck(CheckStatus.UNVERIFIABLE, reason + "; no dead-stone information: "
                           "every stone was counted alive, and dead stones may still be on the "
                           "board", computed=score.result_text, recorded=result.raw, delta=delta)
    return ResultCheck(CheckStatus.MISMATCH, reason, computed=score.result_text,
                       recorded=result.raw, delta=delta)


def check_result_uncertain(result: Result, outcomes: list[tuple[str, Score]],
                           dead: DeadStones, final: bool) -> ResultCheck:
    """The result check when the dead stones leave chains undecided: ``outcomes`` are the counts
    under the game's rules for each way the uncertain chains may go (described by the string).
    The result is checked only when every way gives the same winner; else it is
    ``unverifiable``, naming the chains."""
    base = outcomes[0][1]
    single = check_result(result, base, dead, final)
    if single.status is CheckStatus.NOT_SCORED or len(outcomes) == 1:
        return single
    names = "; ".join(f"{how}: {score.result_text}" for how, score in outcomes)
    winners = {score.winner for _, score in outcomes}
    if len(winners) > 1:
        return ResultCheck(CheckStatus.UNVERIFIABLE, "the winner depends on chains the estimate "
                           f"could not decide ({names})", computed=base.result_text,
                           recorded=result.raw)
    for how, score in outcomes:
        check = check_result(result, score, dead, final)
        if check.status is CheckStatus.MATCH:
            return ResultCheck(CheckStatus.MATCH, f"the count gives the recorded result when "
                               f"{how}; the winner is the same whichever way the uncertain "
                               "chains go", computed=score.result_text, recorded=result.raw,
                               delta=0.0)
    single.reason += f"; whichever way the uncertain chains go ({names})"
    return single
