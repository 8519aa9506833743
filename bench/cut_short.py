"""Finished games cut short: how many verdicts the last points played out decide, and what the
solver costs.

The KGS games of ``../shared/corpus/kgs`` with the players' TB/TW markup and a numeric RE are
finished games whose result both players agreed. Each is cut N board plays before its end (its
markup removed, passes after the cut dropped): a record that stopped with a few dame and borders
open, its right result known. Each cut record is scored as ``sgfcheck score`` scores it with
``--engine none`` (the estimate's dead stones; ``--engine auto``: with the engine's second opinion,
as ``score`` gives it by default with KataGo installed), twice in the same process: with the solver
of the last points off (``--limit solver=0``, the band stands) and on (the default). Printed for
each cut: the share decided (match or mismatch), the mismatches, the games whose RE is the solved
count, and with RE's winner flipped the matches (which must be none). Then the time: the median per
game of the whole scoring, of the estimate of the dead stones alone
(``judge.deadstones.find_dead_stones``) and of the solver alone (``endgame.finish.finish``, each
way of counting), the solver's time on the lines it solved (the games it decides) against the
estimate's, and how often a limit stopped it (work, time, size). ``--solver N,M``: the solver's
budgets measured (units of work; ``--limit solver``), the default's first.

    python bench/cut_short.py [--every N] [--cuts 4,10] [--solver 100000] [--kgs DIR]
                              [--engine auto]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from sgfmill import sgf

import sgfcheck.endgame.stage as stage
import sgfcheck.scoring.adjudicate as adjudicate
from sgfcheck.limits import DEFAULT_LIMITS
from sgfcheck.scoring.adjudicate import score_bytes
from sgfcheck.settings import Settings

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def cut(data: bytes, plays: int) -> bytes:
    """The record's main line up to ``plays`` board plays before its end, without TB/TW."""
    game = sgf.Sgf_game.from_bytes(data)
    seq = game.get_main_sequence()
    at = [i for i, node in enumerate(seq) if node.get_move()[1] is not None]
    keep = at[-plays - 1] + 1 if plays < len(at) else 1
    out = sgf.Sgf_game(game.get_size(), encoding="UTF-8")
    parent = out.get_root()
    for i, node in enumerate(seq[:keep]):
        target = parent if i == 0 else parent.new_child()
        for ident, values in node.get_raw_property_map().items():
            if ident not in ("TB", "TW"):
                target.set_raw_list(ident, values)
        parent = target
    return out.serialise()


def flipped(data: bytes) -> bytes:
    return re.sub(rb"RE\[([BW])\+", lambda m: b"RE[" + (b"W" if m[1] == b"B" else b"B") + b"+",
                  data, count=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--cuts", default="4,10")
    parser.add_argument("--engine", default="none", choices=("none", "auto"),
                        help="none: the estimate alone; auto: with the second opinion")
    parser.add_argument("--kgs", type=Path, default=SHARED / "kgs")
    parser.add_argument("--solver", default=str(DEFAULT_LIMITS.solver),
                        help="the solver budgets measured, comma-separated")
    args = parser.parse_args()
    if not args.kgs.is_dir():
        raise SystemExit(f"no corpus at {args.kgs}")
    files = []
    for path in sorted(args.kgs.rglob("*.sgf")):
        data = path.read_bytes()
        if (b"TB[" in data or b"TW[" in data) and re.search(rb"RE\[[BW]\+[0-9]", data):
            files.append(path)
    files = files[::args.every]
    solver_time: list[float] = []
    solved_time: list[float] = []
    estimate_time: list[float] = []
    finish = stage.finish
    estimate = adjudicate.find_dead_stones
    gave_up: list[bool] = []

    def timed(*a: object, **k: object) -> object:
        start = time.perf_counter()
        found = None
        try:
            found = finish(*a, **k)  # type: ignore[arg-type]
            return found
        finally:
            took = time.perf_counter() - start
            solver_time.append(took)
            if found is not None:
                gave_up.append(found.outcome.gave_up)
                if found.solved:
                    solved_time.append(took)

    def estimated(*a: object, **k: object) -> object:
        start = time.perf_counter()
        try:
            return estimate(*a, **k)  # type: ignore[arg-type]
        finally:
            estimate_time.append(time.perf_counter() - start)

    stage.finish = timed  # type: ignore[assignment]
    adjudicate.find_dead_stones = estimated  # type: ignore[assignment]
    off = Settings(engine=args.engine, limits=replace(DEFAULT_LIMITS, solver=0))  # type: ignore[arg-type]
    budgets = [int(b) for b in args.solver.split(",")]
    modes = [("solver off", off)] + [
        (f"solver {b:,}", Settings(engine=args.engine, limits=replace(DEFAULT_LIMITS, solver=b)))  # type: ignore[arg-type]
        for b in budgets]
    print(f"KGS games with TB/TW markup and a numeric RE, every {args.every}th: {len(files)}")
    for plays in (int(c) for c in args.cuts.split(",")):
        records = [cut(p.read_bytes(), plays) for p in files]
        for label, settings in modes:
            seen: Counter[str] = Counter()
            per_game: list[float] = []
            solver_time.clear()
            solved_time.clear()
            estimate_time.clear()
            gave_up.clear()
            solved = 0
            for data in records:
                start = time.perf_counter()
                (game,) = score_bytes(data, "cut.sgf", settings).games
                per_game.append(time.perf_counter() - start)
                rc = game.result_check
                assert rc is not None
                seen[rc.status.value] += 1
                solved += rc.reproduced == "solved"
            wrong: Counter[str] = Counter()
            for data in records:
                (game,) = score_bytes(flipped(data), "cut.sgf", settings).games
                assert game.result_check is not None
                wrong[game.result_check.status.value] += 1
            n = len(records)
            decided = seen["match"] + seen["mismatch"]
            print(f"  cut {plays:>2} plays, {label}: decided {decided / n:6.1%} (match "
                  f"{seen['match']}, mismatch {seen['mismatch']}, unverifiable "
                  f"{seen['unverifiable']}, solved count = RE {solved}); winner flipped: match "
                  f"{wrong['match']}, mismatch {wrong['mismatch']}")
            def ms(values: list[float]) -> str:
                return f"{statistics.median(values) * 1000:.2f}" if values else "-"

            def most(values: list[float]) -> str:
                return f"{max(values) * 1000:.1f}" if values else "-"

            print(f"      median per game: scoring {ms(per_game)} ms, estimate {ms(estimate_time)} "
                  f"ms (the most {most(estimate_time)}), solver {ms(solver_time)} ms a call "
                  f"({len(solver_time)} calls, the most {most(solver_time)} ms); on the "
                  f"{len(solved_time)} lines it solved {ms(solved_time)} ms (the most "
                  f"{most(solved_time)} ms); a limit stopped {sum(gave_up)} of "
                  f"{len(gave_up)} calls ({sum(gave_up) / max(1, len(gave_up)):.1%})")


if __name__ == "__main__":
    main()
