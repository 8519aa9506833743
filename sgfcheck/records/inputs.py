"""Inputs for a batch: files, directories, globs, zip and tar archives, lists on stdin.

Everything is streamed in a deterministic order (directories walked with sorted entries, archive
members in archive order), so that a million-file archive is never listed in memory. Archives
are read in place, never extracted, within :class:`sgfcheck.limits.Limits`: a member is read to
at most ``member-size`` bytes whatever its header says, an archive to at most ``archive-size``
decompressed bytes, and a member (or a tar stream) that expands more than ``ratio`` times is not
decompressed at all (zip and tar bombs). Problems (symlink loops, unsafe member names, FIFOs and
devices, links and devices inside archives, bombs, unreadable archives) come out as
:class:`InputProblem` items, in order, instead of exceptions.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import struct
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import IO, TYPE_CHECKING

from sgfcheck.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    import zipfile

RECORD_SUFFIXES = (".sgf", ".gib", ".ngf", ".ugf", ".ugi")
"""Names of records read inside folders and archives: SGF, and the formats of
:mod:`sgfcheck.records.formats` (read as SGF)."""
BOMB_FLOOR = 1024 * 1024
"""The expansion ratio is judged only past this many bytes: small members of repeated text may
well compress 200 times, and cost nothing."""


@dataclass(frozen=True)
class WorkItem:
    """One file to check: on disk (``data`` None) or an archive member (``data`` holds it)."""

    path: str
    member: str | None = None
    data: bytes | None = None

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.path, self.member)


@dataclass(frozen=True)
class InputProblem:
    path: str
    member: str | None
    message: str

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.path, self.member)


@dataclass(frozen=True)
class Skipped:
    """A file met in a folder, a glob or an archive that is not a record by its name: named
    with the reason, never read."""

    path: str
    member: str | None
    reason: str

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.path, self.member)


NOT_A_RECORD = "not a record (.sgf, .gib, .ngf, .ugf, .ugi) nor an archive"

Item = WorkItem | InputProblem | Skipped


def is_record_name(name: str) -> bool:
    return name.lower().endswith(RECORD_SUFFIXES)


def is_archive_name(name: str) -> bool:
    low = name.lower()
    return low.endswith((".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz"))


def iter_inputs(args: Iterable[str], stdin_lines: Iterable[str] | None = None,
                limits: Limits = DEFAULT_LIMITS, follow_links: bool = False) -> Iterator[Item]:
    """Expand command-line inputs into work items, in order. A folder's symbolic links that
    lead out of it are not followed unless ``follow_links``."""
    for arg in args:
        if arg == "-":
            for line in stdin_lines or ():
                line = line.strip()
                if line:
                    yield from _expand(line, True, limits, follow_links=follow_links)
            continue
        yield from _expand(arg, True, limits, follow_links=follow_links)


_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
FSSPEC_MISSING = ("URLs are read through fsspec, which is not installed: pip install "
                  "'sgfcheck[distributed]' (and the package of the filesystem: s3fs, gcsfs...)")


def is_url(name: str) -> bool:
    """``s3://...``, ``https://...``, ``memory://...``, ``zip://member::s3://...``: read through
    fsspec (a local path that happens to look like one is a path)."""
    return bool(_URL_RE.match(name)) and not os.path.exists(name)


def _url(arg: str, limits: Limits, count_only: bool) -> Iterator[Item]:
    """Records named by a URL, listed here and read by the workers (:func:`sgfcheck.records.reading.
    read_url`): a file, a folder (recursive, sorted), a glob; a zip's members are listed from its
    directory (fetched alone where the filesystem reads ranges) and read by the workers one by
    one; a tar is a stream, read here."""
    try:
        from fsspec.core import url_to_fs  # type: ignore[import-untyped]
    except ImportError:
        yield InputProblem(arg, None, FSSPEC_MISSING)
        return
    try:
        fs, path = url_to_fs(arg)
        if any(ch in path for ch in "*?["):
            found = sorted(fs.glob(path))
            if not found:
                yield InputProblem(arg, None, "no file matches this pattern")
            names = [(p, False) for p in found if not fs.isdir(p)]
        elif fs.isdir(path):
            names = [(p, False) for p in sorted(fs.find(path), key=_walk_order)]
        elif fs.exists(path):
            names = [(path, True)]
        else:
            yield InputProblem(arg, None, "no such file or directory")
            return
    except ImportError as exc:  # the filesystem's own package (s3fs, gcsfs, aiohttp...)
        yield InputProblem(arg, None, f"{FSSPEC_MISSING} ({exc})")
        return
    except Exception as exc:  # noqa: BLE001 - any filesystem's errors: a row, not a crash
        yield InputProblem(arg, None, f"cannot list: {type(exc).__name__}: {exc}")
        return
    chain = arg.split("::", 1)[1] if "::" in arg else None  # zip://a.sgf::s3://bucket/g.zip
    for name, explicit in names:
        url = fs.unstrip_protocol(name)
        if explicit:
            url = arg
        elif chain is not None:
            url = f"{url}::{chain}"
        if is_archive_name(name):
            try:
                with fs.open(name, "rb") as handle:
                    if name.lower().endswith(".zip"):
                        yield from _zip_listed(url, handle, limits, fs.size(name))
                    elif count_only:
                        raise _Uncountable(url)
                    else:
                        yield from _tar(url, limits, handle, fs.size(name))
            except _Uncountable:
                raise
            except Exception as exc:  # noqa: BLE001 - any filesystem's or archive's errors
                yield InputProblem(url, None, f"cannot read the archive: {exc}")
        elif explicit or is_record_name(name):
            yield WorkItem(url)
        else:
            yield Skipped(url, None, NOT_A_RECORD)


def _walk_order(path: str) -> tuple[tuple[int, str], ...]:
    """The order of :func:`_walk` for a listed path: in each folder its files by name, then its
    subfolders by name."""
    parts = path.split("/")
    return tuple((1, part) for part in parts[:-1]) + ((0, parts[-1]),)


def _zip_listed(url: str, handle: IO[bytes], limits: Limits, packed: int) -> Iterator[Item]:
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
    """One member of a zip (a worker reading what :func:`_zip_listed` listed): its bytes, or
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


