"""Adjudication: a game's position counted under several rulesets, why the counts differ, and
whether the recorded result is right (the library behind ``sgfcheck score`` and
``sgfcheck life``).

For each game: replay to the position asked for, find its dead stones
(:mod:`sgfcheck.judge.deadstones`), analyse it once (:mod:`sgfcheck.scoring.position`), count it
under the game's own ruleset and the rows asked for (:mod:`sgfcheck.scoring.count`), explain the
differences (:mod:`sgfcheck.scoring.explain`) and check RE (:mod:`sgfcheck.scoring.result_check`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from sgfcheck import findings as F
from sgfcheck.findings import Finding
from sgfcheck.judge.deadstones import DeadStones, choose_sources, find_dead_stones
from sgfcheck.points import point_name
from sgfcheck.records.record import (
    GameRecord,
    HandicapPlacement,
    LoadedFile,
    load_bytes,
    load_file,
)
from sgfcheck.records.results import Result
from sgfcheck.replay.board import Board
from sgfcheck.replay.check import (
    FileReport,
    GameReport,
    Verdict,
    check_loaded,
    verdict_of,
)
from sgfcheck.replay.replay import Replay, replay
from sgfcheck.rules.ruleset import Ruleset
from sgfcheck.rules.spellings import parse_rules_string
from sgfcheck.scoring.band import Band, PointOwners, band_of, point_owners, union
from sgfcheck.scoring.conventions import Counting, Reading, marked_readings, readings
from sgfcheck.scoring.count import Score, count
from sgfcheck.scoring.explain import explain, marks_against_referee
from sgfcheck.scoring.life import ChainStatus, chain_statuses
from sgfcheck.scoring.position import Position, analyse
from sgfcheck.scoring.result_check import (
    AS_JUDGED,
    CheckStatus,
    Outcome,
    ResultCheck,
    basis_of,
    check_result,
)
from sgfcheck.scoring.ways import doubtful_chains, other_ways, way_chains
from sgfcheck.settings import Settings

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


@dataclass
class GameScore:
    check: GameReport
    dead: DeadStones | None = None
    position: Position | None = None
    scores: list[Score] = field(default_factory=list)
    bands: list[Band | None] = field(default_factory=list)
    """Each row's band (on a judgement of the position: the estimate, an engine, a game not
    ended by two passes), aligned with ``scores``; None on a firm basis."""
    explanations: list[str] = field(default_factory=list)
    unsettled_ways: list[tuple[str, Position]] | None = field(default=None, repr=False)
    """The positions of the ways the unsettled chains may go (made once, when first needed)."""
    result_check: ResultCheck | None = None
    readings: list[Reading] = field(default_factory=list)
    """The record's own reading and those its convention allows (the territory marks' reading
    is added when the result check weighs them all)."""
    readings_fixed: bool = False
    """The user chose the rules, the komi or the move: the record's own reading only."""
    outcomes: list[Outcome] = field(default_factory=list)
    """The counts the result check weighed: each reading, each way the doubtful chains go
    (empty when the own reading as judged gave the result at once)."""
    doubts: list[Finding] = field(default_factory=list)
    """What the count assumes about the record itself (``RES008``)."""
    komi_unknown: str | None = None
    """Why the record's komi is unknown (the counts are made without komi), if it is."""
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


def _rows(own: Ruleset, settings: Settings, komi: float | None) -> list[Ruleset]:
    return list(_row_rulesets(own, settings.compare or DEFAULT_ROWS, komi))


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


