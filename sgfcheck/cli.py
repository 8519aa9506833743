"""The ``sgfcheck`` command line (Typer). Thin: it reads options, calls the library, prints what
:mod:`sgfcheck.report` and :mod:`sgfcheck.schema` make and exits as :mod:`sgfcheck.exits` says.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from sgfcheck import __version__, core
from sgfcheck import findings as F
from sgfcheck.adjudicate import (
    FileLife,
    FileScore,
    ScoreOptions,
    life_loaded,
    score_game,
    score_loaded,
)
from sgfcheck.check import CheckOptions, FileReport, check_loaded
from sgfcheck.deadstones import DeadStoneChoice, Engine
from sgfcheck.diagrams import illegal_move_picture, position_picture, scored_picture
from sgfcheck.encoding import codec_for
from sgfcheck.engines import OPENCL_HELP, engine_statuses, install_katago, opencl_present
from sgfcheck.escaping import terminal_text
from sgfcheck.exits import (
    ExitStatus,
    FailPolicy,
    batch_status,
    check_status,
    life_status,
    score_status,
)
from sgfcheck.findings import Finding
from sgfcheck.formats import FORMAT_NAMES, RecordFormat
from sgfcheck.inputs import (
    InputProblem,
    Skipped,
    count_records,
    is_archive_name,
    is_url,
    iter_inputs,
)
from sgfcheck.katago import KataGoError
from sgfcheck.limits import DEFAULT_LIMITS, LIMIT_HELP, Limits
from sgfcheck.points import parse_point_name
from sgfcheck.reading import read_path, read_standard_input, read_url
from sgfcheck.records import LoadedFile, load_bytes, load_file, to_sgf
from sgfcheck.replay import replay
from sgfcheck.report import (
    render_json,
    render_life_text,
    render_rules_text,
    render_score_csv,
    render_score_json,
    render_score_text,
    render_summary_text,
    render_text,
    wrap_line,
)
from sgfcheck.reportfile import ReportKind, ReportWriter, drop_partial_line, read_done
from sgfcheck.rules import PRESETS, KoRule, SuicideRule, komi_value, parse_rules_string
from sgfcheck.schema import (
    duplicates_dict,
    file_life_dict,
    json_document,
    json_text,
    presets_dict,
    skipped_dict,
    summary_dict,
)
from sgfcheck.summary import Summary
from sgfcheck.svg import PngUnavailable, render_svg, svg_to_png

if TYPE_CHECKING:
    from sgfcheck.batch import Runner

app = typer.Typer(
    help="Replay Go game records (SGF) under any ruleset and report every illegal move.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Format(str, Enum):
    text = "text"
    json = "json"


DEAD_STONES_HELP = (
    "Where dead stones come from: auto (TB/TW markup if the record has it, else estimate), "
    "markup (else proofs only), estimate (sgfcheck's judgement: proofs, then seeded playouts; "
    "undecided chains are named 'uncertain'), benson (only stones proven dead), gnugo (ask GNU "
    "Go), katago (ask KataGo: sgfcheck engines install katago), none (every stone alive).")
SEED_HELP = "Seed of the estimate's playouts (the same seed gives the same judgement)."
ENGINE_HELP = (
    "An engine the estimate asks about the chains it cannot decide (uncertain, or decided with "
    "a confidence under 0.8), with --dead-stones auto or estimate: katago (one network "
    "evaluation, only for a position with such a chain; sgfcheck engines install katago) or "
    "none. Each chain's source says who decided it. Also SGFCHECK_ENGINE.")
EngineOption = Annotated[Engine, typer.Option("--engine", envvar="SGFCHECK_ENGINE",
                                              help=ENGINE_HELP)]
LIMIT_HELP_TEXT = (
    "A limit on the work one file may cause, NAME=VALUE, repeatable; a limit reached is finding "
    "SGF035 on that file. Names and defaults: "
    + ", ".join(DEFAULT_LIMITS.describe(name.replace("-", "_")) for name in LIMIT_HELP)
    + " (memory: MB per batch worker; read-wait: seconds for a pipe or FIFO).")
WideOption = Annotated[
    bool, typer.Option("--wide", metavar="", help="Tables as wide as they are: every column, no "
                       "wrapping (default: fit the terminal, COLUMNS, or 100 columns)."),
]
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", metavar="", help="No progress display (it only ever "
                       "shows on a terminal, on standard error)."),
]
LimitOption = Annotated[
    list[str] | None,
    typer.Option("--limit", metavar="NAME=VALUE", help=LIMIT_HELP_TEXT, show_default=False),
]


def _examples(*lines: str) -> str:
    """A command's epilog: examples, one a paragraph (so that help keeps them apart)."""
    return "Examples:\n\n" + "\n\n".join(f"  {line}" for line in lines)


class ScoreFormat(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"
    markdown = "markdown"
    html = "html"


class CheckFormat(str, Enum):
    text = "text"
    json = "json"
    html = "html"


HtmlOutOption = Annotated[
    Path | None, typer.Option("--output", "-o", metavar="FILE", help="With --format html: write "
                              "the page here (default: standard output).", show_default=False),
]


def _write_page(page: str, output: Path | None) -> None:
    if output is None:
        typer.echo(page, nl=False)
    else:
        output.write_text(page, encoding="utf-8")
        _say(f"page written: {output} ({len(page.encode('utf-8')) // 1024} KB)", err=True)


def _html_output(output: Path | None, html: bool) -> None:
    if output is not None and not html:
        raise _usage_error("--output is for --format html (the other formats go to standard "
                           "output)")
    _check_writable("--output", output)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"sgfcheck {__version__} ({core.describe()})")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """sgfcheck: check Go game records."""
    note = core.fallback_note()
    if note:  # once per run: the compiled core is missing without being asked for
        typer.echo(note, err=True)


def _width(wide: bool) -> int | None:
    """The width text output fits: ``COLUMNS``, else the terminal's, else 100; None with
    ``--wide``."""
    return None if wide else max(40, shutil.get_terminal_size((100, 24)).columns)


def _say(text: str, *, err: bool = False) -> None:
    """Print text made for people; anything from the input in it (names, values) has its
    control and format characters shown escaped, so no file can drive the terminal."""
    typer.echo(terminal_text(text), err=err)