def _expand(arg: str, explicit: bool, limits: Limits, count_only: bool = False,
            follow_links: bool = False) -> Iterator[Item]:
    import glob

    if is_url(arg):
        yield from _url(arg, limits, count_only)
        return
    if any(ch in arg for ch in "*?[") and not os.path.exists(arg):
        matches = sorted(glob.glob(arg, recursive=True))
        if not matches:
            yield InputProblem(arg, None, "no file matches this pattern")
        for match in matches:
            yield from _expand(match, False, limits, count_only, follow_links)
        return
    if os.path.isdir(arg):
        yield from _walk(arg, limits, count_only, follow_links)
    elif is_archive_name(arg) and os.path.isfile(arg):
        yield from (_zip_names(arg) if count_only else _archive(arg, limits))
    elif os.path.isfile(arg) or (explicit and os.path.exists(arg)):
        # Named on the command line: a FIFO is read (with a bounded wait), a device refused,
        # when the file is read (sgfcheck.records.reading).
        if explicit or is_record_name(arg):
            yield WorkItem(arg)
        else:
            yield Skipped(arg, None, NOT_A_RECORD)
    elif os.path.exists(arg):
        if is_record_name(arg):
            yield InputProblem(arg, None, f"{_kind(arg)}, not a record file; not read")
    elif os.path.islink(arg):
        yield InputProblem(arg, None, _dangling(arg))
    else:
        yield InputProblem(arg, None, "no such file or directory")


