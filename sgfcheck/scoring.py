"""Counting a final position under every ruleset, with components, and checking RE.

Every count is a documented function of the final position (after removing dead stones) and of
facts from the replay (prisoners, passes, stones played). Each :class:`Score` also carries its
margin split into named contributions, so that any two rulesets' results can be compared term by
term (:func:`explain`).

Methods:
- area: stones on the board + empty points reached only by that colour (Tromp-Taylor, Chinese);
- territory: empty points surrounded by one colour + prisoners (captures and dead stones);
- territory + pass stones (AGA, BGA): as territory, and every pass hands the opponent a
  prisoner; White passes last (if Black passed last, White's extra pass is counted);
- stones: area minus 2 points per living group (the group tax) and minus eyes in seki.
Under ``tax = seki`` or ``all`` empty points surrounded by groups in seki count for nobody
(Japanese 1989 Art. 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sgfcheck.board import BLACK, EMPTY, WHITE, Board
from sgfcheck.life import DeadStones
from sgfcheck.points import point_name
from sgfcheck.replay import Replay
from sgfcheck.results import Result
from sgfcheck.rules import Ruleset, Scoring, Tax

SEKI_EYE_MAX = 2
"""A group whose own empty points form at most one region of at most this many points, and that
shares a liberty (a dame point) with the opponent, is alive only in seki: two-eyed groups have two
regions, groups with one large region can make two eyes."""


@dataclass
class Position:
    """The final position with dead stones removed, analysed once for every ruleset."""

    board: Board
    colour: list[int]
    empty: dict[int, int]
    """Empty points owned by each colour (reached by that colour only)."""
    dame: list[int]
    stones: dict[int, int]
    dead: dict[int, int]
    """Dead stones of each colour (removed, prisoners for the other colour)."""
    seki_empty: dict[int, list[int]]
    """Each colour's own empty points inside groups that live in seki."""
    seki_stones: dict[int, list[int]]
    groups: dict[int, int]
    """Independently living groups (areas not in seki) per colour, for the group tax."""
    must_fill: dict[int, list[int]]
    """Own empty points a colour must still fill: a chain touching dame has exactly one other
    liberty, so once the opponent fills the dame that point must be played. Territory counting
    does not count them (as KGS and goscorer do); area counting is unaffected."""


def empty_owners(colour: list[int], nbrs: list[tuple[int, ...]]) -> list[int]:
    """For every empty point, who its empty region touches: 1 black, 2 white, 3 both (dame),
    0 nobody; 0 for stones."""
    n = len(colour)
    owner = [0] * n
    seen = [False] * n
    for start in range(n):
        if colour[start] != EMPTY or seen[start]:
            continue
        seen[start] = True
        points = [start]
        borders = 0
        i = 0
        while i < len(points):
            for q in nbrs[points[i]]:
                c = colour[q]
                if c == EMPTY:
                    if not seen[q]:
                        seen[q] = True
                        points.append(q)
                else:
                    borders |= c
            i += 1
        for p in points:
            owner[p] = borders
    return owner


def areas(colour: list[int], owner: list[int], nbrs: list[tuple[int, ...]],
          neutral: dict[int, set[int]] | None = None
          ) -> tuple[list[int], dict[int, tuple[int, list[int], list[int]]]]:
    """Areas: stones of one colour joined through their own empty points and through dame (as
    CGoban does). ``neutral[c]`` are own points of c that count as dame (points to fill).

    Returns the area of every stone and own empty point, and per area (keyed by its first
    stone): its colour, its stones, and its own empty points (the eye space).
    """
    n = len(colour)
    area_of = [-1] * n
    out: dict[int, tuple[int, list[int], list[int]]] = {}
    for start in range(n):
        c = colour[start]
        if c == EMPTY or area_of[start] >= 0:
            continue
        fill = neutral[c] if neutral else set()
        area_of[start] = start
        members = [start]
        through: set[int] = set()  # dame passed through: shared by both colours' areas
        i = 0
        while i < len(members):
            for q in nbrs[members[i]]:
                if area_of[q] >= 0 or q in through:
                    continue
                qc = colour[q]
                if qc == EMPTY and (owner[q] == 3 or q in fill):
                    through.add(q)
                    members.append(q)
                elif qc == c or (qc == EMPTY and owner[q] == c):
                    area_of[q] = start
                    members.append(q)
            i += 1
        stones = [p for p in members if colour[p] == c]
        own = [p for p in members if colour[p] == EMPTY and owner[p] == c and p not in fill]
        out[start] = (c, stones, own)
    return area_of, out


