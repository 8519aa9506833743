"""Adjudication: a game's position counted under several rulesets, why the counts differ, and
whether the recorded result is right (the library behind ``sgfcheck score`` and
``sgfcheck life``).

For each game: replay to the position asked for, find its dead stones
(:mod:`sgfcheck.judge.deadstones`), analyse it once (:mod:`sgfcheck.position.analysis`), count it
under the game's own ruleset and the rows asked for (:mod:`sgfcheck.counting.count`), explain the
differences (:mod:`sgfcheck.counting.explain`) and check RE (:mod:`sgfcheck.verdict.decide`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sgfcheck import findings as F
from sgfcheck.counting.explain import explain
from sgfcheck.counting.judged import Counts, Judgement, Worked, row_bands, unsettled_ways
from sgfcheck.endgame.finish import objective_of
from sgfcheck.endgame.stage import play_out, solving
from sgfcheck.engineregistry import shown_name
from sgfcheck.findings import Finding
from sgfcheck.judge.clock import per_file, per_game
from sgfcheck.judge.deadstones import DeadStones, choose_sources, find_dead_stones
from sgfcheck.position.analysis import analyse
from sgfcheck.position.owners import point_owners
from sgfcheck.records.context import record_doubts
from sgfcheck.records.lines import Line
from sgfcheck.records.record import (
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
from sgfcheck.scoring.gamescore import FileScore, GameScore
from sgfcheck.scoring.secondopinion import combined as second_opinion
from sgfcheck.scoring.secondopinion import second_judge
from sgfcheck.scoring.secondopinion import wanted as second_opinion_wanted
from sgfcheck.settings import EngineName, Settings
from sgfcheck.verdict.decide import CheckStatus, ResultCheck
from sgfcheck.verdict.decision import Asked, Weighing
from sgfcheck.verdict.readings import readings
from sgfcheck.verdict.weighing import (
    Scoring,
    counted_rows,
    weigh_all,
    weigh_result,
)

DEFAULT_ROWS = ("tromp-taylor", "chinese", "japanese", "aga", "stone-scoring")


@dataclass(frozen=True)
class Found:
    """What :func:`judge_position` found: the line of play, the position it was replayed to and
    its dead stones, or why there is none to judge."""

    line: Line | None = None
    replay: Replay | None = None
    dead: DeadStones | None = None
    error: str | None = None


def judge_position(report: GameReport, settings: Settings) -> Found:
    """Replay to the position asked for and find its dead stones."""
    game = report.game
    line = report.line  # the check's main line, the one it replayed
    if not game.playable or report.context is None or line is None:
        return Found(error="not a playable game")
    if settings.move is None and report.replay is not None:
        rep = report.replay  # the check already replayed this line under these rules
    else:
        rep = replay(game, line, report.context.ruleset, upto=settings.move)
    at_end = settings.move is None or settings.move >= line.move_count
    result = report.result
    sources = choose_sources(settings, at_end, None if result.played_out else result.kind)
    try:
        dead = find_dead_stones(game, line, rep.board, report.context, sources)
    except ValueError as exc:
        return Found(line, error=str(exc))
    return Found(line, rep, dead)


def _rows(own: Ruleset, settings: Settings, komi: float) -> list[Ruleset]:
    return list(_row_rulesets(own, settings.compare or DEFAULT_ROWS, komi))


@lru_cache(maxsize=256)
def _row_rulesets(own: Ruleset, names: tuple[str, ...], komi: float) -> tuple[Ruleset, ...]:
    """The game's own ruleset, then each named one not already there, every one with the komi
    of the game's context (never a preset's own: one page, one komi); the same few
    combinations recur across an archive, so they are worked out once."""
    rows = [own]
    for name in names:
        ruleset = parse_rules_string(name).with_komi(komi)
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
    asked = _score_game(report, settings.judged_by(judge), compare)
    failed = [] if asked.dead is None else [f for f in asked.dead.findings
                                            if f.code in F.ENGINE_FAILURES.values()
                                            or f.code is F.LIF_TIME]
    if asked.result_check is None or asked.dead is None or failed:
        if failed and failed[0].code is F.LIF_TIME:
            spent = Finding(F.LIF_TIME, f"{failed[0].message.partition('; ')[0]}; asked to "
                            f"{task} (--engine auto), it leaves the estimate's verdict standing")
            return _answered(game, dead.failed(spent))
        why = failed[0].message if failed else asked.error or "no answer"
        return _answered(game, dead.noted(f"{name}, asked to {task} (--engine auto), failed: "
                                          f"{why}; the estimate's verdict stands"))
    verdict, engines = second_opinion(rc, asked.result_check, judge,
                                      asked.dead.ownership is not None, report.result.raw or "")
    if not engines:
        return _answered(game, dead.noted(
            f"asked of {name} (--engine auto) to {task}: its count does not decide it (the "
            "verdict says what it gave); the estimate's count stands"), verdict)
    estimate = (f"the estimate's dead stones gave {rc.computed} ({rc.reading}) against "
                f"RE[{report.result.raw}], " + ("a mismatch" if mismatch else f"open ({rc.code})"))
    return _answered(asked, asked.dead.noted(
        f"asked of {name} (--engine auto): {estimate}; --engine none keeps the estimate alone",
        first=True), verdict)


def _answered(game: GameScore, dead: DeadStones, verdict: ResultCheck | None = None
              ) -> GameScore:
    """``game`` as a second opinion leaves it: these dead stones (the same, with what the engine
    asked said) and, where it gave one, this verdict."""
    judged, weighed = game.judged, game.weighing
    assert judged is not None
    return GameScore(game.check, Judgement(dead, judged.position, judged.final,
                                           judged.scored_move), game.rows,
                     weighed if verdict is None else Weighing(verdict, weighed.asked,
                                                              weighed.outcomes),
                     game.error, game.worked)


def _score_game(report: GameReport, settings: Settings, compare: bool = True) -> GameScore:
    game = report.game
    judged = judge_position(report, settings)
    if (judged.line is None or judged.replay is None or judged.dead is None
            or report.context is None):
        return GameScore(report, error=judged.error)
    line, rep, dead = judged.line, judged.replay, judged.dead
    context = report.context
    own = context.ruleset
    position = analyse(rep.board, dead.points)
    final = rep.ended_by_passes is not None and settings.move is None
    judgement = Judgement(dead, position, final, rep.moves)
    banded = not (judgement.basis.firm or (dead.assumed and not final))
    fixed = settings.user_rules or settings.move is not None
    read = tuple(readings(game, context, report.result, fixed=fixed))
    doubts, conventions = record_doubts(game, context)
    asked = Asked(readings=read, readings_fixed=fixed, doubts=tuple(doubts),
                  conventions=tuple(conventions),
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
    differences = tuple(d for other in scores[1:]
                        if (d := explain(scores[0], other, rep, position, rep.setup_stones)))
    bands = row_bands(counts, worked.ways, scores)
    weighed = weigh_result(Scoring(report, judgement, counts, worked, rep), asked, scores[0],
                           bands[0])
    table = counted_rows(scores, bands, differences, counts.finishes, weighed)
    return GameScore(report, judgement, table, weighed, worked=worked)


def weigh(game: GameScore, rep: Replay, result: Result) -> ResultCheck:
    """The full result check of a scored game: every reading, every way its doubtful chains
    may go. ``result`` may differ from the record's (a benchmark checks falsified results on
    the same position). Nothing of ``game`` is changed."""
    counts = game.worked.counts
    assert game.judged is not None and counts is not None and game.scores
    scoring = Scoring(game.check, game.judged, counts, game.worked, rep)
    return weigh_all(scoring, game.weighing.asked, game.scores[0].ruleset, result)[0]


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
    return loaded.first_games(most, Finding(
        F.SGF_LIMIT, f"{len(loaded.games)} games read; only the first {most} were judged "
        "and counted (raise it with --limit judged=...)",
        extra={"limit": settings.limits.describe("judged")}))


def checked_file(loaded: LoadedFile, settings: Settings) -> FileReport:
    """The check a count starts from, the first step of every command that judges a file's
    games (``score``, ``life``, a batch worker wherever it runs): at most ``--limit judged``
    games (a finding says so), each replayed on its main line."""
    return check_loaded(within_judged(loaded, settings), settings.for_check())


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
