"""Dead stones at the end of a game: the value the count removes, and where it comes from.

:class:`DeadStones` is the set of stones to remove before counting, with its :class:`Source`,
notes for the reader, and, for the estimate, every chain's verdict. A source is a function
``(game, line, board) -> DeadStones | None`` (None: it does not know); :func:`find_dead_stones`
tries them in order and falls back to what is proven (Benson), never a guess. The sources:

- the user: ``--dead D4,Q16`` (a point marks its whole chain), ``--alive``;
- the players: TB/TW markup on the final node (KGS and CGoban write it once both agreed);
- the estimate (:mod:`sgfcheck.estimate`): proofs, then seeded playouts, uncertain chains named;
- GNU Go (:mod:`sgfcheck.gnugo`): its ``final_status_list dead``; a failure is finding
  ``LIF001`` on the value and every stone is counted alive;
- KataGo (:mod:`sgfcheck.katago`): a stone is dead when the opponent owns its point beyond 0.5;
  a failure is finding ``LIF002``, and the count goes on as for GNU Go;
- proofs only (Benson): stones dead whatever anyone plays.

:func:`uncertain_ways` lists the ways the estimate's uncertain chains may go, for a result check
that counts each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import product

from sgfcheck import findings as F
from sgfcheck.benson import prove
from sgfcheck.board import Board
from sgfcheck.colour import BLACK, EMPTY, WHITE, Colour
from sgfcheck.estimate import ChainVerdict, Judgement, judge
from sgfcheck.findings import Finding
from sgfcheck.gnugo import GnuGoError, ask
from sgfcheck.katago import KataGoError, dead_from_ownership, engine
from sgfcheck.points import expand_point_list, parse_point_name
from sgfcheck.position import area_map
from sgfcheck.records import GameRecord, Line, Move
from sgfcheck.rules import Scoring, rules_from_ru
from sgfcheck.status import Source, Status
from sgfcheck.strenum import StrEnum


class DeadStoneChoice(StrEnum):
    """Where the user asks dead stones to come from (``--dead-stones``)."""

    AUTO = "auto"
    """TB/TW markup when the record has it, else the estimate."""
    MARKUP = "markup"
    """TB/TW markup, else only stones proven dead."""
    ESTIMATE = "estimate"
    BENSON = "benson"
    """Only stones proven dead."""
    GNUGO = "gnugo"
    KATAGO = "katago"
    NONE = "none"
    """Every stone alive."""


@dataclass
class DeadStones:
    """Stones to remove before counting, with where that decision came from."""

    points: set[int]
    """Board indices of dead stones."""
    source: Source
    notes: list[str] = field(default_factory=list)
    assumed: bool = False
    """True when nobody said which stones are dead: only proven-dead stones are removed."""
    judgement: Judgement | None = None
    """For the estimate: every chain's verdict, confidence and the uncertain chains."""
    findings: list[Finding] = field(default_factory=list)
    """What went wrong on the way (GNU Go failed: ``LIF001``)."""

    @property
    def uncertain(self) -> list[ChainVerdict]:
        """Chains the estimate could not decide (counted alive in ``points``)."""
        return self.judgement.uncertain if self.judgement is not None else []

    def names(self, board: Board) -> list[str]:
        """The dead stones' GTP names, sorted as text."""
        return sorted(board.name(p) for p in self.points)


DeadStoneSource = Callable[[GameRecord, Line, Board], "DeadStones | None"]


def user_dead_stones(names: list[str]) -> DeadStoneSource:
    """``--dead D4,Q16``: each named point marks its whole chain dead. A point off the board
    raises ValueError."""

    def source(game: GameRecord, line: Line, board: Board) -> DeadStones | None:
        points: set[int] = set()
        notes = []
        for name in names:
            col, row = parse_point_name(name, board.width, board.height)
            chain = board.chain_of[board.index(col, row)]
            if chain is None:
                notes.append(f"--dead {name}: no stone there; ignored")
                continue
            points.update(chain.stones)
        return DeadStones(points, Source.USER_DEAD, notes)

    return source


