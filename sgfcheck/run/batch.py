"""Batch validation of archives: the worker's work on one file, and the local run.

The main process walks the inputs (:mod:`sgfcheck.records.inputs`) and hands chunks of work to
worker processes through the one ordered loop (:mod:`sgfcheck.run.executor`): results come back
in input order and are written at once (:mod:`sgfcheck.run.reportfile`), so an interrupted run
leaves a valid partial report that ``--resume`` completes. Each worker reads the file and takes
the one way through it that ``score`` takes (:func:`sgfcheck.scoring.adjudicate.score_loaded`:
at most ``--limit judged`` games, checked and scored) under a per-file time limit, makes its
report rows through the output registry (:data:`sgfcheck.output.formats.ROWS`) and returns the
few facts the summary (:mod:`sgfcheck.output.summary`) needs.

Isolation: one file never stops the batch. A file that raises is a row with ``SGF033``; one that
runs past ``--timeout`` a row with ``SGF031`` (an alarm in the worker, and a hard limit outside
it for code the alarm cannot interrupt, which kills the worker); one that needs more memory
than ``--limit memory`` a row with ``SGF035``; a worker that dies (killed, out of memory,
crashed) costs its chunk a second run file by file, and the file that kills a worker alone is a
row with ``SGF033`` and the cause. The pool (pebble's ``ProcessPool``) replaces dead workers.
"""

from __future__ import annotations

import atexit
import ctypes
import gc
import hashlib
import multiprocessing
import multiprocessing.util
import os
import signal
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import Any, Protocol

from pebble import ProcessExpired

from sgfcheck import findings as F
from sgfcheck.endgame.finish import Outcome
from sgfcheck.endgame.stage import within
from sgfcheck.engineregistry import shown_name
from sgfcheck.escaping import visible
from sgfcheck.findings import Finding
from sgfcheck.judge.clock import USE, watching
from sgfcheck.limits import Limits, cap_memory
from sgfcheck.output.formats import ROWS
from sgfcheck.output.html import LAST_RANK, ProblemGame, problem_game
from sgfcheck.output.summary import NAMED, Summary
from sgfcheck.records.inputs import is_url
from sgfcheck.records.items import InputProblem, Item, Skipped, WorkItem
from sgfcheck.records.reading import read_path, read_url
from sgfcheck.records.record import load_bytes
from sgfcheck.replay.check import GameReport
from sgfcheck.run.duplicates import DuplicateIndex
from sgfcheck.run.executor import (
    CHUNK,
    IN_FLIGHT_PER_JOB,
    QUICK_CHUNK,
    Chunk,
    PoolExecutor,
    Work,
    chunks,
    in_order,
    jobs_of,
    local_pool,
)
from sgfcheck.run.news import EngineNews
from sgfcheck.run.outcome import FileOutcome, GameFacts, file_outcome, outcome_line
from sgfcheck.run.reportfile import ReportKind, ReportSink, Row, written_key
from sgfcheck.run.symmetry import sequence_key
from sgfcheck.scoring.adjudicate import GameScore, checked_file, scored_games
from sgfcheck.scoring.gamescore import FileScore
from sgfcheck.settings import DeadStoneChoice, Settings
from sgfcheck.verdict.reasons import CheckStatus


