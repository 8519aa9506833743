"""Inputs for a batch: files, directories, globs, zip and tar archives, lists on stdin.

Everything is streamed in a deterministic order (directories walked with sorted entries, archive
members in archive order), so that a million-file archive is never listed in memory. Archives
are read in place, never extracted. Problems (symlink loops, unsafe member names, unreadable
archives) come out as :class:`InputProblem` items, in order, instead of exceptions.
"""

from __future__ import annotations

import glob
import os
import tarfile
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

SGF_SUFFIXES = (".sgf",)
MAX_MEMBER_BYTES = 64 * 1024 * 1024
"""Archive members larger than this are reported, not read."""


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


Item = WorkItem | InputProblem


def is_sgf_name(name: str) -> bool:
    return name.lower().endswith(SGF_SUFFIXES)


def is_archive_name(name: str) -> bool:
    low = name.lower()
    return low.endswith((".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz"))


def iter_inputs(args: Iterable[str], stdin_lines: Iterable[str] | None = None) -> Iterator[Item]:
    """Expand command-line inputs into work items, in order."""
    for arg in args:
        if arg == "-":
            for line in stdin_lines or ():
                line = line.strip()
                if line:
                    yield from _expand(line, explicit=True)
            continue
        yield from _expand(arg, explicit=True)


def _expand(arg: str, explicit: bool) -> Iterator[Item]:
    if any(ch in arg for ch in "*?[") and not os.path.exists(arg):
        matches = sorted(glob.glob(arg, recursive=True))
        if not matches:
            yield InputProblem(arg, None, "no file matches this pattern")
        for match in matches:
            yield from _expand(match, explicit=False)
        return
    if os.path.isdir(arg):
        yield from _walk(arg)
    elif is_archive_name(arg):
        yield from _archive(arg)
    elif os.path.isfile(arg):
        if explicit or is_sgf_name(arg):
            yield WorkItem(arg)
    elif os.path.islink(arg):
        yield InputProblem(arg, None, "broken symbolic link")
    else:
        yield InputProblem(arg, None, "no such file or directory")


def _walk(top: str) -> Iterator[Item]:
    """Depth-first, entries sorted, following symbolic links but never around a loop."""
    seen: set[tuple[int, int]] = set()
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
            yield InputProblem(folder, None, "symbolic link loop: this folder was already "
                                             "walked; skipped")
            continue
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
            if is_dir:
                subfolders.append(entry.path)
            elif entry.is_symlink() and not os.path.exists(entry.path):
                if is_sgf_name(entry.name):
                    yield InputProblem(entry.path, None, "broken symbolic link")
            elif is_archive_name(entry.name):
                yield from _archive(entry.path)
            elif is_sgf_name(entry.name):
                yield WorkItem(entry.path)
        # Files of a folder first, then its subfolders in name order.
        stack.extend(reversed(subfolders))


def _unsafe(name: str) -> str | None:
    pure = PurePosixPath(name.replace("\\", "/"))
    if pure.is_absolute() or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "absolute path inside the archive"
    if ".." in pure.parts:
        return "'..' in a path inside the archive"
    return None


def _member_problem(name: str, size: int) -> str | None:
    unsafe = _unsafe(name)
    if unsafe:
        return unsafe + "; not read"
    if size > MAX_MEMBER_BYTES:
        return f"{size} bytes: too large; not read"
    return None


def _archive(path: str) -> Iterator[Item]:
    try:
        if path.lower().endswith(".zip"):
            yield from _zip(path)
        else:
            yield from _tar(path)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError) as exc:
        yield InputProblem(path, None, f"cannot read the archive: {exc}")


def _zip(path: str) -> Iterator[Item]:
    with zipfile.ZipFile(path) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if info.is_dir() or not is_sgf_name(info.filename):
                continue
            problem = _member_problem(info.filename, info.file_size)
            if problem:
                yield InputProblem(path, info.filename, problem)
                continue
            try:
                yield WorkItem(path, info.filename, archive.read(info))
            except (OSError, zipfile.BadZipFile, RuntimeError) as exc:
                yield InputProblem(path, info.filename, f"cannot read the member: {exc}")


def _tar(path: str) -> Iterator[Item]:
    with tarfile.open(path, "r:*") as archive:
        for info in archive:
            if not info.isfile() or not is_sgf_name(info.name):
                if (info.issym() or info.islnk()) and is_sgf_name(info.name):
                    yield InputProblem(path, info.name, "link inside the archive; not followed")
                continue
            problem = _member_problem(info.name, info.size)
            if problem:
                yield InputProblem(path, info.name, problem)
                continue
            handle = archive.extractfile(info)
            if handle is None:
                yield InputProblem(path, info.name, "cannot read the member")
                continue
            yield WorkItem(path, info.name, handle.read())
