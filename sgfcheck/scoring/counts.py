"""The counts of one judged position: each ruleset's one count, and the band that holds it.

A count rests on the dead stones' judgement. Where that judgement is firm (the players'
markup, the user's dead stones, a finished game counted as it stands), the count is the count as
it stands and there is no band. Where it is a judgement of the position (the estimate, an
engine, proofs alone), a row's count is:

- **the solved count**, where every chain is settled and the game did not end by two passes:
  the last open points played out as well as possible by both sides, the side to move taken
  from the record (:mod:`sgfcheck.scoring.finish`), and the position counted;
- else **the count with every settled decision**: the count as it stands and the points not
  yet enclosed that the judgement settles (:mod:`sgfcheck.scoring.owners`); in a game that
  ended by two passes, the count as it stands (a server counts that position as it is: a point
  not enclosed is nobody's).

Its **band** is the least and the greatest margin the open points and unsettled chains allow
(:mod:`sgfcheck.scoring.band`), and always holds the row's count (a solved count the band's rule
of thumb did not reach widens it). The result check (:mod:`sgfcheck.scoring.result_check`)
reads both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sgfcheck.colour import Colour
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset
from sgfcheck.scoring.band import Band, band_of, holding, union
from sgfcheck.scoring.count import Score, count
from sgfcheck.scoring.finish import Finish, Objective, finish, finished_count, objective_of
from sgfcheck.scoring.owners import PointOwners, point_owners
from sgfcheck.scoring.position import Position


@dataclass(frozen=True)
class Solving:
    """Whether and how a position's last points are played out: never where the judgement is
    firm, the game ended by two passes, nothing is known of the dead stones or a chain is
    unsettled (its reason says which, for the notes)."""

    to_move: Colour
    passes: int
    """Passes in a row at the record's end (0 or 1)."""
    budget: int
    """``--limit solver``: positions searched at most."""
    why_not: str | None = None


@dataclass
class Counts:
    """The counts of one judged position (see the module's text): made once, each ruleset's
    count and each objective's solved line worked out when first asked."""

    position: Position
    replay: Replay
    dead: DeadStones
    handicap: int
    banded: bool
    """The count rests on a judgement of the position: rows have bands and settled points."""
    final: bool
    """The game ended by two passes (no move left in hand)."""
    solving: Solving
    owners: PointOwners | None = None
    settled: Mapping[int, int] = field(default_factory=dict)
    _finishes: dict[Objective, Finish] = field(default_factory=dict, repr=False)
    _solved: dict[Ruleset, Score | None] = field(default_factory=dict, repr=False)
    _refused: dict[Ruleset, str] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, position: Position, replay: Replay, dead: DeadStones, handicap: int,
           banded: bool, final: bool, solving: Solving) -> Counts:
        owners = point_owners(position, dead.ownership) if banded else None
        settled = owners.settled if owners is not None and not final else {}
        return cls(position, replay, dead, handicap, banded, final, solving, owners, settled)

    def finish(self, objective: Objective) -> Finish | None:
        """The last points played out for ``objective`` (None where they are not: see
        :class:`Solving`)."""
        if self.solving.why_not is not None:
            return None
        found = self._finishes.get(objective)
        if found is None:
            found = self._finishes[objective] = finish(
                self.position, self.solving.to_move, self.solving.passes, objective,
                self.solving.budget, self.owners)
        return found

    @property
    def finishes(self) -> tuple[Finish, ...]:
        """The solved lines worked out so far (one an objective asked)."""
        return tuple(self._finishes[o] for o in Objective if o in self._finishes)

    def solved(self, ruleset: Ruleset) -> Score | None:
        """``ruleset``'s solved count, where the last points are solved and the referee's
        count of the solved line agrees with the search's."""
        if ruleset in self._solved:
            return self._solved[ruleset]
        found = self.finish(objective_of(ruleset))
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
        return self.finish(objective_of(ruleset)) if self.solved(ruleset) is not None else None

    def refused(self, ruleset: Ruleset) -> str | None:
        """Why a solved line was not counted under ``ruleset`` (the referee's count parted from
        the search's), if it was not."""
        self.solved(ruleset)
        return self._refused.get(ruleset)

    def settled_count(self, ruleset: Ruleset, where: Position | None = None,
                      marked: dict[Colour, set[int]] | None = None,
                      counted_as: str = "") -> Score:
        """The count as it stands with the settled points (of ``where``, another way the
        doubtful chains may go; by default the position as judged)."""
        if where is None or where is self.position:
            settled = self.settled
            where = self.position
        else:
            settled = (point_owners(where, self.dead.ownership).settled
                       if self.banded and not self.final else {})
        return count(where, self.replay, ruleset, self.handicap, marked, counted_as, settled)

    def score(self, ruleset: Ruleset) -> Score:
        """``ruleset``'s one count: solved where it is, else with the settled points."""
        return self.solved(ruleset) or self.settled_count(ruleset)

    def outcome(self, ruleset: Ruleset, where: Position, marked: dict[Colour, set[int]] | None,
                counted_as: str, solvable: bool, banded: bool
                ) -> tuple[Score, Band | None, Finish | None]:
        """One count the result check weighs: ``ruleset``'s count of ``where`` (one way the
        doubtful chains may go; ``marked``/``counted_as``: a server's territory), its band where
        ``banded``, and where ``solvable`` (the position as judged, the referee's count) the
        solved count instead, its band holding it, with its solved line."""
        counted = self.settled_count(ruleset, where, marked, counted_as)
        solved = self.solved(ruleset) if solvable else None
        band = band_of(counted, where, self.dead.ownership, self.final) if banded else None
        if band is not None and solved is not None:
            band = holding(band, solved.margin)
        if solved is None:
            return counted, band, None
        return solved, band, self.solved_line(ruleset)

    def band(self, ruleset: Ruleset, ways: list[tuple[str, Position]],
             unsettled: tuple[str, ...]) -> Band | None:
        """``ruleset``'s band over the position as judged and the ``ways`` the unsettled chains
        may go, holding the row's count (None where the count rests on a firm judgement)."""
        if not self.banded:
            return None
        ownership = self.dead.ownership
        bands = [band_of(self.settled_count(ruleset), self.position, ownership, self.final)]
        bands += [band_of(self.settled_count(ruleset, where), where, ownership, self.final)
                  for _, where in ways]
        return holding(union(bands, unsettled), self.score(ruleset).margin)
