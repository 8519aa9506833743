"""Record x ruleset -> Replay: the final position, prisoners, passes and a finding for every move
that breaks the rules.

Illegal moves are played as the record has them (captures happen, a suicide removes its own
stones) so that later problems are found too; a move on an occupied point changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sgfcheck import findings as F
from sgfcheck.board import TO_MOVE_KEY, Board
from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.findings import Finding, Severity
from sgfcheck.points import Point, name_list, point_name, point_to_sgf
from sgfcheck.records import GameRecord, Line, Move, Setup
from sgfcheck.rules import KoRule, LongCycle, Ruleset, SuicideRule

_SUPERKO_CODE = {
    KoRule.POSITIONAL: F.RUL_PSK,
    KoRule.SITUATIONAL: F.RUL_SSK,
    KoRule.NATURAL_SITUATIONAL: F.RUL_NSSK,
}
_CYCLE_MEANING = {
    LongCycle.NO_RESULT: "the game has no result",
    LongCycle.DRAW: "the game is a draw",
    LongCycle.VOID: "the referee voids the game or orders a replay",
    LongCycle.FORBIDDEN: "it is forbidden",
}


@dataclass
class Replay:
    """What replaying one line of a game under one ruleset found."""

    ruleset: Ruleset
    board: Board
    findings: list[Finding]
    moves: int = 0
    """Moves replayed (passes included, setup excluded)."""
    prisoners: dict[Colour, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    """Stones each colour captured (its prisoners), including opponent self-captures."""
    passes: dict[Colour, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    plays: dict[Colour, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    """Stones played on the board (not setup, not passes)."""
    setup_stones: dict[Colour, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    """Stones added by AB/AW (handicap included)."""
    first_pass: Colour | None = None
    last_pass: Colour | None = None
    """Colour of the most recent pass."""
    ended_by_passes: int | None = None
    """Move number of the second of two consecutive passes, if the line ends that way."""
    cycle: tuple[int, int] | None = None
    """(first, last) move of the first long cycle under simple ko."""

    @property
    def illegal(self) -> list[Finding]:
        return [f for f in self.findings if f.is_illegal]


def replay(game: GameRecord, line: Line, ruleset: Ruleset, upto: int | None = None) -> Replay:
    """Replay a line of a game under a ruleset, up to move ``upto`` (all moves by default)."""
    w, h = game.width, game.height
    board = Board(w, h)
    out = Replay(ruleset, board, [])
    found = out.findings
    ko_rule = ruleset.ko
    simple = ko_rule is KoRule.SIMPLE
    situational = ko_rule is KoRule.SITUATIONAL
    natural = ko_rule is KoRule.NATURAL_SITUATIONAL
    superko_code = _SUPERKO_CODE.get(ko_rule)
    suicide_rule = ruleset.suicide
    key_b, key_w = TO_MOVE_KEY[BLACK], TO_MOVE_KEY[WHITE]
    colour_at = board.colour
    prisoners = out.prisoners
    plays = out.plays

    to_move: Colour = BLACK
    free_handicap = 0
    if game.handicap and not any(isinstance(e, Setup) and e.black for e in line.events[:3]):
        free_handicap = game.handicap  # HA with the stones played as Black moves
    history: dict[int, int] = {}
    in_cycle = False
    ko_point = -1
    ko_colour = 0
    consecutive_passes = 0
    extra_passes: list[int] = []  # move numbers of passes after two in a row
    resumed_reported = False
    move_no = 0
    started = False

    def start_history() -> None:
        history.clear()
        hb = board.hash
        if ko_rule is KoRule.POSITIONAL:
            history[hb] = move_no
        elif natural:
            # A set-up position counts as made by the player who is not to move.
            history[hb ^ (key_w if to_move == BLACK else key_b)] = move_no
        else:
            history[hb ^ (key_b if to_move == BLACK else key_w)] = move_no

    start_history()
    for ev in line.events:
        if type(ev) is Setup:
            idx = [r * w + c for c, r in ev.black]
            dead = board.set_stones(idx, [r * w + c for c, r in ev.white],
                                    [r * w + c for c, r in ev.empty])
            out.setup_stones[BLACK] += len(ev.black)
            out.setup_stones[WHITE] += len(ev.white)
            for chain in dead:
                pts = sorted(point_name(board.point(s), h) for s in chain.stones)
                colour = Colour(chain.colour)
                found.append(Finding(
                    F.RUL_SETUP_DEAD,
                    f"setup leaves {colour.word.lower()} stones at {name_list(pts)} "
                    "without liberties; they stay on the board as set up",
                    move=move_no or None, colour=colour, point=pts[0]))
            if ev.player is not None:
                to_move = ev.player
            elif not started and ev.black and not ev.white:
                to_move = WHITE  # handicap stones: White moves first
            ko_point = -1
            start_history()
            continue
        if upto is not None and move_no >= upto:
            break
        assert type(ev) is Move
        move_no += 1
        started = True
        c = ev.colour
        opp = WHITE if c is BLACK else BLACK
        point = ev.point
        before = len(found)
        if c != to_move and not (move_no <= free_handicap and c == BLACK):
            if move_no == 1:
                msg = (f"{c.word} moves first, but it is {to_move.word}'s turn "
                       f"({'handicap stones are placed' if to_move == WHITE else 'Black starts'})")
                found.append(Finding(F.RUL_TURN, msg, move=move_no, colour=c,
                                     point=point_name(point, h), severity=Severity.INFO))
            else:
                found.append(Finding(
                    F.RUL_TURN,
                    f"{c.word} moves twice in a row (assumed: {opp.word} passed in between)",
                    move=move_no, colour=c, point=point_name(point, h)))
        to_move = opp if move_no >= free_handicap else BLACK
        if point is not None and (point[0] >= w or point[1] >= h):
            found.append(Finding(
                F.RUL_OFF_BOARD,
                f"{c.word} plays at {_sgf(point)}, outside the {w}x{h} board; read as a pass",
                move=move_no, colour=c, point=None))
            point = None
        if point is None:
            out.passes[c] += 1
            if out.first_pass is None:
                out.first_pass = c
            out.last_pass = c
            consecutive_passes += 1
            if consecutive_passes >= 2 and out.ended_by_passes is None:
                out.ended_by_passes = move_no
            elif consecutive_passes > 2 and not (
                    consecutive_passes == 3 and ruleset.white_passes_last and c is WHITE):
                extra_passes.append(move_no)
            ko_point = -1
            if simple:
                history.clear()
                in_cycle = False
            elif situational:
                history.setdefault(board.hash ^ (key_b if opp == BLACK else key_w), move_no)
            if ev.forced:
                _force(found, before)
            continue
        if out.ended_by_passes is not None and not resumed_reported:
            resumed_reported = True
            allowed = ruleset.play_may_resume
            found.append(Finding(
                F.RUL_AFTER_END,
                f"{c.word} plays after the game ended by two passes (move "
                f"{out.ended_by_passes}); "
                + ("play may resume under these rules" if allowed else
                   "the game is over under these rules"),
                move=move_no, colour=c, point=point_name(point, h),
                severity=Severity.INFO if allowed else Severity.WARNING))
        consecutive_passes = 0
        col, row = point
        p = row * w + col
        if colour_at[p]:
            found.append(Finding(
                F.RUL_OCCUPIED,
                f"{c.word} plays on {point_name(point, h)}, which already holds a "
                f"{Colour(colour_at[p]).word.lower()} stone; the move changes nothing",
                move=move_no, colour=c, point=point_name(point, h)))
            ko_point = -1
            if ev.forced:
                _force(found, before)
            continue
        retakes_ko = p == ko_point and c == ko_colour
        captured, ko, self_captured = board.play(p, c)
        plays[c] += 1
        prisoners[c] += captured
        if self_captured:
            prisoners[opp] += self_captured
            _suicide(found, suicide_rule, c, point, h, move_no, self_captured)
        hb = board.hash
        if simple or situational:
            key = hb ^ (key_b if opp == BLACK else key_w)
        elif natural:
            key = hb ^ (key_b if c == BLACK else key_w)
        else:
            key = hb
        earlier = history.get(key)
        if simple and retakes_ko:
            _ko(found, c, point, h, move_no, move_no - 2)
        if earlier is None:
            history[key] = move_no
            in_cycle = False
        elif simple:
            if not retakes_ko and not in_cycle:
                in_cycle = True
                if out.cycle is None:
                    out.cycle = (earlier + 1, move_no)
                found.append(Finding(
                    F.RUL_CYCLE,
                    f"moves {earlier + 1}-{move_no} form a cycle: the position after move "
                    f"{move_no} repeats the one after {_when(earlier)} with the same player to "
                    f"move (triple ko, eternal life or similar); under {ruleset.name} rules "
                    f"{_CYCLE_MEANING[ruleset.long_cycle]}",
                    move=move_no, colour=c, point=point_name(point, h),
                    repeats_move=earlier, extra={"cycle": [earlier + 1, move_no]}))
        elif retakes_ko:
            _ko(found, c, point, h, move_no, earlier)
        elif superko_code is not None:
            found.append(Finding(
                superko_code,
                f"{c.word} {point_name(point, h)} recreates the position after "
                f"{_when(earlier)} ({superko_code.rule})",
                move=move_no, colour=c, point=point_name(point, h),
                repeats_move=earlier))
        ko_point = ko
        ko_colour = opp
        if ev.forced:
            _force(found, before)
    if extra_passes:
        found.append(_passes_after_end(extra_passes, ruleset))
    out.moves = move_no
    return out


def _passes_after_end(moves: list[int], ruleset: Ruleset) -> Finding:
    """Passes after two in a row (AGA's required last pass by White aside): the game had ended;
    they change nothing, and a record with thousands of them is not a game record."""
    return Finding(
        F.RUL_AFTER_END,
        f"{len(moves)} pass(es) after two passes in a row, from move {moves[0]} on: the game had "
        "ended; they change nothing",
        move=moves[0], severity=Severity.INFO if ruleset.play_may_resume else Severity.WARNING)


def _when(move: int) -> str:
    return "the start" if move == 0 else f"move {move}"


def _ko(found: list[Finding], c: Colour, point: Point, height: int, move_no: int,
        earlier: int) -> None:
    name = point_name(point, height)
    found.append(Finding(
        F.RUL_KO,
        f"{c.word} retakes the ko at {name} at once (simple ko); the position after "
        f"{_when(earlier)} returns",
        move=move_no, colour=c, point=name, repeats_move=earlier))


def _sgf(point: Point) -> str:
    return f"[{point_to_sgf(point)}]"


def _suicide(found: list[Finding], rule: SuicideRule, c: Colour, point: Point,
             height: int, move_no: int, stones: int) -> None:
    name = point_name(point, height)
    what = "a single stone" if stones == 1 else f"{stones} stones"
    legal = rule is SuicideRule.ALLOWED or (rule is SuicideRule.MULTI_STONE and stones > 1)
    if legal:
        extra = " (it changes nothing, like a pass)" if stones == 1 else ""
        found.append(Finding(
            F.RUL_SUICIDE_ALLOWED,
            f"{c.word} {name} removes its own {what} (suicide, legal here){extra}",
            move=move_no, colour=c, point=name))
        return
    why = "single-stone suicide" if rule is SuicideRule.MULTI_STONE else "suicide"
    found.append(Finding(
        F.RUL_SUICIDE,
        f"{c.word} {name} leaves its own {what} without liberties ({why} is illegal "
        "here); played as recorded: the stones are removed",
        move=move_no, colour=c, point=name))


def _force(found: list[Finding], before: int) -> None:
    """KO[] in the node: the record says to play the move even if illegal."""
    for f in found[before:]:
        if f.is_illegal:
            f.severity = Severity.INFO
            f.message += " - the node has KO[], so the record forces this move"
            f.extra["forced"] = True
