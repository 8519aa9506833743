"""``sgfcheck schema``: the JSON schema of every JSON output, as shipped in the package."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sgfcheck.cli.common import check_writable, examples, say, write_file
from sgfcheck.cli.exits import ExitStatus

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("schema", epilog=examples("sgfcheck schema -o report.schema.json",
                                       "sgfcheck schema --version"))
def schema(
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Write the schema here (default: standard "
        "output).", show_default=False)] = None,
    version: Annotated[bool, typer.Option("--version", metavar="", help="Print only the "
                                          "schema's version.")] = False,
) -> None:
    """Print the JSON schema of check, score, life, batch and report rows (JSON Schema 2020-12).

    Its 'version' changes with every change of a field; a batch run's state file
    (REPORT.state) and a parts manifest name the version they were written with. Exit status:
    0 printed, 2 usage error.
    """
    check_writable("--output", output)
    from sgfcheck.output.formats import schema_json
    from sgfcheck.output.schema import SCHEMA_VERSION

    if version:
        typer.echo(SCHEMA_VERSION)
        raise typer.Exit(ExitStatus.OK)
    text = schema_json()()
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_file(output, text)
        say(f"schema {SCHEMA_VERSION} -> {output}", err=True)
    raise typer.Exit(ExitStatus.OK)
