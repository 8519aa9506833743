"""``sgfcheck engines``: which engines are installed and usable, and installing KataGo."""

from __future__ import annotations

from typing import Annotated

import typer

from sgfcheck.cli.common import examples, say, width
from sgfcheck.cli.exits import ExitStatus
from sgfcheck.status import StrEnum

app = typer.Typer(name="engines", add_completion=False, pretty_exceptions_enable=False,
                 help="Engines for dead stones: what is installed, installing KataGo.",
                          no_args_is_help=True)


@app.callback()
def engines() -> None:
    """Engines for dead stones: what is installed, installing KataGo."""


class Installable(StrEnum):
    katago = "katago"


@app.command("install", epilog=examples("sgfcheck engines install katago"))
def engines_install(
    name: Annotated[Installable, typer.Argument(help="The engine to install.")],
) -> None:
    """Put KataGo and its network into the per-user data folder (from the katrain wheel on
    PyPI, about 106 MB). Exit status 1 when it fails, saying why."""
    from sgfcheck.judge.install import OPENCL_HELP, install_katago, opencl_present
    from sgfcheck.judge.interface import EngineError

    try:
        install_katago(lambda line: typer.echo(line))
    except EngineError as exc:
        typer.echo(f"sgfcheck: {exc}", err=True)
        raise typer.Exit(ExitStatus.FOUND) from None
    if not opencl_present():
        typer.echo(f"KataGo needs an OpenCL driver to run on this machine: {OPENCL_HELP}")


@app.command("list", epilog=examples("sgfcheck engines list",
                                     "sgfcheck engines list --found"))
def engines_list(
    found: Annotated[bool, typer.Option(
        "--found", metavar="", help="Say what is installed without starting KataGo (its start "
        "takes seconds: loading its network); usable then means found, with its OpenCL "
        "driver.")] = False,
) -> None:
    """Say which engines are installed and usable (KataGo is started and asked once).
    Exit status 1 when none is usable."""
    from sgfcheck.judge.engines import statuses
    from sgfcheck.output.text import wrap_line

    found_here = statuses(start=not found)
    for status in found_here:
        say(wrap_line(f"{status.name}: {'usable' if status.usable else 'not usable'} - "
                      f"{status.detail}", width(False)))
    raise typer.Exit(ExitStatus.OK if any(s.usable for s in found_here) else ExitStatus.FOUND)
