"""Adjudication: a game's position counted under several rulesets, why the counts differ, and
whether the recorded result is right (the library behind ``sgfcheck score`` and
``sgfcheck life``).

For each game: replay to the position asked for, find its dead stones
(:mod:`sgfcheck.judge.deadstones`), analyse it once (:mod:`sgfcheck.position.analysis`), count it
under the game's own ruleset and the rows asked for (:mod:`sgfcheck.scoring.count`), explain the
differences (:mod:`sgfcheck.scoring.explain`) and check RE (:mod:`sgfcheck.scoring.result_check`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from sgfcheck import findings as F
from sgfcheck.endgame.finish import objective_of
from sgfcheck.endgame.stage import play_out, solving
from sgfcheck.findings import Finding
from sgfcheck.judge.clock import per_file, per_game
from sgfcheck.judge.deadstones import DeadStones, choose_sources, find_dead_stones
from sgfcheck.judge.registry import FAILURES, shown_name
from sgfcheck.points import point_name
from sgfcheck.position.analysis import Position, analyse
from sgfcheck.position.owners import PointOwners, point_owners
from sgfcheck.records.context import GameContext, Origin
from sgfcheck.records.record import (
    GameRecord,
    HandicapPlacement,
    LoadedFile,
    load_bytes,
    load_file,
)
from sgfcheck.records.results import Result
from sgfcheck.replay.check import (
    FileReport,
    GameReport,
    check_loaded,
)
from sgfcheck.replay.replay import Replay, replay
from sgfcheck.rules.ruleset import Ruleset
from sgfcheck.rules.spellings import parse_rules_string
from sgfcheck.scoring.band import Band, union
from sgfcheck.scoring.conventions import readings
from sgfcheck.scoring.count import Score
from sgfcheck.scoring.counts import Counts, Way
from sgfcheck.scoring.explain import explain
from sgfcheck.scoring.gamescore import FileScore, GameScore, Judgement, Rows, Weighing, Worked
from sgfcheck.scoring.result_check import (
    AS_JUDGED,
    CheckStatus,
    Outcome,
    Reproduced,
    ResultCheck,
    basis_of,
    check_result,
)
from sgfcheck.scoring.secondopinion import combined as second_opinion
from sgfcheck.scoring.secondopinion import second_judge
from sgfcheck.scoring.secondopinion import wanted as second_opinion_wanted
from sgfcheck.scoring.servercount import BY_COUNTING, server_readings
from sgfcheck.scoring.ways import doubtful_chains, other_ways, way_chains
from sgfcheck.settings import EngineName, Settings

DEFAULT_ROWS = ("tromp-taylor", "chinese", "japanese", "aga", "stone-scoring")


@dataclass
class Judged:
    """A game's position and its dead stones, or why there is none to judge."""

    replay: Replay | None = None
    dead: DeadStones | None = None
    error: str | None = None


def judge_position(report: GameReport, settings: Settings) -> Judged:
    """Replay to the position asked for and find its dead stones."""
    game = report.game
    if not game.playable or report.context is None:
        return Judged(error="not a playable game")
    line = report.line if report.line is not None else game.main_line()
    if settings.move is None and report.replay is not None:
        rep = report.replay  # the check already replayed this line under these rules
    else:
        rep = replay(game, line, report.context.ruleset, upto=settings.move)
    at_end = settings.move is None or settings.move >= line.move_count
    sources = choose_sources(settings, at_end=at_end)
    try:
        dead = find_dead_stones(game, line, rep.board, report.context, sources)
    except ValueError as exc:
        return Judged(error=str(exc))
    return Judged(rep, dead)


def _rows(own: Ruleset, settings: Settings, komi: float) -> list[Ruleset]:
    return list(_row_rulesets(own, settings.compare or DEFAULT_ROWS, komi))


@lru_cache(maxsize=256)
def _row_rulesets(own: Ruleset, names: tuple[str, ...], komi: float) -> tuple[Ruleset, ...]:
    """The game's own ruleset, then each named one not already there, every one with the komi
    of the game's context (never a preset's own: one page, one komi); the same few
    combinations recur across an archive, so they are worked out once."""
    rows = [own]
    for name in names:
        ruleset = replace(parse_rules_string(name), komi=komi)
        if all(r.to_string() != ruleset.to_string() for r in rows):
            rows.append(ruleset)
    return tuple(rows)


