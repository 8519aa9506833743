"""Adjudication: a game's position counted under several rulesets, why the counts differ, and
whether the recorded result is right (the library behind ``sgfcheck score`` and
``sgfcheck life``).

For each game: replay to the position asked for, find its dead stones (:mod:`sgfcheck.deadstones`),
analyse it once (:mod:`sgfcheck.position`), count it under the game's own ruleset and the rows
asked for (:mod:`sgfcheck.count`), explain the differences (:mod:`sgfcheck.explain`) and check RE
(:mod:`sgfcheck.result_check`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from sgfcheck.board import Board
from sgfcheck.check import CheckOptions, FileReport, GameReport, Verdict, check_loaded, verdict_of
from sgfcheck.conventions import Reading, readings
from sgfcheck.count import Score, count
from sgfcheck.deadstones import (
    DeadStoneChoice,
    DeadStones,
    Engine,
    choose_sources,
    doubtful_chains,
    find_dead_stones,
    other_ways,
)
from sgfcheck.explain import explain
from sgfcheck.findings import Finding
from sgfcheck.life import ChainStatus, chain_statuses
from sgfcheck.limits import DEFAULT_LIMITS, Limits
from sgfcheck.position import Position, analyse
from sgfcheck.records import LoadedFile, load_bytes, load_file
from sgfcheck.replay import Replay, replay
from sgfcheck.result_check import AS_JUDGED, CheckStatus, Outcome, ResultCheck, check_result
from sgfcheck.results import Result
from sgfcheck.rules import PRESETS, Ruleset, parse_rules_string

DEFAULT_ROWS = ("tromp-taylor", "chinese", "japanese", "aga", "stone-scoring")


@dataclass(frozen=True)
class ScoreOptions:
    rules: tuple[str, ...] = ()
    """Rows besides the game's own ruleset; empty means :data:`DEFAULT_ROWS`."""
    all_rules: bool = False
    dead: tuple[str, ...] = ()
    alive: bool = False
    move: int | None = None
    komi: float | None = None
    game_rules: str = "auto"
    encoding: str | None = None
    dead_stones: DeadStoneChoice = DeadStoneChoice.AUTO
    """Where dead stones come from (see :class:`sgfcheck.deadstones.DeadStoneChoice`);
    ``dead``/``alive`` win over it."""
    seed: int = 0
    """Seed of the estimate's playouts (the same seed gives the same judgement)."""
    engine: Engine = Engine.NONE
    """An engine the estimate asks about the chains it cannot decide (``--engine``)."""
    limits: Limits = DEFAULT_LIMITS
    """Bounds on the work one file may cause (a limit reached is finding ``SGF035``)."""


@dataclass
class Judged:
    """A game's position and its dead stones, or why there is none to judge."""

    replay: Replay | None = None
    dead: DeadStones | None = None
    error: str | None = None


def judge_position(report: GameReport, options: ScoreOptions) -> Judged:
    """Replay to the position asked for and find its dead stones."""
    game = report.game
    if not game.playable or report.rules is None:
        return Judged(error="not a playable game")
    line = report.line if report.line is not None else game.main_line()
    if options.move is None and report.replay is not None:
        rep = report.replay  # the check already replayed this line under these rules
    else:
        rep = replay(game, line, report.rules.ruleset, upto=options.move)
    at_end = options.move is None or options.move >= line.move_count
    sources = choose_sources(options.dead_stones, dead=options.dead, alive=options.alive,
                             at_end=at_end, seed=options.seed, engine_name=options.engine)
    try:
        dead = find_dead_stones(game, line, rep.board, sources)
    except ValueError as exc:
        return Judged(error=str(exc))
    return Judged(rep, dead)