def score_game(report: GameReport, settings: Settings) -> GameScore:
    game = report.game
    out = GameScore(report)
    judged = judge_position(report, settings)
    if judged.replay is None or judged.dead is None or report.context is None:
        out.error = judged.error
        return out
    rep, dead = judged.replay, judged.dead
    context = report.context
    own = context.ruleset
    out.scored_move = rep.moves
    out.dead = dead
    position = analyse(rep.board, dead.points)
    out.position = position
    komi = settings.komi if settings.komi is not None else game.komi
    if komi is None and not context.komi_known:
        komi = 0.0  # the rows are counted without komi too
    for ruleset in _rows(own, settings, komi):
        out.scores.append(count(position, rep, ruleset, game.handicap))
    base = out.scores[0]
    for other in out.scores[1:]:
        out.explanations.extend(explain(base, other, rep, position, rep.setup_stones))
    out.final = rep.ended_by_passes is not None and settings.move is None
    out.bands = row_bands(out, rep)
    out.readings_fixed = settings.user_rules or settings.move is not None
    out.readings = readings(game, context, report.result, fixed=out.readings_fixed)
    own_as_judged = Outcome(out.readings[0], AS_JUDGED, base)
    out.doubts = record_doubts(game)
    out.komi_unknown = (None if context.komi_known or settings.komi is not None
                        else f"KM[{game.komi_raw}] is no komi a game can have")
    quick = check_result(report.result, [own_as_judged], dead, out.final,
                         open_share(position, dead.ownership),
                         doubts=out.doubts, komi_unknown=out.komi_unknown)
    exact = quick.reproduced == "margin"
    settled = (quick.status is CheckStatus.NOT_SCORED or (dead.assumed and not out.final)
               or (out.readings[0].possible and quick.status is CheckStatus.MATCH and exact))
    # Not a score, no dead-stone information in an unfinished game, or the record's own reading
    # as judged gives the margin exactly: other readings and ways would not change the verdict.
    # (A winner alone is confirmed only when every reading and way gives it: always weighed.)
    out.result_check = quick if settled else weigh(out, rep, report.result)
    return out


def _unsettled_ways(game: GameScore, rep: Replay) -> list[tuple[str, Position]]:
    """The positions of every way the unsettled chains may go, analysed once for the rows'
    bands and the result check."""
    if game.unsettled_ways is None:
        assert game.dead is not None
        game.unsettled_ways = [(how, analyse(rep.board, stones)) for how, stones in
                               other_ways(rep.board, game.dead, game.dead.uncertain)]
    return game.unsettled_ways


def row_bands(game: GameScore, rep: Replay) -> list[Band | None]:
    """Each row's band over the ways the unsettled chains may go (:mod:`sgfcheck.scoring.band`),
    when the count rests on a judgement of the position."""
    dead, position = game.dead, game.position
    assert dead is not None and position is not None
    if basis_of(dead, game.final).firm or (dead.assumed and not game.final):
        return [None] * len(game.scores)
    ways = [(AS_JUDGED, position), *_unsettled_ways(game, rep)]
    names = way_chains(how for how, _ in ways[1:])
    handicap = game.check.game.handicap
    out: list[Band | None] = []
    for score in game.scores:
        bands = [band_of(score if how == AS_JUDGED else count(where, rep, score.ruleset,
                                                              handicap),
                         where, dead.ownership, game.final) for how, where in ways]
        out.append(union(bands, names))
    return out


def weigh(game: GameScore, rep: Replay, result: Result) -> ResultCheck:
    """The full result check of a scored game: every reading, every way its doubtful chains
    may go (kept in ``game.outcomes``). ``result`` may differ from the record's (a benchmark
    checks falsified results on the same position)."""
    assert game.dead is not None and game.position is not None and game.scores
    dead, position = game.dead, game.position
    # The ways the unsettled chains may go (the settled band), then those that also turn the
    # estimate's less sure decisions (the wide band: a mismatch must lie outside it too).
    unsettled = _unsettled_ways(game, rep)
    known = {where.dead_points for _, where in unsettled}
    weak = [(how, stones) for how, stones in other_ways(rep.board, dead, doubtful_chains(dead))
            if frozenset(stones) not in known]
    ways = [(AS_JUDGED, position, True)] + [(how, where, True) for how, where in unsettled] + [
        (how, analyse(rep.board, stones), False) for how, stones in weak]
    handicap = game.check.game.handicap
    if (dead.territory is not None and not game.readings_fixed
            and all(r.counting is not Counting.MARKED for r in game.readings)):
        # Where the record's territory marks part from the referee's count, they are read too.
        parting = marks_against_referee(position, game.scores[0].ruleset, dead.territory)
        if parting is not None:
            game.readings += marked_readings(game.readings, parting)
    banded = not basis_of(dead, game.final).firm
    ownership = dead.ownership
    outcomes = []
    for reading in game.readings:
        marked = dead.territory if reading.counting is Counting.MARKED else None
        for how, where, settled in ways:
            score = game.scores[0] if reading.own and how == AS_JUDGED else count(
                where, rep, reading.ruleset, handicap, marked)
            band = band_of(score, where, ownership, game.final) if banded else None
            outcomes.append(Outcome(reading, how, score, band, settled))
    game.outcomes = outcomes
    return check_result(result, outcomes, dead, game.final, open_share(position, dead.ownership),
                        doubts=game.doubts, komi_unknown=game.komi_unknown,
                        name=rep.board.name)


