"""A batch report as parts in a folder (``batch --out-dir``), for runs too large for one report
file, and ``sgfcheck report merge``.

The inputs are cut into partitions of ``part_size`` files, in input order. Each partition is one
task: the worker that runs it (a pool process here, or a Dask worker) writes its rows to
``part-NNNNN.jsonl.gz`` (gzip: a row of JSON is about 7 KB, 24 times less compressed) or, with
``--part-format parquet``, to ``part-NNNNN.parquet`` (the typed columns of
:mod:`sgfcheck.run.parquet`), and the keys for the duplicate search to
``part-NNNNN.keys.jsonl.gz`` itself,
straight into the folder (a local path, a shared filesystem, or an fsspec URL such as
``s3://bucket/run/``), and sends back only its counts: nothing of the report funnels through
the main process. ``manifest.jsonl`` says what the run was (first line) and which partitions
are complete (one line each, with its counts), appended as they finish; running the same
command again continues an interrupted run from the manifest. A partition whose worker died
is run again file by file through the ordinary pipeline (one bad file stays one row) and
written by the main process.

``sgfcheck report merge DIR`` joins the parts in order into one report (:class:`JsonLinesOut`,
:class:`ParquetOut`), adds up the counts and finds the duplicates across all parts (keys on
disk, not in memory).
"""

from __future__ import annotations

import gzip
import json
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, Protocol

from sgfcheck.output.schema import SCHEMA_VERSION
from sgfcheck.output.summary import NAMED, Summary, from_plain, merge, to_plain
from sgfcheck.records.inputs import Item, Skipped, is_url
from sgfcheck.run import ledger
from sgfcheck.run.batch import (
    BatchOptions,
    Runner,
    RunStopped,
    Work,
    collect,
    peak_rss_mb,
    process_item,
    run_items,
)
from sgfcheck.run.duplicates import DuplicateIndex
from sgfcheck.run.reportfile import ReportKind, ReportWriter, Row
from sgfcheck.version import VERSION

PART_SIZE = 10_000
"""Files in a partition by default."""
MANIFEST = "manifest.jsonl"


def part_name(index: int, kind: ReportKind = ReportKind.JSONL) -> str:
    return f"part-{index:05d}." + ("parquet" if kind is ReportKind.PARQUET else "jsonl.gz")


def part_kind(options: BatchOptions) -> ReportKind:
    """The partitions' format: Parquet when the run's rows are made for it, else JSON Lines."""
    return ReportKind.PARQUET if options.report_kind is ReportKind.PARQUET else ReportKind.JSONL


def keys_name(index: int) -> str:
    return f"part-{index:05d}.keys.jsonl.gz"


def _join(folder: str, name: str) -> str:
    return folder.rstrip("/") + "/" + name if is_url(folder) else os.path.join(folder, name)


@contextmanager
def open_text(folder: str, name: str, mode: str = "w") -> Iterator[IO[str]]:
    """A text file of the folder, local or at an fsspec URL. Local files are written under a
    temporary name and renamed when complete (a part is whole or absent)."""
    path = _join(folder, name)
    gz = name.endswith(".gz")
    text_mode = mode + "t"
    if is_url(folder):
        import fsspec  # type: ignore[import-untyped]

        with fsspec.open(path, text_mode, encoding="utf-8", newline="",
                         compression="gzip" if gz else None) as handle:
            yield handle
        return
    opener: Any = gzip.open if gz else open
    if mode.startswith("r") or mode.startswith("a"):
        with opener(path, text_mode, encoding="utf-8", newline="") as handle:
            yield handle
        return
    temporary = path + ".partial"
    with opener(temporary, text_mode, encoding="utf-8", newline="") as handle:
        yield handle
    os.replace(temporary, path)


