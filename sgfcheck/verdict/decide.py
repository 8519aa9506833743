"""The result check: is the recorded result (RE) what the count gives under the game's rules?

The verdict is one of four :class:`CheckStatus` values, given by its reason (a stable code, with
the facts it rests on: :mod:`sgfcheck.verdict.reasons`), the :class:`Basis` it rests on (what the
dead stones and the count come from) and the assumptions it needed, each a finding with a code:

- ``match``: the count gives the recorded result: the margin exactly; or, where the count rests on
  a judgement of the position (an unfinished game, dead stones estimated or from an engine), the
  recorded result lies in the count's band (:mod:`sgfcheck.counting.band`: open points and
  unsettled chains each way) and every count in the band gives RE's winner (a count equal to
  RE inside a band either colour may win confirms nothing), ``RES005``; where RE names only the
  winner (``RES004``), the winner.
  A match under a reading other than the record's own (``RES002`` komi, ``RES003`` rules, see
  :mod:`sgfcheck.verdict.readings`) names it.
- ``mismatch``: a claim that the record is wrong. On a firm basis (the players' markup, the user's
  dead stones, a finished game counted as it stands) the exact margin disagrees under every reading;
  on a judgement of the position, the recorded result lies outside the band under every reading
  the record's convention allows (a wrong margin as well as a wrong winner), or, for a result
  without a margin, every band is won by the other colour. In a game that did not end with two
  passes, a result within :data:`UNFINISHED_SLACK` of the band is too close to call, and a margin
  outside it whose winner the band confirms (every way) is a mismatch only when nothing on the
  board is left open (no open point, no unsettled chain, no less sure decision moving the count)
  and RE's margin is a count in points as written (not read from zi); where the band leaves the
  winner open too, a margin in points beyond it is a mismatch: nothing in the position gives
  it.
- ``unverifiable``: the evidence cannot decide; the reason says what would (the open points and
  unsettled chains of a band too wide to decide, or the missing dead-stone information). A
  game that stopped far from a finished position (more than :data:`FAR_FROM_END` of the board
  still open to both colours) is unverifiable unless its count as it stands gives the recorded
  margin exactly: the winner of such a position is a guess, and a result without a margin on it
  is most often a win by resignation or on time that the record does not name.
- ``not-scored``: resignation, time, forfeit, void, no score recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sgfcheck import findings as F
from sgfcheck.colour import BLACK
from sgfcheck.counting.count import Score
from sgfcheck.counting.judged import Basis, basis_of, least_confidence
from sgfcheck.findings import Finding
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.records.results import Result, ResultKind
from sgfcheck.verdict.banded import Banded, bands, check_bands
from sgfcheck.verdict.decision import (
    AS_JUDGED,
    FAR_FROM_END,
    UNFINISHED_SLACK,
    Decision,
    Outcome,
    ResultCheck,
    colour_number,
    matched,
    recorded_margin,
    recorded_winner,
    where,
)
from sgfcheck.verdict.reasons import (
    REASONS,
    AsCounted,
    BandMatch,
    CheckStatus,
    Ended,
    Facts,
    FarFromEnd,
    InBandNotSolved,
    KomiNeed,
    KomiUnknown,
    NoScore,
    OnAssumption,
    Plain,
    ReadingDecides,
    Reason,
    Reproduced,
    UndecidedChains,
    named,
)

NEAR = 0.5
"""The most points a solved count may lie from RE's margin and still confirm its winner
(``RES105``): half a point (Fox's units). At a whole point it confirmed 18 more professional
margins moved by 2 (pro19, 181 against 171) and 3 more flipped winners of games cut short
(KGS, 4 plays before the end): a real game's last moves often lose a point the solved count
keeps (``bench/verdicts.py``, ``bench/cut_short.py``)."""

__all__ = ["AS_JUDGED", "FAR_FROM_END", "REASONS", "UNFINISHED_SLACK", "Basis", "CheckStatus",
           "Outcome", "Reason", "Reproduced", "ResultCheck", "basis_of", "check_result",
           "least_confidence"]


def check_result(result: Result, outcomes: list[Outcome], dead: DeadStones,
                 final: bool, open_share: float = 0.0, *, doubts: Sequence[Finding] = (),
                 rests_on: Sequence[Finding] = (), komi_unknown: str | None = None,
                 name: Callable[[int], str] | None = None) -> ResultCheck:
    """Is the recorded result right? ``outcomes``: the record's own reading as judged first,
    then its other ways and the other readings; ``open_share``: the share of the board's points
    in regions open to both colours (see the module's text). ``doubts``: what the count assumes
    about the record itself (``RES008``: where handicap stones stood): a disagreement resting on
    them is not a mismatch. ``rests_on``: what the count reads from the record's source's
    conventions, cited (``RES010``): said with the verdict. ``komi_unknown``: why the record's
    komi is unknown (the counts were made without komi): the verdict says what komi RE would
    need. ``name``: a point's name, for the open points of a band in an assumption's words."""
    winner_only = result.kind is ResultKind.WIN
    basis = basis_of(dead, final)
    first: list[Finding] = []
    decision = _not_counted(result, outcomes, dead, final, komi_unknown)
    if decision is None:
        if winner_only:
            first.append(Finding(F.RES_WINNER_ONLY, f"RE[{result.raw}] names the winner "
                                 "without a margin: the winner alone is checked"))
        decision = _decided(result, outcomes, dead, final, basis, open_share, name or str)
    assumptions = [*first, *decision.assumptions]
    if decision.status is not CheckStatus.NOT_SCORED:
        assumptions.extend(r for r in rests_on if r not in assumptions)
        if doubts and decision.status is CheckStatus.MISMATCH:
            need = (_komi_need(result, outcomes[0].score)
                    if any(d.code is F.RES_KOMI_CONVENTION for d in doubts) else None)
            decision = Decision(
                Reason.ON_AN_ASSUMPTION,
                OnAssumption(decision.code, decision.facts, tuple(d.message for d in doubts),
                             result.raw or "", need),
                decision.computed, decision.under, decision.reading, decision.delta,
                decision.band, decision.finish, decision.reproduced)
        assumptions.extend(d for d in doubts if d not in assumptions)
    return ResultCheck(decision.code, decision.facts, decision.computed, decision.under,
                       decision.label, decision.delta, decision.band, decision.finish,
                       decision.reproduced, tuple(assumptions), recorded=result.raw,
                       basis=basis, finished=final, least_confidence=least_confidence(dead))


@dataclass(frozen=True)
class _Asked:
    """What RE asks of the counts: the counts of the readings its convention allows, its margin
    for Black (None: a winner alone) and its winner, and what the counts rest on."""

    result: Result
    outcomes: list[Outcome]
    possible: list[Outcome]
    recorded: float | None
    wanted: object
    final: bool
    basis: Basis
    assumed: bool
    """No dead-stone information: only stones proven dead were removed."""
    open_share: float
    name: Callable[[int], str]

    def exact(self, score: Score) -> bool:
        """``score`` gives RE: its margin (or, for a winner alone, its winner)."""
        if self.recorded is None:
            return score.winner == self.wanted
        return abs(score.margin - self.recorded) < 1e-6 and score.winner == self.wanted

    @property
    def soft(self) -> bool:
        """The count rests on a judgement of the position: a band, not a firm count."""
        return not self.final or not self.basis.firm

    @property
    def why(self) -> str:
        return ("the game did not end with two passes" if not self.final else
                f"the dead stones are from {self.basis.value}")

    @property
    def raw(self) -> str:
        return self.result.raw or ""


def _decided(result: Result, outcomes: list[Outcome], dead: DeadStones, final: bool,
             basis: Basis, open_share: float, name: Callable[[int], str]) -> Decision:
    """The verdict of the counts: the rules below, tried in order."""
    possible = [o for o in outcomes if o.reading.possible]
    asked = _Asked(result, outcomes, possible,
                   None if result.kind is ResultKind.WIN else recorded_margin(result),
                   recorded_winner(result), final, basis, dead.assumed,
                   open_share, name)
    solved = _solved_verdict(asked)
    if solved is not None:
        return solved
    far = not final and open_share > FAR_FROM_END
    on_bands = bool(possible) and all(o.band is not None for o in possible)
    # In a game that did not end with two passes, a count on a judgement of the position is a
    # band (its count the count with every settled decision): it matches RE only as the band
    # does, where the reading's band confirms the recorded winner or nothing on the board is
    # left open; only a solved count (above) reproduces the margin. A game ended by two passes
    # is counted as it stands.
    banded = bands(possible) if on_bands and not final else {}
    hit = None if banded else _exact_match(asked, far, on_bands)
    if hit is not None:
        return hit
    if far:
        return _far_from_end(asked)
    banded = (banded or bands(possible)) if asked.soft and not dead.assumed else {}
    if banded:
        return _on_bands(asked, banded)
    return _as_counted(asked)


def _not_counted(result: Result, outcomes: list[Outcome], dead: DeadStones, final: bool,
                 komi_unknown: str | None) -> Decision | None:
    """The verdicts reached before any count is weighed: no score recorded, the komi unknown,
    no dead-stone information in a game that did not end with two passes."""
    if not result.played_out:
        return Decision(Reason.NOT_PLAYED_OUT, Ended(result.kind.value))
    if result.kind in (ResultKind.VOID, ResultKind.UNKNOWN):
        return Decision(Reason.NO_SCORE, NoScore(result.note or result.kind.value))
    base = outcomes[0].score
    if not final and all(side.empty == 0 and side.settled == 0 for _, side in base.sides()):
        # A record cut off in the opening (a stub of a few moves): nothing is anyone's yet,
        # neither enclosed nor settled by the judgement, so its count (komi against nothing)
        # says nothing about RE; no band or engine can.
        return Decision(Reason.STUB, Plain())
    own = outcomes[0].reading
    if komi_unknown is not None:
        return Decision(Reason.KOMI_UNKNOWN,
                        KomiUnknown(komi_unknown, base.result_text, result.raw or "",
                                    _komi_need(result, base)),
                        base.result_text, own, f"{base.ruleset.name} without komi")
    if dead.assumed and not final:
        return Decision(Reason.UNFINISHED_UNMARKED, Plain(), base.result_text, own)
    return None


def _exact_match(asked: _Asked, far: bool, on_bands: bool) -> Decision | None:
    """A count that gives RE as it stands: the count as judged, or another way of the doubtful
    chains where the winner does not depend on them. A result without a margin is confirmed
    only when every reading and way gives its winner (with the readings of a convention, komi
    0, 6.5 or 7.5, one of them gives either winner), and never on a band (the count as it
    stands leaves the boundaries not yet sealed to nobody)."""
    winners = {o.score.winner for o in asked.possible}
    if asked.recorded is None and (far or winners != {asked.wanted} or on_bands):
        return None
    margin_or_winner = Reproduced.MARGIN if asked.recorded is not None else Reproduced.WINNER
    by_reading: dict[str, list[Outcome]] = {}
    for o in asked.possible:
        by_reading.setdefault(o.reading.label, []).append(o)
    for every in by_reading.values():
        group = [o for o in every if o.settled]
        if asked.exact(group[0].score):
            return matched(group[0], asked.result, margin_or_winner)
        if len({o.score.winner for o in group}) == 1:
            hit = next((o for o in group if asked.exact(o.score)), None)
            if hit is not None:
                return matched(hit, asked.result, margin_or_winner)
    return None


def _far_from_end(asked: _Asked) -> Decision:
    """A game stopped far from a finished position: its count cannot decide RE."""
    first = asked.outcomes[0]
    base = first.score
    return Decision(Reason.FAR_FROM_END,
                    FarFromEnd(asked.open_share, base.result_text, first.reading.label,
                               asked.raw, asked.recorded is not None),
                    base.result_text, first.reading,
                    delta=None if asked.recorded is None else base.margin - asked.recorded)


def _on_bands(asked: _Asked, banded: Banded) -> Decision:
    """The verdict of the bands (:mod:`sgfcheck.verdict.banded`); a band match whose solved
    count is not RE says so."""
    checked = check_bands(asked.result, banded, asked.recorded, asked.wanted, asked.why,
                          asked.final, asked.name)
    if checked.status is CheckStatus.MATCH and asked.recorded is not None:
        other = next((o for o in asked.possible if o.solved and o.way == AS_JUDGED
                      and o.reading is checked.under and o.finish is not None), None)
        if other is not None and other.finish is not None:
            assert isinstance(checked.facts, BandMatch)
            facts = BandMatch(checked.facts.how, checked.facts.band, checked.facts.reading,
                              checked.facts.own, (other.score.result_text, other.finish))
            return Decision(checked.code, facts, checked.computed, checked.under,
                            checked.reading, checked.delta, checked.band, other.finish,
                            checked.reproduced, checked.assumptions)
    return checked


def _as_counted(asked: _Asked) -> Decision:
    """A count taken as it stands that does not give RE: a mismatch where nothing of ours
    decides it, else unverifiable, saying what does."""
    possible, recorded, wanted = asked.possible, asked.recorded, asked.wanted
    first = possible[0] if possible else asked.outcomes[0]
    own = [o for o in possible if o.reading is first.reading]
    delta = None if recorded is None else first.score.margin - recorded
    counted = first.score.result_text
    base = AsCounted(counted, first.reading.label, asked.raw, delta)
    agreeing = [o for o in possible if o.score.winner == wanted]

    def decided(code: Reason, facts: Facts, assumptions: Sequence[Finding] = ()) -> Decision:
        return Decision(code, facts, counted, first.reading,
                        delta=delta, assumptions=tuple(assumptions))

    if asked.assumed:
        return decided(Reason.EVERY_STONE_ALIVE, base)
    if len({o.score.winner for o in own}) > 1:
        return decided(Reason.UNDECIDED_CHAINS, UndecidedChains(
            tuple((o.way, o.score.result_text) for o in own[:8])))
    if recorded is None and len({o.score.winner for o in possible}) > 1:
        return decided(Reason.READING_DECIDES, ReadingDecides(
            tuple((where(o), o.score.result_text) for o in possible[:4]), asked.raw),
            _assumed_by(possible))
    if asked.soft and agreeing:
        return decided(Reason.NOT_FIRM, AsCounted(
            counted, first.reading.label, asked.raw, delta, asked.why,
            tuple((where(o), o.score.result_text) for o in agreeing[:4])),
            _assumed_by(agreeing[:4]))
    labels = tuple(dict.fromkeys(o.reading.label for o in possible))
    return decided(Reason.NO_WAY_GIVES_RE, AsCounted(
        counted, first.reading.label, asked.raw, delta,
        ways=any(o.way != AS_JUDGED for o in possible),
        readings=labels if len(labels) > 1 else ()))


def _assumed_by(outcomes: list[Outcome]) -> list[Finding]:
    """The assumptions of the readings of ``outcomes``, each once."""
    out: list[Finding] = []
    for o in outcomes:
        out.extend(a for a in o.reading.assumptions if a not in out)
    return out


def _solved_verdict(asked: _Asked) -> Decision | None:
    """The verdict of the solved counts, where the last open points were played out under some
    reading (None: no reading was solved, or RE lies outside every solved reading's band: the
    other rules decide). A solved count equal to RE is a match; RE inside the band but not the
    solved count is unverifiable (the players may have erred in the last points), never a
    mismatch, unless points were open and the band gives RE's winner throughout (the band's own
    rule then decides, as without a solved count: the winner is right whatever the last points
    gave); a winner alone is matched where every reading's solved count gives it."""
    possible, result, recorded, wanted = (asked.possible, asked.result, asked.recorded,
                                          asked.wanted)
    solved = [o for o in possible if o.solved and o.way == AS_JUDGED]
    if not solved:
        return None
    if recorded is None:
        labels = {o.reading.label for o in possible}
        if len(solved) == len(labels) and all(o.score.winner == wanted for o in solved):
            return matched(solved[0], result, Reproduced.WINNER)
        return None
    hit = next((o for o in solved if asked.exact(o.score)), None)
    if hit is not None:
        return matched(hit, result, Reproduced.SOLVED)
    # Within a point of RE, its winner: the winner is confirmed (never at 2 points: moved by 2,
    # a margin would be confirmed too often; never on a reading that assumes anything).
    near = next((o for o in solved if o.reading.own and not o.reading.assumptions
                 and o.score.winner == wanted and abs(o.score.margin - recorded) <= NEAR
                 and o.score.margin != 0), None)
    if near is not None:
        return matched(near, result, Reproduced.NEAR)
    inside = [o for o in solved if o.band is not None and o.band.holds(recorded)]
    if not inside:
        return None
    winner = colour_number(wanted)
    if all(o.band is not None and o.band.decided_winner == winner and o.finish is not None
           and o.finish.points for o in inside):
        return None  # open points, and the band gives RE's winner throughout: its rules decide
    first = inside[0]
    assert first.band is not None and first.finish is not None
    assumptions: list[Finding] = []
    for o in solved:
        assumptions.extend(a for a in o.reading.assumptions if a not in assumptions)
    return Decision(Reason.IN_BAND_NOT_SOLVED,
                    InBandNotSolved(asked.raw, named(first.band, asked.name), first.reading.label,
                                    tuple((o.score.result_text, o.reading.label)
                                          for o in solved[:4]), first.finish),
                    first.score.result_text, first.reading, delta=first.score.margin - recorded,
                    band=first.band, finish=first.finish, assumptions=tuple(assumptions))


def _komi_need(result: Result, score: Score) -> KomiNeed:
    """The komi under which ``score``'s count would give RE."""
    before = score.margin + score.ruleset.komi  # Black's margin before komi
    if result.kind is ResultKind.WIN and result.winner is not None:
        return KomiNeed(before, "more" if result.winner is not BLACK else "less")
    if result.kind is ResultKind.DRAW:
        return KomiNeed(before)
    return KomiNeed(before - recorded_margin(result))