def all_alive(game: GameRecord, line: Line, board: Board) -> DeadStones | None:
    return DeadStones(set(), Source.USER_ALIVE)


def markup_dead_stones(game: GameRecord, line: Line, board: Board) -> DeadStones | None:
    """TB/TW on the final node (KGS/CGoban write them once both players agreed).

    A stone standing on a point of the other colour's markup is dead. A living stone on its own
    colour's markup point is simply alive (the point counts once).
    """
    node = line.final_node
    if "TB" not in node and "TW" not in node:
        return None
    tb = expand_point_list(node.get("TB", []), board.width, board.height).points
    tw = expand_point_list(node.get("TW", []), board.width, board.height).points
    dead: set[int] = set()
    colour = board.colour
    for pts, owner in ((tb, BLACK), (tw, WHITE)):
        for col, row in pts:
            p = row * board.width + col
            if colour[p] != EMPTY and colour[p] != owner:
                dead.add(p)
    return DeadStones(dead, Source.MARKUP, [f"TB/TW on the final node: {len(tb)} black and "
                                            f"{len(tw)} white points"])


class Engine(StrEnum):
    """An engine the estimate may ask about the chains it cannot decide (``--engine``)."""

    NONE = "none"
    KATAGO = "katago"


ESCALATE_BELOW = 0.8
"""With an engine, the estimate's decisions less sure than this (and its uncertain chains) are
the engine's to make (measured on the 896 KGS markup games: see README, Benchmarks)."""


def estimator(seed: int = 0, engine_name: Engine | str = Engine.NONE,
              escalate_below: float = ESCALATE_BELOW) -> DeadStoneSource:
    """The estimate (:mod:`sgfcheck.estimate`): proofs, then seeded playouts; chains it cannot
    decide are listed as uncertain and counted alive. With an engine, those chains and the
    decisions less sure than ``escalate_below`` are asked of the engine instead (one evaluation
    of the position, only when there is such a chain); each chain's source says who decided it.
    An engine that fails leaves the estimate as it was, with finding ``LIF002``."""
    asks = Engine(engine_name) is Engine.KATAGO

    def source(game: GameRecord, line: Line, board: Board) -> DeadStones:
        found = judge(board, seed=seed)
        notes = [f"estimated from the position (not the players' word): Benson's proofs, then "
                 f"{found.playouts} playouts (seed {seed})"]
        findings: list[Finding] = []
        if asks:
            asked = [i for i, c in enumerate(found.chains) if c.source is Source.ESTIMATE and (
                c.status is Status.UNCERTAIN or c.confidence < escalate_below)]
            if asked:
                try:
                    dead, confidence = katago_ownership(game, line, board)
                except KataGoError as exc:
                    findings.append(Finding(F.LIF_KATAGO, f"{exc}; the estimate's own decisions "
                                            "stand"))
                else:
                    for i in asked:
                        c = found.chains[i]
                        first = c.stones[0]
                        found.chains[i] = ChainVerdict(
                            c.stones, c.colour, Status.DEAD if first in dead else Status.ALIVE,
                            Source.KATAGO, confidence.get(first, 0.0), c.share)
                    notes.append(f"{len(asked)} chain(s) the estimate could not decide "
                                 f"(uncertain, or less sure than {escalate_below:g}) decided by "
                                 "KataGo's ownership")
        decided = [c for c in found.chains
                   if c.source is Source.ESTIMATE and c.status is not Status.UNCERTAIN]
        if decided:
            least = min(decided, key=lambda c: c.confidence)
            notes.append(f"least sure decision: {_chain_name(board, least)} {least.status} "
                         f"(confidence {least.confidence:g})")
        for chain in found.uncertain:
            notes.append(f"uncertain: {_chain_name(board, chain)} ({len(chain.stones)} stones, "
                         f"own in {chain.share:.0%} of playouts): counted alive")
        return DeadStones(found.dead, Source.ESTIMATE, notes, judgement=found,
                          findings=findings)

    return source


