"""Archives read in place, never extracted, within :class:`sgfcheck.limits.Limits`: a zip's or a
tar's records as work items (a member is read to at most ``member-size`` bytes whatever its header
says, an archive to at most ``archive-size`` decompressed bytes, and a member, or a tar stream,
that expands more than ``ratio`` times is not decompressed at all), every member that cannot be
used an :class:`~sgfcheck.records.items.InputProblem` in its place."""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import IO, TYPE_CHECKING

from sgfcheck.limits import Limits
from sgfcheck.records.items import (
    NOT_A_RECORD,
    InputProblem,
    Item,
    Skipped,
    Uncountable,
    WorkItem,
    is_record_name,
)

if TYPE_CHECKING:
    import zipfile

BOMB_FLOOR = 1024 * 1024
"""The expansion ratio is judged only past this many bytes: small members of repeated text may
well compress 200 times, and cost nothing."""



def zip_listed(url: str, handle: IO[bytes], limits: Limits, packed: int) -> Iterator[Item]:
    """A remote zip's records from its directory: members to be read by the workers (``data``
    None), judged by their declared sizes here and by what they hold when read."""
    import zipfile

    budget = _Budget(url, limits, packed)
    with zipfile.ZipFile(handle) as archive:
        whole = _zip_whole(archive, url, budget)
        if whole is not None:
            yield whole
            return
        for entry in _zip_entries(archive, url, budget):
            if not isinstance(entry, zipfile.ZipInfo):
                yield entry
            elif not budget.spend(entry.file_size):
                yield budget.exhausted(url)
                return
            else:
                yield WorkItem(url, entry.filename)


def read_zip_member(handle: IO[bytes], member: str, limits: Limits) -> tuple[bytes | None, str]:
    """One member of a zip (a worker reading what :func:`zip_listed` listed): its bytes, or
    None and why not."""
    import zipfile

    try:
        with zipfile.ZipFile(handle) as archive:
            info = archive.getinfo(member)
            problem = _Budget("", limits, 1).member_problem(member, info.file_size,
                                                             info.compress_size)
            if problem:
                return None, problem
            with archive.open(info) as stream:
                data = _read_member(stream, limits.member_size)
    except _member_errors() + (KeyError,) as exc:
        return None, f"cannot read the member: {exc}"
    if data is None:
        return None, ("larger than its header says and than the limit "
                      f"({limits.describe('member_size')}); not read")
    return data, ""


def _unsafe(name: str) -> str | None:
    pure = PurePosixPath(name.replace("\\", "/"))
    if pure.is_absolute() or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "absolute path inside the archive"
    if ".." in pure.parts:
        return "'..' in a path inside the archive"
    return None


class _Budget:
    """What one archive may still expand to (``archive-size``), and the ratio it may reach."""

    def __init__(self, path: str, limits: Limits, packed: int | None = None) -> None:
        self.limits = limits
        self.left = limits.archive_size
        if packed is not None:
            self.packed = max(1, packed)
            return
        try:
            self.packed = max(1, os.path.getsize(path))
        except OSError:
            self.packed = 1

    def member_problem(self, name: str, size: int, packed: int | None) -> str | None:
        """Why a member is not read, from its name and declared sizes, or None."""
        unsafe = _unsafe(name)
        if unsafe:
            return unsafe + "; not read"
        limits = self.limits
        if size > limits.member_size:
            return (f"{size} bytes: larger than the limit "
                    f"({limits.describe('member_size')}); not read")
        if packed is not None and size > BOMB_FLOOR and size > limits.ratio * max(1, packed):
            return (f"expands {size // max(1, packed)} times ({packed} -> {size} bytes), more "
                    f"than the limit ({limits.describe('ratio')}): a decompression bomb?; "
                    "not read")
        return None

    def spend(self, size: int) -> bool:
        """Count ``size`` decompressed bytes; False once the archive is past its limit."""
        self.left -= size
        return self.left >= 0

    def too_many(self, path: str, name: str | None) -> InputProblem:
        return InputProblem(path, name, "the archive has more entries than the limit "
                            f"({self.limits.describe('members')}); this entry and the rest were "
                            "not read")

    def exhausted(self, path: str) -> InputProblem:
        return InputProblem(path, None, "the archive expands past the limit "
                            f"({self.limits.describe('archive_size')}); the members after this "
                            "point were not read")


