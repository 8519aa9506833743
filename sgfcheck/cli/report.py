"""``sgfcheck report merge``: the parts of a ``batch --out-dir`` run joined into one report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sgfcheck.cli import options
from sgfcheck.cli.common import (
    check_writable,
    examples,
    say,
    usage_error,
    width,
    write_file,
)
from sgfcheck.cli.exits import ExitStatus

app = typer.Typer(name="report", add_completion=False, pretty_exceptions_enable=False,
                 help="Reports written by batch --out-dir: join the parts.",
                         no_args_is_help=True)


@app.callback()
def report() -> None:
    """Reports written by batch --out-dir: join the parts."""


@app.command("merge", epilog=examples(
    "sgfcheck report merge run/ -o report.jsonl",
    "sgfcheck report merge run/ -o report.parquet",
    "sgfcheck report merge s3://bucket/run --summary-json summary.json --duplicates dup.json"))
def report_merge(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="The folder of batch --out-dir "
                                          "(a local folder or an fsspec URL).",
                                          show_default=False)],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Join the parts, in input order, into this "
        "report: JSON Lines, or Parquet (--format parquet, or a .parquet name).")] = None,
    fmt: Annotated[str, typer.Option(
        "--format", metavar="FORMAT", help="jsonl or parquet (pyarrow: the parquet extra); "
        "default: from the --output name. Parquet parts (batch --part-format parquet) merge "
        "into Parquet only.")] = "auto",
    summary_json: Annotated[Path | None, typer.Option(
        "--summary-json", metavar="FILE", help="Write the summary to this JSON file.")] = None,
    duplicates: Annotated[Path | None, typer.Option(
        "--duplicates", metavar="FILE", help="Write every duplicate group (across all parts) "
        "to this JSON file.")] = None,
    wide: options.Wide = False,
) -> None:
    """Join the parts of a batch --out-dir run into one report, recompute its summary and find
    the duplicates across all parts.

    Exit status: 0 merged, 1 some partitions are not complete (run the batch again), 2 usage
    error (DIR is not a folder, or holds no run).
    """
    from sgfcheck.output import formats
    from sgfcheck.run.parts import JsonLinesOut, ParquetOut, merge_parts, parts_format
    from sgfcheck.run.reportfile import ReportKind

    for option, path in (("--output", output), ("--summary-json", summary_json),
                         ("--duplicates", duplicates)):
        check_writable(option, path)
    if fmt not in ("auto", "jsonl", "parquet"):
        raise usage_error(f"--format {fmt}: jsonl or parquet")
    try:
        parts = parts_format(folder)
    except (OSError, ValueError) as exc:
        raise usage_error(f"{folder}: {exc}") from None
    parquet = fmt == "parquet" or (fmt == "auto" and output is not None
                                   and output.suffix.lower() == ".parquet")
    if parquet and output is None:
        raise usage_error("--format parquet writes a file: give --output FILE")
    if output is not None and not parquet and parts is ReportKind.PARQUET:
        raise usage_error(f"{folder}: its parts are Parquet (batch --part-format parquet): "
                          "merge them into a Parquet report (-o FILE.parquet)")
    try:
        if output is not None and parquet:
            from sgfcheck.run.parquet import ParquetUnavailable

            try:
                sink = ParquetOut(output)
            except ParquetUnavailable as exc:
                raise usage_error(str(exc)) from None
            try:
                summary = merge_parts(folder, sink)
            finally:
                sink.close()
        elif output is not None:
            with open(output, "w", encoding="utf-8", newline="") as stream:
                summary = merge_parts(folder, JsonLinesOut(stream))
        else:
            summary = merge_parts(folder, None)
    except (OSError, ValueError, KeyError, TypeError) as exc:  # a damaged manifest or part
        raise usage_error(f"{folder}: {exc}") from None
    say(formats.summary_text()(summary, width(wide)))
    if summary_json is not None:
        write_file(summary_json, formats.summary_json()(summary))
    if duplicates is not None:
        write_file(duplicates, formats.duplicates_json()(summary))
    incomplete = any(p.startswith("partitions not complete") for p in summary.problems)
    raise typer.Exit(ExitStatus.FOUND if incomplete else ExitStatus.OK)
