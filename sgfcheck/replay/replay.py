"""Record x ruleset -> Replay: the final position, prisoners, passes and a finding for every move
that breaks the rules.

Illegal moves are played as the record has them (captures happen, a suicide removes its own
stones) so that later problems are found too; a move on an occupied point changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, NamedTuple

from sgfcheck import core
from sgfcheck import findings as F
from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.findings import Finding, Severity
from sgfcheck.limits import DEFAULT_LIMITS
from sgfcheck.points import Point, name_list, point_name, point_to_sgf
from sgfcheck.records.lines import Line, Move, Setup
from sgfcheck.records.record import GameRecord, HandicapPlacement
from sgfcheck.replay.board import TO_MOVE_KEY, Board
from sgfcheck.rules.ruleset import KoRule, LongCycle, Ruleset, SuicideRule

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


# The kinds of the replay loop's notes.
N_SETUP_DEAD, N_TURN_FIRST, N_TURN_TWICE, N_OFF_BOARD, N_AFTER_END, N_OCCUPIED, N_SUICIDE, \
    N_KO, N_CYCLE, N_SUPERKO = range(10)
_KO_NUMBER = {KoRule.SIMPLE: 0, KoRule.POSITIONAL: 1, KoRule.SITUATIONAL: 2,
              KoRule.NATURAL_SITUATIONAL: 3}


@core.contract
class Note(NamedTuple):
    """Something the rules have to say about a move, as both replay loops write it;
    :func:`_findings` turns it into a finding (so every message is written once)."""

    kind: int
    """``N_OCCUPIED``, ``N_KO``...: what happened."""
    move: int
    """The move's number (for a setup, the number of moves before it)."""
    a: int
    """The earlier move a repetition returns to; the colour of a stone in the way; ..."""
    b: Any
    """The stones of a setup chain without liberties."""


@core.contract
class WalkRequest(NamedTuple):
    """What the replay loop is asked (besides the line's events)."""

    width: int
    height: int
    ko: int
    """0 simple, 1 positional, 2 situational, 3 natural situational."""
    free_handicap: int
    """Handicap stones played as Black's first moves (``HA`` without setup)."""
    upto: int
    """Stop after this many moves; -1 for all."""
    white_passes_last: int
    """1 when White's extra pass after Black's is part of the rules (AGA)."""
    button: int
    """1 when the first pass takes the button (KataGo): it does not count towards the two
    passes that end the game, and the repetition history starts again after it."""


@core.contract
class Walked(NamedTuple):
    """What the replay loop returns."""

    position: Any
    """The final position: a :class:`Board` (pure loop), or its colours as bytes (compiled)."""
    hash: int
    notes: list[Note]
    extra_passes: list[int]
    """Moves that are passes after two passes in a row."""
    moves: int
    prisoners: tuple[int, int]
    """(Black's, White's)."""
    passes: tuple[int, int]
    plays: tuple[int, int]
    setup: tuple[int, int]
    first_pass: int
    """The colour of the first pass, 0 for none."""
    last_pass: int
    ended_by: int
    """The move ending the game by two passes, -1 for none."""
    cycle: tuple[int, int]
    """The first long cycle (first, last move), (-1, -1) for none."""


MoveVisitor = Callable[[int, list[int], list[int]], None]
"""Told of each move once it is played (and any set-up after it): its number, the board's colours
(indexed by point; not to be kept, it changes) and the prisoners (``[_, black, white]``)."""


def _walk_compiled(fast: ModuleType, request: WalkRequest, events: list[Move | Setup],
                   visit: MoveVisitor | None = None) -> Walked:
    """:func:`_walk` in the compiled core, where no visitor asks to see each move (the compiled
    loop has no such hook)."""
    if visit is not None:
        return _walk(request, events, visit)
    done: Walked = fast.walk(request, events)
    return done


