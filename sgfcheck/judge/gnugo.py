"""GNU Go as a process: its dead and seki stones for a position, over GTP.

The final position is written to a temporary SGF file (setup stones, player to move, komi) and GNU
Go is asked ``loadsgf``, ``final_status_list dead`` and ``final_status_list seki``. GNU Go runs
as a subprocess without a shell, with a time limit. The binary is ``$SGFCHECK_GNUGO``, else
``gnugo`` on the PATH, else Debian's ``/usr/games/gnugo`` (package ``gnugo``). :class:`GnuGo` is
the engine the dead-stone sources ask (:mod:`sgfcheck.judge.interface`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from sgfcheck import findings as F
from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.judge.clock import TimeSpent, allowance
from sgfcheck.judge.interface import EngineError, EngineJudgement, EngineStatus, end_process
from sgfcheck.limits import engine_preexec
from sgfcheck.points import parse_point_name, point_to_sgf
from sgfcheck.records.context import GameContext
from sgfcheck.replay.board import Board

NAME = "gnugo"
"""Its name in the registry of engines (:mod:`sgfcheck.engineregistry`)."""
TIMEOUT = 60.0
DEBIAN_PATH = "/usr/games/gnugo"


class GnuGoError(EngineError):
    """GNU Go is missing, failed, or did not answer in time; the message says which."""

    code = F.ENGINE_FAILURES[NAME]


class GnuGo:
    """GNU Go behind the engine interface (:mod:`sgfcheck.judge.interface`): each position is one
    GTP session of its own, so there is no process to keep."""

    name = NAME

    def __init__(self, binary: str | None = None) -> None:
        self.binary = binary

    def judge(self, board: Board, context: GameContext, to_move: Colour) -> EngineJudgement:
        dead, seki = ask(board, to_move, context.komi, self.binary)
        return EngineJudgement(dead, seki, notes=[
            f"GNU Go: {len(dead)} dead stones, {len(seki)} stones in seki"])

    def close(self) -> None:
        pass


def find_gnugo() -> str | None:
    configured = os.environ.get("SGFCHECK_GNUGO")
    if configured:
        return configured
    found = shutil.which("gnugo")
    if found:
        return found
    return DEBIAN_PATH if os.access(DEBIAN_PATH, os.X_OK) else None


def gnugo_installed() -> bool:
    """GNU Go is on this machine."""
    return find_gnugo() is not None


def gnugo_status(start: bool = True) -> EngineStatus:
    """GNU Go: found (each position starts a process of its own: nothing to start here)."""
    found = find_gnugo()
    return EngineStatus(NAME, found is not None,
                        found or "not found (apt-get install gnugo, or SGFCHECK_GNUGO)")


def position_sgf(board: Board, to_move: Colour, komi: float) -> str:
    black = "".join(f"[{point_to_sgf(board.point(p))}]"
                    for p, c in enumerate(board.colour) if c == BLACK)
    white = "".join(f"[{point_to_sgf(board.point(p))}]"
                    for p, c in enumerate(board.colour) if c == WHITE)
    return (f"(;GM[1]FF[4]SZ[{board.width}]KM[{komi:g}]"
            f"{'AB' + black if black else ''}{'AW' + white if white else ''}"
            f"PL[{to_move.letter}])")


def ask(board: Board, to_move: Colour, komi: float, binary: str | None = None,
        timeout: float = TIMEOUT) -> tuple[set[int], set[int]]:
    """GNU Go's dead and seki stones (board indices) for a position."""
    if board.width != board.height or board.width > 19:
        raise GnuGoError(f"GNU Go plays only square boards up to 19x19, not "
                         f"{board.width}x{board.height}")
    program = binary or find_gnugo()
    if program is None:
        raise GnuGoError("GNU Go is not installed (Debian: apt-get install gnugo; or set "
                         "SGFCHECK_GNUGO to its path)")
    timeout, ending = allowance(NAME, timeout)
    with tempfile.TemporaryDirectory(prefix="sgfcheck-") as folder:
        sgf = Path(folder) / "position.sgf"
        sgf.write_text(position_sgf(board, to_move, komi), encoding="ascii")
        commands = (f"loadsgf {sgf}\nfinal_status_list dead\nfinal_status_list seki\nquit\n")
        try:
            # A session of its own, ended whole when it is late (end_process).
            process = subprocess.Popen([program, "--mode", "gtp"], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, preexec_fn=engine_preexec(),
                                       start_new_session=os.name == "posix")
        except FileNotFoundError:
            raise GnuGoError(f"GNU Go not found at {program}") from None
        except OSError as exc:
            raise GnuGoError(f"GNU Go could not be started: {exc}") from None
        try:
            out, err = process.communicate(commands, timeout=timeout)
        except subprocess.TimeoutExpired:
            end_process(process)
            if ending is not None:
                raise TimeSpent(NAME, ending, waiting=True) from None
            raise GnuGoError(f"GNU Go did not answer within {timeout:g} s") from None
        except BaseException:
            end_process(process)
            raise
        done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    answers = _answers(done.stdout)
    if done.returncode != 0 or len(answers) < 3:
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise GnuGoError(f"GNU Go failed (exit status {done.returncode}: {detail[0][:200]})")
    for ok, text in answers[:3]:
        if not ok:
            raise GnuGoError(f"GNU Go refused the position: {text}")
    dead = _points(answers[1][1], board)
    seki = _points(answers[2][1], board)
    return dead, seki


def _answers(output: str) -> list[tuple[bool, str]]:
    """GTP responses: ``= text`` or ``? text``, each ended by a blank line."""
    out = []
    for block in output.replace("\r\n", "\n").split("\n\n"):
        block = block.strip()
        if block.startswith(("=", "?")):
            out.append((block[0] == "=", block[1:].strip()))
    return out


def _points(text: str, board: Board) -> set[int]:
    points = set()
    for name in text.split():
        col, row = parse_point_name(name, board.width, board.height)
        points.add(board.index(col, row))
    return points
