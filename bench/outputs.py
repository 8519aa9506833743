"""Every output of every command, written to a folder, so that two versions can be compared
byte for byte (``diff -r``): a change that should change no result shows none.

Runs the installed ``sgfcheck`` (as a user runs it) on every fixture: ``check`` (text, verbose,
JSON, HTML, ``--all-rules``), ``score`` (text, wide, JSON, CSV, Markdown, HTML, ``--all-rules``,
a ruleset string, ``--dead-stones gnugo`` when GNU Go is there), ``life`` (text and JSON),
``diagram`` (final, plain, the illegal move), ``annotate --fix komi,rules``; ``rules``; and
``batch`` over the fixtures and over a sample of ``../shared/corpus`` (every Nth record, JSON
Lines and CSV, summary, duplicates, the page; once with ``--dead-stones auto``). Timings (elapsed
seconds, games/s, peak memory) are taken out of the summaries. Standard error is kept apart
(``.err``): notes there may change where the results do not.

    .venv/bin/python bench/outputs.py OUT_DIR [--sample N] [--sgfcheck PATH]
    diff -r before/ after/
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"
TIMING = re.compile(r"^(elapsed s|games/s|peak memory per worker \(MB\)).*$"
                    r"|<tr><td class=\"text\">(elapsed s|games/s|peak memory per worker \(MB\))"
                    r"</td><td>[^<]*</td></tr>", re.M)
TIMING_KEYS = ("elapsed", "games_per_second", "peak_rss_mb", "peak_rss_mb_per_worker")


def jobs_for(name: str, fixture: Path, gnugo: bool) -> list[tuple[str, list[str]]]:
    """(output name, arguments) of every run on one fixture."""
    f = str(fixture)
    runs = [
        ("check.txt", ["check", f]),
        ("check-v.txt", ["check", "-v", "--wide", f]),
        ("check.json", ["check", "--format", "json", f]),
        ("check-all.txt", ["check", "--all-rules", f]),
        ("check-all.json", ["check", "--all-rules", "--format", "json", f]),
        ("check.html", ["check", "--format", "html", f]),
        ("check-psk.txt", ["check", "--rules", "japanese:ko=positional", f]),
        ("score.txt", ["score", f]),
        ("score-wide.txt", ["score", "--wide", f]),
        ("score.json", ["score", "--format", "json", f]),
        ("score.csv", ["score", "--format", "csv", f]),
        ("score.md", ["score", "--format", "markdown", f]),
        ("score.html", ["score", "--format", "html", f]),
        ("score-all.txt", ["score", "--all-rules", f]),
        ("score-estimate.json", ["score", "--dead-stones", "estimate", "--format", "json", f]),
        ("score-komi.txt", ["score", "--komi", "0.5", f]),
        ("life.txt", ["life", f]),
        ("life.json", ["life", "--format", "json", f]),
        ("diagram.svg", ["diagram", f]),
        ("diagram-plain.svg", ["diagram", "--plain", "--numbers", f]),
        ("diagram-illegal.svg", ["diagram", "--illegal", f]),
    ]
    if gnugo:
        runs.append(("score-gnugo.json", ["score", "--dead-stones", "gnugo", "--format", "json",
                                          f]))
    return [(f"{name}/{out}", args) for out, args in runs]


def run(sgfcheck: list[str], args: list[str], target: Path, cwd: Path) -> None:
    done = subprocess.run([*sgfcheck, *args], capture_output=True, cwd=cwd,
                          env={**os.environ, "COLUMNS": "100"}, check=False)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(TIMING.sub("", done.stdout.decode("utf-8", "replace")).encode("utf-8"))
    target.with_name(target.name + ".err").write_text(
        f"exit {done.returncode}\n" + done.stderr.decode("utf-8", "replace"), encoding="utf-8")


def untimed(path: Path) -> None:
    """A summary JSON without its timings."""
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
        for key in TIMING_KEYS:
            data.pop(key, None)
        path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sample", type=int, default=80,
                        help="every Nth corpus record (default 80: about 200 files)")
    parser.add_argument("--sgfcheck", default=None, help="the sgfcheck command (default: the "
                        "one beside this Python)")
    args = parser.parse_args()
    sgfcheck = [args.sgfcheck] if args.sgfcheck else [str(Path(sys.executable).parent /
                                                           "sgfcheck")]
    out: Path = args.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    gnugo = shutil.which("gnugo") is not None or Path("/usr/games/gnugo").exists()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # Fixtures are copied so that every path printed is the same whatever the checkout.
        shutil.copytree(FIXTURES, work / "fixtures")
        jobs: list[tuple[str, list[str]]] = []
        for fixture in sorted((work / "fixtures").glob("*.sgf")):
            rel = fixture.relative_to(work)
            jobs.extend(jobs_for(fixture.stem, rel, gnugo))
            jobs.append((f"{fixture.stem}/annotate.sgf.out",
                         ["annotate", str(rel), "-o", f"annotated-{fixture.stem}.sgf",
                          "--fix", "komi,rules"]))
        jobs += [("rules.txt", ["rules"]), ("rules.json", ["rules", "--format", "json"])]
        sample = work / "sample.txt"
        if CORPUS.is_dir():
            records = sorted(str(p) for p in CORPUS.rglob("*") if p.is_file()
                             and p.suffix.lower() in (".sgf", ".gib", ".ngf", ".ugf", ".ugi"))
            sample.write_text("\n".join(records[:: args.sample]) + "\n", encoding="utf-8")
        batches = [("batch-fixtures", ["batch", "fixtures", "--jobs", "1"]),
                   ("batch-fixtures-csv", ["batch", "fixtures", "--jobs", "1"])]
        if sample.exists():
            batches += [("batch-corpus", ["batch", "-", "--jobs", "2"]),
                        ("batch-corpus-csv", ["batch", "-", "--jobs", "2"]),
                        ("batch-corpus-auto", ["batch", "-", "--jobs", "2", "--dead-stones",
                                               "auto"])]
        with ThreadPoolExecutor(max_workers=2) as pool:
            for _ in pool.map(lambda job: run(sgfcheck, job[1], out / job[0], work), jobs):
                pass
        for name, base in batches:
            ext = "csv" if name.endswith("csv") else "jsonl"
            extra = [f"--out={work / name}.{ext}", f"--summary-json={work / name}.summary.json",
                     f"--duplicates={work / name}.duplicates.json", f"--html={work / name}.html",
                     "--fail-on", "never", "--quiet"]
            # The corpus sample by paths relative to the corpus: the same rows wherever it is.
            stdin = sample.read_text(encoding="utf-8").replace(f"{CORPUS}/", "") \
                if "-" in base else None
            done = subprocess.run([*sgfcheck, *base, *extra],
                                  input=stdin.encode() if stdin else None,
                                  capture_output=True, cwd=work if stdin is None else CORPUS,
                                  env={**os.environ, "COLUMNS": "100"}, check=False)
            (out / f"{name}.txt").write_text(TIMING.sub("", done.stdout.decode()),
                                             encoding="utf-8")
            (out / f"{name}.txt.err").write_text(
                f"exit {done.returncode}\n" + done.stderr.decode().replace(str(work), "WORK"),
                encoding="utf-8")
            for produced in work.glob(f"{name}.*"):
                shutil.move(str(produced), out / produced.name)
            untimed(out / f"{name}.summary.json")
            page = out / f"{name}.html"
            if page.exists():
                page.write_text(TIMING.sub("", page.read_text(encoding="utf-8")),
                                encoding="utf-8")
        for produced in work.glob("annotated-*.sgf"):
            shutil.move(str(produced), out / produced.name)
    print(f"{sum(1 for _ in out.rglob('*'))} files in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
