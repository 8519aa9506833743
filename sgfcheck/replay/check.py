"""Checking files: load, choose each game's ruleset, replay, and collect the verdict.

This is the library entry point behind ``sgfcheck check``: :func:`check_file` returns plain data
(:class:`FileReport`); :mod:`sgfcheck.output.schema` gives its JSON shape and
:mod:`sgfcheck.output.text` its tables. Each game gets a :class:`CheckVerdict`; with ``all_rules``,
every move illegal under some preset gets its verdict under each (:class:`RulesetVerdicts`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from sgfcheck import findings as F
from sgfcheck.colour import Colour
from sgfcheck.findings import Finding, Severity
from sgfcheck.points import point_name
from sgfcheck.records.context import GameContext, resolve
from sgfcheck.records.lines import Line
from sgfcheck.records.record import GameRecord, HandicapPlacement, LoadedFile, load_bytes, load_file
from sgfcheck.records.results import Result, ResultKind, parse_result
from sgfcheck.records.servers import Server
from sgfcheck.replay.replay import Replay, replay
from sgfcheck.replay.scenes import Scene, scene_of
from sgfcheck.rules.presets import PRESETS
from sgfcheck.rules.ruleset import Ruleset
from sgfcheck.settings import Settings
from sgfcheck.status import StrEnum


class CheckVerdict(StrEnum):
    """A game's verdict: the worst of its findings."""

    CLEAN = "clean"
    WARNINGS = "warnings"
    ERRORS = "errors"
    ILLEGAL_MOVES = "illegal moves"
    NOT_CHECKED = "not checked"
    """Not a Go game (or nothing to replay)."""
    UNREADABLE = "unreadable"
    """``batch``: a file with no game in it, or an input that could not be read."""


def verdict_of(playable: bool, findings: list[Finding]) -> CheckVerdict:
    if not playable:
        return CheckVerdict.NOT_CHECKED
    if any(f.is_illegal or f.capped_illegal for f in findings):
        return CheckVerdict.ILLEGAL_MOVES
    if any(f.is_error for f in findings):
        return CheckVerdict.ERRORS
    if any(f.severity is Severity.WARNING for f in findings):
        return CheckVerdict.WARNINGS
    return CheckVerdict.CLEAN


@dataclass
class RulesetVerdicts:
    """One move illegal under at least one preset, and its verdict under each (``--all-rules``):
    the rules it breaks, an empty list where it is legal."""

    move: int
    colour: Colour | None
    point: str | None
    verdicts: dict[str, list[str]]


@dataclass
class GameReport:
    game: GameRecord
    context: GameContext | None
    """The rules and komi in force, and where they came from (None: not a game of Go)."""
    result: Result
    replay: Replay | None
    findings: list[Finding]
    all_rules: list[RulesetVerdicts] | None = None
    lines_checked: int = 1
    line: Line | None = None
    """The main line that was replayed."""

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.is_error]

    @property
    def illegal_moves(self) -> list[Finding]:
        return [f for f in self.findings if f.is_illegal]

    @property
    def illegal_rules(self) -> tuple[str, ...]:
        """The rule each illegal move written breaks, then each rule of those a ``--limit
        findings`` finding counts unwritten (once: the summaries count games by rule)."""
        return tuple(f.code.rule for f in self.illegal_moves) + tuple(
            rule for f in self.findings for rule in f.capped_illegal)

    @property
    def verdict(self) -> CheckVerdict:
        return verdict_of(self.game.playable, self.findings)

    def scene(self, finding: Finding) -> Scene | None:
        """The position before an illegal move of the line checked, and the stones it
        concerns (:func:`sgfcheck.replay.scenes.scene_of`); None when the game was not
        replayed or the move has no point on the board."""
        if self.context is None or self.line is None:
            return None
        return scene_of(self.game, self.line, self.context.ruleset, finding)


@dataclass
class FileReport:
    path: str
    loaded: LoadedFile
    games: list[GameReport] = field(default_factory=list)

    @property
    def unreadable(self) -> bool:
        return not self.loaded.games

    @property
    def findings(self) -> list[Finding]:
        return self.loaded.findings

    @property
    def has_errors(self) -> bool:
        return any(f.is_error for f in self.findings) or any(g.errors for g in self.games)


