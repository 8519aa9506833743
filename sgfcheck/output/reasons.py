"""The one sentence a verdict on RE says why in (text, HTML and the JSON's ``reason``): made
from its reason code and the facts it carries (:mod:`sgfcheck.verdict.reasons`), never written
where the verdict is decided.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgfcheck.engineregistry import BY_NAME
from sgfcheck.margins import band_text, margin_text
from sgfcheck.verdict import reasons as R

if TYPE_CHECKING:
    from sgfcheck.endgame.finish import Finish
    from sgfcheck.scoring.gamescore import GameScore
    from sgfcheck.verdict.decision import ResultCheck


def reason_of(game: GameScore) -> str:
    """The sentence of a game's verdict ("" without one)."""
    return "" if game.result_check is None else sentence(game.result_check)


def sentence(check: ResultCheck) -> str:
    """Why the verdict is what it is."""
    said = _said(check.code, check.facts)
    if check.second is not None:
        said += _second(check.second)
    return said


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


def komi_need(need: R.KomiNeed) -> str:
    """``a komi of 6.5``, ``a komi of more than 4``."""
    if need.side is not None:
        return f"a komi of {need.side} than {need.komi:g}"
    return f"a komi of {need.komi:g}"


def _said(code: R.Reason | None, facts: R.Facts) -> str:
    match facts:
        case R.Plain():
            # A reason with no facts of its own says what its code means.
            if code is None:
                return ""
            return _PLAIN.get(code) or code.meaning.partition(": ")[2]
        case R.Ended():
            return f"the game ended by {facts.how}"
        case R.NoScore():
            return f"no recorded score ({facts.what})"
        case R.KomiUnknown():
            return (f"the komi is unknown ({facts.why}): the count before komi gives "
                    f"{facts.counted}; RE[{facts.recorded}] would need {komi_need(facts.need)}")
        case R.FarFromEnd():
            return _far_from_end(facts)
        case R.Match():
            return _match(facts)
        case R.BandMatch():
            return _band_match(facts)
        case R.ReadingDecides():
            shown = "; ".join(f"{where}: {_count(count)}" for where, count in facts.counts)
            return (f"the winner depends on the reading ({shown}), and RE[{facts.recorded}] has "
                    "no margin to tell them apart")
        case R.BandUndecided():
            return (f"RE[{facts.recorded}] lies in the count's band but the band does not decide "
                    f"it ({_bands(facts.wide)}; the estimate's less sure decisions turned "
                    "too); the open points and unsettled chains decide it: the players' markup "
                    "or an engine (--engine katago) would settle them")
        case R.OffBand():
            return _off_band(code, facts)
        case R.AsCounted():
            return _as_counted(code, facts)
        case R.UndecidedChains():
            names = "; ".join(f"{way}: {count}" for way, count in facts.ways)
            return f"the winner depends on chains the estimate could not decide ({names})"
        case R.InBandNotSolved():
            counts = "; ".join(f"{count} under {reading}" for count, reading in facts.solved)
            return (f"RE[{facts.recorded}] lies in the count's band "
                    f"({band_text(facts.band)}, {facts.reading}) but is not the solved "
                    f"count ({counts}: {played_out(facts.finish)}); the players may have lost "
                    "points in the last moves, or counted otherwise: not called a mismatch")
        case R.OnAssumption():
            said = (_said(facts.reason, facts.facts) + "; but the count rests on an "
                    "assumption about the record, not on the record: " + "; ".join(facts.doubts))
            if facts.need is not None:
                said += f"; RE[{facts.recorded}] would need {komi_need(facts.need)}"
            return said
    raise AssertionError(facts)


_PLAIN = {
    R.Reason.STUB: "the record stops before any position worth counting: no point of the board "
                 "is anyone's yet",
    R.Reason.UNFINISHED_UNMARKED: "no dead-stone information and the game did not end with two "
                                "passes",
}


def _count(count: str | R.NamedBand) -> str:
    return count if isinstance(count, str) else band_text(count, most=3)


def _bands(wide: tuple[R.BandAt, ...]) -> str:
    return "; ".join(f"{label}: {band_text(band, most=3)}" for label, band in wide)


def _far_from_end(facts: R.FarFromEnd) -> str:
    said = (f"the game stopped far from a finished position ({facts.open_share:.0%} of the "
            f"board still open to both colours): its count ({facts.counted}, {facts.reading}) "
            f"cannot confirm or contradict RE[{facts.recorded}]")
    if not facts.margin:
        said += ("; a result without a margin on such a record is most often a win by "
                 "resignation or on time")
    return said


def _match(facts: R.Match) -> str:
    exact = facts.reproduced in (R.Reproduced.MARGIN, R.Reproduced.SOLVED)
    what = "the recorded result" if exact else "the recorded winner"
    said = f"the count gives {what}"
    if facts.finish is not None:
        said = f"the solved count gives {what}: {played_out(facts.finish)}"
        if facts.reproduced is R.Reproduced.NEAR:
            said = (f"the solved count ({facts.counted}) gives the recorded winner, "
                    f"{abs(facts.delta or 0):g} point from RE[{facts.recorded}]: "
                    f"{played_out(facts.finish)}; the winner is confirmed, not the margin (a "
                    "point can go astray in the last moves or in the count)")
    if not facts.own:
        said += f" under {facts.reading}, not the record's own reading"
    if facts.way != R.AS_JUDGED:
        said += (f" when {facts.way}; the winner is the same whichever way the doubtful chains "
                 "go")
    if facts.reproduced is R.Reproduced.WINNER and facts.margin:
        said += f", not the margin ({facts.counted})"
    return said


