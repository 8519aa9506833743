"""The verdict weighed: the record's own reading as judged first; where that does not settle
it, every reading the record allows (its komi and rules, a server's own count) and every way the
doubtful chains may go, each counted (:class:`~sgfcheck.scoring.counts.Counts`) and checked
(:func:`~sgfcheck.scoring.result_check.check_result`); each row's band over the ways, and the row
of the verdict's reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sgfcheck.endgame.finish import Finish
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.position.analysis import Position, analyse
from sgfcheck.position.owners import PointOwners, point_owners
from sgfcheck.records.results import Result
from sgfcheck.replay.check import GameReport
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset
from sgfcheck.scoring.band import Band, union
from sgfcheck.scoring.count import Score
from sgfcheck.scoring.counts import Counts, Way
from sgfcheck.scoring.gamescore import Asked, GameScore, Judgement, Rows, Weighing, Worked
from sgfcheck.scoring.result_check import (
    AS_JUDGED,
    CheckStatus,
    Outcome,
    Reproduced,
    ResultCheck,
    basis_of,
    check_result,
)
from sgfcheck.scoring.servercount import BY_COUNTING, server_readings
from sgfcheck.scoring.ways import doubtful_chains, other_ways, way_chains


@dataclass(frozen=True)
class Scoring:
    """What the verdict of a game is weighed on: its check, the position judged, its counts
    and the cache of the ways, the replay."""

    report: GameReport
    judgement: Judgement
    counts: Counts
    worked: Worked
    rep: Replay


def verdict_of(scoring: Scoring, asked: Asked, base: Score, band: Band | None) -> Weighing:
    """The verdict on RE: the record's own reading as judged first; where that settles it (not
    a score, no dead-stone information in an unfinished game, or the margin exactly), the
    other readings and ways would not change it; else every reading and way is weighed. (A
    winner alone is confirmed only when every reading and way gives it: always weighed.)"""
    judgement, report = scoring.judgement, scoring.report
    dead, own = judgement.dead, base.ruleset
    own_as_judged = Outcome(asked.readings[0], AS_JUDGED, base, band,
                            finish=scoring.counts.solved_line(own))
    quick = check_result(report.result, [own_as_judged], dead, judgement.final,
                         _open_share(scoring.counts, judgement.position, dead),
                         doubts=asked.doubts, rests_on=asked.conventions,
                         komi_unknown=asked.komi_unknown)
    exact = quick.reproduced is Reproduced.MARGIN
    if (quick.status is CheckStatus.NOT_SCORED or (dead.assumed and not judgement.final)
            or (asked.readings[0].possible and quick.status is CheckStatus.MATCH and exact)):
        return Weighing(quick, asked)
    verdict, outcomes = _weighed(scoring, asked, own, report.result)
    return Weighing(verdict, asked, tuple(outcomes))


def counted_rows(scores: list[Score], bands: list[Band | None], explanations: list[str],
                 finishes: tuple[Finish, ...], weighed: Weighing) -> Rows:
    """The table of counts, ``reading_row`` at the row the verdict rests on, the row of its
    reading (its count as judged, its band over the settled ways) added when none of the rows
    counts it: the answer always names a count the table shows."""
    rc = weighed.result_check
    if rc is None or rc.status is CheckStatus.NOT_SCORED or rc.under is None:
        return Rows(scores, bands, explanations, finishes=finishes)
    under = rc.under
    row = next((i for i, s in enumerate(scores) if not under.counting.server
                and s.ruleset.name == under.ruleset.name
                and s.ruleset.komi == under.ruleset.komi), None)
    if row is not None:
        return Rows(scores, bands, explanations, row, finishes=finishes)
    mine = [o for o in weighed.outcomes if o.reading is under and o.settled]
    if not mine:  # the komi is unknown: the rows are counted without it, the own row first
        return Rows(scores, bands, explanations, finishes=finishes)
    outcome_bands = [o.band for o in mine]
    band = None if any(b is None for b in outcome_bands) else union(
        [b for b in outcome_bands if b is not None], way_chains(o.way for o in mine[1:]))
    reading, own = mine[0].reading, scores[0].ruleset
    name = [reading.ruleset.name]
    if reading.ruleset.komi != own.komi:
        name.append(f"komi {reading.ruleset.komi:g}")
    if reading.counting.server:
        name.append(BY_COUNTING[reading.counting].short)
    return Rows([*scores, mine[0].score], [*bands, band], explanations, len(scores),
                ", ".join(name), finishes)


def unsettled_ways(dead: DeadStones, rep: Replay) -> tuple[Way, ...]:
    """Every way the unsettled chains may go, its position analysed and its owners read once
    for the rows' bands and the result check (none where no chain is unsettled)."""
    return tuple(_way(how, analyse(rep.board, stones), dead) for how, stones in
                 other_ways(rep.board, dead, dead.uncertain))