@dataclass(frozen=True)
class BatchOptions:
    """How a batch runs: the user's settings (what is checked and counted) and how the work is
    spread (which does not change a row)."""

    settings: Settings = field(default_factory=lambda: Settings(
        dead_stones=DeadStoneChoice.MARKUP))
    """What is checked and counted; ``batch``'s own default dead stones are ``markup`` (else
    only stones proven dead), as the estimate costs tens of milliseconds per game."""
    jobs: int = 0
    """Worker processes; 0 means one per core."""
    report_kind: ReportKind = ReportKind.JSONL
    """How workers render rows for the report."""
    details: bool = False
    """Workers describe each problem game for ``--html`` (with a board)."""
    pages: str | None = None
    """With ``details``: a folder where workers write the game page (``sgfcheck view``) of each
    game with illegal moves, errors or a result that does not match; the batch page links it."""
    chunk: int | None = None
    """Files handed to a worker at a time; None: the runner's choice (:attr:`local_chunk`, a
    cluster's own)."""
    state_lines: bool = True
    """Workers make each file's line of the run state beside a report (``--out-dir`` parts
    keep a manifest instead)."""

    @classmethod
    def of(cls, **choices: Any) -> BatchOptions:
        """Options from keywords of both kinds: ``jobs``, ``report_kind``, ``details`` and
        ``chunk`` are the run's, the rest the :class:`~sgfcheck.settings.Settings` (``batch``'s
        own default dead stones, ``markup``, unless given)."""
        run = {k: choices.pop(k) for k in ("jobs", "report_kind", "details", "pages", "chunk",
                                           "state_lines") if k in choices}
        choices.setdefault("dead_stones", DeadStoneChoice.MARKUP)
        choices.setdefault("judge_unscored", False)
        return cls(settings=Settings(**choices), **run)

    @property
    def local_chunk(self) -> int:
        """Files a local worker is handed at a time: :attr:`chunk` where it was set, else
        :data:`QUICK_CHUNK` where no file's dead stones are judged, :data:`CHUNK` where they
        are."""
        if self.chunk is not None:
            return self.chunk
        return CHUNK if self.settings.judges_dead_stones else QUICK_CHUNK

    @property
    def engine_time(self) -> float:
        """Seconds added to a file's ``--timeout`` for the engines: ``--limit engine-file`` where
        an engine may be asked (so that a slow or busy engine never costs a file its verdict
        before its own bound says so), else 0."""
        if self.settings.timeout <= 0 or not self.settings.may_ask_engines:
            return 0.0
        return self.settings.limits.engine_file

    @property
    def timeout(self) -> float:
        """The file's time limit: ``--timeout`` for sgfcheck's own work, and
        :attr:`engine_time` on top (0: no limit)."""
        return self.settings.timeout + self.engine_time

    @property
    def timeout_said(self) -> str:
        """How the file's time limit is set, for the findings that name it."""
        own = f"--timeout {self.settings.timeout:g}"
        if not self.engine_time:
            return own
        return f"{own} and {self.engine_time:g} s of engine time (--limit engine-file)"

    @property
    def limits(self) -> Limits:
        """Bounds on the work one file may cause; ``memory`` caps each worker."""
        return self.settings.limits


# --- work (runs in the workers) ----------------------------------------------------------------

_options = BatchOptions()
_news: Any = None
"""In a worker of a local run: where it says which game an engine is judging (a queue the
main process reads: :class:`EngineNews`)."""
_worker_alarm = False
"""In a worker process started by the batch: SIGALRM is sgfcheck's for good."""


def init_worker(options: BatchOptions, news: Any = None) -> None:
    global _options, _news
    _options = options
    _news = news
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process handles Ctrl-C
    cap_memory(options.limits.memory)
    # A forked worker inherits the exit handlers of the process that started the batch (a
    # library user's: a Dask cluster's, a database's...). Run at this worker's exit they would
    # close what belongs to that process (seen: a LocalCluster's nannies closed when pool
    # workers exited, its workers never restarted). The worker has none of its own.
    atexit._clear()
    getattr(multiprocessing.util, "_finalizer_registry", {}).clear()
    # The worker is ours: the alarm handler of --timeout is installed once, not per file.
    global _worker_alarm
    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, _alarm)
        _worker_alarm = True
    # What the worker holds from its start (modules, the settings) lives as long as it does:
    # kept out of the collector's rounds, which would otherwise walk it again and again while
    # the worker reads thousands of records (a few per cent of a worker's time). The youngest
    # generation is collected every 10,000 new objects, not 700: a record makes thousands
    # (its moves, its findings, its counts), nearly none of them in cycles (2% of a worker's
    # time).
    gc.freeze()
    gc.set_threshold(10_000, *gc.get_threshold()[1:])


GAVE_UP = frozenset(o.value for o in Outcome if o.gave_up)
"""How a solver of the last points ends where a limit stopped it."""