@contextmanager
def open_binary(folder: str, name: str, mode: str = "w") -> Iterator[IO[bytes]]:
    """A binary file of the folder (a Parquet part), local or at an fsspec URL; a local file is
    written under a temporary name and renamed when complete, as :func:`open_text` does."""
    path = _join(folder, name)
    if is_url(folder):
        import fsspec

        with fsspec.open(path, mode + "b") as handle:
            yield handle
        return
    if mode.startswith("r"):
        with open(path, "rb") as handle:
            yield handle
        return
    temporary = path + ".partial"
    with open(temporary, "wb") as handle:
        yield handle
    os.replace(temporary, path)


def exists(folder: str, name: str) -> bool:
    if is_url(folder):
        from fsspec.core import url_to_fs  # type: ignore[import-untyped]

        fs, path = url_to_fs(_join(folder, name))
        return bool(fs.exists(path))
    return os.path.exists(os.path.join(folder, name))


def make_folder(folder: str) -> None:
    if is_url(folder):
        from fsspec.core import url_to_fs

        fs, path = url_to_fs(folder)
        fs.makedirs(path, exist_ok=True)
    else:
        os.makedirs(folder, exist_ok=True)


class _Keys:
    """The duplicate keys of one partition, written beside its rows."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, kind: str, key: bytes, label: str) -> None:
        self.lines.append(json.dumps([kind, key.hex(), label], ensure_ascii=False) + "\n")


@dataclass
class PartDone:
    """What a partition's task sends back: its number and counts (small)."""

    index: int
    summary: Summary


def write_part(items: list[Work], options: BatchOptions, folder: str, index: int,
               outcomes: Iterable[Any] | None = None) -> PartDone:
    """Run one partition and write its rows and keys into ``folder`` (on a worker; or in the
    main process with ``outcomes`` already made, after the worker died)."""
    kind = part_kind(options)
    options = replace(options, report_kind=kind)
    summary = Summary()
    keys = _Keys()
    made = outcomes if outcomes is not None else (process_item(i, options) for i in items)
    if kind is ReportKind.PARQUET:
        from sgfcheck.run.parquet import ParquetReport

        with open_binary(folder, part_name(index, kind)) as binary:
            report = ParquetReport(binary)
            collect(summary, made, report, None, keys, None, time.perf_counter())
            report.close()
    else:
        with open_text(folder, part_name(index, kind)) as stream:
            writer = ReportWriter(stream, kind, write_header=False)
            collect(summary, made, writer, None, keys, None, time.perf_counter())
    with open_text(folder, keys_name(index)) as stream:
        stream.write("".join(keys.lines))
    return PartDone(index, summary)


def _partitions(items: Iterable[Item], size: int, summary: Summary
                ) -> Iterator[list[Work]]:
    """Partitions of ``size`` files; files that are not records are counted, not sent."""
    part: list[Work] = []
    for item in items:
        if isinstance(item, Skipped):
            summary.not_records += 1
            if len(summary.not_record_names) < NAMED:
                path, member = item.key
                summary.not_record_names.append(path if member is None else f"{path}:{member}")
            continue
        part.append(item)
        if len(part) >= size:
            yield part
            part = []
    if part:
        yield part


@dataclass
class Manifest:
    """The run a folder holds, and the partitions complete."""

    head: dict[str, Any]
    done: dict[int, dict[str, Any]]


def read_manifest(folder: str) -> Manifest | None:
    """The folder's manifest, or None when it has none. Raises ValueError for a damaged one."""
    if not exists(folder, MANIFEST):
        return None
    with open_text(folder, MANIFEST, "r") as stream:
        lines = stream.read().split("\n")
    if not lines or not lines[0].strip():
        raise ValueError("empty manifest")
    head = json.loads(lines[0])
    done = {}
    for line in lines[1:]:
        if line.strip():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                break  # a line cut by an interruption: that partition is run again
            done[int(entry["part"])] = entry
    return Manifest(head, done)


Submit = Callable[[list[Work], BatchOptions, str, int], Any]
"""Start a partition's task: returns a future (``.result(timeout=...)``)."""


