"""A record's bytes from a path or a stream, within limits, never blocking.

A regular file is read up to :attr:`Limits.file_size` (one byte more tells that it is larger).
A pipe or FIFO (``sgfcheck check <(curl ...)``, standard input) is read the same way, but the wait
for its data is bounded by :attr:`Limits.read_wait`: opening a FIFO nobody writes to, or a pipe
that never ends, costs at most that long. Devices (``/dev/zero``, ``/dev/urandom``, a terminal)
and sockets are refused, whatever link leads to them. The file is opened read-only and never
changed. Problems are findings, not exceptions.
"""

from __future__ import annotations

import os
import select
import stat
import time
from dataclasses import dataclass, field
from typing import IO

from sgfcheck import findings as F
from sgfcheck.findings import Finding
from sgfcheck.limits import DEFAULT_LIMITS, Limits, format_bytes

_CHUNK = 1 << 20
_SMALLEST = 1 << 13
"""The least a read of a regular file asks for (its size may be 0, as a file of /proc says)."""


@dataclass
class ReadBytes:
    """What was read: ``data`` (None when nothing usable was) and the problems."""

    data: bytes | None
    findings: list[Finding] = field(default_factory=list)


def _too_large(limits: Limits, what: str) -> Finding:
    return Finding(F.SGF_LIMIT, f"{what} is larger than {format_bytes(limits.file_size)} bytes; "
                   f"not read (raise it with --limit file-size=...)",
                   extra={"limit": limits.describe("file_size")})


def read_path(path: str, limits: Limits = DEFAULT_LIMITS, *,
              regular_only: bool = False) -> ReadBytes:
    """The bytes of the file at ``path``. ``regular_only``: refuse pipes and FIFOs too (files
    found inside folders, where only records are expected)."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting forever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        return ReadBytes(None, [Finding(F.SGF_UNREADABLE,
                                        f"cannot read the file: {exc.strerror}")])
    try:
        info = os.fstat(fd)
        mode = info.st_mode
        if stat.S_ISDIR(mode):
            return ReadBytes(None, [Finding(F.SGF_UNREADABLE, "a folder, not a file")])
        if stat.S_ISREG(mode):
            os.set_blocking(fd, True)
            return _read_regular(fd, limits, info.st_size)
        if stat.S_ISFIFO(mode) and not regular_only:
            return read_stream(fd, limits, "the FIFO", wait_for_writer=True)
        kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode)
                or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file")
        return ReadBytes(None, [Finding(F.SGF_UNREADABLE, f"{kind}, not a record file; not read")])
    except OSError as exc:
        return ReadBytes(None, [Finding(F.SGF_UNREADABLE, f"cannot read the file: {exc.strerror}")])
    finally:
        os.close(fd)


def _read_regular(fd: int, limits: Limits, expected: int) -> ReadBytes:
    """A regular file's bytes, read to its end whatever its size said (``expected``, the size
    when it was opened: each read asks for about that much, not a whole chunk, which made a
    megabyte's buffer for every small record)."""
    parts = []
    size = 0
    chunk = min(_CHUNK, max(expected + 1, _SMALLEST))
    while size <= limits.file_size:
        part = os.read(fd, min(chunk, limits.file_size + 1 - size))
        if not part:
            break
        parts.append(part)
        size += len(part)
    if size > limits.file_size:
        return ReadBytes(None, [_too_large(limits, "the file")])
    return ReadBytes(b"".join(parts))


def read_stream(fd: int, limits: Limits = DEFAULT_LIMITS, what: str = "standard input", *,
                wait_for_writer: bool = False) -> ReadBytes:
    """Everything from a pipe, FIFO or standard input until it ends, up to the size limit,
    waiting at most ``read_wait`` seconds for each piece of data. ``wait_for_writer``: a FIFO
    opened by name ends at once while nobody has opened it for writing; wait for a writer (up to
    ``read_wait``) instead of taking that for the end. Reads only what ``select`` says is there,
    so the descriptor's own blocking mode is left alone."""
    parts = []
    size = 0
    writer_seen = False
    deadline = time.monotonic() + limits.read_wait
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return ReadBytes(None, [Finding(F.SGF_LIMIT, f"{what} gave no data for "
                                            f"{limits.read_wait:g} s; not read (raise it with "
                                            "--limit read-wait=...)",
                                            extra={"limit": limits.describe("read_wait")})])
        ready, _, _ = select.select([fd], [], [], min(left, 0.2))
        if not ready:
            continue
        try:
            part = os.read(fd, min(_CHUNK, limits.file_size + 1 - size))
        except BlockingIOError:
            continue
        if not part:
            if writer_seen or not wait_for_writer:
                break
            time.sleep(0.05)
            continue
        writer_seen = True
        deadline = time.monotonic() + limits.read_wait
        parts.append(part)
        size += len(part)
        if size > limits.file_size:
            return ReadBytes(None, [_too_large(limits, what)])
    return ReadBytes(b"".join(parts))


def read_url(url: str, member: str | None = None, limits: Limits = DEFAULT_LIMITS) -> ReadBytes:
    """A record named by a URL (``s3://``, ``gs://``, ``https://``, ``memory://``, chained
    ``zip://a.sgf::s3://...``) through fsspec, up to the size limit; ``member``: a member of the
    zip at ``url`` (listed by :func:`sgfcheck.records.inputs.iter_inputs`). Problems are
    findings."""
    from sgfcheck.records.archives import read_zip_member
    from sgfcheck.records.inputs import FSSPEC_MISSING, local_path

    try:
        import fsspec  # type: ignore[import-untyped]
    except ImportError:
        return ReadBytes(None, [Finding(F.SGF_UNREADABLE, FSSPEC_MISSING)])
    if member is None and "::" not in url:
        local = local_path(url)
        if local is not None:  # a FIFO waits no longer than a path to it would
            return read_path(local, limits)
    try:
        with fsspec.open(url, "rb") as handle:
            if member is not None:
                data, why = read_zip_member(handle, member, limits)
                if data is None:
                    return ReadBytes(None, [Finding(F.SGF_INPUT, why)])
                return ReadBytes(data)
            data = handle.read(limits.file_size + 1)
    except Exception as exc:  # noqa: BLE001 - any filesystem's errors are a finding
        return ReadBytes(None, [Finding(F.SGF_UNREADABLE, f"cannot read {url}: "
                                        f"{type(exc).__name__}: {exc}")])
    if len(data) > limits.file_size:
        return ReadBytes(None, [_too_large(limits, "the file")])
    return ReadBytes(data)


def read_standard_input(stream: IO[bytes], limits: Limits = DEFAULT_LIMITS) -> ReadBytes:
    """A record from standard input: through its descriptor (:func:`read_stream`, with the
    bounded wait) when it has one, else from the stream itself (an in-memory stream in tests or
    library use), up to the size limit either way."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        data = stream.read(limits.file_size + 1)
        if len(data) > limits.file_size:
            return ReadBytes(None, [_too_large(limits, "standard input")])
        return ReadBytes(data)
    return read_stream(fd, limits)
