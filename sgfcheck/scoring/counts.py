"""The counts of one judged position: each ruleset's one count, and the band that holds it.

A count rests on the dead stones' judgement. Where that judgement is firm (the players'
markup, the user's dead stones, a finished game counted as it stands), the count is the count as
it stands and there is no band. Where it is a judgement of the position (the estimate, an
engine, proofs alone), a row's count is:

- **the solved count**, where every chain is settled and the game did not end by two passes:
  the last open points played out as well as possible by both sides from the record's own
  state, worked out once by the endgame stage before any count (:mod:`sgfcheck.endgame`), and
  the position its line ends in counted here (:func:`finished_count`);
- else **the count with every settled decision**: the count as it stands and the points not
  yet enclosed that the judgement settles (:mod:`sgfcheck.position.owners`); in a game that
  ended by two passes, the count as it stands (a server counts that position as it is: a point
  not enclosed is nobody's).

Its **band** is the least and the greatest margin the open points and unsettled chains allow
(:mod:`sgfcheck.scoring.band`), and always holds the row's count (a solved count the band's rule
of thumb did not reach widens it). The result check (:mod:`sgfcheck.scoring.result_check`)
reads both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from sgfcheck.colour import EMPTY, Colour
from sgfcheck.endgame.finish import Finish, objective_of, played
from sgfcheck.endgame.stage import Endgame
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.position.analysis import Position
from sgfcheck.position.owners import PointOwners
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset
from sgfcheck.scoring.band import Band, band_of, holding, union
from sgfcheck.scoring.count import CountedPoints, Score, count, counted_points


@dataclass(frozen=True)
class Way:
    """One way the doubtful chains may go (``how``: its name; the position as judged is one):
    its position analysed, and the points its count gives nobody read from both sides, worked
    out once for every reading and row that counts it."""

    how: str
    position: Position
    owners: PointOwners


@dataclass
class Counts:
    """The counts of one judged position (see the module's text): made once, each ruleset's
    count worked out when first asked, from the endgame worked out before them."""

    position: Position
    replay: Replay
    dead: DeadStones
    handicap: int
    banded: bool
    """The count rests on a judgement of the position: rows have bands and settled points."""
    final: bool
    """The game ended by two passes (no move left in hand)."""
    endgame: Endgame
    owners: PointOwners | None = None
    settled: Mapping[int, int] = field(default_factory=dict)
    _solved: dict[Ruleset, Score | None] = field(default_factory=dict, repr=False)
    _refused: dict[Ruleset, str] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, position: Position, replay: Replay, dead: DeadStones, handicap: int,
           banded: bool, final: bool, endgame: Endgame,
           owners: PointOwners | None = None) -> Counts:
        settled = owners.settled if owners is not None and not final else {}
        return cls(position, replay, dead, handicap, banded, final, endgame, owners, settled)

    def finish(self, ruleset: Ruleset) -> Finish | None:
        """The last points played out for ``ruleset``'s way of counting (None where they are
        not: see :class:`~sgfcheck.endgame.stage.Solving`)."""
        return self.endgame.of(objective_of(ruleset))

    @property
    def finishes(self) -> tuple[Finish, ...]:
        """The solved lines of the endgame (one a way of counting asked)."""
        return self.endgame.finishes

    def solved(self, ruleset: Ruleset) -> Score | None:
        """``ruleset``'s solved count, where the last points are solved and the referee's
        count of the solved line agrees with the search's."""
        if ruleset in self._solved:
            return self._solved[ruleset]
        found = self.finish(ruleset)
        score = None
        if found is not None and found.solved:
            counted = finished_count(found, self.position, self.replay, ruleset, self.handicap)
            score = counted.score
            if counted.why is not None:
                self._refused[ruleset] = counted.why
        self._solved[ruleset] = score
        return score

    def solved_line(self, ruleset: Ruleset) -> Finish | None:
        """The solved line behind ``ruleset``'s solved count (None where it has none)."""
        return self.finish(ruleset) if self.solved(ruleset) is not None else None

    def refused(self, ruleset: Ruleset) -> str | None:
        """Why a solved line was not counted under ``ruleset`` (the referee's count parted from
        the search's), if it was not."""
        self.solved(ruleset)
        return self._refused.get(ruleset)

    def settled_count(self, ruleset: Ruleset, way: Way | None = None,
                      marked: dict[Colour, set[int]] | None = None,
                      counted_as: str = "") -> Score:
        """The count as it stands with the settled points (of ``way``, another way the
        doubtful chains may go; by default the position as judged)."""
        if way is None or way.position is self.position:
            settled, where = self.settled, self.position
        else:
            settled = way.owners.settled if self.banded and not self.final else {}
            where = way.position
        return count(where, self.replay, ruleset, self.handicap, marked, counted_as, settled)

    def score(self, ruleset: Ruleset) -> Score:
        """``ruleset``'s one count: solved where it is, else with the settled points."""
        return self.solved(ruleset) or self.settled_count(ruleset)

    def outcome(self, ruleset: Ruleset, way: Way, marked: dict[Colour, set[int]] | None,
                counted_as: str, solvable: bool, banded: bool
                ) -> tuple[Score, Band | None, Finish | None]:
        """One count the result check weighs: ``ruleset``'s count of ``way`` (one way the
        doubtful chains may go; ``marked``/``counted_as``: a server's territory), its band where
        ``banded``, and where ``solvable`` (the position as judged, the referee's count) the
        solved count instead, its band holding it, with its solved line."""
        counted = self.settled_count(ruleset, way, marked, counted_as)
        solved = self.solved(ruleset) if solvable else None
        band = band_of(counted, way.owners, self.final) if banded else None
        if band is not None and solved is not None:
            band = holding(band, solved.margin)
        if solved is None:
            return counted, band, None
        return solved, band, self.solved_line(ruleset)

    def band(self, ruleset: Ruleset, ways: Sequence[Way],
             unsettled: tuple[str, ...]) -> Band | None:
        """``ruleset``'s band over the position as judged and the ``ways`` the unsettled chains
        may go, holding the row's count (None where the count rests on a firm judgement)."""
        if not self.banded:
            return None
        assert self.owners is not None  # worked out for every banded count
        bands = [band_of(self.settled_count(ruleset), self.owners, self.final)]
        bands += [band_of(self.settled_count(ruleset, way), way.owners, self.final)
                  for way in ways]
        return holding(union(bands, unsettled), self.score(ruleset).margin)


