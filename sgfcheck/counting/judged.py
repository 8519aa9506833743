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
(:mod:`sgfcheck.counting.band`), and always holds the row's count (a solved count the band's rule
of thumb did not reach widens it). The result check (:mod:`sgfcheck.verdict.decide`)
reads both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sgfcheck.colour import EMPTY, Colour
from sgfcheck.counting.band import Band, band_of, holding, union
from sgfcheck.counting.count import CountedPoints, Score, count, counted_points
from sgfcheck.counting.explain import Difference
from sgfcheck.counting.ways import doubtful_chains, other_ways, way_chains
from sgfcheck.endgame.finish import Finish, objective_of, played
from sgfcheck.endgame.stage import Endgame
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.position.analysis import Position, analyse
from sgfcheck.position.owners import PointOwners, point_owners
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset, Scoring, Tax
from sgfcheck.status import ENGINE_SOURCES, Source, Status, StrEnum


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
    _points: dict[tuple[bool, bool], CountedPoints] = field(default_factory=dict, repr=False)
    _counts: dict[tuple[Ruleset, int | None], tuple[Way | None, Score]] = field(
        default_factory=dict, repr=False)

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
            counted = finished_count(found, self.position, self.replay, ruleset, self.handicap,
                                     self._counted_points(ruleset))
            score = counted.score
            if counted.why is not None:
                self._refused[ruleset] = counted.why
        self._solved[ruleset] = score
        return score

    def _counted_points(self, ruleset: Ruleset) -> CountedPoints:
        """Where the position's empty points go under ``ruleset``'s way of counting them
        (:func:`~sgfcheck.counting.count.counted_points`), worked out once a way."""
        way = (ruleset.tax is not Tax.NONE, ruleset.scoring is Scoring.TERRITORY)
        points = self._points.get(way)
        if points is None:
            points = self._points[way] = counted_points(self.position, ruleset)
        return points

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
        if marked is not None:  # a server's territory: counted as asked
            return self._count(ruleset, way, marked, counted_as)
        key = (ruleset, None if way is None or way.position is self.position else id(way))
        kept = self._counts.get(key)
        if kept is None:  # the way kept beside its count: its id stays its own
            kept = self._counts[key] = (way, self._count(ruleset, way, None, counted_as))
        return kept[1]

    def _count(self, ruleset: Ruleset, way: Way | None, marked: dict[Colour, set[int]] | None,
               counted_as: str) -> Score:
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
                counted_as: str, solvable: bool
                ) -> tuple[Score, Band | None, Finish | None]:
        """One count the result check weighs: ``ruleset``'s count of ``way`` (one way the
        doubtful chains may go; ``marked``/``counted_as``: a server's territory), its band where
        the counts are banded, and where ``solvable`` (the position as judged, the referee's
        count) the solved count instead, its band holding it, with its solved line."""
        counted = self.settled_count(ruleset, way, marked, counted_as)
        solved = self.solved(ruleset) if solvable else None
        band = _band(counted, way.owners, self.final) if self.banded else None
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
        bands = [_band(self.settled_count(ruleset), self.owners, self.final)]
        bands += [_band(self.settled_count(ruleset, way), way.owners, self.final)
                  for way in ways]
        return holding(union(bands, unsettled), self.score(ruleset).margin)


# --- the count of the finished position ----------------------------------------------------------


def _band(score: Score, owners: PointOwners, finished: bool) -> Band:
    """The band of one count: :func:`~sgfcheck.counting.band.band_of` on its margin and its
    counting."""
    return band_of(score.margin, score.method.counts_stones, owners, finished)


@dataclass(frozen=True)
class Finished:
    """A ruleset's count of the position the solved line ends in, or why it is not trusted."""

    score: Score | None
    why: str | None = None


def finished_count(finished: Finish, position: Position, rep: Replay, ruleset: Ruleset,
                   handicap: int, before: CountedPoints) -> Finished:
    """``ruleset``'s count of the position ``finished``'s line ends in (every count's way:
    :func:`sgfcheck.counting.count.count` on the board after the line, its captures among the
    prisoners, its plays and passes among the game's), held point by point against the
    referee's map: every point outside the search counted as it was before the line, every
    point inside as the search counted it. ``before``: where ``position``'s own empty points
    go under ``ruleset`` (:func:`~sgfcheck.counting.count.counted_points`, worked out once a
    way of counting by :class:`Counts`)."""
    end, stats = played(finished, position, rep)
    assert stats is not None
    assumed = dict(finished.assumed)
    after = counted_points(end, ruleset)
    unsealed = {p: c for p, c in assumed.items() if p not in after.territory}
    score = count(end, stats, ruleset, handicap, settled=unsealed)
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
    return Finished(score.as_solved())


