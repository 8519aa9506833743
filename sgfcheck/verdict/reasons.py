"""Why a verdict on RE is what it is, as values: the four statuses, the stable reason codes
(``RES101``-``RES143``, each giving one status), and the facts each reason carries: the counts,
readings, bands and solved lines it rests on, as numbers and names, never sentences. The rules
that decide are in :mod:`sgfcheck.verdict.decide` and :mod:`sgfcheck.verdict.banded`;
the one sentence a reason and its facts make is :mod:`sgfcheck.output.reasons`' to write, for
text, HTML and JSON alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sgfcheck.status import StrEnum

if TYPE_CHECKING:
    from sgfcheck.endgame.finish import Finish
    from sgfcheck.margins import Band

AS_JUDGED = "as judged"
"""The way of the doubtful chains that is the judgement itself."""


class CheckStatus(StrEnum):
    MATCH = "match"
    MISMATCH = "mismatch"
    NOT_SCORED = "not-scored"
    UNVERIFIABLE = "unverifiable"


_M, _X, _U, _N = (CheckStatus.MATCH, CheckStatus.MISMATCH, CheckStatus.UNVERIFIABLE,
                  CheckStatus.NOT_SCORED)


class Reason(StrEnum):
    """Why a verdict on RE is what it is: a stable code (``result_check.code`` in the JSON; the
    manual's findings page lists them), with the status it gives and what it means (led by its
    verdict: ``match: the count gives ...``)."""

    status: CheckStatus
    meaning: str

    def __new__(cls, code: str, status: CheckStatus, meaning: str) -> Reason:
        member = str.__new__(cls, code)
        member._value_ = code
        member.status = status
        member.meaning = meaning
        return member

    EXACT = ("RES101", _M, "match: the count gives the recorded result exactly")
    SOLVED = ("RES102", _M, "match: the solved count (the last open points played out) gives the "
                            "recorded result")
    WINNER = ("RES103", _M, "match: the count gives the recorded winner (RE without a margin, or "
                            "the winner alone confirmed)")
    IN_BAND = ("RES104", _M, "match: the recorded result lies in the count's band, which gives "
                             "its winner throughout")
    NEAR_SOLVED = ("RES105", _M, "match on the winner: the solved count gives the recorded winner "
                                 "and lies within half a point of RE (every chain settled, the "
                                 "record's own rules and komi)")
    NO_WAY_GIVES_RE = ("RES111", _X, "mismatch: no reading and no way of the doubtful chains "
                                     "gives the recorded result")
    OUTSIDE_EVERY_BAND = ("RES112", _X, "mismatch: the recorded result lies outside the count's "
                                        "band under every reading")
    UNFINISHED_UNMARKED = ("RES121", _U, "unverifiable: no dead-stone information, and the game "
                                         "did not end with two passes")
    FAR_FROM_END = ("RES122", _U, "unverifiable: the game stopped far from a finished position")
    EVERY_STONE_ALIVE = ("RES123", _U, "unverifiable: no dead-stone information (every stone "
                                       "counted alive)")
    UNDECIDED_CHAINS = ("RES124", _U, "unverifiable: the winner depends on chains the estimate "
                                      "could not decide")
    READING_DECIDES = ("RES125", _U, "unverifiable: the winner depends on the reading, and RE has "
                                     "no margin")
    NOT_FIRM = ("RES126", _U, "unverifiable: not a firm disagreement, the recorded winner comes "
                              "out under other plausible readings")
    IN_BAND_NOT_SOLVED = ("RES127", _U, "unverifiable: RE lies in the count's band but is not the "
                                        "solved count")
    BAND_UNDECIDED = ("RES128", _U, "unverifiable: RE lies in the count's band, which does not "
                                    "decide it")
    JUST_OUTSIDE = ("RES129", _U, "unverifiable: RE lies just outside the band of a game that did "
                                  "not end with two passes (too close to call)")
    MARGIN_FROM_ELSEWHERE = ("RES130", _U, "unverifiable: the margin lies outside the band of a "
                                           "stopped record whose margin may come from a count it "
                                           "does not hold, or from its units")
    KOMI_UNKNOWN = ("RES131", _U, "unverifiable: the komi is unknown")
    ON_AN_ASSUMPTION = ("RES132", _U, "unverifiable: the disagreement rests on an assumption "
                                      "about the record")
    NOT_PLAYED_OUT = ("RES141", _N, "not scored: the game ended by resignation, time or forfeit")
    NO_SCORE = ("RES142", _N, "not scored: no recorded score")
    STUB = ("RES143", _N, "not scored: the record stops before any position worth counting (no "
                          "point of the board is anyone's yet, neither enclosed nor settled by "
                          "the judgement)")


REASONS: dict[str, str] = {str(reason): reason.meaning for reason in Reason}
"""Every reason's code and what it means, by the code as written (the manual's findings page
lists them)."""


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


# --- the facts a reason carries -----------------------------------------------------------------
# Counts are their result texts (``W+0.5``), readings their labels (``japanese with komi 6.5``),
# RE as written (``W+0.5``), ways as they name the chains they turn (``W H5 dead``).

@dataclass(frozen=True)
class NamedBand:
    """A band as a verdict's facts hold it: its lowest and highest margin for Black, its open
    points by name (``K10``) and the chains it turns (``B N18``)."""

    low: float
    high: float
    open_points: tuple[str, ...]
    unsettled: tuple[str, ...]


def named(band: Band, name: Callable[[int], str]) -> NamedBand:
    """``band`` with its open points named (``name``: a point's name on the board)."""
    return NamedBand(band.low, band.high, tuple(name(p) for p in band.open_points),
                     tuple(band.unsettled))


Counted = tuple[str, str]
"""Where a count was made and what it gave: (the reading, with its way if any; the result)."""
BandAt = tuple[str, NamedBand]
"""A reading's label and its band."""


@dataclass(frozen=True)
class Plain:
    """A reason that needs no facts (``RES121``, ``RES143``)."""


@dataclass(frozen=True)
class Ended:
    """``RES141``: how the game ended (resignation, time, forfeit)."""

    how: str


@dataclass(frozen=True)
class NoScore:
    """``RES142``: what RE holds instead of a score."""

    what: str


@dataclass(frozen=True)
class KomiNeed:
    """The komi under which a count would give RE: exactly ``komi``, or ``more`` or ``less``
    than it (RE names the winner alone)."""

    komi: float
    side: str | None = None


@dataclass(frozen=True)
class KomiUnknown:
    """``RES131``: why the komi is unknown, the count before komi, RE, and the komi RE needs."""

    why: str
    counted: str
    recorded: str
    need: KomiNeed


@dataclass(frozen=True)
class FarFromEnd:
    """``RES122``: the share of the board still open to both colours, the count and its
    reading, RE, and whether RE has a margin."""

    open_share: float
    counted: str
    reading: str
    recorded: str
    margin: bool


@dataclass(frozen=True)
class Match:
    """A match by one count (``RES101``, ``RES102``, ``RES103``, ``RES105``)."""

    reproduced: Reproduced
    counted: str
    reading: str
    own: bool
    """The record's own reading."""
    way: str
    """How the doubtful chains went (``as judged``)."""
    recorded: str
    delta: float | None
    margin: bool
    """RE has a margin (or is a draw)."""
    finish: Finish | None
    """The solved line, where the count is the solved count."""


@dataclass(frozen=True)
class BandMatch:
    """A match by a band (``RES104``; ``RES103`` for a winner alone): the recorded winner wins
    throughout it (``winner``), RE lies in it (``in band``), or nothing is left open and the
    count with every settled decision is RE (``sealed``)."""

    how: str
    band: NamedBand
    reading: str
    own: bool
    solved: tuple[str, Finish] | None = None
    """A solved count that is not RE (its result and line): the winner is confirmed, not the
    margin."""


@dataclass(frozen=True)
class ReadingDecides:
    """``RES125``: the counts (or bands) of the readings giving different winners, and RE."""

    counts: tuple[tuple[str, str | NamedBand], ...]
    recorded: str


@dataclass(frozen=True)
class BandUndecided:
    """``RES128``: RE, and the wide bands of the readings."""

    recorded: str
    wide: tuple[BandAt, ...]


@dataclass(frozen=True)
class OffBand:
    """RE outside the bands: the count with every settled decision and its reading, RE, how far
    outside (None: the other colour wins throughout), the wide bands.

    - ``RES129`` (``slack``: the points a stopped game may still hold);
    - ``RES130`` (``confirmed``: the band gives RE's winner throughout, else part of it;
      ``units``: RE's margin is no count in points as written, and why);
    - ``RES112`` (``why``: why the count is a band; ``sealed``: nothing is left open;
      ``open_winner``: no band confirms the recorded winner either)."""

    settled: float
    reading: str
    recorded: str
    distance: float | None
    wide: tuple[BandAt, ...]
    slack: float = 0.0
    confirmed: bool = False
    units: str | None = None
    why: str = ""
    sealed: bool = False
    open_winner: bool = False


@dataclass(frozen=True)
class AsCounted:
    """A count taken as it stands that does not give RE: the count, its reading, RE and the
    difference for Black.

    - ``RES123``: nothing more (no dead-stone information);
    - ``RES126`` (``why``: why the count is no firm one; ``agreeing``: the counts that give the
      recorded winner);
    - ``RES111`` (``ways``: other ways of the doubtful chains were counted; ``readings``: the
      readings checked, where more than one)."""

    counted: str
    reading: str
    recorded: str
    delta: float | None
    why: str = ""
    agreeing: tuple[Counted, ...] = ()
    ways: bool = False
    readings: tuple[str, ...] = ()


@dataclass(frozen=True)
class UndecidedChains:
    """``RES124``: each way of the chains the estimate could not decide, and its count."""

    ways: tuple[Counted, ...]


@dataclass(frozen=True)
class InBandNotSolved:
    """``RES127``: RE, the band it lies in and its reading, the solved counts (result, reading)
    and the first one's line."""

    recorded: str
    band: NamedBand
    reading: str
    solved: tuple[tuple[str, str], ...]
    finish: Finish


@dataclass(frozen=True)
class OnAssumption:
    """``RES132``: a mismatch (its reason and facts) that rests on what a count assumes about
    the record (each doubt's words), and the komi RE would need where the komi is read by a
    convention."""

    reason: Reason
    facts: Facts
    doubts: tuple[str, ...]
    recorded: str
    need: KomiNeed | None = None


Facts = (Plain | Ended | NoScore | KomiUnknown | FarFromEnd | Match | BandMatch | ReadingDecides
         | BandUndecided | OffBand | AsCounted | UndecidedChains | InBandNotSolved | OnAssumption)
"""What a reason rests on: one record per kind of reason."""


class Answer(StrEnum):
    """What a second judge's count made of the first judge's verdict."""

    CONFIRMED = "confirmed"
    """The first judge's mismatch, confirmed: the engine's mismatch is the verdict."""
    NOT_CONFIRMED = "not confirmed"
    """The first judge's mismatch, not confirmed: the engine's verdict is the verdict."""
    DECIDED = "decided"
    """The first judge's open verdict, decided by the engine's count giving RE."""
    LEFT_OPEN = "left open"
    """The first judge's open verdict stands: the engine's verdict does not decide it."""


@dataclass(frozen=True)
class Second:
    """A second opinion on the verdict (``--engine auto``): the engine asked (its source's
    name), whether its count rests on its ownership too, what it made of the first judge's
    verdict, and the verdict it did not give (the estimate's, or the engine's that left it
    open): its status, code, count and reading."""

    engine: str
    ownership: bool
    answer: Answer
    recorded: str
    other_status: CheckStatus
    other_code: Reason | None
    other_computed: str | None
    other_reading: str | None
