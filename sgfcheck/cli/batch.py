"""``sgfcheck batch``: check and score every game of an archive, one report row a game."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

from sgfcheck.cli import options
from sgfcheck.cli.common import (
    check_writable,
    examples,
    not_an_input,
    say,
    usage_error,
    width,
    write_file,
    write_page,
)
from sgfcheck.cli.exits import ExitStatus, FailPolicy
from sgfcheck.cli.progress import batch_progress
from sgfcheck.escaping import terminal_text, visible
from sgfcheck.settings import DeadStoneChoice, EngineName, Settings

if TYPE_CHECKING:
    from sgfcheck.output.summary import Summary
    from sgfcheck.run.batch import Problems
    from sgfcheck.run.plan import BatchPlan

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


class _BatchCommand(TyperCommand):
    """``batch``'s usage line names its inputs as every command does (``{INPUT}...``): they may
    be left out only with ``--resume FILE`` (the help says so), and ``[OPTIONS] [INPUT]`` reads
    as a link in the manual's Markdown."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [piece.replace("[INPUT]", "{INPUT}") for piece in super().collect_usage_pieces(ctx)]


@app.command("batch", cls=_BatchCommand, epilog=examples(
    "sgfcheck batch archive/ games.zip more.tar.gz --out report.jsonl",
    "sgfcheck batch archive/ --resume report.jsonl",
    "find . -name '*.sgf' | sgfcheck batch - --out report.csv --fail-on mismatch",
    "sgfcheck batch uploads/ --timeout 10 --limit memory=512 --limit file-size=1M"))
def batch(
    ctx: typer.Context,
    inputs: Annotated[
        list[str] | None,
        typer.Argument(metavar="INPUT", help="Files, folders (recursive), globs, "
                       ".zip/.tar/.tar.gz archives, or "
                       "'-' to read paths from standard input; none with --resume FILE: the "
                       "run's own.", show_default=False),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Report file, its format by its name: "
                                  ".jsonl (one JSON object per game: the score schema with "
                                  "path, member and file_findings), .csv (the main facts of a "
                                  "row) or .parquet (typed columns; pyarrow: the parquet "
                                  "extra); any other name is JSON Lines. Written as results "
                                  "arrive.")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Complete this earlier report: skip the "
                                  "files it holds and append the rest (a line cut by an "
                                  "interruption is dropped first).")
    ] = None,
    jobs: Annotated[int, typer.Option(metavar="N", help="Worker processes (0: one per core); "
                                      "the main process only walks the inputs and writes.")
                    ] = 0,
    timeout: Annotated[float, typer.Option(metavar="S", help="Seconds allowed per file (0: no "
                                           "limit) for sgfcheck's own work; a file that takes "
                                           "longer is a row with SGF031. Where an engine may be "
                                           "asked, its --limit engine-file comes on top.")] = 30.0,
    rules: options.Rules = "auto",
    komi: options.Komi = None,
    fail_on: Annotated[
        FailPolicy, typer.Option(help="Exit 1 when: error (any error finding or unreadable "
                                 "input), illegal (an illegal move), mismatch (an RE mismatch), "
                                 "never.")
    ] = FailPolicy.ERROR,
    duplicates: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Write the duplicate groups to this JSON "
                                  "file: identical files (the same bytes) and the same game "
                                  "under any of the 8 board symmetries (games of 20 moves or "
                                  "more).")
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
                                 "by the worker that ran it (or Parquet: --part-format), and a "
                                 "manifest (a local folder or "
                                 "an fsspec URL); running the command again continues it; join "
                                 "with 'sgfcheck report merge DIR'.")
    ] = None,
    part_size: Annotated[int, typer.Option(metavar="N", min=1, max=10_000_000,
                                           help="Files in a partition of --out-dir.")
                         ] = 10_000,
    part_format: Annotated[
        str, typer.Option("--part-format", metavar="FORMAT", help="The parts of --out-dir: "
                          "jsonl (gzipped JSON Lines) or parquet (the typed columns of a "
                          "Parquet report; pyarrow: the parquet extra).")
    ] = "jsonl",
    html_page: Annotated[
        Path | None, typer.Option("--html", metavar="FILE", help="Write a self-contained page: "
                                  "the summary, a sortable and filterable table of the problem "
                                  "games (illegal moves, errors, results that do not match), "
                                  "each with its board (the first 500).")
    ] = None,
    encoding: options.Encoding = None,
    dead_stones: Annotated[
        DeadStoneChoice,
        typer.Option(help="As for score, but markup (else only stones proven dead) by default: "
                     "an archive run asks for the estimate (auto).")
    ] = DeadStoneChoice.MARKUP,
    judge_unscored: Annotated[
        bool, typer.Option("--judge-unscored", metavar="",
                           help="Judge the dead stones (estimate, engine) of a game that ended by "
                           "resignation, time or forfeit too. Skipped by default: no count "
                           "decides such a result, so only its markup (where --dead-stones reads "
                           "it) and the stones proven dead are read, said in its notes.")
    ] = False,
    engine: options.Engine = EngineName.AUTO,
    limit: options.Limit = None,
    follow_links: options.FollowLinks = False,
    wide: options.Wide = False,
    quiet: options.Quiet = False,
) -> None:
    """Check and score every game of an archive; one report row per game, a summary at the end.

    Exit status per --fail-on (default: 1 on any error finding or unreadable input), 2 on a usage
    error.
    """
    options.seconds_of(timeout)
    settings = options.settings_of(rules, komi, encoding, limit, follow_links=follow_links,
                                   dead_stones=dead_stones, engine=engine, timeout=timeout,
                                   judge_unscored=judge_unscored)
    if not inputs:
        inputs, settings = _the_runs_own(ctx, resume)
    for option, path in (("--out", out), ("--resume", resume), ("--duplicates", duplicates),
                         ("--summary-json", summary_json), ("--html", html_page)):
        check_writable(option, path)
        if option != "--resume":  # the report resumed is written on, never read as a record
            not_an_input(option, path, inputs)
    from sgfcheck.run.plan import PlanError, plan_batch

    try:
        plan = plan_batch(inputs, settings, jobs=jobs, out=out, resume=resume, out_dir=out_dir,
                          part_format=part_format, part_size=part_size, scheduler=scheduler,
                          duplicates=duplicates, summary_json=summary_json,
                          html_page=html_page)
    except PlanError as exc:
        raise usage_error(str(exc)) from None
    summary, problems = _run(plan, quiet)
    raise typer.Exit(_said(plan, summary, problems, width(wide), fail_on))


