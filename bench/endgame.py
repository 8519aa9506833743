"""The solver of the last open points (the endgame stage): how often it gives up, and what it
costs against the estimate of the dead stones, in the same process.

For the professional Fox games of ``../shared/corpus/pro19`` with a numeric RE (every N-th file),
each game is scored as ``sgfcheck score --engine none`` scores it; the estimate of the dead stones
(``judge.deadstones.find_dead_stones``) and the solver (``endgame.finish.finish``, once a way of
counting) are timed as they run. Printed: the games the solver was asked, how they ended (solved,
a limit of work, time or size, a settled chain falling, a cycle), the share it gave up on (a
limit stopped it), the solver's and the estimate's time per game (median, mean, slowest) and
their ratio, the slowest games whole, and the issue's reproducers: a 2x8 band open between two
walls on 9x9, and a 52x52 board of 520 lone dame.

    python bench/endgame.py [--every N] [--pro DIR] [--solver UNITS]
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

import sgfcheck.scoring.adjudicate as adjudicate
from sgfcheck.limits import DEFAULT_LIMITS
from sgfcheck.scoring.adjudicate import score_bytes, score_file
from sgfcheck.settings import Settings

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "corpus"
sys.path.insert(0, str(HERE.parent / "tests"))


def figures(values: list[float]) -> str:
    """``median 1.2 ms, mean 3.4 ms, slowest 56.7 ms``."""
    if not values:
        return "-"
    return (f"median {statistics.median(values) * 1000:.2f} ms, mean "
            f"{statistics.fmean(values) * 1000:.2f} ms, slowest {max(values) * 1000:.1f} ms")


def outcome_of(found: object) -> str:
    """How a finish ended (read from its reason where it has no outcome: before the stage)."""
    outcome = getattr(found, "outcome", None)
    if outcome is not None:
        return str(outcome.value)
    why = getattr(found, "why", None) or ""
    for words, name in (("needs more than", "over-work"), ("too large", "too-large"),
                        ("captures a chain", "capture"), ("cycle", "cycle")):
        if words in why:
            return name
    return "solved" if not why else "no-line"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--pro", type=Path, default=SHARED / "pro19")
    parser.add_argument("--solver", type=int, default=DEFAULT_LIMITS.solver)
    args = parser.parse_args()
    if not args.pro.is_dir():
        raise SystemExit(f"no corpus at {args.pro}")
    files = sorted(p for p in args.pro.rglob("*.sgf")
                   if re.search(rb"RE\[[BW]\+[0-9]", p.read_bytes()))[::args.every]
    settings = Settings(compare=("japanese",), engine="none",  # type: ignore[arg-type]
                        limits=replace(DEFAULT_LIMITS, solver=args.solver))
    try:  # the endgame stage; a checkout before it (to measure the same way before and after)
        import sgfcheck.endgame.stage as stage
    except ImportError:
        import sgfcheck.counting.judged as stage  # type: ignore[no-redef]
    finish, estimate = stage.finish, adjudicate.find_dead_stones
    spent: dict[str, float] = {"solver": 0.0, "estimate": 0.0}
    outcomes: list[str] = []

    def timed_finish(*a: object, **k: object) -> object:
        start = time.perf_counter()
        try:
            found = finish(*a, **k)  # type: ignore[arg-type]
            outcomes.append(outcome_of(found))
            return found
        finally:
            spent["solver"] += time.perf_counter() - start

    def timed_estimate(*a: object, **k: object) -> object:
        start = time.perf_counter()
        try:
            return estimate(*a, **k)  # type: ignore[arg-type]
        finally:
            spent["estimate"] += time.perf_counter() - start

    stage.finish = timed_finish  # type: ignore[assignment]
    adjudicate.find_dead_stones = timed_estimate  # type: ignore[assignment]
    solver_time: list[float] = []
    estimate_time: list[float] = []
    whole: list[tuple[float, str]] = []
    games = Counter[str]()
    for path in files:
        spent["solver"] = spent["estimate"] = 0.0
        outcomes.clear()
        start = time.perf_counter()
        score_file(path, settings)
        whole.append((time.perf_counter() - start, str(path.relative_to(args.pro))))
        estimate_time.append(spent["estimate"])
        if outcomes:
            solver_time.append(spent["solver"])
            gave_up = [o for o in outcomes if o in ("over-work", "over-time", "too-large")]
            games["asked"] += 1
            games["gave up"] += bool(gave_up)
            games["solved"] += all(o == "solved" for o in outcomes)
            for o in set(outcomes) - {"solved"}:
                games[o] += 1
    stage.finish, adjudicate.find_dead_stones = finish, estimate  # type: ignore[assignment]
    asked = max(1, games["asked"])
    print(f"pro19 (Fox professional games with a numeric RE), every {args.every}th: "
          f"{len(files)} games, --limit solver={args.solver}")
    print(f"  the solver asked of {games['asked']} games: every way of counting solved "
          f"{games['solved']} ({games['solved'] / asked:.1%}); a limit stopped it in "
          f"{games['gave up']} ({games['gave up'] / asked:.1%})")
    print("  games where a way of counting ended so: " + ", ".join(
        f"{k} {v}" for k, v in sorted(games.items()) if k not in ("asked", "solved", "gave up")))
    print(f"  the solver, a game asked: {figures(solver_time)}")
    print(f"  the estimate, a game:     {figures(estimate_time)}")
    if solver_time and estimate_time:
        print(f"  solver / estimate, mean per game: "
              f"{statistics.fmean(solver_time) / statistics.fmean(estimate_time):.2f}x "
              f"(over every game: {sum(solver_time) / sum(estimate_time):.2f}x)")
    whole.sort(reverse=True)
    print("  slowest games whole (score): " + ", ".join(f"{name} {seconds * 1000:.0f} ms"
                                                       for seconds, name in whole[:3]))
    try:
        from test_endgame import BAND, record, stripes
    except ImportError:  # a checkout before them
        return
    for label, data in (("9x9 open band (2x8)", record(BAND, "B")),
                        ("52x52, 520 lone dame", record(stripes(), "B", ruleset="Chinese"))):
        start = time.perf_counter()
        (game,) = score_bytes(data, "built.sgf", Settings(engine="none")).games  # type: ignore[arg-type]
        took = time.perf_counter() - start
        ended = ", ".join(f"{f.objective.value} {outcome_of(f)} ({f.positions:,} units)"
                          for f in game.finishes)
        print(f"  {label}: score {took * 1000:.0f} ms; {ended}")


if __name__ == "__main__":
    main()
