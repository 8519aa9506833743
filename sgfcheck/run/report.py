"""A batch run into its report: a report file (fresh, or continued with ``--resume``), or parts in
a folder (``--out-dir``), on this machine's workers or a Dask cluster.

The library behind ``sgfcheck batch``: :func:`write_report` and :func:`write_parts` take the
inputs as the user gave them and the run's :class:`~sgfcheck.run.batch.BatchOptions`, and return
the summary. Problems the user can mend (a report that cannot be read or written, a folder that
holds another run) raise :class:`ReportProblem`; a cluster that cannot be reached or lost its
workers raises :class:`~sgfcheck.run.batch.RunStopped`. An interruption (``KeyboardInterrupt``)
goes through: what was written stays, and can be continued.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from itertools import takewhile
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sgfcheck.counting.judged import Basis
from sgfcheck.output.summary import Summary
from sgfcheck.records.inputs import iter_inputs
from sgfcheck.run.batch import BatchOptions, Problems, run_batch
from sgfcheck.run.ledger import (
    RunHead,
    iter_state,
    read_state_head,
    report_keys,
    state_path,
)
from sgfcheck.run.outcome import FileOutcome, outcome_line
from sgfcheck.run.parquet import (
    ParquetReport,
    ParquetUnavailable,
    parquet_keys,
    replace_earlier,
)
from sgfcheck.run.reportfile import (
    ReportKind,
    ReportWriter,
    drop_partial_line,
    read_done,
    written_key,
)
from sgfcheck.settings import DeadStoneChoice
from sgfcheck.verdict.reasons import CheckStatus

if TYPE_CHECKING:
    from sgfcheck.run.batch import Runner


REPORT_BUFFER = 1024 * 1024
"""Bytes of the report file's write buffer (the writer flushes every few seconds in any case)."""


class ReportProblem(ValueError):
    """A report or folder that cannot be used as asked; the message says why."""


class ReportNotWritten(ReportProblem):
    """The report (or its run state) could not be written on: a full disk, a device that takes
    nothing. What was written before stays, and ``--resume`` goes on from it."""


WRITE_ERRORS = frozenset({errno.EPIPE, errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO,
                          errno.EBADF})
"""What a write fails with when the output cannot take it (a report, standard output)."""


@dataclass
class Workforce:
    """Who does a batch's work: this machine's worker pool (no client), or a Dask cluster."""

    runner: Runner | None = None
    client: Any = None

    def peak(self) -> float:
        from sgfcheck.run.cluster import worker_peak_mb

        return worker_peak_mb(self.client)


@contextmanager
def workforce(scheduler: str | None, jobs: int, memory_mb: int) -> Iterator[Workforce]:
    """This machine's pool (``scheduler`` None) or a Dask cluster: ``tcp://HOST:PORT`` or
    ``local``. Raises :class:`~sgfcheck.run.cluster.ClusterUnavailable`."""
    if scheduler is None:
        yield Workforce()
        return
    from sgfcheck.run.cluster import connect, dask_runner

    with ExitStack() as stack:
        client = stack.enter_context(connect(scheduler, jobs or os.cpu_count() or 1, memory_mb))
        yield Workforce(dask_runner(client), client)


