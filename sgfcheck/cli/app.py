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

import contextlib
import errno
import importlib
import io
import os
import sys
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperGroup

from sgfcheck.cli.exits import ExitStatus, OutputFailed
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

    def main(self, args: Any = None, prog_name: str | None = None,  # type: ignore[override]
             complete_var: str | None = None, standalone_mode: bool = True,
             **kwargs: Any) -> Any:
        """As Typer's, but a usage error (an unknown option, a bad value) is said in one line on
        standard error in sgfcheck's own style (:func:`_one_line_error`), as the errors sgfcheck
        finds itself are, not in a boxed panel."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **kwargs)
        try:
            done = super().main(args, prog_name, complete_var, False, **kwargs)
        except Exception as exc:
            # Typer's own copy of Click's exceptions: known by what they carry, not their class.
            if type(exc).__name__ == "Abort":
                typer.echo("Aborted!", err=True)
                sys.exit(ExitStatus.INTERRUPTED)
            if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
                raise
            _one_line_error(exc)
            sys.exit(exc.exit_code)
        sys.exit(done if isinstance(done, int) else 0)

    def get_command(self, ctx: Any, name: str) -> Any:
        module = COMMANDS.get(name)
        if module is None:
            return None
        return _plain_placeholders(typer.main.get_command(importlib.import_module(module).app),
                                   ctx)


def usage_line(exc: Any) -> str:
    """A Click usage error in one line: what is wrong, the near spelling of a bad choice, and
    where help is (``--dead-stones: 'magic' is not one of ...; sgfcheck score --help``)."""
    import difflib
    import re

    message = exc.format_message()
    param = getattr(exc, "param", None)
    if param is not None and type(exc).__name__ == "BadParameter":
        name = (getattr(param, "opts", None) or [param.name])[0]
        # "Invalid value for '--engine' (env var: 'SGFCHECK_ENGINE'): Value error, ...".
        said = re.sub(r"^Invalid value for '[^']*'( \(env var: '[^']*'\))?: ", "", message)
        message = f"{name}: " + said.removeprefix("Value error, ")
        # "'magic' is not one of 'auto', 'markup', ...": the value, then the choices.
        given, *choices = re.findall(r"'([^']*)'", message) or [""]
        near = difflib.get_close_matches(given, choices, n=1, cutoff=0.5) if choices else []
        if near:
            message = message.rstrip(".") + f" (did you mean {near[0]}?)"
    command = re.match(r"No such command '([^']*)'", message)
    if command is not None and "did you mean" not in message.lower():
        near = difflib.get_close_matches(command.group(1), list(COMMANDS), n=1, cutoff=0.6)
        if near:
            message = message.rstrip(".") + f" (did you mean {near[0]}?)"
    ctx = getattr(exc, "ctx", None)
    path = " ".join(["sgfcheck", *ctx.command_path.split()[1:]]) if ctx is not None else ""
    where = f"; {path} --help" if ctx is not None else ""
    return message.rstrip(".") + where


def _one_line_error(exc: Any) -> None:
    """Typer's printer of usage errors, replaced: one line on standard error in sgfcheck's own
    style (``sgfcheck: ...``), as the errors sgfcheck finds itself are, not a boxed panel."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # the help was shown: nothing to add
        return
    from sgfcheck.cli.common import say

    say(f"sgfcheck: {usage_line(exc)}", err=True)


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
    """The console script (``sgfcheck``, ``python -m sgfcheck``): runs the command and ends the
    process with its exit status once the exit handlers have run and its output is flushed,
    without Python's own teardown of every module (35-65 ms of each command: ``batch`` of one
    record took 0.36 s, 0.29 s now). Where that teardown may still have work (another thread
    runs; a profiler or tracer watches), the process ends the usual way."""
    closed = _LostOutput() if sys.stdout is None else None  # started with standard output closed
    if closed is not None:
        sys.stdout = closed
    try:
        app()
        status: str | int | None = 0
    except SystemExit as exc:
        status = exc.code
    except KeyboardInterrupt:
        status = ExitStatus.INTERRUPTED
    except OutputFailed as exc:  # a file the command was asked to write
        if sys.stderr is not None:
            with contextlib.suppress(OSError, ValueError):
                print(f"sgfcheck: {exc}", file=sys.stderr)
        status = ExitStatus.OUTPUT
    except OSError as exc:
        # A write to standard output failed (the commands' own files say their failures
        # themselves, naming the file: OutputFailed): a closed pipe, a full disk.
        from sgfcheck.run.report import WRITE_ERRORS  # only where a write failed

        if exc.errno not in WRITE_ERRORS or exc.filename is not None:
            raise
        status = _output_failed(os.strerror(exc.errno or 0))
    if type(sys.stdout).__name__ == "PacifyFlushWrapper":
        # Click's answer to a closed pipe: it ends the command with status 1 and silences the
        # streams; the pipe's reader is gone, which is said here.
        sys.stderr = sys.__stderr__
        status = _output_failed(os.strerror(errno.EPIPE), ExitStatus.OK)
    if closed is not None and closed.lost:
        status = _output_failed("it is closed", status)
    _leave(status)


class _LostOutput(io.StringIO):
    """Standard output where the process started with it closed: what is written is counted, not
    kept, so that the run can say it was lost."""

    lost = 0

    def write(self, text: str) -> int:
        self.lost += len(text)
        return len(text)


def _output_failed(cause: str, status: str | int | None = 0) -> str | int | None:
    """Say in one line that standard output could not be written, and give the status of it
    (:attr:`ExitStatus.OUTPUT`, unless the run was interrupted)."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            print(f"sgfcheck: cannot write standard output: {cause}", file=sys.stderr)
    _quiet_stdout()
    return status if status == ExitStatus.INTERRUPTED else ExitStatus.OUTPUT


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that nothing later (a flush at exit) fails
    on it again."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    sys.stdout = _LostOutput()


def _leave(status: str | int | None) -> None:
    import atexit
    import threading

    if threading.active_count() > 1 or sys.getprofile() is not None or sys.gettrace() is not None:
        _flush_stdout(status)
        sys.exit(status)
    code = 0 if status is None else status if isinstance(status, int) else 1
    if isinstance(status, str):
        print(status, file=sys.stderr)  # as sys.exit prints a message given for a status
    atexit._run_exitfuncs()
    code = int(_flush_stdout(code) or 0)
    with contextlib.suppress(OSError, ValueError):  # stderr is where failures are said
        sys.stderr.flush()
    os._exit(code)


def _flush_stdout(status: str | int | None) -> str | int | None:
    """Flush standard output; where it cannot take what is left (a closed pipe, a full disk),
    say so and give :attr:`ExitStatus.OUTPUT`."""
    if sys.stdout is None:
        return status
    try:
        sys.stdout.flush()
    except OSError as exc:
        return _output_failed(os.strerror(exc.errno or 0), status)
    except ValueError:  # closed already
        pass
    return status