def _dangling(path: str) -> str:
    """Why a symbolic link leads to no file: a loop of links, or nothing at its end."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop"
    return "broken symbolic link"


def _kind(path: str) -> str:
    """What a path that is not a regular file or a folder is."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "unreadable"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def _walk(top: str, limits: Limits, count_only: bool = False, follow_links: bool = False
          ) -> Iterator[Item]:
    """Depth-first, entries sorted. A symbolic link that leads inside the folder given is read
    once (a folder is never walked twice, nor around a loop; a file reached again is not read
    again); one that leads out of it is an input problem, not followed, unless
    ``follow_links``: a folder of strangers' files never reads what lies beside it."""
    seen: set[tuple[int, int]] = set()
    files: set[tuple[int, int]] = set()
    root = os.path.realpath(top)
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            st = os.stat(folder)
        except OSError as exc:
            yield InputProblem(folder, None, f"cannot read the folder: {exc.strerror}")
            continue
        ident = (st.st_dev, st.st_ino)
        if ident in seen:
            target = os.path.realpath(folder)
            parent = os.path.realpath(os.path.dirname(folder))
            if os.path.commonpath([target, parent]) == target:  # leads back up: a loop
                yield InputProblem(folder, None, "symbolic link loop: this folder was already "
                                                 "walked; skipped")
            continue  # else reached again by another path (a link inside): read once
        seen.add(ident)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            yield InputProblem(folder, None, f"cannot list the folder: {exc.strerror}")
            continue
        subfolders = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if entry.is_symlink() and os.path.exists(entry.path):
                outside = _outside(root, entry.path)
                if outside is not None and not follow_links:
                    if is_dir or is_record_name(entry.name) or is_archive_name(entry.name):
                        yield InputProblem(entry.path, None, "a symbolic link that leads out of "
                                           f"the folder given (to {outside}); not followed "
                                           "(--follow-links follows it)")
                    continue
            if not is_dir and _is_file(entry):
                # A file's inode from the listing (no system call), on its folder's device; a
                # link's target is asked of the file system.
                identity = (_identity(entry.path) if entry.is_symlink()
                            else (st.st_dev, entry.inode()))
                if identity in files:
                    continue  # the same file reached again (a link inside): read once
                files.add(identity)
            if is_dir:
                subfolders.append(entry.path)
            elif entry.is_symlink() and not os.path.exists(entry.path):
                if is_record_name(entry.name):
                    yield InputProblem(entry.path, None, _dangling(entry.path))
            elif not _is_file(entry):
                if is_record_name(entry.name) or is_archive_name(entry.name):
                    yield InputProblem(entry.path, None,
                                       f"{_kind(entry.path)}, not a record file; not read")
            elif is_archive_name(entry.name):
                yield from (_zip_names(entry.path) if count_only else _archive(entry.path, limits))
            elif is_record_name(entry.name):
                yield WorkItem(entry.path)
            else:
                yield Skipped(entry.path, None, NOT_A_RECORD)
        # Files of a folder first, then its subfolders in name order.
        stack.extend(reversed(subfolders))


def _outside(root: str, path: str) -> str | None:
    """Where a link leads when that is outside the folder ``root`` (its real path), or None."""
    target = os.path.realpath(path)
    try:
        inside = os.path.commonpath([root, target]) == root
    except ValueError:  # another drive
        inside = False
    return None if inside else target


def _identity(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_dev, st.st_ino)


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


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


def _archive(path: str, limits: Limits) -> Iterator[Item]:
    import tarfile
    import zipfile

    try:
        if path.lower().endswith(".zip"):
            yield from _zip(path, limits)
        else:
            yield from _tar(path, limits)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error, ValueError,
            NotImplementedError) as exc:
        yield InputProblem(path, None, f"cannot read the archive: {exc}")


def _zip_names(path: str) -> Iterator[Item]:
    """A zip's records from its directory only (for counting; nothing decompressed); a tar's
    cannot be known without reading it."""
    import zipfile

    if not path.lower().endswith(".zip"):
        raise _Uncountable(path)
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


def _tar(path: str, limits: Limits, handle: IO[bytes] | None = None,
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


def count_records(args: Iterable[str]) -> int | None:
    """How many records the inputs hold, for a progress bar's total, where that is cheap to know
    (folders, globs, files, zip directories); None when it is not (a tar stream is read to the
    end to be listed, ``-`` is read once)."""
    total = 0
    try:
        for arg in args:
            if arg == "-":
                return None
            for item in _expand(arg, True, DEFAULT_LIMITS, count_only=True):
                if isinstance(item, WorkItem):
                    total += 1
    except _Uncountable:
        return None
    return total


class _Uncountable(Exception):
    """A tar met while counting: its members are known only by reading it."""
