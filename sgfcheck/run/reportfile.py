"""The batch report file: rows written as they arrive, JSON Lines or CSV, and read back for
``--resume``.

Workers render their rows (:class:`ReportKind`) so the main process only writes them; each file's
rows are flushed together, so an interrupted run leaves a report whose every complete line is a
finished file. :func:`read_done` tells which files an earlier report holds; a line cut by the
interruption is not counted, and :func:`drop_partial_line` removes it before the report is
continued.
"""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path
from typing import IO, Protocol

from sgfcheck.escaping import csv_cell, name_text
from sgfcheck.output.schema import BATCH_CSV_COLUMNS, csv_line, jsonl_line
from sgfcheck.status import StrEnum


class ReportKind(StrEnum):
    """How rows are rendered for the report."""

    JSONL = "jsonl"
    """A JSON text line per game."""
    CSV = "csv"
    """A list of CSV cells per game."""
    DICT = "dict"
    """The JSON object itself (library use)."""
    PARQUET = "parquet"
    """The JSON object, written as typed Parquet columns by the main process
    (:mod:`sgfcheck.run.parquet`)."""
    NONE = "none"
    """No report: rows are not made."""

    @classmethod
    def for_path(cls, path: Path | None) -> ReportKind:
        if path is None:
            return cls.NONE
        suffix = path.suffix.lower()
        return cls.CSV if suffix == ".csv" else cls.PARQUET if suffix == ".parquet" else cls.JSONL


Row = str | list[object] | dict[str, object]
"""A rendered row: the text of a JSON line or a CSV record, CSV cells, or a JSON object."""


FLUSH_SECONDS = 0.5
"""Rows reach the file at least this often (and at the end): an interrupted run loses at most
the rows of the last half second, which ``--resume`` checks again (a line cut in the middle is
not a row). Flushing every file cost the main process a system call per file."""


class ReportSink(Protocol):
    """Where the main process puts each file's rows (:class:`ReportWriter`,
    :class:`sgfcheck.run.parquet.ParquetReport`)."""

    state: IO[str] | None

    def write(self, rows: list[Row], state_line: str | None = None) -> None: ...

    def flush(self) -> None: ...


class ReportWriter:
    """JSON Lines or CSV, one row per game, flushed every :data:`FLUSH_SECONDS`; with ``state``,
    each file's line of the run state (:mod:`sgfcheck.run.ledger`) is written there once its
    rows have been flushed to the report."""

    def __init__(self, stream: IO[str], kind: ReportKind | str, write_header: bool,
                 state: IO[str] | None = None) -> None:
        self.stream = stream
        self.state = state
        self._pending: list[str] = []
        self._flushed = time.monotonic()
        self.kind = ReportKind(kind)
        self.csv = csv.writer(stream) if self.kind is ReportKind.CSV else None
        if self.csv is not None and write_header:
            self.csv.writerow(BATCH_CSV_COLUMNS)

    def write(self, rows: list[Row], state_line: str | None = None) -> None:
        """Rows as rendered for this kind (the text of JSON lines or CSV records, as the workers
        make them; JSON objects or CSV cells are rendered here), and the file's state."""
        if self.csv is None:
            self.stream.write("".join(r if isinstance(r, str) else jsonl_line(r) for r in rows))
        else:
            self.stream.write("".join(r if isinstance(r, str) else csv_line(r) for r in rows
                                      if not isinstance(r, dict)))
        if state_line is not None and self.state is not None:
            self._pending.append(state_line)
        if time.monotonic() - self._flushed >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        """The report first, then the state of the files whose rows it now holds."""
        self.stream.flush()
        if self.state is not None and self._pending:
            self.state.write("".join(self._pending))
            self._pending = []
            self.state.flush()
        self._flushed = time.monotonic()


def _complete(raw: bytes) -> bytes:
    """The bytes up to the last line end (a line cut by an interruption is not a row)."""
    return raw if not raw or raw.endswith(b"\n") else raw[: raw.rfind(b"\n") + 1]


def written_key(kind: ReportKind, key: tuple[str, str | None]) -> tuple[str, str | None]:
    """A file's key (path, member) as the report holds it: a CSV report neutralises and escapes
    its cells (:func:`sgfcheck.output.schema.csv_row`), JSON Lines give the key back as it was,
    but for the bytes of a name that is not UTF-8, escaped (:func:`name_text`)."""
    path, member = key
    if kind != ReportKind.CSV:
        return name_text(path), (name_text(member) if member is not None else None)
    return str(csv_cell(path)), (str(csv_cell(member)) if member else None)


def read_done(path: Path) -> set[tuple[str, str | None]]:
    """Keys (path, member) of the files an earlier report holds, as written there (see
    :func:`written_key`); a cut last line is left out. Reads only; raises OSError or ValueError
    for a file that is not such a report."""
    done: set[tuple[str, str | None]] = set()
    if not path.exists():
        return done
    text = _complete(path.read_bytes()).decode("utf-8")
    if path.suffix.lower() == ".csv":
        for row in list(csv.reader(io.StringIO(text)))[1:]:
            if row:
                done.add((row[0], row[1] or None))
        return done
    for line in text.split("\n"):
        if line.strip():
            obj = json.loads(line)
            done.add((obj["path"], obj.get("member")))
    return done


def drop_partial_line(path: Path) -> None:
    """Cut a report back to its last complete line, before appending to it (``--resume``)."""
    if not path.exists():
        return
    size = path.stat().st_size
    keep = len(_complete(path.read_bytes()))
    if keep != size:
        with open(path, "r+b") as fh:
            fh.truncate(keep)