def _usage_error(message: str) -> typer.Exit:
    _say(f"sgfcheck: {message}", err=True)
    return typer.Exit(ExitStatus.USAGE)


def _limits(specs: list[str] | None) -> Limits:
    try:
        return DEFAULT_LIMITS.with_specs(specs or [])
    except ValueError as exc:
        raise _usage_error(str(exc)) from None


def _validate(rules: list[str], encoding: str | None, komi: float | None = None) -> None:
    """Usage errors (exit 2) for unknown rulesets, encodings or komi, before any file is read."""
    if komi is not None:
        try:
            komi_value(komi)
        except ValueError as exc:
            raise _usage_error(f"--komi: {exc}") from None
    for name in rules:
        if name != "auto":
            try:
                parse_rules_string(name)
            except ValueError as exc:
                raise _usage_error(str(exc)) from None
    if encoding is not None and codec_for(encoding) is None:
        raise _usage_error(f"unknown encoding {encoding!r}")


@app.command(epilog=_examples(
    "sgfcheck check game.sgf",
    "sgfcheck check --all-rules --format json games/*.sgf",
    "sgfcheck check --rules japanese:ko=positional --variations game.sgf",
    "sgfcheck check --limit file-size=1M --limit nodes=100000 upload.sgf"))
def check(
    files: InputsArgument,
    rules: Annotated[
        str, typer.Option(metavar="NAME", help="Ruleset: 'auto' (from RU), a preset, or "
                          "preset:param=value,...")
    ] = "auto",
    ko: Annotated[KoRule | None, typer.Option(help="Override the ko rule.")] = None,
    suicide: Annotated[
        SuicideRule | None, typer.Option(help="Override the suicide rule.")
    ] = None,
    komi: Annotated[float | None, typer.Option(metavar="X", help="Override the komi.")] = None,
    variations: Annotated[
        bool, typer.Option("--variations", metavar="",
                           help="Check every variation, not only the main line.")
    ] = False,
    all_rules: Annotated[
        bool,
        typer.Option("--all-rules", metavar="",
                     help="Show each illegal move's verdict under every preset."),
    ] = False,
    output_format: Annotated[
        CheckFormat, typer.Option("--format", help="text tables, one JSON object per file, or "
                                  "html (one self-contained page: each illegal move on its "
                                  "board).")
    ] = CheckFormat.text,
    output: HtmlOutOption = None,
    encoding: Annotated[
        str | None, typer.Option(metavar="CODEC", help="Read every file in this encoding, "
                                 "whatever CA says.")
    ] = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", metavar="", help="Also show info findings in tables.")
    ] = False,
    limit: LimitOption = None,
    wide: WideOption = False,
    quiet: QuietOption = False,
) -> None:
    """Replay each game and report every illegal move.

    Exit status: 0 clean, 1 illegal moves or errors found, 2 usage error or unreadable input.
    """
    _validate([rules], encoding, komi)
    options = CheckOptions(rules=rules, ko=ko, suicide=suicide, komi=komi,
                           variations=variations, all_rules=all_rules, encoding=encoding,
                           limits=_limits(limit))
    _html_output(output, output_format is CheckFormat.html)
    reports: list[FileReport] = []

    def show(report: FileReport) -> ExitStatus:
        if output_format is CheckFormat.json:
            typer.echo(render_json(report))
        elif output_format is CheckFormat.html:
            reports.append(report)
        else:
            _say(render_text(report, verbose, _width(wide)))
        return check_status(report)

    def skipped(item: Skipped) -> None:
        if output_format is CheckFormat.html:
            _say(f"{item.path}: skipped, {item.reason}", err=True)
        else:
            _skipped(item, output_format is CheckFormat.json)

    status = _each_input(
        _loaded(files, encoding, options.limits), files, quiet,
        lambda loaded, on_game: check_loaded(loaded, options, on_game), show, skipped)
    if output_format is CheckFormat.html:
        from sgfcheck.pages import check_page  # imported when used: a shorter start-up
        _write_page(check_page(reports), output)
    raise typer.Exit(status)


@app.command(epilog=_examples(
    "sgfcheck score game.sgf",
    "sgfcheck score --rules chinese,japanese --format markdown game.sgf",
    "sgfcheck score --dead D4,Q16 --move 200 game.sgf",
    "sgfcheck score --dead-stones katago --format json games/*.sgf"))
