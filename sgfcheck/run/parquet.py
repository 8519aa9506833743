"""The batch report as Parquet (``batch --out report.parquet``; pyarrow, the ``parquet`` extra).

One row a game (or a file without a game), typed columns a query engine reads directly (DuckDB,
pandas, Polars): the game's identity, rules, komi and its source, handicap, the recorded result,
the verdict, the result check, each ruleset's count, the dead stones' source, the first illegal
move, the findings counted by severity and listed as structs. Rows are written in row groups as
the run goes (:data:`ROW_GROUP` rows, or every :data:`~sgfcheck.run.reportfile.FLUSH_SECONDS`),
so memory stays flat; each file's line of the run state is written once its rows are in a row
group. The footer is written when the run ends, an interruption included (Ctrl-C); ``--resume``
copies the rows of the files the state holds into a new file and goes on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from sgfcheck.run.reportfile import FLUSH_SECONDS, Row

ROW_GROUP = 2000
"""Rows a row group holds at most."""


class ParquetUnavailable(RuntimeError):
    """pyarrow is not installed."""


def _pyarrow() -> Any:
    try:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise ParquetUnavailable("a Parquet report needs pyarrow: pip install pyarrow (the "
                                 "'parquet' extra: pip install -e '.[parquet]' in a checkout, "
                                 "pip install 'sgfcheck[parquet]' from a package)") from None
    return pa, pq


def require_pyarrow() -> None:
    """Raises :class:`ParquetUnavailable` when pyarrow is not installed."""
    _pyarrow()


def schema() -> Any:
    """The report's columns and their types."""
    pa, _ = _pyarrow()
    finding = pa.struct([("code", pa.string()), ("severity", pa.string()),
                         ("move", pa.int32()), ("point", pa.string()),
                         ("message", pa.string())])
    count = pa.struct([("ruleset", pa.string()), ("method", pa.string()),
                       ("result", pa.string()), ("margin", pa.float64()),
                       ("black", pa.float64()), ("white", pa.float64())])
    return pa.schema([
        ("path", pa.string()), ("member", pa.string()), ("index", pa.int32()),
        ("readable", pa.bool_()), ("width", pa.int16()), ("height", pa.int16()),
        ("rules", pa.string()), ("rules_source", pa.string()), ("komi", pa.float64()),
        ("komi_source", pa.string()), ("handicap", pa.int16()), ("moves", pa.int32()),
        ("result", pa.string()), ("result_kind", pa.string()), ("result_winner", pa.string()),
        ("result_margin", pa.float64()), ("verdict", pa.string()),
        ("result_check", pa.string()), ("result_basis", pa.string()),
        ("result_reading", pa.string()), ("result_reproduced", pa.string()),
        ("computed", pa.string()), ("dead_stones_source", pa.string()),
        ("first_illegal_move", pa.int32()), ("first_illegal_point", pa.string()),
        ("first_illegal_rule", pa.string()), ("errors", pa.int32()), ("warnings", pa.int32()),
        ("infos", pa.int32()), ("counts", pa.list_(count)), ("findings", pa.list_(finding)),
        ("file_findings", pa.list_(finding)), ("black", pa.string()), ("white", pa.string()),
        ("date", pa.string()), ("event", pa.string()), ("server", pa.string()),
        ("encoding", pa.string()),
    ])


