"""What the inputs of a run are made of: a record to read (:class:`WorkItem`), an input that
cannot be used (:class:`InputProblem`), a file that is not a record (:class:`Skipped`)."""

from __future__ import annotations

from dataclasses import dataclass

RECORD_SUFFIXES = (".sgf", ".gib", ".ngf", ".ugf", ".ugi")
"""Names of records read inside folders and archives: SGF, and the formats of
:mod:`sgfcheck.records.formats` (read as SGF)."""
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


class Uncountable(Exception):
    """A tar met while counting: its members are known only by reading it."""
