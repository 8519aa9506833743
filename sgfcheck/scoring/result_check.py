"""The result check: is the recorded result (RE) what the count gives under the game's rules?

The verdict is one of four :class:`CheckStatus` values, with a reason a tournament director can
read, the :class:`Basis` it rests on (what the dead stones and the count come from) and the
assumptions it needed, each a finding with a code:

- ``match``: the count gives the recorded result: the margin exactly; or, where the count rests on
  a judgement of the position (an unfinished game, dead stones estimated or from an engine), the
  recorded result lies in the count's band (:mod:`sgfcheck.scoring.band`: open points and
  unsettled chains each way) and every count in the band gives RE's winner (a count equal to
  RE inside a band either colour may win confirms nothing), ``RES005``; where RE names only the
  winner (``RES004``), the winner.
  A match under a reading other than the record's own (``RES002`` komi, ``RES003`` rules, see
  :mod:`sgfcheck.scoring.conventions`) names it.
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
from dataclasses import dataclass, field

from sgfcheck import findings as F
from sgfcheck.colour import BLACK
from sgfcheck.findings import Finding
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.margins import band_text, margin_text
from sgfcheck.records.results import Result, ResultKind
from sgfcheck.scoring.band import Band, union
from sgfcheck.scoring.conventions import Reading
from sgfcheck.scoring.count import Score
from sgfcheck.scoring.finish import Finish
from sgfcheck.scoring.ways import way_chains
from sgfcheck.status import Source, Status
from sgfcheck.strenum import StrEnum

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
          Source.USER_ALIVE: Basis.USER, Source.GNUGO: Basis.ENGINE, Source.KATAGO: Basis.ENGINE,
          Source.ESTIMATE: Basis.ESTIMATE}


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


REASONS: dict[str, str] = {
    "RES101": "match: the count gives the recorded result exactly",
    "RES102": "match: the solved count (the last open points played out) gives the recorded "
              "result",
    "RES103": "match: the count gives the recorded winner (RE without a margin, or the winner "
              "alone confirmed)",
    "RES104": "match: the recorded result lies in the count's band, which gives its winner "
              "throughout",
    "RES111": "mismatch: no reading and no way of the doubtful chains gives the recorded result",
    "RES112": "mismatch: the recorded result lies outside the count's band under every reading",
    "RES121": "unverifiable: no dead-stone information, and the game did not end with two passes",
    "RES122": "unverifiable: the game stopped far from a finished position",
    "RES123": "unverifiable: no dead-stone information (every stone counted alive)",
    "RES124": "unverifiable: the winner depends on chains the estimate could not decide",
    "RES125": "unverifiable: the winner depends on the reading, and RE has no margin",
    "RES126": "unverifiable: not a firm disagreement, the recorded winner comes out under other "
              "plausible readings",
    "RES127": "unverifiable: RE lies in the count's band but is not the solved count",
    "RES128": "unverifiable: RE lies in the count's band, which does not decide it",
    "RES129": "unverifiable: RE lies just outside the band of a game that did not end with two "
              "passes (too close to call)",
    "RES130": "unverifiable: the margin lies outside the band of a stopped record whose margin "
              "may come from a count it does not hold, or from its units",
    "RES131": "unverifiable: the komi is unknown",
    "RES132": "unverifiable: the disagreement rests on an assumption about the record",
    "RES141": "not scored: the game ended by resignation, time or forfeit",
    "RES142": "not scored: no recorded score",
}
"""Every reason a verdict on RE is reached for: its stable code (``result_check.code`` in the
JSON) and what it means (the manual's findings page lists them)."""


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
    reproduced: str | None = None
    """For a match: ``margin`` (exactly), ``solved`` (the solved count of the last open points,
    exactly), ``band`` (the result lies in the count's band) or ``winner`` (the winner
    alone)."""
    band: Band | None = None
    """The band the verdict was reached on (on a judgement of the position)."""
    assumptions: tuple[Finding, ...] = ()
    finish: Finish | None = None
    """The solved line the verdict rests on (the last open points played out), if any."""
    code: str = ""
    """Why the verdict is what it is, as a stable code (:data:`REASONS`)."""


@dataclass
class _Draft:
    """A verdict while :func:`check_result` works it out (the fields of :class:`ResultCheck`)."""

    status: CheckStatus
    reason: str
    computed: str | None = None
    recorded: str | None = None
    delta: float | None = None
    basis: Basis | None = None
    finished: bool = False
    least_confidence: float | None = None
    reading: str | None = None
    reproduced: str | None = None
    band: Band | None = None
    assumptions: list[Finding] = field(default_factory=list)
    finish: Finish | None = None
    code: str = ""

    def decide(self, status: CheckStatus, code: str) -> None:
        """The verdict and the reason's code, together."""
        assert REASONS[code].startswith(status.value.replace("-", " ")), code
        self.status, self.code = status, code

    def frozen(self) -> ResultCheck:
        return ResultCheck(self.status, self.reason, self.computed, self.recorded, self.delta,
                           self.basis, self.finished, self.least_confidence, self.reading,
                           self.reproduced, self.band, tuple(self.assumptions), self.finish,
                           self.code)


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
    possible by both sides, :mod:`sgfcheck.scoring.finish`): the solved line."""

    @property
    def solved(self) -> bool:
        return self.finish is not None


AS_JUDGED = "as judged"
_NOT_PLAYED_OUT = (ResultKind.RESIGN, ResultKind.TIME, ResultKind.FORFEIT)


def _recorded_margin(result: Result) -> float:
    if result.kind is ResultKind.DRAW:
        return 0.0
    assert result.margin is not None
    return result.margin if result.winner == BLACK else -result.margin


def _recorded_winner(result: Result) -> object:
    return None if result.kind is ResultKind.DRAW else result.winner


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
    need. ``name``: a point's name, for the open points of a band."""
    checked = _check(result, outcomes, dead, final, open_share, komi_unknown, name)
    if checked.status is CheckStatus.NOT_SCORED:
        return checked.frozen()
    checked.assumptions.extend(r for r in rests_on if r not in checked.assumptions)
    if not doubts:
        return checked.frozen()
    if checked.status is CheckStatus.MISMATCH:
        checked.decide(CheckStatus.UNVERIFIABLE, "RES132")
        checked.reason += ("; but the count rests on an assumption about the record, not on "
                           "the record: " + "; ".join(d.message for d in doubts))
        if any(d.code is F.RES_KOMI_CONVENTION for d in doubts):
            need = _komi_need(result, outcomes[0].score)
            checked.reason += f"; RE[{result.raw}] would need {need}"
    checked.assumptions.extend(d for d in doubts if d not in checked.assumptions)
    return checked.frozen()


