"""The unmarked archive: ``sgfcheck batch --jobs 1 --dead-stones estimate --engine none`` over
1,000 professional records of the shared corpus (``pro19``, no dead-stone markup: every game's
dead stones are judged), the whole command as a user runs it, against sgfmill's parse +
Board.play replay of the same bytes in the same run (target of issue 64: 0.3x sgfmill).

Figures, sgfmill's and sgfcheck's runs alternating so that both see the same machine:

- the whole command: the median of ``--runs`` wall times, and sgfmill's time over it; the
  same with ``--jobs 2``, and its speed-up over ``--jobs 1`` (target 1.8x on two cores);
- one file at a time in this process (``score_loaded`` of the batch's settings, the read
  included): the median, mean and slowest milliseconds a file, and sgfmill's per file.

``--against CHECKOUT`` runs another checkout's ``sgfcheck`` (a ``git worktree`` with its own
virtual environment: ``CHECKOUT/.venv/bin/sgfcheck``) beside this one for the whole command, and
says whether the two reports hold the same rows (parsed).

    .venv/bin/python bench/estimate_speed.py [--files 1000] [--runs 3] [--against CHECKOUT]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from replay_speed import sgfmill_replay

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
SEED = 64
BATCH = ["batch", "--dead-stones", "estimate", "--engine", "none", "--fail-on", "never",
         "--quiet"]


def sample(files: int) -> list[Path]:
    pro = sorted((CORPUS / "pro19").rglob("*.sgf"))
    return sorted(random.Random(SEED).sample(pro, min(files, len(pro))))


def sgfmill_each(datas: list[bytes]) -> list[float]:
    out = []
    for data in datas:
        start = time.perf_counter()
        try:  # noqa: SIM105 - a plain try is the cheapest baseline
            sgfmill_replay(data)
        except Exception:  # noqa: BLE001 - sgfmill refuses some real files
            pass
        out.append(time.perf_counter() - start)
    return out


def sgfcheck_each(datas: list[bytes]) -> list[float]:
    from sgfcheck.records.record import load_bytes
    from sgfcheck.run.batch import BatchOptions
    from sgfcheck.run.reportfile import ReportKind
    from sgfcheck.scoring.adjudicate import score_loaded
    from sgfcheck.settings import DeadStoneChoice, EngineName

    options = BatchOptions.of(report_kind=ReportKind.JSONL, jobs=1,
                              dead_stones=DeadStoneChoice.ESTIMATE, engine=EngineName.NONE)
    settings = options.settings
    out = []
    for data in datas:
        start = time.perf_counter()
        loaded = load_bytes(data, "x.sgf", settings.encoding, settings.limits)
        score_loaded(loaded, settings, compare=False)
        out.append(time.perf_counter() - start)
    return out


def whole(command: list[str], folder: Path, report: Path, jobs: int = 1) -> float:
    start = time.perf_counter()
    subprocess.run([*command, *BATCH, "--jobs", str(jobs), str(folder), "--out", str(report)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def rows(report: Path) -> list[object]:
    """The report's rows, parsed (they carry no timings)."""
    return [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout, measured beside")
    args = parser.parse_args()
    if not (CORPUS / "pro19").is_dir():
        print(f"shared corpus not found at {CORPUS}")
        return 1
    paths = sample(args.files)
    datas = [p.read_bytes() for p in paths]
    ours = [sys.executable, "-m", "sgfcheck"]
    theirs = [str(args.against / ".venv" / "bin" / "sgfcheck")] if args.against else None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "records"
        folder.mkdir()
        for k, data in enumerate(datas):  # a flat folder: the same files for every run
            (folder / f"{k:05d}.sgf").write_bytes(data)
        base, mine, other, two = [], [], [], []
        for _ in range(args.runs):
            base.append(sum(sgfmill_each(datas)))
            mine.append(whole(ours, folder, Path(tmp) / "ours.jsonl"))
            two.append(whole(ours, folder, Path(tmp) / "two.jsonl", jobs=2))
            if theirs is not None:
                other.append(whole(theirs, folder, Path(tmp) / "theirs.jsonl"))
        sgfmill = statistics.median(base)
        print(f"{len(datas)} pro19 records; sgfmill parse + replay {sgfmill:.2f} s "
              f"({sgfmill / len(datas) * 1000:.2f} ms a file)")
        print(f"batch --dead-stones estimate, whole command: {statistics.median(mine):.2f} s, "
              f"{sgfmill / statistics.median(mine):.3f}x sgfmill")
        same = rows(Path(tmp) / "two.jsonl") == rows(Path(tmp) / "ours.jsonl")
        print(f"  --jobs 2: {statistics.median(two):.2f} s, "
              f"{statistics.median(mine) / statistics.median(two):.2f}x --jobs 1; the same rows: "
              f"{'yes' if same else 'NO'}")
        if theirs is not None:
            print(f"  {args.against}: {statistics.median(other):.2f} s, "
                  f"{sgfmill / statistics.median(other):.3f}x sgfmill")
            same = rows(Path(tmp) / "ours.jsonl") == rows(Path(tmp) / "theirs.jsonl")
            print(f"  the two reports hold the same rows: {'yes' if same else 'NO'}")
    each = sgfcheck_each(datas)
    mill = sgfmill_each(datas)
    ms = [t * 1000 for t in each]
    print(f"one file at a time (read, check, judge, count, verdict): median "
          f"{statistics.median(ms):.1f} ms, mean {statistics.mean(ms):.1f} ms, slowest "
          f"{max(ms):.0f} ms "
          f"({paths[ms.index(max(ms))].relative_to(CORPUS)}); sgfmill median "
          f"{statistics.median(mill) * 1000:.2f} ms, mean {statistics.mean(mill) * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
