"""Batch speed: ``sgfcheck batch --jobs 1`` over 3,000 KGS records of the shared corpus, the
whole command as a user runs it (a new process, its start-up included), against sgfmill's
parse + Board.play replay of the same bytes in the same run; where a worker's time goes, stage
by stage; the start-up; the scaling to ``--jobs 2``.

Figures (medians of ``--runs`` runs, sgfmill's and sgfcheck's alternating so that both see the
same machine):

- the whole command: its wall time and the ratio of sgfmill's time to it (target: 3x); the
  same with a CSV report and with no report;
- the stages of one worker, in one process, per file (each block's mean, the median over the
  blocks and runs): reading the record (``load_bytes``; within it, the SGF reader alone against
  sgfmill's ``parse_sgf_collection`` on the same bytes, target 10x), the replay and its checks
  (``checked_file``), the counts and the verdicts (``score_loaded`` less the checks; within it,
  the game's own ruleset alone, without the table of every ruleset a JSON Lines row holds), the
  rows and the rest of the worker's work (``_process`` less the two); the whole worker, and the
  same with no report (no rows, the game's own ruleset alone: ``batch`` without ``--out``);
- start-up: ``sgfcheck --version`` and ``batch`` of one record as new processes, and the share
  of the whole command the second is;
- ``--jobs 2``: the games a second of the run's own summary, 2 jobs against 1 (target 1.8x).

``--against CHECKOUT`` measures another checkout of sgfcheck (a ``git worktree`` of an earlier
commit, its compiled core copied in) in the same run, each figure beside this one's, and says
whether the two reports hold the same rows (parsed: values and key order). ``--whole`` runs
the earlier whole-corpus measure instead (every SGF file, --jobs 1 and 2, the pure core, Dask
and Parquet rows).

    .venv/bin/python bench/batch_speed.py [--files 3000] [--runs 3] [--against CHECKOUT]
    .venv/bin/python bench/batch_speed.py --whole [--no-dask] [CORPUS_DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from replay_speed import sgfmill_replay

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent.parent / "shared" / "corpus"
SEED = 43
"""The sample: this many files drawn with random.Random(SEED) from the sorted KGS files."""


def sample(corpus: Path, files: int) -> list[Path]:
    kgs = sorted((corpus / "kgs").rglob("*.sgf"))
    return sorted(random.Random(SEED).sample(kgs, min(files, len(kgs))))


def sgfmill_time(datas: list[bytes]) -> float:
    start = time.perf_counter()
    for data in datas:
        try:  # noqa: SIM105 - a plain try is the cheapest baseline
            sgfmill_replay(data)
        except Exception:  # noqa: BLE001 - sgfmill refuses some real files
            pass
    return time.perf_counter() - start


# --- the stages, in a process of the checkout measured -----------------------------------------


BLOCK = 100
"""Files measured together in the stages (see :func:`stages`)."""


def stages(listing: str, runs: int) -> dict[str, float | str | None]:
    """Per-file milliseconds of each stage of the worker, and the worker's ratio to sgfmill,
    printed as JSON by ``--stages`` in a process that imports the checkout measured."""
    from sgfmill import sgf_grammar

    from sgfcheck import core
    from sgfcheck.records.items import WorkItem
    from sgfcheck.records.record import load_bytes, to_sgf
    from sgfcheck.run.batch import BatchOptions, _process
    from sgfcheck.run.reportfile import ReportKind
    from sgfcheck.scoring.adjudicate import checked_file, score_loaded

    paths = Path(listing).read_text(encoding="utf-8").splitlines()
    datas = [Path(p).read_bytes() for p in paths]
    options = BatchOptions.of(report_kind=ReportKind.JSONL, jobs=1)
    no_report = BatchOptions.of(report_kind=ReportKind.NONE, jobs=1)
    settings = options.settings
    sgf = [to_sgf(d).data for d in datas]  # the reader's input: what load_bytes hands it
    # (core.BUILT; core.compiled in a checkout before the doors)
    reader = getattr(getattr(core, "BUILT", getattr(core, "compiled", None)), "parse_game", None)
    n = len(datas)

    def sgfmill_parse(part: list[bytes]) -> None:
        for data in part:
            try:  # noqa: SIM105 - a plain try is the cheapest baseline
                sgf_grammar.parse_sgf_collection(data)
            except ValueError:
                pass

    def compiled_parse(part: list[bytes]) -> None:
        assert reader is not None
        tree_class = sgf_grammar.Coarse_game_tree
        for data in part:
            position: int | None = 0
            try:
                while position is not None:
                    tree, position = reader(data, position, tree_class)
            except ValueError:
                pass

    def pipeline(block: range) -> tuple[float, float, float, float]:
        read = check = score = own = 0.0
        for k in block:
            t0 = time.perf_counter()
            loaded = load_bytes(datas[k], "x.sgf", settings.encoding, settings.limits)
            t1 = time.perf_counter()
            if loaded.games:
                checked_file(loaded, settings)
                t2 = time.perf_counter()
                score_loaded(loaded, settings)
                t3 = time.perf_counter()
                score_loaded(loaded, settings, compare=False)  # the game's own ruleset alone
                own += time.perf_counter() - t3
                check += t2 - t1
                score += t3 - t2
            read += t1 - t0
        return read, check, score, own

    items = [WorkItem(p, None, d) for p, d in zip(paths, datas, strict=True)]

    def timed(work: Callable[[], object]) -> float:
        start = time.perf_counter()
        work()
        return time.perf_counter() - start

    # Blocks of BLOCK files, each measured every way in turn, sgfmill's replay beside each:
    # a slow spell of the machine (a shared one has them, of seconds) falls on one block of
    # every measure alike; each figure is the median over the blocks and runs.
    got: dict[str, list[float]] = {}
    for _ in range(runs):
        for first in range(0, n, BLOCK):
            block = range(first, min(n, first + BLOCK))
            size = len(block)
            part = [datas[k] for k in block]
            text = [sgf[k] for k in block]
            base = timed(lambda part=part: sgfmill_time(part))
            worker = timed(lambda block=block: [_process(items[k], options) for k in block])
            bare = timed(lambda block=block: [_process(items[k], no_report) for k in block])
            read, check, score, own = pipeline(block)
            figures = {"sgfmill": base, "worker": worker, "read": read, "check": check,
                       "count": score - check, "own": own - check, "rows": worker - read - score,
                       "bare": bare,
                       "sgfmill_parse": timed(lambda text=text: sgfmill_parse(text))}
            if reader is not None:
                figures["reader"] = timed(lambda text=text: compiled_parse(text))
            for name, value in figures.items():
                got.setdefault(name, []).append(value * 1000 / size)
            got.setdefault("ratio", []).append(base / worker)
    out: dict[str, float | str | None] = {k: statistics.median(v) for k, v in got.items()}
    out.setdefault("reader", None)
    out["core"] = core.name()
    return out


# --- the whole corpus (--whole) ---------------------------------------------------------------
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


def whole_corpus(argv: list[str]) -> int:
    args = [a for a in argv if a != "--no-dask"]
    dask = "--no-dask" not in argv
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


# --- the commands, as new processes -------------------------------------------------------------


def environment(checkout: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    return env


def command(args: list[str], checkout: Path | None, cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sgfcheck", *args], check=True, cwd=cwd,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=environment(checkout))
    return time.perf_counter() - start


def batch(folder: Path, jobs: int, checkout: Path | None, out: Path) -> tuple[float, float]:
    """The wall time of the command and the games a second its summary says."""
    summary = out.with_suffix(".summary.json")
    wall = command(["batch", str(folder), "--jobs", str(jobs), "--out", str(out),
                    "--summary-json", str(summary), "--fail-on", "never"], checkout, out.parent)
    return wall, json.loads(summary.read_text())["games_per_second"]


def measure(args: argparse.Namespace) -> int:
    corpus = Path(args.corpus)
    chosen = sample(corpus, args.files)
    if not chosen:
        print(f"no KGS records under {corpus}", file=sys.stderr)
        return 2
    datas = [p.read_bytes() for p in chosen]
    versions: list[tuple[str, Path | None]] = [("this checkout", None)]
    if args.against:
        versions.insert(0, ("--against " + args.against, Path(args.against).resolve()))
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        folder, one = tmp / "sample", tmp / "one"
        folder.mkdir()
        one.mkdir()
        for i, path in enumerate(chosen):  # names kept apart: the sample's folders differ
            shutil.copyfile(path, folder / f"{i:05d}-{path.name}")
        shutil.copyfile(chosen[0], one / chosen[0].name)
        listing = tmp / "files.txt"
        listing.write_text("\n".join(str(p) for p in chosen), encoding="utf-8")
        base: list[float] = []
        figures: dict[str, dict[str, list[float]]] = {v: {} for v, _ in versions}
        stage: dict[str, dict[str, float | None]] = {}
        for run in range(args.runs):
            for label, checkout in versions:
                before = sgfmill_time(datas)
                base.append(before)
                out = tmp / f"report-{len(stage)}-{run}.jsonl"
                got = figures[label]
                wall, rate1 = batch(folder, 1, checkout, tmp / f"{label[:2]}-{run}-1.jsonl")
                got.setdefault("wall", []).append(wall)
                got.setdefault("ratio", []).append(before / wall)
                got.setdefault("rate1", []).append(rate1)
                for kind, extra in (("csv", ["--out", str(tmp / f"{label[:2]}-{run}.csv")]),
                                    ("none", [])):  # a CSV report; no report, the summary
                    got.setdefault(kind, []).append(before / command(
                        ["batch", str(folder), "--jobs", "1", "--fail-on", "never", *extra],
                        checkout, tmp))
                _, rate2 = batch(folder, 2, checkout, tmp / f"{label[:2]}-{run}-2.jsonl")
                got.setdefault("rate2", []).append(rate2)
                got.setdefault("version", []).append(command(["--version"], checkout, tmp))
                got.setdefault("one", []).append(
                    command(["batch", str(one), "--jobs", "1", "--out", str(out),
                             "--fail-on", "never"], checkout, tmp))
        for label, checkout in versions:
            done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--stages",
                                   str(listing), "--runs", str(args.runs)], check=True,
                                  cwd=tmp, capture_output=True, text=True,
                                  env=environment(checkout))
            stage[label] = json.loads(done.stdout)
        # The rows parsed and written again by one encoder: the same text is the same values
        # with the keys in the same order (the encoder of the rows may differ between versions).
        reports = {label: "\n".join(json.dumps(json.loads(line)) for line in (
            tmp / f"{label[:2]}-0-1.jsonl").read_text(encoding="utf-8").splitlines())
                   for label, _ in versions}
        sgfmill = statistics.median(base)
        print(f"sample: {len(chosen)} KGS records of {corpus} (random.Random({SEED})), "
              f"{args.runs} runs")
        print(f"sgfmill parse + Board.play: {sgfmill:.2f} s ({sgfmill * 1000 / len(datas):.2f} "
              "ms a file)")
        for label, _ in versions:
            got = {k: statistics.median(v) for k, v in figures[label].items()}
            s = stage[label]
            print(f"\n{label} ({s['core']} core)")
            print(f"  batch --jobs 1, the whole command: {got['wall']:.2f} s; "
                  f"{got['ratio']:.2f}x sgfmill (median of each run's ratio to the sgfmill "
                  "run just before it)")
            print(f"  batch --jobs 1 --out report.csv: {got['csv']:.2f}x sgfmill; no report "
                  f"(the summary alone): {got['none']:.2f}x")
            print(f"  --jobs 2 scaling (the summary's games/s): "
                  f"{got['rate2'] / got['rate1']:.2f}x")
            print(f"  start-up: --version {got['version'] * 1000:.0f} ms; batch of one record "
                  f"{got['one'] * 1000:.0f} ms ({got['one'] / got['wall'] * 100:.1f}% of the "
                  "whole command)")
            reader = s["reader"]
            print(f"  a worker, ms a file: sgfmill parse + replay {s['sgfmill']:.3f}; "
                  f"read {s['read']:.3f}, check {s['check']:.3f}, count {s['count']:.3f} "
                  f"(the game's own ruleset alone {s['own']:.3f}), "
                  f"rows and the rest {s['rows']:.3f}; the whole worker {s['worker']:.3f} "
                  f"(median of the blocks' ratios: {s['ratio']:.2f}x sgfmill); "
                  f"with no report {s['bare']:.3f}")
            print(f"  SGF reader: sgfmill's parse_sgf_collection {s['sgfmill_parse']:.3f} ms a "
                  "file; " + ("no compiled reader" if reader is None else
                              f"compiled {reader:.3f} = {s['sgfmill_parse'] / reader:.1f}x"))
        if len(versions) > 1:
            same = len(set(reports.values())) == 1
            print(f"\nthe two --jobs 1 reports hold the same rows (values and key order): {same}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(DEFAULT))
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", help="another checkout of sgfcheck, measured beside")
    parser.add_argument("--whole", action="store_true", help="the whole-corpus measure")
    parser.add_argument("--no-dask", action="store_true", help="with --whole: no Dask rows")
    parser.add_argument("--stages", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stages:
        print(json.dumps(stages(args.stages, args.runs)))
        return 0
    if args.whole:
        return whole_corpus([a for a in sys.argv[1:] if a != "--whole"])
    if not Path(args.corpus).is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    return measure(args)


if __name__ == "__main__":
    sys.exit(main())