def score_game(report: GameReport, settings: Settings, compare: bool = True) -> GameScore:
    """One game counted under its own ruleset and the rows of ``settings``, with the RE check.
    With ``--engine auto`` (the default), a mismatch resting on the estimate's dead stones is
    put to KataGo where it is installed (:func:`_confirmed`). ``compare`` False: the game's own
    count is the only row (with the verdict's reading, where it is another), for an output that
    shows no table of rulesets; the verdict and its findings are the same."""
    with per_game(settings.limits):
        return _confirmed(_score_game(report, settings, compare), report, settings, compare)


def _confirmed(game: GameScore, report: GameReport, settings: Settings,
               compare: bool = True) -> GameScore:
    """A second opinion (:mod:`sgfcheck.scoring.secondopinion`): with ``--engine auto`` and
    KataGo installed, a verdict on the estimate's dead stones that is a mismatch, or stays open
    because of the estimate's judgement, is put to KataGo: the game is counted again on its dead
    stones and ownership, and the two verdicts make the answer, saying why KataGo was asked and
    what it gave. Where KataGo fails, the estimate's verdict stands, with a note."""
    rc, dead = game.result_check, game.dead
    if (settings.engine is not EngineName.AUTO or rc is None or dead is None
            or not second_opinion_wanted(rc, dead, report.result)):
        return game
    judge = second_judge()
    if judge is None:
        return game
    name = shown_name(judge.value)
    mismatch = rc.status is CheckStatus.MISMATCH
    task = "confirm this mismatch" if mismatch else "decide this open verdict"
    asked = _score_game(report, replace(settings, dead_stones=judge, engine=EngineName.NONE),
                        compare)
    failed = [] if asked.dead is None else [f for f in asked.dead.findings
                                            if f.code in FAILURES or f.code is F.LIF_TIME]
    if asked.result_check is None or asked.dead is None or failed:
        if failed and failed[0].code is F.LIF_TIME:
            spent = Finding(F.LIF_TIME, f"{failed[0].message.partition('; ')[0]}; asked to "
                            f"{task} (--engine auto), it leaves the estimate's verdict standing")
            return _with_dead(game, replace(dead, findings=[*dead.findings, spent]))
        why = failed[0].message if failed else asked.error or "no answer"
        return _with_dead(game, replace(dead, notes=[
            *dead.notes, f"{name}, asked to {task} (--engine auto), failed: "
            f"{why}; the estimate's verdict stands"]))
    verdict, engines = second_opinion(rc, asked.result_check, judge,
                                      asked.dead.ownership is not None, report.result.raw or "")
    if not engines:
        return replace(_with_dead(game, replace(dead, notes=[
            *dead.notes, f"asked of {name} (--engine auto) to {task}: its count does not "
            "decide it (the verdict says what it gave); the estimate's count stands"])),
            weighing=replace(game.weighing, result_check=verdict))
    estimate = (f"the estimate's dead stones gave {rc.computed} ({rc.reading}) against "
                f"RE[{report.result.raw}], " + ("a mismatch" if mismatch else f"open ({rc.code})"))
    asked = _with_dead(asked, replace(asked.dead, notes=[
        f"asked of {name} (--engine auto): {estimate}; --engine none keeps the estimate alone",
        *asked.dead.notes]))
    return replace(asked, weighing=replace(asked.weighing, result_check=verdict))


def _with_dead(game: GameScore, dead: DeadStones) -> GameScore:
    """``game`` with these dead stones (the same, with what an engine asked after added)."""
    assert game.judged is not None
    return replace(game, judged=replace(game.judged, dead=dead))