@dataclass
class GameScore:
    check: GameReport
    dead: DeadStones | None = None
    position: Position | None = None
    scores: list[Score] = field(default_factory=list)
    explanations: list[str] = field(default_factory=list)
    result_check: ResultCheck | None = None
    readings: list[Reading] = field(default_factory=list)
    """The record's own reading and those its convention allows."""
    outcomes: list[Outcome] = field(default_factory=list)
    """The counts the result check weighed: each reading, each way the doubtful chains go
    (empty when the own reading as judged gave the result at once)."""
    final: bool = False
    """The scored position is the end of a game that ended by two passes."""
    scored_move: int = 0
    error: str | None = None

    @property
    def findings(self) -> list[Finding]:
        """The check's findings, those of the dead-stone judgement (``LIF001``) and the
        assumptions of the result check (``RES002``-``RES005``)."""
        extra = self.dead.findings if self.dead is not None else []
        assumed = self.result_check.assumptions if self.result_check is not None else []
        return self.check.findings + extra + assumed

    @property
    def verdict(self) -> Verdict:
        return verdict_of(self.check.game.playable, self.findings)


def _rows(own: Ruleset, options: ScoreOptions, komi: float | None) -> list[Ruleset]:
    names = tuple(PRESETS) if options.all_rules else tuple(options.rules or DEFAULT_ROWS)
    return list(_row_rulesets(own, names, komi))


@lru_cache(maxsize=256)
def _row_rulesets(own: Ruleset, names: tuple[str, ...], komi: float | None
                  ) -> tuple[Ruleset, ...]:
    """The game's own ruleset, then each named one (with the game's komi) not already there;
    the same few combinations recur across an archive, so they are worked out once."""
    rows = [own]
    for name in names:
        ruleset = parse_rules_string(name)
        if komi is not None:
            ruleset = replace(ruleset, komi=komi)
        if all(r.to_string() != ruleset.to_string() for r in rows):
            rows.append(ruleset)
    return tuple(rows)


def score_game(report: GameReport, options: ScoreOptions) -> GameScore:
    game = report.game
    out = GameScore(report)
    judged = judge_position(report, options)
    if judged.replay is None or judged.dead is None or report.rules is None:
        out.error = judged.error
        return out
    rep, dead = judged.replay, judged.dead
    own = report.rules.ruleset
    out.scored_move = rep.moves
    out.dead = dead
    position = analyse(rep.board, dead.points)
    out.position = position
    komi = options.komi if options.komi is not None else game.komi
    for ruleset in _rows(own, options, komi):
        out.scores.append(count(position, rep, ruleset, game.handicap))
    base = out.scores[0]
    for other in out.scores[1:]:
        out.explanations.extend(explain(base, other, rep, position, rep.setup_stones))
    out.final = rep.ended_by_passes is not None and options.move is None
    out.readings = readings(game, report.rules, report.result,
                            fixed=options.komi is not None or options.game_rules != "auto"
                            or options.move is not None)
    own_as_judged = Outcome(out.readings[0], AS_JUDGED, base)
    quick = check_result(report.result, [own_as_judged], dead, out.final, open_share(position))
    exact = quick.reproduced == "margin"
    settled = (quick.status is CheckStatus.NOT_SCORED or (dead.assumed and not out.final)
               or (out.readings[0].possible and quick.status is CheckStatus.MATCH and exact))
    # Not a score, no dead-stone information in an unfinished game, or the record's own reading
    # as judged gives the margin exactly: other readings and ways would not change the verdict.
    # (A winner alone is confirmed only when every reading and way gives it: always weighed.)
    out.result_check = quick if settled else weigh(out, rep, report.result)
    return out