def score(
    files: InputsArgument,
    rules: Annotated[
        str | None,
        typer.Option(metavar="NAME,...", help="Rows to show besides the game's own ruleset, "
                     "comma-separated "
                     "(default: tromp-taylor,chinese,japanese,aga,stone-scoring)."),
    ] = None,
    all_rules: Annotated[
        bool, typer.Option("--all-rules", metavar="", help="One row for every preset.")
    ] = False,
    game_rules: Annotated[
        str, typer.Option(metavar="NAME", help="The game's own ruleset: 'auto' (from RU) or a "
                          "preset.")
    ] = "auto",
    dead: Annotated[
        str | None,
        typer.Option(metavar="POINT,...", help="Dead stones, comma-separated points (D4,Q16); "
                     "a point marks its "
                     "whole chain."),
    ] = None,
    alive: Annotated[
        bool, typer.Option("--alive", metavar="",
                           help="Count every stone alive, whatever the markup says.")
    ] = False,
    dead_stones: Annotated[DeadStoneChoice, typer.Option(help=DEAD_STONES_HELP)
                           ] = DeadStoneChoice.AUTO,
    seed: Annotated[int, typer.Option(metavar="N", help=SEED_HELP)] = 0,
    engine: EngineOption = Engine.NONE,
    move: Annotated[
        int | None,
        typer.Option(metavar="N",
                     help="Score the position after this move instead of the final one."),
    ] = None,
    komi: Annotated[float | None, typer.Option(metavar="X", help="Override the komi.")] = None,
    output_format: Annotated[
        ScoreFormat, typer.Option("--format", help="text, json (one object per file), csv, "
                                  "markdown, html (one self-contained page: a board per "
                                  "ruleset, side by side).")
    ] = ScoreFormat.text,
    output: HtmlOutOption = None,
    encoding: Annotated[
        str | None, typer.Option(metavar="CODEC", help="Read every file in this encoding.")
    ] = None,
    limit: LimitOption = None,
    wide: WideOption = False,
    quiet: QuietOption = False,
) -> None:
    """Count each game under several rulesets, explain the differences and check RE.

    Exit status: 0 every scored result matches (or is not a score), 1 a mismatch, an
    unverifiable result or an error finding, 2 usage error or unreadable input.
    """
    row_names: tuple[str, ...] = ()
    if rules:
        row_names = tuple(r.strip() for r in rules.split(",") if r.strip())
    _validate([*row_names, game_rules], encoding, komi)
    if dead and alive:
        raise _usage_error("--dead and --alive exclude each other")
    limits = _limits(limit)
    _html_output(output, output_format is ScoreFormat.html)
    inputs = _inputs(files, encoding, limits, move)
    dead_points = tuple(p.strip() for p in dead.split(",") if p.strip()) if dead else ()
    for name in dead_points:
        try:
            parse_point_name(name, 52, 52)
        except ValueError:
            raise _usage_error(f"--dead: {name!r} is not a point like D4") from None
    options = ScoreOptions(rules=row_names, all_rules=all_rules, dead=dead_points, alive=alive,
                           move=move, komi=komi, game_rules=game_rules, encoding=encoding,
                           dead_stones=dead_stones, seed=seed, engine=engine, limits=limits)
    reports: list[FileScore] = []

    def show(report: FileScore) -> ExitStatus:
        reports.append(report)
        if output_format is ScoreFormat.json:
            typer.echo(render_score_json(report))
        elif output_format not in (ScoreFormat.csv, ScoreFormat.html):
            _say(render_score_text(report, markdown=output_format is ScoreFormat.markdown,
                                   width=_width(wide)))
        return score_status(report)

    def skipped(item: Skipped) -> None:
        if output_format in (ScoreFormat.csv, ScoreFormat.html):  # they hold scores only
            _say(f"{item.path}: skipped, {item.reason}", err=True)
        else:
            _skipped(item, output_format is ScoreFormat.json)

    status = _each_input(inputs, files, quiet,
                         lambda loaded, on_game: score_loaded(loaded, options, on_game), show,
                         skipped)
    if output_format is ScoreFormat.csv:
        typer.echo(render_score_csv(reports), nl=False)
    elif output_format is ScoreFormat.html:
        from sgfcheck.pages import score_page
        _write_page(score_page(reports), output)
    raise typer.Exit(status)


@app.command(epilog=_examples(
    "sgfcheck life game.sgf",
    "sgfcheck life --move 150 --format json game.sgf",
    "sgfcheck life --dead-stones gnugo game.sgf"))
def life(
    files: InputsArgument,
    move: Annotated[
        int | None, typer.Option(metavar="N",
                                 help="The position after this move instead of the final one.")
    ] = None,
    dead_stones: Annotated[DeadStoneChoice, typer.Option(help=DEAD_STONES_HELP)
                           ] = DeadStoneChoice.AUTO,
    seed: Annotated[int, typer.Option(metavar="N", help=SEED_HELP)] = 0,
    engine: EngineOption = Engine.NONE,
    output_format: Annotated[Format, typer.Option("--format", help="text (a board and a table) "
                                                  "or json (one object per file).")
                             ] = Format.text,
    limit: LimitOption = None,
    wide: WideOption = False,
    quiet: QuietOption = False,
) -> None:
    """Show the status of every chain: alive, dead, seki or unknown, and who decided it.

    Exit status: 0, 1 when a game could not be judged or GNU Go failed, 2 usage error or
    unreadable input.
    """
    limits = _limits(limit)
    inputs = _inputs(files, None, limits, move)
    options = ScoreOptions(move=move, dead_stones=dead_stones, seed=seed, engine=engine,
                           limits=limits)
    def show(report: FileLife) -> ExitStatus:
        if output_format is Format.json:
            typer.echo(json_text(file_life_dict(report)))
        else:
            _say(render_life_text(report, _width(wide)))
        return life_status(report)

    raise typer.Exit(_each_input(
        inputs, files, quiet, lambda loaded, on_game: life_loaded(loaded, options, on_game), show,
        lambda item: _skipped(item, output_format is Format.json)))


@app.command(epilog=_examples(
    "sgfcheck batch archive/ games.zip more.tar.gz --out report.jsonl",
    "sgfcheck batch archive/ --resume report.jsonl",
    "find . -name '*.sgf' | sgfcheck batch - --out report.csv --fail-on mismatch",
    "sgfcheck batch uploads/ --timeout 10 --limit memory=512 --limit file-size=1M"))
