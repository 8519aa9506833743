"""KataGo as a process: who owns each point of a position, over its JSON analysis protocol.

One engine process (``katago analysis -config C -model M``) answers every query of a run; it is
started without a shell, given a start-up time limit, and each query a time limit of its own. A
query sends the position as ``initialStones`` (the final board, not the moves: ownership of the
position is what is asked), the player to move, the rules and komi, ``includeOwnership`` and
``maxVisits``; the answer's ``ownership`` is +1 for Black to -1 for White, row by row from the top
(``reportAnalysisWinratesAs = BLACK``), the order of :class:`sgfcheck.replay.board.Board` indices.

Where KataGo is: ``$SGFCHECK_KATAGO`` (the binary), ``$SGFCHECK_KATAGO_MODEL``,
``$SGFCHECK_KATAGO_CONFIG``; else what ``sgfcheck engines install katago`` put in the per-user data
folder (:func:`data_folder`). Any failure raises :class:`KataGoError` with what went wrong.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from sgfcheck import findings as F
from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.judge.clock import TimeSpent, allowance
from sgfcheck.judge.interface import EngineError, EngineJudgement, end_process
from sgfcheck.limits import engine_preexec
from sgfcheck.records.context import GameContext
from sgfcheck.replay.board import Board
from sgfcheck.rules.ruleset import Scoring

NAME = "katago"
"""Its name in the registry of engines (:mod:`sgfcheck.engineregistry`)."""
START_TIMEOUT = 60.0
"""Seconds allowed for the engine to load its network (4.4 s measured the first time on 2 CPU
cores, while pocl compiles its kernels)."""
QUERY_TIMEOUT = 60.0
MAX_VISITS = 1
"""One network evaluation: on 100 KGS markup games 1 and 10 visits gave the same dead stones."""
MAX_SIZE = 19
DETERMINISTIC = "nnRandomize=false"
"""Given on KataGo's command line (over any config, a user's own too): the network evaluates the
board as it stands, not in one of its eight symmetries drawn at random, so the same position
gets the same ownership in every process (drawn at random, two processes' answers differed by
up to 0.001, enough to change a chain's confidence as reported)."""


class KataGoError(EngineError):
    """KataGo is missing, failed, or did not answer in time; the message says which."""

    code = F.ENGINE_FAILURES[NAME]


@dataclass(frozen=True)
class KataGoSetup:
    binary: Path
    model: Path
    config: Path


def data_folder() -> Path:
    """Where ``sgfcheck engines install`` puts engines: ``$XDG_DATA_HOME/sgfcheck`` (default
    ``~/.local/share/sgfcheck``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sgfcheck"


def installed_setup() -> KataGoSetup:
    folder = data_folder() / "katago"
    return KataGoSetup(folder / "squashfs-root" / "AppRun",
                       folder / "b10c384h6nbttflrs.bin.gz", folder / "analysis.cfg")


def find_katago() -> KataGoSetup | None:
    """The configured KataGo, else the installed one, else None."""
    default = installed_setup()
    binary = os.environ.get("SGFCHECK_KATAGO")
    setup = KataGoSetup(Path(binary) if binary else default.binary,
                        Path(os.environ.get("SGFCHECK_KATAGO_MODEL") or default.model),
                        Path(os.environ.get("SGFCHECK_KATAGO_CONFIG") or default.config))
    if binary or (setup.binary.exists() and setup.model.exists() and setup.config.exists()):
        return setup
    return None


class KataGo:
    """A running analysis engine, behind the engine interface (:mod:`sgfcheck.judge.interface`).
    Use :func:`engine` to share one per process."""

    name = NAME

    def __init__(self, setup: KataGoSetup, start_timeout: float = START_TIMEOUT) -> None:
        self.setup = setup
        start_timeout, ending = allowance(self.name, start_timeout, start=True)
        command = [str(setup.binary), "analysis", "-config", str(setup.config), "-model",
                   str(setup.model), "-override-config", DETERMINISTIC]
        try:
            # A session of its own: ended with everything it started (a wrapper script's
            # child too), whatever signals it ignores (end_process).
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                            text=True, bufsize=1, preexec_fn=engine_preexec(),
                                            start_new_session=os.name == "posix")
        except OSError as exc:
            raise KataGoError(f"KataGo could not be started ({setup.binary}): {exc}") from None
        self.answers: queue.Queue[str | None] = queue.Queue()
        self.log: list[str] = []
        ready = threading.Event()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(ready,), daemon=True).start()
        deadline = time.monotonic() + start_timeout
        while not ready.wait(0.1):
            if self.process.poll() is not None:
                raise KataGoError(f"KataGo stopped while starting (exit status "
                                  f"{self.process.returncode}: {self._last_log()})")
            if time.monotonic() > deadline:
                self.close()
                if ending is not None:
                    raise TimeSpent(self.name, ending, waiting=True)
                raise KataGoError(f"KataGo was not ready within {start_timeout:g} s")
        self.queries = 0

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.answers.put(line)
        self.answers.put(None)

    def _read_stderr(self, ready: threading.Event) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log = (self.log + [line.strip()])[-20:]
            if "ready to begin handling requests" in line:
                ready.set()

    def _last_log(self) -> str:
        return (self.log[-1] if self.log else "no output")[:200]

    def ownership(self, board: Board, to_move: Colour, komi: float, territory: bool,
                  timeout: float = QUERY_TIMEOUT) -> list[float]:
        """Each point's ownership, +1 Black to -1 White, in board index order."""
        if board.width > MAX_SIZE or board.height > MAX_SIZE:
            raise KataGoError(f"KataGo plays boards up to {MAX_SIZE}x{MAX_SIZE}, not "
                              f"{board.width}x{board.height}")
        timeout, ending = allowance(self.name, timeout)
        self.queries += 1
        stones = [[Colour(c).letter, board.name(p)] for p, c in enumerate(board.colour) if c]
        query_id = str(self.queries)
        query = {"id": query_id, "moves": [], "initialStones": stones,
                 "initialPlayer": to_move.letter, "rules": "japanese" if territory else "chinese",
                 "komi": komi, "boardXSize": board.width, "boardYSize": board.height,
                 "includeOwnership": True, "maxVisits": MAX_VISITS}
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(query) + "\n")
            self.process.stdin.flush()
        except OSError as exc:
            raise KataGoError(f"KataGo stopped ({exc}; {self._last_log()})") from None
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.answers.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                if ending is not None:  # a bound on engine time, not a stuck engine
                    self._terminate(query_id)
                    raise TimeSpent(self.name, ending, waiting=True) from None
                self.close()
                raise KataGoError(f"KataGo did not answer within {timeout:g} s") from None
            if line is None:
                raise KataGoError(f"KataGo stopped (exit status {self.process.poll()}: "
                                  f"{self._last_log()})")
            try:
                answer = json.loads(line)
            except ValueError:
                continue
            if answer.get("id") != query_id or answer.get("isDuringSearch"):
                continue
            if "error" in answer:
                raise KataGoError(f"KataGo refused the position: {answer['error']}")
            owned = answer.get("ownership")
            if not isinstance(owned, list) or len(owned) != board.width * board.height:
                raise KataGoError("KataGo's answer has no ownership for every point")
            return [float(v) for v in owned]

    def _terminate(self, query_id: str) -> None:
        """Stop the search of a query no longer waited for (its late answer, under an id never
        asked again, is passed over); an engine that cannot take it is stopped."""
        assert self.process.stdin is not None
        self.queries += 1
        try:
            self.process.stdin.write(json.dumps({"id": str(self.queries), "action": "terminate",
                                                 "terminateId": query_id}) + "\n")
            self.process.stdin.flush()
        except OSError:
            self.close()

    def judge(self, board: Board, context: GameContext, to_move: Colour) -> EngineJudgement:
        """Dead stones from the ownership of the position, asked once with each side to move,
        with the game's komi and its counting (territory or area): a chain is dead when both
        answers give its points to the opponent beyond 0.5 (on 100 KGS markup games, thresholds
        from 0.2 to 0.6 gave the same), unsettled (counted alive) when one does."""
        territory = context.ruleset.scoring is Scoring.TERRITORY
        first = self.ownership(board, BLACK, context.komi, territory)
        second = self.ownership(board, WHITE, context.komi, territory)
        dead_b, conf_b = dead_from_ownership(board, first)
        dead_w, conf_w = dead_from_ownership(board, second)
        dead = dead_b & dead_w
        unsettled = dead_b ^ dead_w
        confidence = {k: min(v, conf_w.get(k, v)) for k, v in conf_b.items()}
        for k in confidence:
            if k in unsettled:
                confidence[k] = 0.0
        notes = [f"KataGo's ownership (one network evaluation with each side to move): "
                 f"{len(dead)} dead stone{'' if len(dead) == 1 else 's'}"]
        return EngineJudgement(dead, confidence=confidence, notes=notes, unsettled=unsettled,
                               ownership=(first, second))

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        end_process(self.process)


