"""``batch`` on a Dask cluster (``--scheduler tcp://HOST:PORT`` or ``--scheduler local``).

The client (this process) walks the inputs as a local run does and sends chunks of work to the
cluster's workers, keeping a bounded number in flight (per worker thread), and takes the
outcomes back in input order: the rows, their order, the summary, duplicates, ``--resume`` and
the exit status are those of a local run. Files on disk must be visible to the workers at the
same path (one machine, or a shared filesystem); URLs (``s3://``, ``gs://``, ``https://``, a zip
inside one) are listed by the client and read by the workers themselves.

Isolation on a cluster: a worker lost mid-run costs nothing (the scheduler runs its tasks again
elsewhere). A file that kills every worker that tries it is stopped by Dask after the
scheduler's ``allowed-failures`` (``KilledWorker``): its chunk is sent again file by file, and
the file that did it becomes a row with ``SGF033``, not an endless retry. The per-file time
limit runs in the worker's task thread. Memory: workers are held to their own limit by their
nanny (``--scheduler local`` gives each ``--limit memory``); a worker past it is restarted,
which counts as a kill.

Needs the ``distributed`` extra (``pip install 'sgfcheck[distributed]'``).
"""

from __future__ import annotations

import logging
import weakref
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from sgfcheck import findings as F
from sgfcheck.findings import Finding
from sgfcheck.run.batch import (
    CHUNK,
    GRACE,
    IN_FLIGHT_BYTES,
    IN_FLIGHT_PER_JOB,
    BatchOptions,
    FileOutcome,
    Runner,
    RunStopped,
    Work,
    chunks,
    file_outcome,
    held_bytes,
    process_item,
    timed_out,
)
from sgfcheck.run.reportfile import ReportKind

DISTRIBUTED_MISSING = ("--scheduler needs Dask: pip install 'sgfcheck[distributed]' "
                       "(dask[distributed] and fsspec)")
LOCAL = "local"
ALLOWED_FAILURES = 0
"""Worker deaths a task may cause on ``--scheduler local`` beyond the first before Dask gives
up on it (an existing cluster keeps its own ``distributed.scheduler.allowed-failures``). None:
a chunk given up is sent again file by file, so a file is reported only when it killed a worker
alone; and every further death risks meeting a worker its nanny is still starting, which Dask
does not always restart."""


class ClusterUnavailable(RunStopped):
    """Dask is not installed, the scheduler cannot be reached, or the cluster lost every
    worker."""


def run_chunk(items: list[Work], options: BatchOptions) -> list[FileOutcome]:
    """A chunk of files on a Dask worker (in one of its task threads). Never raises for a
    file."""
    return [process_item(item, options) for item in items]


@dataclass
class _Slot:
    items: list[Work]
    future: Any


@contextmanager
def connect(scheduler: str, jobs: int, memory_mb: int) -> Iterator[Any]:
    """A Dask client: of the cluster at ``scheduler`` (``tcp://host:port``), or of a new
    ``LocalCluster`` of ``jobs`` worker processes for ``local``. Raises
    :class:`ClusterUnavailable`."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterUnavailable(DISTRIBUTED_MISSING) from None
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = None
    try:
        if scheduler == LOCAL:
            # worker-saturation 1.0: a worker holds only the task it runs, so a worker's death
            # counts against that task alone, never against others queued behind it.
            # No dashboard: its task stream keeps 100,000 tasks, which the main process would
            # hold (it runs the scheduler of a LocalCluster).
            with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                                  "distributed.scheduler.worker-saturation": 1.0,
                                  "distributed.worker.daemon": False}):
                cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1,
                                       processes=True, dashboard_address=":0",
                                       scheduler_kwargs={"dashboard": False},
                                       memory_limit=f"{memory_mb}MB", silence_logs=logging.ERROR)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def worker_peak_mb(client: Any) -> float:
    """The largest peak memory of the cluster's workers now (MB; 0 where unknown)."""

    def peak() -> float:
        try:
            import resource
        except ImportError:
            return 0.0
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    try:
        return max(client.run(peak).values(), default=0.0)
    except Exception:  # noqa: BLE001 - a figure for the summary, never a failure
        return 0.0


def threads(client: Any) -> int:
    """Task threads of the cluster's workers now (at least 1)."""
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))


def dask_runner(client: Any) -> Runner:
    """A :data:`sgfcheck.run.batch.Runner` that does the work on the cluster of ``client``."""

    def run(items: Iterable[Work], options: BatchOptions) -> Iterator[FileOutcome]:
        return _run(client, items, options)

    return run


DASK_CHUNK = 32
"""Files in a task on a cluster (a task costs the scheduler about a millisecond: chunks larger
than the local pool's keep that a small share of the work)."""
NO_WORKERS = 120.0
"""Seconds a run waits for a cluster that has lost every worker before it stops (the report
keeps every file finished: continue it with ``--resume``)."""
POLL = 5.0
WAIT_FOR_WORKERS = 30.0
"""Seconds to wait, after Dask gave up on a task, for the workers it cost to be restarted."""