def _score_game(report: GameReport, settings: Settings, compare: bool = True) -> GameScore:
    game = report.game
    judged = judge_position(report, settings)
    if judged.replay is None or judged.dead is None or report.context is None:
        return GameScore(report, error=judged.error)
    rep, dead = judged.replay, judged.dead
    context = report.context
    own = context.ruleset
    position = analyse(rep.board, dead.points)
    final = rep.ended_by_passes is not None and settings.move is None
    judgement = Judgement(dead, position, final, rep.moves)
    banded = not (basis_of(dead, final).firm or (dead.assumed and not final))
    line = report.line if report.line is not None else game.main_line()
    fixed = settings.user_rules or settings.move is not None
    doubts, conventions = record_doubts(game, context)
    asked = Weighing(readings=readings(game, context, report.result, fixed=fixed),
                     readings_fixed=fixed, doubts=doubts, conventions=conventions,
                     komi_unknown=(None if context.komi_known else
                                   context.komi_detail.removesuffix("; counted without komi")))
    rows = _rows(own, settings, context.komi) if compare else [own]
    # The endgame, once, before any count: every way of counting a row or a reading asks.
    owners = point_owners(position, dead.ownership) if banded else None
    endgame = play_out(position, owners, solving(game, line, rep, dead, banded, final, settings),
                       {objective_of(r) for r in [*rows, *(r.ruleset for r in asked.readings)]})
    counts = Counts.of(position, rep, dead, game.handicap, banded, final, endgame, owners)
    worked = Worked(unsettled_ways(dead, rep), counts)
    scores = [counts.score(ruleset) for ruleset in rows]
    explanations = [line for other in scores[1:]
                    for line in explain(scores[0], other, rep, position, rep.setup_stones)]
    bands = row_bands(counts, worked.ways, scores)
    scoring = _Scoring(report, judgement, counts, worked, rep)
    weighing = _weighing(scoring, asked, scores[0], bands[0])
    table = _reading_rows(Rows(scores, bands, explanations, finishes=counts.finishes), weighing)
    return GameScore(report, judgement, table, weighing, worked=worked)


@dataclass(frozen=True)
class _Scoring:
    """What the verdict of a game is weighed on: its check, the position judged, its counts
    and the cache of the ways, the replay."""

    report: GameReport
    judgement: Judgement
    counts: Counts
    worked: Worked
    rep: Replay


def _weighing(scoring: _Scoring, asked: Weighing, base: Score,
              band: Band | None) -> Weighing:
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
        return replace(asked, result_check=quick)
    verdict, outcomes = _weighed(scoring, asked, own, report.result)
    return replace(asked, result_check=verdict, outcomes=outcomes)


def _reading_rows(rows: Rows, weighing: Weighing) -> Rows:
    """The rows with ``reading_row`` at the row the verdict rests on, the row of its reading
    (its count as judged, its band over the settled ways) added when none of the rows counts it:
    the answer always names a count the table shows."""
    rc = weighing.result_check
    if rc is None or rc.status is CheckStatus.NOT_SCORED or rc.under is None:
        return rows
    under = rc.under
    row = next((i for i, s in enumerate(rows.scores) if not under.counting.server
                and s.ruleset.name == under.ruleset.name
                and s.ruleset.komi == under.ruleset.komi), None)
    if row is not None:
        return replace(rows, reading_row=row)
    mine = [o for o in weighing.outcomes if o.reading is under and o.settled]
    if not mine:  # the komi is unknown: the rows are counted without it, the own row first
        return rows
    bands = [o.band for o in mine]
    band = None if any(b is None for b in bands) else union(
        [b for b in bands if b is not None], way_chains(o.way for o in mine[1:]))
    reading, own = mine[0].reading, rows.scores[0].ruleset
    name = [reading.ruleset.name]
    if reading.ruleset.komi != own.komi:
        name.append(f"komi {reading.ruleset.komi:g}")
    if reading.counting.server:
        name.append(BY_COUNTING[reading.counting].short)
    return replace(rows, scores=[*rows.scores, mine[0].score], bands=[*rows.bands, band],
                   added_reading=", ".join(name), reading_row=len(rows.scores))


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
    scoring = _Scoring(game.check, game.judged, counts, game.worked, rep)
    return _weighed(scoring, game.weighing, game.scores[0].ruleset, result)[0]


