"""The verdict weighed: the record's own reading as judged first; where that does not settle
it, every reading the record allows (its komi and rules, a server's own count) and every way the
doubtful chains may go, each counted (:class:`~sgfcheck.counting.judged.Counts`) and checked
(:func:`~sgfcheck.verdict.decide.check_result`); each row's band over the ways, and the row
of the verdict's reading.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgfcheck.counting.band import Band, union
from sgfcheck.counting.count import Score
from sgfcheck.counting.explain import Difference
from sgfcheck.counting.judged import (
    Counts,
    Judgement,
    Rows,
    Way,
    Worked,
    judged_open_share,
    judged_owners,
    weak_ways,
)
from sgfcheck.counting.ways import way_chains
from sgfcheck.endgame.finish import Finish
from sgfcheck.records.results import Result
from sgfcheck.replay.check import GameReport
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset
from sgfcheck.verdict.decide import (
    AS_JUDGED,
    CheckStatus,
    Outcome,
    Reproduced,
    ResultCheck,
    check_result,
)
from sgfcheck.verdict.decision import Asked, Weighing
from sgfcheck.verdict.servers import BY_COUNTING, server_readings


@dataclass(frozen=True)
class Scoring:
    """What the verdict of a game is weighed on: its check, the position judged, its counts
    and the cache of the ways, the replay."""

    report: GameReport
    judgement: Judgement
    counts: Counts
    worked: Worked
    rep: Replay


def weigh_result(scoring: Scoring, asked: Asked, base: Score, band: Band | None) -> Weighing:
    """The verdict on RE: the record's own reading as judged first; where that settles it (not
    a score, no dead-stone information in an unfinished game, or the margin exactly), the
    other readings and ways would not change it; else every reading and way is weighed. (A
    winner alone is confirmed only when every reading and way gives it: always weighed.)"""
    judgement, report = scoring.judgement, scoring.report
    dead, own = judgement.dead, base.ruleset
    own_as_judged = Outcome(asked.readings[0], AS_JUDGED, base, band,
                            finish=scoring.counts.solved_line(own))
    quick = check_result(report.result, [own_as_judged], dead, judgement.final,
                         judged_open_share(scoring.counts, judgement.position, dead),
                         doubts=asked.doubts, rests_on=asked.conventions,
                         komi_unknown=asked.komi_unknown, name=scoring.rep.board.name)
    exact = quick.reproduced is Reproduced.MARGIN
    if (quick.status is CheckStatus.NOT_SCORED or (dead.assumed and not judgement.final)
            or (asked.readings[0].possible and quick.status is CheckStatus.MATCH and exact)):
        return Weighing(quick, asked)
    verdict, outcomes = weigh_all(scoring, asked, own, report.result)
    return Weighing(verdict, asked, tuple(outcomes))


def counted_rows(scores: list[Score], bands: list[Band | None], differences: tuple[Difference, ...],
                 finishes: tuple[Finish, ...], weighed: Weighing) -> Rows:
    """The table of counts, ``reading_row`` at the row the verdict rests on, the row of its
    reading (its count as judged, its band over the settled ways) added when none of the rows
    counts it: the answer always names a count the table shows."""
    rc = weighed.result_check
    if rc is None or rc.status is CheckStatus.NOT_SCORED or rc.under is None:
        return Rows(scores, bands, differences, finishes=finishes)
    under = rc.under
    row = next((i for i, s in enumerate(scores) if not under.counting.server
                and s.ruleset.name == under.ruleset.name
                and s.ruleset.komi == under.ruleset.komi), None)
    if row is not None:
        return Rows(scores, bands, differences, row, finishes=finishes)
    mine = [o for o in weighed.outcomes if o.reading is under and o.settled]
    if not mine:  # the komi is unknown: the rows are counted without it, the own row first
        return Rows(scores, bands, differences, finishes=finishes)
    outcome_bands = [o.band for o in mine]
    band = None if any(b is None for b in outcome_bands) else union(
        [b for b in outcome_bands if b is not None], way_chains(o.way for o in mine[1:]))
    reading, own = mine[0].reading, scores[0].ruleset
    name = [reading.ruleset.name]
    if reading.ruleset.komi != own.komi:
        name.append(f"komi {reading.ruleset.komi:g}")
    if reading.counting.server:
        name.append(BY_COUNTING[reading.counting].short)
    return Rows([*scores, mine[0].score], [*bands, band], differences, len(scores),
                ", ".join(name), finishes)


def weigh_all(scoring: Scoring, asked: Asked, own: Ruleset, result: Result
             ) -> tuple[ResultCheck, list[Outcome]]:
    """The full result check and the counts it weighed (each reading, each way)."""
    judgement, rep = scoring.judgement, scoring.rep
    dead, position = judgement.dead, judgement.position
    # The ways the unsettled chains may go (the settled band), then those that also turn the
    # estimate's less sure decisions (the wide band: a mismatch must lie outside it too).
    unsettled = scoring.worked.ways
    judged = Way(AS_JUDGED, position, judged_owners(scoring.counts, position, dead))
    ways = [(judged, True)] + [(way, True) for way in unsettled] + [
        (way, False) for way in weak_ways(dead, rep, unsettled)]
    readings = list(asked.readings)
    if not asked.readings_fixed:
        readings += server_readings(scoring.report.game, own, dead, position, readings)
    outcomes = []
    for reading in readings:
        for way, settled in ways:
            server = BY_COUNTING.get(reading.counting)
            score, band, finish = scoring.counts.outcome(
                reading.ruleset, way,
                None if server is None else server.territory(way.position, dead),
                "" if server is None else server.counted_as,
                way.how == AS_JUDGED and server is None)
            outcomes.append(Outcome(reading, way.how, score, band, settled, finish))
    return check_result(result, outcomes, dead, judgement.final,
                        judged_open_share(scoring.counts, position, dead, judged.owners),
                        doubts=asked.doubts,
                        rests_on=asked.conventions, komi_unknown=asked.komi_unknown,
                        name=rep.board.name), outcomes
