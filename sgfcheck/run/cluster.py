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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, Generic, TypeVar

from sgfcheck import findings as F
from sgfcheck.findings import Finding
from sgfcheck.run.batch import BatchOptions, Runner, process_item, timed_out
from sgfcheck.run.executor import (
    IN_FLIGHT_PER_JOB,
    Chunk,
    RunStopped,
    Work,
    chunks,
    in_order,
)
from sgfcheck.run.outcome import FileOutcome, file_outcome
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


def run_chunk(chunk: Chunk, options: BatchOptions) -> list[FileOutcome]:
    """A chunk of files on a Dask worker (in one of its task threads). Never raises for a
    file."""
    return [process_item(item, options) for item in chunk.items]


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


T = TypeVar("T")


class DaskExecutor(Generic[T]):
    """The cluster's workers as an :class:`~sgfcheck.run.executor.Executor`: ``task(chunk,
    *args)`` runs on a worker; room for :data:`~sgfcheck.run.executor.IN_FLIGHT_PER_JOB`
    chunks (or ``per_thread``) per task thread, counted again every 64 chunks (workers may
    join or leave). A chunk is waited for as :func:`wait_result` waits."""

    def __init__(self, client: Any, task: Callable[..., T], *args: Any,
                 per_thread: int = IN_FLIGHT_PER_JOB) -> None:
        self.client = client
        self.task = task
        self.args = args
        self.per_thread = per_thread
        self.sent = 0
        self._room = threads(client) * per_thread
        _expected[client] = max(_expected.get(client, 0), workers(client))

    def room(self) -> int:
        return self._room

    def submit(self, chunk: Chunk, hard: float | None) -> Any:
        self.sent += 1
        if self.sent % 64 == 0:
            self._room = threads(self.client) * self.per_thread
            _expected[self.client] = max(_expected[self.client], workers(self.client))
        return self.client.submit(self.task, chunk, *self.args, pure=False)

    def wait(self, task: Any, hard: float | None) -> T:
        result: T = wait_result(self.client, task, hard)
        return result

    def cancel(self, task: Any) -> None:
        task.cancel()


def _run(client: Any, items: Iterable[Work], options: BatchOptions) -> Iterator[FileOutcome]:
    from distributed import KilledWorker

    def recover(chunk: Chunk, exc: BaseException) -> list[FileOutcome] | None:
        """A chunk past its hard limit: each file timed out (the thread that runs it cannot be
        stopped, so it is not sent again); one Dask gave up on: sent again file by file, and
        a single file Dask gave up on is a row."""
        if isinstance(exc, TimeoutError):
            return [timed_out(item, options) for item in chunk.items]
        if not isinstance(exc, KilledWorker):
            raise exc
        if len(chunk.items) > 1:
            return None
        message = ("the worker processes checking this file died each time it was tried "
                   f"(Dask gave up: {type(exc).__name__}); the batch went on")
        return [file_outcome(chunk.items[0], [Finding(F.SGF_CRASH, message)],
                             ReportKind(options.report_kind))]

    size = DASK_CHUNK if options.chunk is None else options.chunk
    executor: DaskExecutor[list[FileOutcome]] = DaskExecutor(client, run_chunk, options)
    for outcomes in in_order(chunks(items, size), executor, options.timeout, recover):
        yield from outcomes


def part_executor(client: Any, options: BatchOptions, folder: str) -> DaskExecutor[Any]:
    """Partitions (``batch --out-dir``) as Dask tasks, each writing its part into ``folder``
    (:func:`sgfcheck.run.parts.write_part`), two in flight per task thread."""
    from sgfcheck.run.parts import write_part

    return DaskExecutor(client, write_part, options, folder, per_thread=2)