# --- the count of the finished position ----------------------------------------------------------


@dataclass(frozen=True)
class Finished:
    """A ruleset's count of the position the solved line ends in, or why it is not trusted."""

    score: Score | None
    why: str | None = None


def finished_count(finished: Finish, position: Position, rep: Replay, ruleset: Ruleset,
                   handicap: int) -> Finished:
    """``ruleset``'s count of the position ``finished``'s line ends in (every count's way:
    :func:`sgfcheck.scoring.count.count` on the board after the line, its captures among the
    prisoners, its plays and passes among the game's), held point by point against the
    referee's map: every point outside the search counted as it was before the line, every
    point inside as the search counted it."""
    end, stats = played(finished, position, rep)
    assert stats is not None
    assumed = dict(finished.assumed)
    after = counted_points(end, ruleset)
    unsealed = {p: c for p, c in assumed.items() if p not in after.territory}
    score = count(end, stats, ruleset, handicap, settled=unsealed)
    before = counted_points(position, ruleset)
    searched = set(finished.searched)
    board = position.board
    for p in range(len(position.colour)):
        if p in searched or position.colour[p] != EMPTY:
            continue
        if p in assumed:
            if after.territory.get(p, assumed[p]) != assumed[p] or p in after.seki \
                    or p in after.fill:
                return Finished(None, f"the referee's count of the solved line gives "
                                      f"{board.name(p)} otherwise than the settled point it "
                                      "was taken for")
            continue
        if _verdict(before, p) != _verdict(after, p):
            return Finished(None, f"the referee's count of the solved line parts from the "
                                  f"search's at {board.name(p)}, outside the points played out")
    for p, owner in finished.owners:
        if end.colour[p] != EMPTY:
            continue
        if after.territory.get(p, 0) != owner:
            return Finished(None, f"the referee's count of the solved line parts from the "
                                  f"search's at {board.name(p)} (a seki or a point to fill)")
    return Finished(replace(score, solved=True))


def _verdict(counted: CountedPoints, p: int) -> tuple[int, bool, bool]:
    """What the referee's count makes of an empty point: its territory's colour (0: none), in
    seki, to fill."""
    return int(counted.territory.get(p, 0)), p in counted.seki, p in counted.fill
