"""What the commands share: usage errors, safe printing, the width of text, the one record of
``diagram``, ``annotate`` and ``view``, writing files, and the loop that reads each input, hands
it to the library and prints its report (its progress display: :mod:`sgfcheck.cli.progress`; the
options every command spells the same way and the settings made from them:
:mod:`sgfcheck.cli.options`).

Only light modules are imported here (Typer, the limits, the registry of formats): a
command imports the library when it runs, so ``sgfcheck --version`` and ``--help`` start fast.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import typer

from sgfcheck.cli.exits import ExitStatus, OutputFailed, over_inputs, worse
from sgfcheck.cli.progress import Tracker
from sgfcheck.escaping import terminal_text, visible
from sgfcheck.limits import Limits
from sgfcheck.output.formats import OutputFormat, Style

if TYPE_CHECKING:

    from sgfcheck.records.items import Skipped
    from sgfcheck.records.record import LoadedFile
    from sgfcheck.replay.check import GameReport
    from sgfcheck.settings import Settings


def examples(*lines: str) -> str:
    """A command's epilog: examples, one a paragraph (so that help keeps them apart)."""
    return "Examples:\n\n" + "\n\n".join(f"  {line}" for line in lines)


# --- errors and printing ----------------------------------------------------------------------


def say(text: str, *, err: bool = False) -> None:
    """Print text made for people; anything from the input in it (names, values) has its
    control and format characters shown escaped, so no file can drive the terminal."""
    typer.echo(terminal_text(text), err=err)


def usage_error(message: str) -> typer.Exit:
    say(f"sgfcheck: {message}", err=True)
    return typer.Exit(ExitStatus.USAGE)


def note(message: str) -> None:
    """A note on standard error (an old spelling, say); never in the output itself."""
    say(f"sgfcheck: note: {message}", err=True)


def width(wide: bool) -> int | None:
    """The width text output fits: ``COLUMNS``, else the terminal's, else 100; None with
    ``--wide``."""
    import shutil

    return None if wide else max(40, shutil.get_terminal_size((100, 24)).columns)


# --- the one record of diagram, annotate and view ---------------------------------------------


def one_record(file: str, settings: Settings, what: str) -> LoadedFile:
    """The record in ``file``, read with the settings' encoding and limits."""
    from sgfcheck.records.items import Skipped
    from sgfcheck.records.loading import load_inputs

    loaded = next(iter(load_inputs([file], settings.encoding, settings.limits,
                                   sys.stdin.buffer)))
    if isinstance(loaded, Skipped):
        raise usage_error(f"{file}: {loaded.reason}")
    if not loaded.games:
        problems = "; ".join(f"{f.code.code} {f.message}" for f in loaded.findings)
        raise usage_error(f"{file}: no game to {what} ({problems})")
    return loaded


def one_game(file: str, settings: Settings, game_no: int, what: str) -> GameReport:
    """Game ``game_no`` (from 1) of the record in ``file``, checked under the settings; a game
    number past the collection, or a move past the end of the game, is a usage error."""
    from sgfcheck.records.record import LoadedFile
    from sgfcheck.replay.check import check_loaded

    loaded = one_record(file, settings, what)
    if game_no > len(loaded.games):
        raise usage_error(f"--game {game_no}: {file} holds {len(loaded.games)} game(s)")
    record = loaded.games[game_no - 1]
    moves = record.main_line().move_count if record.playable else 0
    if settings.move is not None and not 0 <= settings.move <= moves:
        raise usage_error(f"--move {settings.move}: {file} game {game_no} has {moves} moves")
    alone = LoadedFile(loaded.path, loaded.encoding, loaded.encoding_guessed, [record],
                       loaded.findings)
    report = check_loaded(alone, settings).games[0]
    if not record.playable or report.context is None:
        raise usage_error(f"{file} game {game_no}: not a game of Go that can be replayed")
    return report


# --- writing files ------------------------------------------------------------------------------