def replay(game: GameRecord, line: Line, ruleset: Ruleset, upto: int | None = None,
           visit: MoveVisitor | None = None,
           most_findings: int = DEFAULT_LIMITS.findings) -> Replay:
    """Replay a line of a game under a ruleset, up to move ``upto`` (all moves by default).
    ``visit``: told of the position after every move, in one pass (the game page draws each
    move from it); the pure replay does it, the compiled one has no such hook.
    ``most_findings``: the findings of the line written at most (``--limit findings``); the
    rest are counted in one ``SGF035``."""
    # HA with the stones played as Black's first moves: those are not the same colour twice.
    free_handicap = game.handicap if game.handicap_placement is HandicapPlacement.PLAYED else 0
    request = WalkRequest(game.width, game.height, _KO_NUMBER[ruleset.ko], free_handicap,
                          -1 if upto is None else upto, int(ruleset.white_passes_last),
                          int(ruleset.first_pass_bonus > 0))
    done = _walked(request, line.events, visit)
    position = done.position
    board = (position if isinstance(position, Board)
             else Board.from_colours(game.width, game.height, position, done.hash))
    prisoners, passes, plays, setup = done.prisoners, done.passes, done.plays, done.setup
    out = Replay(ruleset, board, _findings(done.notes, line, ruleset, game.width, game.height,
                                           most_findings),
                 done.moves, {BLACK: prisoners[0], WHITE: prisoners[1]},
                 {BLACK: passes[0], WHITE: passes[1]}, {BLACK: plays[0], WHITE: plays[1]},
                 {BLACK: setup[0], WHITE: setup[1]},
                 Colour(done.first_pass) if done.first_pass else None,
                 Colour(done.last_pass) if done.last_pass else None,
                 done.ended_by if done.ended_by >= 0 else None,
                 done.cycle if done.cycle[0] >= 0 else None)
    extra_passes = done.extra_passes
    if extra_passes:
        out.findings.append(_passes_after_end(extra_passes, ruleset))
    return out


def _composed(line: Line) -> bool:
    """The line starts from a position set up with stones of both colours (a problem, a game
    taken up in the middle): who moves first is the record's choice, not a rule."""
    black = white = False
    for event in line.events:
        if not isinstance(event, Setup):
            break
        black, white = black or bool(event.black), white or bool(event.white)
    return black and white