def _check(result: Result, outcomes: list[Outcome], dead: DeadStones, final: bool,
           open_share: float, komi_unknown: str | None,
           name: Callable[[int], str] | None) -> _Draft:
    base = outcomes[0].score
    basis = basis_of(dead, final)
    out = _Draft(CheckStatus.NOT_SCORED, "", recorded=result.raw, basis=basis,
                      finished=final, least_confidence=least_confidence(dead))
    if result.kind in _NOT_PLAYED_OUT:
        out.decide(CheckStatus.NOT_SCORED, "RES141")
        out.reason = f"the game ended by {result.kind}"
        return out
    if result.kind in (ResultKind.VOID, ResultKind.UNKNOWN):
        out.decide(CheckStatus.NOT_SCORED, "RES142")
        out.reason = f"no recorded score ({result.note or result.kind})"
        return out
    out.computed = base.result_text
    out.reading = outcomes[0].reading.label
    if komi_unknown is not None:
        return _komi_needed(out, result, base, komi_unknown)
    if dead.assumed and not final:
        out.decide(CheckStatus.UNVERIFIABLE, "RES121")
        out.reason = "no dead-stone information and the game did not end with two passes"
        return out
    winner_only = result.kind is ResultKind.WIN
    if winner_only:
        out.assumptions.append(Finding(F.RES_WINNER_ONLY, f"RE[{result.raw}] names the winner "
                                       "without a margin: the winner alone is checked"))
    wanted = _recorded_winner(result)
    recorded = None if winner_only else _recorded_margin(result)

    def exact(score: Score) -> bool:
        if recorded is None:
            return score.winner == wanted
        return abs(score.margin - recorded) < 1e-6 and score.winner == wanted

    possible = [o for o in outcomes if o.reading.possible]
    solved = _solved_verdict(out, result, possible, recorded, wanted, exact, name)
    if solved is not None:
        return solved
    by_reading: dict[str, list[Outcome]] = {}
    for o in possible:
        by_reading.setdefault(o.reading.label, []).append(o)
    margin_or_winner = "margin" if recorded is not None else "winner"
    far = not final and open_share > FAR_FROM_END
    # A result without a margin is confirmed only when every reading and way gives its winner:
    # with the readings of a convention (komi 0, 6.5 or 7.5) one of them gives either winner.
    # On a band (a judgement of the position), a winner alone is read on the bands: the count
    # as it stands leaves the boundaries not yet sealed to nobody.
    winners = {o.score.winner for o in possible}
    on_bands = bool(possible) and all(o.band is not None for o in possible)
    # In a game that did not end with two passes, a count on a judgement of the position is a
    # band (its count the count with every settled decision): it matches RE only as the band
    # does (below), where the reading's band confirms the recorded winner or nothing on the
    # board is left open; only a solved count (above) reproduces the margin. A game ended by
    # two passes is counted as it stands.
    banded = _bands(possible) if on_bands and not final else {}
    for every in by_reading.values():
        if recorded is None and (far or winners != {wanted} or on_bands):
            break
        if banded:
            break  # a stopped game's count is a band: only a solved count gives the margin
        group = [o for o in every if o.settled]
        # The count as judged reproduces the result: a match. Another way of the doubtful
        # chains reproduces it: a match only if the winner does not depend on those chains.
        if exact(group[0].score):
            return _match(out, group[0], result, margin_or_winner, [])
        if len({o.score.winner for o in group}) == 1:
            hit = next((o for o in group if exact(o.score)), None)
            if hit is not None:
                return _match(out, hit, result, margin_or_winner, [])
    if far:
        out.decide(CheckStatus.UNVERIFIABLE, "RES122")
        out.delta = None if recorded is None else base.margin - recorded
        out.reason = (f"the game stopped far from a finished position ({open_share:.0%} of the "
                      f"board still open to both colours): its count ({base.result_text}, "
                      f"{outcomes[0].reading.label}) cannot confirm or contradict "
                      f"RE[{result.raw}]")
        if winner_only:
            out.reason += ("; a result without a margin on such a record is most often a win by "
                           "resignation or on time")
        return out
    soft = not final or not basis.firm
    why = ("the game did not end with two passes" if not final else
           f"the dead stones are from {basis.value}")
    banded = (banded or _bands(possible)) if soft and not dead.assumed else {}
    if banded:
        checked = _check_bands(out, result, banded, recorded, wanted, why, final, name)
        if checked.status is CheckStatus.MATCH and recorded is not None:
            # The band confirms RE's winner; a solved count that is not RE says so.
            other = next((o for o in possible if o.solved and o.way == AS_JUDGED
                          and o.reading.label == checked.reading and o.finish is not None), None)
            if other is not None and other.finish is not None:
                checked.finish = other.finish
                checked.reason += (f"; the solved count is {other.score.result_text} "
                                   f"({_played_out(other.finish)}): the winner is confirmed, "
                                   "not the margin")
        return checked
    first = possible[0] if possible else outcomes[0]
    own = [o for o in possible if o.reading is first.reading]
    out.computed = first.score.result_text
    out.reading = first.reading.label
    out.delta = None if recorded is None else first.score.margin - recorded
    out.reason = f"computed {first.score.result_text} ({first.reading.label}), recorded " \
                 f"{result.raw}" + ("" if out.delta is None else f" ({out.delta:+g} for Black)")
    agreeing = [o for o in possible if o.score.winner == wanted]
    if dead.assumed:
        out.decide(CheckStatus.UNVERIFIABLE, "RES123")
        out.reason += ("; no dead-stone information: every stone was counted alive, and dead "
                       "stones may still be on the board")
    elif len({o.score.winner for o in own}) > 1:
        out.decide(CheckStatus.UNVERIFIABLE, "RES124")
        names = "; ".join(f"{o.way}: {o.score.result_text}" for o in own[:8])
        out.reason = f"the winner depends on chains the estimate could not decide ({names})"
    elif recorded is None and len({o.score.winner for o in possible}) > 1:
        out.decide(CheckStatus.UNVERIFIABLE, "RES125")
        shown = "; ".join(f"{_where(o)}: {o.score.result_text}" for o in possible[:4])
        out.reason = (f"the winner depends on the reading ({shown}), and RE[{result.raw}] has no "
                      "margin to tell them apart")
        for o in possible:
            out.assumptions.extend(a for a in o.reading.assumptions if a not in out.assumptions)
    elif soft and agreeing:
        out.decide(CheckStatus.UNVERIFIABLE, "RES126")
        shown = "; ".join(f"{_where(o)}: {o.score.result_text}" for o in agreeing[:4])
        out.reason += (f"; not a firm disagreement ({why}): the recorded winner comes out under "
                       f"other plausible readings ({shown})")
        for o in agreeing[:4]:
            out.assumptions.extend(a for a in o.reading.assumptions if a not in out.assumptions)
    else:
        out.decide(CheckStatus.MISMATCH, "RES111")
        if any(o.way != AS_JUDGED for o in possible):
            out.reason += "; whichever way the doubtful chains go"
        if len(by_reading) > 1:
            out.reason += f"; under every reading checked ({_readings(possible)})"
    return out


