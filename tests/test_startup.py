"""Start-up: ``--version`` loads nothing of the library, ``--help`` only the command line, and each
command what it uses (measured in time by bench/startup.py; here, by the modules loaded)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT

PROBE = """
import json, sys
sys.argv = ["sgfcheck", *{args!r}]
from sgfcheck.cli.app import app
try:
    app()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded(*args: str) -> set[str]:
    """The modules loaded by running the command line with these arguments."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(args=list(args))], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


LIBRARY = ("sgfcheck.records", "sgfcheck.replay", "sgfcheck.judge", "sgfcheck.scoring",
           "sgfcheck.run", "sgfcheck.output.text", "sgfcheck.output.schema")


def test_version_loads_nothing_of_the_library() -> None:
    mods = loaded("--version")
    ours = {m for m in mods if m.startswith("sgfcheck")}
    assert ours <= {"sgfcheck", "sgfcheck.version", "sgfcheck.cli", "sgfcheck.cli.app",
                    "sgfcheck.cli.exits", "sgfcheck.status", "sgfcheck.core",
                    "sgfcheck._core", "sgfcheck.engineregistry"}, sorted(ours)
    # (the registry of engines is plain data: the engines' words of status are made from it)


def test_help_loads_the_command_line_only() -> None:
    mods = loaded("--help")
    assert "sgfcheck.cli.check" in mods and "sgfcheck.cli.batch" in mods
    assert not [m for m in mods if m.startswith(LIBRARY)]


def test_a_command_loads_what_it_uses() -> None:
    mods = loaded("check", str(FIXTURES / "ko.sgf"))
    assert "sgfcheck.replay.check" in mods and "sgfcheck.output.text" in mods
    # Nothing of counting, judging, batches, other commands, HTML or XML escaping.
    unused = ("sgfcheck.scoring", "sgfcheck.judge", "sgfcheck.run", "sgfcheck.output.html",
              "sgfcheck.output.schema", "sgfcheck.cli.batch", "sgfcheck.cli.score", "xml",
              "pebble", "tarfile")
    assert not [m for m in mods if m.startswith(unused)]


def test_pictures_need_no_xml_package() -> None:
    # xml.sax's escaping brought urllib, http and ssl along; html's escaping is enough.
    mods = loaded("diagram", str(FIXTURES / "seki.sgf"))
    assert "sgfcheck.output.svg" in mods and not [m for m in mods if m.startswith("xml")]


def test_the_console_script_ends_with_its_status_and_all_its_output(tmp_path: Path) -> None:
    """main() ends the process itself once the output is flushed: every line reaches a file
    and a pipe, and the exit status is the command's."""
    records = sorted(str(p) for p in FIXTURES.glob("*.sgf"))
    out = tmp_path / "scores.jsonl"
    with out.open("w") as stream:
        done = subprocess.run([sys.executable, "-m", "sgfcheck", "score", "--engine", "none",
                               "--format", "json", *records], stdout=stream,
                              stderr=subprocess.PIPE, cwd=ROOT, check=False)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(records)
    assert all(json.loads(line)["file"] in records for line in lines)
    assert done.returncode == 1  # the fixtures hold illegal moves
    piped = subprocess.run([sys.executable, "-m", "sgfcheck", "check",
                            str(FIXTURES / "ko.sgf")], capture_output=True, text=True,
                           cwd=ROOT, check=False)
    assert piped.returncode == 1 and "RUL004" in piped.stdout and piped.stdout.endswith("\n")
    clean = subprocess.run([sys.executable, "-m", "sgfcheck", "rules", "--format", "json"],
                           capture_output=True, text=True, cwd=ROOT, check=False)
    assert clean.returncode == 0 and json.loads(clean.stdout)
    usage = subprocess.run([sys.executable, "-m", "sgfcheck", "chekc"], capture_output=True,
                           text=True, cwd=ROOT, check=False)
    assert usage.returncode == 2 and usage.stdout == "" and "check" in usage.stderr


def test_the_local_pool_gives_pebble_its_poll_back() -> None:
    from pebble.common.types import CONSTS

    from sgfcheck.run.executor import POLL_SECONDS, local_pool

    before = CONSTS.sleep_unit
    with local_pool(1, _nothing) as pool:
        assert CONSTS.sleep_unit == POLL_SECONDS
        assert pool.current.schedule(_nothing).result(timeout=30) is None
    assert CONSTS.sleep_unit == before


def _nothing() -> None:
    return None


def _rows(size: int) -> str:
    return "x" * size


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="a pipe's size is set only on Linux (F_SETPIPE_SZ)")
def test_the_local_pools_pipes_hold_a_chunks_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipes the local pool's channels are made of hold a megabyte (in the default 64 KB a
    worker waited for the main process to read a chunk's rows); the pool still hands back what
    a task made, here ten times what a default pipe holds."""
    import fcntl

    from sgfcheck.run import executor

    most = int(Path("/proc/sys/fs/pipe-max-size").read_text())
    if most < executor.PIPE_BYTES:
        pytest.skip(f"this system lets a pipe hold {most} bytes at most (pipe-max-size)")
    sizes: list[int] = []
    pipe = executor.RoomyPipes.Pipe

    def pipe_and_look(self: executor.RoomyPipes, duplex: bool = True) -> tuple[Any, Any]:
        ends = pipe(self, duplex)
        sizes.extend(fcntl.fcntl(end.fileno(), fcntl.F_GETPIPE_SZ) for end in ends)
        return ends

    monkeypatch.setattr(executor.RoomyPipes, "Pipe", pipe_and_look)
    with executor.local_pool(1, _nothing) as pool:
        made = pool.current.schedule(_rows, (640 * 1024,)).result(timeout=60)
    assert made == "x" * (640 * 1024)
    # pebble's two channels, each a pipe: both ends of each say a megabyte
    assert len(sizes) >= 4 and set(sizes) == {executor.PIPE_BYTES} == {1024 * 1024}
