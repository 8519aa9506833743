"""The registry of engines: every list of engines is made from it, and a third engine is two
files, its module and its entry (issue 63)."""

from __future__ import annotations

import filecmp
import importlib
import io
import json
import os
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

from conftest import FIXTURES

from sgfcheck import engineregistry as registry
from sgfcheck import findings as F
from sgfcheck.judge import engines
from sgfcheck.status import ENGINE_JUDGES, ENGINE_NAMES, ENGINE_SOURCES, DeadStoneChoice, Source

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sgfcheck"


def test_every_list_of_engines_is_made_from_the_registry() -> None:
    """Issue 63: adding an engine touched 11 files (three lists of names, words in three more,
    KataGo by name where a mismatch is confirmed). Every list is now made from one registry."""
    from sgfcheck.cli.options import DEAD_STONES_HELP, ENGINE_HELP
    from sgfcheck.counting.judged import _BASIS, Basis
    from sgfcheck.output.scores import _DECIDERS, _SOURCE_WORDS
    from sgfcheck.settings import EngineName

    names = [e.name for e in registry.ENGINES]
    assert names == ["katago", "gnugo"]  # the order --engine auto asks them in
    assert set(engines.ENGINES) == set(engines.INSTALLED) == set(names)
    # The word lists hold the engines where they stood when they were spelled by hand.
    assert [c.value for c in DeadStoneChoice] == ["auto", "markup", "estimate", "benson",
                                                  "gnugo", "katago", "none"]
    assert [c.value for c in EngineName] == ["auto", "none", "gnugo", "katago"]
    assert [s.value for s in Source] == ["--dead", "--alive", "markup", "benson", "estimate",
                                         "gnugo", "katago", "rules", "seki analysis", "none"]
    assert Source("katago") is Source.KATAGO and Source.KATAGO.name == "KATAGO"
    assert {c.value for c in ENGINE_JUDGES} == {n.value for n in ENGINE_NAMES} == set(names)
    assert {s.value for s in ENGINE_SOURCES} == set(names)
    # Each start and finder is named by reference and imported when asked: each resolves.
    for e in registry.ENGINES:
        for reference in (e.start, e.found, e.status):
            module, _, name = reference.partition(":")
            assert callable(getattr(importlib.import_module(module), name)), reference
    assert [registry.shown_name(n) for n in names] == ["KataGo", "GNU Go"]
    for e in registry.ENGINES:
        assert _BASIS[Source(e.name)] is Basis.ENGINE
        assert (_SOURCE_WORDS[Source(e.name)], _DECIDERS[Source(e.name)]) == (
            f"{e.shown}'s dead stones", e.shown)
    # Each engine's failure is a finding of its own, made from its entry, in the codes' order.
    assert {name: code.code for name, code in F.ENGINE_FAILURES.items()} == {
        "gnugo": "LIF001", "katago": "LIF002"}
    assert [(c.code, c.rule) for c in F.ALL_CODES if c.family == "LIF"] == [
        ("LIF001", "GNU Go failed"), ("LIF002", "KataGo failed"), ("LIF003", "engine time spent")]
    from sgfcheck.judge.gnugo import GnuGoError
    from sgfcheck.judge.katago import KataGoError
    assert (GnuGoError.code.code, KataGoError.code.code) == ("LIF001", "LIF002")
    # The command line's help names each engine from its entry.
    assert ("gnugo (ask GNU Go: Debian package gnugo (GNU Go 3.8), or SGFCHECK_GNUGO), katago "
            "(ask KataGo: sgfcheck engines install katago), none (every stone alive). An engine "
            "that fails is finding LIF001 (GNU Go) or LIF002 (KataGo)") in DEAD_STONES_HELP
    assert "the first installed of KataGo, GNU Go" in ENGINE_HELP
    assert "gnugo or katago (also the chains the estimate cannot decide" in ENGINE_HELP
    # engines list: every engine of the registry, by name, and none started when asked not to.
    assert [s.name for s in engines.statuses(start=False)] == ["gnugo", "katago"]


def _names_an_engine(path: Path, names: set[str]) -> list[int]:
    """The lines of a module that name an engine in its code: an engine's member of a word list
    (``Source.KATAGO``) or its name as a string of its own (``"katago"``)."""
    members = {n.upper() for n in names}
    found = []
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline))
    for before, token in zip(tokens, tokens[1:], strict=False):
        if (token.type == tokenize.NAME and token.string in members and before.string == "."
                or token.type == tokenize.STRING and token.string.strip("\"'") in names):
            found.append(token.start[0])
    return found


def test_no_module_but_the_registry_and_the_engines_own_names_an_engine() -> None:
    """Issue 63: a third engine is its own module and its registry entry. The word lists, the
    findings, the dead-stone sources, the estimate, the settings, the help and ``engines list``
    name none: they are made from the registry."""
    own = {"sgfcheck/engineregistry.py",
           "sgfcheck/cli/engines.py",  # installing KataGo is a command of its own
           "sgfcheck/rules/spellings.py"}  # "katago" there is KataGo's rules, a ruleset's name
    for e in registry.ENGINES:
        for reference in (e.start, e.found, e.status):
            own.add(reference.partition(":")[0].replace(".", "/") + ".py")
    names = {e.name for e in registry.ENGINES}
    named = [f"{path.relative_to(ROOT)}:{n}" for path in sorted(PACKAGE.rglob("*.py"))
             if str(path.relative_to(ROOT)) not in own for n in _names_an_engine(path, names)]
    assert named == []