def archive_items(path: str, limits: Limits) -> Iterator[Item]:
    import tarfile
    import zipfile

    try:
        if path.lower().endswith(".zip"):
            yield from _zip(path, limits)
        else:
            yield from tar_items(path, limits)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error, ValueError,
            NotImplementedError) as exc:
        yield InputProblem(path, None, f"cannot read the archive: {exc}")


def zip_names(path: str) -> Iterator[Item]:
    """A zip's records from its directory only (for counting; nothing decompressed); a tar's
    cannot be known without reading it."""
    import zipfile

    if not path.lower().endswith(".zip"):
        raise Uncountable(path)
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if not info.is_dir() and is_record_name(info.filename):
                    yield WorkItem(path, info.filename)
    except (OSError, zipfile.BadZipFile, ValueError):
        return


def _read_member(handle: IO[bytes], limit: int) -> bytes | None:
    """At most ``limit`` bytes; None when there is more (the header understated the size)."""
    data = handle.read(limit + 1)
    return None if len(data) > limit else data


def _zip_entries(archive: zipfile.ZipFile, path: str, budget: _Budget
                 ) -> Iterator[Item | zipfile.ZipInfo]:
    """A zip's members in name order: the record members to read (their ``ZipInfo``), the
    others as :class:`Skipped` or :class:`InputProblem` (unsafe names, sizes past the limits)."""

    for info in sorted(archive.infolist(), key=lambda i: i.filename):
        if info.is_dir():
            continue
        if not is_record_name(info.filename):
            yield Skipped(path, info.filename, NOT_A_RECORD)
            continue
        problem = budget.member_problem(info.filename, info.file_size, info.compress_size)
        if problem:
            yield InputProblem(path, info.filename, problem)
            continue
        yield info


def _member_errors() -> tuple[type[BaseException], ...]:
    """What reading a damaged or odd zip member raises."""
    import zipfile

    return (OSError, zipfile.BadZipFile, RuntimeError, zlib.error, EOFError,
            NotImplementedError, ValueError)


def _zip_entry_count(path: str) -> int | None:
    """How many entries a zip's directory declares (its end record), read before the directory
    itself is: a directory of millions of entries is refused before it fills memory."""
    import zipfile

    end_record = getattr(zipfile, "_EndRecData", None)
    if end_record is None:
        return None
    try:
        with open(path, "rb") as handle:
            found = end_record(handle)
    except (OSError, ValueError, IndexError, struct.error):
        return None
    return None if not found else int(found[4])  # _ECD_ENTRIES_TOTAL


def _too_many_entries(path: str, entries: int, limits: Limits) -> InputProblem:
    return InputProblem(path, None, f"the archive lists {entries} entries, more than the limit "
                        f"({limits.describe('members')}); no member was read")


def _zip_whole(archive: zipfile.ZipFile, path: str, budget: _Budget) -> InputProblem | None:
    """What makes a zip unsafe as a whole, from its directory, before any member is read:
    members that share their bytes (the directory lists one compressed stream several times,
    so that a small archive inflates many times over: overlapping entries), or members that
    together declare more than ``ratio`` times the archive's own size (``packed``), each of them
    small enough to pass the ratio alone; or more entries than the limit."""
    limits, packed = budget.limits, budget.packed
    if len(archive.infolist()) > limits.members:
        return _too_many_entries(path, len(archive.infolist()), limits)
    spans = sorted((info.header_offset, info.header_offset + max(1, info.compress_size),
                    info.filename) for info in archive.infolist() if not info.is_dir())
    for (_, end, name), (next_start, _, other) in zip(spans, spans[1:], strict=False):
        if next_start < end:
            return InputProblem(path, None, f"the members {name!r} and {other!r} overlap (the "
                                "directory lists the same bytes twice: a zip bomb's trick); "
                                "no member was read")
    declared = sum(info.file_size for info in archive.infolist()  # what would be read
                   if not info.is_dir() and is_record_name(info.filename) and budget.member_problem(
                       info.filename, info.file_size, info.compress_size) is None)
    if declared > BOMB_FLOOR and declared > limits.ratio * max(1, packed):
        return InputProblem(path, None, f"its members declare {declared} bytes together from "
                            f"an archive of {packed}: {declared // max(1, packed)} times, more "
                            f"than the limit ({limits.describe('ratio')}): a decompression "
                            "bomb?; no member was read")
    return None


