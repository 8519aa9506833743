"""Adjudication: a game's final position counted under several rulesets, why the counts differ,
and whether the recorded result is right (the library behind ``sgfcheck score``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sgfcheck import findings as F
from sgfcheck.board import Board
from sgfcheck.check import CheckOptions, GameReport, check_loaded, choose_rules
from sgfcheck.findings import Finding
from sgfcheck.gnugo import GnuGoError, gnugo_dead_stones
from sgfcheck.life import (
    ChainStatus,
    DeadStones,
    DeadStoneSource,
    all_alive,
    chain_statuses,
    estimator,
    find_dead_stones,
    markup_dead_stones,
    user_dead_stones,
)
from sgfcheck.records import load_file
from sgfcheck.replay import Replay, replay
from sgfcheck.rules import PRESETS, Ruleset, parse_rules_string
from sgfcheck.scoring import (
    Position,
    ResultCheck,
    Score,
    analyse,
    check_result,
    check_result_uncertain,
    count,
    explain,
)

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
    dead_stones: str = "auto"
    """``auto`` (markup if the record has it, else the estimate), ``markup`` (else only stones
    proven dead), ``estimate`` (proofs and playouts, with uncertain chains named), ``benson``
    (only stones proven dead), ``gnugo`` (ask GNU Go) or ``none`` (every stone alive).
    ``dead``/``alive`` win over it."""
    seed: int = 0
    """Seed of the estimate's playouts (the same seed gives the same judgement)."""


@dataclass
class GameScore:
    check: GameReport
    dead: DeadStones | None = None
    position: Position | None = None
    scores: list[Score] = field(default_factory=list)
    explanations: list[str] = field(default_factory=list)
    result_check: ResultCheck | None = None
    scored_move: int = 0
    error: str | None = None

    def to_dict(self, encoding: str | None, guessed: bool) -> dict[str, Any]:
        out = self.check.to_dict(encoding, guessed)
        board = self.position.board if self.position else None
        out["scored_move"] = self.scored_move
        out["dead_stones"] = None if self.dead is None or board is None else \
            self.dead.to_dict(board)
        out["seki"] = None if self.position is None else {
            colour: [_name(self.position, p) for p in pts]
            for colour, pts in (("black", self.position.seki_empty[1]),
                                ("white", self.position.seki_empty[2]))}
        out["scores"] = [s.to_dict() for s in self.scores]
        out["explanations"] = self.explanations
        out["result_check"] = self.result_check.to_dict() if self.result_check else None
        if self.error:
            out["score_error"] = self.error
        return out


def _name(position: Position, p: int) -> str:
    from sgfcheck.points import point_name

    return point_name(position.board.point(p), position.board.height)


def _rows(own: Ruleset, options: ScoreOptions, komi: float | None) -> list[Ruleset]:
    names = list(PRESETS) if options.all_rules else list(options.rules or DEFAULT_ROWS)
    rows = [own]
    for name in names:
        ruleset = parse_rules_string(name)
        if komi is not None:
            ruleset = replace(ruleset, komi=komi)
        if all(r.to_string() != ruleset.to_string() for r in rows):
            rows.append(ruleset)
    return rows


def _position_and_dead(report: GameReport, options: ScoreOptions
                       ) -> tuple[Replay, DeadStones] | str:
    """Replay to the position asked for and find its dead stones; or why that is impossible."""
    game = report.game
    if not game.playable or report.rules is None:
        return "not a playable game"
    line = report.line if report.line is not None else game.main_line()
    if options.move is None and report.replay is not None:
        rep = report.replay  # the check already replayed this line under these rules
    else:
        rep = replay(game, line, report.rules.ruleset, upto=options.move)
    sources: list[DeadStoneSource] = []
    at_end = options.move is None or options.move >= line.move_count
    if options.dead:
        sources.append(user_dead_stones(list(options.dead)))
    elif options.alive or options.dead_stones == "none":
        sources.append(all_alive)
    elif options.dead_stones == "gnugo":
        sources.append(gnugo_dead_stones)
    elif options.dead_stones == "estimate":
        sources.append(estimator(options.seed))
    elif options.dead_stones in ("auto", "markup"):
        if at_end:
            sources.append(markup_dead_stones)
        if options.dead_stones == "auto":
            sources.append(estimator(options.seed))
    try:
        dead = find_dead_stones(game, line, rep.board, sources)
    except GnuGoError as exc:
        report.findings.append(Finding(F.LIF_GNUGO, f"{exc}; every stone is counted alive"))
        dead = find_dead_stones(game, line, rep.board, [])
    except ValueError as exc:
        return str(exc)
    return rep, dead


