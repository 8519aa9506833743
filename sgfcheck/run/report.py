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

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sgfcheck.output.summary import Summary
from sgfcheck.records.inputs import iter_inputs
from sgfcheck.run.batch import BatchOptions, Problems, run_batch
from sgfcheck.run.reportfile import ReportKind, ReportWriter, drop_partial_line, read_done

if TYPE_CHECKING:
    from sgfcheck.run.batch import Runner


class ReportProblem(ValueError):
    """A report or folder that cannot be used as asked; the message says why."""


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
    name) as they come; with ``resume``, the files that report holds already are skipped and
    the rest appended to it. ``problems`` collects the problem games for a page. Returns the
    summary of this run."""
    target = resume or out
    done: set[tuple[str, str | None]] = set()
    if resume is not None:
        try:
            done = read_done(resume)
            drop_partial_line(resume)
        except (OSError, ValueError) as exc:
            raise ReportProblem(f"cannot read {resume}: {exc}") from None
    options = replace(options, report_kind=ReportKind.for_path(target),
                      details=problems is not None)
    items = iter_inputs(inputs, stdin if "-" in inputs else None, options.limits)
    stream = None
    writer = None
    if target is not None:
        fresh = resume is None or not target.exists() or target.stat().st_size == 0
        try:
            stream = open(target, "w" if resume is None else "a", encoding="utf-8",  # noqa: SIM115 - closed in finally
                          newline="")
        except OSError as exc:
            raise ReportProblem(f"cannot write {target}: {exc.strerror}") from None
        writer = ReportWriter(stream, options.report_kind, write_header=fresh)
    try:
        with workforce(scheduler, options.jobs, options.limits.memory) as work:
            summary = run_batch(items, options, writer, done, progress, problems, work.runner)
            if work.client is not None:
                summary.peak_rss_mb = work.peak()
    finally:
        if stream is not None:
            stream.close()
    return summary


def write_parts(inputs: list[str], options: BatchOptions, folder: str, part_size: int, *,
                scheduler: str | None = None, stdin: TextIO | None = None,
                progress: Callable[[Summary], None] | None = None) -> Summary:
    """The run as partitions written into ``folder`` by the workers that ran them
    (:mod:`sgfcheck.run.parts`); a folder holding the same run is continued, one holding
    another run refused. Returns the summary of every partition."""
    from sgfcheck.run.parts import local_submit, run_head, run_parts

    options = replace(options, report_kind=ReportKind.JSONL)
    items = iter_inputs(inputs, stdin if "-" in inputs else None, options.limits)
    head = run_head(inputs, options, part_size)
    try:
        with workforce(scheduler, options.jobs, options.limits.memory) as work:
            if work.client is not None:
                from sgfcheck.run.cluster import part_submit

                submit, in_flight = part_submit(work.client)
                summary = run_parts(items, options, folder, head, submit, in_flight,
                                    work.runner, progress)
                summary.peak_rss_mb = work.peak()
            else:
                with local_submit(options) as (submit, in_flight):
                    summary = run_parts(items, options, folder, head, submit, in_flight,
                                        None, progress)
    except (OSError, ValueError) as exc:
        raise ReportProblem(f"--out-dir {folder}: {exc}") from None
    return summary