def check_writable(option: str, path: Path | None) -> None:
    """A usage error, before any work, for an output file that cannot be written."""
    if path is None:
        return
    try:
        if path.is_dir():
            raise usage_error(f"{option} {path}: is a folder, not a file")
        folder = path.parent
        if not folder.is_dir():
            raise usage_error(f"{option} {path}: the folder {folder} does not exist")
        if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise usage_error(f"{option} {path}: not writable")
    except (OSError, ValueError) as exc:  # a name too long, a NUL in it...
        raise usage_error(f"{option}: {exc}") from None


def not_an_input(option: str, output: Path | None, inputs: Sequence[str]) -> None:
    """A usage error, before any work, when an output would write over an input: the same file
    as one named (also through a link or a hard link), or a record or archive inside a folder
    named, which the run would read. Inputs are never changed."""
    if output is None:
        return
    from sgfcheck.records.items import is_archive_name, is_record_name

    try:
        if not output.exists():
            return
        target = output.resolve()
        for name in inputs:
            if name == "-" or "://" in name or "::" in name:
                continue
            given = Path(name)
            if not given.exists():
                continue
            if given.is_dir():
                inside = given.resolve() in target.parents
                if inside and (is_record_name(output.name) or is_archive_name(output.name)):
                    raise usage_error(f"{option} {visible(str(output))} is a record inside "
                                      f"the input folder {visible(name)}; inputs are never "
                                      "changed")
            elif os.path.samefile(given, output):
                raise usage_error(f"{option} {visible(str(output))} is the input "
                                  f"{visible(name)}; inputs are never changed")
    except OSError:
        return  # what cannot be looked at is not written over here: the write says why


def not_the_input(file: str, output: Path) -> None:
    """A usage error when the output file is the input: inputs are never changed."""
    not_an_input("--output", output, [file])


def write_file(output: Path, data: str | bytes) -> None:
    """Write a whole output file (text as UTF-8); a failure to write it (a full disk) is
    :class:`~sgfcheck.cli.exits.OutputFailed`, said in one line with its own exit status."""
    try:
        if isinstance(data, bytes):
            output.write_bytes(data)
        else:
            output.write_text(data, encoding="utf-8")
    except OSError as exc:
        raise OutputFailed(visible(str(output)), exc) from None


def write_output(text: str, output: Path) -> None:
    """Write a command's whole output to a file, and say so on standard error."""
    write_file(output, text)
    say(f"written: {visible(str(output))} ({len(text.encode('utf-8')) // 1024} KB)", err=True)


def write_page(page: str, output: Path | None) -> None:
    if output is None:
        typer.echo(page, nl=False)
    else:
        write_output(page, output)


SUFFIX_FORMATS = {".html": "html", ".htm": "html", ".json": "json", ".jsonl": "json",
                  ".csv": "csv", ".md": "markdown", ".markdown": "markdown", ".txt": "text"}
"""The format an output file's name says."""


# --- the loop of check, score and life ----------------------------------------------------------


class FileSink:
    """A command's output written to ``--output FILE`` as it comes (a long run over an archive
    holds none of it in memory), under a temporary name beside the file, which takes the file's
    name when the command is done (:meth:`commit`) and is removed when it fails.

    What the name stands for is kept: a symbolic link stays a link, the file it names written
    (the same way, beside that file); a FIFO or a device (``-o /dev/stdout``) is written to as it
    is, never replaced by a plain file."""

    def __init__(self, output: Path) -> None:
        self.output = output
        # A FIFO, a device, a pipe (also behind links, as /dev/stdout is): written to as it
        # comes, through the name given, never renamed over.
        self.direct = output.exists() and not output.is_file()
        self.target = output.resolve() if output.is_symlink() and not self.direct else output
        self.partial = self.target.with_name(f".{self.target.name}.partial")
        self.handle: IO[str] | None = None
        self.size = 0

    def write(self, text: str) -> None:
        try:
            if self.handle is None:
                self.handle = open(self.target if self.direct else self.partial, "w",  # noqa: SIM115 - closed in commit or discard
                                   encoding="utf-8")
            self.handle.write(text)
        except OSError as exc:
            self.discard()
            raise OutputFailed(visible(str(self.output)), exc) from None
        self.size += len(text.encode("utf-8"))

    def commit(self) -> None:
        if self.handle is None:
            self.write("")
        assert self.handle is not None
        try:
            self.handle.close()
            if not self.direct:
                os.replace(self.partial, self.target)
        except OSError as exc:
            self.discard()
            raise OutputFailed(visible(str(self.output)), exc) from None
        say(f"written: {visible(str(self.output))} ({self.size // 1024} KB)", err=True)

    def discard(self) -> None:
        if self.handle is not None:
            with contextlib.suppress(OSError):
                self.handle.close()
            if not self.direct:
                self.partial.unlink(missing_ok=True)