def weigh(game: GameScore, rep: Replay, result: Result) -> ResultCheck:
    """The full result check of a scored game: every reading, every way its doubtful chains
    may go (kept in ``game.outcomes``). ``result`` may differ from the record's (a benchmark
    checks falsified results on the same position)."""
    assert game.dead is not None and game.position is not None and game.scores
    dead, position = game.dead, game.position
    ways = [(AS_JUDGED, position)] + [
        (how, analyse(rep.board, stones))
        for how, stones in other_ways(rep.board, dead, doubtful_chains(dead))]
    handicap = game.check.game.handicap
    outcomes = []
    for reading in game.readings:
        for how, where in ways:
            score = game.scores[0] if reading.own and how == AS_JUDGED else count(
                where, rep, reading.ruleset, handicap)
            outcomes.append(Outcome(reading, how, score))
    game.outcomes = outcomes
    return check_result(result, outcomes, dead, game.final, open_share(position))


def open_share(position: Position) -> float:
    """The share of the board's points in empty regions open to both colours (or to none)."""
    return len(position.dame) / len(position.colour)


@dataclass
class FileScore:
    path: str
    check: FileReport
    games: list[GameScore]


def score_file(path: str | Path, options: ScoreOptions | None = None) -> FileScore:
    """Every game of a file counted under the rulesets of ``options``, with the RE check."""
    options = options or ScoreOptions()
    return score_loaded(load_file(path, options.encoding, options.limits), options)


def score_bytes(data: bytes, name: str = "<bytes>",
                options: ScoreOptions | None = None) -> FileScore:
    """As :func:`score_file`, for a record held in memory (an archive member, standard
    input)."""
    options = options or ScoreOptions()
    return score_loaded(load_bytes(data, name, options.encoding, options.limits), options)


def score_loaded(loaded: LoadedFile, options: ScoreOptions,
                 on_game: Callable[[], None] | None = None) -> FileScore:
    """Score every game of a file read already; ``on_game`` is called after each (progress)."""
    checked = check_loaded(loaded, _check_options(options))
    games = []
    for game in checked.games:
        games.append(score_game(game, options))
        if on_game is not None:
            on_game()
    return FileScore(loaded.path, checked, games)


def _check_options(options: ScoreOptions) -> CheckOptions:
    return CheckOptions(rules=options.game_rules, komi=options.komi, encoding=options.encoding,
                        limits=options.limits)


@dataclass
class GameLife:
    """Every chain's status in one game's position (``sgfcheck life``)."""

    check: GameReport
    board: Board | None = None
    dead: DeadStones | None = None
    chains: list[ChainStatus] = field(default_factory=list)
    move: int = 0
    error: str | None = None

    @property
    def findings(self) -> list[Finding]:
        """The check's findings and those of the dead-stone judgement (``LIF001``)."""
        extra = self.dead.findings if self.dead is not None else []
        return self.check.findings + extra


@dataclass
class FileLife:
    path: str
    check: FileReport
    games: list[GameLife]


def life_file(path: str | Path, options: ScoreOptions | None = None) -> FileLife:
    """Each game's chains with their status, for ``sgfcheck life``."""
    options = options or ScoreOptions()
    return life_loaded(load_file(path, options.encoding, options.limits), options)


def life_bytes(data: bytes, name: str = "<bytes>",
               options: ScoreOptions | None = None) -> FileLife:
    """As :func:`life_file`, for a record held in memory."""
    options = options or ScoreOptions()
    return life_loaded(load_bytes(data, name, options.encoding, options.limits), options)


def life_loaded(loaded: LoadedFile, options: ScoreOptions,
                on_game: Callable[[], None] | None = None) -> FileLife:
    """Every chain of every game of a file read already; ``on_game`` after each (progress)."""
    checked = check_loaded(loaded, _check_options(options))
    out = []
    for report in checked.games:
        if on_game is not None:
            on_game()
        life = GameLife(report)
        judged = judge_position(report, options)
        if judged.replay is None or judged.dead is None:
            life.error = judged.error
        else:
            life.board, life.dead, life.move = judged.replay.board, judged.dead, \
                judged.replay.moves
            life.chains = chain_statuses(judged.replay.board, judged.dead)
        out.append(life)
    return FileLife(loaded.path, checked, out)
