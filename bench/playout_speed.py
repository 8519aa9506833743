"""Playout speed: playouts per second from 19x19 end positions, compiled core vs the pure-Python
reference (the playouts of sgfmill's bare board do not exist, so the reference is ours), in the
same process, on the same positions and seeds - the counts are identical both ways.

    .venv/bin/python bench/playout_speed.py [--games N] [--playouts N] [CORPUS_DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sgfcheck import core
from sgfcheck.judge.playout import Playouts
from sgfcheck.records.record import load_bytes
from sgfcheck.replay.replay import replay
from sgfcheck.rules.presets import PRESETS

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus" / "kgs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=64, help="per position and core")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    if core.BUILT is None:
        print(f"{core.describe()}: nothing to compare", file=sys.stderr)
        return 2
    boards = []
    for path in sorted(args.corpus.rglob("*.sgf")):
        game = load_bytes(path.read_bytes(), str(path)).games[0]
        if (game.width, game.height) != (19, 19):
            continue
        boards.append(replay(game, game.main_line(), PRESETS["japanese"]).board)
        if len(boards) == args.games:
            break
    took: dict[str, float] = {}
    same = True
    for name in ("pure", "compiled"):
        with core.using(name):
            start = time.perf_counter()
            runs = [Playouts(board, seed=i) for i, board in enumerate(boards)]
            for run in runs:
                run.run(args.playouts)
            took[name] = time.perf_counter() - start
        if name == "pure":
            reference = [(r.black, r.white) for r in runs]
        else:
            same = reference == [(r.black, r.white) for r in runs]
    total = args.playouts * len(boards)
    print(f"{len(boards)} 19x19 end positions from {args.corpus}, {args.playouts} playouts each")
    for name in ("pure", "compiled"):
        print(f"  {name:9} {total / took[name]:9.0f} playouts/s")
    print(f"  compiled / pure: {took['pure'] / took['compiled']:.1f}x; "
          f"ownership counts identical: {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
