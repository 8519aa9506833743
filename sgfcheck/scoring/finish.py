"""The game finished as a referee would: the last open points played out as well as possible by
both sides, and the position counted.

Where every chain is settled, a game that stopped before two passes (a record cut short, a
server that writes no passes) leaves its last open points: dame, borders not yet sealed, points a
player must still fill. A referee plays them out in their head and counts. :func:`finish` does it
exactly, as M. Müller's decomposition search does (IJCAI 1999): the open points split into
regions no move can join (:mod:`sgfcheck.scoring.regions`); each region's game is worked out once
(:mod:`sgfcheck.scoring.localgame`); a search over their sum finds the value of the whole
position with the side to move taken from the record, passes allowed, two passes in a row ending
the game:

- **the sum**: a position of the search is one position of each region, the player to move, the
  passes just made and the ko point no one may retake at once. Regions whose games are identical
  (two lone dame, two identical borders) count as one move choice, and a region where no move
  ever changes the count (a dame under territory counting) is the same as passing: it is left
  out. Alpha-beta with a table of the positions already searched keeps it to a few thousand
  positions for dozens of open points in small regions.
- **the count**: under area counting the search maximises the count as it stands at the end;
  under territory counting the same less the stones each side put on the board (each move costs
  its player a point: the count of territory is the count of area less the stones each colour put
  on the board). Pass stones (AGA, BGA) make territory counting area counting: such rules are
  searched as area.
- **a ko, a cycle**: the ko point of a single-stone capture may not be retaken at once (simple
  ko). A line that returns to a position already on it (two kos, a capture and a recapture) is a
  cycle, which the rules resolve their own ways (no result, superko). The search is made twice,
  with a cycle counted as lost for Black and then for White: where the two agree, no cycle
  changes the value; where they differ, the position is left open, said so.
- **a bound on work**: at most ``--limit solver`` positions (the regions' and the sum's together);
  beyond it the position is left open, said so, and the count's band stands.

The solved line is then played on the board and the position counted under each ruleset as
every count is (:func:`finished_count`), and held point by point against the referee's map: a
line whose count parts from the search's (a seki, a point to fill, a territory opened that the
search took as closed) is left open, said so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sgfcheck.colour import BLACK, EMPTY, WHITE, Colour
from sgfcheck.replay.board import Board
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.ruleset import Ruleset, Scoring
from sgfcheck.scoring.count import CountedPoints, Score, count, counted_points
from sgfcheck.scoring.localgame import FALLS, Counter, LocalGame, OutOfBudget, local_game
from sgfcheck.scoring.owners import PointOwners
from sgfcheck.scoring.position import Position, analyse
from sgfcheck.scoring.regions import open_points
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
    small chains it could capture)."""
    assumed: tuple[tuple[int, int], ...] = ()
    """Settled points not yet enclosed the search took as their owner's instead of playing them
    out (point, colour): none unless the open points alone made a region too large."""
    regions: int = 0
    positions: int = 0
    """Positions searched (the regions' and the sum's)."""
    why: str | None = None
    """Why the position is left open (None: solved)."""
    owners: tuple[tuple[int, int], ...] = ()
    """At the end of the solved line, what the search counts for each searched point: (point,
    colour or 0)."""
    dead: tuple[int, ...] = ()
    """Stones of the solved line that cannot live at its end (removed by the count as dead)."""

    @property
    def solved(self) -> bool:
        return self.why is None


class _Cycle(Exception):
    pass


def finish(position: Position, to_move: Colour, passes: int, objective: Objective,
           budget: int, owners: PointOwners | None = None) -> Finish:
    """The last open points of ``position`` (dead stones removed, every chain settled) played
    out as well as possible by both sides, ``to_move`` first, after ``passes`` passes in a row
    (0 or 1), within ``budget`` positions (see the module's text). ``owners``: the judge's
    reading of the points the count gives nobody (its settled points may be taken as their
    owner's where playing them out would be too large)."""
    opened = open_points(position, owners)
    board = position.board
    base = Finish(objective, to_move, points=opened.open,
                  names=tuple(board.name(p) for p in opened.open), searched=opened.points,
                  assumed=tuple(sorted(opened.assumed.items())), regions=len(opened.regions))
    if opened.too_large is not None:
        names = _names(position, opened.too_large.points)
        return replace(base, why=f"an unsealed area of {len(opened.too_large.points)} points "
                                 f"({names}) is too large to play out")
    territory = objective is Objective.TERRITORY
    counter = Counter(budget)
    try:
        games = [local_game(region, position.colour, position.board.neighbours, opened.walls,
                            opened.chain_of, territory, counter) for region in opened.regions]
        live = [g for g in games if not g.still]
        line, ends = _Sum(live, counter).solve(int(to_move), passes)
    except OutOfBudget:
        return replace(base, positions=budget, why=_over(budget))
    except _Cycle:
        return replace(base, positions=counter.spent,
                       why="a ko or a capture and recapture in the last points: the value "
                           "depends on how the rules end a cycle")
    positions = counter.spent
    if ends is None:
        return replace(base, positions=positions,
                       why="best play captures a chain the judgement counts alive")
    counted: list[tuple[int, int]] = []
    dead: list[int] = []
    for game in games:
        at = ends.get(id(game), 0)
        counted.extend(zip(game.region.points, game.owners(at), strict=True))
        dead.extend(game.removed(at))
    return replace(base, line=tuple(line), positions=positions, owners=tuple(sorted(counted)),
                   dead=tuple(sorted(dead)))


