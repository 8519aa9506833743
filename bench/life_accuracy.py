"""Dead-stone judgement against the players' agreement.

Ground truth: the KGS games of ../shared/corpus/kgs/ whose final node carries TB/TW markup and
whose RE is a score. For each, the markup is hidden and the final position judged by sgfcheck
(proofs only, and the estimate: proofs + seeded playouts) and by GNU Go (when installed), in the
same run. Printed for each: exact agreement of the dead-stone set as counted, agreement of the
winner and of the margin under the game's own rules, the share of games with an undecided chain,
and the median and maximum seconds per game. For the estimate, which counts an uncertain chain as
most playouts left it (dead when its colour kept it in under half), also: the exact sets with no
chain left uncertain, the exact sets had every uncertain chain been counted alive (the rule
before: the comparison, in the same run), and the games where a confident decision gives the wrong
winner (every way the uncertain chains may go gives a winner other than the markup's) and those
where the winner is wrong however the doubtful chains go (the uncertain ones and the decisions
under ``LOW_CONFIDENCE``, as the result check reads them before it calls a mismatch).

    .venv/bin/python bench/life_accuracy.py [--every N] [--no-gnugo] [CORPUS_KGS_DIR]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

from sgfcheck.colour import BLACK
from sgfcheck.counting.count import count
from sgfcheck.counting.ways import LOW_CONFIDENCE, doubtful_chains, other_ways
from sgfcheck.judge.deadstones import (
    ESCALATE_BELOW,
    ask_engine,
    engine_dead_stones,
    estimator,
    markup_dead_stones,
    proven_dead_stones,
)
from sgfcheck.judge.gnugo import find_gnugo
from sgfcheck.judge.install import opencl_present
from sgfcheck.judge.interface import EngineError
from sgfcheck.judge.katago import engine, find_katago
from sgfcheck.position.analysis import analyse
from sgfcheck.records.record import load_file
from sgfcheck.replay.board import Board
from sgfcheck.replay.check import check_loaded
from sgfcheck.scoring.chains import chain_statuses
from sgfcheck.settings import EngineName, Settings
from sgfcheck.status import Source, Status

estimate_dead_stones = estimator(seed=0)
escalated_dead_stones = estimator(seed=0, engine_name=EngineName.KATAGO)
THRESHOLDS = (0.0, 0.7, 0.8, 0.9, 0.95, 1.01)
"""Escalation thresholds compared (simulated from the estimate's and KataGo's answers of the same
run; 0.0 asks about the uncertain chains only)."""
HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent.parent / "shared" / "corpus" / "kgs"
NUMERIC_RE = re.compile(rb"RE\[[BW]\+[0-9]")


class Tally:
    def __init__(self, name: str) -> None:
        self.name = name
        self.games = self.exact = self.winner = self.margin = self.undecided = 0
        self.failed = self.all_alive = self.wrong_winner = self.settled = 0
        self.wrong_beyond_doubt = 0
        self.times: list[float] = []

    def line(self) -> str:
        n = self.games or 1
        med = statistics.median(self.times) if self.times else 0.0
        worst = max(self.times) if self.times else 0.0
        return (f"{self.name:10} games {self.games:4}  exact dead set {self.exact:4} "
                f"({100 * self.exact / n:5.1f}%)  winner {100 * self.winner / n:5.1f}%  "
                f"margin {100 * self.margin / n:5.1f}%  undecided {100 * self.undecided / n:5.1f}%"
                f"  failed {self.failed}  median {med:.3f} s  max {worst:.2f} s"
                + (f"\n{'':10} exact with no chain uncertain {100 * self.settled / n:5.1f}%  "
                   f"exact with every uncertain chain counted alive "
                   f"{100 * self.all_alive / n:5.1f}%"
                   f"  confident wrong winner {self.wrong_winner} games"
                   f"\n{'':10} wrong winner however the doubtful chains go (uncertain, and "
                   f"decisions below {LOW_CONFIDENCE:g}; as the result check reads them before "
                   f"a mismatch) {self.wrong_beyond_doubt} games"
                   if self.name == "estimate" else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--every", type=int, default=1, help="take every N-th game")
    parser.add_argument("--no-gnugo", action="store_true")
    parser.add_argument("--no-katago", action="store_true")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    files = [p for p in sorted(args.corpus.rglob("*.sgf"))
             if (d := p.read_bytes()) and (b"TW[" in d or b"TB[" in d) and NUMERIC_RE.search(d)]
    files = files[:: args.every]
    use_gnugo = not args.no_gnugo and find_gnugo() is not None
    use_katago = not args.no_katago and find_katago() is not None and opencl_present()
    ours, estimate, gnu = Tally("proofs"), Tally("estimate"), Tally("GNU Go")
    kata = Tally("KataGo")
    escalated = Tally("escalated")
    if use_katago:  # start the engine before timing anything (start-up is 1-5 s, paid once)
        engine().ownership(Board(19, 19), BLACK, 6.5, territory=True)
    asked_games = 0
    simulated = {t: [0, 0] for t in THRESHOLDS}  # exact, games asked
    for path in files:
        report = check_loaded(load_file(path), Settings()).games[0]
        game, line, rep = report.game, report.line, report.replay
        assert line is not None and rep is not None and report.context is not None
        context = report.context
        board = rep.board
        truth = markup_dead_stones(game, line, board, context)
        assert truth is not None
        ruleset = context.ruleset
        true_score = count(analyse(board, truth.points), rep, ruleset, game.handicap)

        def judge(tally: Tally, dead: set[int], undecided: bool, seconds: float,
                  board=board, rep=rep, ruleset=ruleset, game=game,  # noqa: B008
                  truth=truth, true_score=true_score) -> None:
            tally.games += 1
            tally.times.append(seconds)
            tally.exact += dead == truth.points
            score = count(analyse(board, dead), rep, ruleset, game.handicap)
            tally.winner += score.winner == true_score.winner
            tally.margin += score.margin == true_score.margin
            tally.undecided += undecided

        start = time.perf_counter()
        statuses = chain_statuses(board, proven_dead_stones(board))
        dead = {p for c in statuses if c.status is Status.DEAD for p in c.stones}
        judge(ours, dead, any(c.status is Status.UNKNOWN for c in statuses),
              time.perf_counter() - start)
        start = time.perf_counter()
        estimated = estimate_dead_stones(game, line, board, context)
        seconds = time.perf_counter() - start
        uncertain = estimated.uncertain
        judge(estimate, estimated.points, bool(uncertain), seconds)
        estimate.settled += not uncertain and estimated.points == truth.points
        all_alive = estimated.points - {s for c in uncertain for s in c.stones}
        estimate.all_alive += all_alive == truth.points
        winners = {count(analyse(board, way), rep, ruleset, game.handicap).winner
                   for _, way in other_ways(board, estimated)}
        winners.add(count(analyse(board, estimated.points), rep, ruleset, game.handicap).winner)
        estimate.wrong_winner += true_score.winner not in winners
        winners |= {count(analyse(board, way), rep, ruleset, game.handicap).winner
                    for _, way in other_ways(board, estimated, doubtful_chains(estimated))}
        estimate.wrong_beyond_doubt += true_score.winner not in winners
        if use_katago:
            # The estimate escalating to KataGo, run first: the KataGo-alone query below then
            # finds the positions it was asked about in its cache (KataGo alone's time is then
            # a little lower, never the escalation's).
            start = time.perf_counter()
            found = escalated_dead_stones(game, line, board, context)
            took = time.perf_counter() - start
            judge(escalated, found.points, bool(found.uncertain), took)
            asked_games += any(c.source is Source.KATAGO
                               for c in (found.judgement.chains if found.judgement else []))
            ways = other_ways(board, found)
            winners = {count(analyse(board, way), rep, ruleset, game.handicap).winner
                       for _, way in ways}
            winners.add(count(analyse(board, found.points), rep, ruleset,
                              game.handicap).winner)
            escalated.wrong_winner += true_score.winner not in winners
            start = time.perf_counter()
            try:
                kata_dead = ask_engine(EngineName.KATAGO, game, line, board, context).dead
            except EngineError:
                kata.failed += 1
            else:
                judge(kata, kata_dead, False, time.perf_counter() - start)
                for t in THRESHOLDS:  # the estimate's doubtful chains taken from KataGo
                    judgement = estimated.judgement
                    assert judgement is not None
                    doubtful = [c for c in judgement.chains if c.source is Source.ESTIMATE
                                and (c.status is Status.UNCERTAIN or c.confidence < t)]
                    mixed = set(estimated.points)
                    for c in doubtful:
                        mixed -= set(c.stones)
                        if c.stones[0] in kata_dead:
                            mixed |= set(c.stones)
                    simulated[t][0] += mixed == truth.points
                    simulated[t][1] += bool(doubtful)
        if use_gnugo:
            start = time.perf_counter()
            try:
                found = engine_dead_stones("gnugo")(game, line, board, context)
            except EngineError:
                gnu.failed += 1
            else:
                judge(gnu, found.points, False, time.perf_counter() - start)
    print(f"{len(files)} KGS games with TB/TW markup and a numeric RE (markup hidden)")
    print(ours.line())
    print(estimate.line())
    print(kata.line() if use_katago else "KataGo: not run (not installed or --no-katago)")
    if use_katago and kata.games:
        n = kata.games
        print(escalated.line())
        print(f"{'':10} escalation to KataGo (estimate decisions under {ESCALATE_BELOW:g} and "
              f"uncertain chains): engine asked in {asked_games} games "
              f"({100 * asked_games / n:.1f}%), confident wrong winner {escalated.wrong_winner} "
              f"games, total time {sum(escalated.times) / sum(kata.times):.0%} of KataGo alone's")
        # Each game asked costs one KataGo evaluation, so the share of games asked is the share
        # of KataGo's time (plus the estimate's milliseconds); timing the simulation itself is
        # not possible here, KataGo having cached the positions the escalation asked about.
        print(f"{'':10} threshold  exact    games asked (simulated from the same answers)")
        for t, (exact, asked) in simulated.items():
            print(f"{'':10} {t:9.2f}  {100 * exact / n:5.1f}%  {100 * asked / n:5.1f}%")
    if use_gnugo:
        print(gnu.line())
    else:
        print("GNU Go: not run (not installed or --no-gnugo)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
