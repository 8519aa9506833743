"""Escalation: with an engine configured (``--engine katago``), the estimate asks it only about
the chains it cannot decide, and each chain's source says who decided it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from test_katago import needs_katago

from sgfcheck.findings import ENGINE_FAILURES
from sgfcheck.judge import deadstones
from sgfcheck.judge.interface import EngineJudgement
from sgfcheck.judge.katago import KataGoError
from sgfcheck.output.reasons import sentence as said
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import DeadStoneChoice, EngineName, Settings
from sgfcheck.status import Source, Status

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
LIF_KATAGO = ENGINE_FAILURES["katago"]
UNSETTLED = CORPUS / "kgs" / "KGS2001" / "2000-11-11-5.sgf"
"""A KGS game (resigned mid-fight) the estimate leaves three chains uncertain in (W Q11, W D7,
W G5) and decides four with a confidence under 0.7 (B G11, H9, L9, M8, dead); KataGo, asked with
each side to move, keeps W Q11 and W D7 alive and leaves the other five unsettled (dead with
one side to move, alive with the other)."""
UNSETTLED_BY_KATAGO = ["G11", "G5", "H9", "L9", "M8"]


def estimate(path: Path, engine: EngineName) -> deadstones.DeadStones:
    options = Settings(dead_stones=DeadStoneChoice.ESTIMATE, engine=engine)
    dead = score_file(str(path), options).games[0].dead
    assert dead is not None
    return dead


def test_a_settled_position_never_asks_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_call(*args: object) -> None:
        raise AssertionError("the engine was asked about a settled position")

    monkeypatch.setattr(deadstones, "ask_engine", no_call)
    for name in ("dead-in-territory.sgf", "three-groups.sgf", "capture.sgf"):
        dead = estimate(FIXTURES / name, EngineName.KATAGO)
        assert dead.judgement is not None
        assert all(c.source is not Source.KATAGO for c in dead.judgement.chains)


def test_an_engine_failure_leaves_the_estimate_and_says_so(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    if not UNSETTLED.exists():
        pytest.skip(f"shared corpus not found at {CORPUS}")

    def fails(*args: object) -> None:
        raise KataGoError("KataGo stopped (test)")

    monkeypatch.setattr(deadstones, "ask_engine", fails)
    failed = estimate(UNSETTLED, EngineName.KATAGO)
    alone = estimate(UNSETTLED, EngineName.NONE)
    assert failed.points == alone.points
    assert [c.stones for c in failed.uncertain] == [c.stones for c in alone.uncertain]
    assert [(f.code, f.message) for f in failed.findings] == [
        (LIF_KATAGO, "KataGo stopped (test); the estimate's own decisions stand")]


def test_katago_decides_only_the_doubtful_chains() -> None:
    needs_katago()
    if not UNSETTLED.exists():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    alone = estimate(UNSETTLED, EngineName.NONE)
    asked = estimate(UNSETTLED, EngineName.KATAGO)
    assert alone.judgement is not None and asked.judgement is not None
    before = {c.stones[0]: c for c in alone.judgement.chains}
    doubtful = {first for first, c in before.items() if c.source is Source.ESTIMATE and (
        c.status is Status.UNCERTAIN or c.confidence < deadstones.ESCALATE_BELOW)}
    assert len(doubtful) == 7 and len(alone.uncertain) == 3
    for chain in asked.judgement.chains:
        first = chain.stones[0]
        if first in doubtful:
            assert chain.source is Source.KATAGO
        else:  # proofs and sure decisions are the estimate's, unchanged
            assert chain == before[first]
    board = score_file(str(UNSETTLED)).games[0].position.board  # type: ignore[union-attr]
    assert sorted(board.name(c.stones[0]) for c in asked.uncertain) == UNSETTLED_BY_KATAGO
    assert any("decided by KataGo's ownership" in note for note in asked.notes)
    # The stones KataGo kills and revives replace the estimate's decisions on the doubtful chains,
    # and only there.
    assert asked.points == (alone.points - {p for f in doubtful for p in before[f].stones}) | {
        p for c in asked.judgement.chains if c.source is Source.KATAGO
        and c.status is Status.DEAD for p in c.stones}


def test_life_command_names_katago_as_the_source() -> None:
    needs_katago()
    if not UNSETTLED.exists():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    done = subprocess.run([sys.executable, "-m", "sgfcheck", "life", str(UNSETTLED),
                           "--dead-stones", "estimate", "--engine", "katago", "--format",
                           "json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    chains = json.loads(done.stdout)["games"][0]["chains"]
    by_source: dict[str, int] = {}
    for chain in chains:
        by_source[chain["source"]] = by_source.get(chain["source"], 0) + 1
    assert by_source["katago"] == 7
    assert sorted(c["points"][0] for c in chains if c["status"] == "uncertain") == [
        "G11", "G5", "H9", "L9", "M8"]
    q11 = next(c for c in chains if "Q11" in c["points"])
    assert (q11["colour"], q11["status"], q11["source"]) == ("W", "alive", "katago")


def test_batch_parts_hand_the_engine_to_every_worker(tmp_path: Path) -> None:
    # batch --out-dir used to build its own options and left --engine out: the workers ran the
    # estimate alone. Now the one settings record reaches them.
    needs_katago()
    if not UNSETTLED.exists():
        pytest.skip(f"shared corpus not found at {CORPUS}")

    def row(engine: str) -> dict[str, object]:
        parts = tmp_path / f"parts-{engine}"
        done = subprocess.run([sys.executable, "-m", "sgfcheck", "batch", str(UNSETTLED),
                               "--out-dir", str(parts), "--dead-stones", "estimate", "--engine",
                               engine, "--judge-unscored", "--jobs", "1", "-q", "--fail-on",
                               "never"],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        report = tmp_path / f"report-{engine}.jsonl"
        merged = subprocess.run([sys.executable, "-m", "sgfcheck", "report", "merge", str(parts),
                                 "-o", str(report)], capture_output=True, text=True)
        assert merged.returncode == 0, merged.stderr
        (line,) = report.read_text().splitlines()
        found: dict[str, object] = json.loads(line)
        return found

    alone, asked = row("none"), row("katago")
    dead_alone, dead_asked = alone["dead_stones"], asked["dead_stones"]
    assert isinstance(dead_alone, dict) and isinstance(dead_asked, dict)
    assert len(dead_alone["estimate"]["uncertain"]) == 3
    assert not any("KataGo" in note for note in dead_alone["notes"])
    unsettled = dead_asked["estimate"]["uncertain"]
    assert isinstance(unsettled, list) and len(unsettled) == 5
    assert any("7 chain(s) the estimate could not decide" in note and "KataGo" in note
               for note in dead_asked["notes"])


def test_a_mismatch_on_the_estimate_is_put_to_katago_before_it_is_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # unfinished.sgf is W+9.5 with every boundary closed; RE[W+20.5] lies 10 points beyond the
    # band: on the estimate's dead stones a mismatch. With --engine auto (the default) and
    # KataGo installed, the game is counted again on KataGo's dead stones, and the verdict rests
    # on them, saying why KataGo was asked; --engine none keeps the estimate alone.
    needs_katago()
    path = tmp_path / "wrong.sgf"
    path.write_bytes((FIXTURES / "unfinished.sgf").read_bytes().replace(b"RE[W+10.5]",
                                                                        b"RE[W+20.5]"))
    alone = score_file(path, Settings(engine=EngineName.NONE)).games[0]
    assert alone.result_check is not None and alone.dead is not None
    assert (alone.result_check.status, alone.dead.source) == ("mismatch", Source.ESTIMATE)
    assert "KataGo" not in said(alone.result_check)
    (game,) = score_file(path, Settings()).games
    rc = game.result_check
    assert rc is not None and game.dead is not None
    assert (rc.status, rc.basis, game.dead.source) == ("mismatch", "engine", Source.KATAGO)
    assert said(rc).endswith(
        "; KataGo's dead stones confirm the mismatch (the estimate's dead stones gave W+9.5 "
        "(japanese with komi 0.5) against RE[W+20.5] too)")
    assert game.dead.notes[0] == (
        "asked of KataGo (--engine auto): the estimate's dead stones gave W+9.5 (japanese with "
        "komi 0.5) against RE[W+20.5], a mismatch; --engine none keeps the estimate alone")
    # A match on the estimate is never put to KataGo (the cost is for alarms only).
    asked: list[object] = []
    monkeypatch.setattr(deadstones, "ask_engine",
                        lambda *a: asked.append(a) or EngineJudgement(set()))
    right_path = tmp_path / "right.sgf"
    right_path.write_bytes(path.read_bytes().replace(b"RE[W+20.5]", b"RE[W+9.5]"))
    (right,) = score_file(right_path, Settings()).games
    assert right.result_check is not None and right.result_check.status == "match"
    assert asked == []


def test_katago_that_fails_leaves_the_estimates_mismatch_with_a_note(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    needs_katago()

    def fails(*args: object) -> None:
        raise KataGoError("KataGo stopped (test)")

    monkeypatch.setattr(deadstones, "ask_engine", fails)
    path = tmp_path / "wrong.sgf"
    path.write_bytes((FIXTURES / "unfinished.sgf").read_bytes().replace(b"RE[W+10.5]",
                                                                        b"RE[W+20.5]"))
    (game,) = score_file(path, Settings()).games
    assert game.result_check is not None and game.dead is not None
    assert (game.result_check.status, game.dead.source) == ("mismatch", Source.ESTIMATE)
    assert game.dead.notes[-1] == ("KataGo, asked to confirm this mismatch (--engine auto), "
                                   "failed: KataGo stopped (test); every stone is counted alive; "
                                   "the estimate's verdict stands")
    assert LIF_KATAGO not in [f.code for f in game.findings]


def test_an_engine_that_fails_keeps_the_stones_proven_dead_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # pass-alive.sgf: the white stone at C5 is dead whatever anyone plays (Benson). When KataGo,
    # asked for the dead stones, fails, that proof is what the count keeps, and the finding
    # says so; where nothing is proven, it says every stone is counted alive.
    def fails(*args: object) -> None:
        raise KataGoError("KataGo stopped (test)")

    monkeypatch.setattr(deadstones, "ask_engine", fails)
    asked = Settings(dead_stones=DeadStoneChoice.KATAGO, engine=EngineName.NONE)
    (game,) = score_file(FIXTURES / "pass-alive.sgf", asked).games
    assert game.dead is not None and game.position is not None
    assert game.dead.source is Source.BENSON
    assert [game.position.board.name(p) for p in game.dead.points] == ["C5"]
    assert [(f.code, f.message) for f in game.dead.findings] == [
        (LIF_KATAGO, "KataGo stopped (test); only the stones proven dead whatever anyone plays "
                     "(Benson) are removed")]
    (none,) = score_file(FIXTURES / "seki.sgf", asked).games
    assert none.dead is not None and none.dead.points == set()
    assert [f.message for f in none.dead.findings] == [
        "KataGo stopped (test); every stone is counted alive"]