def batch(
    inputs: Annotated[
        list[str],
        typer.Argument(metavar="INPUT...", help="Files, folders (recursive), globs, "
                       ".zip/.tar/.tar.gz archives, or "
                       "'-' to read paths from standard input.", show_default=False),
    ],
    out: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Report file: .jsonl (one JSON object "
                                  "per game) or .csv.")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Complete this earlier report: skip the "
                                  "files it holds "
                                  "and append the rest.")
    ] = None,
    jobs: Annotated[int, typer.Option(metavar="N", help="Worker processes (0: one per core).")
                    ] = 0,
    timeout: Annotated[float, typer.Option(metavar="S", help="Seconds allowed per file (0: no "
                                           "limit).")] = 30.0,
    rules: Annotated[str, typer.Option(metavar="NAME", help="Ruleset: 'auto' (from RU) or a "
                                       "preset.")] = "auto",
    fail_on: Annotated[
        FailPolicy, typer.Option(help="Exit 1 when: error (any error finding or unreadable "
                                 "input), illegal (an illegal move), mismatch (an RE mismatch), "
                                 "never.")
    ] = FailPolicy.ERROR,
    duplicates: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Write the duplicate groups to this JSON "
                                  "file.")
    ] = None,
    summary_json: Annotated[
        Path | None, typer.Option("--summary-json", metavar="FILE",
                                  help="Write the summary to this JSON file.")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option(metavar="ADDRESS", help="Run on a Dask cluster: "
                                 "tcp://HOST:PORT of its scheduler, or 'local' for a "
                                 "LocalCluster of --jobs worker processes (needs "
                                 "the distributed extra: pip install 'sgfcheck\\[distributed]'). "
                                 "Same rows, order and "
                                 "summary as a local run.")
    ] = None,
    out_dir: Annotated[
        str | None, typer.Option("--out-dir", metavar="DIR", help="For very large runs: the "
                                 "report as parts, one JSON Lines file per partition written "
                                 "by the worker that ran it, and a manifest (a local folder or "
                                 "an fsspec URL); running the command again continues it; join "
                                 "with 'sgfcheck report merge DIR'.")
    ] = None,
    part_size: Annotated[int, typer.Option(metavar="N", min=1, max=10_000_000,
                                           help="Files in a partition of --out-dir.")
                         ] = 10_000,
    html_page: Annotated[
        Path | None, typer.Option("--html", metavar="FILE", help="Write a self-contained page: "
                                  "the summary, a sortable and filterable table of the problem "
                                  "games (illegal moves, errors, results that do not match), "
                                  "each with its board (the first 500).")
    ] = None,
    encoding: Annotated[str | None, typer.Option(metavar="CODEC",
                                                 help="Read every file in this encoding.")
                        ] = None,
    dead_stones: Annotated[
        DeadStoneChoice,
        typer.Option(help="As for score, but markup (else only stones proven dead) by default: "
                     "an archive run asks for the estimate (auto).")
    ] = DeadStoneChoice.MARKUP,
    engine: EngineOption = Engine.NONE,
    limit: LimitOption = None,
    wide: WideOption = False,
    quiet: QuietOption = False,
) -> None:
    """Check and score every game of an archive; one report row per game, a summary at the end.

    Exit status per --fail-on (default: 1 on any error finding or unreadable input), 2 on a usage
    error.
    """
    _validate([rules], encoding)
    if resume is not None and out is not None and resume != out:
        raise _usage_error("--resume FILE writes to FILE: give --out the same file or leave it")
    most = max(8, 4 * (os.cpu_count() or 1))
    if not 0 <= jobs <= most:
        # Each worker is a process of tens of MB: a huge number would exhaust the machine.
        raise _usage_error(f"--jobs takes a number from 0 (one per core) to {most} (four per "
                           "core)")
    if not 0 <= timeout <= 86400:  # also false for nan
        raise _usage_error("--timeout takes seconds from 0 (no limit) to 86400")
    limits = _limits(limit)
    for option, path in (("--out", out), ("--resume", resume), ("--duplicates", duplicates),
                         ("--summary-json", summary_json), ("--html", html_page)):
        _check_writable(option, path)
    if out_dir is not None:
        for option, value in (("--out", out), ("--resume", resume), ("--html", html_page),
                              ("--duplicates", duplicates)):
            if value is not None:
                raise _usage_error(f"--out-dir writes the report as parts: {option} goes with "
                                   "'sgfcheck report merge DIR' (resume: run the same command "
                                   "again)")
        _batch_parts(inputs, out_dir, part_size, scheduler, jobs, limits, quiet, wide,
                     summary_json, fail_on, dict(
                         rules=rules, jobs=jobs, timeout=timeout, encoding=encoding,
                         dead_stones=dead_stones, limits=limits))
    target = resume or out
    done: set[tuple[str, str | None]] = set()
    if resume is not None:
        try:
            done = read_done(resume)
            drop_partial_line(resume)
        except (OSError, ValueError) as exc:
            raise _usage_error(f"cannot read {resume}: {exc}") from None
    kind = ReportKind.for_path(target)
    # Imported when used (pebble, the pages): the other commands start faster without them.
    from sgfcheck.batch import BatchOptions, Problems, RunStopped, run_batch
    from sgfcheck.pages import batch_page

    options = BatchOptions(rules=rules, jobs=jobs, timeout=timeout, encoding=encoding,
                           report_kind=kind, dead_stones=dead_stones, engine=engine,
                           limits=limits,
                           details=html_page is not None)
    problems = Problems() if html_page is not None else None
    items = iter_inputs(inputs, sys.stdin if "-" in inputs else None, limits)
    stream = None
    writer = None
    if target is not None:
        fresh = resume is None or not target.exists() or target.stat().st_size == 0
        try:
            stream = open(target, "w" if resume is None else "a", encoding="utf-8",  # noqa: SIM115 - closed in finally
                          newline="")
        except OSError as exc:
            raise _usage_error(f"cannot write {target}: {exc.strerror}") from None
        writer = ReportWriter(stream, kind, write_header=fresh)
    progress, finish = _batch_progress(inputs, quiet)
    try:
        with _runner(scheduler, jobs, limits) as work:
            summary = run_batch(items, options, writer, done, progress, problems, work.runner)
            if work.client is not None:
                summary.peak_rss_mb = work.peak()
    except KeyboardInterrupt:
        finish()
        typer.echo("interrupted: the report holds every file finished so far; complete it "
                   "with --resume", err=True)
        raise typer.Exit(ExitStatus.INTERRUPTED) from None
    except RunStopped as exc:
        finish()
        raise _usage_error(str(exc)) from None
    finally:
        if stream is not None:
            stream.close()
    finish()
    _say(render_summary_text(summary, _width(wide)))
    if duplicates is not None:
        duplicates.write_text(json_document(duplicates_dict(summary)), encoding="utf-8")
    if summary_json is not None:
        summary_json.write_text(json_document(summary_dict(summary)), encoding="utf-8")
    if html_page is not None and problems is not None:
        _write_page(batch_page(summary, problems.shown, problems.more), html_page)
    raise typer.Exit(batch_status(summary, fail_on))


@dataclass
class _Workforce:
    """Who does a batch's work: this machine's worker pool (no client), or a Dask cluster."""

    runner: Runner | None = None
    client: Any = None

    def peak(self) -> float:
        from sgfcheck.cluster import worker_peak_mb

        return worker_peak_mb(self.client)


@contextmanager
def _runner(scheduler: str | None, jobs: int, limits: Limits) -> Iterator[_Workforce]:
    if scheduler is None:
        yield _Workforce()
        return
    from sgfcheck.cluster import ClusterUnavailable, connect, dask_runner

    with ExitStack() as stack:
        try:
            client = stack.enter_context(connect(scheduler, jobs or os.cpu_count() or 1,
                                                 limits.memory))
        except ClusterUnavailable as exc:
            raise _usage_error(str(exc)) from None
        yield _Workforce(dask_runner(client), client)


