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
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from sgfcheck.limits import DEFAULT_LIMITS, Limits
from sgfcheck.records.archives import archive_items, tar_items, zip_listed, zip_names
from sgfcheck.records.items import (
    NOT_A_RECORD,
    InputProblem,
    Item,
    Skipped,
    Uncountable,
    WorkItem,
    is_archive_name,
    is_record_name,
)

if TYPE_CHECKING:
    pass

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


def local_path(url: str) -> str | None:
    """The path a ``file://`` URL names (fsspec's local filesystem, no chain), or None: such a
    URL is read as that path, with the rules of paths (a folder's links that lead out of it are
    not followed, a FIFO or device in a folder is not read, a FIFO named is waited for at most
    ``read-wait`` seconds)."""
    if "::" in url:
        return None
    try:
        from fsspec.core import url_to_fs  # type: ignore[import-untyped]
        from fsspec.implementations.local import LocalFileSystem  # type: ignore[import-untyped]

        fs, path = url_to_fs(url)
    except Exception:  # noqa: BLE001 - not a URL fsspec reads locally
        return None
    return str(path) if isinstance(fs, LocalFileSystem) else None


def _not_a_file(arg: str) -> str | None:
    """Why the local file at the end of a chained URL (``zip://a.sgf::file:///x.zip``) is not
    opened (a FIFO would block the listing for good, a device never end), else None."""
    inner = local_path(arg.rsplit("::", 1)[1]) if "::" in arg else None
    if inner is None or not os.path.exists(inner) or os.path.isfile(inner):
        return None
    return None if os.path.isdir(inner) else f"{_kind(inner)}, not an archive; not read"


def _url(arg: str, limits: Limits, count_only: bool) -> Iterator[Item]:
    """Records named by a URL, listed here and read by the workers (:func:`sgfcheck.records.reading.
    read_url`): a file, a folder (recursive, sorted), a glob; a zip's members are listed from its
    directory (fetched alone where the filesystem reads ranges) and read by the workers one by
    one; a tar is a stream, read here."""
    try:
        from fsspec.core import url_to_fs
    except ImportError:
        yield InputProblem(arg, None, FSSPEC_MISSING)
        return
    refused = _not_a_file(arg)
    if refused is not None:
        yield InputProblem(arg, None, refused)
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
                        yield from zip_listed(url, handle, limits, fs.size(name))
                    elif count_only:
                        raise Uncountable(url)
                    else:
                        yield from tar_items(url, limits, handle, fs.size(name))
            except Uncountable:
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


def _expand(arg: str, explicit: bool, limits: Limits, count_only: bool = False,
            follow_links: bool = False) -> Iterator[Item]:
    import glob

    if is_url(arg):
        local = local_path(arg)
        if local is not None:  # file://: a path, under the rules of paths, named as a URL
            for item in _expand(local, explicit, limits, count_only, follow_links):
                yield replace(item, path=f"file://{item.path}")
        else:
            yield from _url(arg, limits, count_only)
        return
    if any(ch in arg for ch in "*?[") and not os.path.exists(arg):
        matches = sorted(glob.glob(arg, recursive=True))
        if not matches:
            yield InputProblem(arg, None, "no file matches this pattern")
        base = os.path.realpath(_fixed_part(arg))
        for match in matches:
            outside = None if follow_links else _outside(base, match)
            if outside is not None:  # a link out of the pattern's folder, as in a folder
                yield InputProblem(match, None, "a symbolic link that leads out of the folder "
                                   f"of the pattern (to {outside}); not followed "
                                   "(--follow-links follows it)")
                continue
            yield from _expand(match, False, limits, count_only, follow_links)
        return
    if os.path.isdir(arg):
        yield from _walk(arg, limits, count_only, follow_links)
    elif is_archive_name(arg) and os.path.isfile(arg):
        yield from (zip_names(arg) if count_only else archive_items(arg, limits))
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
                yield from (zip_names(entry.path) if count_only
                            else archive_items(entry.path, limits))
            elif is_record_name(entry.name):
                yield WorkItem(entry.path)
            else:
                yield Skipped(entry.path, None, NOT_A_RECORD)
        # Files of a folder first, then its subfolders in name order.
        stack.extend(reversed(subfolders))


def _fixed_part(pattern: str) -> str:
    """The folder a glob pattern starts from: its leading components without a wildcard
    (``games/2017/*/x*.sgf`` -> ``games/2017``; ``*.sgf`` -> ``.``)."""
    head: list[str] = []
    for part in pattern.split(os.sep):
        if any(ch in part for ch in "*?["):
            break
        head.append(part)
    return os.sep.join(head) or ("." if not pattern.startswith(os.sep) else os.sep)


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
    except Uncountable:
        return None
    return total