def _findings(items: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    return [{"code": f.get("code"), "severity": f.get("severity"), "move": f.get("move"),
             "point": f.get("point"), "message": f.get("message")} for f in items or []]


def flat_row(obj: dict[str, Any]) -> dict[str, Any]:
    """A batch row (the JSON object of ``#/$defs/batch_game``) as the report's typed columns."""
    rules = obj.get("rules") or {}
    result = obj.get("result") or {}
    check = obj.get("result_check") or {}
    dead = obj.get("dead_stones") or {}
    size = obj.get("size") or [None, None]
    findings = obj.get("findings") or []
    illegal = next((f for f in findings if f.get("severity") == "error"
                    and str(f.get("code", "")).startswith("RUL") and f.get("move")), None)
    players = obj.get("players") or {}
    severities = [f.get("severity") for f in findings]
    return {
        "path": obj.get("path"), "member": obj.get("member"), "index": obj.get("index"),
        "readable": obj.get("readable", True), "width": size[0], "height": size[1],
        "rules": rules.get("name"), "rules_source": rules.get("source"),
        "komi": obj.get("komi"), "komi_source": rules.get("komi_source"),
        "handicap": obj.get("handicap"), "moves": obj.get("moves"),
        "result": result.get("raw"), "result_kind": result.get("kind"),
        "result_winner": result.get("winner"), "result_margin": result.get("margin"),
        "verdict": obj.get("verdict"), "result_check": check.get("status"),
        "result_basis": check.get("basis"), "result_reading": check.get("reading"),
        "result_reproduced": check.get("reproduced"), "computed": check.get("computed"),
        "dead_stones_source": dead.get("source"),
        "first_illegal_move": illegal.get("move") if illegal else None,
        "first_illegal_point": illegal.get("point") if illegal else None,
        "first_illegal_rule": illegal.get("rule") if illegal else None,
        "errors": severities.count("error"), "warnings": severities.count("warning"),
        "infos": severities.count("info"),
        "counts": [{"ruleset": s.get("ruleset"), "method": s.get("method"),
                    "result": s.get("result"), "margin": s.get("margin"),
                    "black": (s.get("black") or {}).get("total"),
                    "white": (s.get("white") or {}).get("total")}
                   for s in obj.get("scores") or []],
        "findings": _findings(findings), "file_findings": _findings(obj.get("file_findings")),
        "black": players.get("black"), "white": players.get("white"),
        "date": obj.get("date"), "event": obj.get("event"), "server": obj.get("server"),
        "encoding": obj.get("encoding"),
    }


class ParquetReport:
    """The report writer of a Parquet report (the interface of
    :class:`~sgfcheck.run.reportfile.ReportWriter`): rows as JSON objects, written in row
    groups; with ``state``, each file's state line once its rows are written. ``keep``: an
    earlier report of this run and how many of its first rows to copy first (``--resume``)."""

    def __init__(self, path: Path | IO[bytes], state: IO[str] | None = None,
                 keep: tuple[Path, int] | None = None) -> None:
        pa, pq = _pyarrow()
        self._pa = pa
        self.schema = schema()
        self.state = state
        self._rows: list[dict[str, Any]] = []
        self._pending: list[str] = []
        self._flushed = time.monotonic()
        self.written = 0
        self._writer = pq.ParquetWriter(str(path) if isinstance(path, Path) else path,
                                        self.schema, compression="zstd")
        if keep is not None:
            earlier, rows = keep
            for table in _row_groups(earlier):
                if rows <= 0:
                    break
                table = table.slice(0, rows)
                rows -= table.num_rows
                self._writer.write_table(table)
                self.written += table.num_rows

    def write(self, rows: list[Row], state_line: str | None = None) -> None:
        for row in rows:
            if isinstance(row, dict):
                self._rows.append(flat_row(row))
        if state_line is not None and self.state is not None:
            self._pending.append(state_line)
        if len(self._rows) >= ROW_GROUP or time.monotonic() - self._flushed >= FLUSH_SECONDS:
            self.flush()

    def copy(self, source: IO[bytes]) -> None:
        """Every row of another Parquet report (a part of a ``batch --out-dir`` run), a row
        group at a time."""
        self.flush()
        _, pq = _pyarrow()
        reader = pq.ParquetFile(source)
        for i in range(reader.num_row_groups):
            table = reader.read_row_group(i).cast(self.schema)
            self._writer.write_table(table)
            self.written += table.num_rows

    def flush(self) -> None:
        """The rows so far as a row group, then the state of the files they complete."""
        if self._rows:
            table = self._pa.Table.from_pylist(self._rows, schema=self.schema)
            self._writer.write_table(table)
            self.written += len(self._rows)
            self._rows = []
        if self.state is not None and self._pending:
            self.state.write("".join(self._pending))
            self._pending = []
            self.state.flush()
        self._flushed = time.monotonic()

    def close(self) -> None:
        """The last rows and the footer (the file is readable from here on)."""
        self.flush()
        self._writer.close()


def _row_groups(path: Path) -> Iterator[Any]:
    _, pq = _pyarrow()
    reader = pq.ParquetFile(str(path))
    for i in range(reader.num_row_groups):
        yield reader.read_row_group(i)


def parquet_keys(path: Path) -> Iterator[tuple[tuple[str, str | None], int]]:
    """Each row's file key (path, member) and the number of rows up to it, in order, a row
    group at a time. Raises ValueError for a file that is not a readable Parquet report (one
    whose run was killed before its footer)."""
    _, pq = _pyarrow()
    try:
        reader = pq.ParquetFile(str(path))
    except Exception as exc:  # pyarrow raises its own errors for a file without a footer
        raise ValueError(f"not a readable Parquet report ({exc})") from None
    count = 0
    for i in range(reader.num_row_groups):
        group = reader.read_row_group(i, columns=["path", "member"])
        for p, m in zip(group.column("path").to_pylist(), group.column("member").to_pylist(),
                        strict=True):
            count += 1
            yield (p, m), count


def resume_file(path: Path) -> Path:
    """Where an earlier Parquet report is moved while its kept rows are copied into a new one
    (``--resume``)."""
    return path.with_name(path.name + ".resumed")


def replace_earlier(path: Path) -> Path:
    """Move an earlier report aside before it is rewritten; the new file takes its name."""
    aside = resume_file(path)
    os.replace(path, aside)
    return aside
