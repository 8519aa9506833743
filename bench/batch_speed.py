"""Batch speed: `sgfcheck batch` over the whole shared corpus with --jobs 1 and --jobs 2, beside
sgfmill's parse + Board.play replay of the same files in the same run.

Prints games/s for each, the ratio to sgfmill, the scaling from 1 to 2 jobs, and the peak
resident memory of a worker. Each batch runs as its own process (as a user runs it), writing its
JSON Lines report to a temporary folder.

    .venv/bin/python bench/batch_speed.py [CORPUS_DIR]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from replay_speed import sgfmill_replay

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent.parent / "shared" / "corpus"


def run_batch(corpus: Path, jobs: int, folder: Path) -> dict:
    summary = folder / f"summary-{jobs}.json"
    out = folder / f"report-{jobs}.jsonl"
    cmd = [sys.executable, "-m", "sgfcheck", "batch", str(corpus), "--jobs", str(jobs),
           "--out", str(out), "--summary-json", str(summary), "--fail-on", "never"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    data = json.loads(summary.read_text())
    data["wall"] = wall
    return data


def main() -> int:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not corpus.is_dir():
        print(f"corpus not found: {corpus}", file=sys.stderr)
        return 2
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() == ".sgf")
    datas = [p.read_bytes() for p in files]
    start = time.perf_counter()
    games = refused = 0
    for data in datas:
        try:
            sgfmill_replay(data)
            games += 1
        except Exception:  # noqa: BLE001 - sgfmill refuses many real files
            refused += 1
    base_time = time.perf_counter() - start
    base_rate = games / base_time
    with tempfile.TemporaryDirectory() as tmp:
        one = run_batch(corpus, 1, Path(tmp))
        two = run_batch(corpus, 2, Path(tmp))
    print(f"corpus: {len(files)} SGF files in {corpus}")
    print(f"sgfmill parse + Board.play: {games} games in {base_time:.1f} s = {base_rate:.0f} "
          f"games/s ({refused} files refused by sgfmill)")
    for label, s in (("--jobs 1", one), ("--jobs 2", two)):
        rate = s["games_per_second"]
        print(f"sgfcheck batch {label}: {s['games']} games in {s['elapsed']:.1f} s = {rate:.0f} "
              f"games/s, {rate / base_rate:.2f}x sgfmill; peak RSS per worker "
              f"{s['peak_rss_mb_per_worker']:.0f} MB (wall {s['wall']:.1f} s)")
    print(f"scaling 1 -> 2 jobs: {two['games_per_second'] / one['games_per_second']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
