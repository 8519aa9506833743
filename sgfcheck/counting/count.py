"""Counting a position under one ruleset: each colour's components, the total and the margin.

A count is a documented function of the analysed position (:mod:`sgfcheck.position.analysis`, dead
stones already removed) and of facts from the replay (prisoners, passes). Each :class:`Score`
carries its margin split into named contributions, so that two rulesets' results can be compared
term by term (:mod:`sgfcheck.counting.explain`).

Methods:
- area: stones on the board + empty points reached only by that colour (Tromp-Taylor, Chinese);
- territory: empty points surrounded by one colour + prisoners (captures and dead stones);
- territory + pass stones (AGA, BGA): as territory, and every pass hands the opponent a
  prisoner; White passes last (if Black passed last, White's extra pass is counted);
- stones: area minus 2 points per living group (the group tax) and minus eyes in seki.
Under ``tax = seki`` or ``all`` empty points surrounded by groups in seki count for nobody
(Japanese 1989 Art. 8).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from sgfcheck.colour import BLACK, EMPTY, WHITE, Colour
from sgfcheck.position.analysis import Position
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset, Scoring, Tax
from sgfcheck.status import StrEnum


class Method(StrEnum):
    AREA = "area"
    TERRITORY = "territory"
    TERRITORY_PASS_STONES = "territory + pass stones"
    STONES = "stones"

    @property
    def counts_stones(self) -> bool:
        """Area and stone counting count the stones on the board, not prisoners."""
        return self in (Method.AREA, Method.STONES)


@dataclass
class Side:
    """One colour's count under one ruleset. Fields that a method does not use stay 0."""

    empty: int = 0
    """Empty points counted (territory, or the empty part of area)."""
    settled: int = 0
    """Empty points not yet enclosed that the judgement of the position settles for this colour
    (both sides' ownership agrees: :mod:`sgfcheck.position.owners`), counted as territory."""
    stones: int = 0
    prisoners: int = 0
    dead: int = 0
    """Opponent stones removed as dead (prisoners under territory counting)."""
    pass_stones: int = 0
    seki_excluded: int = 0
    must_fill: int = 0
    """Own points still to be filled, not counted as territory."""
    tax: int = 0
    komi: float = 0.0
    handicap_bonus: int = 0
    pass_bonus: float = 0.0
    total: float = 0.0


@dataclass
class Score:
    ruleset: Ruleset
    method: Method
    black: Side
    white: Side
    margin: float
    """Black's total minus White's total."""
    winner: Colour | None
    contributions: dict[str, float]
    """The margin, term by term (each term is Black's part minus White's)."""
    notes: list[str] = field(default_factory=list)
    solved: bool = False
    """The count of the position at the end of the solved line: the last open points played
    out as well as possible by both sides (:mod:`sgfcheck.endgame.finish`)."""

    @property
    def result_text(self) -> str:
        if self.winner is None:
            return "jigo (draw)"
        return f"{self.winner.letter}+{abs(self.margin):g}"

    def sides(self) -> tuple[tuple[Colour, Side], tuple[Colour, Side]]:
        return (BLACK, self.black), (WHITE, self.white)

    def as_solved(self) -> Score:
        """The same count, as the count of a solved line's end."""
        return replace(self, solved=True)


def count(position: Position, replay: Replay, ruleset: Ruleset, handicap: int,
          marked: dict[Colour, set[int]] | None = None, counted_as: str = "",
          settled: Mapping[int, int] | None = None) -> Score:
    """Count a position under one ruleset: the empty points of the referee's map, or, with
    ``marked``, each colour's territory as a server counted it (the record's marks as they
    stand, OGS's regions), ``counted_as`` saying which in the count's notes. ``settled``: the
    points not yet enclosed that the judgement of the position gives a colour (point -> its
    colour), counted as that colour's territory."""
    b, w = Side(), Side()
    for colour in (settled or {}).values():
        (b if colour == BLACK else w).settled += 1
    notes: list[str] = []
    sides = {BLACK: b, WHITE: w}
    territory = ruleset.scoring is Scoring.TERRITORY or ruleset.pass_stones
    _board_terms(sides, position, replay, ruleset, marked, territory)
    if marked is not None:
        notes.append(counted_as or "territory as the record marks it (TB/TW), counted as it "
                     "stands")
    method = _method(ruleset)
    _bonus_terms(sides, replay, ruleset, handicap, territory, notes)
    for side in (b, w):
        side.total = (side.empty + side.settled - side.seki_excluded - side.must_fill + side.stones
                      + side.prisoners + side.dead + side.pass_stones - side.tax + side.komi
                      + side.handicap_bonus + side.pass_bonus)
    margin = b.total - w.total
    winner: Colour | None = BLACK if margin > 0 else WHITE if margin < 0 else None
    if winner is None and ruleset.black_wins_ties:
        winner = BLACK
        notes.append("a tie: Black wins ties under these rules")
    return Score(ruleset, method, b, w, margin, winner, _contributions(b, w), notes)