def write_report(inputs: list[str], options: BatchOptions, *, out: Path | None = None,
                 resume: Path | None = None, scheduler: str | None = None,
                 stdin: TextIO | None = None, progress: Callable[[Summary], None] | None = None,
                 problems: Problems | None = None) -> Summary:
    """Check and score every game of the inputs, rows to ``out`` (JSON Lines, or CSV by its
    name) as they come, and the run state beside it (:mod:`sgfcheck.run.ledger`); with
    ``resume``, the files that report holds already are counted from its run state, not checked
    again, and the rest appended. ``problems`` collects the problem games for a page. Returns
    the summary of the whole report. Raises :class:`ReportProblem` for a report that cannot be
    read or written, or one written by another run (other inputs or settings: the message
    names the difference)."""
    target = resume or out
    options = replace(options, report_kind=ReportKind.for_path(target),
                      details=problems is not None)
    head = RunHead(tuple(inputs), options.settings, report=options.report_kind)
    earlier: Callable[[], Iterator[FileOutcome]] | None = None
    done: set[tuple[str, str | None]] = set()
    notes: list[str] = []
    if resume is not None and resume.exists() and resume.stat().st_size:
        try:
            earlier, done = _continue(resume, head, options.report_kind, notes)
        except ReportProblem:
            raise  # read, and another run: said as it is, not as a file that cannot be read
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            raise ReportProblem(f"cannot read {resume}: {exc}") from None
    items = iter_inputs(inputs, stdin if "-" in inputs else None, options.limits,
                        options.settings.follow_links)
    streams: list[TextIO] = []
    writer = None
    parquet: ParquetReport | None = None
    aside: Path | None = None
    state: TextIO | None = None
    appending = False
    if target is not None:
        appending = bool(done)
        # A report continued without its state (an earlier version's) gets none: a state that
        # lacked its earlier files would have them cut at the next resume.
        stateless = appending and earlier is None
        try:
            stream = None
            if options.report_kind is not ReportKind.PARQUET:
                # A large buffer: rows are kilobytes each, and the writer flushes every few
                # seconds anyway (an 8 KB buffer made a system call of nearly every row).
                stream = open(target, "a" if appending else "w", encoding="utf-8",  # noqa: SIM115 - closed in finally
                              newline="", buffering=REPORT_BUFFER)
                streams.append(stream)
            if not stateless:
                state = open(state_path(target), "a" if appending else "w",  # noqa: SIM115 - closed in finally
                             encoding="utf-8")
                streams.append(state)
        except OSError as exc:
            for opened in streams:
                opened.close()
            raise ReportProblem(f"cannot write {exc.filename}: {exc.strerror}") from None
        if stream is None:
            keep = None
            if appending:
                rows = sum(1 for _ in takewhile(lambda kr: kr[0] in done,
                                                parquet_keys(target)))
                aside = replace_earlier(target)
                keep = (aside, rows)
            try:
                parquet = ParquetReport(target, state=state, keep=keep)
            except ParquetUnavailable as exc:
                for opened in streams:
                    opened.close()
                raise ReportProblem(str(exc)) from None
        else:
            writer = ReportWriter(stream, options.report_kind, write_header=not appending,
                                  state=state)
    try:
        try:
            if state is not None and not appending:
                state.write(json.dumps(head.to_plain(), ensure_ascii=False) + "\n")
                state.flush()  # the head first: a state without it cannot be resumed
            with workforce(scheduler, options.jobs, options.limits.memory) as work:
                sink = parquet if parquet is not None else writer
                summary = run_batch(items, options, sink, done, progress, problems, work.runner,
                                    earlier=earlier() if earlier is not None else None,
                                    state_line=outcome_line if sink is not None and sink.state
                                    else None)
                if work.client is not None:
                    summary.peak_rss_mb = work.peak()
        finally:
            _close(writer, parquet, aside, streams)
    except OSError as exc:
        if target is None or exc.errno not in WRITE_ERRORS or exc.filename is not None:
            raise
        raise ReportNotWritten(f"cannot write {target}: {os.strerror(exc.errno or 0)} (the "
                               "files whose rows were written are kept: free room and run the "
                               "same command with --resume)") from None
    summary.notes = notes + estimate_hint(summary, options)
    return summary


def _close(writer: ReportWriter | None, parquet: ParquetReport | None, aside: Path | None,
           streams: list[TextIO]) -> None:
    """Flush and close what the report wrote, every stream closed even where one fails; the first
    failure is raised once all are closed."""
    failed: OSError | None = None
    steps: list[Callable[[], object]] = []
    if writer is not None:
        steps.append(writer.flush)
    if parquet is not None:
        steps.append(parquet.close)
        if aside is not None:
            steps.append(aside.unlink)
    steps += [opened.close for opened in streams]
    for step in steps:
        try:
            step()
        except OSError as exc:
            failed = failed or exc
    if failed is not None:
        raise failed


def estimate_hint(summary: Summary, options: BatchOptions) -> list[str]:
    """The hint of a run left to its default dead stones (markup, else only proven dead) whose
    results could not be checked for want of them."""
    if options.settings.dead_stones is not DeadStoneChoice.MARKUP:
        return []
    # Without markup the dead stones are wanting in a game stopped before two passes (only the
    # stones proven dead removed) and in one ended by two passes (counted as it stands, every
    # stone not proven dead counted alive: RES123).
    by_basis = summary.result_checks_by_basis
    wanting = sum(by_basis[basis.value][CheckStatus.UNVERIFIABLE.value]
                  for basis in (Basis.PROOF, Basis.FINISHED) if basis.value in by_basis)
    if not wanting:
        return []
    return [f"hint: {wanting} result(s) are unverifiable for want of dead stones (no markup in "
            "the record: counted with only the stones proven dead removed): add --dead-stones "
            "auto for sgfcheck's estimate (several times slower)"]


