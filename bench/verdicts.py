"""Result verdicts on real archives: how often a right result is confirmed, and a falsified one
caught.

For the professional Fox games of ``../shared/corpus/pro19`` (results taken as right) and the KGS
games with agreed TB/TW markup, every game with a numeric RE (``B+3.5``, and ``W+0.0``-style
winner-only results) is scored as ``sgfcheck score`` does by default (markup, else the estimate);
the verdicts are counted by basis and, separately, for results with a margin and results that name
only the winner. Then each game with a margin of 2.5 or more is checked again with the winner
flipped in RE (``B+3.5`` -> ``W+3.5``): a falsified result, which should be a mismatch and never a
match; and each winner-only result with its winner flipped (``W+0.0`` -> ``B+0.0``), which should
never be a match. Each game with a margin is also checked with its margin moved by 2 and by 6
points (``B+3.5`` -> ``B+5.5``, ``B+9.5``): a wrong margin, the winner right. The same four
figures are given for the finished games alone: ended by two passes, or stopped with nothing
left open (the game's own band at most 2 points wide: the move in hand), and for the decidable
ones (finished, their stones placed by the record or a cited convention). Every answer line is
held against its table: the count it names must be one of the rows. For the counts read
as a band (dead stones from a judgement of the position), the band widths are summarised.
Prints the figures and the time per game. With ``--engine auto`` (KataGo installed) every check is
made as ``score`` makes it by default: a mismatch on the estimate's dead stones, right or
falsified, is put to KataGo (its count made once a game).

    python bench/verdicts.py [--every N] [--pro DIR] [--kgs DIR] [--dead-stones katago]
                             [--engine katago]

Only files with a numeric RE are read (the others are not scored), so the time per file is the
time per scored game.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from sgfcheck.limits import DEFAULT_LIMITS
from sgfcheck.output.scores import answer_line
from sgfcheck.records.record import HandicapPlacement
from sgfcheck.records.results import Result, ResultKind
from sgfcheck.replay.replay import Replay
from sgfcheck.scoring.adjudicate import GameScore, score_file, score_game
from sgfcheck.scoring.adjudicate import weigh as weigh_estimate
from sgfcheck.scoring.secondopinion import combined as second_opinion
from sgfcheck.scoring.secondopinion import second_judge
from sgfcheck.scoring.secondopinion import wanted as second_opinion_wanted
from sgfcheck.settings import EngineName, Settings
from sgfcheck.verdict.decide import ResultCheck

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "corpus"
NUMERIC_RE = re.compile(rb"RE\[[BW]\+[0-9]")


VERDICTS = ("match", "mismatch", "unverifiable")


def shares(counts: Counter[str]) -> str:
    """``match 3 (75.0%), mismatch 1 (25.0%), unverifiable 0 (0.0%)``."""
    n = max(1, sum(counts.values()))
    return ", ".join(f"{s} {counts[s]} ({100 * counts[s] / n:.1f}%)" for s in VERDICTS)


def run(name: str, files: list[Path], markup_only: bool, dead_stones: str,
        engine: str = "none", solver: int = DEFAULT_LIMITS.solver) -> None:
    by_basis: Counter[tuple[str, str]] = Counter()
    statuses: Counter[str] = Counter()
    falsified: Counter[str] = Counter()
    falsified_winner: Counter[str] = Counter()
    moved: dict[int, Counter[str]] = {2: Counter(), 6: Counter()}
    widths: list[float] = []
    # The finished games (ended by two passes, or stopped with nothing left open: the own row's
    # band at most 2 points wide, the move in hand), with a margin in RE: the right result, the
    # winner flipped (margin >= 2.5), the margin moved by 2 and by 6.
    finished: dict[str, Counter[str]] = {k: Counter() for k in ("right", "flipped", "2", "6")}
    # The decidable games: finished, and their stones placed by the record (or read by a cited
    # convention: Fox's handicap stones as KataGo places them), not assumed by sgfcheck.
    decidable: dict[str, Counter[str]] = {k: Counter() for k in ("right", "flipped")}
    rows = Counter[str]()  # the answer's count is its reading's row of the table (or not)
    by_kind: Counter[tuple[str, str]] = Counter()
    games = 0
    start = time.perf_counter()
    for path in files:
        options = Settings(compare=("japanese",), dead_stones=dead_stones,  # type: ignore[arg-type]
                           engine=engine,  # type: ignore[arg-type]
                           limits=replace(DEFAULT_LIMITS, solver=solver))
        for game in score_file(path, options).games:
            asked: list[GameScore] = []

            def weigh(game: GameScore, rep: Replay, wrong: Result,
                      asked: list[GameScore] = asked, options: Settings = options) -> ResultCheck:
                """A falsified result checked as score checks it: with --engine auto, a
                mismatch on the estimate, or a verdict it leaves open, is put to KataGo (its
                count made once a game) and the two verdicts make one."""
                rc = weigh_estimate(game, rep, wrong)
                if options.engine != "auto" or not second_opinion_wanted(rc, game.dead, wrong):
                    return rc
                judge = second_judge()
                if judge is None:
                    return rc
                if not asked:
                    asked.append(score_game(game.check, replace(
                        options, dead_stones=judge, engine=EngineName.NONE)))
                other = asked[0]
                if (other.result_check is None or other.check.replay is None
                        or other.dead is None):
                    return rc
                return second_opinion(rc, weigh_estimate(other, other.check.replay, wrong),
                                      judge, other.dead.ownership is not None,
                                      wrong.raw or "")[0]

            rc, result = game.result_check, game.check.result
            if rc is None or result.kind not in (ResultKind.SCORE, ResultKind.WIN):
                continue
            if markup_only and (game.dead is None or game.dead.source not in ("markup",
                                                                               dead_stones)):
                continue
            games += 1
            statuses[rc.status] += 1
            by_basis[(str(rc.basis), str(rc.status))] += 1
            by_kind[(str(result.kind), str(rc.status))] += 1
            if game.bands and game.bands[0] is not None:
                widths.append(game.bands[0].width)
            if result.winner is None or not game.dead:
                continue
            flipped = replace(result, winner=result.winner.opponent,
                              raw=result.winner.opponent.letter + (result.raw or "")[1:])
            rep = game.check.replay
            assert rep is not None
            final = result.kind is ResultKind.SCORE and (game.final or bool(
                game.bands and game.bands[0] is not None and game.bands[0].width <= 2))
            placed = game.check.game.handicap_placement not in (HandicapPlacement.ASSUMED,
                                                                 HandicapPlacement.UNKNOWN)
            if final:
                finished["right"][rc.status] += 1
                if placed:
                    decidable["right"][rc.status] += 1
            rows[answer_row(game)] += 1
            if result.kind is ResultKind.SCORE and result.margin is not None:
                for points, counts in moved.items():
                    margin = result.margin + points
                    wrong = replace(result, margin=margin,
                                    raw=f"{result.winner.letter}+{margin:g}")
                    verdict = str(weigh(game, rep, wrong).status)
                    counts[verdict] += 1
                    if final:
                        finished[str(points)][verdict] += 1
            if result.kind is ResultKind.SCORE and result.margin is not None \
                    and result.margin >= 2.5:
                verdict = str(weigh(game, rep, flipped).status)
                falsified[verdict] += 1
                if final:
                    finished["flipped"][verdict] += 1
                    if placed:
                        decidable["flipped"][verdict] += 1
            elif result.kind is ResultKind.WIN:
                falsified_winner[weigh(game, rep, flipped).status] += 1
    seconds = time.perf_counter() - start
    print(f"{name}: {len(files)} files, {games} games with a numeric RE "
          f"({1000 * seconds / max(1, len(files)):.0f} ms per file)")
    for status in ("match", "mismatch", "unverifiable", "not-scored"):
        print(f"  {status:13} {statuses[status]:5}  {100 * statuses[status] / max(1, games):5.1f}%")
    for basis in sorted({b for b, _ in by_basis}):
        shown = ", ".join(f"{by_basis[(basis, s)]} {s}" for s in
                          ("match", "mismatch", "unverifiable", "not-scored")
                          if by_basis[(basis, s)])
        print(f"  on {basis}: {shown}")
    for kind, label in (("score", "with a margin"), ("win", "winner only")):
        n = sum(v for (k, _), v in by_kind.items() if k == kind)
        if n:
            print(f"  {label} ({n}): "
                  + shares(Counter({s: by_kind[(kind, s)] for s in VERDICTS})))
    if widths:
        ordered = sorted(widths)
        print(f"  bands (own row, {len(widths)} games): width median "
              f"{statistics.median(ordered):g}, 90th percentile "
              f"{ordered[int(0.9 * (len(ordered) - 1))]:g}, one value "
              f"{sum(1 for w in widths if w == 0)}, at most 4 points "
              f"{sum(1 for w in widths if w <= 4)}")
    for counts, label in ((falsified, "winner flipped, margin >= 2.5"),
                          (falsified_winner, "winner-only result, winner flipped"),
                          (moved[2], "margin moved by 2, winner kept"),
                          (moved[6], "margin moved by 6, winner kept")):
        print(f"  falsified ({label}): {sum(counts.values())} games: " + shares(counts))
    for key, label in (("right", "as recorded"), ("flipped", "winner flipped, margin >= 2.5"),
                       ("2", "margin moved by 2"), ("6", "margin moved by 6")):
        print(f"  finished (two passes, or a band of at most 2 points), {label}: "
              f"{sum(finished[key].values())} games: " + shares(finished[key]))
    for key, label in (("right", "as recorded"), ("flipped", "winner flipped, margin >= 2.5")):
        print(f"  decidable (finished, stones placed by the record or a cited convention), "
              f"{label}: {sum(decidable[key].values())} games: " + shares(decidable[key]))
    print(f"  answer line names a row of its table: {rows['row']} of {sum(rows.values())} "
          f"(not a row: {rows['other']})")


def answer_row(game: GameScore) -> str:
    """Whether the count ``score``'s answer line names is a row of the table it prints: ``row``
    (the row of the verdict's reading), ``other``; unverifiable and not-scored answers name
    no count (``row``)."""
    line = answer_line(game)
    named = re.search(r"counted (\S+) under ", line)
    if named is None:
        return "row"
    shown = {s.result_text for s in game.scores}
    return "row" if named.group(1) in shown else "other"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="take every N-th file")
    parser.add_argument("--pro", type=Path, default=SHARED / "pro19")
    parser.add_argument("--solver", type=int, default=DEFAULT_LIMITS.solver,
                        help="--limit solver: the budget of the last points' solver (0: off)")
    parser.add_argument("--kgs", type=Path, default=SHARED / "kgs")
    parser.add_argument("--dead-stones", default="auto", help="as for sgfcheck score")
    parser.add_argument("--engine", default="none", help="as for sgfcheck score: the engine the "
                        "estimate asks about the chains it cannot decide")
    args = parser.parse_args()
    if not args.pro.is_dir() or not args.kgs.is_dir():
        print(f"corpus not found: {args.pro} / {args.kgs}", file=sys.stderr)
        return 2
    pro = sorted(p for p in args.pro.rglob("*") if p.suffix.lower() == ".sgf"
                 and NUMERIC_RE.search(p.read_bytes()))[::args.every]
    run("pro19 (Fox professional games)", pro, False, args.dead_stones, args.engine, args.solver)
    kgs = sorted(p for p in args.kgs.rglob("*.sgf") if b"TB[" in p.read_bytes()
                 or b"TW[" in p.read_bytes())[::args.every]
    run("KGS games with TB/TW markup", kgs, True, args.dead_stones, args.engine, args.solver)
    return 0


if __name__ == "__main__":
    sys.exit(main())
