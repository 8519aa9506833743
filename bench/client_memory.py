"""The main process's memory as an archive grows: `sgfcheck batch` over 10^4 and 10^5 records.

Writes N small distinct games (a few dozen moves each, every one different) into a temporary
folder and runs `sgfcheck batch` over it as a user does, under GNU time, for each N: on the
local pool (--jobs 2), on a Dask LocalCluster (--scheduler local --jobs 2; the scheduler runs in
the main process too), and with --out-dir on the cluster. Prints the main process's peak
resident memory (MB) and the games/s of each run. Flat means: the 10^5 run's peak about the
10^4 run's, though it wrote ten times the rows.

    .venv/bin/python bench/client_memory.py [--sizes 10000,100000]
        [--modes local,dask,external,parts]

Mode ``external`` starts a Dask scheduler and two workers as processes of their own, so that the
main process is the client alone (with ``--scheduler local`` it also runs the scheduler).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LETTERS = "abcdefghijklmnopqrs"


def game(rng: random.Random) -> bytes:
    """A legal-looking opening of 30-60 moves on distinct points."""
    points = rng.sample([a + b for a in LETTERS for b in LETTERS], rng.randint(30, 60))
    moves = "".join(f";{'BW'[i % 2]}[{p}]" for i, p in enumerate(points))
    return f"(;GM[1]FF[4]SZ[19]KM[6.5]RU[Japanese]RE[B+R]{moves})".encode()


def write_games(folder: Path, n: int) -> None:
    rng = random.Random(n)
    per = 1000
    for i in range(n):
        sub = folder / f"{i // per:04d}"
        if i % per == 0:
            sub.mkdir()
        (sub / f"g{i:07d}.sgf").write_bytes(game(rng))


def run(folder: Path, out: Path, mode: str, address: str | None) -> tuple[float, float, int]:
    cmd = [sys.executable, "-m", "sgfcheck", "batch", str(folder), "--jobs", "2", "-q",
           "--fail-on", "never", "--summary-json", str(out.with_suffix(".summary.json"))]
    if mode == "local":
        cmd += ["--out", str(out)]
    elif mode == "dask":
        cmd += ["--out", str(out), "--scheduler", "local"]
    elif mode == "external":
        cmd += ["--out", str(out), "--scheduler", str(address)]
    else:
        cmd += ["--out-dir", str(out), "--part-size", "1000", "--scheduler", "local"]
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], check=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    peak_kb = int(done.stderr.strip().splitlines()[-1])
    summary = json.loads(out.with_suffix(".summary.json").read_text())
    return peak_kb / 1024, wall, int(summary["games"])


@contextmanager
def cluster_outside(tmp: Path, wanted: bool) -> Iterator[str | None]:
    """A scheduler and 2 one-thread workers as processes of their own (mode ``external``: the
    main process is then the client alone)."""
    if not wanted:
        yield None
        return
    info = tmp / "scheduler.json"
    module = [sys.executable, "-m"]
    scheduler = subprocess.Popen([*module, "distributed.cli.dask_scheduler",
                                  "--scheduler-file", str(info), "--dashboard-address", ":0"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        if info.exists() and info.stat().st_size:
            break
        time.sleep(0.1)
    workers = subprocess.Popen([*module, "distributed.cli.dask_worker", "--scheduler-file",
                                str(info), "--nworkers", "2", "--nthreads", "1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        address = json.loads(info.read_text())["address"]
        from distributed import Client

        with Client(address) as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        workers.terminate()
        scheduler.terminate()
        workers.wait(30)
        scheduler.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--modes", default="local,dask,external,parts")
    args = parser.parse_args()
    if not Path("/usr/bin/time").exists():
        print("needs GNU time (/usr/bin/time; Debian package time)", file=sys.stderr)
        return 2
    sizes = [int(s) for s in args.sizes.split(",")]
    modes = args.modes.split(",")
    with tempfile.TemporaryDirectory() as tmp, cluster_outside(Path(tmp), "external" in modes
                                                               ) as address:
        for n in sizes:
            folder = Path(tmp) / f"games-{n}"
            folder.mkdir()
            write_games(folder, n)
            for mode in modes:
                out = Path(tmp) / f"out-{n}-{mode}" / "report.jsonl"
                out.parent.mkdir()
                if mode == "parts":
                    out = out.parent / "parts"
                peak, wall, games = run(folder, out, mode, address)
                print(f"{n:>7} records, {mode:>5}: main process peak {peak:6.1f} MB, "
                      f"{games} games in {wall:.1f} s ({games / wall:.0f} games/s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