def _way(how: str, where: Position, dead: DeadStones) -> Way:
    return Way(how, where, point_owners(where, dead.ownership))


def row_bands(counts: Counts, ways: Sequence[Way], scores: list[Score]) -> list[Band | None]:
    """Each row's band over the ways the unsettled chains may go, holding the row's count
    (:class:`~sgfcheck.scoring.counts.Counts`), when the count rests on a judgement of the
    position."""
    if not counts.banded:
        return [None] * len(scores)
    names = way_chains(way.how for way in ways)
    return [counts.band(score.ruleset, ways, names) for score in scores]


def weigh(game: GameScore, rep: Replay, result: Result) -> ResultCheck:
    """The full result check of a scored game: every reading, every way its doubtful chains
    may go. ``result`` may differ from the record's (a benchmark checks falsified results on
    the same position). Nothing of ``game`` is changed."""
    counts = game.worked.counts
    assert game.judged is not None and counts is not None and game.scores
    scoring = Scoring(game.check, game.judged, counts, game.worked, rep)
    return _weighed(scoring, game.weighing.asked, game.scores[0].ruleset, result)[0]


def _weighed(scoring: Scoring, asked: Asked, own: Ruleset, result: Result
             ) -> tuple[ResultCheck, list[Outcome]]:
    """The full result check and the counts it weighed (each reading, each way)."""
    judgement, rep = scoring.judgement, scoring.rep
    dead, position = judgement.dead, judgement.position
    # The ways the unsettled chains may go (the settled band), then those that also turn the
    # estimate's less sure decisions (the wide band: a mismatch must lie outside it too).
    unsettled = scoring.worked.ways
    known = {way.position.dead_points for way in unsettled}
    weak = [(how, stones) for how, stones in other_ways(rep.board, dead, doubtful_chains(dead))
            if frozenset(stones) not in known]
    judged = Way(AS_JUDGED, position, _owners(scoring.counts, position, dead))
    ways = [(judged, True)] + [(way, True) for way in unsettled] + [
        (_way(how, analyse(rep.board, stones), dead), False) for how, stones in weak]
    readings = list(asked.readings)
    if not asked.readings_fixed:
        readings += server_readings(scoring.report.game, own, dead, position, readings)
    banded = not basis_of(dead, judgement.final).firm
    outcomes = []
    for reading in readings:
        for way, settled in ways:
            server = BY_COUNTING.get(reading.counting)
            score, band, finish = scoring.counts.outcome(
                reading.ruleset, way,
                None if server is None else server.territory(way.position, dead),
                "" if server is None else server.counted_as,
                way.how == AS_JUDGED and server is None, banded)
            outcomes.append(Outcome(reading, way.how, score, band, settled, finish))
    return check_result(result, outcomes, dead, judgement.final,
                        _open_share(scoring.counts, position, dead, judged.owners),
                        doubts=asked.doubts,
                        rests_on=asked.conventions, komi_unknown=asked.komi_unknown,
                        name=rep.board.name), outcomes


def open_share(position: Position, owners: PointOwners | None = None) -> float:
    """The share of the board's points in empty regions open to both colours (or to none); with
    the owners read from both sides' ownership, only the points it does not settle (their open
    points and dame)."""
    if owners is None:
        return len(position.dame) / len(position.colour)
    return (len(owners.open) + len(owners.dame)) / len(position.colour)


def _open_share(counts: Counts, position: Position, dead: DeadStones,
                owners: PointOwners | None = None) -> float:
    """:func:`open_share` of the position as judged: read on its owners (``owners``, else its
    counts') where the judge gave ownership."""
    if dead.ownership is None:
        return open_share(position)
    return open_share(position, owners or _owners(counts, position, dead))


def _owners(counts: Counts, position: Position, dead: DeadStones) -> PointOwners:
    """The owners of the position as judged: those its counts read, else worked out here."""
    return counts.owners if counts.owners is not None else point_owners(position,
                                                                          dead.ownership)