def score_game(report: GameReport, options: ScoreOptions) -> GameScore:
    game = report.game
    out = GameScore(report)
    found = _position_and_dead(report, options)
    if isinstance(found, str):
        out.error = found
        return out
    rep, dead = found
    own = report.rules.ruleset if report.rules is not None else None
    assert own is not None
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
    final = rep.ended_by_passes is not None and options.move is None
    if dead.uncertain:
        outcomes = [("the uncertain chains are alive", base)] + [
            (how, count(analyse(rep.board, dead.points | extra), rep, own, game.handicap))
            for how, extra in uncertain_ways(rep.board, dead)]
        out.result_check = check_result_uncertain(report.result, outcomes, dead, final)
    else:
        out.result_check = check_result(report.result, base, dead, final)
    return out


MAX_UNCERTAIN_GROUPS = 6
"""Up to this many uncertain groups, every way they may go is counted; beyond, only the ways
that favour one colour most (all of Black's dead and White's alive, and the reverse)."""


def uncertain_ways(board: Board, dead: DeadStones) -> list[tuple[str, set[int]]]:
    """Ways the uncertain chains may go, other than all alive: (description, stones dead).
    Uncertain chains of one colour in one area (joined through own empty points or dame, as
    the scorer's areas) go together."""
    from itertools import product

    from sgfcheck.points import point_name
    from sgfcheck.scoring import areas, empty_owners

    colour = list(board.colour)
    for p in dead.points:
        colour[p] = 0
    area_of, _ = areas(colour, empty_owners(colour, board.neighbours), board.neighbours)
    groups: dict[int, list[int]] = {}
    for chain in dead.uncertain:
        groups.setdefault(area_of[chain.stones[0]], []).extend(chain.stones)
    named = [(("B " if board.colour[g[0]] == 1 else "W ")
              + point_name(board.point(min(g)), board.height), set(g)) for g in groups.values()]
    if len(named) <= MAX_UNCERTAIN_GROUPS:
        choices = [c for c in product((False, True), repeat=len(named)) if any(c)]
    else:
        black = tuple(board.colour[min(g)] == 1 for _, g in named)
        choices = [black, tuple(not b for b in black), tuple(True for _ in named)]
    out = []
    for choice in choices:
        stones: set[int] = set()
        gone = []
        for (name, g), is_dead in zip(named, choice, strict=True):
            if is_dead:
                stones |= g
                gone.append(name)
        out.append((", ".join(gone) + " dead", stones))
    return out


@dataclass
class FileScore:
    path: str
    check: Any
    games: list[GameScore]

    def to_dict(self) -> dict[str, Any]:
        loaded = self.check.loaded
        out = self.check.to_dict()
        out["games"] = [g.to_dict(loaded.encoding, loaded.encoding_guessed) for g in self.games]
        return out


def score_file(path: str | Path, options: ScoreOptions | None = None) -> FileScore:
    options = options or ScoreOptions()
    checked = _check(path, options)
    return FileScore(str(path), checked, [score_game(g, options) for g in checked.games])


def _check(path: str | Path, options: ScoreOptions) -> Any:
    check_options = CheckOptions(rules=options.game_rules, komi=options.komi,
                                 encoding=options.encoding)
    return check_loaded(load_file(path, options.encoding), check_options)


@dataclass
class GameLife:
    """Every chain's status in one game's position (``sgfcheck life``)."""

    check: GameReport
    board: Board | None = None
    dead: DeadStones | None = None
    chains: list[ChainStatus] = field(default_factory=list)
    move: int = 0
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        g = self.check.game
        return {
            "index": g.index + 1,
            "size": [g.width, g.height],
            "move": self.move,
            "dead_stones": None if self.dead is None or self.board is None else
            self.dead.to_dict(self.board),
            "chains": [c.to_dict() for c in self.chains],
            "findings": [f.to_dict() for f in self.check.findings if f.is_error],
            "error": self.error,
        }


def life_file(path: str | Path, options: ScoreOptions | None = None) -> tuple[Any, list[GameLife]]:
    """Each game's chains with their status, for ``sgfcheck life``."""
    options = options or ScoreOptions()
    checked = _check(path, options)
    out = []
    for report in checked.games:
        life = GameLife(report)
        found = _position_and_dead(report, options)
        if isinstance(found, str):
            life.error = found
        else:
            rep, dead = found
            life.board, life.dead, life.move = rep.board, dead, rep.moves
            life.chains = chain_statuses(rep.board, dead)
        out.append(life)
    return checked, out


__all__ = ["ScoreOptions", "GameScore", "FileScore", "GameLife", "score_file", "score_game",
           "life_file", "choose_rules"]
