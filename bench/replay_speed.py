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

from sgfmill import boards as sgfmill_boards
from sgfmill import sgf, sgf_moves

from sgfcheck import core
from sgfcheck.records.record import load_bytes
from sgfcheck.replay.replay import replay
from sgfcheck.rules.presets import PRESETS
from sgfcheck.rules.ruleset import KoRule

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
        if move is not None:  # each position after a move, kept whole: the naive way
            try:  # noqa: SIM105 - plain try is the cheapest baseline
                board.play(move[0], move[1], colour)
            except ValueError:
                pass
            snapshot = tuple(tuple(r) for r in board.board)
            repeats += snapshot in seen
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
    per_move = replay_per_move(datas)
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
    print()
    print("replay alone, per move (parsing excluded; the same games, moves played on the board):")
    sgfmill_us = per_move["sgfmill"]
    for key, label in (("sgfmill", "sgfmill Board.play"),
                       ("compiled", f"sgfcheck replay (PSK), {core.describe()}"),
                       ("pure", "sgfcheck replay (PSK), pure-Python core")):
        if key in per_move:
            print(f"  {label:64}{per_move[key]:8.3f} us/move  {sgfmill_us / per_move[key]:6.2f}x")
    return 0


def replay_per_move(datas: list[bytes]) -> dict[str, float]:
    """Microseconds per move of the replay alone: sgfmill's Board.play over its parsed moves,
    sgfcheck's replay (positional superko) with each core, on the same parsed games."""
    games = []
    for data in datas:
        try:
            game = sgf.Sgf_game.from_bytes(data)
            board, plays = sgf_moves.get_setup_and_moves(game)
        except ValueError:
            continue
        loaded = load_bytes(data)
        if not loaded.games:
            continue
        record = loaded.games[0]
        games.append((board.side, plays, record, record.main_line()))
    moves = sum(len(plays) for _, plays, _, _ in games)
    clock = time.perf_counter
    t0 = clock()
    for size, plays, _, _ in games:
        board = sgfmill_boards.Board(size)
        for colour, move in plays:
            if move is None:
                continue
            try:  # noqa: SIM105 - plain try is the cheapest baseline
                board.play(move[0], move[1], colour)
            except ValueError:
                pass
    out = {"sgfmill": (clock() - t0) / moves * 1e6}
    for key in ("compiled", "pure") if core.BUILT is not None else ("pure",):
        with core.using(key):
            t0 = clock()
            for _, _, record, line in games:
                replay(record, line, PSK)
            out[key] = (clock() - t0) / moves * 1e6
    return out


if __name__ == "__main__":
    sys.exit(main())