def _chain_name(board: Board, chain: ChainVerdict) -> str:
    return f"{chain.colour.letter} {board.name(chain.stones[0])}"


def gnugo_dead_stones(game: GameRecord, line: Line, board: Board) -> DeadStones:
    """GNU Go's dead stones for the position, the player to move after the last move; raises
    :class:`sgfcheck.gnugo.GnuGoError` (:func:`find_dead_stones` turns it into ``LIF001``)."""
    last = next((e.colour for e in reversed(line.events) if isinstance(e, Move)), WHITE)
    dead, seki = ask(board, last.opponent, game.komi or 0.0)
    notes = [f"GNU Go: {len(dead)} dead stones, {len(seki)} stones in seki"]
    return DeadStones(dead, Source.GNUGO, notes)


def katago_ownership(game: GameRecord, line: Line, board: Board
                     ) -> tuple[set[int], dict[int, float]]:
    """KataGo's dead stones for the position (the player to move after the last move, the
    game's komi and counting) and each chain's confidence, keyed by its first stone."""
    last = next((e.colour for e in reversed(line.events) if isinstance(e, Move)), WHITE)
    ruleset, _ = rules_from_ru(game.rules_raw or "")
    territory = ruleset is None or ruleset.scoring is Scoring.TERRITORY
    owned = engine().ownership(board, last.opponent, game.komi or 0.0, territory)
    return dead_from_ownership(board, owned)


def katago_dead_stones(game: GameRecord, line: Line, board: Board) -> DeadStones:
    """KataGo's ownership of the position: a stone is dead when the opponent owns its point
    beyond 0.5 (on 100 KGS markup games, thresholds from 0.2 to 0.6 gave the same). Raises
    :class:`sgfcheck.katago.KataGoError` (:func:`find_dead_stones` turns it into ``LIF002``)."""
    dead, confidence = katago_ownership(game, line, board)
    unsure = sorted(confidence.items(), key=lambda kv: kv[1])[:1]
    notes = [f"KataGo's ownership (one network evaluation): {len(dead)} dead stones"]
    if unsure:
        first, value = unsure[0]
        notes.append(f"least sure chain: {Colour(board.colour[first]).letter} "
                     f"{board.name(first)} (ownership {value:g} on the side of its verdict)")
    return DeadStones(dead, Source.KATAGO, notes)


def proven_dead_stones(board: Board) -> DeadStones:
    """No source knows: only stones proven dead (Benson) are removed, never a guess."""
    proven = prove(board).dead
    if proven:
        return DeadStones(proven, Source.BENSON, [
            "no dead-stone information: only the stones proven dead whatever anyone plays "
            "(Benson) are removed; every other stone is counted alive"], assumed=True)
    return DeadStones(set(), Source.NONE, ["no dead-stone information: every stone is counted "
                                           "alive (territory counts may be wrong)"], assumed=True)


def choose_sources(choice: DeadStoneChoice, *, dead: tuple[str, ...] = (), alive: bool = False,
                   at_end: bool = True, seed: int = 0,
                   engine_name: Engine | str = Engine.NONE) -> list[DeadStoneSource]:
    """The sources to try, in order, for what the user asked: ``--dead`` and ``--alive`` win
    over ``--dead-stones``; markup is read only at the end of the game."""
    choice = DeadStoneChoice(choice)
    if dead:
        return [user_dead_stones(list(dead))]
    if alive or choice is DeadStoneChoice.NONE:
        return [all_alive]
    if choice is DeadStoneChoice.GNUGO:
        return [gnugo_dead_stones]
    if choice is DeadStoneChoice.KATAGO:
        return [katago_dead_stones]
    if choice is DeadStoneChoice.ESTIMATE:
        return [estimator(seed, engine_name)]
    sources: list[DeadStoneSource] = []
    if choice in (DeadStoneChoice.AUTO, DeadStoneChoice.MARKUP) and at_end:
        sources.append(markup_dead_stones)
    if choice is DeadStoneChoice.AUTO:
        sources.append(estimator(seed, engine_name))
    return sources


