"""Exit status of each command: one policy per command, decided here and documented in the manual.

Each file's status (the command's own policy):

- ``check``: 0 nothing worse than warnings, 1 an illegal move or another error finding, 2 an
  input that could not be read at all.
- ``score``: 0 every scored result matches (or is not a score), 1 a mismatch, a game that could
  not be scored or an error finding, 3 nothing wrong found but a result the evidence cannot
  decide (unverifiable), 2 unreadable input.
- ``life``: 0, 1 a game that could not be judged, a failed dead-stone source (``LIF…``) or games
  left unjudged by a limit (``SGF035``), 2 unreadable input.
- ``batch``: per :class:`FailPolicy`, over the whole run.

Over the inputs, one rule for every command (:func:`over_inputs`): 2 when none of the records
could be read, else the worst status of the files read (1 is worse than 3: a mismatch
outweighs an undecided result), at least 1 when an input among them could not be used. A usage
error is 2, an output that could not be written (standard output closed, a closed pipe, a full
disk) 4 and an interruption 130, whatever the command.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from sgfcheck.status import StrEnum

if TYPE_CHECKING:
    from sgfcheck.output.summary import Summary
    from sgfcheck.replay.check import FileReport
    from sgfcheck.scoring.gamescore import FileScore
    from sgfcheck.scoring.lifefile import FileLife


class ExitStatus(IntEnum):
    OK = 0
    FOUND = 1
    """Something is wrong with the records (what, depends on the command)."""
    USAGE = 2
    """A usage error, or an input that could not be read at all."""
    UNDECIDED = 3
    """Nothing wrong found, but a result the evidence cannot decide (``score``: unverifiable)."""
    OUTPUT = 4
    """An output could not be written: standard output closed, a closed pipe, a full disk."""
    INTERRUPTED = 130


class OutputFailed(Exception):
    """A file the command was asked to write (``-o``, ``--summary-json``...) could not be
    written: a full disk, a device that takes nothing. Said in one line, exit status
    :attr:`ExitStatus.OUTPUT`."""

    def __init__(self, target: object, cause: OSError) -> None:
        super().__init__(f"cannot write {target}: {cause.strerror or cause}")
        self.target = target
        self.cause = cause


_SEVERITY = {ExitStatus.OK: 0, ExitStatus.UNDECIDED: 1, ExitStatus.FOUND: 2,
             ExitStatus.USAGE: 3, ExitStatus.OUTPUT: 4, ExitStatus.INTERRUPTED: 5}


def worse(a: ExitStatus, b: ExitStatus) -> ExitStatus:
    """The worse of two statuses: 2 over 1 over 3 over 0."""
    return a if _SEVERITY[a] >= _SEVERITY[b] else b


class FailPolicy(StrEnum):
    """``batch --fail-on``: what makes the run exit with status 1."""

    ERROR = "error"
    """Any error finding or unreadable input."""
    ILLEGAL = "illegal"
    """An illegal move."""
    MISMATCH = "mismatch"
    """An RE mismatch."""
    NEVER = "never"


def check_status(report: FileReport) -> ExitStatus:
    if report.unreadable:
        return ExitStatus.USAGE
    return ExitStatus.FOUND if report.has_errors else ExitStatus.OK


def score_status(report: FileScore) -> ExitStatus:
    from sgfcheck.verdict.reasons import CheckStatus

    if report.check.unreadable:
        return ExitStatus.USAGE
    if report.check.has_errors:
        return ExitStatus.FOUND
    undecided = False
    for game in report.games:
        if game.error or any(f.is_error for f in game.findings):
            return ExitStatus.FOUND
        status = game.result_check.status if game.result_check else None
        if status is CheckStatus.MISMATCH:
            return ExitStatus.FOUND
        undecided |= status is CheckStatus.UNVERIFIABLE
    return ExitStatus.UNDECIDED if undecided else ExitStatus.OK


def life_status(report: FileLife) -> ExitStatus:
    if report.check.unreadable:
        return ExitStatus.USAGE
    if any(game.error or any(f.code.family == "LIF" for f in game.findings)
           for game in report.games):
        return ExitStatus.FOUND
    if any(f.code.code == "SGF035" for f in report.check.findings):
        return ExitStatus.FOUND  # games left unjudged
    return ExitStatus.OK


def over_inputs(found: ExitStatus, readable: int, problems: int = 0) -> ExitStatus:
    """The one rule over a command's inputs (``check``, ``score``, ``life``, ``batch``): 2 when
    nothing could be done (none of its records readable), else at least 1 when some input could
    not be used among records read (``problems``: an unreadable file, a path that is not there,
    a file that is not a record; ``batch`` counts them in its own policy instead), else what the
    command found (``found``, the worst status of its readable files)."""
    if not readable:
        return ExitStatus.USAGE
    if problems:
        return worse(found, ExitStatus.FOUND)
    return found


def batch_status(summary: Summary, policy: FailPolicy) -> ExitStatus:
    from sgfcheck.verdict.reasons import CheckStatus

    if policy is FailPolicy.NEVER:
        failed = False
    elif policy is FailPolicy.MISMATCH:
        failed = bool(summary.result_checks[CheckStatus.MISMATCH.value])
    elif policy is FailPolicy.ILLEGAL:
        failed = bool(summary.games_with_illegal)
    else:
        failed = bool(summary.unreadable or summary.timeouts or summary.input_problems
                      or summary.errors)
    return ExitStatus.FOUND if failed else ExitStatus.OK
