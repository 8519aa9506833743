"""A second opinion where the verdict stays open (``--engine auto``): which verdicts of the
estimate go to an engine, how the two verdicts make one, and that the engines' time bounds are
safeties that a slow or busy engine does not reach."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import FIXTURES
from test_engine_time import fake_katago, run_sgfcheck, walls_game
from test_katago import needs_katago

from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.limits import DEFAULT_LIMITS
from sgfcheck.output.reasons import sentence as said
from sgfcheck.records.results import parse_result
from sgfcheck.run.batch import BatchOptions
from sgfcheck.scoring import secondopinion
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import DeadStoneChoice, EngineName, Settings
from sgfcheck.status import Source
from sgfcheck.verdict.decide import CheckStatus, Reason, ResultCheck
from sgfcheck.verdict.reasons import Plain

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
WEAKEST = CORPUS / "pro19" / "Pro" / "5p" / "1504273602019999733.sgf"
"""RE W+0.5. The estimate's playouts kill a 21-stone white group at G12 that lives: B+45.5 as it
stands, RE inside its band, open (RES128). KataGo's dead stones are the players' (the group
alive) and the last points played out give W+0.5 exactly."""


def _check(status: CheckStatus, code: str, computed: str = "W+0.5") -> ResultCheck:
    reason = Reason(code)
    assert reason.status is status, code
    return ResultCheck(reason, Plain(), computed=computed, reading="japanese with komi 6.5")


ESTIMATE = DeadStones(set(), Source.ESTIMATE, [])


def test_which_verdicts_are_put_to_an_engine() -> None:
    re = parse_result("W+0.5")
    assert secondopinion.wanted(_check(CheckStatus.MISMATCH, "RES112"), ESTIMATE, re)
    for code in ("RES122", "RES124", "RES127", "RES128", "RES129", "RES130"):
        assert secondopinion.wanted(_check(CheckStatus.UNVERIFIABLE, code), ESTIMATE, re), code
    # Open for reasons an engine does not change: no dead-stone information, the reading,
    # the komi, an assumption about the record.
    for code in ("RES121", "RES123", "RES125", "RES131", "RES132"):
        assert not secondopinion.wanted(_check(CheckStatus.UNVERIFIABLE, code), ESTIMATE,
                                        re), code
    assert not secondopinion.wanted(_check(CheckStatus.MATCH, "RES101"), ESTIMATE, re)
    # An open verdict on a winner alone: no count of the engine could decide it, so it is
    # not asked; a mismatch on it is.
    winner = parse_result("W+")
    assert winner.margin is None
    assert not secondopinion.wanted(_check(CheckStatus.UNVERIFIABLE, "RES128"), ESTIMATE,
                                    winner)
    assert secondopinion.wanted(_check(CheckStatus.MISMATCH, "RES112"), ESTIMATE, winner)
    # Only the estimate's verdicts: the players' markup is their word, not a judgement of ours.
    markup = DeadStones(set(), Source.MARKUP, [])
    assert not secondopinion.wanted(_check(CheckStatus.MISMATCH, "RES112"), markup, re)


def test_an_engines_exact_count_decides_an_open_verdict_and_a_band_does_not() -> None:
    kata = DeadStoneChoice.KATAGO
    open_ = _check(CheckStatus.UNVERIFIABLE, "RES128", "B+45.5")
    verdict, engines = secondopinion.combined(open_, _check(CheckStatus.MATCH, "RES102"), kata,
                                              True, "W+0.5")
    assert engines and verdict.status is CheckStatus.MATCH and verdict.code == "RES102"
    assert said(verdict).endswith(
        "; decided by KataGo's dead stones and ownership: the estimate left it open (RES128: "
        "RE lies in the count's band, which does not decide it)")
    # RE inside the engine's band, or its winner alone, is no count of RE: it stays open (such
    # matches took margins moved by 2 points on professional records), even where RE is the
    # band's count with every settled decision.
    for code, delta in (("RES104", 1.0), ("RES104", 0.0), ("RES103", None)):
        verdict, engines = secondopinion.combined(
            open_, replace(_check(CheckStatus.MATCH, code), delta=delta), kata, True, "W+0.5")
        assert not engines and verdict.status is CheckStatus.UNVERIFIABLE, code
        assert verdict.code == "RES128"
    assert said(verdict).endswith("; KataGo, asked too (--engine auto), counts W+0.5: RE's "
                                   "winner alone (RES103), so it stays open")
    # One judge's alarm against the other's doubt is no alarm.
    verdict, engines = secondopinion.combined(
        open_, _check(CheckStatus.MISMATCH, "RES112", "W+12.5"), kata, True, "W+0.5")
    assert not engines and verdict.status is CheckStatus.UNVERIFIABLE
    assert said(verdict).endswith(
        "; KataGo, asked too (--engine auto), counts W+12.5, a mismatch (RES112) the estimate "
        "does not confirm, so it stays open")
    # The estimate's mismatch stands only where the engine's count confirms it.
    wrong = _check(CheckStatus.MISMATCH, "RES112", "B+45.5")
    verdict, engines = secondopinion.combined(
        wrong, _check(CheckStatus.MISMATCH, "RES112", "B+44.5"), DeadStoneChoice.GNUGO,
        False, "W+0.5")
    assert engines and verdict.status is CheckStatus.MISMATCH
    assert said(verdict).endswith(
        "; GNU Go's dead stones confirm the mismatch (the estimate's dead stones gave B+45.5 "
        "(japanese with komi 6.5) against RE[W+0.5] too)")


def test_the_second_judge_is_katago_else_gnu_go_else_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from sgfcheck.judge import engines

    monkeypatch.setitem(engines.INSTALLED, "katago", lambda: True)
    monkeypatch.setitem(engines.INSTALLED, "gnugo", lambda: True)
    assert secondopinion.second_judge() is DeadStoneChoice.KATAGO
    monkeypatch.setitem(engines.INSTALLED, "katago", lambda: False)
    assert secondopinion.second_judge() is DeadStoneChoice.GNUGO
    monkeypatch.setitem(engines.INSTALLED, "gnugo", lambda: False)
    assert secondopinion.second_judge() is None


def test_gnu_go_gives_the_second_opinion_where_katago_is_absent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # unfinished.sgf is W+9.5 with every boundary closed; RE[W+20.5] is a mismatch on the
    # estimate's dead stones. Without KataGo, GNU Go is asked: its count (the same dead stones)
    # confirms it, and the verdict and the notes name GNU Go.
    from sgfcheck.judge import engines
    from sgfcheck.judge.gnugo import find_gnugo

    if find_gnugo() is None:
        pytest.skip("GNU Go is not installed (apt-get install gnugo)")
    monkeypatch.setitem(engines.INSTALLED, "katago", lambda: False)
    path = tmp_path / "wrong.sgf"
    path.write_bytes((FIXTURES / "unfinished.sgf").read_bytes().replace(b"RE[W+10.5]",
                                                                        b"RE[W+20.5]"))
    (game,) = score_file(path, Settings()).games
    rc = game.result_check
    assert rc is not None and game.dead is not None
    assert (rc.status, str(rc.basis), game.dead.source) == (CheckStatus.MISMATCH, "engine",
                                                            Source.GNUGO)
    assert said(rc).endswith(
        "; GNU Go's dead stones confirm the mismatch (the estimate's dead stones gave W+9.5 "
        "(japanese with komi 0.5) against RE[W+20.5] too)")
    assert game.dead.notes[0] == (
        "asked of GNU Go (--engine auto): the estimate's dead stones gave W+9.5 (japanese with "
        "komi 0.5) against RE[W+20.5], a mismatch; --engine none keeps the estimate alone")


def test_katago_decides_the_estimates_weakest_call() -> None:
    needs_katago()
    if not WEAKEST.exists():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    (alone,) = score_file(WEAKEST, Settings(engine=EngineName.NONE)).games
    rc = alone.result_check
    assert rc is not None and (rc.status, rc.code, rc.computed) == (
        CheckStatus.UNVERIFIABLE, "RES128", "B+45.5")
    (game,) = score_file(WEAKEST, Settings()).games
    rc = game.result_check
    assert rc is not None and game.dead is not None
    assert (rc.status, rc.code, rc.computed, str(rc.basis)) == (
        CheckStatus.MATCH, "RES102", "W+0.5", "engine")
    assert game.dead.source is Source.KATAGO
    assert game.dead.notes[0] == (
        "asked of KataGo (--engine auto): the estimate's dead stones gave B+45.5 (japanese with "
        "komi 6.5) against RE[W+0.5], open (RES128); --engine none keeps the estimate alone")
    # The 21-stone white group at G12 the playouts killed is alive on KataGo's word.
    assert game.position is not None and alone.dead is not None
    name = game.position.board.name
    assert "G12" in {name(p) for p in alone.dead.points}
    assert "G12" not in {name(p) for p in game.dead.points}


SLOW = """import json, sys, time
sys.stderr.write("Started, ready to begin handling requests\\n"); sys.stderr.flush()
for line in sys.stdin:
    query = json.loads(line)
    if "action" in query:
        continue
    time.sleep(1.5)  # a busy machine
    size = query["boardXSize"] * query["boardYSize"]
    print(json.dumps({"id": query["id"], "ownership": [0.0] * size}), flush=True)
