"""The game page (``sgfcheck view``): its cost against the game's length.

For a few 19x19 games of about 300 moves from ../shared/corpus/kgs/, in one process: the page
of the whole game, and the page of the same game cut to its first 100 moves (the record
re-written with only those moves), each the median of a few runs after the record is checked
and scored (what ``view`` does before the page). A page whose cost is linear in the game's
length takes about 3 times as long for 300 moves as for 100. At that length the compiled replay
hid the quadratic cost of a replay to each move; a long game shows it: a generated game of 20,002
moves (passes), then an illegal move (38.7 s with a replay to each move, 1.1 s in one pass).

    .venv/bin/python bench/gamepage.py [--games N] [--runs N]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from pathlib import Path

from sgfcheck.output.gamepage import game_page
from sgfcheck.records.record import load_bytes
from sgfcheck.replay.check import check_loaded
from sgfcheck.replay.story import story_of
from sgfcheck.rules.presets import PRESETS
from sgfcheck.scoring.adjudicate import score_game
from sgfcheck.settings import DeadStoneChoice, Settings

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "kgs"
SETTINGS = Settings(dead_stones=DeadStoneChoice.MARKUP, compare=tuple(PRESETS))
MOVE = re.compile(rb";\s*[BW]\[[a-s]{0,2}\]")


def cut(data: bytes, moves: int) -> bytes:
    """The record with its first ``moves`` moves only (its root kept, markup dropped)."""
    found = list(MOVE.finditer(data))
    if len(found) <= moves:
        return data
    return data[:found[moves].start()] + b")"


def page_seconds(data: bytes, name: str, runs: int) -> float:
    loaded = load_bytes(data, name, None, SETTINGS.limits)
    report = check_loaded(loaded, SETTINGS).games[0]
    scored = score_game(report, SETTINGS)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        game_page(name, report, scored, story_of(report))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"{CORPUS} is absent: nothing to measure")
        return 1
    chosen = []
    for path in sorted(CORPUS.rglob("*.sgf")):
        data = path.read_bytes()
        if b"SZ[19]" in data and 290 <= len(MOVE.findall(data)) <= 320:
            chosen.append((path, data))
        if len(chosen) == args.games:
            break
    ratios = []
    for path, data in chosen:
        whole = page_seconds(data, path.name, args.runs)
        short = page_seconds(cut(data, 100), path.name, args.runs)
        ratios.append(whole / short)
        print(f"{path.name}: {len(MOVE.findall(data))} moves {whole * 1000:.0f} ms, "
              f"100 moves {short * 1000:.0f} ms, ratio {whole / short:.2f}")
    print(f"median ratio, whole game / first 100 moves: {statistics.median(ratios):.2f} "
          "(linear: about 3)")
    long = b"(;GM[1]FF[4]SZ[9]RE[B+R];B[ee]" + b";W[];B[]" * 10_000 + b";W[ee])"
    print(f"20,002 moves then an illegal one: {page_seconds(long, 'long.sgf', 1):.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
