"""The verdict of a count read as a band (:mod:`sgfcheck.counting.band`): a game that did not end
with two passes, or dead stones judged, not agreed. A result with a margin is matched inside the
band of the unsettled chains when the band gives its winner throughout (and so does the wide band,
where the estimate's less sure decisions turn too); a winner alone where every reading's wide band
gives it. Outside the bands: too close to call, a margin the stopped record may owe to a count it
does not hold, or a mismatch (see :mod:`sgfcheck.verdict.decide` for the whole rule).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sgfcheck import findings as F
from sgfcheck.colour import BLACK
from sgfcheck.counting.band import Band, union
from sgfcheck.counting.ways import way_chains
from sgfcheck.findings import Finding
from sgfcheck.margins import band_text, margin_text
from sgfcheck.records.results import Result
from sgfcheck.verdict.decision import (
    AS_JUDGED,
    UNFINISHED_SLACK,
    Decision,
    Outcome,
    colour_number,
)
from sgfcheck.verdict.readings import Reading
from sgfcheck.verdict.reasons import (
    BandMatch,
    BandUndecided,
    Facts,
    OffBand,
    ReadingDecides,
    Reason,
    Reproduced,
    named,
)

Banded = dict[str, tuple[Reading, Band, Band]]
"""Each reading's label -> (the reading, its band over the unsettled chains, its wide band)."""


def bands(possible: list[Outcome]) -> Banded:
    """Each reading's band over every way its unsettled chains may go (as judged first), and
    its wide band over the ways that also turn the less sure decisions, when every outcome has
    a band."""
    if not possible or any(o.band is None for o in possible):
        return {}
    grouped: dict[str, list[Outcome]] = {}
    for o in possible:
        grouped.setdefault(o.reading.label, []).append(o)
    out = {}
    for label, group in grouped.items():
        settled = [o for o in group if o.settled]
        banded = [(o, o.band) for o in group if o.band is not None]
        out[label] = (group[0].reading,
                      union([b for o, b in banded if o.settled], _chains(settled)),
                      union([b for _, b in banded], _chains(group)))
    return out


def _chains(outcomes: list[Outcome]) -> tuple[str, ...]:
    """The chains the ways turn (``B N18``), in order."""
    return way_chains(o.way for o in outcomes if o.way != AS_JUDGED)


@dataclass(frozen=True)
class _Asked:
    """What the band check is asked: RE, its margin for Black (None: a winner alone) and winner
    (as a colour number, None for a draw), why the count is a band, whether the game ended by
    two passes, and how a point is named."""

    result: Result
    recorded: float | None
    want: int | None
    why: str
    final: bool
    show: Callable[[int], str]

    @property
    def raw(self) -> str:
        return self.result.raw or ""


def check_bands(result: Result, banded: Banded, recorded: float | None, wanted: object,
                why: str, final: bool, name: Callable[[int], str]) -> Decision:
    """The verdict of a count read as a band."""
    asked = _Asked(result, recorded, colour_number(wanted), why, final, name)
    wide = [(reading, band) for reading, _, band in banded.values()]
    # A result with a margin is matched in the band of the unsettled chains; a winner alone,
    # with no margin to cross-check, only where the estimate's less sure decisions turned too
    # leave the winner.
    items = ([(reading, band) for reading, band, _ in banded.values()] if recorded is not None
             else wide)
    reading, band = items[0]
    if recorded is None and len({b.decided_winner for _, b in items}) > 1:
        # A winner alone: the readings of a convention (komi 0, 6.5 or 7.5) must all give it.
        assumptions: list[Finding] = []
        for r, _ in items:
            assumptions.extend(a for a in r.assumptions if a not in assumptions)
        return Decision(Reason.READING_DECIDES,
                        ReadingDecides(tuple((r.label, named(b, asked.show)) for r, b in items[:4]),
                                       asked.raw),
                        _settled(band), reading, band=band, assumptions=tuple(assumptions))
    for label, (reading, band) in zip(list(banded), items, strict=True):
        if _decides(asked, band, banded[label][2]):
            return _band_match(asked, reading, band)
    return _undecided(asked, banded, items[0], wide)


def _settled(band: Band) -> str:
    """The count with every settled decision, as the verdict shows it."""
    return margin_text(band.settled).replace("jigo", "jigo (draw)")


