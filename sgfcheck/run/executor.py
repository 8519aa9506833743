"""Who runs a batch's work, and the one ordered loop over them.

An :class:`Executor` takes a :class:`Chunk` of files and gives back what its task made: this
machine's worker pool (:class:`PoolExecutor`, pebble's ``ProcessPool``) or a Dask cluster's
workers (:class:`sgfcheck.run.cluster.DaskExecutor`); the task is a chunk of files
(``batch``'s rows) or a whole partition (``batch --out-dir``'s parts). :func:`in_order` is the
loop over any of them: it keeps at most the executor's room of chunks (and of archive member
bytes) in flight, hands the results back in input order, waits at most :func:`hard_limit` for
a chunk, and asks the caller's ``recover`` what a chunk whose task was lost (a worker that
died, hung or gave up) stands for: its rows, or ``None`` to send its files again one by one in
its place, so that a file that kills a worker alone is a row of its own.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from sgfcheck.records.items import InputProblem, WorkItem

Work = WorkItem | InputProblem
"""What workers are handed: a record to read, or an input problem to report."""

CHUNK = 8
"""Files handed to a worker at a time (the default; see :data:`QUICK_CHUNK`)."""
QUICK_CHUNK = 16
"""Files handed to a local worker at a time where no file's dead stones are judged (about a
millisecond a file): fewer and larger messages between the processes, whose handling is the
main process's share of the two cores with ``--jobs 2``. Where dead stones are judged (tens of
milliseconds a file, seconds with an engine) :data:`CHUNK`, so that the last chunks of a run
keep the workers evenly busy."""
IN_FLIGHT_PER_JOB = 4
"""Chunks in flight per worker: bounds the memory the main process holds."""
CHUNK_BYTES = 4 * 1024 * 1024
"""Archive member bytes in one chunk at most (a chunk of large members is cut short)."""
IN_FLIGHT_BYTES = 64 * 1024 * 1024
"""Archive member bytes the main process holds in flight at most (beyond one chunk): with
members of up to ``member-size``, chunks x files x member-size would be gigabytes."""
GRACE = 10.0
"""Seconds beyond the per-file time limits before a worker is killed from outside."""

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True)
class Chunk:
    """Files handed to one task, in input order; ``index`` numbers a partition; ``again``: how
    many times its file was sent again alone after a task was lost."""

    items: list[Work]
    index: int = 0
    again: int = 0


class RunStopped(RuntimeError):
    """The workers of a run are gone (a cluster that lost them all): the run stops, its report
    holding every file finished."""


class Executor(Protocol[T_co]):
    """Runs chunks somewhere and hands back what each one's task made."""

    def room(self) -> int:
        """Chunks to keep in flight now."""

    def submit(self, chunk: Chunk, hard: float | None) -> Any:
        """Start a chunk's task (``hard``: seconds after which it counts as hung)."""

    def wait(self, task: Any, hard: float | None) -> T_co:
        """What the task made; raises when it was lost (died, hung, given up), and
        :class:`RunStopped` when no task can be run any more."""

    def cancel(self, task: Any) -> None:
        """Forget a task whose result is not wanted any more."""


def hard_limit(timeout: float, files: int) -> float | None:
    """Seconds a task of ``files`` files may take before it counts as hung: each file's own
    limit (``--timeout``, enforced inside the worker) and a grace for code that limit cannot
    interrupt; None without a limit."""
    return timeout * files + GRACE if timeout > 0 else None


def held_bytes(item: Work) -> int:
    """Bytes of an archive member the main process holds for an item (files are read by the
    worker)."""
    return len(item.data) if isinstance(item, WorkItem) and item.data is not None else 0


