"""``sgfcheck convert``: a GIB, NGF or UGF record written as SGF."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sgfcheck.cli import options
from sgfcheck.cli.common import (
    check_writable,
    examples,
    not_the_input,
    say,
    usage_error,
    width,
    write_file,
)
from sgfcheck.cli.exits import ExitStatus

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("convert", epilog=examples("sgfcheck convert game.gib -o game.sgf",
                  "sgfcheck convert --encoding euc-kr game.gib -o game.sgf"))
def convert(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A Tygem .gib, WBaduk .ngf or "
                                         "PandaNet .ugf/.ugi "
                                         "record.", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE",
                                         help="The SGF file to write.",
                                         show_default=False)],
    encoding: options.Encoding = None,
    limit: options.Limit = None,
) -> None:
    """Write a GIB, NGF or UGF record as SGF (UTF-8), saying what its format could not tell.

    Exit status: 0 written, 1 written with an error finding (a line that is not a move...),
    2 usage error or unreadable input. The input is never changed.
    """
    options.validate(["auto"], encoding)
    limits = options.limits_of(limit)
    check_writable("--output", output)
    not_the_input(str(file), output)
    from sgfcheck.output.text import wrap_line
    from sgfcheck.records.formats import FORMAT_NAMES, RecordFormat
    from sgfcheck.records.reading import read_path
    from sgfcheck.records.record import to_sgf

    read = read_path(str(file), limits)
    if read.data is None:
        for finding in read.findings:
            say(f"{file}: {finding.code.code} {finding.message}", err=True)
        raise typer.Exit(ExitStatus.USAGE)
    record = to_sgf(read.data, str(file), encoding)
    if record.fmt is RecordFormat.SGF:
        raise usage_error(f"{file} is SGF already; nothing to convert")
    for finding in record.findings:
        say(wrap_line(f"{file}: {finding.code.code} {finding.severity.value} {finding.message}",
                      width(False)), err=True)
    write_file(output, record.data)
    say(f"{file}: {FORMAT_NAMES[record.fmt]} -> {output}")
    raise typer.Exit(ExitStatus.FOUND if any(f.is_error for f in record.findings)
                     else ExitStatus.OK)