def analyse(board: Board, dead: set[int]) -> Position:
    colour = list(board.colour)
    dead_count = {BLACK: 0, WHITE: 0}
    for p in dead:
        if colour[p] != EMPTY:
            dead_count[colour[p]] += 1
            colour[p] = EMPTY
    nbrs = board.neighbours
    owner = empty_owners(colour, nbrs)
    empty = {BLACK: 0, WHITE: 0}
    dame: list[int] = []
    for p, c in enumerate(colour):
        if c == EMPTY:
            if owner[p] in (BLACK, WHITE):
                empty[owner[p]] += 1
            else:
                dame.append(p)
    stones = {BLACK: colour.count(BLACK), WHITE: colour.count(WHITE)}

    # Points each colour must still fill (false eyes, protective connections): never territory.
    must_fill = {c: _points_to_fill(colour, owner, nbrs, c) for c in (BLACK, WHITE)}

    # The own empty points of an area, false eyes excluded, are its eye space; an area with
    # fewer than two eyes lives only in seki.
    seki_empty: dict[int, list[int]] = {BLACK: [], WHITE: []}
    seki_stones: dict[int, list[int]] = {BLACK: [], WHITE: []}
    groups = {BLACK: 0, WHITE: 0}
    for c, area_stones, own_empty in areas(colour, owner, nbrs, must_fill)[1].values():
        if _eyes(own_empty, nbrs, board.width) < 2:
            seki_empty[c].extend(own_empty)
            seki_stones[c].extend(area_stones)
        else:
            groups[c] += 1
    return Position(board, colour, empty, dame, stones, dead_count, seki_empty, seki_stones,
                    groups, {c: sorted(v) for c, v in must_fill.items()})


def _points_to_fill(colour: list[int], owner: list[int], nbrs: list[tuple[int, ...]],
                    c: int) -> set[int]:
    """Own empty points colour c must still fill before the game is really over.

    Stones of c that are joined through neutral points (dame) form a related group. If such a
    group touches exactly one point of c's territory, and that point is not an eye enclosed by
    the group on every side, the group depends on it to connect or to keep a liberty: it is a
    false eye or a protective move, not territory. The point then becomes neutral, which joins
    the groups around it; the test is repeated on the joined group (the method of CGoban's
    Japanese counting).
    """
    n = len(colour)
    group_of = [-1] * n
    members: list[list[int]] = []
    touching: list[set[int]] = []
    for start in range(n):
        if colour[start] != c or group_of[start] >= 0:
            continue
        gid = len(members)
        group_of[start] = gid
        todo = [start]
        stones = []
        touch: set[int] = set()
        while todo:
            p = todo.pop()
            if colour[p] == c:
                stones.append(p)
            for q in nbrs[p]:
                if group_of[q] >= 0:
                    continue
                qc = colour[q]
                if qc == c or (qc == EMPTY and owner[q] == 3):
                    group_of[q] = gid
                    todo.append(q)
                elif qc == EMPTY and owner[q] == c and colour[p] == c:
                    touch.add(q)
        members.append(stones)
        touching.append(touch)
    removed: set[int] = set()
    parent = list(range(len(members)))

    def find(g: int) -> int:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    work = [g for g in range(len(members)) if len(touching[g]) == 1]
    while work:
        g = find(work.pop())
        if len(touching[g]) != 1:
            continue
        (point,) = touching[g]
        if all(colour[q] == c and find(group_of[q]) == g for q in nbrs[point]):
            continue  # a real one-point eye
        removed.add(point)
        # The point is now neutral: the groups of c around it become one related group.
        around = {find(group_of[q]) for q in nbrs[point] if colour[q] == c}
        around.add(g)
        root = min(around)
        merged: set[int] = set()
        for h in around:
            merged |= touching[h]
            parent[h] = root
        merged -= removed
        touching[root] = merged
        if len(merged) == 1:
            work.append(root)
    return removed