def check_game(game: GameRecord, settings: Settings) -> GameReport:
    result = parse_result(game.result_raw)
    findings = list(game.findings)
    if not result.parsed:
        findings.append(Finding(F.RES_UNPARSEABLE, result.note))
    findings.extend(_result_against_komi(game, result))
    if not game.playable:
        return GameReport(game, None, result, None, findings)
    context, rule_findings = resolve(game, settings, result)
    findings.extend(rule_findings)
    main = game.main_line()
    rep = replay(game, main, context.ruleset,
                 most_findings=settings.limits.findings)
    if game.handicap_placement in (HandicapPlacement.ASSUMED, HandicapPlacement.CONVENTION):
        contradicted = _contradicted(game, rep, context.ruleset)
        if contradicted is not None:
            # The finding that the stones were assumed gives way to the one saying why not; the
            # game is judged as a new value, placement unknown (the record is never changed).
            game, why = contradicted
            findings = [f for f in findings
                        if f.extra.get("assumption") != "handicap placement"] + [why]
            main = game.main_line()
            rep = replay(game, main, context.ruleset, most_findings=settings.limits.findings)
    findings.extend(main.findings)
    findings.extend(rep.findings)
    lines_checked = 1
    if settings.variations:
        seen = {(f.code.code, f.move, f.message) for f in main.findings + rep.findings}
        variations, too_many = game.variations()
        # Every line is replayed from the root: a deep line ending in thousands of leaves would
        # cost depth x leaves. All lines together replay at most as many moves as a file may
        # have nodes.
        replayed = len(main.events)
        budget = settings.limits.nodes
        for variation in variations:
            if not any(variation):
                continue  # the main line, already done
            line = game.line(variation)
            replayed += len(line.events)
            if replayed > budget:
                findings.append(Finding(
                    F.SGF_LIMIT, f"the variations replay more than {budget} moves together; "
                    f"only the first {lines_checked} lines were checked (raise it with --limit "
                    "nodes=...)", extra={"limit": settings.limits.describe("nodes")}))
                break
            lines_checked += 1
            other = replay(game, line, context.ruleset,
                           most_findings=settings.limits.findings)
            for f in line.findings + other.findings:
                key = (f.code.code, f.move, f.message)
                if key in seen:
                    continue
                seen.add(key)
                f.extra["variation"] = line.variation
                findings.append(f)
        findings.extend(too_many)
    if not main.events and game.tree is not None and len(game.tree.sequence) <= 1:
        findings.append(Finding(F.SGF_EMPTY_TREE, "the game has no moves and no setup"))
    findings.extend(_loser_moved_last(result, main))
    report = GameReport(game, context, result, rep, findings, lines_checked=lines_checked,
                        line=main)
    if settings.all_rules:
        report.all_rules = compare_rulesets(game, main)
    return report


def _result_against_komi(game: GameRecord, result: Result) -> list[Finding]:
    """``RES006`` when RE's margin cannot be a count under the record's KM: area, territory and
    stone counts are whole points (a zi margin is doubled first), so a margin differs from the
    komi by whole points."""
    if game.komi is None or result.kind is not ResultKind.SCORE or result.margin is None:
        return []
    if any(abs((result.margin + sign * game.komi) % 1) < 1e-9 or
           abs((result.margin + sign * game.komi) % 1 - 1) < 1e-9 for sign in (1, -1)):
        return []
    said = (f"RE[{result.raw}]: a margin of {result.margin:g} cannot be a count under "
            f"KM[{game.komi_raw}] (komi {game.komi:g}): every count differs from the komi by "
            "whole points")
    if game.server is Server.FOX and game.komi == 0 and game.handicap < 2:
        # Fox's habit, documented in docs/conventions.md: the result check reads the komi
        # such games are played with (RES002); the record's KM is wrong, as Fox writes them.
        return [Finding(F.RES_MARGIN_PARITY, said + "; Fox writes KM[0] for even games played "
                        "with komi, and the result check reads them with 6.5 and 7.5",
                        severity=Severity.INFO)]
    return [Finding(F.RES_MARGIN_PARITY, said)]