def _findings(notes: list[Note], line: Line, ruleset: Ruleset,
              width: int, height: int, most: int = DEFAULT_LIMITS.findings) -> list[Finding]:
    """The findings the notes of the replay loop stand for, in their order: the first ``most``,
    then one finding that counts the rest (a finding costs a kilobyte: 4 million of them, a
    12 MB record of one move played again and again, took 5.6 GB)."""
    found: list[Finding] = []
    if not notes:
        return found
    if len(notes) > most:
        return _findings(notes[:most], line, ruleset, width, height, most) + [
            _not_written(notes[most:], most, ruleset)]
    moves = dict(line.numbered_moves())
    for kind, move_no, a, stones in notes:
        if kind == N_SETUP_DEAD:
            colour = Colour(a)
            pts = sorted(point_name((s % width, s // width), height) for s in stones)
            found.append(Finding(
                F.RUL_SETUP_DEAD,
                f"setup leaves {colour.word.lower()} stones at {name_list(pts)} "
                "without liberties; they stay on the board as set up",
                move=move_no or None, colour=colour, point=pts[0]))
            continue
        ev = moves[move_no]
        c = ev.colour
        point = ev.point
        name = point_name(point, height)
        if kind == N_TURN_FIRST:
            to_move = Colour(a)
            if _composed(line):
                f = Finding(F.SGF_TURN_ORDER, f"{c.word} moves first from a set-up position "
                            "(stones of both colours): either side may start one",
                            move=move_no, colour=c, point=name, severity=Severity.INFO)
            else:
                msg = (f"{c.word} moves first, but {to_move.word} starts "
                       + ("after the handicap stones" if to_move == WHITE
                          else "a game without handicap stones")
                       + " (the colours may be swapped in the record)")
                f = Finding(F.SGF_TURN_ORDER, msg, move=move_no, colour=c, point=name)
        elif kind == N_TURN_TWICE:
            f = Finding(F.RUL_TURN, f"{c.word} moves twice in a row (assumed: "
                        f"{c.opponent.word} passed in between)", move=move_no, colour=c,
                        point=name)
        elif kind == N_OFF_BOARD:
            assert point is not None
            f = Finding(F.RUL_OFF_BOARD, f"{c.word} plays at {_sgf(point)}, outside the "
                        f"{width}x{height} board; read as a pass", move=move_no,
                        colour=c, point=None)
        elif kind == N_AFTER_END:
            allowed = ruleset.play_may_resume
            f = Finding(F.RUL_AFTER_END, f"{c.word} plays after the game ended by two passes "
                        f"(move {a}); " + ("play may resume under these rules" if allowed else
                                           "the game is over under these rules"),
                        move=move_no, colour=c, point=name,
                        severity=Severity.INFO if allowed else Severity.WARNING)
        elif kind == N_OCCUPIED:
            f = Finding(F.RUL_OCCUPIED, f"{c.word} plays on {name}, which already holds a "
                        f"{Colour(a).word.lower()} stone; the move changes nothing",
                        move=move_no, colour=c, point=name)
        elif kind == N_SUICIDE:
            assert point is not None
            f = _suicide(ruleset.suicide, c, point, height, move_no, a)
        elif kind == N_KO:
            f = Finding(F.RUL_KO, f"{c.word} retakes the ko at {name} at once (simple ko); the "
                        f"position after {_when(a)} returns", move=move_no, colour=c,
                        point=name, repeats_move=a)
        elif kind == N_CYCLE:
            f = Finding(
                F.RUL_CYCLE,
                f"moves {a + 1}-{move_no} form a cycle: the position after move "
                f"{move_no} repeats the one after {_when(a)} with the same player to "
                f"move (triple ko, eternal life or similar); under {ruleset.name} rules "
                f"{_CYCLE_MEANING[ruleset.long_cycle]}",
                move=move_no, colour=c, point=name, repeats_move=a,
                extra={"cycle": [a + 1, move_no]})
        else:
            assert kind == N_SUPERKO
            code = _SUPERKO_CODE[ruleset.ko]
            f = Finding(code, f"{c.word} {name} recreates the position after {_when(a)} "
                        f"({code.rule})", move=move_no, colour=c, point=name, repeats_move=a)
        if ev.forced and f.is_illegal:
            _force(f)
        found.append(f)
    return found
_KIND_RULE = {N_SETUP_DEAD: F.RUL_SETUP_DEAD, N_TURN_FIRST: F.SGF_TURN_ORDER,
              N_TURN_TWICE: F.RUL_TURN, N_OFF_BOARD: F.RUL_OFF_BOARD,
              N_AFTER_END: F.RUL_AFTER_END, N_OCCUPIED: F.RUL_OCCUPIED, N_SUICIDE: F.RUL_SUICIDE,
              N_KO: F.RUL_KO, N_CYCLE: F.RUL_CYCLE}


def _not_written(rest: list[Note], most: int, ruleset: Ruleset) -> Finding:
    """The findings past the limit, counted by rule."""
    counts: dict[str, int] = {}
    illegal: dict[str, int] = {}
    for note in rest:
        code = _KIND_RULE.get(note.kind) or _SUPERKO_CODE[ruleset.ko]
        counts[code.rule] = counts.get(code.rule, 0) + 1
        if code.is_rule and code.severity is Severity.ERROR:
            illegal[code.rule] = illegal.get(code.rule, 0) + 1
    return Finding(
        F.SGF_LIMIT, f"{len(rest)} more findings of this line past the first {most} are not "
        f"written, from move {rest[0].move} on ("
        + ", ".join(f"{n} {rule}" for rule, n in counts.items())
        + "; raise it with --limit findings=...)", move=rest[0].move,
        extra={"limit": f"findings={most}", "more": counts, "illegal": illegal})


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


def _sgf(point: Point) -> str:
    return f"[{point_to_sgf(point)}]"


def _suicide(rule: SuicideRule, c: Colour, point: Point, height: int, move_no: int,
             stones: int) -> Finding:
    name = point_name(point, height)
    what = "a single stone" if stones == 1 else f"{stones} stones"
    legal = rule is SuicideRule.ALLOWED or (rule is SuicideRule.MULTI_STONE and stones > 1)
    if legal:
        extra = " (it changes nothing, like a pass)" if stones == 1 else ""
        return Finding(
            F.RUL_SUICIDE_ALLOWED,
            f"{c.word} {name} removes its own {what} (suicide, legal here){extra}",
            move=move_no, colour=c, point=name)
    why = "single-stone suicide" if rule is SuicideRule.MULTI_STONE else "suicide"
    return Finding(
        F.RUL_SUICIDE,
        f"{c.word} {name} leaves its own {what} without liberties ({why} is illegal "
        "here); played as recorded: the stones are removed",
        move=move_no, colour=c, point=name)


def _force(f: Finding) -> None:
    """KO[] in the node: the record says to play the move even if illegal."""
    f.severity = Severity.INFO
    f.message += " - the node has KO[], so the record forces this move"
    f.extra["forced"] = True


# --- the replay loop, pure-Python reference (the compiled one: _core.c, walk) -----------------

def _walk(request: WalkRequest, events: list[Move | Setup], visit: MoveVisitor | None = None
          ) -> Walked:
    """Replay the events: the position and notes of everything the rules have to say; ``visit``
    told of the position after each move."""
    w, h, ko_number, free_handicap, upto, white_passes_last, button = request
    board = Board(w, h)
    notes: list[Note] = []
    positional, situational, natural = ko_number == 1, ko_number == 2, ko_number == 3
    simple = ko_number == 0
    key_b, key_w = TO_MOVE_KEY[BLACK], TO_MOVE_KEY[WHITE]
    colour_at = board.colour
    prisoners = [0, 0, 0]
    passes = [0, 0, 0]
    plays = [0, 0, 0]
    setup = [0, 0, 0]
    first_pass = last_pass = 0
    ended_by = -1
    cycle = (-1, -1)
    to_move = 1
    history: dict[int, int] = {}
    in_cycle = False
    ko_point = -1
    ko_colour = 0
    consecutive_passes = 0
    extra_passes: list[int] = []
    resumed_reported = False
    move_no = 0
    started = False

    def start_history() -> None:
        history.clear()
        hb = board.hash
        if positional:
            history[hb] = move_no
        elif natural:
            # A set-up position counts as made by the player who is not to move.
            history[hb ^ (key_w if to_move == 1 else key_b)] = move_no
        else:
            history[hb ^ (key_b if to_move == 1 else key_w)] = move_no

    start_history()
    for ev in events:
        if type(ev) is Setup:
            dead = board.set_stones([r * w + c for c, r in ev.black],
                                    [r * w + c for c, r in ev.white],
                                    [r * w + c for c, r in ev.empty])
            setup[1] += len(ev.black)
            setup[2] += len(ev.white)
            for chain in dead:
                notes.append(Note(N_SETUP_DEAD, move_no, chain.colour, tuple(chain.stones)))
            if ev.player is not None:
                to_move = int(ev.player)
            elif not started and ev.black and not ev.white:
                to_move = 2  # handicap stones: White moves first
            ko_point = -1
            start_history()
            continue
        if upto >= 0 and move_no >= upto:
            break
        if visit is not None and move_no:
            visit(move_no, colour_at, prisoners)  # the move before this one, set-ups included
        assert type(ev) is Move
        move_no += 1
        started = True
        c = int(ev.colour)
        opp = 3 - c
        point = ev.point
        if c != to_move and not (move_no <= free_handicap and c == 1):
            notes.append(Note(N_TURN_FIRST, move_no, to_move, 0) if move_no == 1
                         else Note(N_TURN_TWICE, move_no, 0, 0))
        to_move = opp if move_no >= free_handicap else 1
        if point is not None and (point[0] >= w or point[1] >= h):
            notes.append(Note(N_OFF_BOARD, move_no, 0, 0))
            point = None
        if point is None:
            passes[c] += 1
            last_pass = c
            if button and not first_pass:
                # The first pass takes the button: it is not one of the two passes that end
                # the game, and no position before it can be repeated after it.
                first_pass = c
                ko_point = -1
                in_cycle = False
                start_history()
                continue
            if not first_pass:
                first_pass = c
            consecutive_passes += 1
            if consecutive_passes >= 2 and ended_by < 0:
                ended_by = move_no
            elif consecutive_passes > 2 and not (
                    consecutive_passes == 3 and white_passes_last and c == 2):
                extra_passes.append(move_no)
            ko_point = -1
            if simple:
                history.clear()
                in_cycle = False
            elif situational:
                history.setdefault(board.hash ^ (key_b if opp == 1 else key_w), move_no)
            continue
        if ended_by >= 0 and not resumed_reported:
            resumed_reported = True
            notes.append(Note(N_AFTER_END, move_no, ended_by, 0))
        consecutive_passes = 0
        col, row = point
        p = row * w + col
        if colour_at[p]:
            notes.append(Note(N_OCCUPIED, move_no, colour_at[p], 0))
            ko_point = -1
            continue
        retakes_ko = p == ko_point and c == ko_colour
        captured, ko, self_captured = board.play(p, c)
        plays[c] += 1
        prisoners[c] += captured
        if self_captured:
            prisoners[opp] += self_captured
            notes.append(Note(N_SUICIDE, move_no, self_captured, 0))
        hb = board.hash
        if simple or situational:
            key = hb ^ (key_b if opp == 1 else key_w)
        elif natural:
            key = hb ^ (key_b if c == 1 else key_w)
        else:
            key = hb
        earlier = history.get(key)
        if simple and retakes_ko:
            notes.append(Note(N_KO, move_no, move_no - 2, 0))
        if earlier is None:
            history[key] = move_no
            in_cycle = False
        elif simple:
            if not retakes_ko and not in_cycle:
                in_cycle = True
                if cycle[0] < 0:
                    cycle = (earlier + 1, move_no)
                notes.append(Note(N_CYCLE, move_no, earlier, 0))
        elif retakes_ko:
            notes.append(Note(N_KO, move_no, earlier, 0))
        else:
            notes.append(Note(N_SUPERKO, move_no, earlier, 0))
        ko_point = ko
        ko_colour = opp
    if visit is not None and move_no:
        visit(move_no, colour_at, prisoners)
    return Walked(board, board.hash, notes, extra_passes, move_no, (prisoners[1], prisoners[2]),
                  (passes[1], passes[2]), (plays[1], plays[2]), (setup[1], setup[2]),
                  first_pass, last_pass, ended_by, cycle)


_walked = core.door(_walk_compiled, _walk)