def _batch_parts(inputs: list[str], out_dir: str, part_size: int, scheduler: str | None,
                 jobs: int, limits: Limits, quiet: bool, wide: bool, summary_json: Path | None,
                 fail_on: FailPolicy, settings: dict[str, Any]) -> None:
    """``batch --out-dir``: the run as partitions (:mod:`sgfcheck.parts`)."""
    from sgfcheck.batch import BatchOptions, RunStopped
    from sgfcheck.parts import local_submit, run_head, run_parts

    options = BatchOptions(report_kind=ReportKind.JSONL, **settings)
    items = iter_inputs(inputs, sys.stdin if "-" in inputs else None, limits)
    head = run_head(inputs, options, part_size)
    progress, finish = _batch_progress(inputs, quiet)
    try:
        with _runner(scheduler, jobs, limits) as work:
            if work.client is not None:
                from sgfcheck.cluster import part_submit

                submit, in_flight = part_submit(work.client)
                summary = run_parts(items, options, out_dir, head, submit, in_flight,
                                    work.runner, progress)
                summary.peak_rss_mb = work.peak()
            else:
                with local_submit(options) as (submit, in_flight):
                    summary = run_parts(items, options, out_dir, head, submit, in_flight,
                                        None, progress)
    except (OSError, ValueError) as exc:
        finish()
        raise _usage_error(f"--out-dir {out_dir}: {exc}") from None
    except RunStopped as exc:
        finish()
        raise _usage_error(str(exc)) from None
    except KeyboardInterrupt:
        finish()
        typer.echo("interrupted: the folder holds every partition finished so far; run the "
                   "same command again to finish it", err=True)
        raise typer.Exit(ExitStatus.INTERRUPTED) from None
    finish()
    _say(render_summary_text(summary, _width(wide)))
    _say(f"parts written to {out_dir}; duplicates across parts and one report: "
         f"sgfcheck report merge {out_dir}")
    if summary_json is not None:
        summary_json.write_text(json_document(summary_dict(summary)), encoding="utf-8")
    raise typer.Exit(batch_status(summary, fail_on))


InputsArgument = Annotated[list[str], typer.Argument(
    metavar="INPUT...", show_default=False,
    help="Records (SGF, GIB, NGF, UGF), folders (recursive), globs, .zip/.tar/.tar.gz archives, "
         "or '-' for one record on standard input.")]


def _loaded(args: list[str], encoding: str | None, limits: Limits
            ) -> Iterator[LoadedFile | Skipped]:
    """Each input read: a path as it is (a missing one is SGF001), a folder, glob or archive
    expanded as ``batch`` expands them, ``-`` one record from standard input; files that are not
    records by their name come as :class:`Skipped`, input problems as unreadable files."""
    for arg in args:
        if arg == "-":
            read = read_standard_input(sys.stdin.buffer, limits)
            yield (LoadedFile("-", None, False, [], read.findings) if read.data is None
                   else load_bytes(read.data, "-", encoding, limits))
        elif not (os.path.isdir(arg) or is_archive_name(arg) or is_url(arg) or (
                any(ch in arg for ch in "*?[") and not os.path.exists(arg))):
            yield load_file(arg, encoding, limits)
        else:
            for item in iter_inputs([arg], None, limits):
                if isinstance(item, Skipped):
                    yield item
                    continue
                name = item.path if item.member is None else f"{item.path}:{item.member}"
                if isinstance(item, InputProblem):
                    yield LoadedFile(name, None, False, [], [Finding(F.SGF_INPUT, item.message)])
                elif item.data is None and is_url(item.path):
                    read = read_url(item.path, item.member, limits)
                    yield (LoadedFile(name, None, False, [], read.findings) if read.data is None
                           else load_bytes(read.data, name, encoding, limits))
                elif item.data is None:
                    yield load_file(item.path, encoding, limits)
                else:
                    yield load_bytes(item.data, name, encoding, limits)


Report = TypeVar("Report")


def _each_input(inputs: Iterable[LoadedFile | Skipped], files: list[str], quiet: bool,
                process: Callable[[LoadedFile, Callable[[], None] | None], Report],
                show: Callable[[Report], ExitStatus],
                skipped: Callable[[Skipped], None]) -> ExitStatus:
    """The loop of ``check``, ``score`` and ``life``: each record processed (with progress)
    and shown, each skipped file said; the worst exit status. Inputs that hold no record at all
    are a usage error."""
    status = ExitStatus.OK
    read = 0
    track = _Tracker(files, quiet)
    try:
        for loaded in inputs:
            if isinstance(loaded, Skipped):
                skipped(loaded)
                continue
            read += 1
            report = process(loaded, track.file_read(len(loaded.games)))
            track.file_done()
            status = max(status, show(report))
    finally:
        track.bar.close()
    if not read:
        raise _usage_error("no record in the inputs (see the files skipped above)")
    return status


def _skipped(item: Skipped, as_json: bool) -> None:
    """A file that is not a record, named with the reason (stdout, as the reports are)."""
    path, member = item.key
    name = path if member is None else f"{path}:{member}"
    if as_json:
        typer.echo(json_text(skipped_dict(name, item.reason)))
    else:
        _say(f"{name}: skipped, {item.reason}")


def _inputs(files: list[str], encoding: str | None, limits: Limits,
            move: int | None) -> Iterable[LoadedFile | Skipped]:
    """The inputs of ``score`` and ``life``. With ``--move N``, all are read first: a move past
    the end of a game is a usage error before any work (it was clamped to the last move without
    a word)."""
    if move is None:
        return _loaded(files, encoding, limits)
    if move < 0:
        raise _usage_error("--move takes a move number from 0")
    inputs = list(_loaded(files, encoding, limits))
    for loaded in inputs:
        if isinstance(loaded, Skipped):
            continue
        for game in loaded.games:
            count = game.main_line().move_count if game.playable else 0
            if move > count:
                raise _usage_error(f"--move {move}: {loaded.path} game {game.index + 1} has "
                                   f"{count} moves")
    return inputs


def _check_writable(option: str, path: Path | None) -> None:
    """A usage error, before any work, for an output file that cannot be written."""
    if path is None:
        return
    try:
        if path.is_dir():
            raise _usage_error(f"{option} {path}: is a folder, not a file")
        folder = path.parent
        if not folder.is_dir():
            raise _usage_error(f"{option} {path}: the folder {folder} does not exist")
        if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise _usage_error(f"{option} {path}: not writable")
    except (OSError, ValueError) as exc:  # a name too long, a NUL in it...
        raise _usage_error(f"{option}: {exc}") from None