def find_dead_stones(game: GameRecord, line: Line, board: Board,
                     sources: list[DeadStoneSource] | None = None) -> DeadStones:
    """The first source that knows, else the stones proven dead (said so). A source that fails
    (GNU Go) leaves a finding on the value and every stone is counted alive; a bad ``--dead``
    point raises ValueError."""
    for source in [markup_dead_stones] if sources is None else sources:
        try:
            found = source(game, line, board)
        except (GnuGoError, KataGoError) as exc:
            fallback = proven_dead_stones(board)
            code = F.LIF_GNUGO if isinstance(exc, GnuGoError) else F.LIF_KATAGO
            fallback.findings.append(Finding(code, f"{exc}; every stone is counted alive"))
            return fallback
        if found is not None:
            return found
    return proven_dead_stones(board)


MAX_UNCERTAIN_GROUPS = 6
"""Up to this many doubtful groups, every way they may go is counted; beyond, only the ways
that favour one colour most (all of Black's dead and White's alive, and the reverse)."""

LOW_CONFIDENCE = 0.8
"""An estimate decision less sure than this is doubtful: a result check reads it both ways."""


def doubtful_chains(dead: DeadStones) -> list[ChainVerdict]:
    """The estimate's uncertain chains and its decisions below :data:`LOW_CONFIDENCE`."""
    if dead.judgement is None:
        return []
    return [c for c in dead.judgement.chains if c.source is Source.ESTIMATE
            and (c.status is Status.UNCERTAIN or c.confidence < LOW_CONFIDENCE)]


def other_ways(board: Board, dead: DeadStones,
               chains: list[ChainVerdict] | None = None) -> list[tuple[str, set[int]]]:
    """Ways the doubtful chains (default: the uncertain ones) may go other than as judged:
    (description, the dead stones that way). Doubtful chains of one colour in one area (joined
    through own empty points or dame, as the scorer's areas) go together; a group judged dead
    comes back alive, one judged alive or uncertain dies."""
    chains = dead.uncertain if chains is None else chains
    colour = list(board.colour)
    for p in dead.points:
        colour[p] = EMPTY
    area_of = area_map(colour, board)
    groups: dict[tuple[int, bool], list[int]] = {}
    for chain in chains:
        judged_dead = chain.stones[0] in dead.points
        anchor = chain.stones[0] if judged_dead else area_of[chain.stones[0]]
        groups.setdefault((anchor, judged_dead), []).extend(chain.stones)
    named = [(f"{Colour(board.colour[g[0]]).letter} {board.name(min(g))}", set(g), judged_dead)
             for (_, judged_dead), g in groups.items()]
    if len(named) <= MAX_UNCERTAIN_GROUPS:
        choices = [c for c in product((False, True), repeat=len(named)) if any(c)]
    else:
        black = tuple(board.colour[min(g)] == BLACK for _, g, _ in named)
        choices = [black, tuple(not b for b in black), tuple(True for _ in named)]
    out = []
    for choice in choices:
        stones = set(dead.points)
        died, lived = [], []
        for (name, g, judged_dead), flip in zip(named, choice, strict=True):
            if not flip:
                continue
            if judged_dead:
                stones -= g
                lived.append(name)
            else:
                stones |= g
                died.append(name)
        how = ", ".join(part for part in (", ".join(died) + " dead" if died else "",
                                          ", ".join(lived) + " alive" if lived else "") if part)
        out.append((how, stones))
    return out


def uncertain_ways(board: Board, dead: DeadStones) -> list[tuple[str, set[int]]]:
    """Ways the uncertain chains may go, other than all alive: (description, stones dead beyond
    ``dead.points``)."""
    return [(how, stones - dead.points) for how, stones in other_ways(board, dead)]