def _board_terms(sides: dict[Colour, Side], position: Position, replay: Replay,
                 ruleset: Ruleset, marked: dict[Colour, set[int]] | None,
                 territory: bool) -> None:
    """What each side counts on the board: empty points (or the marks), seki points not
    counted, stones or prisoners and dead stones, points still to fill, the group tax."""
    exclude_seki = ruleset.tax is not Tax.NONE and marked is None
    for c, side in sides.items():
        side.empty = position.empty[c] if marked is None else len(marked[c])
        if exclude_seki:
            side.seki_excluded = len(position.seki_empty[c])
        if territory:
            side.prisoners = replay.prisoners[c]
            side.dead = position.dead[c.opponent]
            if ruleset.scoring is Scoring.TERRITORY and marked is None:
                seki = set(position.seki_empty[c]) if exclude_seki else set()
                side.must_fill = sum(1 for p in position.must_fill[c] if p not in seki)
        else:
            side.stones = position.stones[c]
        if ruleset.tax is Tax.ALL:
            side.tax = 2 * position.groups[c]


def _method(ruleset: Ruleset) -> Method:
    if ruleset.pass_stones:
        return Method.TERRITORY_PASS_STONES
    if ruleset.scoring is Scoring.TERRITORY:
        return Method.TERRITORY
    if ruleset.scoring is Scoring.STONE:
        return Method.STONES
    return Method.AREA


def _bonus_terms(sides: dict[Colour, Side], replay: Replay, ruleset: Ruleset, handicap: int,
                 territory: bool, notes: list[str]) -> None:
    """What the rules add beside the board: pass stones, komi, the handicap bonus, the
    first-pass bonuses."""
    b, w = sides[BLACK], sides[WHITE]
    if ruleset.pass_stones:
        b.pass_stones = replay.passes[WHITE]
        w.pass_stones = replay.passes[BLACK]
        if ruleset.white_passes_last and replay.last_pass == BLACK:
            b.pass_stones += 1
            notes.append("Black passed last, and the rules want White to pass last: "
                         "White's extra pass gives Black one more pass stone")
    w.komi = ruleset.komi
    if not territory:
        w.handicap_bonus = ruleset.handicap_bonus.points(handicap)
    if ruleset.first_pass_bonus and replay.first_pass is not None:
        sides[replay.first_pass].pass_bonus += ruleset.first_pass_bonus
    if ruleset.white_first_pass_bonus and replay.first_pass == WHITE:
        w.pass_bonus += ruleset.white_first_pass_bonus
        notes.append(f"White passed first: +{ruleset.white_first_pass_bonus:g} to White")


def _contributions(b: Side, w: Side) -> dict[str, float]:
    """The margin, term by term (Black's part minus White's)."""
    return {
        "empty points": float(b.empty - w.empty),
        "settled points": float(b.settled - w.settled),
        "seki points not counted": float(-(b.seki_excluded - w.seki_excluded)),
        "points still to fill": float(-(b.must_fill - w.must_fill)),
        "stones on the board": float(b.stones - w.stones),
        "prisoners": float(b.prisoners - w.prisoners),
        "dead stones": float(b.dead - w.dead),
        "pass stones": float(b.pass_stones - w.pass_stones),
        "group tax": float(-(b.tax - w.tax)),
        "komi": -w.komi + b.komi,
        "handicap bonus": float(-w.handicap_bonus),
        "first-pass bonus": b.pass_bonus - w.pass_bonus,
    }


@dataclass
class CountedPoints:
    """Where a count's empty points went, point by point (for pictures): the points counted for
    each colour, and the own points it does not count (seki eyes, points still to fill)."""

    territory: dict[int, Colour]
    """Empty points counted for a colour (dead stones' points included: they are empty once the
    dead stones are removed)."""
    seki: set[int]
    """Own points of groups in seki that count for nobody (``tax`` seki or all)."""
    fill: set[int]
    """Own points a colour must still fill, not counted (territory counting)."""


def counted_points(position: Position, ruleset: Ruleset) -> CountedPoints:
    """The points behind :func:`count`'s ``empty``, ``seki_excluded`` and ``must_fill``: for
    every colour, ``len`` of its territory here equals ``empty - seki_excluded - must_fill``."""
    exclude_seki = ruleset.tax is not Tax.NONE
    territory_counting = ruleset.scoring is Scoring.TERRITORY
    owner = position.owner
    seki: set[int] = set()
    fill: set[int] = set()
    if exclude_seki:
        for side in (BLACK, WHITE):
            seki.update(position.seki_empty[side])
    if territory_counting:
        for side in (BLACK, WHITE):
            fill.update(p for p in position.must_fill[side] if p not in seki)
    left_out = seki | fill
    territory = {p: _OWNED[owner[p]] for p, here in enumerate(position.colour)
                 if here == EMPTY and owner[p] in _OWNED and p not in left_out}
    return CountedPoints(territory, seki, fill)


_OWNED: dict[int, Colour] = {int(BLACK): BLACK, int(WHITE): WHITE}
"""The colour of an empty point's owner (1 or 2; 0 nobody, 3 both: not owned)."""