_ENGINES: dict[KataGoSetup, KataGo] = {}


@atexit.register
def _close_engines() -> None:
    """Every shared engine ended before the process ends: one that ignores the end of its input
    and SIGTERM would otherwise outlive the command."""
    for running in list(_ENGINES.values()):
        running.close()
    _ENGINES.clear()


def engine(setup: KataGoSetup | None = None) -> KataGo:
    """The process's shared engine for a setup (default: :func:`find_katago`), started once."""
    setup = setup or find_katago()
    if setup is None:
        raise KataGoError("KataGo is not installed (sgfcheck engines install katago; or set "
                          "SGFCHECK_KATAGO, SGFCHECK_KATAGO_MODEL and SGFCHECK_KATAGO_CONFIG)")
    running = _ENGINES.get(setup)
    if running is None or running.process.poll() is not None:
        running = _ENGINES[setup] = KataGo(setup)
    return running


def start_katago() -> KataGo:
    """The process's shared engine (:func:`engine`), for the engine list."""
    return engine()


def dead_from_ownership(board: Board, owned: list[float],
                        threshold: float = 0.5) -> tuple[set[int], dict[int, float]]:
    """Stones whose point the opponent owns beyond ``threshold``, and each chain's confidence
    (the mean ownership of its points on the side of the verdict), keyed by its first stone."""
    dead: set[int] = set()
    confidence: dict[int, float] = {}
    for chain in board.chains():
        sign = 1.0 if chain.colour == BLACK else -1.0
        own = sum(owned[p] for p in chain.stones) * sign / len(chain.stones)
        first = min(chain.stones)
        if own < -threshold:
            dead.update(chain.stones)
        confidence[first] = round(max(0.0, -own if own < -threshold else own), 3)
    return dead, confidence