def _zip(path: str, limits: Limits) -> Iterator[Item]:
    import zipfile

    budget = _Budget(path, limits)
    entries = _zip_entry_count(path)
    if entries is not None and entries > limits.members:  # before the directory is read
        yield _too_many_entries(path, entries, limits)
        return
    with zipfile.ZipFile(path) as archive:
        whole = _zip_whole(archive, path, budget)
        if whole is not None:
            yield whole
            return
        for info in _zip_entries(archive, path, budget):
            if not isinstance(info, zipfile.ZipInfo):
                yield info
                continue
            try:
                with archive.open(info) as handle:
                    data = _read_member(handle, limits.member_size)
            except _member_errors() as exc:
                yield InputProblem(path, info.filename, f"cannot read the member: {exc}")
                continue
            if data is None:
                yield InputProblem(path, info.filename, "larger than its header says and than "
                                   f"the limit ({limits.describe('member_size')}); not read")
                continue
            if not budget.spend(len(data)):
                yield budget.exhausted(path)
                return
            yield WorkItem(path, info.filename, data)


def tar_items(path: str, limits: Limits, handle: IO[bytes] | None = None,
         packed: int | None = None) -> Iterator[Item]:
    """A tar's records, read from ``path`` (or from ``handle``, a remote tar's stream)."""
    import tarfile

    budget = _Budget(path, limits, packed)
    with (tarfile.open(fileobj=handle, mode="r:*") if handle is not None
          else tarfile.open(path, "r:*")) as archive:
        for listed, info in enumerate(archive, 1):
            # Listed as read, never held: millions of entries cost no memory.
            archive.members = []  # type: ignore[attr-defined]
            if listed > limits.members:
                yield budget.too_many(path, info.name)
                return
            # Where the stream is, decompressed, once this member is passed: a compressed tar is
            # decompressed to reach the next header, so a bomb is stopped before it, not after.
            reach = info.offset_data + info.size
            if reach > limits.archive_size or (
                    reach > BOMB_FLOOR and reach > limits.ratio * budget.packed):
                yield InputProblem(path, info.name, "the archive expands past its limits "
                                   f"({limits.describe('archive_size')}, "
                                   f"{limits.describe('ratio')}: a decompression bomb?); this "
                                   "member and the rest were not read")
                return
            if not info.isfile():
                if is_record_name(info.name) and not info.isdir():
                    what = ("a link" if info.issym() or info.islnk() else "a FIFO"
                            if info.isfifo() else "a device" if info.isdev() else "not a file")
                    yield InputProblem(path, info.name, f"{what} inside the archive; not read")
                continue
            if not is_record_name(info.name):
                yield Skipped(path, info.name, NOT_A_RECORD)
                continue
            problem = budget.member_problem(info.name, info.size, None)
            if problem:
                yield InputProblem(path, info.name, problem)
                continue
            handle = archive.extractfile(info)
            if handle is None:
                yield InputProblem(path, info.name, "cannot read the member")
                continue
            data = _read_member(handle, limits.member_size)
            if data is None:
                yield InputProblem(path, info.name, "larger than the limit "
                                   f"({limits.describe('member_size')}); not read")
                continue
            budget.spend(len(data))
            yield WorkItem(path, info.name, data)
