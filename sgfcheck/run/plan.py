"""A batch run as one validated, frozen plan, made before any work: the inputs, how the work is
spread (:class:`~sgfcheck.run.batch.BatchOptions`), and where the report and its companions go.
Every choice that cannot work together is refused here, in one sentence (:class:`PlanError`),
before a file is read or written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sgfcheck.run.batch import BatchOptions
from sgfcheck.settings import Settings


class PlanError(ValueError):
    """Choices of a batch run that do not go together; the message says which and why."""


@dataclass(frozen=True)
class BatchPlan:
    """What a batch run will do, decided before it starts."""

    inputs: tuple[str, ...]
    options: BatchOptions
    out: Path | None = None
    """The report (``--out``), or None; with ``resume``, the report continued."""
    resume: bool = False
    out_dir: str | None = None
    """The folder of the report's parts (``--out-dir``, a path or a URL), or None."""
    part_size: int = 0
    parquet_parts: bool = False
    scheduler: str | None = None
    duplicates: Path | None = None
    summary_json: Path | None = None
    html_page: Path | None = None

    made: tuple[Path, ...] = ()
    """The report and its state where this run creates them (they were not there when the plan
    was made): removed again when the run reads no record."""


def plan_batch(inputs: list[str], settings: Settings, *, jobs: int = 0,
               out: Path | None = None, resume: Path | None = None,
               out_dir: str | None = None, part_format: str = "jsonl", part_size: int = 0,
               scheduler: str | None = None, duplicates: Path | None = None,
               summary_json: Path | None = None, html_page: Path | None = None) -> BatchPlan:
    """The plan of a batch run, or :class:`PlanError` for choices that do not go together."""
    if resume is not None and out is not None and resume != out:
        raise PlanError("--resume FILE writes to FILE: give --out the same file or leave it")
    most = max(8, 4 * (os.cpu_count() or 1))
    if not 0 <= jobs <= most:
        # Each worker is a process of tens of MB: a huge number would exhaust the machine.
        raise PlanError(f"--jobs takes a number from 0 (one per core) to {most} (four per "
                        "core)")
    if out_dir is not None:
        for option, value in (("--out", out), ("--resume", resume), ("--html", html_page),
                              ("--duplicates", duplicates)):
            if value is not None:
                raise PlanError(f"--out-dir writes the report as parts: {option} goes with "
                                "'sgfcheck report merge DIR' (resume: run the same command "
                                "again)")
    if part_format not in ("jsonl", "parquet"):
        raise PlanError(f"--part-format {part_format}: jsonl or parquet")
    if part_format != "jsonl" and out_dir is None:
        raise PlanError("--part-format is the format of the parts of --out-dir DIR (a "
                        "Parquet report in one file: --out FILE.parquet)")
    report = out or resume
    if part_format == "parquet" or (report is not None and report.suffix.lower() == ".parquet"):
        from sgfcheck.run.parquet import ParquetUnavailable, require_pyarrow

        try:
            require_pyarrow()
        except ParquetUnavailable as exc:
            raise PlanError(str(exc)) from None
    # With --html on this machine's pool, each game with illegal moves, errors or a mismatch
    # gets its game page beside the page (a cluster's workers write elsewhere: no pages).
    pages = (str(html_page.with_name(html_page.stem + "-games"))
             if html_page is not None and scheduler is None and out_dir is None else None)
    from sgfcheck.run.ledger import state_path

    made = tuple(p for p in ((out, state_path(out)) if out is not None and resume is None
                             else ()) if not p.exists())
    return BatchPlan(tuple(inputs), BatchOptions(settings=settings, jobs=jobs, pages=pages),
                     out=report, resume=resume is not None, out_dir=out_dir,
                     part_size=part_size, parquet_parts=part_format == "parquet",
                     scheduler=scheduler, duplicates=duplicates, summary_json=summary_json,
                     html_page=html_page, made=made)