def _weighed(scoring: _Scoring, asked: Weighing, own: Ruleset, result: Result
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


def record_doubts(game: GameRecord, context: GameContext
                  ) -> tuple[list[Finding], list[Finding]]:
    """What a count of the game assumes about the record itself: where its handicap stones
    stood (``RES008``), the komi of a record without ``KM`` (``RES002``); and what it reads
    from its source's conventions, cited (``RES010``: said with the verdict, never a doubt)."""
    doubts: list[Finding] = []
    if context.komi_origin is Origin.CONVENTION:
        doubts.append(Finding(F.RES_KOMI_CONVENTION, context.komi_detail))
    n, placement = game.handicap, game.handicap_placement
    if placement is HandicapPlacement.UNKNOWN:
        doubts.append(Finding(F.RES_ASSUMED_RECORD,
                              f"the count is made without the {n} handicap stones of HA[{n}]: "
                              "the record does not place them, and the moves show they did not "
                              "stand on the standard points"))
    if placement not in (HandicapPlacement.ASSUMED, HandicapPlacement.CONVENTION):
        return doubts, []
    names = ", ".join(point_name(p, game.height) for p in game.assumed_handicap)
    if placement is HandicapPlacement.ASSUMED:
        doubts.append(Finding(F.RES_ASSUMED_RECORD,
                              f"the count rests on {n} handicap stones assumed on the standard "
                              f"points {names}: the record (HA[{n}]) does not place them"))
        return doubts, []
    return doubts, [Finding(F.RES_SOURCE_CONVENTION,
                            f"the count rests on {n} handicap stones at {names}: the Fox "
                            f"record (HA[{n}]) leaves them out, and they are placed as "
                            "KataGo's SGF reader places them (cpp/dataio/sgf.cpp); no move "
                            "contradicts them")]


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


def score_file(path: str | Path, settings: Settings | None = None) -> FileScore:
    """Every game of a file counted under its own ruleset and the rows of ``settings``, with
    the RE check."""
    settings = settings or Settings()
    return score_loaded(load_file(path, settings.encoding, settings.limits), settings)


def score_bytes(data: bytes, name: str = "<bytes>",
                settings: Settings | None = None) -> FileScore:
    """As :func:`score_file`, for a record held in memory (an archive member, standard
    input)."""
    settings = settings or Settings()
    return score_loaded(load_bytes(data, name, settings.encoding, settings.limits), settings)


def within_judged(loaded: LoadedFile, settings: Settings) -> LoadedFile:
    """The file with at most ``--limit judged`` games, and a finding when it held more."""
    most = settings.limits.judged
    if len(loaded.games) <= most:
        return loaded
    found = [*loaded.findings, Finding(
        F.SGF_LIMIT, f"{len(loaded.games)} games read; only the first {most} were judged "
        "and counted (raise it with --limit judged=...)",
        extra={"limit": settings.limits.describe("judged")})]
    return replace(loaded, games=loaded.games[:most], findings=found)


def checked_file(loaded: LoadedFile, settings: Settings) -> FileReport:
    """The check a count starts from, the first step of every command that judges a file's
    games (``score``, ``life``, a batch worker wherever it runs): at most ``--limit judged``
    games (a finding says so), each replayed on its main line."""
    return check_loaded(within_judged(loaded, settings), _for_check(settings))


def score_loaded(loaded: LoadedFile, settings: Settings,
                 on_game: Callable[[], None] | None = None, compare: bool = True) -> FileScore:
    """Score every game of a file read already (at most ``--limit judged``); ``on_game`` is
    called after each (progress); ``compare`` as for :func:`score_game`. The one way through a
    file for ``score`` and ``batch``."""
    checked = checked_file(loaded, settings)
    games = []
    for game in scored_games(checked, settings, compare):
        games.append(game)
        if on_game is not None:
            on_game()
    return FileScore(loaded.path, checked, games)


def scored_games(checked: FileReport, settings: Settings, compare: bool = True
                 ) -> Iterator[GameScore]:
    """Each game of a checked file scored, one at a time, within the engine time of one file:
    a caller that must stop (``batch``'s time limit) keeps the games scored so far and the
    check of the rest."""
    with per_file(settings.limits):
        for game in checked.games:
            yield score_game(game, settings, compare)


def _for_check(settings: Settings) -> Settings:
    """The settings of the check a count starts from: the main line, no verdict table."""
    if settings.all_rules or settings.variations:
        return replace(settings, all_rules=False, variations=False)
    return settings
