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
import itertools
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import IO, Any, Protocol

from sgfcheck.output.summary import NAMED, Summary, from_plain, merge, to_plain
from sgfcheck.records.inputs import is_url
from sgfcheck.records.items import Item, Skipped
from sgfcheck.run.batch import (
    BatchOptions,
    Runner,
    collect,
    init_worker,
    peak_rss_mb,
    process_item,
    run_items,
)
from sgfcheck.run.duplicates import DuplicateIndex
from sgfcheck.run.executor import (
    Chunk,
    Executor,
    PoolExecutor,
    Work,
    in_order,
    jobs_of,
    local_pool,
)
from sgfcheck.run.ledger import RunHead
from sgfcheck.run.reportfile import ReportKind, ReportWriter, Row

MANIFEST = "manifest.jsonl"

MOST_PARTS = 10**6
"""Partitions of one ``--out-dir`` run at most, as its manifest names them (``part-00000`` to
``part-999999``: a million partitions of the default 1,000 files is a billion files)."""


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
    """What a partition's task sends back: its number, files and counts (small)."""

    index: int
    files: int
    summary: Summary


def write_part(part: Chunk, options: BatchOptions, folder: str,
               outcomes: Iterable[Any] | None = None) -> PartDone:
    """Run one partition and write its rows and keys into ``folder`` (on a worker; or in the
    main process with ``outcomes`` already made, after the worker died)."""
    kind = part_kind(options)
    options = replace(options, report_kind=kind, state_lines=False)
    summary = Summary()
    keys = _Keys()
    index = part.index
    made = outcomes if outcomes is not None else (process_item(i, options) for i in part.items)
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
    return PartDone(index, len(part.items), summary)


def _partitions(items: Iterable[Item], size: int, summary: Summary
                ) -> Iterator[Chunk]:
    """Partitions of ``size`` files, numbered; files that are not records are counted, not
    sent."""
    part: list[Work] = []
    index = 0
    for item in items:
        if isinstance(item, Skipped):
            summary.not_records += 1
            if len(summary.not_record_names) < NAMED:
                path, member = item.key
                summary.not_record_names.append(path if member is None else f"{path}:{member}")
            continue
        part.append(item)
        if len(part) >= size:
            yield Chunk(part, index)
            index += 1
            part = []
    if part:
        yield Chunk(part, index)


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
    most = MOST_PARTS
    for line in lines[1:]:
        if line.strip():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                break  # a line cut by an interruption: that partition is run again
            index = entry.get("part") if isinstance(entry, dict) else None
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < most:
                raise ValueError(f"{MANIFEST} names a partition {str(index)[:20]!r}: not one "
                                 f"batch --out-dir writes (0 to {most - 1})")
            done[index] = entry
    return Manifest(head, done)


def run_parts(items: Iterable[Item], options: BatchOptions, folder: str, head: RunHead,
              executor: Executor[PartDone], fallback: Runner | None = None,
              progress: Callable[[Summary], None] | None = None) -> Summary:
    """The whole run, partition by partition on ``executor``; returns the summary of every
    partition (this run's and the earlier runs' of the manifest). A partition whose task was
    lost (its worker died or hung) is run again file by file by ``fallback`` (this machine's
    pool by default) and written here."""
    make_folder(folder)
    manifest = read_manifest(folder)
    if manifest is not None:
        differ = head.differences(manifest.head)
        if differ:
            raise ValueError("it holds another run, which this command would mix with its own: "
                             + "; ".join(differ) + " (run with the folder's settings to "
                             "continue it, or start a new folder)")
    done = manifest.done if manifest is not None else {}
    # (Re)write the manifest: the head and the complete partitions' lines (a line an
    # interruption cut is dropped here, and its partition run again).
    with open_text(folder, MANIFEST) as stream:
        stream.write(json.dumps(manifest.head if manifest is not None else head.to_plain(),
                                ensure_ascii=False) + "\n")
        stream.write("".join(json.dumps(done[i], ensure_ascii=False) + "\n"
                             for i in sorted(done)))
    total = Summary()
    start = time.perf_counter()
    kind = part_kind(options)

    def todo() -> Iterator[Chunk]:
        for part in _partitions(items, head.part_size or 1, total):
            if part.index in done:
                total.skipped += len(part.items)
                merge(total, replace(from_plain(done[part.index]["summary"]), skipped=0))
                continue
            yield part

    def recover(part: Chunk, exc: BaseException) -> PartDone:
        outcomes = (fallback or run_items)(part.items, replace(options, report_kind=kind,
                                                               chunk=1))
        return write_part(part, options, folder, outcomes)

    for result in in_order(todo(), executor, options.timeout, recover, bound_bytes=False):
        _record(folder, result, kind)
        merge(total, result.summary)
        total.elapsed = time.perf_counter() - start
        if progress is not None:
            progress(total)
    total.elapsed = time.perf_counter() - start
    total.peak_rss_mb = max(total.peak_rss_mb, peak_rss_mb())
    return total


def _record(folder: str, result: PartDone, kind: ReportKind) -> None:
    entry = {"part": result.index, "rows": part_name(result.index, kind),
             "keys": keys_name(result.index), "files": result.files,
             "games": result.summary.games, "summary": to_plain(result.summary)}
    with open_text(folder, MANIFEST, "a") as stream:
        stream.write(json.dumps(entry, ensure_ascii=False) + "\n")


def run_head(inputs: list[str], options: BatchOptions, part_size: int) -> RunHead:
    """The manifest's first line: what the run was (the inputs as given, the partition size, the
    parts' format and every setting)."""
    return RunHead(tuple(inputs), options.settings, part_size=part_size,
                   part_format=part_kind(options))


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
    kind = ReportKind(manifest.head.get("part_format", "jsonl"))
    with DuplicateIndex() as keys:
        for index in sorted(manifest.done):
            entry = manifest.done[index]
            merge(total, from_plain(entry["summary"]))
            # Only the files batch --out-dir writes, named from the partition's number: never a
            # name the manifest gives (a manifest is input, and may name any file).
            if out is not None:
                out.add(folder, part_name(index, kind))
            with open_text(folder, keys_name(index), "r") as stream:
                for line in stream:
                    kind_of, key, label = json.loads(line)
                    keys.add(kind_of, bytes.fromhex(key), label)
        total.identical_files, total.same_games = keys.run_groups()
    last = max(manifest.done, default=-1)
    missing = last + 1 - len(manifest.done)
    if missing:
        first = [str(i) for i in itertools.islice(
            (i for i in range(last + 1) if i not in manifest.done), 20)]
        more = f" and {missing - len(first):,} more" if missing > len(first) else ""
        total.problems.append(f"partitions not complete: {', '.join(first)}{more} (run the "
                              "batch command again to finish them)")
    return total


@contextmanager
def local_executor(options: BatchOptions, folder: str) -> Iterator[Executor[PartDone]]:
    """This machine's worker processes (``--jobs``) for partitions, a new process for each,
    two partitions in flight per process."""
    with local_pool(options.jobs, init_worker, options, max_tasks=1) as pool:
        yield PoolExecutor(pool, partial(write_part, options=options, folder=folder),
                           jobs_of(options.jobs) * 2)