def record_doubts(game: GameRecord) -> list[Finding]:
    """What a count of the game assumes about the record itself (``RES008``)."""
    n = game.handicap
    if game.handicap_placement is HandicapPlacement.ASSUMED:
        names = ", ".join(point_name(p, game.height) for p in game.assumed_handicap)
        return [Finding(F.RES_ASSUMED_RECORD,
                        f"the count rests on {n} handicap stones assumed on the standard points "
                        f"{names}: the record (HA[{n}]) does not place them")]
    if game.handicap_placement is HandicapPlacement.UNKNOWN:
        return [Finding(F.RES_ASSUMED_RECORD,
                        f"the count is made without the {n} handicap stones of HA[{n}]: the "
                        "record does not place them, and the moves show they did not stand on "
                        "the standard points")]
    return []


def open_share(position: Position,
               ownership: tuple[list[float], list[float]] | None = None) -> float:
    """The share of the board's points in empty regions open to both colours (or to none); with
    both sides' ownership, only the points it does not settle (open points and dame)."""
    if ownership is None:
        return len(position.dame) / len(position.colour)
    owners = point_owners(position, ownership)
    return (len(owners.open) + len(owners.dame)) / len(position.colour)


@dataclass
class FileScore:
    path: str
    check: FileReport
    games: list[GameScore]


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


def score_loaded(loaded: LoadedFile, settings: Settings,
                 on_game: Callable[[], None] | None = None) -> FileScore:
    """Score every game of a file read already (at most ``--limit judged``); ``on_game`` is
    called after each (progress)."""
    loaded = within_judged(loaded, settings)
    checked = check_loaded(loaded, _for_check(settings))
    games = []
    for game in checked.games:
        games.append(score_game(game, settings))
        if on_game is not None:
            on_game()
    return FileScore(loaded.path, checked, games)


def _for_check(settings: Settings) -> Settings:
    """The settings of the check a count starts from: the main line, no verdict table."""
    if settings.all_rules or settings.variations:
        return replace(settings, all_rules=False, variations=False)
    return settings


@dataclass
class GameLife:
    """Every chain's status in one game's position (``sgfcheck life``)."""

    check: GameReport
    board: Board | None = None
    dead: DeadStones | None = None
    chains: list[ChainStatus] = field(default_factory=list)
    owners: PointOwners | None = None
    """The points the count gives nobody, read from both sides (settled, open, dame), where the
    dead-stone source gives ownership."""
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


def life_file(path: str | Path, settings: Settings | None = None) -> FileLife:
    """Each game's chains with their status, for ``sgfcheck life``."""
    settings = settings or Settings()
    return life_loaded(load_file(path, settings.encoding, settings.limits), settings)


def life_bytes(data: bytes, name: str = "<bytes>",
               settings: Settings | None = None) -> FileLife:
    """As :func:`life_file`, for a record held in memory."""
    settings = settings or Settings()
    return life_loaded(load_bytes(data, name, settings.encoding, settings.limits), settings)


def life_loaded(loaded: LoadedFile, settings: Settings,
                on_game: Callable[[], None] | None = None) -> FileLife:
    """Every chain of every game of a file read already (at most ``--limit judged``);
    ``on_game`` after each (progress)."""
    loaded = within_judged(loaded, settings)
    checked = check_loaded(loaded, _for_check(settings))
    out = []
    for report in checked.games:
        if on_game is not None:
            on_game()
        life = GameLife(report)
        judged = judge_position(report, settings)
        if judged.replay is None or judged.dead is None:
            life.error = judged.error
        else:
            life.board, life.dead, life.move = judged.replay.board, judged.dead, \
                judged.replay.moves
            life.chains = chain_statuses(judged.replay.board, judged.dead)
            if judged.dead.ownership is not None:
                life.owners = point_owners(analyse(judged.replay.board, judged.dead.points),
                                           judged.dead.ownership)
        out.append(life)
    return FileLife(loaded.path, checked, out)
