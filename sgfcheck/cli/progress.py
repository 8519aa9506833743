"""Progress on standard error: a bar on a terminal (the files or games done, the rate, the time
left, and the game an engine is judging), plain log lines for ``batch`` off a terminal (every 10 s,
also while a file takes long), nothing with ``--quiet``.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from sgfcheck.output.summary import Summary


def showing(quiet: bool) -> bool:
    return not quiet and sys.stderr.isatty()


class ProgressBar:
    """A progress bar on standard error with a total (when known), the count, the rate, the time
    left and the time taken; nothing at all when ``enabled`` is false (standard error is not a
    terminal, or ``--quiet``). The total may grow as inputs are read (games of each file)."""

    def __init__(self, unit: str, total: int | None, enabled: bool,
                 console: Console | None = None) -> None:
        self.display: Any = None
        self.unit = unit
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.display = Progress(TextColumn("{task.description}"), BarColumn(),
                                MofNCompleteColumn(), _rate_column(), TimeRemainingColumn(),
                                TimeElapsedColumn(), console=console or Console(stderr=True),
                                transient=True)
        self.task = self.display.add_task(unit, total=total, unit=unit)
        self.display.start()

    def add_total(self, n: int) -> None:
        if self.display is not None:
            total = self.display.tasks[0].total or 0
            self.display.update(self.task, total=total + n)

    def advance(self, n: int = 1) -> None:
        if self.display is not None:
            self.display.update(self.task, advance=n, description=self.unit)

    def update(self, completed: int, description: str | None = None) -> None:
        if self.display is not None:
            self.display.update(self.task, completed=completed, description=description)

    def position(self) -> tuple[int, int | None]:
        """How many are done, and of how many (None where not known)."""
        if self.display is None:
            return 0, None
        task = self.display.tasks[0]
        return int(task.completed), None if task.total is None else int(task.total)

    def close(self) -> None:
        if self.display is not None:
            self.display.stop()
            self.display = None


def _rate_column() -> Any:
    """Items per second (rich's own speed column is for bytes)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:.1f} {task.fields.get('unit', '')}/s" if speed else "")

    return RateColumn()


class Tracker:
    """Progress of ``check``/``score``/``life``: over files (their total counted first) when the
    inputs hold several records, over games (known once the file is read) when they hold one."""

    def __init__(self, inputs: list[str], quiet: bool) -> None:
        shown = showing(quiet)
        files = None
        if shown:
            from sgfcheck.records.inputs import count_records

            files = count_records(inputs)
        self.per_file = files is None or files > 1
        self.bar = ProgressBar("files" if self.per_file else "games",
                               files if self.per_file else 0, shown)

    def file_read(self, games: int) -> Callable[[], None] | None:
        """Before a file's games: the callback for each game (None when counting files)."""
        if self.per_file:
            return None
        self.bar.add_total(games)
        return self.bar.advance

    def file_done(self) -> None:
        if self.per_file:
            self.bar.advance()

    def engine_asked(self, engine: str) -> None:
        """Said while an engine judges: which record or game, and how many wait after it."""
        done, total = self.bar.position()
        unit = "record" if self.per_file else "game"
        waiting = f", {total - done - 1} waiting" if total is not None else ""
        from sgfcheck.engineregistry import shown_name

        self.bar.update(done, f"{shown_name(engine)} judging {unit} {done + 1}{waiting}")


def batch_progress(inputs: list[str], quiet: bool, every: float = 10.0
                   ) -> tuple[Callable[[Summary], None], Callable[[], None]]:
    """A progress bar over the records on a terminal (their total counted first where that is
    cheap), plain log lines every ``every`` seconds otherwise (also while a file takes long);
    nothing with ``--quiet``. Both name the game an engine is judging, where one is."""
    if quiet:
        return lambda summary: None, lambda: None
    seen: list[Summary | None] = [None]
    stop = threading.Event()
    if showing(quiet):
        from sgfcheck.records.inputs import count_records

        bar = ProgressBar("files", count_records(inputs), True)

        def update(summary: Summary) -> None:
            seen[0] = summary
            bar.update(summary.files, f"{summary.games} games")

        def show_news() -> None:
            news = _engine_news()
            if news and seen[0] is not None:
                bar.update(seen[0].files, news)

        def close() -> None:
            stop.set()
            bar.close()

        threading.Thread(target=_ticking, args=(stop, 1.0, show_news), daemon=True).start()
        return update, close
    last = [time.monotonic()]
    from sgfcheck.output.summary import Summary
    from sgfcheck.records.inputs import count_records

    total = count_records(inputs)  # None where counting would cost reading (a tar)
    seen[0] = Summary()  # before the first file is done: nothing yet, said all the same

    def log(summary: Summary | None = None, *, now_anyway: bool = False) -> None:
        if summary is not None:
            seen[0] = summary
        now = time.monotonic()
        if seen[0] is not None and (now_anyway or now - last[0] >= every):
            last[0] = now
            print(log_line(seen[0], _engine_news(), total), file=sys.stderr, flush=True)

    def tick() -> None:  # a file that takes long: said all the same
        if time.monotonic() - last[0] >= every:
            log(now_anyway=True)

    threading.Thread(target=_ticking, args=(stop, every / 4, tick), daemon=True).start()
    return log, stop.set


def log_line(summary: Summary, news: str | None, total: int | None = None) -> str:
    """A line of ``batch``'s log: files (of how many, and the time left, where the total is
    known), games and speed so far, what the engines took, and the game an engine is judging
    now."""
    files = f"{summary.files} of {total} files" if total else f"{summary.files} files"
    line = f"sgfcheck batch: {files}, {summary.games} games, " \
        f"{summary.games_per_second:.0f} games/s"
    if total and summary.files and summary.elapsed:
        left = summary.elapsed / summary.files * max(0, total - summary.files)
        line += f", about {_duration(left)} left"
    if summary.engine_games or summary.engine_refused:
        line += (f"; engines: {summary.engine_games} position(s) in "
                 f"{summary.engine_seconds:.1f} s, {summary.engine_refused} not asked")
    return line + (f"; {news}" if news else "")


def _duration(seconds: float) -> str:
    """``40 s``, ``12 min``, ``3.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _engine_news() -> str | None:
    """What a worker last said of an engine's game, its names escaped: an archive member's name
    with a line break or escape sequences cannot forge or colour a log line."""
    from sgfcheck.escaping import visible
    from sgfcheck.run.news import EngineNews

    latest = EngineNews.latest
    return visible(latest) if latest else latest


def _ticking(stop: threading.Event, seconds: float, tick: Callable[[], None]) -> None:
    while not stop.wait(seconds):
        tick()