def wait_result(client: Any, future: Any, hard: float | None) -> Any:
    """A task's result, raising ``TimeoutError`` past ``hard`` seconds of waiting while the
    cluster has workers; :class:`ClusterUnavailable` when it has had none for
    :data:`NO_WORKERS` seconds (Dask's nannies restart dead workers, but a worker killed while
    its nanny was still restarting it may stay dead); ``KilledWorker`` once the workers are back
    (so that what is sent next does not meet a worker still starting)."""
    from distributed import KilledWorker

    waited = idle = 0.0
    while True:
        step = POLL if hard is None else max(0.1, min(POLL, hard - waited))
        try:
            return future.result(timeout=step)
        except TimeoutError:
            if workers(client):
                waited += step
                idle = 0.0
                if hard is not None and waited >= hard:
                    raise
            else:
                idle += step
                if idle >= NO_WORKERS:
                    raise ClusterUnavailable(
                        f"the Dask cluster has had no worker for {NO_WORKERS:g} s; stopped "
                        "(the report holds every file finished: continue it with --resume, "
                        "or run the same --out-dir command again)") from None
        except KilledWorker:
            _wait_for_workers(client)
            raise


def workers(client: Any) -> int:
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # noqa: BLE001 - a scheduler that does not answer has none for us
        return 0


_expected: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
"""The most workers each client's cluster has been seen with."""


def _wait_for_workers(client: Any) -> None:
    """Wait (at most :data:`WAIT_FOR_WORKERS` s) until the cluster has as many workers as it had
    at most."""
    expected = max(_expected.get(client, 0), workers(client))
    _expected[client] = expected
    if expected:
        with suppress(Exception):  # go on with what there is
            client.wait_for_workers(expected, timeout=WAIT_FOR_WORKERS)


def _run(client: Any, items: Iterable[Work], options: BatchOptions) -> Iterator[FileOutcome]:
    from distributed import KilledWorker

    def submit(chunk: list[Work]) -> _Slot:
        return _Slot(chunk, client.submit(run_chunk, chunk, options, pure=False))

    _expected[client] = max(_expected.get(client, 0), workers(client))
    pending: deque[_Slot] = deque()
    limit = threads(client) * IN_FLIGHT_PER_JOB
    sent = 0
    try:
        size = DASK_CHUNK if options.chunk == CHUNK else options.chunk
        for chunk in chunks(items, size):
            pending.append(submit(chunk))
            sent += 1
            if sent % 64 == 0:  # workers may have joined or left
                limit = threads(client) * IN_FLIGHT_PER_JOB
                _expected[client] = max(_expected[client], workers(client))
            while pending and (len(pending) >= limit or sum(
                    held_bytes(i) for slot in pending for i in slot.items) > IN_FLIGHT_BYTES):
                yield from _settle(client, pending, submit, options, KilledWorker)
        while pending:
            yield from _settle(client, pending, submit, options, KilledWorker)
    finally:
        for slot in pending:
            slot.future.cancel()


def _settle(client: Any, pending: deque[_Slot], submit: Any, options: BatchOptions,
            killed: type[BaseException]) -> list[FileOutcome]:
    """The outcomes of the oldest chunk; a chunk Dask gave up on is sent again file by file in
    its place, and a single file Dask gave up on is a row."""
    slot = pending[0]
    hard = options.timeout * len(slot.items) + GRACE if options.timeout > 0 else None
    try:
        outcomes: list[FileOutcome] = wait_result(client, slot.future, hard)
    except TimeoutError:
        pending.popleft()
        slot.future.cancel()
        return [timed_out(item, options) for item in slot.items]
    except killed as exc:
        pending.popleft()
        if len(slot.items) > 1:
            pending.extendleft(submit([item]) for item in reversed(slot.items))
            return []
        message = ("the worker processes checking this file died each time it was tried "
                   f"(Dask gave up: {type(exc).__name__}); the batch went on")
        return [file_outcome(slot.items[0], [Finding(F.SGF_CRASH, message)],
                              ReportKind(options.report_kind))]
    pending.popleft()
    return outcomes


@dataclass
class _Pending:
    """A partition's task, waited for as :func:`wait_result` waits."""

    client: Any
    future: Any
    hard: float | None

    def result(self) -> Any:
        return wait_result(self.client, self.future, self.hard)


def part_submit(client: Any) -> tuple[Any, int]:
    """Partitions (``batch --out-dir``) as Dask tasks: the submit function for
    :func:`sgfcheck.run.parts.run_parts`, and how many to keep in flight."""
    from sgfcheck.run.parts import write_part

    _expected[client] = max(_expected.get(client, 0), workers(client))

    def submit(part: list[Work], options: BatchOptions, folder: str, index: int) -> Any:
        hard = options.timeout * len(part) + GRACE if options.timeout > 0 else None
        return _Pending(client, client.submit(write_part, part, options, folder, index,
                                              pure=False), hard)

    return submit, threads(client) * 2
