"""Dead stones at the end of a game: the value the count removes, and where it comes from.

:class:`DeadStones` is the set of stones to remove before counting, with its :class:`Source`,
notes for the reader, and, for the estimate, every chain's verdict. A source is a function
``(game, line, board, context) -> DeadStones | None`` (None: it does not know);
:func:`find_dead_stones`
tries them in order and falls back to what is proven (Benson), never a guess. The sources:

- the user: ``--dead D4,Q16`` (a point marks its whole chain), ``--alive``;
- the players: TB/TW markup on the final node (KGS and CGoban write it once both agreed);
- the estimate (:mod:`sgfcheck.judge.estimate`): proofs, then seeded playouts, uncertain chains
  named;
- an engine (:mod:`sgfcheck.judge.interface`: GNU Go, KataGo), asked with the game's context (the
  komi and counting the count uses): its dead stones; a failure is finding ``LIF001`` (GNU Go)
  or ``LIF002`` (KataGo) on the value, which then holds only the stones proven dead (Benson;
  where none are, every stone is counted alive);
- proofs only (Benson): stones dead whatever anyone plays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from sgfcheck.colour import BLACK, EMPTY, WHITE, Colour
from sgfcheck.engineregistry import BY_NAME, shown_name
from sgfcheck.findings import Finding
from sgfcheck.judge.benson import prove
from sgfcheck.judge.bentfour import bent_fours
from sgfcheck.judge.clock import asking
from sgfcheck.judge.engines import running
from sgfcheck.judge.estimate import ChainVerdict, ChainVerdicts, judge
from sgfcheck.judge.interface import EngineError, EngineJudgement
from sgfcheck.points import expand_point_list, parse_point_name
from sgfcheck.records.context import GameContext
from sgfcheck.records.lines import Line, Move
from sgfcheck.records.record import GameRecord
from sgfcheck.records.results import ResultKind
from sgfcheck.replay.board import Board, Chain
from sgfcheck.rules.ruleset import Ruleset
from sgfcheck.settings import DeadStoneChoice, EngineName, Settings
from sgfcheck.status import ENGINE_JUDGES, ENGINE_NAMES, Source, Status


@dataclass
class DeadStones:
    """Stones to remove before counting, with where that decision came from."""

    points: set[int]
    """Board indices of dead stones."""
    source: Source
    notes: list[str] = field(default_factory=list)
    assumed: bool = False
    """True when nobody said which stones are dead: only proven-dead stones are removed."""
    territory: dict[Colour, set[int]] | None = None
    """With markup: each colour's marked points that count as its territory (empty points and
    the dead stones on them), as the server that wrote the marks counts them."""
    judgement: ChainVerdicts | None = None
    """For the estimate: every chain's verdict, confidence and the uncertain chains."""
    findings: list[Finding] = field(default_factory=list)
    """What went wrong on the way (GNU Go failed: ``LIF001``)."""
    ownership: tuple[list[float], list[float]] | None = None
    """Every point's ownership (+1 Black .. -1 White) with Black to move first, and with White,
    where the judge gives it (the estimate's playouts, KataGo): the count's band reads it."""
    not_judged: bool = False
    """A game ended by resignation, time or forfeit whose dead stones were not judged (the
    choice judges them, ``Settings.judge_unscored`` is off): only the stones proven dead."""

    @property
    def uncertain(self) -> list[ChainVerdict]:
        """Chains the estimate could not decide (in ``points`` when most playouts lost them;
        an engine's unsettled chains are counted alive)."""
        return self.judgement.uncertain if self.judgement is not None else []

    def uncertain_names(self, board: Board) -> list[str]:
        """Each uncertain chain's point and how it is counted (``R18 counted dead``)."""
        return [f"{board.name(c.stones[0])} counted "
                f"{'dead' if c.stones[0] in self.points else 'alive'}" for c in self.uncertain]

    def noted(self, note: str, first: bool = False) -> DeadStones:
        """The same dead stones, with a note more (``first``: before the others)."""
        return replace(self, notes=[note, *self.notes] if first else [*self.notes, note])

    def failed(self, finding: Finding) -> DeadStones:
        """The same dead stones, with what went wrong on the way after them."""
        return replace(self, findings=[*self.findings, finding])

    def names(self, board: Board) -> list[str]:
        """The dead stones' GTP names, sorted as text."""
        return sorted(board.name(p) for p in self.points)

    def by_colour(self, board: Board) -> str:
        """The dead stones for people, each colour named, in board order (by column, then row
        from the bottom): ``black D4, E5; white Q9, Q16``, or ``none``."""
        parts = []
        for colour in (BLACK, WHITE):
            points = sorted((p for p in self.points if board.colour[p] == colour),
                            key=lambda p: (p % board.width, -(p // board.width)))
            if points:
                parts.append(f"{Colour(colour).name.lower()} "
                             + ", ".join(board.name(p) for p in points))
        return "; ".join(parts) or "none"


def _stones(stones: list[int]) -> str:
    return "1 stone" if len(stones) == 1 else f"{len(stones)} stones"


DeadStoneSource = Callable[[GameRecord, Line, Board, GameContext], "DeadStones | None"]
"""A source of dead stones: the game, the line played, its final position, the game's context
-> the dead stones, or None when it does not know."""


def user_dead_stones(names: list[str]) -> DeadStoneSource:
    """``--dead D4,Q16``: each named point marks its whole chain dead. A point off the board
    raises ValueError."""

    def source(game: GameRecord, line: Line, board: Board,
               context: GameContext) -> DeadStones | None:
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


def all_alive(game: GameRecord, line: Line, board: Board,
              context: GameContext) -> DeadStones | None:
    return DeadStones(set(), Source.USER_ALIVE)


def markup_dead_stones(game: GameRecord, line: Line, board: Board,
                       context: GameContext) -> DeadStones | None:
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
    territory: dict[Colour, set[int]] = {BLACK: set(), WHITE: set()}
    for pts, owner in ((tb, BLACK), (tw, WHITE)):
        for col, row in pts:
            p = row * board.width + col
            if colour[p] != EMPTY and colour[p] != owner:
                dead.add(p)
            if colour[p] != owner:
                territory[owner].add(p)
    return DeadStones(dead, Source.MARKUP, [f"TB/TW on the final node: {len(tb)} black and "
                                            f"{len(tw)} white points"], territory=territory)


MAJORITY = 0.5
"""An uncertain chain its colour kept in fewer than this share of the playouts is counted dead
(the count's best guess; its band reads it both ways). On the 896 KGS games with markup, the
players' dead set: 92.1% with every uncertain chain counted alive, 95.8% counted this way."""

ESCALATE_BELOW = 0.7
"""With an engine, the estimate's decisions less sure than this (the weaker of its two sides'
shares) and its unsettled chains are the engine's to make (the doubtful chains of
:mod:`sgfcheck.counting.ways`; measured on the 896 KGS markup games: the manual's benchmarks)."""


def estimator(seed: int = 0, engine_name: EngineName | str = EngineName.NONE,
              escalate_below: float = ESCALATE_BELOW) -> DeadStoneSource:
    """The estimate (:mod:`sgfcheck.judge.estimate`): proofs, then seeded playouts; chains it cannot
    decide are listed as uncertain and counted as most playouts left them (dead when their
    colour kept them in under half: :data:`MAJORITY`). With an engine, those chains and the
    decisions less sure than ``escalate_below`` are asked of the engine (``gnugo``,
    ``katago``; ``auto`` asks nothing here: the result check puts its mismatches to KataGo)
    instead (one evaluation of the position, only when there is such a chain); each chain's
    source says who decided it.
    An engine that fails leaves the estimate as it was, with finding ``LIF002``."""
    asks = EngineName(engine_name)

    def source(game: GameRecord, line: Line, board: Board, context: GameContext) -> DeadStones:
        found = judge(board, seed=seed)
        notes = [f"estimated from the position (not the players' word): Benson's proofs, then "
                 f"{found.playouts} playouts (seed {seed})"]
        notes.extend(_bent_four(board, found, context.ruleset))
        findings: list[Finding] = []
        if asks in ENGINE_NAMES:  # auto asks only of mismatches
            asked = [i for i, c in enumerate(found.chains) if c.source is Source.ESTIMATE and (
                c.status is Status.UNCERTAIN or c.confidence < escalate_below)]
            if asked:
                try:
                    answer = ask_engine(asks, game, line, board, context)
                except EngineError as exc:
                    findings.append(Finding(exc.code, f"{exc}; the estimate's own decisions "
                                            "stand"))
                else:
                    for i in asked:
                        c = found.chains[i]
                        first = c.stones[0]
                        status = (Status.UNCERTAIN if first in answer.unsettled else
                                  Status.DEAD if first in answer.dead else Status.ALIVE)
                        found.chains[i] = ChainVerdict(
                            c.stones, c.colour, status, Source(asks.value),
                            answer.confidence.get(first, 0.0), c.share)
                    notes.append(f"{len(asked)} chain(s) the estimate could not decide "
                                 f"(uncertain, or less sure than {escalate_below:g}) decided by "
                                 f"{BY_NAME[asks.value].decides_by}")
            else:
                # Named on the command line and not asked: said, so that the count is not taken
                # for the engine's.
                notes.append(f"{shown_name(asks.value)} not asked (--engine {asks.value}): every "
                             "chain the estimate decided is at least "
                             f"{escalate_below:g} sure, none uncertain; the dead stones are the "
                             "estimate's")
        decided = [c for c in found.chains
                   if c.source is Source.ESTIMATE and c.status is not Status.UNCERTAIN]
        if decided:
            least = min(decided, key=lambda c: c.confidence)
            notes.append(f"least sure decision: {_chain_name(board, least)} {least.status} "
                         f"(confidence {least.confidence:g})")
        points = set(found.dead)
        for chain in found.uncertain:
            if chain.source is Source.ESTIMATE:
                # No decision: counted as most playouts left it, and read both ways (the band).
                most_dead = chain.share < MAJORITY
                if most_dead:
                    points.update(chain.stones)
                notes.append(f"uncertain: {_chain_name(board, chain)} ({_stones(chain.stones)}, "
                             f"own in {chain.share:.0%} of playouts): counted "
                             f"{'dead' if most_dead else 'alive'}, as most playouts left it")
            else:
                notes.append(f"unsettled: {_chain_name(board, chain)} "
                             f"({_stones(chain.stones)}): {BY_NAME[asks.value].decides_by} "
                             "gives it dead with one side to move and alive with the other; "
                             "counted alive")
        return DeadStones(points, Source.ESTIMATE, notes, judgement=found,
                          findings=findings, ownership=found.ownership)

    return source


def _bent_four(board: Board, found: ChainVerdicts, ruleset: Ruleset) -> list[str]:
    """Bent four in the corner: under rules where it is dead as it stands, its defender dead and
    the attacker's stones inside alive, decided by the rules (the playouts read the standoff as a
    seki); under other rules it is left as the seki it looks like. Returns the notes that say
    which."""
    verdicts: dict[int, ChainVerdict] = {}

    def lives(chain: Chain) -> bool:
        if not verdicts:  # built only when a standoff asks about its walls (rare)
            verdicts.update(found.by_point())
        verdict = verdicts.get(chain.stones[0])
        return verdict is not None and verdict.status is Status.ALIVE

    notes = []
    for shape in bent_fours(board, lives):
        defender = Colour(board.colour[shape.defender[0]])
        where = (f"bent four in the corner at {board.name(shape.corner)} ({defender.letter} "
                 f"{board.name(min(shape.defender))})")
        if not ruleset.bent_four_dead:
            notes.append(f"{where}: the {ruleset.name} rules have it played out (a ko "
                         f"{defender.opponent.word} may start at {board.name(shape.sacrifice)});"
                         " as it stands it counts as a seki")
            continue
        for i, chain in enumerate(found.chains):
            if chain.stones[0] in shape.defender:
                status = Status.DEAD
            elif chain.stones[0] in shape.attacker:
                status = Status.ALIVE
            else:
                continue
            found.chains[i] = replace(chain, status=status, source=Source.RULES, confidence=1.0)
        notes.append(f"{where}: dead as it stands under the {ruleset.name} rules "
                     f"({defender.opponent.word} may start the ko at "
                     f"{board.name(shape.sacrifice)} when he likes; {defender.word} never can)")
    return notes


def _chain_name(board: Board, chain: ChainVerdict) -> str:
    return f"{chain.colour.letter} {board.name(chain.stones[0])}"


def to_move_after(line: Line) -> Colour:
    """The player to move after the last move of a line (Black when White moved last, or no
    one moved)."""
    last = next((e.colour for e in reversed(line.events) if isinstance(e, Move)), WHITE)
    return last.opponent


def ask_engine(name: EngineName | str, game: GameRecord, line: Line, board: Board,
               context: GameContext) -> EngineJudgement:
    """The named engine's word on the position, the player to move after the last move, the
    game's komi and counting (:mod:`sgfcheck.judge.interface`). Raises
    :class:`~sgfcheck.judge.interface.EngineError`."""
    with asking(str(name)):
        return running(str(name)).judge(board, context, to_move_after(line))


def engine_dead_stones(name: str) -> DeadStoneSource:
    """The named engine's dead stones for the position (``--dead-stones gnugo``, ``katago``).
    An engine that tells how sure it is of each chain (KataGo's ownership, asked with each side
    to move) gives every chain's verdict: dead where its answer says so, unsettled where the
    answer depends on who moves first (counted alive, and the count's band reads it both ways).
    The source raises :class:`~sgfcheck.judge.interface.EngineError` (:func:`find_dead_stones`
    turns it into the engine's finding, ``LIF001`` or ``LIF002``)."""
    source = Source(name)

    def dead_stones(game: GameRecord, line: Line, board: Board,
                    context: GameContext) -> DeadStones:
        answer = ask_engine(name, game, line, board, context)
        if answer.ownership is None:
            return DeadStones(answer.dead, source, answer.notes)
        dead, confidence = answer.dead, answer.confidence
        chains = []
        for chain in board.chains():
            stones = sorted(chain.stones)
            first = stones[0]
            status = (Status.UNCERTAIN if first in answer.unsettled else
                      Status.DEAD if first in dead else Status.ALIVE)
            chains.append(ChainVerdict(stones, Colour(chain.colour), status, source,
                                       confidence.get(first, 0.0), 0.0 if first in dead else 1.0))
        judgement = ChainVerdicts(chains, 0, 0)
        notes = list(answer.notes)
        settled = sorted((c for c in chains if c.status is not Status.UNCERTAIN),
                         key=lambda c: c.confidence)[:1]
        if settled:
            notes.append(f"least sure chain: {_chain_name(board, settled[0])} (ownership "
                         f"{settled[0].confidence:g} on the side of its verdict)")
        for verdict in judgement.uncertain:
            notes.append(f"unsettled: {_chain_name(board, verdict)} ({len(verdict.stones)} "
                         "stones): dead with one side to move, alive with the other; counted "
                         "alive")
        return DeadStones(dead, source, notes, judgement=judgement, ownership=answer.ownership)

    return dead_stones


def proven_removed(points: set[int]) -> str:
    """What a count on the proofs alone removes (``points``: the stones proven dead)."""
    return ("only the stones proven dead whatever anyone plays (Benson) are removed" if points
            else "every stone is counted alive")


def proven_dead_stones(board: Board, why: str = "no dead-stone information",
                       not_judged: bool = False) -> DeadStones:
    """Nobody judged the dead stones (``why``; ``not_judged``: they were not to be, see
    :func:`not_judged`): only stones proven dead (Benson) are removed, never a guess."""
    proven = prove(board).dead
    if proven:
        return DeadStones(proven, Source.BENSON, [
            f"{why}: {proven_removed(proven)}; every other stone is counted alive"], assumed=True,
            not_judged=not_judged)
    return DeadStones(set(), Source.NONE, [
        f"{why}: {proven_removed(proven)} (territory counts may be wrong)"], assumed=True,
        not_judged=not_judged)


_ENDS = {ResultKind.RESIGN: "resignation", ResultKind.TIME: "time", ResultKind.FORFEIT: "forfeit"}


def not_judged(ended: ResultKind) -> DeadStoneSource:
    """A game ended by resignation, time or forfeit (``ended``), whose dead stones are not judged
    (``Settings.judge_unscored`` off): no count decides its result, so neither the estimate
    nor an engine is asked; only the stones proven dead are removed, said so."""

    def source(game: GameRecord, line: Line, board: Board,
               context: GameContext) -> DeadStones:
        return proven_dead_stones(board, f"not judged (the game ended by {_ENDS[ended]}: no "
                                  "count decides its result; --judge-unscored judges it)",
                                  not_judged=True)

    return source


def choose_sources(settings: Settings, at_end: bool = True,
                   ended: ResultKind | None = None) -> list[DeadStoneSource]:
    """The sources to try, in order, for what the user asked: ``--dead`` and ``--alive`` win
    over ``--dead-stones``; markup is read only at the end of the game. A game that ended by
    resignation, time or forfeit (``ended``) is judged at its end only where
    ``settings.judge_unscored``: else the markup is read where the choice reads it, and
    neither the estimate nor an engine is asked (:func:`not_judged`)."""
    choice = settings.dead_stones
    seed, engine_name = settings.seed, settings.engine
    if settings.dead:
        return [user_dead_stones(list(settings.dead))]
    if settings.alive or choice is DeadStoneChoice.NONE:
        return [all_alive]
    if (ended is not None and at_end and not settings.judge_unscored
            and settings.judges_dead_stones):
        reads = [markup_dead_stones] if choice is DeadStoneChoice.AUTO else []
        return [*reads, not_judged(ended)]
    if choice in ENGINE_JUDGES:
        return [engine_dead_stones(choice.value)]
    if choice is DeadStoneChoice.ESTIMATE:
        return [estimator(seed, engine_name)]
    sources: list[DeadStoneSource] = []
    if choice in (DeadStoneChoice.AUTO, DeadStoneChoice.MARKUP) and at_end:
        sources.append(markup_dead_stones)
    if choice is DeadStoneChoice.AUTO:
        sources.append(estimator(seed, engine_name))
    return sources


def find_dead_stones(game: GameRecord, line: Line, board: Board, context: GameContext,
                     sources: list[DeadStoneSource] | None = None) -> DeadStones:
    """The first source that knows, else the stones proven dead (said so). A source that fails
    (an engine) leaves a finding on the value, which then holds the stones proven dead (where
    none are, every stone is counted alive); a bad ``--dead`` point raises ValueError."""
    for source in [markup_dead_stones] if sources is None else sources:
        try:
            found = source(game, line, board, context)
        except EngineError as exc:
            fallback = proven_dead_stones(board)
            return fallback.failed(Finding(exc.code, f"{exc}; {proven_removed(fallback.points)}"))
        if found is not None:
            return found
    return proven_dead_stones(board)
