"""Batch validation of archives: every file accounted for, rows as results arrive, a summary.

The main process walks the inputs (:mod:`sgfcheck.inputs`) and hands chunks of work to worker
processes, keeping only a bounded number in flight; results come back in input order and are
written at once, so an interrupted run leaves a valid partial report that ``--resume`` completes.
Each worker checks and scores every game (:mod:`sgfcheck.adjudicate`) under a per-file time limit.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import multiprocessing
import os
import signal
import sys
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from sgfcheck import findings as F
from sgfcheck.adjudicate import ScoreOptions, score_game
from sgfcheck.check import CheckOptions, check_loaded
from sgfcheck.findings import Finding
from sgfcheck.inputs import InputProblem, Item, WorkItem
from sgfcheck.records import load_bytes
from sgfcheck.report import jsonl_line
from sgfcheck.symmetry import sequence_key

CHUNK = 8
"""Files handed to a worker at a time."""
IN_FLIGHT_PER_JOB = 4
"""Chunks in flight per worker: bounds the memory the main process holds."""
FAIL_POLICIES = ("error", "illegal", "mismatch", "never")


@dataclass(frozen=True)
class BatchOptions:
    rules: str = "auto"
    jobs: int = 0
    """Worker processes; 0 means one per core."""
    timeout: float = 30.0
    encoding: str | None = None
    score_rows: tuple[str, ...] = ()
    dead_stones: str = "markup"
    """As ``score --dead-stones``; ``markup`` (else only stones proven dead) by default, as the
    estimate costs tens of milliseconds per game."""
    report_kind: str = "jsonl"
    """How workers render rows for the report: ``jsonl`` (text lines), ``csv`` (cells), ``dict``
    (left as objects) or ``none`` (no report: rows dropped)."""


@dataclass
class GameFacts:
    """What the summary needs from one game (small: it crosses process boundaries)."""

    verdict: str
    illegal: tuple[str, ...]
    result_status: str | None
    has_error: bool
    sequence: bytes | None
    label: str


@dataclass
class FileOutcome:
    key: tuple[str, str | None]
    rows: list[Any]
    """Report rows: dicts, or already rendered by the worker (JSON lines, CSV cells)."""
    games: list[GameFacts]
    digest: bytes | None
    unreadable: bool
    timed_out: bool = False
    encoding_guessed: bool = False
    problem: str | None = None
    """For a file with no game: why (its error findings), and whether it is an input problem."""
    input_problem: bool = False

    def render(self, kind: str) -> FileOutcome:
        """Render the rows where the work was done (in the worker, not the main process)."""
        if self.rows and isinstance(self.rows[0], dict) and not self.games:
            findings = self.rows[0].get("file_findings", [])
            self.input_problem = any(f["code"] == F.SGF_INPUT.code for f in findings)
            self.problem = "; ".join(f["message"] for f in findings if f["severity"] == "error")
        if kind == "jsonl":
            self.rows = [jsonl_line(r) for r in self.rows]
        elif kind == "csv":
            self.rows = [ReportWriter.flat(r) for r in self.rows]
        elif kind == "none":
            self.rows = []
        return self


@dataclass
class Summary:
    files: int = 0
    skipped: int = 0
    games: int = 0
    unreadable: int = 0
    timeouts: int = 0
    input_problems: int = 0
    encodings_guessed: int = 0
    errors: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    illegal_by_rule: Counter[str] = field(default_factory=Counter)
    games_with_illegal: int = 0
    result_checks: Counter[str] = field(default_factory=Counter)
    identical_files: list[list[str]] = field(default_factory=list)
    same_games: list[list[str]] = field(default_factory=list)
    elapsed: float = 0.0
    peak_rss_mb: float = 0.0
    """Largest resident set of a worker (the main process itself when --jobs 1)."""
    problems: list[str] = field(default_factory=list)
    """The first inputs that could not be read, with why (all of them are rows in the report)."""

    def exit_code(self, policy: str) -> int:
        if policy == "never":
            return 0
        if policy == "mismatch":
            return 1 if self.result_checks["mismatch"] else 0
        if policy == "illegal":
            return 1 if self.games_with_illegal else 0
        return 1 if (self.unreadable or self.timeouts or self.input_problems or self.errors) else 0

    def table(self) -> list[tuple[str, Any]]:
        rate = self.games / self.elapsed if self.elapsed else 0.0
        rows: list[tuple[str, Any]] = [
            ("files", self.files),
            ("files skipped (already in the report)", self.skipped),
            ("games", self.games),
            ("unreadable files", self.unreadable),
            ("input problems (links, archive members)", self.input_problems),
            ("time limit exceeded", self.timeouts),
            ("encodings guessed", self.encodings_guessed),
            ("games with illegal moves", self.games_with_illegal),
        ]
        for rule, n in sorted(self.illegal_by_rule.items()):
            rows.append((f"  {rule}", n))
        for status in ("match", "mismatch", "not-scored", "unverifiable"):
            rows.append((f"RE {status}", self.result_checks[status]))
        rows.append(("identical files (groups)", len(self.identical_files)))
        rows.append(("same game in several records (groups)", len(self.same_games)))
        rows.append(("elapsed s", f"{self.elapsed:.1f}"))
        rows.append(("games/s", f"{rate:.0f}"))
        rows.append(("peak memory per worker (MB)", f"{self.peak_rss_mb:.0f}"))
        return rows

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": self.files, "skipped": self.skipped, "games": self.games,
            "unreadable": self.unreadable, "input_problems": self.input_problems,
            "timeouts": self.timeouts, "encodings_guessed": self.encodings_guessed,
            "games_with_illegal_moves": self.games_with_illegal,
            "illegal_by_rule": dict(self.illegal_by_rule),
            "verdicts": dict(self.verdicts), "result_checks": dict(self.result_checks),
            "identical_files": self.identical_files, "same_games": self.same_games,
            "elapsed": round(self.elapsed, 3),
            "games_per_second": round(self.games / self.elapsed, 1) if self.elapsed else None,
            "peak_rss_mb_per_worker": round(self.peak_rss_mb, 1),
        }


# --- work (runs in the workers) ----------------------------------------------------------------

_options = BatchOptions()


def _init_worker(options: BatchOptions) -> None:
    global _options
    _options = options
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process handles Ctrl-C


class _TimeLimit(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _TimeLimit


def process_item(item: Item, options: BatchOptions) -> FileOutcome:
    """Check and score one file (or report an input problem). Never raises."""
    if isinstance(item, InputProblem):
        finding = Finding(F.SGF_INPUT, item.message)
        return FileOutcome(item.key, [_file_row(item.path, item.member, [finding])], [], None,
                           True)
    use_alarm = options.timeout > 0 and hasattr(signal, "setitimer")
    if use_alarm:
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, options.timeout)
    try:
        return _process(item, options)
    except _TimeLimit:
        finding = Finding(F.SGF_TIMEOUT, f"not finished within {options.timeout:g} s; skipped")
        return FileOutcome(item.key, [_file_row(item.path, item.member, [finding])], [], None,
                           True, timed_out=True)
    except Exception as exc:  # noqa: BLE001 - one bad file never stops a batch
        where = traceback.extract_tb(exc.__traceback__)[-1]
        finding = Finding(F.SGF_CRASH, f"sgfcheck failed on this file ({type(exc).__name__}: "
                          f"{exc} at {Path(where.filename).name}:{where.lineno}); please report it")
        return FileOutcome(item.key, [_file_row(item.path, item.member, [finding])], [], None,
                           True)
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def _process(item: WorkItem, options: BatchOptions) -> FileOutcome:
    data = item.data
    if data is None:
        try:
            with open(item.path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            finding = Finding(F.SGF_UNREADABLE, f"cannot read the file: {exc.strerror}")
            return FileOutcome(item.key, [_file_row(item.path, None, [finding])], [], None, True)
    name = item.path if item.member is None else f"{item.path}:{item.member}"
    loaded = load_bytes(data, name, options.encoding)
    checked = check_loaded(loaded, CheckOptions(rules=options.rules, encoding=options.encoding))
    digest = hashlib.blake2b(data, digest_size=16).digest()
    file_findings = [f.to_dict() for f in loaded.findings]
    if not checked.games:
        row = _file_row(item.path, item.member, loaded.findings)
        return FileOutcome(item.key, [row], [], digest, True,
                           encoding_guessed=loaded.encoding_guessed)
    rows = []
    facts = []
    score_options = ScoreOptions(rules=options.score_rows, game_rules=options.rules,
                                 encoding=options.encoding, dead_stones=options.dead_stones)
    for report in checked.games:
        scored = score_game(report, score_options)
        row = {"path": item.path, "member": item.member}
        row.update(scored.to_dict(loaded.encoding, loaded.encoding_guessed))
        row["file_findings"] = file_findings
        rows.append(row)
        illegal = tuple(f.code.rule for f in report.illegal_moves)
        rc = scored.result_check.status if scored.result_check else "not-scored"
        key = sequence_key(report.game, report.line) if report.line is not None else None
        label = f"{name}#{report.game.index + 1}"
        has_error = bool(report.errors) or any(f.is_error for f in loaded.findings)
        facts.append(GameFacts(report.verdict, illegal, rc, has_error, key, label))
    return FileOutcome(item.key, rows, facts, digest, False,
                       encoding_guessed=loaded.encoding_guessed)


def _file_row(path: str, member: str | None, findings: list[Finding]) -> dict[str, Any]:
    return {"path": path, "member": member, "index": None, "readable": False,
            "verdict": "unreadable", "findings": [], "file_findings": [f.to_dict() for f in
                                                                       findings]}


def _process_chunk(items: list[Item]) -> list[FileOutcome]:
    return [process_item(item, _options).render(_options.report_kind) for item in items]


# --- orchestration (main process) --------------------------------------------------------------


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    chunk: list[Item] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def run_items(items: Iterable[Item], options: BatchOptions) -> Iterator[FileOutcome]:
    """Process items with ``options.jobs`` workers, yielding outcomes in input order."""
    jobs = options.jobs or os.cpu_count() or 1
    if jobs == 1:
        for item in items:
            yield process_item(item, options).render(options.report_kind)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    pool = ctx.Pool(jobs, initializer=_init_worker, initargs=(options,), maxtasksperchild=2000)
    try:
        pending: deque[Any] = deque()
        limit = jobs * IN_FLIGHT_PER_JOB
        for chunk in _chunks(items, CHUNK):
            pending.append(pool.apply_async(_process_chunk, (chunk,)))
            while len(pending) >= limit:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


class ReportWriter:
    """JSON Lines or CSV, one row per game, flushed per file."""

    CSV_COLUMNS = ["path", "member", "game", "size", "moves", "rules", "komi", "handicap",
                   "verdict", "illegal_moves", "error_codes", "encoding", "encoding_guessed",
                   "result", "result_kind", "computed", "result_check"]

    def __init__(self, stream: IO[str], kind: str, write_header: bool) -> None:
        self.stream = stream
        self.kind = kind
        self.csv = csv.writer(stream) if kind == "csv" else None
        if self.csv is not None and write_header:
            self.csv.writerow(self.CSV_COLUMNS)

    def write(self, rows: list[Any]) -> None:
        """Rows as dicts, or as rendered by :meth:`FileOutcome.render` for this kind."""
        if self.csv is None:
            self.stream.write("".join(r if isinstance(r, str) else jsonl_line(r) for r in rows))
        else:
            buffer = io.StringIO()
            writer = csv.writer(buffer)
            for r in rows:
                writer.writerow(r if isinstance(r, list) else self.flat(r))
            self.stream.write(buffer.getvalue())
        self.stream.flush()

    @staticmethod
    def flat(r: dict[str, Any]) -> list[Any]:
        findings = r.get("findings", []) + r.get("file_findings", [])
        errors = sorted({f["code"] for f in findings if f["severity"] == "error"})
        rules = r.get("rules") or {}
        result = r.get("result") or {}
        rc = r.get("result_check") or {}
        scores = r.get("scores") or []
        size = r.get("size")
        return [
            r["path"], r.get("member") or "", r.get("index") or "",
            f"{size[0]}x{size[1]}" if size else "", r.get("moves", ""), rules.get("name", ""),
            r.get("komi", ""), r.get("handicap", ""), r.get("verdict", ""),
            sum(1 for f in r.get("findings", []) if f["severity"] == "error"
                and f["code"].startswith("RUL")),
            " ".join(errors), r.get("encoding", ""), r.get("encoding_guessed", ""),
            result.get("raw", ""), result.get("kind", ""),
            scores[0]["result"] if scores else "", rc.get("status", ""),
        ]


def read_done(path: Path) -> set[tuple[str, str | None]]:
    """Keys (path, member) of the files an earlier report holds; a cut last line is dropped."""
    done: set[tuple[str, str | None]] = set()
    if not path.exists():
        return done
    raw = path.read_bytes()
    if raw and not raw.endswith(b"\n"):
        cut = raw.rfind(b"\n") + 1
        with open(path, "r+b") as fh:
            fh.truncate(cut)
        raw = raw[:cut]
    text = raw.decode("utf-8")
    if path.suffix.lower() == ".csv":
        for row in list(csv.reader(io.StringIO(text)))[1:]:
            if row:
                done.add((row[0], row[1] or None))
        return done
    for line in text.split("\n"):
        if line.strip():
            obj = json.loads(line)
            done.add((obj["path"], obj.get("member")))
    return done


def run_batch(items: Iterable[Item], options: BatchOptions, writer: ReportWriter | None,
              done: set[tuple[str, str | None]] | None = None,
              progress: Callable[[Summary], None] | None = None) -> Summary:
    """Run the whole batch; rows go to ``writer`` as they arrive. Returns the summary."""
    summary = Summary()
    done = done or set()
    start = time.perf_counter()

    def todo() -> Iterator[Item]:
        for item in items:
            if item.key in done:
                summary.skipped += 1
                continue
            yield item

    by_digest: dict[bytes, list[str]] = {}
    by_sequence: dict[bytes, list[str]] = {}
    for outcome in run_items(todo(), options):
        if writer is not None:
            writer.write(outcome.rows)
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
        if outcome.digest is not None:
            by_digest.setdefault(outcome.digest, []).append(label)
        for game in outcome.games:
            summary.games += 1
            summary.verdicts[game.verdict] += 1
            if game.illegal:
                summary.games_with_illegal += 1
                for rule in set(game.illegal):
                    summary.illegal_by_rule[rule] += 1
            if game.has_error:
                summary.errors += 1
            if game.result_status:
                summary.result_checks[game.result_status] += 1
            if game.sequence is not None:
                by_sequence.setdefault(game.sequence, []).append(game.label)
        summary.elapsed = time.perf_counter() - start
        if progress is not None:
            progress(summary)
    summary.identical_files = [v for v in by_digest.values() if len(v) > 1]
    identical = {label for group in summary.identical_files for label in group}
    summary.same_games = [v for v in by_sequence.values()
                          if len(v) > 1 and not all(g.rsplit("#", 1)[0] in identical for g in v)]
    summary.elapsed = time.perf_counter() - start
    summary.peak_rss_mb = _peak_rss_mb(options)
    return summary


def _peak_rss_mb(options: BatchOptions) -> float:
    try:
        import resource
    except ImportError:  # not on Windows
        return 0.0
    jobs = options.jobs or os.cpu_count() or 1
    who = resource.RUSAGE_SELF if jobs == 1 else resource.RUSAGE_CHILDREN
    kb = resource.getrusage(who).ru_maxrss
    return kb / 1024 if sys.platform != "darwin" else kb / (1024 * 1024)
