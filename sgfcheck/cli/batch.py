"""``sgfcheck batch``: check and score every game of an archive, one report row a game."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from sgfcheck.cli.common import (
    EncodingOption,
    EngineOption,
    FollowLinksOption,
    KomiOption,
    LimitOption,
    QuietOption,
    RulesOption,
    WideOption,
    check_writable,
    examples,
    limits_of,
    say,
    seconds_of,
    usage_error,
    validate,
    width,
    write_page,
)
from sgfcheck.cli.exits import ExitStatus, FailPolicy
from sgfcheck.cli.progress import batch_progress
from sgfcheck.escaping import terminal_text
from sgfcheck.settings import DeadStoneChoice, EngineName, Settings

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("batch", epilog=examples(
    "sgfcheck batch archive/ games.zip more.tar.gz --out report.jsonl",
    "sgfcheck batch archive/ --resume report.jsonl",
    "find . -name '*.sgf' | sgfcheck batch - --out report.csv --fail-on mismatch",
    "sgfcheck batch uploads/ --timeout 10 --limit memory=512 --limit file-size=1M"))
def batch(
    inputs: Annotated[
        list[str],
        typer.Argument(metavar="INPUT", help="Files, folders (recursive), globs, "
                       ".zip/.tar/.tar.gz archives, or "
                       "'-' to read paths from standard input.", show_default=False),
    ],
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
                                           "limit); a file that takes longer is a row with "
                                           "SGF031. The engines (KataGo, GNU Go) get half of "
                                           "it at most (and --limit engine-file).")] = 30.0,
    rules: RulesOption = "auto",
    komi: KomiOption = None,
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
    encoding: EncodingOption = None,
    dead_stones: Annotated[
        DeadStoneChoice,
        typer.Option(help="As for score, but markup (else only stones proven dead) by default: "
                     "an archive run asks for the estimate (auto).")
    ] = DeadStoneChoice.MARKUP,
    engine: EngineOption = EngineName.AUTO,
    limit: LimitOption = None,
    follow_links: FollowLinksOption = False,
    wide: WideOption = False,
    quiet: QuietOption = False,
) -> None:
    """Check and score every game of an archive; one report row per game, a summary at the end.

    Exit status per --fail-on (default: 1 on any error finding or unreadable input), 2 on a usage
    error.
    """
    validate([rules], encoding, komi)
    if resume is not None and out is not None and resume != out:
        raise usage_error("--resume FILE writes to FILE: give --out the same file or leave it")
    most = max(8, 4 * (os.cpu_count() or 1))
    if not 0 <= jobs <= most:
        # Each worker is a process of tens of MB: a huge number would exhaust the machine.
        raise usage_error(f"--jobs takes a number from 0 (one per core) to {most} (four per "
                          "core)")
    seconds_of(timeout)
    limits = limits_of(limit)
    for option, path in (("--out", out), ("--resume", resume), ("--duplicates", duplicates),
                         ("--summary-json", summary_json), ("--html", html_page)):
        check_writable(option, path)
    if out_dir is not None:
        for option, value in (("--out", out), ("--resume", resume), ("--html", html_page),
                              ("--duplicates", duplicates)):
            if value is not None:
                raise usage_error(f"--out-dir writes the report as parts: {option} goes with "
                                  "'sgfcheck report merge DIR' (resume: run the same command "
                                  "again)")
    if part_format not in ("jsonl", "parquet"):
        raise usage_error(f"--part-format {part_format}: jsonl or parquet")
    if part_format != "jsonl" and out_dir is None:
        raise usage_error("--part-format is the format of the parts of --out-dir DIR (a "
                          "Parquet report in one file: --out FILE.parquet)")
    report_path = out or resume
    if part_format == "parquet" or (report_path is not None
                                    and report_path.suffix.lower() == ".parquet"):
        from sgfcheck.run.parquet import ParquetUnavailable, require_pyarrow

        try:
            require_pyarrow()
        except ParquetUnavailable as exc:
            raise usage_error(str(exc)) from None
    settings = Settings(rules=rules, komi=komi, encoding=encoding, follow_links=follow_links,
                        dead_stones=dead_stones,
                        engine=engine, limits=limits, timeout=timeout)
    # Imported when used (pebble, the pages): the other commands start faster without them.
    from sgfcheck.cli.exits import batch_status, over_inputs
    from sgfcheck.output import formats
    from sgfcheck.output.text import wrap_line
    from sgfcheck.run.batch import BatchOptions, Problems
    from sgfcheck.run.executor import RunStopped
    from sgfcheck.run.report import ReportProblem, write_parts, write_report

    # With --html on this machine's pool, each game with illegal moves, errors or a mismatch
    # gets its game page beside the page (a cluster's workers write elsewhere: no pages).
    pages = (str(html_page.with_name(html_page.stem + "-games"))
             if html_page is not None and scheduler is None and out_dir is None else None)
    options = BatchOptions(settings=settings, jobs=jobs, pages=pages)
    problems = Problems() if html_page is not None else None
    progress, finish = batch_progress(inputs, quiet)
    stdin = sys.stdin if "-" in inputs else None
    from sgfcheck.run.ledger import state_path

    # What this run creates (not what an earlier run left): removed again if it read nothing.
    made = [p for p in ((out, state_path(out)) if out is not None and resume is None else ())
            if not p.exists()]
    try:
        if out_dir is not None:
            summary = write_parts(inputs, options, out_dir, part_size, parquet=part_format ==
                                  "parquet", scheduler=scheduler,
                                  stdin=stdin, progress=progress)
        else:
            summary = write_report(inputs, options, out=out, resume=resume, scheduler=scheduler,
                                   stdin=stdin, progress=progress, problems=problems)
    except KeyboardInterrupt:
        finish()
        if out_dir is not None:
            typer.echo("interrupted: the folder holds every partition finished so far; run the "
                       "same command again to finish it", err=True)
        else:
            typer.echo("interrupted: the report holds every file finished so far; complete it "
                       "with --resume", err=True)
        raise typer.Exit(ExitStatus.INTERRUPTED) from None
    except (ReportProblem, RunStopped) as exc:
        finish()
        raise usage_error(str(exc)) from None
    finish()
    columns = width(wide)
    if not summary.files and not summary.skipped:
        for path in made:  # an empty report and its state help nobody
            path.unlink(missing_ok=True)
        for problem in summary.problems:
            typer.echo(wrap_line(f"not read: {terminal_text(problem)}", columns), err=True)
        raise usage_error("no record in the inputs" + (
            " (each input not read is named above)" if summary.input_problems
            else ": no file found in " + ", ".join(inputs)))
    hints = [n for n in summary.notes if n.startswith("hint: ")]
    for note in summary.notes:
        if note not in hints:
            typer.echo(wrap_line(f"note: {terminal_text(note)}", columns), err=True)
    say(formats.summary_text()(summary, columns))
    for hint in hints:
        typer.echo(wrap_line(terminal_text(hint), columns), err=True)
    if out_dir is not None:
        say(f"parts written to {out_dir}; duplicates across parts and one report: "
            f"sgfcheck report merge {out_dir}")
    if duplicates is not None:
        duplicates.write_text(formats.duplicates_json()(summary), encoding="utf-8")
    if summary_json is not None:
        summary_json.write_text(formats.summary_json()(summary), encoding="utf-8")
    if html_page is not None and problems is not None:
        write_page(formats.batch_html()(summary, problems.shown, problems.more), html_page)
    for line in _what_was_written(out or resume, html_page, pages):
        say(wrap_line(line, columns), err=True)
    readable = summary.skipped or summary.files - summary.unreadable - summary.not_records
    raise typer.Exit(over_inputs(batch_status(summary, fail_on), readable))


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