def run_parts(items: Iterable[Item], options: BatchOptions, folder: str, head: dict[str, Any],
              submit: Submit, in_flight: int, fallback: Runner | None = None,
              progress: Callable[[Summary], None] | None = None) -> Summary:
    """The whole run, partition by partition; returns the summary of every partition (this
    run's and the earlier runs' of the manifest)."""
    make_folder(folder)
    manifest = read_manifest(folder)
    if manifest is not None:
        differ = same_run(manifest.head, head)
        if differ:
            raise ValueError("it holds another run, which this command would mix with its own: "
                             + "; ".join(differ) + " (run with the folder's settings to "
                             "continue it, or start a new folder)")
    done = manifest.done if manifest is not None else {}
    # (Re)write the manifest: the head and the complete partitions' lines (a line an
    # interruption cut is dropped here, and its partition run again).
    with open_text(folder, MANIFEST) as stream:
        stream.write(json.dumps(manifest.head if manifest is not None else head,
                                ensure_ascii=False) + "\n")
        stream.write("".join(json.dumps(done[i], ensure_ascii=False) + "\n"
                             for i in sorted(done)))
    total = Summary()
    start = time.perf_counter()
    pending: deque[tuple[int, list[Work], Any]] = deque()

    def settle() -> None:
        index, part, future = pending.popleft()
        try:
            result: PartDone = future.result()
        except RunStopped:
            raise
        except Exception:  # noqa: BLE001 - a worker died or hung: file by file, here
            outcomes = (fallback or run_items)(part, replace(
                options, report_kind=part_kind(options), chunk=1))
            result = write_part(part, options, folder, index, outcomes)
        _record(folder, result, len(part), part_kind(options))
        merge(total, result.summary)
        total.elapsed = time.perf_counter() - start
        if progress is not None:
            progress(total)

    for index, part in enumerate(_partitions(items, head["part_size"], total)):
        if index in done:
            total.skipped += len(part)
            merge(total, replace(from_plain(done[index]["summary"]), skipped=0))
            continue
        pending.append((index, part, submit(part, options, folder, index)))
        while len(pending) >= in_flight:
            settle()
    while pending:
        settle()
    total.elapsed = time.perf_counter() - start
    total.peak_rss_mb = max(total.peak_rss_mb, peak_rss_mb())
    return total


def _record(folder: str, result: PartDone, files: int, kind: ReportKind) -> None:
    entry = {"part": result.index, "rows": part_name(result.index, kind),
             "keys": keys_name(result.index), "files": files,
             "games": result.summary.games, "summary": to_plain(result.summary)}
    with open_text(folder, MANIFEST, "a") as stream:
        stream.write(json.dumps(entry, ensure_ascii=False) + "\n")


def run_head(inputs: list[str], options: BatchOptions, part_size: int) -> dict[str, Any]:
    """The manifest's first line: what the run was (the inputs as given, the partition size, the
    parts' format and every setting)."""
    return {"sgfcheck": VERSION, "schema": SCHEMA_VERSION, "inputs": inputs,
            "part_size": part_size, "part_format": str(part_kind(options)),
            "settings": options.settings.to_plain()}


def same_run(before: dict[str, Any], head: dict[str, Any]) -> list[str]:
    """What differs between the run a folder holds and the one asked for (empty: the same run,
    which may be continued): the inputs and settings as for a report
    (:func:`sgfcheck.run.ledger.same_run`), and the partition size."""
    out = []
    if before.get("part_size") != head["part_size"]:
        out.append(f"--part-size {head['part_size']}, not {before.get('part_size')}")
    earlier = before.get("part_format", "jsonl")  # a manifest without it: JSON Lines parts
    if earlier != head["part_format"]:
        out.append(f"--part-format {head['part_format']}, not {earlier}")
    return ledger.same_run(before, head) + out


