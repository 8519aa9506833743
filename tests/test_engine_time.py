"""A slow judge never costs a record its findings: every question to an engine waits within the
bounds of engine time (one game, one file, the command), and a game left without the engine's
word keeps the estimate's verdict with finding LIF003.

The engines here are stand-ins that never answer (a KataGo that never gets ready, or gets ready
and never answers a query), so whatever the machine's speed every bound ends before them; the
last test asks the real KataGo where it is installed."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sgfcheck import findings as F
from sgfcheck.colour import BLACK
from sgfcheck.judge import clock
from sgfcheck.judge.clock import TimeSpent, allowance, bounded
from sgfcheck.judge.katago import KataGo, KataGoSetup
from sgfcheck.limits import DEFAULT_LIMITS, parse_spec
from sgfcheck.replay.board import Board
from sgfcheck.verdict.decide import CheckStatus

LETTERS = "abcdefghijklmnopqrs"


def walls_game(width: int, height: int, black: int, white: int) -> str:
    """A black wall on column ``black``, a white wall on column ``white``, two passes, and a
    result no count of it gives (W+90.5): a mismatch on any judge's dead stones."""
    moves = "".join(f";B[{LETTERS[black]}{LETTERS[r]}];W[{LETTERS[white]}{LETTERS[r]}]"
                    for r in range(height))
    return (f"(;GM[1]FF[4]SZ[{width}:{height}]KM[6.5]RU[Chinese]RE[W+90.5]{moves};B[];W[])")


def hostile_file(path: Path, games: int = 20) -> Path:
    """Issue 51's reproducer: game 1 plays onto an occupied point (C3, move 2), then games whose
    RE contradicts their count, each position different."""
    shapes = [(9 + i % 10, 7 + i % 12, 1 + i % 3, 5 + i % 3) for i in range(games)]
    text = "(;GM[1]FF[4]SZ[9]RE[B+R];B[cc];W[cc];B[dd])\n" + "\n".join(
        walls_game(*shape) for shape in shapes)
    path.write_text(text, encoding="ascii")
    return path


