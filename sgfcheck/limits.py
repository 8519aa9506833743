"""Limits on the work one input may cause: sizes, counts, memory, waiting.

sgfcheck is pointed at files nobody vouches for, and run by servers on uploads. Every limit here
bounds time or memory by the size of the input, with a default far above any real record (of
16,000 real records measured, the largest is 82 KB and the most nodes in one 3,430) and
safe within 2 GiB per process (sgfmill's parse costs about 60 bytes a node and 110 a value).
A limit hit is a finding on that file (``SGF035``), never a crash; the command line sets them
with ``--limit NAME=VALUE`` (repeatable), e.g.
``--limit file-size=256M --limit nodes=5000000``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


@dataclass(frozen=True)
class Limits:
    """Every limit, in bytes, counts, megabytes or seconds (see :data:`LIMIT_HELP`)."""

    file_size: int = 64 * 1024**2
    """Bytes of one file (or standard input, or a pipe) read at most."""
    member_size: int = 64 * 1024**2
    """Bytes of one archive member, decompressed, read at most."""
    archive_size: int = 4 * 1024**3
    """Decompressed bytes read from one archive at most (its members together)."""
    ratio: int = 200
    """Decompressed / compressed size of an archive member at most (zip bombs: 1,000+)."""
    members: int = 1_000_000
    """Members of one archive (files, folders, links: every entry) listed at most; the rest of
    the archive is a finding. A tar is listed as it is read, a zip from its directory."""
    nodes: int = 2_000_000
    """Nodes of one file (all its games and variations) at most."""
    values: int = 5_000_000
    """Property values of one file at most."""
    findings: int = 10_000
    """Findings of one line of play written at most (a record of millions of illegal moves);
    the rest are counted by rule in one finding."""
    games: int = 10_000
    """Games of one file checked at most; the rest is a finding."""
    judged: int = 1_000
    """Games of one file whose position is judged and counted at most (``score``, ``life``:
    the dead stones cost milliseconds a game, so 20,000 games would take minutes); the rest is
    a finding."""
    solver: int = 20_000
    """Units of work the solver of a game's last open points spends at most on one way of
    counting (a position of a region worked out, a position of the search over their sum: the
    same on any machine); beyond it the count's band stands, said so. 0 turns the solver
    off."""
    solver_time: float = 20.0
    """Seconds one way of counting's solver may take at most, a safety only (the budget of work
    decides on a quiet machine; in ``batch`` every solver of a file also ends within three
    quarters of its ``--timeout``)."""
    engine_game: float = 60.0
    """Seconds the engines (KataGo, GNU Go) may take over one game's position at most, a safety
    only: their effort is fixed in work (KataGo one network evaluation with each side to move,
    about 1 s on two CPU cores, a few on a busy machine), so that a record gets the same verdict
    on any machine and load; its start, 2-5 s once a process, is the file's to pay."""
    engine_file: float = 120.0
    """Seconds the engines may take over one file's games together at most, a safety only (in
    ``batch`` added to the file's ``--timeout``); past it a game keeps the estimate's decisions,
    said so (``LIF003``)."""
    memory: int = 2048
    """Megabytes of address space per ``batch`` worker (a file that needs more is a finding)."""
    read_wait: float = 10.0
    """Seconds to wait for data from a pipe or FIFO before giving up on it."""

    def with_specs(self, specs: list[str] | tuple[str, ...]) -> Limits:
        """These limits changed by ``NAME=VALUE`` specs (``file-size=256M``); raises ValueError
        with a sentence for a bad one."""
        changed: dict[str, Any] = dict(parse_spec(spec) for spec in specs)
        return replace(self, **changed)

    def names(self) -> list[str]:
        """Every limit's field name (``file_size``...)."""
        return [f.name for f in fields(self)]

    def describe(self, name: str) -> str:
        """``file-size=64M``: a limit as it is set with ``--limit``."""
        value = getattr(self, name)
        if name in _BYTE_LIMITS:
            return f"{_cli(name)}={format_bytes(value)}"
        return f"{_cli(name)}={value:g}" if isinstance(value, float) else f"{_cli(name)}={value}"


