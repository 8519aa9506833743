"""An estimate of the dead stones of a finished game, from the position alone.

Deterministic and fast: a group is taken for dead when its removal is what makes the board
settle. Groups are areas as the scorer sees them (a colour's stones joined through its own empty
points and through dame); an area with fewer than two eyes is *weak*. A weak area is removed when,
with it gone, (1) every point it stood on is reached by the opponent only, and (2) every opponent
area next to it has two eyes. The smallest such area goes first, then everything is looked at
again. Never removed: stones proven alive (Benson), and weak areas that share a dame point with a
weak area of the other colour (a seki).

An estimate, not a proof: on the KGS games whose players marked the dead stones it agrees
exactly on most but not all of them (see ``bench/life_accuracy.py``).
"""

from __future__ import annotations

from sgfcheck.board import EMPTY, Board
from sgfcheck.scoring import _eyes, areas, empty_owners

MAX_ROUNDS = 200


def _areas(colour: list[int], nbrs: list[tuple[int, ...]], width: int
           ) -> tuple[list[int], list[int], dict[int, tuple[int, list[int], int]]]:
    """Owner of every empty point, the area of every stone, and per area: (colour, stones,
    eyes), with the scorer's areas (:func:`sgfcheck.scoring.areas`)."""
    owner = empty_owners(colour, nbrs)
    area_of, found = areas(colour, owner, nbrs)
    return owner, area_of, {a: (c, stones, _eyes(own, nbrs, width))
                            for a, (c, stones, own) in found.items()}


def estimate_dead(board: Board, protected: set[int] | None = None) -> set[int]:
    """Stones estimated dead in a finished position."""
    colour = list(board.colour)
    nbrs = board.neighbours
    width = board.width
    protected = protected or set()
    dead: set[int] = set()
    for _ in range(MAX_ROUNDS):
        owner, area_of, areas = _areas(colour, nbrs, width)
        weak = {a for a, (_, _, eyes) in areas.items() if eyes < 2}
        removed = False
        candidates = [areas[a][:2] for a in sorted(weak, key=lambda a: (len(areas[a][1]), a))]
        candidates += _zones(colour, nbrs, area_of, areas, weak)
        for c, stones in candidates:
            if any(s in protected for s in stones) or any(
                    _in_seki(areas[a][1], c, colour, owner, nbrs, area_of, weak)
                    for a in {area_of[s] for s in stones}):
                continue
            trial = list(colour)
            for s in stones:
                trial[s] = EMPTY
            owner2, area2, areas2 = _areas(trial, nbrs, width)
            other = 3 - c
            if not all(owner2[s] == other for s in stones):
                continue
            around = {area2[q] for s in stones for q in nbrs[s] if trial[q] == other}
            if around and all(areas2[x][2] >= 2 for x in around):
                dead.update(stones)
                colour = trial
                removed = True
                break
        if not removed:
            break
    return dead


def _zones(colour: list[int], nbrs: list[tuple[int, ...]], area_of: list[int],
           areas: dict[int, tuple[int, list[int], int]], weak: set[int]
           ) -> list[tuple[int, list[int]]]:
    """Weak areas taken together: for each colour, the stones of every zone (points that are
    not the opponent's stones, connected) whose areas are all weak; a dead group is often in
    several pieces inside one territory."""
    out = []
    for c in (1, 2):
        seen = [False] * len(colour)
        for start, sc in enumerate(colour):
            if sc != c or seen[start]:
                continue
            seen[start] = True
            todo = [start]
            stones = []
            while todo:
                p = todo.pop()
                if colour[p] == c:
                    stones.append(p)
                for q in nbrs[p]:
                    if not seen[q] and colour[q] != 3 - c:
                        seen[q] = True
                        todo.append(q)
            zone_areas = {area_of[s] for s in stones}
            if len(zone_areas) > 1 and zone_areas <= weak:
                out.append((c, sorted(stones)))
    return sorted(out, key=lambda x: len(x[1]))


def _in_seki(stones: list[int], c: int, colour: list[int], owner: list[int],
             nbrs: list[tuple[int, ...]], area_of: list[int], weak: set[int]) -> bool:
    """The area shares a dame point with a weak opponent area, and neither side can play that
    point without putting its own stones in atari: a seki."""
    for s in stones:
        for q in nbrs[s]:
            if colour[q] != EMPTY or owner[q] != 3:
                continue
            if any(colour[r] == 3 - c and area_of[r] in weak for r in nbrs[q]) and \
                    _self_atari(colour, nbrs, q, c) and _self_atari(colour, nbrs, q, 3 - c):
                return True
    return False


def _self_atari(colour: list[int], nbrs: list[tuple[int, ...]], point: int, c: int) -> bool:
    """Whether a stone of colour c at the empty point would be left with one liberty or none
    (captures aside: a capture is never a self-atari)."""
    trial = list(colour)
    trial[point] = c
    for q in nbrs[point]:
        if trial[q] == 3 - c and not _liberties(trial, nbrs, q):
            return False  # it captures
    return len(_liberties(trial, nbrs, point)) <= 1


def _liberties(colour: list[int], nbrs: list[tuple[int, ...]], start: int) -> set[int]:
    c = colour[start]
    chain = {start}
    todo = [start]
    libs: set[int] = set()
    while todo:
        for q in nbrs[todo.pop()]:
            if colour[q] == c and q not in chain:
                chain.add(q)
                todo.append(q)
            elif colour[q] == EMPTY:
                libs.add(q)
    return libs
