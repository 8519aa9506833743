"""The ``sgfcheck`` Typer app: ``--version``, ``main``, and the commands, each loaded when it is
asked for.

Each command is a module of its own (:mod:`sgfcheck.cli.check`, ...) with a Typer app of one
command (``report`` and ``engines`` hold two), thin: options ->
:class:`~sgfcheck.settings.Settings` -> one library call -> a renderer of the output registry
(:mod:`sgfcheck.output.formats`: the formats of ``check``, ``score`` and ``life``, batch's rows,
and the one output of every other command; ``engines`` and ``convert`` print a line of status
each). The group
below names them in :data:`COMMANDS` and imports a command's module only when that command runs
or its help is shown, so ``sgfcheck --version`` loads nothing of the library and ``sgfcheck
check`` nothing of ``batch``.
"""

from __future__ import annotations

import importlib
import sys
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperGroup

from sgfcheck.cli.exits import ExitStatus
from sgfcheck.version import VERSION

COMMANDS = {
    "check": "sgfcheck.cli.check",
    "score": "sgfcheck.cli.score",
    "life": "sgfcheck.cli.life",
    "batch": "sgfcheck.cli.batch",
    "diagram": "sgfcheck.cli.diagram",
    "view": "sgfcheck.cli.view",
    "annotate": "sgfcheck.cli.annotate",
    "convert": "sgfcheck.cli.convert",
    "report": "sgfcheck.cli.report",
    "engines": "sgfcheck.cli.engines",
    "rules": "sgfcheck.cli.rules",
    "schema": "sgfcheck.cli.schema",
}
"""Every command, by name, and the module whose Typer app holds it."""


class Commands(TyperGroup):
    """The commands of :data:`COMMANDS`, each built from its module when first asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None:
            option.display_type_rich = _no_type  # type: ignore[method-assign]
        return option

    def get_command(self, ctx: Any, name: str) -> Any:
        module = COMMANDS.get(name)
        if module is None:
            return None
        return _plain_placeholders(typer.main.get_command(importlib.import_module(module).app),
                                   ctx)


def _plain_placeholders(command: Any, ctx: Any) -> Any:
    """Help shows no Python type where a value's name is already said: an argument's own name
    (``INPUT...``) and ``--help`` (a flag) would otherwise read ``<list[str]>`` and ``<bool>``."""
    commands = [command] + list(getattr(command, "commands", {}).values())
    for each in commands:
        params = list(each.params)
        help_option = each.get_help_option(ctx)
        if help_option is not None:
            params.append(help_option)
        for param in params:
            if param.param_type_name == "argument" or param.name == "help":
                param.display_type_rich = _no_type
    return command


def _no_type(ctx: Any) -> str | None:
    return None


app = typer.Typer(
    cls=Commands,
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
        bool, typer.Option("--version", callback=_version, is_eager=True, metavar="",
                            help="Print the version.")
    ] = False,
) -> None:
    """sgfcheck: check Go game records."""
    from sgfcheck import core

    note = core.fallback_note()
    if note:  # once per run: the compiled core is missing without being asked for
        typer.echo(note, err=True)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(ExitStatus.INTERRUPTED)