LIMIT_HELP = {
    "file-size": "bytes of one file, standard input or pipe (suffix K, M, G)",
    "member-size": "bytes of one archive member, decompressed",
    "archive-size": "decompressed bytes of one archive, all members together",
    "ratio": "decompressed / compressed size of one archive member",
    "members": "entries of one archive listed (files, folders, links)",
    "nodes": "nodes of one file",
    "values": "property values of one file",
    "findings": "findings of one line of play written (the rest counted by rule)",
    "games": "games of one file checked",
    "judged": "games of one file judged and counted (score, life)",
    "solver": "units of work the solver of a game's last open points spends at most (0: off)",
    "solver-time": "seconds the solver may take over one way of counting, a safety",
    "engine-game": "seconds the engines (KataGo, GNU Go) may take over one game's position",
    "engine-file": "seconds the engines may take over one file's games together",
    "memory": "megabytes of address space a batch worker may add to what it holds at start",
    "read-wait": "seconds to wait for data from a pipe or FIFO",
}
"""``--limit`` names and what they bound."""

MOST_MEMORY = 2**32
"""``--limit memory`` in megabytes at most (4 PiB): the bytes of any address space plus it stay
within the signed 64 bits ``setrlimit`` takes."""
_BYTE_LIMITS = frozenset({"file_size", "member_size", "archive_size"})
_SECOND_LIMITS = frozenset({"read_wait", "engine_game", "engine_file", "solver_time"})
_FIELDS = {f.name for f in fields(Limits)}
_VALUE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmg]?)i?b?\s*$", re.I)


def _cli(name: str) -> str:
    return name.replace("_", "-")


def format_bytes(n: int) -> str:
    """``64M`` for 64 MiB; exact multiples only, else the number of bytes."""
    for suffix, unit in (("G", 1024**3), ("M", 1024**2), ("K", 1024)):
        if n >= unit and n % unit == 0:
            return f"{n // unit}{suffix}"
    return str(n)


def parse_spec(spec: str) -> tuple[str, int | float]:
    """``file-size=256M`` -> (``file_size``, 268435456). Raises ValueError with a sentence."""
    name, sep, raw = spec.partition("=")
    key = name.strip().lower().replace("-", "_")
    if not sep or key not in _FIELDS:
        raise ValueError(f"--limit {spec!r}: expected NAME=VALUE with NAME one of "
                         f"{', '.join(LIMIT_HELP)}")
    m = _VALUE_RE.match(raw)
    if m is None:
        raise ValueError(f"--limit {spec!r}: {raw!r} is not a positive number")
    number, unit = m.group(1), m.group(2).lower()
    if key in _SECOND_LIMITS:
        if unit:
            raise ValueError(f"--limit {spec!r}: {_cli(key)} is in seconds")
        seconds = float(number)
        if not 0 < seconds <= 86400:
            raise ValueError(f"--limit {spec!r}: {_cli(key)} must be from 0 to 86400 seconds")
        return key, seconds
    if unit and key not in _BYTE_LIMITS:
        raise ValueError(f"--limit {spec!r}: only sizes take K, M or G")
    value = int(float(number) * _UNITS[unit])
    if key == "solver" and value == 0:
        return key, 0  # the solver off
    if key == "memory" and not 1 <= value <= MOST_MEMORY:
        # setrlimit takes bytes in a signed 64-bit number: more would overflow in the worker.
        raise ValueError(f"--limit {spec!r}: memory is in megabytes, from 1 to {MOST_MEMORY}")
    if value < 1 or value > 2**50:
        raise ValueError(f"--limit {spec!r}: must be from 1 to 2^50")
    return key, value


DEFAULT_LIMITS = Limits()


def address_space() -> int:
    """This process's address space in bytes (0 where the platform does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def cap_memory(megabytes: int) -> bool:
    """Limit this process's address space to what it holds now plus ``megabytes`` (the soft
    limit only, so that a child may lift it again: :func:`lift_memory_cap`). A worker forked
    from a process that mapped much (a library user's: pyarrow, a Dask client, a test run's
    thread pools) holds that address space without using it; a cap below it would leave no room
    to grow even the stack (a crash, not a ``MemoryError``). False where the platform cannot (no
    ``resource``)."""
    try:
        import resource  # not on Windows
    except ImportError:
        return False
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = address_space() + min(megabytes, MOST_MEMORY) * 1024 * 1024
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ValueError, OverflowError, OSError):
        return False  # beyond what the system takes: no cap rather than a worker that dies
    return True


def engine_preexec() -> Callable[[], None] | None:
    """``preexec_fn`` for an engine's process (GNU Go, KataGo): :func:`lift_memory_cap` on POSIX,
    nothing elsewhere."""
    return lift_memory_cap if os.name == "posix" else None


def lift_memory_cap() -> None:
    """In an engine started by a capped batch worker: its own memory is its own to manage
    (KataGo's OpenCL driver maps gigabytes of address space it never touches)."""
    try:
        import resource
    except ImportError:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
