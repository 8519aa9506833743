"""Pictures: the cost of a diagram and the size of a five-ruleset page, on real 19x19 games.

For every 19x19 game of ../shared/corpus/kgs/ (markup dead stones, as the players agreed), in
one process, alternating per game:

- baseline: sgfmill's parse + ``Board.play`` replay of the same record;
- diagram: what ``sgfcheck diagram`` does after start-up: parse, check, replay, judge, count,
  and draw the SVG (``scored_picture`` + ``render_svg``);
- drawing alone: ``scored_picture`` + ``render_svg`` of the scored position;
- page: ``score --format html`` with the default five rows (the game's own ruleset and four
  more), its size.

Prints medians and the 95th percentile, and the ratio of the diagram to the baseline; then
times the whole ``sgfcheck diagram`` command (a new process: start-up and imports included)
on a few games.

    .venv/bin/python bench/pictures.py [--limit N] [CORPUS_DIR]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from replay_speed import sgfmill_replay

from sgfcheck.output.diagrams import scored_picture
from sgfcheck.output.html import score_page
from sgfcheck.output.svg import render_svg
from sgfcheck.records.record import load_bytes
from sgfcheck.replay.check import check_loaded
from sgfcheck.scoring.adjudicate import FileScore, score_game, score_loaded
from sgfcheck.settings import DeadStoneChoice, Settings

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus" / "kgs"
OPTIONS = Settings(dead_stones=DeadStoneChoice.MARKUP)


def diagram(data: bytes) -> tuple[str, object] | None:
    loaded = load_bytes(data, "bench.sgf")
    checked = check_loaded(loaded, Settings())
    if not checked.games:
        return None
    game = score_game(checked.games[0], OPTIONS)
    if not game.scores:
        return None
    return render_svg(scored_picture(game, game.scores[0])), game


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--dead-stones", default="markup", choices=["markup", "estimate"],
                        help="markup: the players' dead stones; estimate: markup hidden")
    args = parser.parse_args()
    global OPTIONS
    OPTIONS = Settings(dead_stones=DeadStoneChoice(args.dead_stones))
    files = sorted(args.corpus.rglob("*.sgf"))
    if not files:
        print(f"no records under {args.corpus}", file=sys.stderr)
        return 2
    base, full, draw, sizes, stones = [], [], [], [], []
    used = []
    for path in files:
        if len(used) >= args.limit:
            break
        data = path.read_bytes()
        if b"SZ[19]" not in data:
            continue
        t0 = time.perf_counter()
        sgfmill_replay(data)
        t1 = time.perf_counter()
        made = diagram(data)
        t2 = time.perf_counter()
        if made is None:
            continue
        svg, game = made
        t3 = time.perf_counter()
        render_svg(scored_picture(game, game.scores[0]))  # type: ignore[attr-defined]
        t4 = time.perf_counter()
        page = score_page([_file_score(data)])
        base.append(t1 - t0)
        full.append(t2 - t1)
        draw.append(t4 - t3)
        sizes.append(len(page.encode("utf-8")))
        stones.append(svg.count('class="stone '))
        used.append(path)
    n = len(used)
    print(f"19x19 KGS games: {n} ({args.dead_stones} dead stones), "
          f"{statistics.median(stones):.0f} stones on the board (median)")
    print(f"baseline sgfmill parse + replay   median {statistics.median(base) * 1e3:6.2f} ms")
    print(f"diagram (parse..SVG), in process  median {statistics.median(full) * 1e3:6.2f} ms, "
          f"p95 {pct(full, 0.95) * 1e3:6.2f} ms, max {max(full) * 1e3:6.2f} ms  "
          f"({statistics.median(full) / statistics.median(base):.2f}x the baseline)")
    print(f"drawing alone (picture + SVG)     median {statistics.median(draw) * 1e3:6.2f} ms, "
          f"max {max(draw) * 1e3:6.2f} ms")
    print(f"score page, five rulesets         median {statistics.median(sizes) / 1024:6.1f} KB, "
          f"max {max(sizes) / 1024:6.1f} KB")
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in used[:10]:
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "sgfcheck", "diagram", str(path),
                            "--dead-stones", args.dead_stones, "-o", f"{tmp}/d.svg"], check=True,
                           capture_output=True)
            runs.append(time.perf_counter() - t0)
    print(f"sgfcheck diagram command (new process, {len(runs)} games) median "
          f"{statistics.median(runs) * 1e3:.0f} ms (start-up and imports included)")
    return 0


def _file_score(data: bytes) -> FileScore:
    return score_loaded(load_bytes(data, "bench.sgf"), OPTIONS)


if __name__ == "__main__":
    sys.exit(main())