def fake_katago(folder: Path, body: str) -> dict[str, str]:
    """The environment that makes sgfcheck start ``body`` (Python) as KataGo."""
    script = folder / "katago"
    script.write_text(f"#!{sys.executable}\n{body}\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    for name in ("model", "config"):
        (folder / name).write_text("", encoding="ascii")
    return {"SGFCHECK_KATAGO": str(script), "SGFCHECK_KATAGO_MODEL": str(folder / "model"),
            "SGFCHECK_KATAGO_CONFIG": str(folder / "config")}


NEVER_READY = "import time\ntime.sleep(600)"
READY_SILENT = """import sys
sys.stderr.write("Started, ready to begin handling requests\\n"); sys.stderr.flush()
with open(sys.argv[0] + ".log", "w") as log:
    for line in sys.stdin:
        log.write(line); log.flush()
"""


# --- the bounds ---------------------------------------------------------------------------------


def test_the_earliest_bound_holds_and_an_ended_one_refuses(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    now = [100.0]
    monkeypatch.setattr(clock.time, "monotonic", lambda: now[0])
    assert allowance("katago", 60.0) == (60.0, None)
    with bounded(20, "--limit engine-file=20"), bounded(10, "--limit engine-game=10"):
        left, ending = allowance("katago", 60.0)
        assert left == 10.0 and ending is not None and ending.option == "--limit engine-game=10"
        now[0] += 4
        assert allowance("katago", 3.0) == (3.0, None)  # the question's own wait is shorter
        now[0] += 6
        with pytest.raises(TimeSpent, match=r"KataGo not asked: the engine time of --limit "
                                             r"engine-game=10 \(10 s\) was spent") as spent:
            allowance("katago", 60.0)
        assert spent.value.code is F.LIF_TIME
    with bounded(0, "--timeout 0"):  # 0: no bound of its own
        assert allowance("gnugo", 60.0) == (60.0, None)


def test_engine_limits_are_seconds() -> None:
    assert parse_spec("engine-file=2.5") == ("engine_file", 2.5)
    assert DEFAULT_LIMITS.describe("engine_game") == "engine-game=60"
    with pytest.raises(ValueError, match="engine-game is in seconds"):
        parse_spec("engine-game=5M")


# --- KataGo stopped, not waited for -------------------------------------------------------------


def test_a_query_past_its_bound_is_terminated_and_the_engine_kept(tmp_path: Path) -> None:
    env = fake_katago(tmp_path, READY_SILENT)
    setup = KataGoSetup(Path(env["SGFCHECK_KATAGO"]), tmp_path / "model", tmp_path / "config")
    engine = KataGo(setup)
    try:
        with bounded(0.3, "--limit engine-game=0.3"), pytest.raises(
                TimeSpent, match="KataGo's answer not waited for"):
            engine.ownership(Board(9, 9), BLACK, 6.5, territory=False)
        assert engine.alive  # stopped searching, not killed: the next file asks it again
        log = Path(env["SGFCHECK_KATAGO"] + ".log")
        for _ in range(600):  # the stand-in writes down what it was sent as it reads it
            if log.exists() and len(log.read_text().splitlines()) >= 2:
                break
            time.sleep(0.05)
        engine.close()
        sent = [json.loads(line) for line in log.read_text().splitlines()]
        assert sent[0]["id"] == "1" and sent[0]["maxVisits"] == 1
        assert sent[1] == {"id": "2", "action": "terminate", "terminateId": "1"}
    finally:
        engine.close()


# --- a file keeps its findings ------------------------------------------------------------------


def run_sgfcheck(args: list[str], env: dict[str, str],
                 cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sgfcheck", *args], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, **env, "COLUMNS": "200"},
                          timeout=300, check=False)


def test_batch_keeps_the_illegal_move_whatever_the_engine_takes(tmp_path: Path) -> None:
    record = hostile_file(tmp_path / "hostile.sgf")
    env = fake_katago(tmp_path, NEVER_READY)
    # The record's games end by resignation: asked to judge them all the same.
    done = run_sgfcheck(["batch", "--jobs", "1", "--dead-stones", "katago", "--judge-unscored",
                         str(record),
                         "--out", "r.jsonl", "--summary-json", "s.json",
                         "--limit", "engine-file=1"], env, tmp_path)
    assert done.returncode == 1, done.stderr  # the occupied point is an error finding
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(rows) == 21
    assert not any(f["code"] == "SGF031" for row in rows for f in row["file_findings"])
    first = rows[0]
    (occupied,) = [f for f in first["findings"] if f["code"] == "RUL001"]
    assert occupied["move"] == 2
    for row in rows:
        (spent,) = [f for f in row["findings"] if f["code"] == "LIF003"]
        assert "engine-file=1 (1 s) was spent" in spent["message"]
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["games_with_illegal_moves"] == 1 and summary["timeouts"] == 0
    assert summary["engine"]["games"] == 0 and summary["engine"]["refused"] == 21
    assert "not asked: engine time spent" in done.stdout


def test_engine_auto_keeps_the_estimates_mismatch_with_lif003(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--engine auto`` asks KataGo to confirm a mismatch on the estimate: with no engine time
    left, the estimate's MISMATCH stands and the game says why KataGo was not heard."""
    from dataclasses import replace

    from sgfcheck.judge import engines
    from sgfcheck.scoring import adjudicate
    from sgfcheck.settings import Settings

    for name, value in fake_katago(tmp_path, NEVER_READY).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setitem(engines.INSTALLED, "katago", lambda: True)
    record = hostile_file(tmp_path / "hostile.sgf", games=3)
    settings = Settings(dead_stones="estimate")  # type: ignore[arg-type]
    settings = replace(settings, limits=DEFAULT_LIMITS.with_specs(["engine-file=0.5"]))
    scored = adjudicate.score_file(record, settings)
    for game in scored.games[1:]:
        assert game.result_check is not None
        assert game.result_check.status is CheckStatus.MISMATCH
        assert game.dead is not None and game.dead.source == "estimate"
        (spent,) = [f for f in game.findings if f.code is F.LIF_TIME]
        assert spent.message.endswith("asked to confirm this mismatch (--engine auto), it leaves "
                                      "the estimate's verdict standing")


def test_score_says_what_the_engines_took(tmp_path: Path) -> None:
    record = hostile_file(tmp_path / "hostile.sgf", games=4)
    env = fake_katago(tmp_path, NEVER_READY)
    done = run_sgfcheck(["score", "--dead-stones", "katago", "--timeout", "0.5", str(record)],
                        env, tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.count("LIF003 engine time spent: KataGo") == 5
    assert "RUL001" in done.stdout or "occupied point" in done.stdout
    (said,) = [line for line in done.stderr.splitlines() if line.startswith("engines:")]
    assert said.startswith("engines: 0 position(s) judged in ")
    assert said.endswith(" s; 5 not asked, their engine time spent (LIF003)")


def test_the_progress_display_names_the_game_an_engine_judges() -> None:
    import io

    from rich.console import Console

    from sgfcheck.cli.progress import ProgressBar, Tracker

    track = Tracker(["one.sgf"], quiet=True)
    track.per_file = False
    track.bar = ProgressBar("games", 0, True, console=Console(file=io.StringIO(),
                                                             force_terminal=True, width=100))
    on_game = track.file_read(5)
    assert on_game is not None
    on_game()
    on_game()
    track.engine_asked("katago")
    assert track.bar.display.tasks[0].description == "KataGo judging game 3, 2 waiting"
    on_game()  # the game done: the display goes back to counting games
    assert track.bar.display.tasks[0].description == "games"
    track.bar.close()


def test_score_refuses_a_bad_timeout(tmp_path: Path) -> None:
    done = run_sgfcheck(["score", "--timeout", "nan", "x.sgf"], {}, tmp_path)
    assert done.returncode == 2
    assert "--timeout takes seconds from 0 (no limit) to 86400" in done.stdout + done.stderr


# --- the real KataGo ----------------------------------------------------------------------------


def test_the_real_katago_within_a_batch_file_bound(tmp_path: Path) -> None:
    from sgfcheck.judge.install import opencl_present
    from sgfcheck.judge.katago import find_katago

    if find_katago() is None:
        pytest.skip("KataGo is not installed (sgfcheck engines install katago)")
    if not opencl_present():
        pytest.skip("no OpenCL driver (apt-get install ocl-icd-libopencl1 pocl-opencl-icd)")
    record = hostile_file(tmp_path / "hostile.sgf")
    done = run_sgfcheck(["batch", "--jobs", "1", "--dead-stones", "estimate", str(record),
                         "--out", "r.jsonl", "--summary-json", "s.json"], {}, tmp_path)
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["timeouts"] == 0 and summary["games_with_illegal_moves"] == 1, done.stdout
    assert summary["illegal_by_rule"] == {"occupied point": 1}
    # Every mismatch on the estimate was put to KataGo or refused for want of time, said so.
    engine = summary["engine"]
    assert engine["games"] >= 1 or engine["refused"] >= 1
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    refused = sum(1 for row in rows for f in row["findings"] if f["code"] == "LIF003")
    assert refused == engine["refused"]


# --- the log says which game an engine is judging ----------------------------------------------


def test_a_worker_says_which_game_an_engine_judges(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import queue

    from sgfcheck.records.items import WorkItem
    from sgfcheck.run import batch

    for name, value in fake_katago(tmp_path, NEVER_READY).items():
        monkeypatch.setenv(name, value)
    record = hostile_file(tmp_path / "hostile.sgf", games=2)
    news: queue.Queue[str] = queue.Queue()
    monkeypatch.setattr(batch, "_news", news)
    options = batch.BatchOptions.of(dead_stones="katago", judge_unscored=True,
                                    limits=DEFAULT_LIMITS.with_specs(["engine-file=0.5"]))
    outcome = batch.process_item(WorkItem(str(record)), options)
    assert outcome.engine.refused == 3 and outcome.engine.games == 0
    said = [news.get_nowait() for _ in range(news.qsize())]
    assert said == [f"KataGo judging {record} game {n} of 3" for n in (1, 2, 3)] + [""]


def test_the_batch_log_goes_on_while_a_file_takes_long(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from sgfcheck.cli.progress import batch_progress, log_line
    from sgfcheck.output.summary import Summary
    from sgfcheck.run.news import EngineNews

    summary = Summary(files=393, games=800, elapsed=40.0, engine_games=6, engine_seconds=14.9,
                      engine_refused=12)
    said = "KataGo judging a.sgf game 3 of 20"
    assert log_line(summary, said) == (
        "sgfcheck batch: 393 files, 800 games, 20 games/s; engines: 6 position(s) in 14.9 s, "
        "12 not asked; KataGo judging a.sgf game 3 of 20")
    # With the total known: of how many, and the time left at the speed so far.
    assert log_line(summary, None, 2471) == (
        "sgfcheck batch: 393 of 2471 files, 800 games, 20 games/s, about 4 min left; engines: "
        "6 position(s) in 14.9 s, 12 not asked")
    monkeypatch.setattr(EngineNews, "latest", said)
    monkeypatch.setattr("sgfcheck.cli.progress.showing", lambda quiet: False)
    progress, finish = batch_progress(["in/"], quiet=False, every=0.2)
    progress(summary)  # one file done; then none for a while
    try:
        for _ in range(200):
            if capsys.readouterr().err.count(said) >= 1:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the log said nothing while the file took long")
    finally:
        finish()


STUBBORN = """import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c",
                          "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                          "time.sleep(600)"])
with open(sys.argv[0] + ".pids", "w") as pids:
    pids.write(f"{os.getpid()} {child.pid}\\n")
sys.stdin.close()  # the end of its input changes nothing
sys.stderr.write("Started, ready to begin handling requests\\n"); sys.stderr.flush()
while True:
    time.sleep(1)
"""


def _alive(pid: int) -> bool:
    """The process runs (a zombie no parent reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat_file:
            return stat_file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_an_engine_that_ignores_sigterm_and_its_input_ends_with_the_command(
        tmp_path: Path) -> None:
    # Found by an attacker's probe: an engine that ignores SIGTERM and the end of its input was
    # left running (parent 1) after score ended. It is ended, with what it started, by kill.
    env = fake_katago(tmp_path, STUBBORN)
    record = tmp_path / "game.sgf"
    record.write_text(walls_game(9, 9, 2, 6), encoding="ascii")
    done = run_sgfcheck(["score", str(record), "--dead-stones", "katago", "--limit",
                         "engine-game=1"], env, tmp_path)
    assert done.returncode in (1, 3) and "Traceback" not in done.stderr
    pids = [int(p) for p in Path(env["SGFCHECK_KATAGO"] + ".pids").read_text().split()]
    for _ in range(100):  # the kill is sent before the command returns; the kernel ends them
        if not any(_alive(pid) for pid in pids):
            break
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in pids), pids


def test_a_file_past_its_time_limit_keeps_every_games_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Any slow stage, not the solver alone: the time limit that ends while a game is counted
    # leaves every game its check's findings (never one SGF031 row in their place).
    import sgfcheck.scoring.adjudicate as adjudicate
    from sgfcheck.records.items import WorkItem
    from sgfcheck.run.batch import BatchOptions, process_item
    from sgfcheck.run.reportfile import ReportKind

    real = adjudicate.score_game

    def slow(report: object, settings: object, compare: bool = True) -> object:
        if report.game.index == 1:  # type: ignore[attr-defined]
            time.sleep(60)  # the alarm ends it
        return real(report, settings, compare)  # type: ignore[arg-type]

    monkeypatch.setattr(adjudicate, "score_game", slow)
    data = (b"(;GM[1]FF[4]SZ[9];B[ee];W[ee])(;GM[1]FF[4]SZ[9];B[cc];W[cc])"
            b"(;GM[1]FF[4]SZ[9];B[dd])")
    options = BatchOptions.of(jobs=1, report_kind=ReportKind.JSONL, timeout=2)
    outcome = process_item(WorkItem("slow.sgf", None, data), options)
    assert outcome.timed_out and len(outcome.rows) == 3
    assert [g.illegal for g in outcome.games] == [("occupied point",), ("occupied point",), ()]
    rows = [json.loads(row) for row in outcome.rows]
    assert [r["verdict"] for r in rows] == ["illegal moves", "illegal moves", "clean"]
    assert [f["code"] for f in rows[0]["file_findings"]] == ["SGF031"]
    assert "the games from game" in rows[0]["file_findings"][0]["message"]
    assert rows[1]["result_check"] is None and rows[2]["result_check"] is None


def test_engines_list_found_does_not_start_katago(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 62 (3): ``engines list`` takes seconds (KataGo loads its network to answer one
    question); ``--found`` says what is installed without starting it. The stand-in here never
    becomes ready: started, it would hold the command for its whole bound."""
    from typer.testing import CliRunner

    from sgfcheck.cli.app import app
    from sgfcheck.judge import install

    monkeypatch.setattr(install, "opencl_present", lambda: True)
    env = fake_katago(tmp_path, NEVER_READY)
    result = CliRunner().invoke(app, ["engines", "list", "--found"],
                                env={"COLUMNS": "100000", **env})  # no line wrapped
    katago = next(line for line in result.output.splitlines() if line.startswith("katago:"))
    assert katago == (f"katago: usable - {env['SGFCHECK_KATAGO']}, model "
                      f"{env['SGFCHECK_KATAGO_MODEL']}, config {env['SGFCHECK_KATAGO_CONFIG']}; "
                      "found (not started)")
    assert not list(tmp_path.glob("katago.log"))  # never run