def _over(budget: int) -> str:
    return (f"playing out the last points needs more than {budget:,} positions (--limit "
            f"solver={budget})")


def _names(position: Position, points: Sequence[int], most: int = 4) -> str:
    names = [position.board.name(p) for p in points[:most]]
    return ", ".join(names) + (f" and {len(points) - most} more" if len(points) > most else "")


_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Sum:
    """The search over the sum of the regions' games (see the module's text)."""

    def __init__(self, games: list[LocalGame], counter: Counter) -> None:
        self.games = games
        self.counter = counter
        self.cycle_value = 0
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        self.path: set[tuple[object, ...]] = set()
        self.cyclic = any(g.cyclic for g in games)

    def solve(self, to_move: int, passes: int) -> tuple[list[Play], dict[int, int] | None]:
        """The solved line and the position each region ends in (None where best play captures
        a chain outside the regions)."""
        start = [0] * len(self.games)
        if self.cyclic:
            values = []
            for cycle in (-3 * FALLS, 3 * FALLS):
                self.cycle_value, self.table = cycle, {}
                values.append(self._value(start, to_move, passes, -1, -4 * FALLS, 4 * FALLS))
            if values[0] != values[1]:
                raise _Cycle
            value = values[0]
        else:
            value = self._value(start, to_move, passes, -1, -4 * FALLS, 4 * FALLS)
        if abs(value) >= FALLS // 2:
            return [], None
        return self._line(start, to_move, passes, value)

    def _key(self, state: list[int], who: int, passes: int, ko: int) -> tuple[object, ...]:
        games = self.games
        return (tuple(sorted(games[i].signature[s] for i, s in enumerate(state))), who, passes,
                ko)

    def _moves(self, state: list[int], who: int, ko: int) -> list[tuple[int, int, int, int]]:
        """(gain, region, move index, cost) for every distinct move, the best first for
        ``who``; identical regions' moves are offered once."""
        out = []
        seen: set[tuple[int, bool]] = set()
        for i, game in enumerate(self.games):
            here = state[i]
            holds_ko = ko >= 0 and ko in game.region.points
            mark = (game.signature[here], holds_ko)
            if mark in seen:
                continue
            seen.add(mark)
            worth = game.worth[here]
            for j, m in enumerate(game.moves(here, who)):
                if m.point == ko:
                    continue
                gain = game.worth[m.child] - worth + m.cost
                out.append((gain if who == BLACK else -gain, i, j, m.cost))
        out.sort(key=lambda t: -t[0])
        return out

    def _value(self, state: list[int], who: int, passes: int, ko: int, alpha: int,
               beta: int) -> int:
        """The value for Black with ``who`` to move (alpha-beta, fail-soft)."""
        self.counter.spend()
        games = self.games
        if passes >= 2:
            return sum(games[i].worth[s] for i, s in enumerate(state))
        key = self._key(state, who, passes, ko)
        entry = self.table.get(key)
        if entry is not None:
            value, flag = entry
            if flag == _EXACT or (flag == _LOWER and value >= beta) or (
                    flag == _UPPER and value <= alpha):
                return value
        if key in self.path:
            return self.cycle_value
        self.path.add(key)
        low, high = alpha, beta
        best = self._value(state, 3 - who, passes + 1, -1, low, high)  # a pass
        if who == BLACK:
            low = max(low, best)
        else:
            high = min(high, best)
        if low < high:
            for _, i, j, cost in self._moves(state, who, ko):
                move = games[i].moves(state[i], who)[j]
                after = state[:]
                after[i] = move.child
                if abs(games[i].worth[move.child]) >= FALLS:
                    value = games[i].worth[move.child]  # a chain outside the region falls
                else:
                    value = cost + self._value(after, 3 - who, 0, move.ko, low - cost,
                                               high - cost)
                if (who == BLACK and value > best) or (who == WHITE and value < best):
                    best = value
                if who == BLACK:
                    low = max(low, best)
                else:
                    high = min(high, best)
                if low >= high:
                    break
        self.path.discard(key)
        flag = _UPPER if best <= alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (best, flag)
        return best

    def _line(self, state: list[int], who: int, passes: int, value: int
              ) -> tuple[list[Play], dict[int, int] | None]:
        """The solved line: at each step the first move (a pass first) whose value is the
        position's; then the position each region ends in."""
        line: list[Play] = []
        ko = -1
        seen: set[tuple[object, ...]] = set()
        state = state[:]
        while passes < 2:
            key = self._key(state, who, passes, ko)
            if key in seen:
                raise _Cycle
            seen.add(key)
            if self._value(state, 3 - who, passes + 1, -1, value - 1, value + 1) == value:
                line.append((Colour(who), None))
                passes, ko, who = passes + 1, -1, 3 - who
                continue
            for _, i, j, cost in self._moves(state, who, ko):
                move = self.games[i].moves(state[i], who)[j]
                if abs(self.games[i].worth[move.child]) >= FALLS:
                    continue
                after = state[:]
                after[i] = move.child
                if cost + self._value(after, 3 - who, 0, move.ko, value - cost - 1,
                                      value - cost + 1) == value:
                    line.append((Colour(who), move.point))
                    state, passes, ko, who, value = after, 0, move.ko, 3 - who, value - cost
                    break
            else:
                raise _Cycle  # no move keeps the value: the table holds a cycle's value
        return line, {id(g): s for g, s in zip(self.games, state, strict=True)}