def _band_match(facts: R.BandMatch) -> str:
    what = {"winner": "the recorded winner wins throughout the count's band",
            "in band": "the recorded result lies in the count's band",
            "sealed": "the count with every settled decision gives the recorded result, and "
                      "nothing on the board is left open (the band's point each way is the move "
                      "in hand)"}[facts.how]
    said = f"{what} ({band_text(facts.band)}, {facts.reading})"
    if not facts.own:
        said += ", not the record's own reading"
    if facts.solved is not None:
        count, finish = facts.solved
        said += (f"; the solved count is {count} ({played_out(finish)}): the winner is "
                 "confirmed, not the margin")
    return said


def _off_band(code: R.Reason | None, facts: R.OffBand) -> str:
    head = (f"computed {margin_text(facts.settled)} ({facts.reading}), recorded "
            f"{facts.recorded}: ")
    shown = _bands(facts.wide)
    if code is R.Reason.JUST_OUTSIDE:
        return (head + f"{facts.distance:g} point(s) outside the count's band ({shown}); the "
                f"game did not end with two passes, and a stopped game may still hold up to "
                f"{facts.slack:g} points the band cannot see (protective moves, a last ko): too "
                "close to call")
    if code is R.Reason.MARGIN_FROM_ELSEWHERE:
        winner = ("the winner agrees" if facts.confirmed
                  else "the recorded winner wins part of the band")
        said = (head + f"{winner}, the margin lies {facts.distance:g} point(s) outside the "
                f"count's band ({shown}); the game did not end with two passes, and ")
        if facts.units is not None:
            return said + (f"RE's margin is not a count in points as written ({facts.units}): "
                           "the margin rests on reading the record's units, so it is not called "
                           "a mismatch")
        return said + ("a stopped record's margin may come from a count the record does not "
                       "hold (moves not recorded, a server's count at resignation): not called "
                       "a mismatch")
    what = (f"the recorded result lies {facts.distance:g} point(s) outside"
            if facts.distance is not None else "the other colour wins throughout")
    said = (head + f"{what} the count's band under every reading checked ({shown}); "
            f"{facts.why}")
    if facts.sealed:
        said += (", but nothing on the board is left open (no open point, no unsettled chain, "
                 "no less sure decision moves the count): the band holds the move in hand")
    elif facts.open_winner:
        said += (", and the band does not confirm the recorded winner either (either colour "
                 "may win it): no count of the position gives RE")
    return said


def _as_counted(code: R.Reason | None, facts: R.AsCounted) -> str:
    said = (f"computed {facts.counted} ({facts.reading}), recorded {facts.recorded}"
            + ("" if facts.delta is None else f" ({facts.delta:+g} for Black)"))
    if code is R.Reason.EVERY_STONE_ALIVE:
        return said + ("; no dead-stone information: every stone was counted alive, and dead "
                       "stones may still be on the board")
    if code is R.Reason.NOT_FIRM:
        shown = "; ".join(f"{where}: {count}" for where, count in facts.agreeing)
        return said + (f"; not a firm disagreement ({facts.why}): the recorded winner comes out "
                       f"under other plausible readings ({shown})")
    if facts.ways:
        said += "; whichever way the doubtful chains go"
    if facts.readings:
        said += f"; under every reading checked ({'; '.join(facts.readings)})"
    return said


def _second(second: R.Second) -> str:
    """What the second judge made of the verdict, after the verdict's own sentence."""
    engine = BY_NAME[second.engine].shown if second.engine in BY_NAME else second.engine
    first = (f"the estimate's dead stones gave {second.other_computed} ({second.other_reading}) "
             f"against RE[{second.recorded}]")
    if second.answer is R.Answer.CONFIRMED:
        return f"; {engine}'s dead stones confirm the mismatch ({first} too)"
    if second.answer is R.Answer.NOT_CONFIRMED:
        return (f"; {engine}'s dead stones were asked because {first}, a mismatch they do not "
                "confirm")
    if second.answer is R.Answer.DECIDED:
        words = f"{engine}'s dead stones" + (" and ownership" if second.ownership else "")
        why = (second.other_code.meaning if second.other_code is not None else ""
               ).removeprefix("unverifiable: ")
        return f"; decided by {words}: the estimate left it open ({second.other_code}: {why})"
    gave = f"{engine}, asked too (--engine auto), counts {second.other_computed or 'nothing'}"
    code = second.other_code
    if second.other_status is R.CheckStatus.MATCH:
        return (f"; {gave}: RE's winner alone ({code}), so it stays open"
                if code is R.Reason.WINNER else
                f"; {gave}: RE lies in its band but is not its count ({code}), so it stays open")
    if second.other_status is R.CheckStatus.MISMATCH:
        return f"; {gave}, a mismatch ({code}) the estimate does not confirm, so it stays open"
    return f"; {gave} and leaves it open too ({code})"
