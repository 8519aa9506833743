"""What the work on one file of a batch yields: its rows, rendered where the work was done, the
few facts of each game the summary counts, and its line of the run state (:mod:`sgfcheck.run.
ledger`), also made where the work was done: the main process only writes the rows and the line
and counts the facts (a worker's outcome crosses a process boundary: kept small)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from sgfcheck import findings as F
from sgfcheck.escaping import names_clean
from sgfcheck.findings import Finding
from sgfcheck.judge.clock import EngineUse
from sgfcheck.output.formats import ROWS
from sgfcheck.output.html import ProblemGame
from sgfcheck.records.items import InputProblem, WorkItem
from sgfcheck.run.reportfile import ReportKind, Row
from sgfcheck.verdict.reasons import CheckStatus


@dataclass
class GameFacts:
    """What the summary needs from one game (small: it crosses process boundaries)."""

    verdict: str
    illegal: tuple[str, ...]
    """The rule each illegal move breaks."""
    result_status: CheckStatus
    basis: str | None
    """What the result check rests on (:class:`sgfcheck.verdict.decide.Basis`)."""
    has_error: bool
    sequence: bytes | None
    label: str
    problem: ProblemGame | None = None
    """With ``details``: what the HTML page shows of a problem game."""
    solver: str | None = None
    """How the playing out of its last points ended (``solved``, ``over-work``...: the worst
    of its ways of counting), None where they were not played out."""
    solver_seconds: float = field(default=0.0, compare=False)
    """The time it took (a figure of the run, not a fact of the game: left out of equality)."""
    not_judged: bool = False
    """It ended by resignation, time or forfeit and its dead stones were not judged
    (:attr:`sgfcheck.judge.deadstones.DeadStones.not_judged`)."""


@dataclass
class FileOutcome:
    """One file's rows, rendered where the work was done, and its facts for the summary."""

    key: tuple[str, str | None]
    rows: list[Row]
    games: list[GameFacts] = field(default_factory=list)
    digest: bytes | None = None
    unreadable: bool = False
    timed_out: bool = False
    encoding_guessed: bool = False
    problem: str | None = None
    """For a file with no game: why (its error findings)."""
    input_problem: bool = False
    """The input itself could not be used (a link loop, an unsafe archive member...)."""
    engine: EngineUse = field(default_factory=EngineUse)
    """What the engines took over this file's games."""
    state: str | None = None
    """Its line of the run state (:func:`outcome_line`), made where the work was done when the
    report has a state; else the main process makes it."""


def file_outcome(item: WorkItem | InputProblem, findings: list[Finding], kind: ReportKind, *,
                  digest: bytes | None = None, timed_out: bool = False,
                  encoding_guessed: bool = False) -> FileOutcome:
    """The outcome of a file with no game: one row saying why."""
    path, member = item.key
    make = ROWS[kind.value].file
    problem = "; ".join(f.message for f in findings if f.is_error)
    return FileOutcome(item.key, [] if make is None else [make()(path, member, findings)],
                       unreadable=True,
                       problem=problem,
                       input_problem=any(f.code is F.SGF_INPUT for f in findings),
                       digest=digest, timed_out=timed_out, encoding_guessed=encoding_guessed)


def outcome_line(outcome: FileOutcome) -> str:
    """A finished file's line: its key and facts (not its rows: those are in the report)."""
    obj = {
        "key": list(outcome.key),
        "games": [_game_plain(g) for g in outcome.games],
        "digest": outcome.digest.hex() if outcome.digest is not None else None,
        "unreadable": outcome.unreadable, "timed_out": outcome.timed_out,
        "encoding_guessed": outcome.encoding_guessed, "problem": outcome.problem,
        "input_problem": outcome.input_problem,
    }
    try:
        return orjson.dumps(obj, option=orjson.OPT_APPEND_NEWLINE).decode()
    except TypeError:  # a name that is not UTF-8: its bytes escaped, as the report writes it
        return orjson.dumps(names_clean(obj), option=orjson.OPT_APPEND_NEWLINE).decode()


def _game_plain(g: GameFacts) -> dict[str, Any]:
    return {"verdict": g.verdict, "illegal": list(g.illegal),
            "result_status": g.result_status.value, "basis": g.basis,
            "has_error": g.has_error,
            "sequence": g.sequence.hex() if g.sequence is not None else None,
            "label": g.label, "problem": g.problem,  # orjson writes a dataclass field by field
            "solver": g.solver, "solver_seconds": round(g.solver_seconds, 4),
            "not_judged": g.not_judged}


def outcome_of(obj: dict[str, Any]) -> FileOutcome:
    """The outcome :func:`outcome_line` wrote (without rows)."""
    path, member = obj["key"]
    games = [GameFacts(g["verdict"], tuple(g["illegal"]), CheckStatus(g["result_status"]),
                       g["basis"], g["has_error"],
                       bytes.fromhex(g["sequence"]) if g["sequence"] is not None else None,
                       g["label"],
                       ProblemGame(**g["problem"]) if g["problem"] is not None else None,
                       g.get("solver"), float(g.get("solver_seconds") or 0.0),
                       bool(g.get("not_judged")))
             for g in obj["games"]]
    digest = obj.get("digest")
    return FileOutcome((path, member), [], games,
                       bytes.fromhex(digest) if digest is not None else None,
                       unreadable=obj["unreadable"], timed_out=obj["timed_out"],
                       encoding_guessed=obj["encoding_guessed"], problem=obj["problem"],
                       input_problem=obj["input_problem"])