def _solved_verdict(out: _Draft, result: Result, possible: list[Outcome],
                    recorded: float | None, wanted: object, exact: Callable[[Score], bool],
                    name: Callable[[int], str] | None) -> _Draft | None:
    """The verdict of the solved counts, where the last open points were played out under some
    reading (None: no reading was solved, or RE lies outside every solved reading's band: the
    other rules decide). A solved count equal to RE is a match; RE inside the band but not the
    solved count is unverifiable (the players may have erred in the last points), never a
    mismatch, unless points were open and the band gives RE's winner throughout (the band's own
    rule then decides, as without a solved count: the winner is right whatever the last points
    gave); a winner alone is matched where every reading's solved count gives it."""
    solved = [o for o in possible if o.solved and o.way == AS_JUDGED]
    if not solved:
        return None
    if recorded is None:
        labels = {o.reading.label for o in possible}
        if len(solved) == len(labels) and all(o.score.winner == wanted for o in solved):
            return _match(out, solved[0], result, "winner", [])
        return None
    hit = next((o for o in solved if exact(o.score)), None)
    if hit is not None:
        return _match(out, hit, result, "solved", [])
    inside = [o for o in solved if o.band is not None and o.band.holds(recorded)]
    if not inside:
        return None
    winner = _int(wanted)
    if all(o.band is not None and o.band.decided_winner == winner and o.finish is not None
           and o.finish.points for o in inside):
        return None  # open points, and the band gives RE's winner throughout: its rules decide
    first = inside[0]
    assert first.band is not None and first.finish is not None
    show = name or str
    out.decide(CheckStatus.UNVERIFIABLE, "RES127")
    out.computed = first.score.result_text
    out.reading = first.reading.label
    out.band = first.band
    out.finish = first.finish
    out.delta = first.score.margin - recorded
    counts = "; ".join(f"{o.score.result_text} under {o.reading.label}" for o in solved[:4])
    out.reason = (f"RE[{result.raw}] lies in the count's band ({band_text(first.band, show)}, "
                  f"{first.reading.label}) but is not the solved count ({counts}: "
                  f"{_played_out(first.finish)}); the players may have lost points in "
                  "the last moves, or counted otherwise: not called a mismatch")
    for o in solved:
        out.assumptions.extend(a for a in o.reading.assumptions if a not in out.assumptions)
    return out


