"""Batch speed: `sgfcheck batch` over the whole shared corpus with --jobs 1 and --jobs 2, and on
a Dask LocalCluster of 1 and 2 worker processes (``--scheduler local``, when the distributed
extra is installed), beside sgfmill's parse + Board.play replay of the same files in the same run;
and --jobs 1 with the pure-Python core (SGFCHECK_PURE=1).

Prints games/s for each, the ratio to sgfmill, the scaling from 1 to 2 jobs (and workers), the
peak resident memory of a worker and of the main process (the client). Each batch runs as its
own process (as a user runs it), writing its JSON Lines report to a temporary folder.

    .venv/bin/python bench/batch_speed.py [--no-dask] [CORPUS_DIR]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from replay_speed import sgfmill_replay

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent.parent / "shared" / "corpus"


def run_batch(corpus: Path, jobs: int, folder: Path, *extra: str, pure: bool = False,
              suffix: str = ".jsonl") -> dict:
    tag = f"{jobs}{'-'.join(extra)}{'-pure' if pure else ''}"
    summary = folder / f"summary-{tag}{suffix}.json"
    out = folder / f"report-{tag}{suffix}"
    cmd = [sys.executable, "-m", "sgfcheck", "batch", str(corpus), "--jobs", str(jobs),
           "--out", str(out), "--summary-json", str(summary), "--fail-on", "never", *extra]
    start = time.perf_counter()
    # The client's own peak memory: GNU time's maximum resident set of the batch process.
    timed = ["/usr/bin/time", "-f", "%M", *cmd] if Path("/usr/bin/time").exists() else cmd
    env = {**os.environ, "SGFCHECK_PURE": "1" if pure else "0"}
    done = subprocess.run(timed, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, env=env)
    wall = time.perf_counter() - start
    data = json.loads(summary.read_text())
    data["wall"] = wall
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    data["client_mb"] = int(last) / 1024 if last.isdigit() else float("nan")
    data["report"] = out
    return data


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--no-dask"]
    dask = "--no-dask" not in sys.argv[1:]
    if dask:
        try:
            import distributed  # noqa: F401
        except ImportError:
            print("distributed extra not installed: no Dask rows", file=sys.stderr)
            dask = False
    corpus = Path(args[0]) if args else DEFAULT
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
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows.append(("--jobs 1", run_batch(corpus, 1, Path(tmp))))
        rows.append(("--jobs 2", run_batch(corpus, 2, Path(tmp))))
        rows.append(("--jobs 1, SGFCHECK_PURE=1", run_batch(corpus, 1, Path(tmp), pure=True)))
        if dask:
            rows.append(("Dask, 1 worker", run_batch(corpus, 1, Path(tmp), "--scheduler",
                                                     "local")))
            rows.append(("Dask, 2 workers", run_batch(corpus, 2, Path(tmp), "--scheduler",
                                                      "local")))
        same = all(r["report"].read_bytes() == rows[0][1]["report"].read_bytes()
                   for _, r in rows)
        parquet = None
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            print("pyarrow not installed: no Parquet row", file=sys.stderr)
        else:
            parquet = run_batch(corpus, 1, Path(tmp), suffix=".parquet")
        print(f"corpus: {len(files)} SGF files in {corpus}")
        print(f"sgfmill parse + Board.play: {games} games in {base_time:.1f} s = "
              f"{base_rate:.0f} games/s ({refused} files refused by sgfmill)")
        for label, s in rows:
            rate = s["games_per_second"]
            print(f"sgfcheck batch {label}: {s['games']} games in {s['elapsed']:.1f} s = "
                  f"{rate:.0f} games/s, {rate / base_rate:.2f}x sgfmill; peak RSS per worker "
                  f"{s['peak_rss_mb_per_worker']:.0f} MB, main process {s['client_mb']:.0f} MB "
                  f"(wall {s['wall']:.1f} s)")
        rate = {label: s["games_per_second"] for label, s in rows}
        print(f"scaling 1 -> 2 jobs: {rate['--jobs 2'] / rate['--jobs 1']:.2f}x")
        if dask:
            print(f"scaling 1 -> 2 Dask workers: "
                  f"{rate['Dask, 2 workers'] / rate['Dask, 1 worker']:.2f}x")
        print(f"every report identical to --jobs 1's (pure core and Dask included): {same}")
        if parquet is not None:
            plain = rows[0][1]
            size = {name: r["report"].stat().st_size / max(1, r["games"])
                    for name, r in (("jsonl", plain), ("parquet", parquet))}
            print(f"--jobs 1 with a Parquet report: {parquet['games_per_second']:.0f} games/s "
                  f"({parquet['games_per_second'] / plain['games_per_second']:.2f}x JSON "
                  f"Lines'), {size['parquet']:.0f} bytes a game against {size['jsonl']:.0f} "
                  f"({size['jsonl'] / size['parquet']:.1f}x smaller)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