def _eyes(points: list[int], nbrs: list[tuple[int, ...]], width: int) -> int:
    """Eyes an area can make from its own empty points: each region of one or two points (or a
    2x2 square) is one eye, a larger region can make two."""
    inside = set(points)
    eyes = 0
    while inside:
        start = inside.pop()
        region = [start]
        todo = [start]
        while todo:
            p = todo.pop()
            for q in nbrs[p]:
                if q in inside:
                    inside.discard(q)
                    region.append(q)
                    todo.append(q)
        if len(region) <= 2 or len(region) == 4 and _is_square(region, width):
            eyes += 1
        else:
            eyes += 2
        if eyes >= 2:
            return eyes
    return eyes


def _is_square(region: list[int], width: int) -> bool:
    cols = {p % width for p in region}
    rows = {p // width for p in region}
    return len(cols) == 2 and len(rows) == 2


def _chain(colour: list[int], nbrs: list[tuple[int, ...]], start: int) -> list[int]:
    c = colour[start]
    members = [start]
    seen = {start}
    i = 0
    while i < len(members):
        for q in nbrs[members[i]]:
            if q not in seen and colour[q] == c:
                seen.add(q)
                members.append(q)
        i += 1
    return members


@dataclass
class Side:
    """One colour's count under one ruleset. Fields that a method does not use stay 0."""

    empty: int = 0
    """Empty points counted (territory, or the empty part of area)."""
    stones: int = 0
    prisoners: int = 0
    dead: int = 0
    """Opponent stones removed as dead (prisoners under territory counting)."""
    pass_stones: int = 0
    seki_excluded: int = 0
    must_fill: int = 0
    """Own points still to be filled, not counted as territory."""
    tax: int = 0
    komi: float = 0.0
    handicap_bonus: int = 0
    pass_bonus: float = 0.0
    total: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Score:
    ruleset: Ruleset
    method: str
    black: Side
    white: Side
    margin: float
    """Black's total minus White's total."""
    winner: str | None
    contributions: dict[str, float]
    """The margin, term by term (each term is Black's part minus White's)."""
    notes: list[str] = field(default_factory=list)

    @property
    def result_text(self) -> str:
        if self.winner is None:
            return "jigo (draw)"
        return f"{self.winner}+{abs(self.margin):g}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.name,
            "method": self.method,
            "black": {"components": self._components(self.black), "total": self.black.total},
            "white": {"components": self._components(self.white), "total": self.white.total},
            "komi": self.ruleset.komi,
            "handicap_bonus": self.white.handicap_bonus,
            "margin": self.margin,
            "winner": self.winner,
            "result": self.result_text,
            "contributions": self.contributions,
            "notes": self.notes,
        }

    @staticmethod
    def _components(side: Side) -> dict[str, Any]:
        out = side.to_dict()
        out.pop("total")
        return out