def _played_out(finish: Finish) -> str:
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


def _bands(possible: list[Outcome]) -> dict[str, tuple[Reading, Band, Band]]:
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
        bands = [(o, o.band) for o in group if o.band is not None]
        out[label] = (group[0].reading,
                      union([b for o, b in bands if o.settled], _chains(settled)),
                      union([b for _, b in bands], _chains(group)))
    return out


def _chains(outcomes: list[Outcome]) -> tuple[str, ...]:
    """The chains the ways turn (``B N18``), in order."""
    return way_chains(o.way for o in outcomes if o.way != AS_JUDGED)


def _check_bands(out: _Draft, result: Result,
                 banded: dict[str, tuple[Reading, Band, Band]],
                 recorded: float | None, wanted: object, why: str, final: bool,
                 name: Callable[[int], str] | None) -> _Draft:
    """The verdict of a count read as a band (see the module's text)."""
    want = _int(wanted)
    show = name or str

    open_nowhere = {label: _sealed_band(wide) for label, (_, _, wide) in banded.items()}
    wide_of = {label: wide for label, (_, _, wide) in banded.items()}

    def decides(label: str, band: Band) -> bool:
        # Every count in the band gives RE: its winner throughout (a draw: the band is the
        # draw alone), and the margin within it; or nothing on the board is left open and the
        # count with every settled decision is RE (the band's point each way is the move in
        # hand, which a stopped record does not hold).
        if recorded is None:
            return band.decided_winner == want
        if open_nowhere[label] and abs(band.settled - recorded) < 1e-9:
            return True
        if want is None:
            return band.low == band.high == recorded
        # The winner must hold where the less sure decisions turn too: a band won throughout
        # only as the estimate judged it may rest on a misjudged chain.
        return (band.holds(recorded) and band.decided_winner == want
                and wide_of[label].decided_winner == want)

    def fits(band: Band) -> bool:
        if recorded is None:
            return band.decided_winner is None or band.decided_winner == want
        return band.holds(recorded)

    wide = [(reading, band) for reading, _, band in banded.values()]
    # A result with a margin is matched in the band of the unsettled chains; a winner alone,
    # with no margin to cross-check, only where the estimate's less sure decisions turned too
    # leave the winner.
    items = ([(reading, band) for reading, band, _ in banded.values()] if recorded is not None
             else wide)
    labels = list(banded)
    reading, band = items[0]
    out.band = band
    out.computed = margin_text(band.settled).replace("jigo", "jigo (draw)")
    out.reading = reading.label
    if recorded is None and len({b.decided_winner for _, b in items}) > 1:
        # A winner alone: the readings of a convention (komi 0, 6.5 or 7.5) must all give it.
        shown = "; ".join(f"{r.label}: {band_text(b, show, 3)}" for r, b in items[:4])
        out.decide(CheckStatus.UNVERIFIABLE, "RES125")
        out.reason = (f"the winner depends on the reading ({shown}), and RE[{result.raw}] has "
                      "no margin to tell them apart")
        for r, _ in items:
            out.assumptions.extend(a for a in r.assumptions if a not in out.assumptions)
        return out
    for label, (reading, band) in zip(labels, items, strict=True):
        if decides(label, band):
            out.decide(CheckStatus.MATCH, "RES104" if recorded is not None else "RES103")
            out.band = band
            out.reading = reading.label
            out.computed = margin_text(band.settled).replace("jigo", "jigo (draw)")
            out.reproduced = "band" if recorded is not None else "winner"
            out.delta = None if recorded is None else band.settled - recorded
            what = ("the recorded winner wins throughout the count's band" if recorded is None
                    else "the recorded result lies in the count's band"
                    if band.decided_winner == want else
                    "the count with every settled decision gives the recorded result, and "
                    "nothing on the board is left open (the band's point each way is the move "
                    "in hand)")
            out.reason = f"{what} ({band_text(band, show)}, {reading.label})"
            if not reading.own:
                out.reason += ", not the record's own reading"
            out.assumptions.extend(reading.assumptions)
            if recorded is not None:  # a winner alone has RES004 already
                out.assumptions.append(Finding(
                    F.RES_MARGIN_APPROXIMATE, f"{why}: the count is a band, "
                    f"{band_text(band, show)}, and RE[{result.raw}] lies in it"))
            return out
    reading, band = items[0]
    out.delta = None if recorded is None else band.settled - recorded
    shown = "; ".join(f"{r.label}: {band_text(b, show, 3)}" for r, b in wide[:4])
    distance = None if recorded is None else min(
        max(b.low - recorded, recorded - b.high, 0.0) for _, b in wide)
    sealed = not final and _sealed(banded)
    # Whether every band lets the recorded winner win somewhere, and whether every band is won
    # by it throughout (it confirms the winner).
    possible = want is not None and all(
        (b.high > 0) if want == int(BLACK) else (b.low < 0) for _, b in wide)
    confirmed = want is not None and all(b.decided_winner == want for _, b in wide)
    if any(fits(b) for _, b in wide):
        out.decide(CheckStatus.UNVERIFIABLE, "RES128")
        out.reason = (f"RE[{result.raw}] lies in the count's band but the band does not decide "
                      f"it ({shown}; the estimate's less sure decisions turned too); the open "
                      "points and unsettled chains decide it: the players' markup or an engine "
                      "(--engine katago) would settle them")
    elif not final and distance is not None and distance <= UNFINISHED_SLACK:
        out.decide(CheckStatus.UNVERIFIABLE, "RES129")
        out.reason = (f"computed {margin_text(band.settled)} ({reading.label}), recorded "
                      f"{result.raw}: {distance:g} point(s) outside the count's band ({shown}); "
                      f"the game did not end with two passes, and a stopped game may still hold "
                      f"up to {UNFINISHED_SLACK:g} points the band cannot see (protective moves, "
                      "a last ko): too close to call")
    elif (not final and recorded is not None and possible
          and (not result.margin_as_counted or (not sealed and confirmed))):
        # A stopped record whose winner the band confirms, with a margin the position does
        # not give: the margin may come from a count the record does not hold. Where the band
        # leaves the winner open as well, nothing in the position supports RE: a mismatch.
        out.decide(CheckStatus.UNVERIFIABLE, "RES130")
        winner = ("the winner agrees" if confirmed else
                  "the recorded winner wins part of the band")
        out.reason = (f"computed {margin_text(band.settled)} ({reading.label}), recorded "
                      f"{result.raw}: {winner}, the margin lies {distance:g} point(s) "
                      f"outside the count's band ({shown}); the game did not end with two "
                      "passes, and ")
        if sealed or not confirmed:
            units = result.note or "not in whole or half points"
            out.reason += (f"RE's margin is not a count in points as written ({units}): the "
                           "margin rests on reading the record's units, so it is not called a "
                           "mismatch")
        else:
            out.reason += ("a stopped record's margin may come from a count the record does not "
                           "hold (moves not recorded, a server's count at resignation): not "
                           "called a mismatch")
    else:
        out.decide(CheckStatus.MISMATCH, "RES112")
        what = (f"the recorded result lies {distance:g} point(s) outside"
                if distance is not None else "the other colour wins throughout")
        out.reason = (f"computed {margin_text(band.settled)} ({reading.label}), recorded "
                      f"{result.raw}: {what} the count's band under every reading checked "
                      f"({shown}); {why}")
        if sealed:
            out.reason += (", but nothing on the board is left open (no open point, no "
                           "unsettled chain, no less sure decision moves the count): the band "
                           "holds the move in hand")
        elif distance is not None and all(b.decided_winner is None for _, b in wide):
            out.reason += (", and the band does not confirm the recorded winner either (either "
                           "colour may win it): no count of the position gives RE")
    return out


