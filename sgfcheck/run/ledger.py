"""The run state beside a batch report (``report.jsonl.state``): what ``--resume`` needs to give
the summary, the page and the exit status of the whole report, not of its last run.

Its first line says what the run is (the inputs as given, every setting, the report's kind); then
one line per finished file, in the report's order: its key and the facts the summary counts (the
verdict of each game, its illegal moves, the result check, the keys of the duplicate groups, the
problem description for the page). A resume reads it back and counts those files as if they had
just been checked; with other inputs or other settings it is refused, naming the difference.

Order of writing: a file's state line is written only after its rows have reached the report
(:class:`~sgfcheck.run.reportfile.ReportWriter` flushes the report first), so the state never
holds a file the report lacks; rows the report holds beyond the state (an interrupted flush) are
cut before the report is continued.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sgfcheck.escaping import name_text, visible
from sgfcheck.output.schema import SCHEMA_VERSION
from sgfcheck.run.outcome import FileOutcome, outcome_of
from sgfcheck.run.reportfile import ReportKind
from sgfcheck.settings import Settings, differences
from sgfcheck.version import VERSION

SUFFIX = ".state"
"""The state of ``report.jsonl`` is ``report.jsonl.state``."""

Key = tuple[str, str | None]


def state_path(report: Path) -> Path:
    return report.with_name(report.name + SUFFIX)


@dataclass(frozen=True)
class RunHead:
    """What a run is, the first line of a report's run state and of a parts folder's manifest
    (``batch --out-dir``): the inputs as given and every setting, with the report's kind or the
    partitions' size and format. A run is continued only where the head written before is the
    head asked for (:meth:`differences`)."""

    inputs: tuple[str, ...]
    settings: Settings
    report: ReportKind | None = None
    """The report's kind (a run state)."""
    part_size: int | None = None
    """Files in a partition (a manifest)."""
    part_format: ReportKind | None = None
    """The partitions' format (a manifest)."""

    def to_plain(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sgfcheck": VERSION, "schema": SCHEMA_VERSION,
                               "inputs": [name_text(i) for i in self.inputs]}
        if self.report is not None:
            out["report"] = self.report.value
        if self.part_size is not None:
            out["part_size"] = self.part_size
        if self.part_format is not None:
            out["part_format"] = self.part_format.value
        out["settings"] = self.settings.to_plain()
        return out

    def differences(self, before: dict[str, Any]) -> list[str]:
        """What differs between the run written before (its head as read) and this one, as a
        user reads it (empty: the same run, which may be continued)."""
        out = []
        inputs = [name_text(i) for i in self.inputs]  # as the state holds them
        if before.get("inputs") != inputs:
            given = " ".join(before.get("inputs") or [])
            out.append(f"the inputs {visible(' '.join(inputs))}, not {visible(given)}")
        if "settings" not in before:
            out.append(f"a run written by sgfcheck {before.get('sgfcheck', '(unknown)')} "
                       "without its settings")
            return out
        try:
            earlier = Settings.from_plain(before["settings"])
        except (ValueError, TypeError, KeyError) as exc:
            out.append(f"settings this version cannot read ({exc})")
        else:
            out.extend(differences(earlier, self.settings))
        if self.part_size is not None and before.get("part_size") != self.part_size:
            out.append(f"--part-size {self.part_size}, not {before.get('part_size')}")
        if self.part_format is not None:
            earlier_format = before.get("part_format", "jsonl")  # older: JSON Lines parts
            if earlier_format != self.part_format.value:
                out.append(f"--part-format {self.part_format.value}, not {earlier_format}")
        return out


def read_state_head(path: Path) -> dict[str, Any]:
    """The first line of a run state: what the run was. Raises ValueError for a file that is
    not a state."""
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    try:
        head = json.loads(first)
    except ValueError:
        head = None
    if not isinstance(head, dict) or "inputs" not in head or not first.endswith("\n"):
        raise ValueError(f"{path.name} is not a run state of sgfcheck")
    return head


def iter_state(path: Path) -> Iterator[FileOutcome]:
    """The finished files of a run state, in order, read as they are needed (a state of
    millions of files is never held whole); a line cut by an interruption is left out.
    Raises ValueError for a damaged line."""
    with open(path, encoding="utf-8") as fh:
        fh.readline()
        for number, line in enumerate(fh, start=2):
            if not line.endswith("\n"):
                return
            if not line.strip():
                continue
            try:
                yield outcome_of(json.loads(line))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{path.name} line {number}: not a finished file ({exc})"
                                 ) from None


def report_keys(path: Path, kind: ReportKind) -> Iterator[tuple[Key, int]]:
    """Each complete row of a report, read line by line (a report of millions of games is
    never held whole): the key of its file and the byte offset where the row ends (a CSV
    report escapes line ends inside cells, so every row is one line). A last line cut by an
    interruption is left out."""
    offset = 0
    with open(path, "rb") as fh:
        for number, line in enumerate(fh):
            if not line.endswith(b"\n"):
                return
            offset += len(line)
            if not line.strip() or (kind is ReportKind.CSV and number == 0):
                continue  # a blank line, or the CSV header
            if kind is ReportKind.CSV:
                (row,) = csv.reader([line.decode("utf-8")])
                yield (row[0], row[1] or None), offset
            else:
                obj = json.loads(line)
                yield (obj["path"], obj.get("member")), offset