TOY_MODULE = '''"""A toy engine, for a test: a lone stone is dead, every other chain alive."""

from __future__ import annotations

import os

from sgfcheck import findings as F
from sgfcheck.colour import Colour
from sgfcheck.judge.interface import EngineError, EngineJudgement, EngineStatus
from sgfcheck.records.context import GameContext
from sgfcheck.replay.board import Board

NAME = "toy"


class ToyError(EngineError):
    code = F.ENGINE_FAILURES[NAME]


class Toy:
    name = NAME

    def judge(self, board: Board, context: GameContext, to_move: Colour) -> EngineJudgement:
        if os.environ.get("TOY_FAILS"):
            raise ToyError("the toy refused the position (test)")
        dead = {chain.stones[0] for chain in board.chains() if len(chain.stones) == 1}
        return EngineJudgement(dead, notes=[f"toy: {len(dead)} lone stone(s) dead"])

    def close(self) -> None:
        pass


def installed() -> bool:
    return True


def status(start: bool = True) -> EngineStatus:
    return EngineStatus(NAME, True, "built in (test)")
'''

TOY_ENTRY = '''    EngineEntry("toy", "Toy", "the toy's word", "{code}", "nothing to install",
                "sgfcheck.judge.toy:Toy", "sgfcheck.judge.toy:installed",
                "sgfcheck.judge.toy:status"),
)
"""Every engine, in the order'''


def _with_a_third_engine(tmp_path: Path, code: str) -> Path:
    """A copy of the package with a third engine: its module and its entry, nothing else."""
    copy = tmp_path / "copy"
    shutil.copytree(PACKAGE, copy / "sgfcheck", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "sgfcheck" / "judge" / "toy.py").write_text(TOY_MODULE, encoding="utf-8")
    entries = copy / "sgfcheck" / "engineregistry.py"
    text = entries.read_text(encoding="utf-8")
    anchor = ')\n"""Every engine, in the order'
    assert text.count(anchor) == 1
    entries.write_text(text.replace(anchor, TOY_ENTRY.format(code=code)), encoding="utf-8")
    return copy


def _changed(left: Path, right: Path, inside: Path = Path()) -> list[str]:
    """The files that differ between two copies of the package, or are in one only."""
    compared = filecmp.dircmp(left, right, ignore=["__pycache__"])
    out = [str(inside / n) for n in compared.diff_files + compared.right_only
           + compared.left_only]
    for name in compared.common_dirs:
        out += _changed(left / name, right / name, inside / name)
    return sorted(out)


def _sgfcheck(copy: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The copy's sgfcheck (its folder first on the path, whatever is installed)."""
    clean = {k: v for k, v in os.environ.items() if k != "SGFCHECK_REQUIRE_COMPILED"}
    return subprocess.run([sys.executable, "-m", "sgfcheck", *args], cwd=copy,
                          env={**clean, "PYTHONPATH": str(copy), "COLUMNS": "200", **env},
                          capture_output=True, text=True, timeout=300, check=False)


def test_a_third_engine_is_its_module_and_its_registry_entry(tmp_path: Path) -> None:
    copy = _with_a_third_engine(tmp_path, "LIF004")
    assert _changed(PACKAGE, copy / "sgfcheck") == ["engineregistry.py", "judge/toy.py"]
    record = str(FIXTURES / "dead-in-territory.sgf")  # White's lone H5 is dead: W+9.5

    done = _sgfcheck(copy, "score", record, "--dead-stones", "toy", "--format", "json")
    assert done.returncode == 0, done.stderr
    (game,) = json.loads(done.stdout)["games"]
    dead, check = game["dead_stones"], game["result_check"]
    assert (dead["points"], dead["source"], dead["notes"]) == (
        ["H5"], "toy", ["toy: 1 lone stone(s) dead"])
    assert (check["status"], check["computed"], check["basis"]) == ("match", "W+9.5", "engine")

    # Its failure is the finding its entry names, and only stones proven dead are removed.
    done = _sgfcheck(copy, "score", record, "--dead-stones", "toy", "--format", "json",
                     TOY_FAILS="1")
    (game,) = json.loads(done.stdout)["games"]
    (failed,) = [f for f in game["findings"] if f["code"] == "LIF004"]
    assert failed["message"].startswith("the toy refused the position (test); ")
    assert game["dead_stones"]["source"] != "toy"

    # The estimate asks it (--engine) and engines list lists it, by the name of its entry.
    done = _sgfcheck(copy, "score", record, "--dead-stones", "estimate", "--engine", "toy",
                     "--format", "json")
    assert done.returncode == 0, done.stderr
    done = _sgfcheck(copy, "engines", "list")
    assert "toy: usable - built in (test)" in done.stdout
    done = _sgfcheck(copy, "score", "--help")
    assert "toy (ask Toy: nothing to install)" in " ".join(done.stdout.split())


def test_an_engine_entry_that_reuses_a_finding_code_fails_on_import(tmp_path: Path) -> None:
    copy = _with_a_third_engine(tmp_path, "LIF003")  # engine time spent
    done = _sgfcheck(copy, "check", str(FIXTURES / "ko.sgf"))
    assert (done.returncode, done.stdout) == (1, "")
    assert "ValueError: the finding code LIF003 is made twice" in done.stderr