class _RateColumn(ProgressColumn):
    """Items per second (rich's own speed column is for bytes)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} {task.fields.get('unit', '')}/s" if speed else "")


class ProgressBar:
    """A progress bar on standard error with a total (when known), the count, the rate, the time
    left and the time taken; nothing at all when ``enabled`` is false (standard error is not a
    terminal, or ``--quiet``). The total may grow as inputs are read (games of each file)."""

    def __init__(self, unit: str, total: int | None, enabled: bool,
                 console: Console | None = None) -> None:
        self.display: Progress | None = None
        if not enabled:
            return
        self.display = Progress(TextColumn("{task.description}"), BarColumn(),
                                MofNCompleteColumn(), _RateColumn(), TimeRemainingColumn(),
                                TimeElapsedColumn(), console=console or Console(stderr=True),
                                transient=True)
        self.task = self.display.add_task(unit, total=total, unit=unit)
        self.display.start()

    def add_total(self, n: int) -> None:
        if self.display is not None:
            total = self.display.tasks[0].total or 0
            self.display.update(self.task, total=total + n)

    def advance(self, n: int = 1) -> None:
        if self.display is not None:
            self.display.advance(self.task, n)

    def update(self, completed: int, description: str | None = None) -> None:
        if self.display is not None:
            self.display.update(self.task, completed=completed, description=description)

    def close(self) -> None:
        if self.display is not None:
            self.display.stop()


def _showing(quiet: bool) -> bool:
    return not quiet and sys.stderr.isatty()


class _Tracker:
    """Progress of ``check``/``score``/``life``: over files (their total counted first) when the
    inputs hold several records, over games (known once the file is read) when they hold one."""

    def __init__(self, inputs: list[str], quiet: bool) -> None:
        showing = _showing(quiet)
        files = count_records(inputs) if showing else None
        self.per_file = files is None or files > 1
        self.bar = ProgressBar("files" if self.per_file else "games",
                               files if self.per_file else 0, showing)

    def file_read(self, games: int) -> Callable[[], None] | None:
        """Before a file's games: the callback for each game (None when counting files)."""
        if self.per_file:
            return None
        self.bar.add_total(games)
        return self.bar.advance

    def file_done(self) -> None:
        if self.per_file:
            self.bar.advance()


def _batch_progress(inputs: list[str], quiet: bool
                    ) -> tuple[Callable[[Summary], None], Callable[[], None]]:
    """A progress bar over the records on a terminal (their total counted first where that is
    cheap), plain log lines every 10 s otherwise; nothing with ``--quiet``."""
    if _showing(quiet):
        bar = ProgressBar("files", count_records(inputs), True)

        def update(summary: Summary) -> None:
            bar.update(summary.files, f"{summary.games} games")

        return update, bar.close
    last = [time.monotonic()]

    def log(summary: Summary) -> None:
        now = time.monotonic()
        if not quiet and now - last[0] >= 10:
            last[0] = now
            print(f"sgfcheck batch: {summary.files} files, {summary.games} games, "
                  f"{summary.games_per_second:.0f} games/s", file=sys.stderr, flush=True)

    return log, lambda: None


RecordArgument = Annotated[str, typer.Argument(
    metavar="FILE", help="A record (SGF, GIB, NGF, UGF), or '-' for standard input.",
    show_default=False)]


def _one_record(file: str, encoding: str | None, limits: Limits, what: str) -> LoadedFile:
    """The record of ``diagram`` and ``annotate``: one file (or ``-``) holding a game, else a
    usage error saying why."""
    loaded = next(iter(_loaded([file], encoding, limits)))
    if isinstance(loaded, Skipped):
        raise _usage_error(f"{file}: {loaded.reason}")
    if not loaded.games:
        problems = "; ".join(f"{f.code.code} {f.message}" for f in loaded.findings)
        raise _usage_error(f"{file}: no game to {what} ({problems})")
    return loaded


def _not_the_input(file: str, output: Path) -> None:
    """A usage error when the output file is the input: inputs are never changed."""
    if file != "-" and output.exists() and Path(file).exists() and (
            output.resolve() == Path(file).resolve()):
        raise _usage_error("--output is the input file; the input is never changed")


@app.command(epilog=_examples(
    "sgfcheck diagram game.sgf -o final.svg",
    "sgfcheck diagram game.sgf --rules chinese --move 180 --numbers -o move180.png",
    "sgfcheck diagram game.sgf --illegal -o illegal.svg"))