def chunks(items: Iterable[Work], size: int) -> Iterator[Chunk]:
    """Chunks of ``size`` items numbered from 0, cut short at :data:`CHUNK_BYTES` of member
    data."""
    chunk: list[Work] = []
    held = 0
    index = 0
    for item in items:
        chunk.append(item)
        held += held_bytes(item)
        if len(chunk) >= size or held >= CHUNK_BYTES:
            yield Chunk(chunk, index)
            index += 1
            chunk = []
            held = 0
    if chunk:
        yield Chunk(chunk, index)


@dataclass
class _Slot(Generic[T]):
    chunk: Chunk
    task: Any
    held: int


def in_order(work: Iterable[Chunk], executor: Executor[T], timeout: float,
             recover: Callable[[Chunk, BaseException], T | None],
             bound_bytes: bool = True) -> Iterator[T]:
    """Run every chunk on ``executor`` and yield what each made, in the chunks' order, with at
    most its room of chunks (and, with ``bound_bytes``, :data:`IN_FLIGHT_BYTES` of member data
    beyond one chunk) in flight. A lost chunk is what ``recover`` says, or its files sent again
    one by one in its place (``recover`` may send a file alone once more: its ``again``
    counts the times). Tasks still in flight when the loop ends early are cancelled."""
    pending: deque[_Slot[T]] = deque()
    held = 0

    def send(chunk: Chunk) -> _Slot[T]:
        size = sum(held_bytes(i) for i in chunk.items)
        return _Slot(chunk, executor.submit(chunk, hard_limit(timeout, len(chunk.items))), size)

    def settle() -> list[T]:
        nonlocal held
        slot = pending[0]  # left in place until it is settled: cancelled if the run stops
        try:
            made = executor.wait(slot.task, hard_limit(timeout, len(slot.chunk.items)))
        except RunStopped:
            raise
        except Exception as exc:  # noqa: BLE001 - died, hung, failed: recover says what it is
            pending.popleft()
            held -= slot.held
            executor.cancel(slot.task)
            recovered = recover(slot.chunk, exc)
            if recovered is not None:
                return [recovered]
            tries = slot.chunk.again + 1 if len(slot.chunk.items) == 1 else 0
            again = [send(Chunk([item], slot.chunk.index, tries)) for item in slot.chunk.items]
            held += sum(s.held for s in again)
            pending.extendleft(reversed(again))
            return []
        pending.popleft()
        held -= slot.held
        return [made]

    try:
        for chunk in work:
            slot = send(chunk)
            pending.append(slot)
            held += slot.held
            while pending and (len(pending) >= executor.room()
                               or (bound_bytes and held > IN_FLIGHT_BYTES)):
                yield from settle()
        while pending:
            yield from settle()
    finally:
        for slot in pending:
            executor.cancel(slot.task)


class PoolExecutor(Generic[T]):
    """This machine's worker processes (pebble's ``ProcessPool``): ``task`` runs a chunk in a
    worker, killed when it runs past the chunk's hard limit. A pool that broke (workers dying
    back to back: pebble's "All workers expired", then "Unexpected error within the Pool" for
    every task sent) is replaced by a fresh one (:class:`LocalPool`), the chunks it lost sent
    again by :func:`in_order`; only a pool that breaks again at once stops the run."""

    def __init__(self, pool: Any, task: Callable[[Chunk], T], room: int) -> None:
        self.pool = pool
        self.task = task
        self._room = room

    def room(self) -> int:
        return self._room

    def submit(self, chunk: Chunk, hard: float | None) -> Any:
        pool = self.pool.current if isinstance(self.pool, LocalPool) else self.pool
        try:
            return pool.schedule(self.task, (chunk,), timeout=hard)
        except RuntimeError as exc:  # the pool is broken
            if not isinstance(self.pool, LocalPool):
                raise
            try:
                return self.pool.renew().schedule(self.task, (chunk,), timeout=hard)
            except RuntimeError as again:
                raise RunStopped(f"the worker pool broke and a new one could not take work "
                                 f"({again or exc})") from None

    def wait(self, task: Any, hard: float | None) -> T:
        result: T = task.result()
        return result

    def cancel(self, task: Any) -> None:
        task.cancel()