def _sealed(banded: dict[str, tuple[Reading, Band, Band]]) -> bool:
    """Nothing on the board is left open under any reading: no open point, and no chain turned
    by any way of the wide band (neither an unsettled chain nor a less sure decision of the
    estimate), so the wide band is the count as judged and the move in hand."""
    return all(_sealed_band(wide) for _, _, wide in banded.values())


def _sealed_band(wide: Band) -> bool:
    """A reading's wide band leaves nothing open: no open point, no chain turned."""
    return not wide.open_points and not wide.unsettled


def _komi_needed(out: _Draft, result: Result, base: Score, why: str) -> _Draft:
    """The komi is unknown: the count (made without komi) cannot confirm or contradict RE, but
    it says what komi RE would need."""
    out.decide(CheckStatus.UNVERIFIABLE, "RES131")
    out.reading = f"{base.ruleset.name} without komi"
    out.reason = (f"the komi is unknown ({why}): the count before komi gives "
                  f"{base.result_text}; RE[{result.raw}] would need {_komi_need(result, base)}")
    return out


def _komi_need(result: Result, score: Score) -> str:
    """The komi under which ``score``'s count would give RE (``a komi of 6.5``)."""
    before = score.margin + score.ruleset.komi  # Black's margin before komi
    if result.kind is ResultKind.WIN and result.winner is not None:
        side = "more" if result.winner is not BLACK else "less"
        return f"a komi of {side} than {before:g}"
    if result.kind is ResultKind.DRAW:
        return f"a komi of {before:g}"
    return f"a komi of {before - _recorded_margin(result):g}"