def diagram(
    file: RecordArgument,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Write here: .svg, or .png (needs the png "
        "extra). Default: SVG on standard output.", show_default=False)] = None,
    game_no: Annotated[int, typer.Option("--game", metavar="N", min=1,
                                         help="Which game of a collection.")] = 1,
    move: Annotated[int | None, typer.Option(
        metavar="N", help="The position after this move (default: the end); with --illegal, "
        "the illegal move N.")] = None,
    rules: Annotated[str, typer.Option(metavar="NAME", help="Mark territory as this ruleset "
                                       "counts it: 'auto' (from RU) or a preset.")] = "auto",
    illegal: Annotated[bool, typer.Option(
        "--illegal", metavar="", help="Draw an illegal move (the first, or --move N) on the "
        "position before it, with the stones it concerns.")] = False,
    numbers: Annotated[bool, typer.Option("--numbers", metavar="",
                                          help="Write move numbers on the stones.")] = False,
    plain: Annotated[bool, typer.Option("--plain", metavar="", help="Stones only: no dead "
                                        "stones, territory or seki marks.")] = False,
    dead_stones: Annotated[DeadStoneChoice, typer.Option(help=DEAD_STONES_HELP)
                           ] = DeadStoneChoice.AUTO,
    seed: Annotated[int, typer.Option(metavar="N", help=SEED_HELP)] = 0,
    engine: EngineOption = Engine.NONE,
    encoding: Annotated[str | None, typer.Option(metavar="CODEC",
                                                 help="Read the file in this encoding.")] = None,
    limit: LimitOption = None,
) -> None:
    """Draw a position as SVG or PNG, with its dead stones and territory, or an illegal move.

    Stones, the last move, dead stones, each colour's territory as a ruleset counts it, seki
    points, points still to fill; or an illegal move on the position before it.

    Every stone is one element with the classes 'stone black' or 'stone white' (plus 'dead',
    'seki', 'uncertain', 'concerned') and data-point="D4", for CSS. Exit status: 0 drawn,
    2 usage error or unreadable input.
    """
    _validate([rules], encoding)
    limits = _limits(limit)
    _check_writable("--output", output)
    suffix = output.suffix.lower() if output is not None else ".svg"
    if suffix not in (".svg", ".png"):
        raise _usage_error(f"--output {output}: write .svg or .png")
    loaded = _one_record(file, encoding, limits, "draw")
    if game_no > len(loaded.games):
        raise _usage_error(f"--game {game_no}: {file} holds {len(loaded.games)} game(s)")
    record = loaded.games[game_no - 1]
    moves = record.main_line().move_count if record.playable else 0
    if move is not None and not 0 <= move <= moves:
        raise _usage_error(f"--move {move}: {file} game {game_no} has {moves} moves")
    checked = check_loaded(LoadedFile(loaded.path, loaded.encoding, loaded.encoding_guessed,
                                      [record], loaded.findings),
                           CheckOptions(rules=rules, encoding=encoding, limits=limits))
    report = checked.games[0]
    if not record.playable or report.rules is None:
        raise _usage_error(f"{file} game {game_no}: not a game of Go that can be replayed")
    if illegal:
        wanted = [f for f in report.illegal_moves if move is None or f.move == move]
        if not wanted:
            at = f" at move {move}" if move is not None else ""
            raise _usage_error(f"{file} game {game_no}: no illegal move{at} under "
                               f"{report.rules.ruleset.name}")
        picture = illegal_move_picture(report, wanted[0], numbers=numbers)
        if picture is None:
            raise _usage_error(f"{file} game {game_no}: move {wanted[0].move} has no point "
                               "on the board to draw")
    elif plain:
        rep = replay(record, report.line or record.main_line(), report.rules.ruleset, upto=move)
        picture = position_picture(rep.board, report.line, rep.moves, numbers=numbers,
                                   title=f"after move {rep.moves}")
    else:
        scored = score_game(report, ScoreOptions(rules=(), game_rules=rules, move=move,
                                                 encoding=encoding, dead_stones=dead_stones,
                                                 seed=seed, engine=engine, limits=limits))
        if not scored.scores:
            raise _usage_error(f"{file} game {game_no}: {scored.error or 'nothing to count'}")
        picture = scored_picture(scored, scored.scores[0], numbers=numbers)
        assert scored.dead is not None
        picture.title += (f", after move {scored.scored_move}, dead stones: "
                          f"{scored.dead.source.value}")
    svg = render_svg(picture)
    if output is None:
        typer.echo(svg)
        raise typer.Exit(ExitStatus.OK)
    if suffix == ".png":
        try:
            output.write_bytes(svg_to_png(svg))
        except PngUnavailable as exc:
            raise _usage_error(str(exc)) from None
    else:
        output.write_text(svg + "\n", encoding="utf-8")
    _say(f"{terminal_text(file)} game {game_no}: {terminal_text(picture.title)} -> {output}",
         err=True)
    raise typer.Exit(ExitStatus.OK)


@app.command(epilog=_examples(
    "sgfcheck annotate game.sgf -o checked.sgf",
    "sgfcheck annotate fox.sgf -o fixed.sgf --fix komi,rules",
    "sgfcheck annotate game.sgf -o checked.sgf --dead-stones katago --rules chinese,aga"))
def annotate(
    file: RecordArgument,
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE",
                                         help="The annotated SGF to write (never the input).",
                                         show_default=False)],
    fix: Annotated[str | None, typer.Option(
        metavar="WHAT,...", help="Also rewrite these properties as sgfcheck read them: komi "
        "(KM; the komi RE matches under, when that is not the record's), rules (RU, when it "
        "was missing, unknown, or RE matches under other rules).")] = None,
    rules: Annotated[str | None, typer.Option(
        metavar="NAME,...", help="Rows of the root comment's score table besides the game's "
        "own ruleset (default: tromp-taylor,chinese,japanese,aga,stone-scoring).")] = None,
    game_rules: Annotated[str, typer.Option(metavar="NAME", help="The game's own ruleset: "
                                            "'auto' (from RU) or a preset.")] = "auto",
    dead_stones: Annotated[DeadStoneChoice, typer.Option(help=DEAD_STONES_HELP)
                           ] = DeadStoneChoice.AUTO,
    seed: Annotated[int, typer.Option(metavar="N", help=SEED_HELP)] = 0,
    engine: EngineOption = Engine.NONE,
    encoding: Annotated[str | None, typer.Option(metavar="CODEC",
                                                 help="Read the file in this encoding.")] = None,
    limit: LimitOption = None,
) -> None:
    """Write a copy of a record with the findings, verdicts and territory in it, for SGF editors.

    The findings as comments at their moves, the verdict per ruleset and the RE check in the
    root comment, and the territory of the game's own count as TB/TW. Every original property
    and variation is kept; the input is never changed.

    Exit status: as score (0 every scored result matches, 1 a mismatch, an unverifiable
    result or an error finding), 2 usage error or unreadable input.
    """
    wanted = frozenset(w.strip() for w in fix.split(",") if w.strip()) if fix else frozenset()
    from sgfcheck.annotate import FIXABLE  # imported when used: a shorter start-up
    from sgfcheck.annotate import annotate as annotate_record

    unknown = sorted(wanted - set(FIXABLE))
    if unknown:
        raise _usage_error(f"--fix: {', '.join(unknown)}: only {', '.join(FIXABLE)} can be fixed")
    row_names = tuple(r.strip() for r in rules.split(",") if r.strip()) if rules else ()
    _validate([*row_names, game_rules], encoding)
    limits = _limits(limit)
    _check_writable("--output", output)
    _not_the_input(file, output)
    loaded = _one_record(file, encoding, limits, "annotate")
    options = ScoreOptions(rules=row_names, game_rules=game_rules, encoding=encoding,
                           dead_stones=dead_stones, seed=seed, engine=engine, limits=limits)
    scored = score_loaded(loaded, options)
    result = annotate_record(scored, wanted)
    output.write_bytes(result.data)
    _say(f"{terminal_text(file)} -> {output}: {result.games} game(s) annotated, "
         f"{result.comments} comment(s)", err=True)
    for change in result.changes:
        _say(f"  {terminal_text(change)}", err=True)
    raise typer.Exit(score_status(scored))