MAX_TASKS = 2000
"""Chunks a worker runs before it is replaced (memory fragmentation stays bounded)."""

MOST_RENEWALS = 100
"""Times a run replaces a broken pool at most: past it, something breaks every pool (the workers
cannot start), and the run stops with what it finished."""


class LocalPool:
    """The run's pool of worker processes, replaced by a fresh one where it broke."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make
        self.current = make()
        self.renewals = 0

    def renew(self) -> Any:
        """A fresh pool in place of the broken one (stopped, its workers joined)."""
        self.renewals += 1
        if self.renewals > MOST_RENEWALS:
            raise RuntimeError(f"{MOST_RENEWALS} pools broke in one run")
        broken, self.current = self.current, None
        broken.stop()
        broken.join()
        self.current = self.make()
        return self.current


@contextmanager
def local_pool(jobs: int, start: Callable[..., None], *args: Any,
               max_tasks: int = MAX_TASKS) -> Iterator[LocalPool]:
    """``jobs`` worker processes (one per core for 0), each started by ``start(*args)``;
    stopped at once when the run fails or is interrupted, else closed when their work is
    done."""
    from pebble import ProcessPool
    from pebble.common.types import CONSTS

    ctx = RoomyPipes(multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn"))
    # pebble's pool threads poll every CONSTS.sleep_unit (0.1 s): its join waits up to that
    # long for a thread asleep, 50-100 ms of a run of one record. A shorter unit while the pool
    # runs (the maintainer's advice: noxdafox/pebble#65) costs its manager a check of the
    # workers every 10 ms.
    unit, CONSTS.sleep_unit = CONSTS.sleep_unit, POLL_SECONDS
    pools = LocalPool(lambda: ProcessPool(max_workers=jobs_of(jobs), max_tasks=max_tasks,
                                          initializer=start, initargs=args, context=ctx))
    try:
        yield pools
        pools.current.close()
    except BaseException:
        pools.current.stop()
        raise
    finally:
        pools.current.join()
        CONSTS.sleep_unit = unit


POLL_SECONDS = 0.01
"""How often the local pool's threads look at the workers (pebble's own default: 0.1 s)."""

PIPE_BYTES = 1024 * 1024
"""What the local pool's pipes hold, where the system lets a process say (Linux, up to its
``/proc/sys/fs/pipe-max-size``, a megabyte by default): a chunk's rows (about 8 KB a game as
JSON Lines) are written whole while the main process is busy. In the default 64 KB a worker of
``--jobs 2`` waited about 13% of its time for the main process to read (the manual's
benchmarks page)."""


class RoomyPipes:
    """A multiprocessing context whose pipes hold :data:`PIPE_BYTES` where the system allows it;
    everything else (processes, locks) is the context's own. pebble makes its pool's channels
    with the context it is given."""

    def __init__(self, context: Any) -> None:
        self._context = context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)

    def Pipe(self, duplex: bool = True) -> tuple[Any, Any]:  # noqa: N802 - multiprocessing's name
        ends = self._context.Pipe(duplex)
        widen_pipe(ends[0].fileno())  # a pipe's size is the pipe's: one end asks for both
        return ends


def widen_pipe(fd: int) -> None:
    """Ask that the pipe ``fd`` belongs to hold :data:`PIPE_BYTES` (Linux's ``F_SETPIPE_SZ``); where
    the system has no such setting, or refuses it (a socket, a limit set lower), the pipe keeps
    its size."""
    try:
        import fcntl
    except ImportError:  # Windows
        return
    setting = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setting is None:
        return
    with suppress(OSError):
        fcntl.fcntl(fd, setting, PIPE_BYTES)


def jobs_of(jobs: int) -> int:
    """Worker processes of a local run: ``jobs``, or one per core for 0."""
    return jobs or os.cpu_count() or 1
