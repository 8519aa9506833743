"""Dead stones at the end of a game: where they come from.

A source is a function ``(game, line, board) -> DeadStones | None``; :func:`find_dead_stones`
tries the sources in order (the user's list, the final node's TB/TW markup, GNU Go, the estimate)
and falls back to the stones proven dead (Benson).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sgfcheck.board import EMPTY, Board
from sgfcheck.estimate import ChainVerdict, Judgement, judge
from sgfcheck.points import expand_point_list, parse_point_name, point_name
from sgfcheck.records import GameRecord, Line


@dataclass
class DeadStones:
    """Stones to remove before counting, with where that decision came from."""

    points: set[int]
    """Board indices of dead stones."""
    source: str
    """``--dead``, ``--alive``, ``markup`` (TB/TW) or ``none`` (all alive, assumed)."""
    notes: list[str] = field(default_factory=list)
    assumed: bool = False
    """True when nobody said which stones are dead: all stones are counted alive."""
    judgement: Judgement | None = None
    """For ``estimate``: every chain's verdict, confidence and the uncertain chains."""

    @property
    def uncertain(self) -> list[ChainVerdict]:
        """Chains the estimate could not decide (counted alive in ``points``)."""
        return self.judgement.uncertain if self.judgement is not None else []

    def names(self, board: Board) -> list[str]:
        return sorted(point_name(board.point(p), board.height) for p in self.points)

    def to_dict(self, board: Board) -> dict[str, object]:
        out: dict[str, object] = {"points": self.names(board), "source": self.source,
                                  "notes": self.notes}
        if self.judgement is not None:
            j = self.judgement
            out["estimate"] = {
                "playouts": j.playouts, "seed": j.seed, **j.settings,
                "uncertain": [{"colour": "B" if c.colour == 1 else "W",
                               "points": sorted(point_name(board.point(p), board.height)
                                                for p in c.stones),
                               "share": c.share} for c in j.uncertain]}
        return out


DeadStoneSource = Callable[[GameRecord, Line, Board], "DeadStones | None"]


def user_dead_stones(names: list[str]) -> DeadStoneSource:
    """``--dead D4,Q16``: each named point marks its whole chain dead."""

    def source(game: GameRecord, line: Line, board: Board) -> DeadStones | None:
        points: set[int] = set()
        notes = []
        for name in names:
            col, row = parse_point_name(name, board.width, board.height)
            p = board.index(col, row)
            chain = board.chain_of[p]
            if chain is None:
                notes.append(f"--dead {name}: no stone there; ignored")
                continue
            points.update(chain.stones)
        return DeadStones(points, "--dead", notes)

    return source


def all_alive(game: GameRecord, line: Line, board: Board) -> DeadStones | None:
    return DeadStones(set(), "--alive")


def markup_dead_stones(game: GameRecord, line: Line, board: Board) -> DeadStones | None:
    """TB/TW on the final node (KGS/CGoban write them once both players agreed).

    A stone standing on a point of the other colour's markup is dead. A living stone on its own
    colour's markup point is simply alive (the point counts once).
    """
    node = line.final_node
    if "TB" not in node and "TW" not in node:
        return None
    tb, _ = expand_point_list(node.get("TB", []), board.width, board.height)
    tw, _ = expand_point_list(node.get("TW", []), board.width, board.height)
    dead: set[int] = set()
    colour = board.colour
    for pts, owner in ((tb, 1), (tw, 2)):
        for col, row in pts:
            p = row * board.width + col
            if colour[p] != EMPTY and colour[p] != owner:
                dead.add(p)
    return DeadStones(dead, "markup", [f"TB/TW on the final node: {len(tb)} black and "
                                        f"{len(tw)} white points"])


def estimator(seed: int = 0) -> DeadStoneSource:
    """The estimate (:mod:`sgfcheck.estimate`): proofs, then seeded playouts; chains it cannot
    decide are listed as uncertain and counted alive."""

    def source(game: GameRecord | None, line: Line | None, board: Board) -> DeadStones:
        found = judge(board, seed=seed)
        notes = [f"estimated from the position (not the players' word): Benson's proofs, then "
                 f"{found.playouts} playouts (seed {seed})"]
        decided = [c for c in found.chains if c.source == "estimate" and c.status != "uncertain"]
        if decided:
            least = min(decided, key=lambda c: c.confidence)
            notes.append(f"least sure decision: {_chain_name(board, least)} {least.status} "
                         f"(confidence {least.confidence:g})")
        for chain in found.uncertain:
            notes.append(f"uncertain: {_chain_name(board, chain)} ({len(chain.stones)} stones, "
                         f"own in {chain.share:.0%} of playouts): counted alive")
        return DeadStones(found.dead, "estimate", notes, judgement=found)

    return source


estimated_dead_stones = estimator(0)


def _chain_name(board: Board, chain: ChainVerdict) -> str:
    return ("B" if chain.colour == 1 else "W") + " " + point_name(
        board.point(chain.stones[0]), board.height)


