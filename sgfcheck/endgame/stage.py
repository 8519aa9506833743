"""The endgame stage of a judged game: whether its last open points are played out, from which
state of the record, and each way of counting's finish, worked out once, before any count reads
them (:class:`Endgame`).

The last points are played out only where the count rests on a judgement of the position (the
estimate, an engine, proofs alone: a band, not a firm count), the game did not end by two passes,
something is known of the dead stones and every chain is settled; else :class:`Solving` says why
not. The state it starts from is the record's own, read backwards from the last move replayed:

- **who moves first**: the opponent of the last move's colour, unless a later node's ``PL``
  names the side to move; a record from a server that writes no passes (Fox) may have ended by
  passes it did not write, so there the side to move is an assumption, said with the count;
- **the passes in a row** that end the moves replayed (one: the first player may end the game at
  once);
- **the ko ban**: where the last move took a single stone in a ko, the first player may not take
  back at once (simple ko).

Time is bounded as a safety only (the budget of work decides, the same on any machine): each
finish within ``--limit solver-time``, and in ``batch`` every finish of a file within a share of
its ``--timeout`` (:func:`within`), so that a file never loses its check to the solver.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

from sgfcheck.colour import BLACK, Colour
from sgfcheck.endgame.finish import Finish, Objective, finish
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.position.analysis import Position
from sgfcheck.position.owners import PointOwners
from sgfcheck.records.lines import Line, Move
from sgfcheck.records.record import GameRecord
from sgfcheck.records.servers import Server
from sgfcheck.replay.board import Board
from sgfcheck.replay.replay import Replay, replay
from sgfcheck.settings import Settings


@dataclass(frozen=True)
class Solving:
    """Whether and how a position's last points are played out: never where the judgement is
    firm, the game ended by two passes, nothing is known of the dead stones or a chain is
    unsettled (``why_not`` says which, for the notes)."""

    to_move: Colour
    passes: int
    """Passes in a row at the record's end (0 or 1)."""
    budget: int
    """``--limit solver``: units of work at most (0: not played out)."""
    seconds: float = 0.0
    """``--limit solver-time``: seconds a finish may take at most, a safety."""
    ko: int = -1
    """The point the first player may not play at once: the record's last move took a single
    stone in a ko there (-1: none)."""
    why_not: str | None = None
    assumed: str | None = None
    """How the side to move was read where it is an assumption (a server that writes no
    passes), else None."""


def solving(game: GameRecord, line: Line, rep: Replay, dead: DeadStones, banded: bool,
            final: bool, settings: Settings) -> Solving:
    """Whether the last points of the position are played out, who moves first (the record's
    side to move after the moves replayed), after how many passes in a row, under which ko
    ban."""
    # Read backwards from the last move replayed (a record's line is hundreds of moves; this
    # runs for every game): the side to move is the opponent of that move's colour unless a
    # later node's PL names it; the passes in a row are those that end the moves replayed.
    events = line.events
    end = len(events)
    if settings.move is not None:  # replayed up to --move: the moves after it are not read
        at = [i for i, event in enumerate(events) if type(event) is Move]
        end = at[rep.moves] if rep.moves < len(at) else end
    to_move: Colour | None = None
    named = False
    passes = 0
    last: Move | None = None
    for k in range(end - 1, -1, -1):
        event = events[k]
        if isinstance(event, Move):
            last = last or event
            if to_move is None:
                to_move = event.colour.opponent
            if event.point is not None or passes == 2:
                break
            passes += 1
        elif to_move is None and event.player is not None:  # PL[] names the side to move
            to_move, named = event.player, True
    to_move = to_move or BLACK
    limits = settings.limits
    why_not = ("the count rests on a firm judgement" if not banded else
               "the game ended by two passes" if final or passes >= 2 else
               "nothing is known of the dead stones" if dead.assumed else
               "chains are unsettled: " + ", ".join(dead.uncertain_names(rep.board))
               if dead.uncertain else
               "the solver is off (--limit solver=0)" if limits.solver == 0 else None)
    assumed = None
    if why_not is None and game.server is Server.FOX and not named and passes == 0:
        assumed = (f"{to_move.name.lower().capitalize()} to move, the opponent of the last move "
                   "(Fox records write no passes: the game may have ended by passes not written)")
    ko = -1
    if why_not is None and last is not None and last.point is not None and passes == 0:
        ko = _ko_ban(game, line, rep, last)
    return Solving(to_move, min(passes, 1), limits.solver, limits.solver_time, ko, why_not,
                   assumed)


def _ko_ban(game: GameRecord, line: Line, rep: Replay, last: Move) -> int:
    """The point the record's last move leaves banned under simple ko (-1: none): the move took
    one stone, and the stone it played stands alone with that point as its only liberty. The
    shape is read on the final board; only where it fits is the move played again on the
    position before it, to see what it took."""
    board = rep.board
    assert last.point is not None
    col, row = last.point
    if not (0 <= col < board.width and 0 <= row < board.height):
        return -1  # off the board: no move was played
    p = board.index(col, row)
    if board.colour[p] != int(last.colour):
        return -1
    chain = board.chain_of[p]
    if chain is None or len(chain.stones) != 1 or len(chain.liberties) != 1:
        return -1
    before = replay(game, line, rep.ruleset, upto=rep.moves - 1)
    again = Board.from_colours(board.width, board.height, before.board.colour, 0)
    captured, ko, _ = again.play(p, int(last.colour))
    return ko if captured == 1 else -1


_BOUND: ContextVar[tuple[float, str] | None] = ContextVar("sgfcheck_solver_bound",
                                                           default=None)


@contextmanager
def within(seconds: float, option: str) -> Iterator[None]:
    """Within this block every finish ends by ``seconds`` from now (a safety; 0 or less: no
    bound of its own); ``option`` says how the user sets it."""
    if seconds <= 0:
        yield
        return
    token = _BOUND.set((time.monotonic() + seconds, option))
    try:
        yield
    finally:
        _BOUND.reset(token)


@dataclass(frozen=True)
class Endgame:
    """A judged position's endgame: how it is played out, and the finish of each way of
    counting asked (none where it is not played out)."""

    solving: Solving
    finishes: tuple[Finish, ...] = ()

    def of(self, objective: Objective) -> Finish | None:
        return next((f for f in self.finishes if f.objective is objective), None)

    @property
    def gave_up(self) -> bool:
        """A limit stopped a finish (work, time, size)."""
        return any(f.outcome.gave_up for f in self.finishes)

    @property
    def seconds(self) -> float:
        return sum(f.seconds for f in self.finishes)


def play_out(position: Position, owners: PointOwners | None, solving: Solving,
             objectives: Iterable[Objective]) -> Endgame:
    """The endgame of ``position``: each of ``objectives`` played out once (in the order of
    :class:`Objective`), where ``solving`` allows."""
    if solving.why_not is not None:
        return Endgame(solving)
    wanted = set(objectives)
    finishes = []
    for objective in Objective:
        if objective not in wanted:
            continue
        deadline, said = None, ""
        if solving.seconds > 0:
            deadline = time.monotonic() + solving.seconds
            said = f"--limit solver-time={solving.seconds:g}"
        bound = _BOUND.get()
        if bound is not None and (deadline is None or bound[0] < deadline):
            deadline, said = bound
        found = finish(position, solving.to_move, solving.passes, objective, solving.budget,
                       owners, solving.ko, deadline, said)
        finishes.append(replace(found, to_move_assumed=solving.assumed))
    return Endgame(solving, tuple(finishes))