# --- the count of the finished position --------------------------------------------------------


@dataclass(frozen=True)
class Finished:
    """A ruleset's count of the position the solved line ends in, or why it is not trusted."""

    score: Score | None
    why: str | None = None


def finished_count(finished: Finish, position: Position, rep: Replay, ruleset: Ruleset,
                   handicap: int) -> Finished:
    """``ruleset``'s count of the position ``finished``'s line ends in (every count's way:
    :func:`sgfcheck.scoring.count.count` on the board after the line, its captures among the
    prisoners, its plays and passes among the game's), held point by point against the
    referee's map: every point outside the search counted as it was before the line, every
    point inside as the search counted it."""
    end, stats = _played(finished, position, rep)
    assert stats is not None
    assumed = dict(finished.assumed)
    after = counted_points(end, ruleset)
    unsealed = {p: c for p, c in assumed.items() if p not in after.territory}
    score = count(end, stats, ruleset, handicap, settled=unsealed)
    before = counted_points(position, ruleset)
    searched = set(finished.searched)
    board = position.board
    for p in range(len(position.colour)):
        if p in searched or position.colour[p] != EMPTY:
            continue
        if p in assumed:
            if after.territory.get(p, assumed[p]) != assumed[p] or p in after.seki \
                    or p in after.fill:
                return Finished(None, f"the referee's count of the solved line gives "
                                      f"{board.name(p)} otherwise than the settled point it "
                                      "was taken for")
            continue
        if _verdict(before, p) != _verdict(after, p):
            return Finished(None, f"the referee's count of the solved line parts from the "
                                  f"search's at {board.name(p)}, outside the points played out")
    for p, owner in finished.owners:
        if end.colour[p] != EMPTY:
            continue
        if after.territory.get(p, 0) != owner:
            return Finished(None, f"the referee's count of the solved line parts from the "
                                  f"search's at {board.name(p)} (a seki or a point to fill)")
    return Finished(replace(score, solved=True))


def _verdict(counted: CountedPoints, p: int) -> tuple[int, bool, bool]:
    """What the referee's count makes of an empty point: its territory's colour (0: none), in
    seki, to fill."""
    return int(counted.territory.get(p, 0)), p in counted.seki, p in counted.fill


def finished_position(finished: Finish, position: Position) -> Position:
    """The position at the end of ``finished``'s solved line: the judgement's dead stones still
    on the board where the line did not play, marked dead with the stones the line leaves dead
    (what a solved row's count and picture show)."""
    return _played(finished, position, None)[0]


def _played(finished: Finish, position: Position, rep: Replay | None
            ) -> tuple[Position, Replay | None]:
    """The position at the end of the solved line (see :func:`finished_position`), and the
    game's figures with the line's plays, captures and passes added (None without ``rep``)."""
    board = position.board
    played = Board.from_colours(board.width, board.height, position.colour, 0)
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
        captured, _, _ = played.play(point, int(colour))
        captures[colour] += captured
        plays[colour] += 1
    colours = list(played.colour)
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