def _verdict(counted: CountedPoints, p: int) -> tuple[int, bool, bool]:
    """What the referee's count makes of an empty point: its territory's colour (0: none), in
    seki, to fill."""
    return int(counted.territory.get(p, 0)), p in counted.seki, p in counted.fill


@dataclass(frozen=True)
class Worked:
    """What the verdict was weighed on, kept for a second weighing of the same position (a
    benchmark's falsified result): the positions of the ways the unsettled chains may go and
    the counts of the position as judged; both made by ``score_game`` before the verdict."""

    ways: tuple[Way, ...] = ()
    """The positions of the ways the unsettled chains may go."""
    counts: Counts | None = None
    """The counts of the position as judged (each ruleset's solved line, worked out once)."""


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
          Source.USER_ALIVE: Basis.USER, Source.ESTIMATE: Basis.ESTIMATE,
          **{source: Basis.ENGINE for source in ENGINE_SOURCES}}


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


@dataclass(frozen=True)
class Judgement:
    """The position a game's count stands on: its dead stones, the position analysed once for
    every ruleset, whether the game ended by two passes, and after which move."""

    dead: DeadStones
    position: Position
    final: bool = False
    """The scored position is the end of a game that ended by two passes."""
    scored_move: int = 0

    @property
    def basis(self) -> Basis:
        """What a count of it rests on."""
        return basis_of(self.dead, self.final)


@dataclass(frozen=True)
class Rows:
    """The table of counts: one row a ruleset (the game's own first), each row's band, why the
    rows differ, the row the verdict rests on, and the solved lines behind solved rows."""

    scores: list[Score] = field(default_factory=list)
    bands: list[Band | None] = field(default_factory=list)
    """Each row's band (on a judgement of the position: the estimate, an engine, a game not
    ended by two passes), aligned with ``scores``; None on a firm basis."""
    differences: tuple[Difference, ...] = ()
    """Why each row differs from the first, as facts (the words: output/differences)."""
    reading_row: int = 0
    """The row of ``scores`` the verdict rests on: the row of its reading (a row is added for a
    reading none of the asked rows counts: a komi or a counting a convention reads)."""
    added_reading: str | None = None
    """The short name of the row added for the verdict's reading (the last row), if one was:
    ``japanese, komi 6.5``, ``japanese, OGS``."""
    finishes: tuple[Finish, ...] = ()
    """The last open points played out (one solved line for each objective the rows and
    readings asked: area, territory), or why not."""


def unsettled_ways(dead: DeadStones, rep: Replay) -> tuple[Way, ...]:
    """Every way the unsettled chains may go, its position analysed and its owners read once
    for the rows' bands and the result check (none where no chain is unsettled)."""
    return tuple(_way(how, analyse(rep.board, stones), dead) for how, stones in
                 other_ways(rep.board, dead, dead.uncertain))


def weak_ways(dead: DeadStones, rep: Replay, known: Sequence[Way]) -> tuple[Way, ...]:
    """The ways that also turn the estimate's less sure decisions (the wide band: a mismatch
    must lie outside it too), but for those already ``known``."""
    seen = {way.position.dead_points for way in known}
    return tuple(_way(how, analyse(rep.board, stones), dead) for how, stones in
                 other_ways(rep.board, dead, doubtful_chains(dead))
                 if frozenset(stones) not in seen)


def _way(how: str, where: Position, dead: DeadStones) -> Way:
    return Way(how, where, point_owners(where, dead.ownership))


def row_bands(counts: Counts, ways: Sequence[Way], scores: list[Score]) -> list[Band | None]:
    """Each row's band over the ways the unsettled chains may go, holding the row's count, when
    the count rests on a judgement of the position."""
    if not counts.banded:
        return [None] * len(scores)
    names = way_chains(way.how for way in ways)
    return [counts.band(score.ruleset, ways, names) for score in scores]


def open_share(position: Position, owners: PointOwners | None = None) -> float:
    """The share of the board's points in empty regions open to both colours (or to none); with
    the owners read from both sides' ownership, only the points it does not settle (their open
    points and dame)."""
    if owners is None:
        return len(position.dame) / len(position.colour)
    return (len(owners.open) + len(owners.dame)) / len(position.colour)


def judged_open_share(counts: Counts, position: Position, dead: DeadStones,
                      owners: PointOwners | None = None) -> float:
    """:func:`open_share` of the position as judged: read on its owners (``owners``, else its
    counts') where the judge gave ownership."""
    if dead.ownership is None:
        return open_share(position)
    return open_share(position, owners or judged_owners(counts, position, dead))


def judged_owners(counts: Counts, position: Position, dead: DeadStones) -> PointOwners:
    """The owners of the position as judged: those its counts read, else worked out here."""
    return counts.owners if counts.owners is not None else point_owners(position,
                                                                          dead.ownership)