def nothing_known(game: GameRecord, line: Line, board: Board) -> DeadStones:
    """No source knows: only stones proven dead (Benson) are removed, never a guess."""
    from sgfcheck.benson import prove

    proven = prove(board).dead
    if proven:
        return DeadStones(proven, "benson", [
            "no dead-stone information: only the stones proven dead whatever anyone plays "
            "(Benson) are removed; every other stone is counted alive"], assumed=True)
    return DeadStones(set(), "none", ["no dead-stone information: every stone is counted alive "
                                      "(territory counts may be wrong)"], assumed=True)


def find_dead_stones(game: GameRecord, line: Line, board: Board,
                     sources: list[DeadStoneSource] | None = None) -> DeadStones:
    """The first source that knows, else everything alive (said so)."""
    for source in [markup_dead_stones] if sources is None else sources:
        found = source(game, line, board)
        if found is not None:
            return found
    return nothing_known(game, line, board)


# --- status of every chain (sgfcheck life) -----------------------------------------------------


@dataclass
class ChainStatus:
    """One chain's life: ``alive``, ``dead``, ``seki``, ``uncertain`` (the estimate could not
    decide) or ``unknown`` (nothing known, no estimate asked for), and who said so."""

    points: list[str]
    colour: str
    status: str
    source: str
    confidence: float | None
    """1.0 for proofs and the players' agreement; for the estimate, the share of playouts that
    agree; None when the source gives none (GNU Go)."""

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def chain_statuses(board: Board, dead: DeadStones | None) -> list[ChainStatus]:
    """Every chain's status. With a dead-stone source (markup, GNU Go, --dead) its word decides;
    without one, only Benson's proofs decide and the rest is ``unknown``. Groups that live only
    in seki (found after removing the dead stones) are ``seki``."""
    from sgfcheck.benson import prove
    from sgfcheck.scoring import analyse

    proof = prove(board)
    known = dead is not None and not dead.assumed
    dead_points = set(dead.points) if known and dead is not None else set(proof.dead)
    verdicts = dead.judgement.by_point() if dead is not None and dead.judgement else {}
    position = analyse(board, dead_points)
    seki = _mutual_seki(board, position.seki_stones[1], position.seki_stones[2],
                        set(position.dame))
    out = []
    for chain in board.chains():
        stones = sorted(chain.stones)
        names = [point_name(board.point(p), board.height) for p in stones]
        colour = "B" if chain.colour == 1 else "W"
        first = stones[0]
        verdict = verdicts.get(first)
        if verdict is not None:
            status, source, conf = verdict.status, verdict.source, verdict.confidence
        elif first in proof.alive:
            status, source, conf = "alive", "benson", 1.0
        elif first in proof.dead:
            status, source, conf = "dead", "benson", 1.0
        elif known and dead is not None:
            status = "dead" if first in dead_points else "alive"
            source = dead.source
            conf = None if dead.source == "gnugo" else 1.0
        else:
            status, source, conf = "unknown", "none", None
        if status in ("alive", "unknown") and first in seki and first not in proof.alive:
            status, source = "seki", "seki analysis"
        out.append(ChainStatus(names, colour, status, source, conf))
    return out


def _mutual_seki(board: Board, black: list[int], white: list[int], dame: set[int]) -> set[int]:
    """Seki is mutual: keep the chains of groups without two eyes that share a dame point with
    such a group of the other colour."""
    nbrs = board.neighbours
    in_seki = {1: set(black), 2: set(white)}
    keep: set[int] = set()
    for colour, other in ((1, 2), (2, 1)):
        for chain in {id(board.chain_of[p]): board.chain_of[p] for p in in_seki[colour]
                      if board.chain_of[p] is not None}.values():
            assert chain is not None
            shared = any(q in dame and any(r in in_seki[other] for r in nbrs[q])
                         for s in chain.stones for q in nbrs[s])
            if shared:
                keep.update(chain.stones)
    return keep


def status_diagram(board: Board, statuses: list[ChainStatus]) -> str:
    """The board with marks: X O alive, x o dead, X= O= seki, X? O? unknown or uncertain."""
    from sgfcheck.points import gtp_column, parse_point_name

    mark: dict[int, str] = {}
    for chain in statuses:
        for name in chain.points:
            col, row = parse_point_name(name, board.width, board.height)
            p = board.index(col, row)
            base = "X" if chain.colour == "B" else "O"
            mark[p] = {"alive": base, "dead": base.lower(), "seki": base + "=",
                       "unknown": base + "?", "uncertain": base + "?"}[chain.status]
    lines = ["    " + " ".join(f"{gtp_column(c):<2}" for c in range(board.width))]
    for row in range(board.height):
        cells = [f"{mark.get(row * board.width + c, '.'):<2}" for c in range(board.width)]
        lines.append(f"{board.height - row:>3} " + " ".join(cells))
    return "\n".join(lines)
