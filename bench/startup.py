"""Start-up: how long ``sgfcheck --version``, ``sgfcheck check --help`` and ``sgfcheck check
fixtures/ko.sgf`` take as new processes, against a bare Typer app with one command (a
``--version`` callback, its ``--help``, the command run), in the same run.

Each command runs 10 times, the two apps alternating so that both see the same machine, through
the same interpreter as ``python -m``, from a folder outside the checkout (so that the installed
sgfcheck is the one imported); the median wall time of each is printed with the ratio to the bare
app's. Targets: ``--version`` within 1.1x of the bare app, ``check fixtures/ko.sgf`` within
1.4x. An editable install (``pip install -e``) pays its import hook on every module; a wheel's
figures are those of a user's install (``--python`` another environment's interpreter). Modules
are cached as bytecode, as on a user's machine (``PYTHONDONTWRITEBYTECODE`` is taken out of the
environment and a first run of each command writes the cache).

    .venv/bin/python bench/startup.py [--runs N] [--python PATH]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BARE = '''
import typer

app = typer.Typer(add_completion=False)


def _version(value: bool) -> None:
    if value:
        typer.echo("bare 1.0")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version,
                                       is_eager=True)) -> None:
    """A bare app."""


@app.command()
def check(file: str) -> None:
    """Say the file's name."""
    typer.echo(file)


app()
'''


def timed(argv: list[str], env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                   cwd=cwd, check=False)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter of the environment measured (default: this one)")
    args = parser.parse_args()
    ko = str(ROOT / "fixtures" / "ko.sgf")
    cases = [("--version", ["--version"], ["--version"]),
             ("check --help", ["check", "--help"], ["check", "--help"]),
             ("check fixtures/ko.sgf", ["check", ko], ["check", ko])]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "bare.py").write_text(BARE, encoding="utf-8")
        # As a user's machine runs it: modules cached as bytecode after the first run (a
        # PYTHONDONTWRITEBYTECODE in the environment would make every run compile every module).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=tmp, COLUMNS="100")
        print(f"{'command':<24}{'bare app ms':>14}{'sgfcheck ms':>14}{'ratio':>9}")
        for name, ours, bare in cases:
            mine: list[float] = []
            theirs: list[float] = []
            python = args.python
            timed([python, "-m", "sgfcheck", *ours], env, tmp)  # warm the caches
            timed([python, "-m", "bare", *bare], env, tmp)
            for _ in range(args.runs):
                theirs.append(timed([python, "-m", "bare", *bare], env, tmp))
                mine.append(timed([python, "-m", "sgfcheck", *ours], env, tmp))
            a, b = statistics.median(theirs), statistics.median(mine)
            print(f"{name:<24}{a * 1000:>14.0f}{b * 1000:>14.0f}{b / a:>8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
