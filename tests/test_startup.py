"""Start-up: ``--version`` loads nothing of the library, ``--help`` only the command line, and each
command what it uses (measured in time by bench/startup.py; here, by the modules loaded)."""

from __future__ import annotations

import json
import subprocess
import sys

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
                    "sgfcheck._core"}, sorted(ours)


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
