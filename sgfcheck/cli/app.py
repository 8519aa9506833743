"""The ``sgfcheck`` Typer app: the commands registered, ``--version``, and ``main``.

Each command is a module of its own (:mod:`sgfcheck.cli.check`, ...), thin: options ->
:class:`~sgfcheck.settings.Settings` -> one library call -> the output registry
(:mod:`sgfcheck.output.formats`). Command modules import the library when they run, so
``sgfcheck --version`` and ``--help`` load only the command line.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from sgfcheck.cli import annotate, batch, check, convert, diagram, life, rules, score
from sgfcheck.cli.engines import engines_app
from sgfcheck.cli.exits import ExitStatus
from sgfcheck.cli.report import report_app
from sgfcheck.version import VERSION

app = typer.Typer(
    help="Replay Go game records (SGF) under any ruleset and report every illegal move.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from sgfcheck import core

        typer.echo(f"sgfcheck {VERSION} ({core.describe()})")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """sgfcheck: check Go game records."""
    from sgfcheck import core

    note = core.fallback_note()
    if note:  # once per run: the compiled core is missing without being asked for
        typer.echo(note, err=True)


app.command(epilog=check.EPILOG)(check.check)
app.command(epilog=score.EPILOG)(score.score)
app.command(epilog=life.EPILOG)(life.life)
app.command(epilog=batch.EPILOG)(batch.batch)
app.command(epilog=diagram.EPILOG)(diagram.diagram)
app.command(epilog=annotate.EPILOG)(annotate.annotate)
app.command(epilog=convert.EPILOG)(convert.convert)
app.add_typer(report_app, name="report")
app.add_typer(engines_app, name="engines")
app.command("rules", epilog=rules.EPILOG)(rules.list_rules)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(ExitStatus.INTERRUPTED)