_SETTING_OPTIONS = ("rules", "komi", "encoding", "follow_links", "dead_stones", "engine",
                    "judge_unscored", "limit", "timeout")
"""The options a run state keeps (its settings): with ``--resume FILE`` alone they are the
state's."""


def _the_runs_own(ctx: typer.Context, resume: Path | None) -> tuple[list[str], Settings]:
    """``--resume FILE`` without inputs: the inputs and settings its run state holds. A usage
    error without ``--resume``, for a state that cannot be read, or where settings are given
    too (they would be another run)."""
    from sgfcheck.run.ledger import read_state_head, state_path

    if resume is None:
        raise usage_error("no input: give files, folders or archives, or --resume FILE alone to "
                          "go on with a run")
    given = [f"--{name.replace('_', '-')}" for name in _SETTING_OPTIONS
             if getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"]
    if given:
        raise usage_error(f"--resume {resume} without inputs goes on with the run its state "
                          f"holds, its inputs and options: {', '.join(given)} would make "
                          "another run (give the inputs and every option, or neither)")
    state = state_path(resume)
    try:
        head = read_state_head(state)
        return list(head["inputs"]), Settings.from_plain(head["settings"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise usage_error(f"--resume {resume} without inputs needs its run state "
                          f"({state.name}) to know the run: {exc}") from None


def _run(plan: BatchPlan, quiet: bool) -> tuple[Summary, Problems | None]:
    """The run of a plan, with its progress; an interruption or a run that cannot go on is said
    (exit 130, or a usage error)."""
    # Imported when used (pebble, the pages): the other commands start faster without them.
    from sgfcheck.run.batch import Problems
    from sgfcheck.run.executor import RunStopped
    from sgfcheck.run.report import ReportNotWritten, ReportProblem, write_parts, write_report

    problems = Problems() if plan.html_page is not None else None
    progress, finish = batch_progress(list(plan.inputs), quiet)
    stdin = sys.stdin if "-" in plan.inputs else None
    inputs = list(plan.inputs)
    try:
        if plan.out_dir is not None:
            summary = write_parts(inputs, plan.options, plan.out_dir, plan.part_size,
                                  parquet=plan.parquet_parts, scheduler=plan.scheduler,
                                  stdin=stdin, progress=progress)
        else:
            summary = write_report(inputs, plan.options,
                                   out=None if plan.resume else plan.out,
                                   resume=plan.out if plan.resume else None,
                                   scheduler=plan.scheduler, stdin=stdin, progress=progress,
                                   problems=problems)
    except KeyboardInterrupt:
        finish()
        if plan.out_dir is not None:
            typer.echo("interrupted: the folder holds every partition finished so far; run the "
                       "same command again to finish it", err=True)
        else:
            report = plan.out if plan.out is not None else None
            typer.echo("interrupted: the report holds every file finished so far; complete it "
                       + (f"with: sgfcheck batch --resume {shlex.quote(visible(str(report)))}"
                          if report is not None else "with --resume"), err=True)
        raise typer.Exit(ExitStatus.INTERRUPTED) from None
    except ReportNotWritten as exc:
        finish()
        say(f"sgfcheck: {exc}", err=True)
        raise typer.Exit(ExitStatus.OUTPUT) from None
    except (ReportProblem, RunStopped) as exc:
        finish()
        raise usage_error(str(exc)) from None
    finish()
    return summary, problems


def _said(plan: BatchPlan, summary: Summary, problems: Problems | None, columns: int | None,
          fail_on: FailPolicy) -> ExitStatus:
    """The summary, notes and hints, the files written beside the report; the exit status. A
    run that read no record removes the report it made and says why."""
    from sgfcheck.cli.exits import batch_status, over_inputs
    from sgfcheck.output import formats
    from sgfcheck.output.text import wrap_line

    if not summary.files and not summary.skipped:
        for path in plan.made:  # an empty report and its state help nobody
            path.unlink(missing_ok=True)
        for problem in summary.problems:
            typer.echo(wrap_line(f"not read: {terminal_text(problem)}", columns), err=True)
        raise usage_error("no record in the inputs" + (
            " (each input not read is named above)" if summary.input_problems
            else ": no file found in " + ", ".join(plan.inputs)))
    hints = [n for n in summary.notes if n.startswith("hint: ")]
    for note in summary.notes:
        if note not in hints:
            typer.echo(wrap_line(f"note: {terminal_text(note)}", columns), err=True)
    say(formats.summary_text()(summary, columns))
    for hint in hints:
        typer.echo(wrap_line(terminal_text(hint), columns), err=True)
    if plan.out_dir is not None:
        say(f"parts written to {plan.out_dir}; duplicates across parts and one report: "
            f"sgfcheck report merge {plan.out_dir}")
    if plan.duplicates is not None:
        write_file(plan.duplicates, formats.duplicates_json()(summary))
    if plan.summary_json is not None:
        write_file(plan.summary_json, formats.summary_json()(summary))
    if plan.html_page is not None and problems is not None:
        write_page(formats.batch_html()(summary, problems.shown, problems.more), plan.html_page)
    for line in _what_was_written(plan.out, plan.html_page, plan.options.pages):
        say(wrap_line(line, columns), err=True)
    readable = summary.skipped or summary.files - summary.unreadable - summary.not_records
    return over_inputs(batch_status(summary, fail_on), readable)


def _what_was_written(report: Path | None, html_page: Path | None, pages: str | None
                      ) -> list[str]:
    """Said once at the end: the files a run leaves beside its report and its page, and what
    each is for."""
    from sgfcheck.run.ledger import state_path

    lines = []
    if report is not None:
        state = state_path(report)
        if state.exists():
            lines.append(f"beside the report, {state.name}: the run's state, which --resume "
                         f"{report.name} reads to go on after an interruption (keep it with the "
                         "report, or remove both)")
    if pages is not None and Path(pages).is_dir():
        lines.append(f"beside the page, {Path(pages).name}/: the page of each problem game, "
                     f"linked from {html_page.name if html_page else 'the page'}")
    return lines