"""


def test_a_slow_engine_is_waited_for_beyond_the_files_own_time(tmp_path: Path) -> None:
    # Each answer takes 1.5 s, the two of a game 3 s: more than the file's --timeout of 2 s
    # (once, the engines had half of it and the game lost KataGo's word: a busy machine's
    # verdict differed from a quiet one's). The engines' time comes on top of --timeout.
    record = tmp_path / "walls.sgf"
    record.write_text(walls_game(9, 9, 2, 6), encoding="ascii")
    env = fake_katago(tmp_path, SLOW)
    done = run_sgfcheck(["batch", "--jobs", "1", "--dead-stones", "katago", "--timeout", "2",
                         str(record), "--out", "r.jsonl", "--summary-json", "s.json"], env,
                        tmp_path)
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["timeouts"] == 0, done.stdout + done.stderr
    assert summary["engine"]["games"] == 1 and summary["engine"]["refused"] == 0
    (row,) = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [f["code"] for f in row["findings"] if f["code"] in ("LIF002", "LIF003")] == []
    assert row["dead_stones"]["source"] == "katago"


def test_the_files_time_limit_adds_the_engines_only_where_one_may_be_asked() -> None:
    limits = replace(DEFAULT_LIMITS, engine_file=120.0)
    asked = BatchOptions.of(dead_stones="auto", timeout=30.0, limits=limits)
    assert asked.timeout == 150.0
    assert asked.timeout_said == ("--timeout 30 and 120 s of engine time (--limit engine-file)")
    for quiet in (BatchOptions.of(timeout=30.0, limits=limits),  # markup: no engine
                  BatchOptions.of(dead_stones="auto", engine="none", timeout=30.0,
                              limits=limits),
                  BatchOptions.of(dead_stones="katago", timeout=0.0, limits=limits)):
        assert quiet.timeout == quiet.settings.timeout


def test_katago_gives_the_same_answer_in_every_process(tmp_path: Path) -> None:
    # The network sees the board as it stands (nnRandomize=false on its command line), not in
    # a symmetry drawn at random: two processes give the same rows, confidences included (drawn
    # at random, they differed by up to 0.001 and 7 rows of 40 professional games differed).
    needs_katago()
    runs = []
    for _ in range(2):
        done = run_sgfcheck(["score", "--dead-stones", "katago", "--format", "json",
                             str(FIXTURES / "dead-in-territory.sgf")], {}, tmp_path)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
    dead = runs[0]["games"][0]["dead_stones"]
    assert (dead["source"], dead["points"]) == ("katago", ["H5"])
    assert dead["notes"][1].startswith("least sure chain: W H5 (ownership 0.9")