def count(position: Position, replay: Replay, ruleset: Ruleset, handicap: int) -> Score:
    """Count a position under one ruleset."""
    b, w = Side(), Side()
    notes: list[str] = []
    sides = {BLACK: b, WHITE: w}
    exclude_seki = ruleset.tax is not Tax.NONE
    territory = ruleset.scoring is Scoring.TERRITORY or ruleset.pass_stones
    for c, side in sides.items():
        other = WHITE if c == BLACK else BLACK
        side.empty = position.empty[c]
        if exclude_seki:
            side.seki_excluded = len(position.seki_empty[c])
        if territory:
            side.prisoners = replay.prisoners[c]
            side.dead = position.dead[other]
            if ruleset.scoring is Scoring.TERRITORY:
                seki = set(position.seki_empty[c]) if exclude_seki else set()
                side.must_fill = sum(1 for p in position.must_fill[c] if p not in seki)
        else:
            side.stones = position.stones[c]
        if ruleset.tax is Tax.ALL:
            side.tax = 2 * position.groups[c]
    if ruleset.pass_stones:
        method = "territory + pass stones"
        b.pass_stones = replay.passes[WHITE]
        w.pass_stones = replay.passes[BLACK]
        if ruleset.white_passes_last and replay.last_pass == BLACK:
            b.pass_stones += 1
            notes.append("Black passed last: White's extra pass (White passes last) gives "
                         "Black one more pass stone")
    elif ruleset.scoring is Scoring.TERRITORY:
        method = "territory"
    elif ruleset.scoring is Scoring.STONE:
        method = "stones"
    else:
        method = "area"
    w.komi = ruleset.komi
    if not territory:
        w.handicap_bonus = ruleset.handicap_bonus.points(handicap)
    if ruleset.first_pass_bonus and replay.first_pass is not None:
        sides[replay.first_pass].pass_bonus += ruleset.first_pass_bonus
    if ruleset.white_first_pass_bonus and replay.first_pass == WHITE:
        w.pass_bonus += ruleset.white_first_pass_bonus
        notes.append(f"White passed first: +{ruleset.white_first_pass_bonus:g} to White")
    for side in (b, w):
        side.total = (side.empty - side.seki_excluded - side.must_fill + side.stones
                      + side.prisoners + side.dead + side.pass_stones - side.tax + side.komi
                      + side.handicap_bonus + side.pass_bonus)
    margin = b.total - w.total
    winner: str | None = "B" if margin > 0 else "W" if margin < 0 else None
    if winner is None and ruleset.black_wins_ties:
        winner = "B"
        notes.append("a tie: Black wins ties under these rules")
    contributions = {
        "empty points": float(b.empty - w.empty),
        "seki points not counted": float(-(b.seki_excluded - w.seki_excluded)),
        "points still to fill": float(-(b.must_fill - w.must_fill)),
        "stones on the board": float(b.stones - w.stones),
        "prisoners": float(b.prisoners - w.prisoners),
        "dead stones": float(b.dead - w.dead),
        "pass stones": float(b.pass_stones - w.pass_stones),
        "group tax": float(-(b.tax - w.tax)),
        "komi": -w.komi + b.komi,
        "handicap bonus": float(-w.handicap_bonus),
        "first-pass bonus": b.pass_bonus - w.pass_bonus,
    }
    return Score(ruleset, method, b, w, margin, winner, contributions, notes)


def explain(base: Score, other: Score, replay: Replay, position: Position,
            setup_stones: dict[int, int]) -> list[str]:
    """Plain words for why two rows differ, by named components."""
    delta = other.margin - base.margin
    a, b = base.ruleset.name, other.ruleset.name
    lines: list[str] = []
    if abs(delta) > 1e-9:
        parts = []
        for key, value in other.contributions.items():
            d = value - base.contributions[key]
            if abs(d) > 1e-9:
                parts.append(f"{key} {d:+g}")
        lines.append(f"{b} vs {a}: the margin moves {delta:+g} towards "
                     f"{'Black' if delta > 0 else 'White'} ({', '.join(parts)})")
        area_vs_territory = {base.method, other.method} & {"area", "stones"} and (
            {base.method, other.method} & {"territory", "territory + pass stones"})
        if area_vs_territory:
            extra = (replay.plays[BLACK] + setup_stones[BLACK]) - (
                replay.plays[WHITE] + setup_stones[WHITE])
            who = "Black" if extra > 0 else "White"
            if extra:
                lines.append(f"  area counts stones on the board, territory counts prisoners: "
                             f"{who} put {abs(extra)} more stone(s) on the board"
                             f"{' (set-up stones included)' if setup_stones[BLACK] else ''}"
                             " (dame parity)")
        seki = position.seki_empty[BLACK] + position.seki_empty[WHITE]
        if seki and base.ruleset.seki_territory != other.ruleset.seki_territory:
            names = ", ".join(point_name(position.board.point(p), position.board.height)
                              for p in sorted(seki))
            counted, not_counted = (a, b) if base.ruleset.seki_territory else (b, a)
            lines.append(f"  {len(seki)} point(s) in seki at {names} count under {counted} "
                         f"but not as {not_counted} territory")
        if other.black.pass_stones or other.white.pass_stones:
            lines.append(f"  {b}: Black receives {other.black.pass_stones} and White "
                         f"{other.white.pass_stones} pass stone(s)")
    if base.winner != other.winner:
        lines.append(f"the winner flips between {a} ({base.result_text}) and "
                     f"{b} ({other.result_text})")
    return lines


