"""The game finished as a referee would: the last open points of a judged position played out as
well as possible by both sides, for one way of counting.

Where every chain is settled, a game that stopped before two passes (a record cut short, a server
that writes no passes) leaves its last open points: dame, borders not yet sealed, points a player
must still fill. A referee plays them out in their head and counts. :func:`finish` does it
exactly, region by region, as decomposition search does (M. Müller, IJCAI 1999): the open points
split into regions no move can join (:mod:`sgfcheck.endgame.regions`); each region's game is
worked out once, alone (:mod:`sgfcheck.endgame.localgame`); the sum of the regions is then played
with the side to move taken from the record, passes allowed, two passes in a row ending the game
(:mod:`sgfcheck.endgame.search`), most of it known without a search.

- **the count**: under area counting the search maximises the count as it stands at the end;
  under territory counting the same less the stones each side put on the board (each move costs
  its player a point: the count of territory is the count of area less the stones each colour
  put on the board). Pass stones (AGA, BGA) make territory counting area counting: such rules
  are searched as area.
- **the record's own state**: who moves first, after how many passes, and the ko point the
  record's last move leaves banned (:mod:`sgfcheck.endgame.stage`).
- **bounded and said**: at most ``--limit solver`` units of work (a region's position worked
  out, a position of the search: the same count on any machine), and at most the time bound in
  force (``--limit solver-time``, and in ``batch`` a share of ``--timeout``) as a safety only;
  beyond either the position is left open, said so, and the count's band stands.

What the line ends in is played on the board by :func:`played` (the position and the game's
figures with the line's plays, captures and passes), which the counts
(:mod:`sgfcheck.counting.judged`) hold point by point against the referee's map.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from sgfcheck.colour import BLACK, EMPTY, WHITE, Colour
from sgfcheck.endgame.localgame import Classes, OutOfWork, Work, local_game
from sgfcheck.endgame.regions import open_points
from sgfcheck.endgame.search import Cycle, NoLine, TooDeep, solve
from sgfcheck.position.analysis import Position, analyse
from sgfcheck.position.owners import PointOwners
from sgfcheck.replay.board import Board
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset, Scoring
from sgfcheck.status import StrEnum


class Objective(StrEnum):
    """What the search maximises: the count of area, or of territory (area less the stones
    each side put on the board)."""

    AREA = "area"
    TERRITORY = "territory"


def objective_of(ruleset: Ruleset) -> Objective:
    """Territory counting without pass stones is searched as territory; everything else as
    area (pass stones make territory counting area counting)."""
    if ruleset.scoring is Scoring.TERRITORY and not ruleset.pass_stones:
        return Objective.TERRITORY
    return Objective.AREA


class Outcome(StrEnum):
    """How the playing out of the last points ended."""

    SOLVED = "solved"
    OVER_WORK = "over-work"
    """Past the budget of work (``--limit solver``, or the line deeper than the search goes)."""
    OVER_TIME = "over-time"
    """Past the time bound, a safety (on a quiet machine the budget of work decides)."""
    TOO_LARGE = "too-large"
    """An area not yet sealed too large to play out."""
    CAPTURE = "capture"
    """Best play captures a chain the judgement counts alive."""
    CYCLE = "cycle"
    """The value depends on how the rules end a cycle."""
    NO_LINE = "no-line"

    @property
    def gave_up(self) -> bool:
        """A limit stopped it (work, time, size), not the position."""
        return self in (Outcome.OVER_WORK, Outcome.OVER_TIME, Outcome.TOO_LARGE)


Play = tuple[Colour, "int | None"]
"""A move of a solved line: the colour and the point (None: a pass)."""


@dataclass(frozen=True)
class Finish:
    """The last open points played out as well as possible by both sides, or why not."""

    objective: Objective
    to_move: Colour
    """Who moves first (the record's side to move)."""
    line: tuple[Play, ...] = ()
    """The solved line, ending with the passes that end the game (empty when not solved)."""
    points: tuple[int, ...] = ()
    """The open points the search played out (empty points the count as it stands gave
    nobody), in board order."""
    names: tuple[str, ...] = ()
    """Their names (``H14``)."""
    searched: tuple[int, ...] = ()
    """Every point the search could play (the open points, the moves in hand, the stones of
    chains in atari it could capture)."""
    assumed: tuple[tuple[int, int], ...] = ()
    """Settled points not yet enclosed the search took as their owner's instead of playing them
    out (point, colour): none unless the open points alone made a region too large."""
    regions: int = 0
    positions: int = 0
    """Work spent: the regions' positions worked out and the positions searched."""
    why: str | None = None
    """Why the position is left open (None: solved)."""
    outcome: Outcome = Outcome.SOLVED
    owners: tuple[tuple[int, int], ...] = ()
    """At the end of the solved line, what the search counts for each searched point: (point,
    colour or 0)."""
    dead: tuple[int, ...] = ()
    """Stones of the solved line that cannot live at its end (removed by the count as dead)."""
    ko: int = -1
    """The point the first player may not play at once (the record's last move took a ko)."""
    to_move_assumed: str | None = None
    """How the side to move was read where it is an assumption (a record that writes no
    passes), else None."""
    seconds: float = field(default=0.0, compare=False)
    """The time it took (for the summaries; never in a verdict or a report row, and not part
    of the value: two finishes of the same position are equal whatever the machine)."""

    @property
    def solved(self) -> bool:
        return self.why is None


def finish(position: Position, to_move: Colour, passes: int, objective: Objective,
           budget: int, owners: PointOwners | None = None, ko: int = -1,
           deadline: float | None = None, bound: str = "") -> Finish:
    """The last open points of ``position`` (dead stones removed, every chain settled) played
    out as well as possible by both sides, ``to_move`` first, after ``passes`` passes in a row
    (0 or 1), ``ko`` the point ``to_move`` may not play at once (-1: none), within ``budget``
    units of work and, as a safety, by ``deadline`` (``time.monotonic()``; ``bound``, how it is
    set, is said where it ends it). ``owners``: the judge's reading of the points the
    count gives nobody (its settled points may be taken as their owner's where playing them out
    would be too large)."""
    start = time.monotonic()
    opened = open_points(position, owners)
    board = position.board
    base = Finish(objective, to_move, points=opened.open,
                  names=tuple(board.name(p) for p in opened.open), searched=opened.points,
                  assumed=tuple(sorted(opened.assumed.items())), regions=len(opened.regions),
                  ko=ko)
    if opened.too_large is not None:
        names = _names(position, opened.too_large.points)
        return replace(base, outcome=Outcome.TOO_LARGE,
                       why=f"an unsealed area of {len(opened.too_large.points)} points "
                           f"({names}) is too large to play out")
    territory = objective is Objective.TERRITORY
    work = Work(budget, deadline)
    classes = Classes()
    try:
        games = [local_game(region, position.colour, position.board.neighbours, opened.walls,
                            opened.chain_of, territory, work, classes)
                 for region in opened.regions]
        solved = solve(games, int(to_move), passes, ko, work)
    except OutOfWork as out:
        took = time.monotonic() - start
        if work.timed_out:
            return replace(base, positions=work.spent, outcome=Outcome.OVER_TIME, seconds=took,
                           why=f"playing out the last points took longer than the time bound "
                               f"({bound}), a safety: on a quiet machine the budget of work "
                               f"(--limit solver={budget}) decides")
        why = _over(budget) if not isinstance(out, TooDeep) else (
            "playing out the last points needs a line longer than the search follows")
        return replace(base, positions=budget, outcome=Outcome.OVER_WORK, why=why, seconds=took)
    except NoLine:
        return replace(base, positions=work.spent, outcome=Outcome.NO_LINE,
                       seconds=time.monotonic() - start,
                       why="the regions left out of the search could not be played out")
    except Cycle as cycle:
        return replace(base, positions=work.spent, outcome=Outcome.CYCLE, why=str(cycle),
                       seconds=time.monotonic() - start)
    took = time.monotonic() - start
    if solved.fell:
        return replace(base, positions=work.spent, outcome=Outcome.CAPTURE, seconds=took,
                       why="best play captures a chain the judgement counts alive")
    counted: list[tuple[int, int]] = []
    dead: list[int] = []
    for game, at in zip(games, solved.ends, strict=True):
        counted.extend(zip(game.region.points, game.owners(at), strict=True))
        dead.extend(game.removed(at))
    line = tuple((Colour(c), p) for c, p in solved.line)
    return replace(base, line=line, positions=work.spent, owners=tuple(sorted(counted)),
                   dead=tuple(sorted(dead)), seconds=took)


def _over(budget: int) -> str:
    return (f"playing out the last points needs more than {budget:,} units of work (--limit "
            f"solver={budget})")


def _names(position: Position, points: Sequence[int], most: int = 4) -> str:
    names = [position.board.name(p) for p in points[:most]]
    return ", ".join(names) + (f" and {len(points) - most} more" if len(points) > most else "")


# --- the line played on the board ----------------------------------------------------------------


def finished_position(finished: Finish, position: Position) -> Position:
    """The position at the end of ``finished``'s solved line: the judgement's dead stones still
    on the board where the line did not play, marked dead with the stones the line leaves dead
    (what a solved row's count and picture show)."""
    return played(finished, position, None)[0]


def played(finished: Finish, position: Position, rep: Replay | None
           ) -> tuple[Position, Replay | None]:
    """The position at the end of the solved line (see :func:`finished_position`), and the
    game's figures with the line's plays, captures and passes added (None without ``rep``)."""
    board = position.board
    on_board = Board.from_colours(board.width, board.height, position.colour, 0)
    captures = {BLACK: 0, WHITE: 0}
    plays = {BLACK: 0, WHITE: 0}
    passes = {BLACK: 0, WHITE: 0}
    first_pass: Colour | None = None
    last_pass: Colour | None = None
    for colour, point in finished.line:
        if point is None:
            passes[colour] += 1
            last_pass = colour
            first_pass = first_pass or colour
            continue
        captured, _, _ = on_board.play(point, int(colour))
        captures[colour] += captured
        plays[colour] += 1
    colours = list(on_board.colour)
    judged_dead = position.dead_points
    overwritten = {BLACK: 0, WHITE: 0}
    for p in judged_dead:
        if colours[p] == EMPTY:
            colours[p] = board.colour[p]
        else:
            overwritten[Colour(board.colour[p])] += 1
    dead = {p for p in judged_dead if colours[p] == board.colour[p]} | set(finished.dead)
    end = analyse(Board.from_colours(board.width, board.height, colours, 0), dead)
    if any(overwritten.values()):
        end = replace(end, dead={c: end.dead[c] + overwritten[c] for c in (BLACK, WHITE)})
    if rep is None:
        return end, None
    stats = replace(rep, board=end.board,
                    prisoners={c: rep.prisoners[c] + captures[c] for c in (BLACK, WHITE)},
                    plays={c: rep.plays[c] + plays[c] for c in (BLACK, WHITE)},
                    passes={c: rep.passes[c] + passes[c] for c in (BLACK, WHITE)},
                    first_pass=rep.first_pass or first_pass,
                    last_pass=last_pass or rep.last_pass)
    return end, stats
