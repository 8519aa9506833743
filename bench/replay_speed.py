"""Replay speed: sgfcheck (parse + replay with positional superko) vs sgfmill (parse + Board.play).

Replays every 19x19 game of ../shared/corpus/kgs/ both ways, in the same process, alternating per
game so that both see the same machine state, and prints the median time per game, games/s and
the ratio. A third column is sgfmill with a naive superko check (a set of board snapshots), the
cheapest way to add what sgfmill lacks.

    .venv/bin/python bench/replay_speed.py [--limit N] [CORPUS_DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from sgfmill import sgf, sgf_moves

from sgfcheck.records import load_bytes
from sgfcheck.replay import replay
from sgfcheck.rules import PRESETS, KoRule

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus" / "kgs"


def sgfmill_replay(data: bytes) -> int:
    game = sgf.Sgf_game.from_bytes(data)
    board, plays = sgf_moves.get_setup_and_moves(game)
    for colour, move in plays:
        if move is None:
            continue
        row, col = move
        try:  # noqa: SIM105 - plain try is the cheapest baseline
            board.play(row, col, colour)
        except ValueError:
            pass
    return len(plays)


def sgfmill_naive_superko(data: bytes) -> int:
    game = sgf.Sgf_game.from_bytes(data)
    board, plays = sgf_moves.get_setup_and_moves(game)
    seen = set()
    repeats = 0
    for colour, move in plays:
        if move is None:
            continue
        row, col = move
        try:  # noqa: SIM105 - plain try is the cheapest baseline
            board.play(row, col, colour)
        except ValueError:
            pass
        snapshot = tuple(tuple(r) for r in board.board)
        if snapshot in seen:
            repeats += 1
        seen.add(snapshot)
    return repeats


PSK = PRESETS["japanese"].__class__(**{**PRESETS["japanese"].__dict__, "ko": KoRule.POSITIONAL})


def sgfcheck_replay(data: bytes) -> int:
    loaded = load_bytes(data)
    total = 0
    for game in loaded.games:
        rep = replay(game, game.main_line(), PSK)
        total += rep.moves
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=0, help="only the first N games")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    files = sorted(args.corpus.rglob("*.sgf"))
    datas = []
    for path in files:
        data = path.read_bytes()
        if b"SZ[19]" in data or b"SZ[" not in data:
            datas.append(data)
    if args.limit:
        datas = datas[: args.limit]
    # Warm up both paths (imports, caches).
    for data in datas[:50]:
        sgfmill_replay(data)
        sgfcheck_replay(data)
    timings: dict[str, list[float]] = {"sgfmill": [], "sgfmill+naive": [], "sgfcheck": []}
    skipped = 0
    clock = time.perf_counter
    for data in datas:
        try:  # noqa: SIM105 - plain try is the cheapest baseline
            t0 = clock()
            sgfmill_replay(data)
            t1 = clock()
            sgfmill_naive_superko(data)
            t2 = clock()
        except ValueError:
            skipped += 1  # sgfmill refuses the file; leave it out of every column
            continue
        sgfcheck_replay(data)
        t3 = clock()
        timings["sgfmill"].append(t1 - t0)
        timings["sgfmill+naive"].append(t2 - t1)
        timings["sgfcheck"].append(t3 - t2)
    n = len(timings["sgfcheck"])
    print(f"games: {n} 19x19 games from {args.corpus} ({skipped} refused by sgfmill, left out)")
    base = statistics.median(timings["sgfmill"])
    print(f"{'':34}{'median ms/game':>15}{'games/s':>10}{'total s':>9}{'speed vs sgfmill':>18}")
    labels = {
        "sgfmill": "sgfmill parse + Board.play",
        "sgfmill+naive": "sgfmill + naive superko set",
        "sgfcheck": "sgfcheck parse + replay (PSK)",
    }
    for key, label in labels.items():
        med = statistics.median(timings[key])
        total = sum(timings[key])
        print(f"{label:34}{med * 1000:>15.3f}{n / total:>10.0f}{total:>9.2f}{base / med:>17.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
