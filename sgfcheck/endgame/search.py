"""The value of the sum of the regions' games: best play by both sides over every region at once,
the side to move taken from the record, passes allowed, two passes in a row ending the game.

The regions' games are worked out one by one (:mod:`sgfcheck.endgame.localgame`); what is left
is to play them together. Much of the sum is known without a search:

- regions whose games are the same (two lone dame, two identical borders) are one move choice,
  and a position of the search holds the classes of its regions' positions, not which region is
  where: the search sees a multiset, not a product;
- where no region can return to an earlier position (no ko, no capture and recapture), two
  regions that are the same **switch** (a move by either side settles it: Black's move gives
  ``a``, White's ``b``, ``b <= 0 <= a`` against the count as it stands) add ``a + b`` whoever
  moves first: whenever one side plays in one, the other answers in the other (the strategy
  that guarantees each side the rest of the board's value plus ``a + b``). So a string of lone
  dame under area counting is worth its parity alone, however long. (With a ko on the board
  the two moves are a threat and its answer, which lift the ko's ban: they are searched.)
- where no region can return to an earlier position (no ko, no capture and recapture), a region
  whose stops are equal (moving first there gains neither side anything: a dame under
  territory counting, a point only one side can ever gain and will take before passing) adds its
  stop and is left out of the search, at the start and whenever a move makes it so: the sum of
  such games does not change the stops of the rest (combinatorial game theory: a game whose two
  stops are equal is a number plus an infinitesimal; E. Berlekamp, D. Wolfe, *Mathematical Go*,
  1994). The solved line plays them out after the search's line, before the closing passes.

What remains, the hot regions and one switch of each kind, is searched: alpha-beta with a table
of the bounds already proven, the hottest region's best local move tried first (its stops apart,
worked out on the region alone), and the window narrowed to one value at a time (MTD(f),
A. Plaat et al., 1996) from a first guess made by playing the hottest region each turn. Every node
and every region's position is counted against one budget of work; the search's depth is
bounded by :data:`DEEPEST`, not by the board.

A ko: the ko point of a single-stone capture may not be retaken at once (simple ko), and the
record's last move may leave such a ban on the first move. Where a region can return to an
earlier position, every region is searched as it is (a move that changes no count is a ko
threat's answer or a tempo, not nothing), and where a line of the sum can return to a position
already on it (:func:`_may_cycle`) the search is made twice, with a cycle counted as lost for
Black and then for White: where the two differ, the value depends on how the rules end a cycle
(:class:`Cycle`). Where no line of the first search returned to a position already on it, the
second would give the same (every bound it proved rests on lines that end), and is not made. A
value found with a cycle on the line above it is never kept in the table (it depends on that
line).

The record's last move may be a pass: the first player may then end the game at once, and the
count is the count as it stands (the pairs and the regions left out are not played).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sgfcheck.colour import BLACK, WHITE
from sgfcheck.endgame.localgame import FALLS, STILL, LocalGame, Move, OutOfWork, Work

DEEPEST = 400
"""Moves and passes of one line of the search at most (beyond it the search gives up, said)."""

_CYCLE = 4 * FALLS
_INF = 64 * FALLS


class Cycle(Exception):
    """The value depends on how the rules end a cycle (a ko, a capture and a recapture); its
    text says so."""


_CYCLE_WHY = ("a ko or a capture and recapture in the last points: the value depends on how "
              "the rules end a cycle")


class TooDeep(OutOfWork):
    """A line of the search went deeper than :data:`DEEPEST`."""


class NoLine(Exception):
    """The regions left out could not be played out to the value they were given (never seen;
    a guard: the position is then left open rather than counted on a line that does not give
    the value)."""


Play = tuple[int, "int | None"]
"""A move of a solved line: the colour (1 Black, 2 White) and the board point (None: a pass)."""


@dataclass(frozen=True)
class Solved:
    """The sum played out: its value for Black against the count as it stands, the line, and
    where each region ends (an index into its game's positions, in the order of ``games``)."""

    value: int
    line: tuple[Play, ...]
    ends: tuple[int, ...]
    searched: int
    """Regions the search played (the rest were paired switches, or left out with their
    stops)."""

    @property
    def fell(self) -> bool:
        """Best play captures a chain standing outside the regions."""
        return abs(self.value) >= FALLS // 2


@dataclass(frozen=True)
class _Switch:
    """A position whose every move settles the region: Black's best gives ``black``, White's
    ``white`` (against the count as it stands), and the moves that give them."""

    black: int
    white: int
    black_move: Move
    white_move: Move


def _switch(game: LocalGame, at: int) -> _Switch | None:
    if not game.known(at) or game.cls[at] == STILL:
        return None
    best: dict[int, tuple[int, Move]] = {}
    for colour in (BLACK, WHITE):
        moves = game.moves(at, colour)
        if not moves:
            return None
        for move in moves:
            child = move[1]
            if not game.known(child) or game.fell(child) or game.heat[child] != 0 \
                    or game.stop_black[child] != 0:
                return None  # a move there leaves something to play for
            gain = game.gain(at, move, colour)
            held = best.get(colour)
            if held is None or (gain > held[0] if colour == BLACK else gain < held[0]):
                best[colour] = (gain, move)
    (black, black_move), (white, white_move) = best[BLACK], best[WHITE]
    if not white <= 0 <= black or black == white:
        return None
    return _Switch(black, white, black_move, white_move)


def solve(games: Sequence[LocalGame], to_move: int, passes: int, ko: int, work: Work) -> Solved:
    """The sum of ``games`` played out from their first positions, ``to_move`` first after
    ``passes`` passes in a row, ``ko`` the point ``to_move`` may not play at once (-1: none).
    Raises :class:`Cycle` where a cycle decides the value, :class:`OutOfWork` past the budget,
    :class:`NoLine` where the line cannot be made."""
    # Pairs of the same switch add their two settled counts: kept apart from the search, where
    # no region can return to an earlier position (with a ko, a pair is a threat and its answer).
    kos = any(g.cyclic or not g.complete for g in games)
    switches = {i: None if kos else _switch(g, 0) for i, g in enumerate(games)}
    by_class: dict[int, list[int]] = {}
    for i, found in switches.items():
        if found is not None:
            by_class.setdefault(games[i].cls[0], []).append(i)  # known: a switch
    pairs: list[tuple[_Switch, _Switch, int, int]] = []
    for members in by_class.values():
        for a, b in zip(members[0::2], members[1::2], strict=False):
            first, second = switches[a], switches[b]
            assert first is not None and second is not None
            pairs.append((first, second, a, b))
    paired = {i for _, _, a, b in pairs for i in (a, b)}
    rest = [i for i in range(len(games)) if i not in paired]
    if kos:  # every region searched: a ko's threats and tempo moves may lie anywhere
        searched, left_out = rest, []
    else:
        searched = [i for i in rest if not _settles(games[i], 0)]
        left_out = [i for i in rest if _settles(games[i], 0)]
    constant = sum(s.black + s.white for s, _, _, _ in pairs) + sum(
        games[i].stop_black[0] for i in left_out) + sum(
        games[i].stop_black[0] for i in searched if _settles(games[i], 0))
    cyclic = kos and _may_cycle([games[i] for i in searched])
    values: list[int] = []
    lines: list[tuple[list[Play], list[int]]] = []
    for cycle in ((-_CYCLE, _CYCLE) if cyclic else (0,)):
        search = _Sum([games[i] for i in searched], work, cycle, cyclic, kos,
                      root_end=-constant if passes else 0)
        values.append(search.mtd(to_move, passes, ko))
        if abs(values[-1]) >= FALLS // 2:
            lines.append(([], [0] * len(searched)))
        else:
            lines.append(search.line(to_move, passes, ko, values[-1]))
        if not search.met_cycle or (cycle < 0 and values[-1] >= FALLS // 2):
            # No line returned (the other way of ending a cycle gives the same), or Black
            # captures a chain outside though every cycle counts against Black.
            break
    if abs(values[-1]) >= FALLS // 2 and all(abs(v) >= FALLS // 2 for v in values) and (
            values[-1] < _CYCLE // 2):
        values = values[-1:]  # best play captures a chain outside, whatever ends a cycle
    if len(set(values)) > 1 or abs(values[0]) >= _CYCLE // 2:
        raise Cycle(_CYCLE_WHY)
    line, ends = lines[0]
    final = [0] * len(games)
    for i, end in zip(searched, ends, strict=True):
        final[i] = end
    total = constant + values[0]
    if abs(total) >= FALLS // 2 or (passes and line == [(to_move, None)]):
        return Solved(total, tuple(line), tuple(final), len(searched))
    # The game goes on to the end: the regions left out are played out, then the pairs.
    body = _without_closing(line)
    who = (body[-1][0] ^ 3) if body else to_move
    frozen = [i for i in rest if _settles(games[i], final[i])]
    expected = sum(games[i].stop_black[final[i]] for i in frozen)
    body, who, gained = _settled(games, frozen, final, body, who, work)
    if gained != expected:
        raise NoLine
    body = _with_pairs(body, pairs, final, who)  # the turn comes back to the same side
    return Solved(total, tuple([*body, (who, None), (3 - who, None)]), tuple(final),
                  len(searched))


def _settles(game: LocalGame, at: int) -> bool:
    """The region at ``at`` adds its stop whoever moves first: its stops are equal, and best
    play there captures no chain outside it (such a line ends the game's count, so it is never
    added to another's)."""
    return game.known(at) and game.heat[at] == 0 and abs(game.stop_black[at]) < FALLS // 2


def _without_closing(line: list[Play]) -> list[Play]:
    """The line without the passes that end it."""
    end = len(line)
    while end > 0 and line[end - 1][1] is None:
        end -= 1
    return line[:end]


def _settled(games: Sequence[LocalGame], frozen: list[int], final: list[int],
             body: list[Play], who: int, work: Work
             ) -> tuple[list[Play], int, int | None]:
    """The regions left out of the search (their stops equal) played out after its line, one
    after the other, each as it is played alone (:func:`_alone`): a region's stop is what best
    play alone gives whoever starts, so the order does not matter. Returns the line, the side to
    move after it, and what the moves gained (None where a line went wrong: a guard)."""
    body = list(body)
    gained = 0
    for i in frozen:
        game = games[i]
        if game.stop_black[final[i]] == 0:
            continue
        played = _alone(game, final[i], who, work)
        if played is None:
            return body, who, None
        moves, final[i], got = played
        body += moves
        gained += got
        if moves:
            who = 3 - moves[-1][0]
    return body, who, gained


def _alone(game: LocalGame, at: int, who: int, work: Work
           ) -> tuple[list[Play], int, int] | None:
    """Best play in one region alone from ``at``, ``who`` first, both passing when the region's
    stops say so: the moves (the passes that end it left out), where it ends, what it gained."""

    def best(here: int, colour: int) -> int | None:
        values = [game.gain(here, m, colour) + (
            game.stop_white[m[1]] if colour == BLACK else game.stop_black[m[1]])
            for m in game.moves(here, colour) if not game.fell(m[1])]
        if not values:
            return None
        return max(values) if colour == BLACK else min(values)

    def value(here: int, colour: int, passes: int) -> int:
        if passes >= 2:
            return 0
        if passes == 0:
            return game.stop_black[here] if colour == BLACK else game.stop_white[here]
        found = best(here, colour)
        if found is None:
            return 0
        return max(0, found) if colour == BLACK else min(0, found)

    line: list[Play] = []
    passes, gained = 0, 0
    for _ in range(DEEPEST):
        work.spend()
        if passes >= 2:
            while line and line[-1][1] is None:
                line.pop()
            return line, at, gained
        target = value(at, who, passes)
        if value(at, 3 - who, passes + 1) == target:
            line.append((who, None))
            passes, who = passes + 1, 3 - who
            continue
        for move in game.moves(at, who):
            child = move[1]
            if game.fell(child):
                continue
            gain = game.gain(at, move, who)
            if gain + value(child, 3 - who, 0) == target:
                line.append((who, move[0]))
                at, gained, passes, who = child, gained + gain, 0, 3 - who
                break
        else:
            return None
    return None


def _with_pairs(body: list[Play], pairs: list[tuple[_Switch, _Switch, int, int]],
                final: list[int], who: int) -> list[Play]:
    """The line with each pair of switches played: the side to move settles one, the other side
    the other (the turn comes back to the same side)."""
    body = list(body)
    for first, second, a, b in pairs:
        mine = first.black_move if who == BLACK else first.white_move
        theirs = second.white_move if who == BLACK else second.black_move
        body.append((who, mine[0]))
        body.append((3 - who, theirs[0]))
        final[a], final[b] = mine[1], theirs[1]
    return body


def _may_cycle(games: Sequence[LocalGame]) -> bool:
    """Whether a line of the sum can return to a position already on it. Only regions whose
    moves can lead back can return, and a line that moves in any other region never comes back.
    A ko alone cannot make a cycle: its retake is not allowed at once, and between the capture
    and the retake the other side must play elsewhere or pass, and after a pass the capturer
    must play elsewhere (another pass ends the game). So a cycle needs two regions that can
    return, or one whose moves can lead back by more than a capture and its retake, or one not
    worked out whole (not known)."""
    returning = [g for g in games if g.cyclic or not g.complete]
    return len(returning) >= 2 or any(g.longer_cycles or not g.complete for g in returning)


class _Sum:
    """One search over the sum of the searched regions' games (see the module's text)."""

    def __init__(self, games: list[LocalGame], work: Work, cycle: int, cyclic: bool,
                 kos: bool, root_end: int) -> None:
        self.games = games
        self.work = work
        self.cycle = cycle
        self.cyclic = cyclic
        self.with_kos = kos
        """A region can return to an earlier position: a region whose stops are equal is left
        out of the moves only while no ko ban is in force (the side under a ban may play a
        threat or a tempo move there), and the positions of the search keep it."""
        self.root_end = root_end
        """What ending the game at once is worth against the search's count (the record's last
        move a pass: the regions left out and the pairs not played)."""
        self.table: dict[tuple[object, ...], tuple[int, int, tuple[int, int] | None]] = {}
        self.path: dict[tuple[object, ...], int] = {}
        self.touched = 1 << 30
        self.met_cycle = False
        """A line of this search returned to a position already on it."""
        self.kos = {p for g in games if g.cyclic or not g.complete for p in g.region.points}
        self._options: dict[tuple[int, int, int], list[tuple[int, int, Move]]] = {}
        self._tokens: list[list[int] | None] = [None] * len(games)
        """Each region known whole: :meth:`token` at each of its positions, worked out once."""
        self._frozen: list[list[bool] | None] = [None] * len(games)
        """Each region known whole: :meth:`frozen` at each of its positions, worked out once."""
        for i, game in enumerate(games):
            if game.cls and len(game.cls) == len(game.states):
                self._tokens[i] = [c if c >= 0 else -2 - (i << 32 | at)
                                   for at, c in enumerate(game.cls)]
                self._frozen[i] = [_settles(game, at) for at in range(len(game.cls))]

    # --- positions of the sum ------------------------------------------------------------------

    def frozen(self, i: int, at: int) -> bool:
        """Region ``i`` at ``at`` has equal stops: left out of the moves (its stop counted)."""
        frozen = self._frozen[i]
        return frozen[at] if frozen is not None else _settles(self.games[i], at)

    def token(self, i: int, at: int) -> int:
        """What the search knows of region ``i`` at position ``at``: its class where its game is
        known whole, else the position itself (apart from every other region's)."""
        tokens = self._tokens[i]
        if tokens is not None:
            return tokens[at]
        game = self.games[i]
        if game.known(at):
            return game.cls[at]
        return -2 - (i << 32 | at)

    def region_tokens(self, state: list[int], with_frozen: bool) -> list[tuple[int, int, int]]:
        """Each region's index, position and :meth:`token`, the frozen ones left out unless
        ``with_frozen``. The search's hottest loop: :meth:`token` and :meth:`frozen` read from
        their tables here, a call for a region not known whole only."""
        out = []
        known, settles, games = self._tokens, self._frozen, self.games
        for i, at in enumerate(state):
            if not with_frozen:
                frozen = settles[i]
                if frozen[at] if frozen is not None else _settles(games[i], at):
                    continue
            table = known[i]
            out.append((i, at, table[at] if table is not None else self.token(i, at)))
        return out

    def key(self, state: list[int], who: int, passes: int, ko: int) -> tuple[object, ...]:
        """The position of the sum as the table knows it: every region's :meth:`token` (but
        the frozen ones', without kos), sorted; who moves; the passes; the ko ban."""
        tokens = sorted([t for _, _, t in self.region_tokens(state, self.with_kos)])
        return (tuple(tokens), who, passes, ko if ko in self.kos else -1)

    def options(self, i: int, at: int, who: int) -> list[tuple[int, int, Move]]:
        """Region ``i``'s moves for ``who`` at ``at``, best first: (priority for ``who``, gain
        for Black, the move); moves to the same class with the same gain are one choice."""
        cached = self._options.get((i, at, who))
        if cached is not None:
            return cached
        game = self.games[i]
        out = []
        seen: set[tuple[int, int]] = set()
        sign = 1 if who == BLACK else -1
        for move in game.moves(at, who):
            gain = game.gain(at, move, who)
            child = move[1]
            if game.known(child):
                mark = (gain, game.cls[child])
                if mark in seen:
                    continue
                seen.add(mark)
                local = gain if game.fell(child) else gain + (
                    game.stop_white[child] if who == BLACK else game.stop_black[child])
                priority = sign * local
            else:
                priority = sign * gain
            out.append((priority, gain, move))
        out.sort(key=lambda t: -t[0])
        self._options[(i, at, who)] = out
        return out

    def moves(self, state: list[int], who: int, ko: int
              ) -> list[tuple[int, int, int, Move]]:
        """Every distinct move of the sum for ``who``: (priority, region, gain, move), the
        hottest region's best first; regions at the same class offer their moves once."""
        out = []
        seen: set[int] = set()
        banned = ko in self.kos
        for i, at, token in self.region_tokens(state, banned):
            if token in seen:
                continue
            seen.add(token)
            game = self.games[i]
            heat = game.heat[at] if game.known(at) else 0
            for priority, gain, move in self.options(i, at, who):
                if move[0] == ko:
                    continue
                out.append((priority * 4096 + heat, i, gain, move))
        out.sort(key=lambda t: -t[0])
        return out

    def step(self, i: int, at: int, move: Move, gain: int) -> int:
        """What a move adds at once: its gain, and the stop of a region it leaves with equal
        stops (left out from there on), less the stop of the region it left (a threat or a
        tempo under a ko ban)."""
        game = self.games[i]
        child = move[1]
        if game.fell(child):
            return gain
        now = gain + (game.stop_black[child] if self.frozen(i, child) else 0)
        return now - (game.stop_black[at] if self.frozen(i, at) else 0)

    # --- the search ----------------------------------------------------------------------------

    def value(self, state: list[int], who: int, passes: int, ko: int, alpha: int, beta: int,
              depth: int) -> int:
        """Black's gain from here on, ``who`` to move (alpha-beta, fail-soft, bounds kept)."""
        self.work.spend()
        if passes >= 2:
            return 0
        if depth > DEEPEST:
            raise TooDeep
        key = self.key(state, who, passes, ko)
        entry = self.table.get(key) if depth else None
        best_move: tuple[int, int] | None = None
        if entry is not None:
            low, high, best_move = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
        if self.cyclic:
            met = self.path.get(key)
            if met is not None:
                self.touched = min(self.touched, met)
                self.met_cycle = True
                return self.cycle
            self.path[key] = depth
            outer, self.touched = self.touched, 1 << 30
        a, b = alpha, beta
        black = who == BLACK
        best = -_INF if black else _INF
        best_at: tuple[int, int] | None = None
        moves = self.moves(state, who, ko)
        tried: list[tuple[int, int, int, Move] | None] = [None]  # the pass
        if moves and moves[0][0] > 0:
            tried = [*moves, None]
        else:
            tried += moves
        if best_move is not None:
            first = [m for m in tried if (None if m is None else (m[1], m[3][0])) == best_move]
            tried = first + [m for m in tried if m not in first]
        for m in tried:
            if m is None:
                at = None
                if passes and depth == 0:
                    got = self.root_end
                else:
                    got = self.value(state, 3 - who, passes + 1, -1, a, b, depth + 1)
            else:
                _, i, gain, move = m
                at = (i, move[0])
                if self.games[i].fell(move[1]):
                    got = gain
                else:
                    now = self.step(i, state[i], move, gain)
                    after = state[:]
                    after[i] = move[1]
                    got = now + self.value(after, 3 - who, 0, move[2], a - now, b - now,
                                           depth + 1)
            if (got > best) if black else (got < best):
                best, best_at = got, at
            if black:
                a = max(a, best)
            else:
                b = min(b, best)
            if a >= b:
                break
        if self.cyclic:
            del self.path[key]
            mine = self.touched
            self.touched = min(outer, mine)
            if mine < depth:
                return best  # it rests on the line above: not kept
        if depth:
            low, high = (entry[0], entry[1]) if entry is not None else (-_INF, _INF)
            if best <= alpha:
                high = min(high, best)
            elif best >= beta:
                low = max(low, best)
            else:
                low = high = best
            self.table[key] = (low, high, best_at)
        return best

    def guess(self, to_move: int, passes: int, ko: int) -> int:
        """A first guess: each side plays its hottest move while one gains, else passes."""
        state = [0] * len(self.games)
        who, total = to_move, 0
        for depth in range(DEEPEST):
            if passes >= 2:
                break
            moves = self.moves(state, who, ko)
            if moves and moves[0][0] > 0:
                _, i, gain, move = moves[0]
                if self.games[i].fell(move[1]):
                    return total + gain
                total += self.step(i, state[i], move, gain)
                state[i] = move[1]
                passes, ko = 0, move[2]
            else:
                if passes and depth == 0:
                    return self.root_end
                passes, ko = passes + 1, -1
            who = 3 - who
        return total

    def mtd(self, to_move: int, passes: int, ko: int) -> int:
        """The value from the first positions (MTD(f): null windows from the first guess).
        Whether best play captures a chain outside the regions is asked first: where it does,
        that is the answer, whatever it gains."""
        start = [0] * len(self.games)
        half = FALLS // 2
        found = self.value(start, to_move, passes, ko, half - 1, half, 0)
        if found >= half:
            return found
        found = self.value(start, to_move, passes, ko, -half, -half + 1, 0)
        if found <= -half:
            return found
        value = max(-half + 1, min(half - 1, self.guess(to_move, passes, ko)))
        low, high = -half, half
        while low < high:
            beta = value + 1 if value == low else value
            value = self.value(start, to_move, passes, ko, beta - 1, beta, 0)
            if value < beta:
                high = value
            else:
                low = value
        return value

    def exact(self, state: list[int], who: int, passes: int, ko: int, value: int,
              depth: int) -> bool:
        return self.value(state, who, passes, ko, value - 1, value + 1, depth) == value

    def line(self, to_move: int, passes: int, ko: int, value: int
             ) -> tuple[list[Play], list[int]]:
        """The solved line: at each step a pass where it keeps the value, else the first move
        that does; then where each region ends."""
        state = [0] * len(self.games)
        who = to_move
        line: list[Play] = []
        seen: set[tuple[object, ...]] = set()
        depth = 0
        while passes < 2:
            key = self.key(state, who, passes, ko)
            if key in seen:
                raise Cycle(_CYCLE_WHY)
            seen.add(key)
            depth += 1
            if passes and not line:
                ends = self.root_end == value
            else:
                ends = self.exact(state, 3 - who, passes + 1, -1, value, depth)
            if ends:
                line.append((who, None))
                passes, ko, who = passes + 1, -1, 3 - who
                continue
            for _, i, gain, move in self.moves(state, who, ko):
                if self.games[i].fell(move[1]):
                    if gain == value:
                        line.append((who, move[0]))
                        state[i] = move[1]
                        return line, state
                    continue
                now = self.step(i, state[i], move, gain)
                after = state[:]
                after[i] = move[1]
                if self.exact(after, 3 - who, 0, move[2], value - now, depth):
                    line.append((who, move[0]))
                    state, passes, ko, who, value = after, 0, move[2], 3 - who, value - now
                    break
            else:
                raise Cycle(_CYCLE_WHY)  # no move keeps the value: it rested on a cycle's
        return line, state