def parts_format(folder: str) -> ReportKind:
    """The format of a folder's parts, from its manifest. Raises ValueError for a folder that
    is not a ``batch --out-dir`` run."""
    manifest = read_manifest(folder)
    if manifest is None:
        raise ValueError(f"{folder} has no {MANIFEST}: not a folder written by batch --out-dir")
    return ReportKind(manifest.head.get("part_format", "jsonl"))


class MergeOut(Protocol):
    """Where ``report merge`` joins the parts' rows."""

    def add(self, folder: str, name: str) -> None:
        """Append the rows of one part (the folder's file ``name``)."""


class JsonLinesOut:
    """A JSON Lines report: the parts' text copied as it is (JSON Lines parts only: a Parquet
    part holds the typed columns, not the JSON rows)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def add(self, folder: str, name: str) -> None:
        if name.endswith(".parquet"):
            raise ValueError("its parts are Parquet (batch --part-format parquet): merge them "
                             "into a Parquet report (-o FILE.parquet)")
        with open_text(folder, name, "r") as stream:
            while True:
                block = stream.read(1 << 20)
                if not block:
                    break
                self.stream.write(block)


class ParquetOut:
    """A Parquet report (:mod:`sgfcheck.run.parquet`): Parquet parts' row groups copied, JSON
    Lines parts' rows converted to its columns. Raises ParquetUnavailable without pyarrow."""

    def __init__(self, path: Path) -> None:
        from sgfcheck.run.parquet import ParquetReport

        self.report = ParquetReport(path)

    def add(self, folder: str, name: str) -> None:
        if name.endswith(".parquet"):
            with open_binary(folder, name, "r") as binary:
                self.report.copy(binary)
            return
        with open_text(folder, name, "r") as stream:
            rows: list[Row] = []
            for line in stream:
                if line.strip():
                    rows.append(json.loads(line))
                if len(rows) >= 1000:
                    self.report.write(rows)
                    rows = []
            self.report.write(rows)

    def close(self) -> None:
        self.report.close()


def merge_parts(folder: str, out: MergeOut | None) -> Summary:
    """Join the parts of ``folder`` in order into ``out`` (when given) and compute the summary
    of the whole run, duplicates included. Raises ValueError when the folder holds no complete
    run, or parts ``out`` cannot take."""
    manifest = read_manifest(folder)
    if manifest is None:
        raise ValueError(f"{folder} has no {MANIFEST}: not a folder written by batch --out-dir")
    total = Summary()
    with DuplicateIndex() as keys:
        for index in sorted(manifest.done):
            entry = manifest.done[index]
            merge(total, from_plain(entry["summary"]))
            if out is not None:
                out.add(folder, entry["rows"])
            with open_text(folder, entry["keys"], "r") as stream:
                for line in stream:
                    kind, key, label = json.loads(line)
                    keys.add(kind, bytes.fromhex(key), label)
        total.identical_files, total.same_games = keys.run_groups()
    missing = [i for i in range(max(manifest.done, default=-1) + 1) if i not in manifest.done]
    if missing:
        total.problems.append(f"partitions not complete: {', '.join(map(str, missing[:20]))} "
                              "(run the batch command again to finish them)")
    return total


@contextmanager
def local_submit(options: BatchOptions) -> Iterator[tuple[Submit, int]]:
    """This machine's worker processes for partitions (``--jobs``), and how many partitions to
    keep in flight."""
    import multiprocessing
    import sys

    from pebble import ProcessPool

    from sgfcheck.run.batch import GRACE, init_worker

    jobs = options.jobs or os.cpu_count() or 1
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    pool = ProcessPool(max_workers=jobs, max_tasks=1, initializer=init_worker,
                       initargs=(options,), context=ctx)

    def submit(part: list[Work], opts: BatchOptions, folder: str, index: int) -> Any:
        hard = opts.timeout * len(part) + GRACE if opts.timeout > 0 else None
        return pool.schedule(write_part, (part, opts, folder, index), timeout=hard)

    try:
        yield submit, jobs * 2
        pool.close()
    except BaseException:
        pool.stop()
        raise
    finally:
        pool.join()