def _int(colour: object) -> int | None:
    return None if colour is None else int(colour)  # type: ignore[call-overload]


def _where(o: Outcome) -> str:
    return o.reading.label + ("" if o.way == AS_JUDGED else f", {o.way}")


def _readings(outcomes: list[Outcome]) -> str:
    return "; ".join(dict.fromkeys(o.reading.label for o in outcomes))


def _match(out: _Draft, hit: Outcome, result: Result, reproduced: str,
           notes: list[Finding]) -> _Draft:
    reading = hit.reading
    out.decide(CheckStatus.MATCH, {"margin": "RES101", "solved": "RES102"}.get(reproduced,
                                                                              "RES103"))
    out.computed = hit.score.result_text
    out.reading = reading.label
    out.reproduced = reproduced
    out.finish = hit.finish
    out.band = hit.band if hit.solved else out.band
    out.delta = None if result.kind is ResultKind.WIN else 0.0 if reproduced in (
        "margin", "solved") else hit.score.margin - _recorded_margin(result)
    what = "the recorded result" if reproduced in ("margin", "solved") else "the recorded winner"
    reason = f"the count gives {what}"
    if hit.finish is not None:
        reason = f"the solved count gives {what}: {_played_out(hit.finish)}"
    if not reading.own:
        reason += f" under {reading.label}, not the record's own reading"
    if hit.way != AS_JUDGED:
        reason += (f" when {hit.way}; the winner is the same whichever way the doubtful chains "
                   "go")
    if reproduced == "winner" and result.kind is not ResultKind.WIN:
        reason += f", not the margin ({hit.score.result_text})"
    out.reason = reason
    out.assumptions.extend(reading.assumptions)
    out.assumptions.extend(notes)
    return out