@dataclass
class ResultCheck:
    status: str
    """``match``, ``mismatch``, ``not-scored`` or ``unverifiable``."""
    reason: str
    computed: str | None = None
    recorded: str | None = None
    delta: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def check_result(result: Result, score: Score | None, dead: DeadStones,
                 final: bool) -> ResultCheck:
    """Is the recorded result right under the game's own rules?"""
    if result.kind in ("resign", "time", "forfeit"):
        return ResultCheck("not-scored", f"the game ended by {result.kind}", recorded=result.raw)
    if result.kind in ("void", "unknown") or score is None:
        return ResultCheck("not-scored", f"no recorded score ({result.note or result.kind})",
                           recorded=result.raw)
    if dead.assumed and not final:
        return ResultCheck("unverifiable", "no dead-stone information and the game did not end "
                           "with two passes", computed=score.result_text, recorded=result.raw)
    computed_margin = score.margin  # Black - White
    if result.kind == "draw":
        recorded_margin = 0.0
    else:
        assert result.margin is not None
        recorded_margin = result.margin if result.winner == "B" else -result.margin
    delta = computed_margin - recorded_margin
    same_winner = score.winner == (result.winner if result.kind != "draw" else None)
    if abs(delta) < 1e-6 and same_winner:
        return ResultCheck("match", "the count gives the recorded result",
                           computed=score.result_text, recorded=result.raw, delta=0.0)
    reason = f"computed {score.result_text}, recorded {result.raw} ({delta:+g} for Black)"
    if dead.source == "estimate":
        reason += "; dead stones estimated from the position, not marked by the players"
    if dead.assumed:
        return ResultCheck("unverifiable", reason + "; no dead-stone information: every stone "
                           "was counted alive, and dead stones may still be on the board",
                           computed=score.result_text, recorded=result.raw, delta=delta)
    return ResultCheck("mismatch", reason, computed=score.result_text, recorded=result.raw,
                       delta=delta)


def check_result_uncertain(result: Result, outcomes: list[tuple[str, Score]],
                           dead: DeadStones, final: bool) -> ResultCheck:
    """The result check when the dead stones leave chains undecided: ``outcomes`` are the counts
    under the game's rules for each way the uncertain chains may go (described by the string).
    The result is checked only when every way gives the same winner; else it is
    ``unverifiable``, naming the chains."""
    base = outcomes[0][1]
    single = check_result(result, base, dead, final)
    if single.status == "not-scored" or len(outcomes) == 1:
        return single
    names = "; ".join(f"{how}: {score.result_text}" for how, score in outcomes)
    winners = {score.winner for _, score in outcomes}
    if len(winners) > 1:
        return ResultCheck("unverifiable", "the winner depends on chains the estimate could not "
                           f"decide ({names})", computed=base.result_text, recorded=result.raw)
    for how, score in outcomes:
        check = check_result(result, score, dead, final)
        if check.status == "match":
            return ResultCheck("match", f"the count gives the recorded result when {how}; the "
                               "winner is the same whichever way the uncertain chains go",
                               computed=score.result_text, recorded=result.raw, delta=0.0)
    single.reason += f"; whichever way the uncertain chains go ({names})"
    return single