def show(text: str, fmt: OutputFormat, sink: FileSink | None = None) -> None:
    """Print a rendered report, or write it to the output file (``sink``): as it is when the
    format escapes for itself (JSON), else made safe for a terminal."""
    safe = text if fmt.safe else terminal_text(text)
    if sink is not None:
        sink.write(safe + "\n")
    else:
        typer.echo(safe)


Report = TypeVar("Report")


def load(files: list[str], encoding: str | None, limits: Limits,
         move: int | None = None, follow_links: bool = False
         ) -> Iterable[LoadedFile | Skipped]:
    """The inputs of a command, read one by one. With ``--move N`` all are read first: a move
    past the end of a game is a usage error before any work."""
    from sgfcheck.records.items import Skipped
    from sgfcheck.records.loading import load_inputs, past_the_end

    inputs = load_inputs(files, encoding, limits, sys.stdin.buffer, follow_links)
    if move is None:
        return inputs
    if move < 0:
        raise usage_error("--move takes a move number from 0")
    read = list(inputs)
    for loaded in read:
        if not isinstance(loaded, Skipped):
            why = past_the_end(loaded, move)
            if why is not None:
                raise usage_error(f"--move {move}: {why}")
    return read


def each_input(files: list[str], inputs: Iterable[LoadedFile | Skipped], quiet: bool,
               process: Callable[[LoadedFile, Callable[[], None] | None], Report],
               fmt: OutputFormat, style: Style, status: Callable[[Report], ExitStatus],
               output: Path | None = None,
               judged: int | None = None, engine_timeout: float | None = None) -> ExitStatus:
    """Each record processed by the library (with progress), rendered as the format says (to
    standard output, or all of it to ``output``), each skipped file said; the exit status.
    ``judged``: the games of a file the command judges at most (``--limit judged``), as the
    progress counts them. ``engine_timeout``: for a command that judges, the seconds the
    engines may take over the whole command (``--timeout``; 0: no bound), what they took said on
    standard error at the end (not with ``--answers``: the answers alone); None for one that
    does not (nothing of the judges is loaded).

    One rule for every command (:mod:`sgfcheck.cli.exits`): 2 when nothing could be done (no
    record in the inputs, or none of them readable), else 1 when something was found (an
    unreadable file or a path that is not there among records read, or the command's own
    findings), else 3 when a result could not be decided (``score``), else 0."""
    if engine_timeout is None:
        return _each_input(files, inputs, quiet, process, fmt, style, status, output, judged,
                           None)
    from sgfcheck.judge.clock import USE

    before = USE.copy()
    try:
        return _each_input(files, inputs, quiet, process, fmt, style, status, output, judged,
                           engine_timeout)
    finally:
        used = USE.since(before)
        if (used.games or used.refused) and not quiet and not style.answers:  # answers alone
            say(f"engines: {used.games} position(s) judged in {used.seconds:.1f} s"
                + (f"; {used.refused} not asked, their engine time spent (LIF003)"
                   if used.refused else ""), err=True)