class _TimeLimit(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _TimeLimit


def process_item(item: Work, options: BatchOptions) -> FileOutcome:
    """Check and score one file (or report an input problem), with its line of the run state
    where the report keeps one. Never raises."""
    outcome = _outcome(item, options)
    if options.state_lines and options.report_kind is not ReportKind.NONE:
        outcome.state = outcome_line(outcome)
        if not options.details:  # the problem games were described for the state alone
            for game in outcome.games:
                game.problem = None
    return outcome


def _outcome(item: Work, options: BatchOptions) -> FileOutcome:
    kind = ReportKind(options.report_kind)
    if isinstance(item, InputProblem):
        return file_outcome(item, [Finding(F.SGF_INPUT, item.message)], kind)
    try:
        with time_limit(options.timeout):
            return _process(item, options)
    except _TimeLimit:
        return timed_out(item, options)
    except MemoryError:
        finding = Finding(F.SGF_LIMIT, f"needed more than {options.limits.memory} MB of memory; "
                          "not finished (raise it with --limit memory=...)",
                          extra={"limit": options.limits.describe("memory")})
        return file_outcome(item, [finding], kind)
    except Exception as exc:  # noqa: BLE001 - one bad file never stops a batch
        where = traceback.extract_tb(exc.__traceback__)[-1]
        finding = Finding(F.SGF_CRASH, f"sgfcheck failed on this file ({type(exc).__name__}: "
                          f"{exc} at {Path(where.filename).name}:{where.lineno}); please report it")
        return file_outcome(item, [finding], kind)


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_TimeLimit` in the running code after ``seconds`` (0: no limit). In a main
    thread (a pool worker) by the alarm signal; in another thread (a Dask worker runs tasks in
    threads, where signals cannot go) by an exception sent to that thread, which Python raises
    at the next bytecode (sgfcheck's own loops are all Python)."""
    if seconds <= 0:
        yield
        return
    on_main = threading.current_thread() is threading.main_thread()
    if on_main and _worker_alarm:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return
    if on_main and hasattr(signal, "setitimer"):
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return
    target = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False}

    def fire() -> None:
        with lock:
            if not state["done"]:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                                           ctypes.py_object(_TimeLimit))

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
        timer.cancel()


def timed_out(item: Work, options: BatchOptions) -> FileOutcome:
    engines = f" ({options.timeout_said})" if options.engine_time else ""
    finding = Finding(F.SGF_TIMEOUT, f"not finished within {options.timeout:g} s{engines}; "
                      "skipped")
    return file_outcome(item, [finding], ReportKind(options.report_kind), timed_out=True)


def _process(item: WorkItem, options: BatchOptions) -> FileOutcome:
    kind = ReportKind(options.report_kind)
    data = item.data
    if data is None:
        read = (read_url(item.path, item.member, options.limits) if is_url(item.path)
                else read_path(item.path, options.limits))
        if read.data is None:
            return file_outcome(item, read.findings, kind)
        data = read.data
    name = item.path if item.member is None else f"{item.path}:{item.member}"
    settings = options.settings
    loaded = load_bytes(data, name, settings.encoding, settings.limits)
    digest = hashlib.blake2b(data, digest_size=16).digest()
    if not loaded.games:
        return file_outcome(item, loaded.findings, kind, digest=digest,
                             encoding_guessed=loaded.encoding_guessed)
    # Every ruleset's count where the rows or the game pages show them; else the game's own.
    made = ROWS[kind.value]
    before = USE.copy()
    # The engines get half the file's time limit at most: the check and the count the rest.
    games_done = [0]

    def told(engine: str) -> None:  # the main process's log names the game being judged
        if _news is not None:
            _news.put(f"{shown_name(engine)} judging {visible(name)} game {games_done[0] + 1} of "
                      f"{len(loaded.games)}")

    def on_game() -> None:
        games_done[0] += 1

    # The solver of the last points ends within three quarters of it, whatever the engines
    # took: the check's findings and the rows always keep the last quarter.
    # The check first: where the time limit ends while the games are counted, every game keeps
    # its check's findings and verdict, the games not counted say so, and the file says why.
    checked = checked_file(loaded, settings)
    games: list[GameScore] = []
    late = False
    try:
        with within(options.timeout * 0.75, f"{options.timeout_said} (three quarters of it)"), \
                watching(told):
            for game in scored_games(checked, settings,
                                     compare=made.compares or bool(options.pages)):
                games.append(game)
                on_game()
    except _TimeLimit:
        late = True
        first = len(games) + 1
        why = (f"not counted: the file's time limit ({options.timeout_said}) ended "
               f"while game {first} was counted; its check stands")
        games += [GameScore(check=game, error=why) for game in checked.games[len(games):]]
        checked = replace(checked, loaded=replace(checked.loaded, findings=[
            *checked.loaded.findings,
            Finding(F.SGF_TIMEOUT, f"not finished within {options.timeout:g} s: the games from "
                    f"game {first} on are not counted; every game's check stands")]))
    scored_file = FileScore(loaded.path, checked, games)
    if _news is not None and USE.games + USE.refused > before.games + before.refused:
        _news.put("")  # no engine judging any more
    used = USE.since(before)
    checked = scored_file.check
    rows: list[Row] = []
    facts = []
    pages: list[tuple[ProblemGame, str, GameReport, GameScore]] = []
    file_error = any(f.is_error for f in checked.findings)
    make = made.game
    row = make() if make is not None else None
    for report, scored in zip(checked.games, scored_file.games, strict=True):
        if row is not None:
            rows.append(row(item.path, item.member, scored, checked))
        illegal = report.illegal_rules
        rc = scored.result_check.status if scored.result_check else CheckStatus.NOT_SCORED
        basis = (scored.result_check.basis.value
                 if scored.result_check and scored.result_check.basis else None)
        key = sequence_key(report.game, report.line) if report.line is not None else None
        label = f"{name}#{report.game.index + 1}"
        has_error = any(f.is_error for f in scored.findings) or file_error
        # The page's description of a problem game: with its board for --html; without it for
        # the run state of a report (a later --resume --html lists it).
        problem = (problem_game(label, scored, board=options.details)
                   if options.details or kind is not ReportKind.NONE else None)
        if problem is not None and options.pages and problem.rank < LAST_RANK:
            pages.append((problem, label, report, scored))
        endgame = scored.worked.counts.endgame if scored.worked.counts is not None else None
        finishes = endgame.finishes if endgame is not None else ()
        solver = (None if not finishes else next(
            (f.outcome.value for f in finishes if f.outcome.gave_up),
            next((f.outcome.value for f in finishes if not f.solved), "solved")))
        facts.append(GameFacts(scored.verdict.value, illegal, rc, basis, has_error, key, label,
                               problem, solver, sum(f.seconds for f in finishes),
                               scored.dead is not None and scored.dead.not_judged))
    if pages and options.pages:
        _write_game_pages(options.pages, pages, options.timeout)
    return FileOutcome(item.key, rows, facts, digest, encoding_guessed=loaded.encoding_guessed,
                       engine=used, timed_out=late)


PAGE_LATE = ("no game page: it was not made within the file's time limit (--timeout {timeout:g} "
             "s), which its checks had used or it would have passed; the findings above stand "
             "('sgfcheck view' makes the page alone)")
"""Said on the batch page of a problem game whose page the time limit cut short."""


def _write_game_pages(folder: str, pages: list[tuple[ProblemGame, str, GameReport, GameScore]],
                      timeout: float) -> None:
    """The game pages of a file's problem games, made after every row and finding of the file
    (a page costs more than the checks: it must never cost a record its findings). The time
    limit that ends them ends only the pages: each game left without one says why."""
    done = 0
    try:
        for problem, label, report, scored in pages:
            problem.view = _write_game_page(folder, label, report, scored)
            done += 1
    except _TimeLimit:
        for problem, *_ in pages[done:]:
            problem.findings.append(PAGE_LATE.format(timeout=timeout))


def _write_game_page(folder: str, label: str, report: GameReport, scored: GameScore) -> str:
    """The game page of a problem game in ``folder`` (a name from its label's digest); the link
    to it from the batch page (the folder's own name, then the file), or "" when it cannot be
    written."""
    from sgfcheck.output.gamepage import game_page
    from sgfcheck.replay.story import story_of

    name = hashlib.blake2b(label.encode("utf-8", "replace"), digest_size=8).hexdigest() + ".html"
    try:
        page = game_page(label, report, scored, story_of(report))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
            out.write(page)
    except (OSError, ValueError):
        return ""
    return f"{os.path.basename(os.path.normpath(folder))}/{name}"


def _process_chunk(chunk: Chunk) -> list[FileOutcome]:
    return [process_item(item, _options) for item in chunk.items]


# --- orchestration (main process) --------------------------------------------------------------


Runner = Callable[[Iterable[Work], BatchOptions], Iterator[FileOutcome]]
"""What runs the work: items in, outcomes out in the same order."""


def run_items(items: Iterable[Work], options: BatchOptions) -> Iterator[FileOutcome]:
    """Process items with ``options.jobs`` worker processes (at least one: the main process only
    walks and writes), yielding outcomes in input order. Never raises for a file."""
    with EngineNews.listening() as news, local_pool(options.jobs, init_worker, options,
                                                    news) as pool:
        executor = PoolExecutor(pool, _process_chunk, jobs_of(options.jobs) * IN_FLIGHT_PER_JOB)
        for outcomes in in_order(chunks(items, options.local_chunk), executor, options.timeout,
                                 lambda chunk, exc: _lost(chunk, exc, options)):
            yield from outcomes


def _lost(chunk: Chunk, exc: BaseException, options: BatchOptions) -> list[FileOutcome] | None:
    """The row of a file whose worker did not come back (died, hung, failed); a chunk of
    several files is run again file by file (None), and a file alone whose worker died is sent
    once more before the death is its row: on a loaded machine pebble can lay a worker's death
    on the task of the file beside the one that killed it (1 run in 40 beside three CPU
    burners), and that file then comes back whole."""
    if len(chunk.items) > 1 or (isinstance(exc, ProcessExpired) and chunk.again < 1):
        return None
    item = chunk.items[0]
    if isinstance(exc, FutureTimeout):
        return [timed_out(item, options)]
    if isinstance(exc, ProcessExpired):
        code = exc.exitcode
        cause = (f"killed by signal {-code} ({signal.Signals(-code).name}"
                 + ("; out of memory?" if -code == signal.SIGKILL else "") + ")"
                 if code < 0 and -code in signal.valid_signals()
                 else f"exit status {code}")
        message = f"the worker process checking this file died ({cause}); the batch went on"
    else:
        message = (f"the worker process failed on this file ({type(exc).__name__}: {exc}); "
                   "the batch went on")
    return [file_outcome(item, [Finding(F.SGF_CRASH, message)], ReportKind(options.report_kind))]


@dataclass
class Problems:
    """The problem games of a run for ``--html``, most severe first: illegal moves and errors,
    then results that do not match, then the rest (unverifiable results). Every illegal-move,
    error and mismatch game is kept (the first ``limit`` with their boards); of the rest, as
    many as the ``limit`` leaves room for, the others counted. At most twice ``limit`` boards
    are held however large the archive."""

    limit: int = 500
    kept: list[tuple[int, int, ProblemGame]] = field(default_factory=list)
    """(rank, arrival, problem): sorted when read."""
    more: int = 0
    """Games of the last rank left out."""
    severe: int = 0
    """Games of the first ranks met: the first ``limit`` keep their boards."""
    _arrived: int = 0

    def add(self, problem: ProblemGame) -> None:
        self._arrived += 1
        rank = problem.rank
        if rank < LAST_RANK:
            if self.severe >= self.limit:
                problem = replace(problem, svg="", caption="")
            self.severe += 1
            self.kept.append((rank, self._arrived, problem))
            self._make_room()
            return
        if len(self.kept) < self.limit:
            self.kept.append((rank, self._arrived, problem))
        else:
            self.more += 1

    def _make_room(self) -> None:
        """A severe game takes the place of the latest game of the last rank."""
        if len(self.kept) <= self.limit:
            return
        last = [i for i, (rank, _, _) in enumerate(self.kept) if rank == LAST_RANK]
        if last:
            self.kept.pop(last[-1])
            self.more += 1

    @property
    def shown(self) -> list[ProblemGame]:
        """The problem games kept, most severe first, in the order they came within a rank."""
        return [p for _, _, p in sorted(self.kept, key=lambda k: (k[0], k[1]))]


def run_batch(items: Iterable[Item], options: BatchOptions, writer: ReportSink | None,
              done: set[tuple[str, str | None]] | None = None,
              progress: Callable[[Summary], None] | None = None,
              problems: Problems | None = None, runner: Runner | None = None, *,
              earlier: Iterable[FileOutcome] | None = None,
              state_line: Callable[[FileOutcome], str] | None = None) -> Summary:
    """Run the whole batch; rows go to ``writer`` as they arrive (with each file's state line,
    ``state_line``), problem games to ``problems``. ``runner`` does the work (default
    :func:`run_items`, this machine's worker pool; :mod:`sgfcheck.run.cluster` has a Dask
    cluster's). ``earlier``: the files a report holds already (``--resume``), counted in the
    summary as if checked now; ``done``: their keys as the report writes them, not checked
    again. Returns the summary of the whole report."""
    summary = Summary()
    done = done or set()
    start = time.perf_counter()

    def todo() -> Iterator[Work]:
        for item in items:
            if isinstance(item, Skipped):  # said in the summary, never read
                summary.not_records += 1
                if len(summary.not_record_names) < NAMED:
                    path, member = item.key
                    summary.not_record_names.append(path if member is None
                                                    else f"{path}:{member}")
                continue
            if written_key(options.report_kind, item.key) in done:
                if earlier is None:  # a report without its run state: skipped, not counted
                    summary.skipped += 1
                continue
            yield item

    with DuplicateIndex() as keys:
        for outcome in earlier or ():
            count_outcome(summary, outcome, problems, keys)
            summary.skipped += 1
            summary.resumed_games += len(outcome.games)
        summary.resumed = earlier is not None
        collect(summary, (runner or run_items)(todo(), options), writer, problems, keys,
                progress, start, state_line)
        summary.identical_files, summary.same_games = keys.run_groups()
    summary.elapsed = time.perf_counter() - start
    summary.peak_rss_mb = peak_rss_mb()
    return summary


class KeySink(Protocol):
    """Where the duplicate keys go (a :class:`DuplicateIndex`, or a partition's key file)."""

    def add(self, kind: str, key: bytes, label: str) -> None: ...


def collect(summary: Summary, outcomes: Iterable[FileOutcome], writer: ReportSink | None,
            problems: Problems | None, keys: KeySink,
            progress: Callable[[Summary], None] | None, start: float,
            state_line: Callable[[FileOutcome], str] | None = None) -> None:
    """Write each outcome's rows (and its state line) as it comes and count it in the
    summary."""
    for outcome in outcomes:
        if writer is not None:
            line = None
            if state_line is not None:
                line = outcome.state if outcome.state is not None else state_line(outcome)
            writer.write(outcome.rows, line)
        count_outcome(summary, outcome, problems, keys)
        summary.elapsed = time.perf_counter() - start
        if progress is not None:
            progress(summary)


def count_outcome(summary: Summary, outcome: FileOutcome, problems: Problems | None,
                  keys: KeySink) -> None:
    """Count one file's outcome in the summary, its keys in the duplicate index and its problem
    games on the page."""
    path, member = outcome.key
    label = path if member is None else f"{path}:{member}"
    problem = outcome.input_problem
    if problem:
        summary.input_problems += 1
    else:
        summary.files += 1
    if outcome.problem and len(summary.problems) < 100:
        summary.problems.append(f"{label}: {outcome.problem}")
    if outcome.timed_out:
        summary.timeouts += 1
    elif outcome.unreadable and not problem:
        summary.unreadable += 1
    if outcome.encoding_guessed:
        summary.encodings_guessed += 1
    summary.engine_games += outcome.engine.games
    summary.engine_seconds += outcome.engine.seconds
    summary.engine_refused += outcome.engine.refused
    if outcome.digest is not None:
        keys.add("file", outcome.digest, label)
    for game in outcome.games:
        if problems is not None and game.problem is not None:
            problems.add(game.problem)
        summary.games += 1
        summary.verdicts[game.verdict] += 1
        if game.solver is not None:
            summary.solver_games += 1
            summary.solver_gave_up += game.solver in GAVE_UP
            summary.solver_seconds += game.solver_seconds
        summary.not_judged += game.not_judged
        if game.illegal:
            summary.games_with_illegal += 1
            for rule in set(game.illegal):
                summary.illegal_by_rule[rule] += 1
        if game.has_error:
            summary.errors += 1
        if game.result_status:
            summary.result_checks[game.result_status.value] += 1
            if game.basis is not None and game.result_status is not CheckStatus.NOT_SCORED:
                summary.result_checks_by_basis.setdefault(
                    game.basis, Counter())[game.result_status.value] += 1
        if game.sequence is not None:
            keys.add("game", game.sequence, game.label)


def peak_rss_mb() -> float:
    try:
        import resource
    except ImportError:  # not on Windows
        return 0.0
    kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # every file ran in a worker
    return kb / 1024 if sys.platform != "darwin" else kb / (1024 * 1024)
