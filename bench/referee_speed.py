"""The referee's map and the count of a final position: compiled core against the Python
reference, in the same process.

Takes the final position and the players' dead stones of every KGS game with TB/TW markup in
../shared/corpus/kgs/, then times, per position: the referee's map (compiled and pure, checking
that both give the same map), and the whole count (the position analysed and counted under
japanese, chinese and aga), and prints the medians and the ratio.

    .venv/bin/python bench/referee_speed.py [CORPUS_DIR]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from sgfcheck import core
from sgfcheck.counting.count import count
from sgfcheck.position.analysis import analyse
from sgfcheck.position.referee import referee_map, referee_map_pure
from sgfcheck.replay.board import Board
from sgfcheck.replay.replay import Replay
from sgfcheck.rules.presets import AGA, CHINESE, JAPANESE
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import DeadStoneChoice, Settings

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent.parent / "shared" / "corpus" / "kgs"


def median_ms(times: list[float]) -> float:
    return 1000 * statistics.median(times)


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not root.is_dir():
        print(f"corpus not found: {root}", file=sys.stderr)
        return 2
    if core.BUILT is None:
        print("the compiled core is not built: nothing to compare", file=sys.stderr)
        return 2
    settings = Settings(dead_stones=DeadStoneChoice.MARKUP)
    positions: list[tuple[Board, set[int], Replay]] = []
    for path in sorted(root.rglob("*.sgf")):
        if b"TW[" not in path.read_bytes():
            continue
        for game in score_file(path, settings).games:
            rep = game.check.replay
            if game.position is not None and game.dead is not None and rep is not None:
                board = game.position.board
                if board.width == board.height == 19:
                    positions.append((board, set(game.dead.points), rep))
    compiled, pure, counts = [], [], []
    differ = 0
    for board, dead, rep in positions:
        args = (board.colour, dead, board.width, board.height, board.neighbours)
        start = time.perf_counter()
        fast = referee_map(*args)
        compiled.append(time.perf_counter() - start)
        start = time.perf_counter()
        slow = referee_map_pure(*args)
        pure.append(time.perf_counter() - start)
        differ += fast != slow
        start = time.perf_counter()
        position = analyse(board, dead)
        for ruleset in (JAPANESE, CHINESE, AGA):
            count(position, rep, ruleset, 0)
        counts.append(time.perf_counter() - start)
    print(f"19x19 final positions with the players' dead stones: {len(positions)}")
    print(f"referee's map, compiled:  {median_ms(compiled):.3f} ms (median)")
    print(f"referee's map, Python:    {median_ms(pure):.3f} ms (median) -> compiled "
          f"{statistics.median(pure) / statistics.median(compiled):.1f}x faster")
    print(f"maps that differ: {differ}")
    print(f"whole count (analyse + japanese, chinese, aga): {median_ms(counts):.3f} ms (median), "
          f"max {1000 * max(counts):.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