def _decides(asked: _Asked, band: Band, wide: Band) -> bool:
    """Every count in the band gives RE: its winner throughout (a draw: the band is the draw
    alone), and the margin within it; or nothing on the board is left open and the count with
    every settled decision is RE (the band's point each way is the move in hand, which a
    stopped record does not hold)."""
    recorded, want = asked.recorded, asked.want
    if recorded is None:
        return band.decided_winner == want
    if sealed_band(wide) and abs(band.settled - recorded) < 1e-9:
        return True
    if want is None:
        return band.low == band.high == recorded
    # The winner must hold where the less sure decisions turn too: a band won throughout only
    # as the estimate judged it may rest on a misjudged chain.
    return (band.holds(recorded) and band.decided_winner == want
            and wide.decided_winner == want)


def _band_match(asked: _Asked, reading: Reading, band: Band) -> Decision:
    """RE decided by the band of ``reading``: a match, saying how."""
    recorded, result = asked.recorded, asked.result
    how = ("winner" if recorded is None else "in band" if band.decided_winner == asked.want
           else "sealed")
    assumptions = list(reading.assumptions)
    if recorded is not None:  # a winner alone has RES004 already
        assumptions.append(Finding(
            F.RES_MARGIN_APPROXIMATE, f"{asked.why}: the count is a band, "
            f"{band_text(band, asked.show)}, and RE[{result.raw}] lies in it"))
    return Decision(Reason.IN_BAND if recorded is not None else Reason.WINNER,
                    BandMatch(how, named(band, asked.show), reading.label, reading.own),
                    _settled(band), reading,
                    delta=None if recorded is None else band.settled - recorded, band=band,
                    reproduced=Reproduced.BAND if recorded is not None else Reproduced.WINNER,
                    assumptions=tuple(assumptions))


def _undecided(asked: _Asked, banded: Banded, first: tuple[Reading, Band],
               wide: list[tuple[Reading, Band]]) -> Decision:
    """RE not decided by any band: within a band (unverifiable), close to one in a stopped game
    (too close to call), a margin a stopped record may owe to a count it does not hold, or a
    mismatch."""
    recorded, want, result = asked.recorded, asked.want, asked.result
    reading, band = first
    delta = None if recorded is None else band.settled - recorded
    shown = tuple((r.label, named(b, asked.show)) for r, b in wide[:4])
    distance = None if recorded is None else min(
        max(b.low - recorded, recorded - b.high, 0.0) for _, b in wide)
    is_sealed = not asked.final and sealed(banded)
    # Whether every band lets the recorded winner win somewhere, and whether every band is won
    # by it throughout (it confirms the winner).
    possible = want is not None and all(
        (b.high > 0) if want == int(BLACK) else (b.low < 0) for _, b in wide)
    confirmed = want is not None and all(b.decided_winner == want for _, b in wide)

    def decided(code: Reason, facts: Facts) -> Decision:
        return Decision(code, facts, _settled(band), reading,
                        delta=delta, band=band)

    where = (band.settled, reading.label, asked.raw, distance, shown)
    if any(_fits(asked, b) for _, b in wide):
        return decided(Reason.BAND_UNDECIDED, BandUndecided(asked.raw, shown))
    if not asked.final and distance is not None and distance <= UNFINISHED_SLACK:
        return decided(Reason.JUST_OUTSIDE, OffBand(*where, slack=UNFINISHED_SLACK))
    if (not asked.final and recorded is not None and possible
            and (not result.margin_as_counted or (not is_sealed and confirmed))):
        # A stopped record whose winner the band confirms, with a margin the position does not
        # give: the margin may come from a count the record does not hold, or from its units.
        # Where the band leaves the winner open as well, nothing in the position supports RE:
        # a mismatch (below).
        units = ((result.note or "not in whole or half points")
                 if is_sealed or not confirmed else None)
        return decided(Reason.MARGIN_FROM_ELSEWHERE,
                       OffBand(*where, confirmed=confirmed, units=units))
    return decided(Reason.OUTSIDE_EVERY_BAND, OffBand(
        *where, why=asked.why, sealed=is_sealed,
        open_winner=distance is not None and all(b.decided_winner is None for _, b in wide)))


def _fits(asked: _Asked, band: Band) -> bool:
    if asked.recorded is None:
        return band.decided_winner is None or band.decided_winner == asked.want
    return band.holds(asked.recorded)


def sealed(banded: Banded) -> bool:
    """Nothing on the board is left open under any reading: no open point, and no chain turned
    by any way of the wide band (neither an unsettled chain nor a less sure decision of the
    estimate), so the wide band is the count as judged and the move in hand."""
    return all(sealed_band(wide) for _, _, wide in banded.values())


def sealed_band(wide: Band) -> bool:
    """A reading's wide band leaves nothing open: no open point, no chain turned."""
    return not wide.open_points and not wide.unsettled
