"""The engine's second opinion on a busy machine: the same rows, and what it costs.

Runs ``sgfcheck batch --dead-stones auto --jobs 1`` (the default ``--engine auto``) over N
professional Fox games of ``../shared/corpus/pro19`` (no markup: every game's dead stones are
judged, and the verdicts the estimate leaves open or would make alarms go to the engine) twice:
once on a quiet machine, once beside a CPU burner that keeps every core busy. The two reports
must be identical row for row (a verdict never depends on the machine's load: the engines'
effort is fixed in work, their time bounds are safeties). Prints, for each run, the games, how
many were asked of an engine and the seconds it took (from the summary), the seconds per game
asked, and the whole run's time; then whether the rows are the same.

    python bench/engine_load.py [--files 100] [--every 7] [--burners 0 (one per core)]

KataGo (``sgfcheck engines install katago``) or GNU Go must be installed for the engine to be
asked; without either, the runs show the built-in judge alone (said so).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sgfcheck.scoring.secondopinion import second_judge

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "corpus"
NUMERIC_RE = re.compile(rb"RE\[[BW]\+[0-9]")


def burn(stop: Any) -> None:
    """Keep one core busy until told to stop."""
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF


def run(files: list[Path], folder: Path, name: str) -> tuple[list[str], dict[str, object], float]:
    out = folder / f"{name}.jsonl"
    summary = folder / f"{name}-summary.json"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "sgfcheck", "batch", "-",
                           "--dead-stones", "auto", "--jobs", "1", "--out", str(out),
                           "--summary-json", str(summary), "-q", "--fail-on", "never"],
                          input="\n".join(str(f) for f in files) + "\n",
                          capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"batch failed ({done.returncode}): {done.stderr[-2000:]}")
    rows = out.read_text().splitlines()
    said: dict[str, object] = json.loads(summary.read_text())
    return rows, said, took


def describe(name: str, rows: list[str], said: dict[str, object], took: float) -> None:
    summary = said.get("summary", said)
    assert isinstance(summary, dict)
    engine = summary.get("engine") or {}
    assert isinstance(engine, dict)
    asked, seconds = int(engine.get("games", 0)), float(engine.get("seconds", 0.0))
    refused = int(engine.get("refused", 0))
    verdicts: dict[str, int] = {}
    for line in rows:
        check = json.loads(line).get("result_check") or {}
        status = check.get("status", "none") if isinstance(check, dict) else "none"
        verdicts[status] = verdicts.get(status, 0) + 1
    per = seconds / asked if asked else 0.0
    print(f"{name}: {len(rows)} rows in {took:.1f} s; positions asked of an engine {asked} "
          f"({seconds:.1f} s, {per:.2f} s each, engine start included), not asked for want "
          f"of time {refused}; verdicts {dict(sorted(verdicts.items()))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--every", type=int, default=7, help="take every N-th game file")
    parser.add_argument("--pro", type=Path, default=SHARED / "pro19")
    parser.add_argument("--burners", type=int, default=0,
                        help="busy processes beside the second run (0: one per core)")
    options = parser.parse_args()
    if not options.pro.is_dir():
        raise SystemExit(f"corpus not found: {options.pro}")
    files = sorted(p for p in options.pro.rglob("*.sgf") if NUMERIC_RE.search(p.read_bytes()))
    files = files[::options.every][:options.files]
    judge = second_judge()
    print(f"{len(files)} pro19 records; second judge: "
          f"{judge.value if judge else 'none installed (the built-in judge alone)'}; "
          f"{os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        quiet = run(files, folder, "quiet")
        describe("quiet", *quiet)
        stop = multiprocessing.Event()
        burners = [multiprocessing.Process(target=burn, args=(stop,), daemon=True)
                   for _ in range(options.burners or os.cpu_count() or 2)]
        for process in burners:
            process.start()
        try:
            busy = run(files, folder, "busy")
        finally:
            stop.set()
            for process in burners:
                process.join(timeout=5)
        describe(f"busy ({len(burners)} burners)", *busy)
    differ = [i for i, (a, b) in enumerate(zip(quiet[0], busy[0], strict=True)) if a != b]
    print(f"rows identical: {'yes' if not differ else 'NO'} ({len(differ)} of {len(quiet[0])} "
          f"differ{': rows ' + ', '.join(map(str, differ[:10])) if differ else ''})")
    print(f"time busy / quiet: {busy[2] / quiet[2]:.2f}x")
    for i in differ[:3]:
        a, b = json.loads(quiet[0][i]), json.loads(busy[0][i])
        keys = [k for k in a if a.get(k) != b.get(k)]
        print(f"  row {i} ({a.get('path')}): differs in {', '.join(keys)}")
    if differ:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