def _continue(report: Path, head: RunHead, kind: ReportKind, notes: list[str]
              ) -> tuple[Callable[[], Iterator[FileOutcome]] | None, set[tuple[str, str | None]]]:
    """What a resumed report holds: its earlier files (read again from the run state when
    counted) and their keys as the report writes them. The report is cut back to the rows of
    the files its state holds. Without a state (a report of sgfcheck 0.2 or earlier, or one
    whose state was removed) the files are only skipped, and a note says the summary covers
    this run alone."""
    state = state_path(report)
    before: dict[str, Any] | None = None
    lacking = "no run state"
    if state.exists():
        try:
            before = read_state_head(state)
        except ValueError:
            # Empty or cut where a write failed (a full disk) or the run was killed before its
            # first line was out: left as it is, and the report resumed as one without a state.
            lacking = "a run state that cannot be read (empty or cut short)"
    if before is None:
        done = read_done(report)
        drop_partial_line(report)
        notes.append(f"{report} has {lacking} ({state.name}): its {len(done)} earlier "
                     "file(s) are skipped but not counted; the summary, page and exit status "
                     "cover this run only")
        return None, done
    differ = head.differences(before)
    if differ:
        raise ReportProblem(f"{report} holds another run: this one has " + "; ".join(differ)
                            + " (give the same inputs and options, or write a new report)")
    finished = {written_key(kind, o.key) for o in iter_state(state)}
    keep = 0
    held: set[tuple[str, str | None]] = set()
    if kind is ReportKind.PARQUET:
        # A Parquet report is not cut but copied: the rows of the files its state holds, in
        # order, go first into the report this run writes (ParquetReport's keep).
        for key, _ in parquet_keys(report):
            if key not in finished:
                break
            held.add(key)
        if held != finished:
            _rewrite_state(state, before, held, kind)
        return (lambda: (o for o in iter_state(state) if o.key in held)), held
    for key, end in report_keys(report, kind):
        if key not in finished:
            break  # rows beyond the state: a file whose state was not written yet
        held.add(key)
        keep = end
    if not held and kind is ReportKind.CSV:
        with open(report, "rb") as header:
            keep = len(header.readline())  # the header alone
    with open(report, "r+b") as fh:
        fh.truncate(keep)
    if held != finished:
        _rewrite_state(state, before, held, kind)

    def earlier() -> Iterator[FileOutcome]:
        return (o for o in iter_state(state) if written_key(kind, o.key) in held)

    return earlier, held


def _rewrite_state(state: Path, head: dict[str, Any], held: set[tuple[str, str | None]],
                   kind: ReportKind) -> None:
    """Keep in the state only the files the report holds rows of."""
    keep = [o for o in iter_state(state) if written_key(kind, o.key) in held]
    tmp = state.with_name(state.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(head, ensure_ascii=False) + "\n")
        fh.writelines(outcome_line(o) for o in keep)
    os.replace(tmp, state)


def write_parts(inputs: list[str], options: BatchOptions, folder: str, part_size: int, *,
                parquet: bool = False, scheduler: str | None = None,
                stdin: TextIO | None = None,
                progress: Callable[[Summary], None] | None = None) -> Summary:
    """The run as partitions written into ``folder`` by the workers that ran them
    (:mod:`sgfcheck.run.parts`): gzipped JSON Lines, or Parquet with ``parquet``; a folder
    holding the same run is continued, one holding another run refused. Returns the summary of
    every partition."""
    from sgfcheck.run.parts import local_executor, run_head, run_parts

    options = replace(options, report_kind=ReportKind.PARQUET if parquet else ReportKind.JSONL)
    items = iter_inputs(inputs, stdin if "-" in inputs else None, options.limits,
                        options.settings.follow_links)
    head = run_head(inputs, options, part_size)
    try:
        with workforce(scheduler, options.jobs, options.limits.memory) as work:
            if work.client is not None:
                from sgfcheck.run.cluster import part_executor

                summary = run_parts(items, options, folder, head,
                                    part_executor(work.client, options, folder), work.runner,
                                    progress)
                summary.peak_rss_mb = work.peak()
            else:
                with local_executor(options, folder) as executor:
                    summary = run_parts(items, options, folder, head, executor, None, progress)
    except (OSError, ValueError) as exc:
        raise ReportProblem(f"--out-dir {folder}: {exc}") from None
    summary.notes = estimate_hint(summary, options)
    return summary