def _each_input(files: list[str], inputs: Iterable[LoadedFile | Skipped], quiet: bool,
                process: Callable[[LoadedFile, Callable[[], None] | None], Report],
                fmt: OutputFormat, style: Style, status: Callable[[Report], ExitStatus],
                output: Path | None, judged: int | None,
                engine_timeout: float | None) -> ExitStatus:
    sink = None if output is None else FileSink(output)
    track = Tracker(files, quiet)
    try:
        with _engine_time(engine_timeout, track):
            tally = _each_record(inputs, process, fmt, style, status, sink, track, judged)
        track.bar.close()
        if not tally.read:
            raise usage_error("no record in the inputs" + (
                f" ({tally.skipped} file(s) skipped, each said above)" if tally.skipped
                else ": no file found in " + ", ".join(files)))
        games = len(tally.brief)
        if games > 1 and tally.read > 1:  # the answers together, one line a game (a file of
            # several games leads with its own)
            from sgfcheck.output.text import wrap_line

            show("\n".join(["", f"{games} games, one line each:",
                            *(wrap_line(line, style.width) for line in tally.brief)]),
                 fmt, sink)
        if fmt.whole is not None:
            text = fmt.render_whole(tally.reports, style)
            if sink is None:
                typer.echo(text, nl=False)
            else:
                sink.write(text)
        if sink is not None:
            sink.commit()
    except BaseException:
        if sink is not None:
            sink.discard()
        raise
    finally:
        track.bar.close()
    return over_inputs(tally.worst, tally.done, tally.unreadable + tally.skipped)


def _engine_time(seconds: float | None, track: Tracker) -> AbstractContextManager[Any]:
    """The whole command's bound on engine time and on the solver of the last points (a
    safety), the progress display told when an engine is asked; nothing for a command that
    does not judge."""
    if seconds is None:
        return nullcontext()
    from sgfcheck.endgame.stage import within
    from sgfcheck.judge.clock import bounded, watching

    both = ExitStack()
    both.enter_context(bounded(seconds, f"--timeout {seconds:g}"))
    both.enter_context(within(seconds, f"--timeout {seconds:g}"))
    both.enter_context(watching(track.engine_asked))
    return both


@dataclass
class _Tally:
    """What :func:`each_input` met: records read, skipped, done, unreadable; the reports kept
    for a whole-document format; the worst status."""

    worst: ExitStatus = ExitStatus.OK
    read: int = 0
    skipped: int = 0
    done: int = 0
    unreadable: int = 0
    reports: list[Any] = field(default_factory=list)
    """Each record's report (of the command's own kind)."""
    brief: list[str] = field(default_factory=list)
    """One line a game, for the closing list."""


def _each_record(inputs: Iterable[LoadedFile | Skipped],
                 process: Callable[[LoadedFile, Callable[[], None] | None], Report],
                 fmt: OutputFormat, style: Style, status: Callable[[Report], ExitStatus],
                 sink: FileSink | None, track: Tracker, judged: int | None) -> _Tally:
    """Each input processed and shown as it comes (or kept for a whole-document format)."""
    from sgfcheck.records.items import Skipped

    tally = _Tally()
    for loaded in inputs:
        if isinstance(loaded, Skipped):
            tally.skipped += 1
            path, member = loaded.key
            name = path if member is None else f"{path}:{member}"
            shown = fmt.render_skipped(name, loaded.reason)
            if shown is None:
                say(f"{visible(name)}: skipped, {loaded.reason}", err=True)
            else:
                show(shown, fmt, sink)
            continue
        tally.read += 1
        games = len(loaded.games) if judged is None else min(len(loaded.games), judged)
        report = process(loaded, track.file_read(games))
        track.file_done()
        found = status(report)
        if fmt.each is not None and found is ExitStatus.USAGE and fmt.name == "text":
            # A file that could not be read at all (missing, binary, not a record): an error
            # for the person at the terminal, not a line of the report.
            say(fmt.render_each(report, style), err=True)
        elif fmt.each is not None and style.answers and fmt.brief is not None:
            from sgfcheck.output.text import wrap_line

            lines = fmt.render_brief(report)
            if lines:  # the answers alone, one line a game (no closing list: this is it)
                show("\n".join(wrap_line(line, style.width) for line in lines), fmt, sink)
        elif fmt.each is not None:
            show(fmt.render_each(report, style), fmt, sink)
            tally.brief.extend(fmt.render_brief(report))
        else:
            tally.reports.append(report)
        if found is ExitStatus.USAGE:  # the file could not be read at all
            tally.unreadable += 1
        else:
            tally.done += 1
            tally.worst = worse(tally.worst, found)
    return tally