@app.command(epilog=_examples("sgfcheck convert game.gib -o game.sgf",
                             "sgfcheck convert --encoding euc-kr game.gib -o game.sgf"))
def convert(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A Tygem .gib, WBaduk .ngf or "
                                         "PandaNet .ugf/.ugi "
                                         "record.", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE",
                                         help="The SGF file to write.",
                                         show_default=False)],
    encoding: Annotated[str | None, typer.Option(metavar="CODEC",
                                                 help="Read the file in this encoding.")] = None,
    limit: LimitOption = None,
) -> None:
    """Write a GIB, NGF or UGF record as SGF (UTF-8), saying what its format could not tell.

    Exit status: 0 written, 1 written with an error finding (a line that is not a move...),
    2 usage error or unreadable input. The input is never changed.
    """
    _validate(["auto"], encoding)
    limits = _limits(limit)
    _check_writable("--output", output)
    _not_the_input(str(file), output)
    read = read_path(str(file), limits)
    if read.data is None:
        for finding in read.findings:
            _say(f"{file}: {finding.code.code} {finding.message}", err=True)
        raise typer.Exit(ExitStatus.USAGE)
    record = to_sgf(read.data, str(file), encoding)
    if record.fmt is RecordFormat.SGF:
        raise _usage_error(f"{file} is SGF already; nothing to convert")
    for finding in record.findings:
        _say(wrap_line(f"{file}: {finding.code.code} {finding.severity.value} {finding.message}",
                       _width(False)), err=True)
    output.write_bytes(record.data)
    _say(f"{file}: {FORMAT_NAMES[record.fmt]} -> {output}")
    raise typer.Exit(ExitStatus.FOUND if any(f.is_error for f in record.findings)
                     else ExitStatus.OK)


report_app = typer.Typer(help="Reports written by batch --out-dir: join the parts.",
                         no_args_is_help=True)
app.add_typer(report_app, name="report")


@report_app.command("merge", epilog=_examples(
    "sgfcheck report merge run/ -o report.jsonl",
    "sgfcheck report merge s3://bucket/run --summary-json summary.json --duplicates dup.json"))
def report_merge(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="The folder of batch --out-dir "
                                          "(a local folder or an fsspec URL).",
                                          show_default=False)],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Join the parts, in input order, into this "
        "JSON Lines report.")] = None,
    summary_json: Annotated[Path | None, typer.Option(
        "--summary-json", metavar="FILE", help="Write the summary to this JSON file.")] = None,
    duplicates: Annotated[Path | None, typer.Option(
        "--duplicates", metavar="FILE", help="Write every duplicate group (across all parts) "
        "to this JSON file.")] = None,
    wide: WideOption = False,
) -> None:
    """Join the parts of a batch --out-dir run into one report, recompute its summary and find
    the duplicates across all parts.

    Exit status: 0 merged, 1 some partitions are not complete (run the batch again), 2 usage
    error (not such a folder).
    """
    from sgfcheck.parts import merge_parts

    for option, path in (("--output", output), ("--summary-json", summary_json),
                         ("--duplicates", duplicates)):
        _check_writable(option, path)
    try:
        if output is not None:
            with open(output, "w", encoding="utf-8", newline="") as stream:
                summary = merge_parts(folder, stream)
        else:
            summary = merge_parts(folder, None)
    except (OSError, ValueError) as exc:
        raise _usage_error(f"{folder}: {exc}") from None
    _say(render_summary_text(summary, _width(wide)))
    if summary_json is not None:
        summary_json.write_text(json_document(summary_dict(summary)), encoding="utf-8")
    if duplicates is not None:
        duplicates.write_text(json_document(duplicates_dict(summary)), encoding="utf-8")
    incomplete = any(p.startswith("partitions not complete") for p in summary.problems)
    raise typer.Exit(ExitStatus.FOUND if incomplete else ExitStatus.OK)


engines_app = typer.Typer(help="Engines for dead stones: what is installed, installing KataGo.",
                          no_args_is_help=True)
app.add_typer(engines_app, name="engines")


class EngineName(str, Enum):
    katago = "katago"


@engines_app.command("install", epilog=_examples("sgfcheck engines install katago"))
def engines_install(
    name: Annotated[EngineName, typer.Argument(help="The engine to install.")],
) -> None:
    """Put KataGo and its network into the per-user data folder (from the katrain wheel on
    PyPI, about 106 MB). Exit status 1 when it fails, saying why."""
    try:
        install_katago(lambda line: typer.echo(line))
    except KataGoError as exc:
        typer.echo(f"sgfcheck: {exc}", err=True)
        raise typer.Exit(ExitStatus.FOUND) from None
    if not opencl_present():
        typer.echo(f"KataGo needs an OpenCL driver to run on this machine: {OPENCL_HELP}")


@engines_app.command("list", epilog=_examples("sgfcheck engines list"))
def engines_list() -> None:
    """Say which engines are installed and usable (KataGo is started and asked once).
    Exit status 1 when none is usable."""
    statuses = engine_statuses()
    for status in statuses:
        _say(wrap_line(f"{status.name}: {'usable' if status.usable else 'not usable'} - "
                       f"{status.detail}", _width(False)))
    raise typer.Exit(ExitStatus.OK if any(s.usable for s in statuses) else ExitStatus.FOUND)


@app.command("rules", epilog=_examples("sgfcheck rules", "sgfcheck rules --format json"))
def list_rules(
    output_format: Annotated[Format, typer.Option("--format", help="text or json.")
                             ] = Format.text,
    wide: WideOption = False,
) -> None:
    """List the ruleset presets and every parameter."""
    if output_format is Format.json:
        typer.echo(json_text(presets_dict(PRESETS)))
        return
    typer.echo(render_rules_text(PRESETS, _width(wide)))


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(ExitStatus.INTERRUPTED)


if __name__ == "__main__":
    main()