def _loser_moved_last(result: Result, line: Line) -> list[Finding]:
    """``RES007`` when the player RE says resigned or lost on time made the last play on the
    board (a pass after it is not counted: some programs record a resignation so)."""
    if result.kind not in (ResultKind.RESIGN, ResultKind.TIME) or result.winner is None:
        return []
    played = line.last_play()
    if played is None:
        return []
    number, last = played
    loser = result.winner.opponent
    if last.colour is not loser:
        return []
    how = "resigned" if result.kind is ResultKind.RESIGN else "lost on time"
    return [Finding(F.RES_LAST_MOVE,
                    f"RE[{result.raw}] says {loser.word} {how}, yet {loser.word} made the last "
                    f"play on the board (move {number}); servers allow it, and it is what a "
                    "result written the other way round looks like", move=number, colour=loser)]


def _contradicted(game: GameRecord, assumed: Replay,
                  ruleset: Ruleset) -> tuple[GameRecord, Finding] | None:
    """Whether the moves contradict the handicap stones sgfcheck assumed (on the standard points,
    or where the record's source puts them):
    a move illegal with them that is not illegal without them is evidence against the
    assumption, not an illegal move. Then the placement is unknown: the game without the
    stones (a new value; the record is not changed), and the finding that says why; else
    None."""
    kept, placed = game.assumed_handicap, game.handicap_placement
    unknown = replace(game, assumed_handicap=[], handicap_placement=HandicapPlacement.UNKNOWN)
    plain = replay(unknown, unknown.main_line(), ruleset)
    found = {(f.code, f.move) for f in plain.illegal}
    against = [f for f in assumed.illegal if (f.code, f.move) not in found]
    if not against:
        return None
    first = against[0]
    names = {point_name(p, game.height) for p in kept}
    what = (f"lands on {first.point}, where a handicap stone was assumed"
            if first.code is F.RUL_OCCUPIED and first.point in names
            else f"would break a rule ({first.code.rule}) only with the assumed stones on the "
                 "board")
    who = first.colour.word if first.colour else ""
    return unknown, Finding(
        F.SGF_HANDICAP, f"HA[{game.handicap}]: move {first.move} ({who} {first.point}) {what}; "
        "so the stones did not stand on the "
        + ("standard points" if placed is HandicapPlacement.ASSUMED
           else "points Fox's convention gives them") + ", "
        "and where they stood is unknown: the game is replayed as recorded, without handicap "
        "stones (White moves first)", move=first.move)


def compare_rulesets(game: GameRecord, line: Line) -> list[RulesetVerdicts]:
    """For every move illegal under at least one preset, its verdict under each preset."""
    verdicts: dict[int, dict[str, list[str]]] = {}
    where: dict[int, tuple[Colour | None, str | None]] = {}
    for name, ruleset in PRESETS.items():
        rep = replay(game, line, ruleset)
        for f in rep.findings:
            if f.move is None or not f.code.is_rule:
                continue
            if not (f.is_error or f.code is F.RUL_CYCLE):
                continue
            verdicts.setdefault(f.move, {})
            verdicts[f.move].setdefault(name, []).append(f.code.rule)
            where[f.move] = (f.colour, f.point)
    rows = []
    for move in sorted(verdicts):
        colour, point = where[move]
        rows.append(RulesetVerdicts(move, colour, point,
                                    {name: verdicts[move].get(name, []) for name in PRESETS}))
    return rows


def check_loaded(loaded: LoadedFile, settings: Settings,
                 on_game: Callable[[], None] | None = None) -> FileReport:
    """Check every game of a file read already; ``on_game`` is called after each (progress)."""
    report = FileReport(loaded.path, loaded)
    for game in loaded.games:
        report.games.append(check_game(game, settings))
        if on_game is not None:
            on_game()
    return report


def check_file(path: str | Path, settings: Settings | None = None) -> FileReport:
    """Check every game in a file. Never raises for bad content."""
    settings = settings or Settings()
    return check_loaded(load_file(path, settings.encoding, settings.limits), settings)


def check_bytes(data: bytes, name: str = "<bytes>",
                settings: Settings | None = None) -> FileReport:
    """As :func:`check_file`, for a record held in memory."""
    settings = settings or Settings()
    return check_loaded(load_bytes(data, name, settings.encoding, settings.limits), settings)
