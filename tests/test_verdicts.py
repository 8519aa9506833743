"""Result verdicts: winner-only results, server conventions read openly, a mismatch only when it
survives every plausible reading, and the basis every verdict rests on."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import CORPUS, FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.output.reasons import sentence as said
from sgfcheck.records.record import load_bytes
from sgfcheck.records.servers import Server
from sgfcheck.scoring.adjudicate import GameScore, score_file
from sgfcheck.settings import Settings
from sgfcheck.verdict.decide import Basis, Reason, ResultCheck
from sgfcheck.verdict.reasons import Plain

runner = CliRunner()


def scored(path: Path, **options: object) -> GameScore:
    # The estimate's own verdicts: KataGo, where installed, is not asked (--engine none).
    options.setdefault("engine", "none")
    (game,) = score_file(path, Settings(**options)).games  # type: ignore[arg-type]
    assert game.result_check is not None
    return game


def checked_as(tmp_path: Path, record: bytes, result: bytes) -> ResultCheck:
    """The result check of ``record`` with ``result`` as its RE (written to a file first)."""
    path = tmp_path / "record.sgf"
    path.write_bytes(re.sub(rb"RE\[[^\]]*\]", b"RE[" + result + b"]", record, count=1))
    rc = scored(path).result_check
    assert rc is not None
    return rc


def codes(game: GameScore) -> list[str]:
    assert game.result_check is not None
    return [a.code.code for a in game.result_check.assumptions]


def test_a_winner_without_margin_is_checked_on_the_winner() -> None:
    game = scored(FIXTURES / "winner-only.sgf")
    rc = game.result_check
    assert rc is not None
    assert (rc.status, rc.reproduced, rc.computed, rc.delta) == ("match", "winner", "W+9.5", None)
    assert codes(game) == ["RES004"]
    assert "RES004" in [f.code.code for f in game.findings]


def test_a_false_winner_without_margin_is_a_mismatch(tmp_path: Path) -> None:
    path = tmp_path / "b.sgf"
    path.write_bytes((FIXTURES / "winner-only.sgf").read_bytes().replace(b"RE[W+0.0]",
                                                                         b"RE[B+0.0]"))
    rc = scored(path).result_check
    assert rc is not None and rc.status == "mismatch" and rc.computed == "W+9.5"


def test_fox_km0_with_a_half_point_result_is_read_with_komi() -> None:
    # KM[0] and W+15.5: no count with komi 0 has a half point; Japanese 6.5 gives W+15.5.
    game = scored(FIXTURES / "fox-komi-zero.sgf")
    rc = game.result_check
    assert rc is not None
    assert (rc.status, rc.reproduced, rc.reading) == ("match", "margin", "japanese with komi 6.5")
    assert rc.computed == "W+15.5" and game.scores[0].result_text == "W+9"
    assert codes(game) == ["RES002"]
    assert "komi cannot be 0" in rc.assumptions[0].message
    assert rc.basis is Basis.ESTIMATE and rc.finished


def test_a_falsified_fox_result_is_still_caught() -> None:
    rc = scored(FIXTURES / "fox-komi-zero-falsified.sgf").result_check
    assert rc is not None and rc.status == "mismatch"
    # Both readings the convention allows put the result outside the band, by 31 and 32 points.
    assert ("recorded B+15.5: the recorded result lies 31 point(s) outside the count's band "
            "under every reading checked (japanese with komi 6.5: W+15.5; chinese with komi "
            "7.5: W+16.5)") in said(rc)


def test_the_users_komi_switches_inference_off() -> None:
    game = scored(FIXTURES / "fox-komi-zero.sgf", komi=0.0)
    rc = game.result_check
    assert rc is not None and rc.status != "match" and codes(game) == []
    assert [o.reading.label for o in game.outcomes] == ["japanese with komi 0"]


def test_no_ru_reads_chinese_beside_japanese() -> None:
    game = scored(FIXTURES / "no-rules.sgf")
    rc = game.result_check
    assert rc is not None
    assert game.scores[0].result_text == "B+1.5"  # japanese, the default
    assert (rc.status, rc.reading, rc.computed) == ("match", "chinese with komi 0.5", "B+4.5")
    assert rc.basis is Basis.MARKUP and codes(game) == ["RES003"]


def test_an_unfinished_game_is_counted_as_a_band(tmp_path: Path) -> None:
    # W+9.5 as it stands, every boundary closed: a game stopped before two passes keeps one
    # point each way (the move in hand), so the band is W+8.5 .. W+10.5 and RE[W+10.5] lies in
    # it. But nothing is left open: no move changes the count, and the game finished as well as
    # possible by both sides is W+9.5. RE[W+10.5] is not that count but a point from it: not
    # confirmed (a solved count confirms a winner within half a point: RES105), not called a
    # mismatch either (a player may have filled a point of his own territory).
    game = scored(FIXTURES / "unfinished.sgf")
    rc = game.result_check
    assert rc is not None
    assert (rc.status, rc.code, rc.reproduced, rc.computed, rc.delta) == (
        "unverifiable", "RES127", None, "W+9.5", 1.0)
    assert rc.band is not None and (rc.band.low, rc.band.high) == (-10.5, -8.5)
    assert said(rc) == (
        "RE[W+10.5] lies in the count's band (W+8.5 .. W+10.5, japanese with komi 0.5) but is "
        "not the solved count (W+9.5 under japanese with komi 0.5: nothing left open: no move "
        "changes the count); the players may have lost points in the last moves, or counted "
        "otherwise: not called a mismatch")
    assert not rc.finished and codes(game) == []
    # In a band either side may win (the open boundary's W+14.5 .. W+18.5 is White's
    # throughout; the gote border's is not), RE two points from the solved count is not
    # confirmed by it.
    open_rc = checked_as(tmp_path, (FIXTURES / "open-boundary-9x9.sgf").read_bytes(),
                         b"W+17.5")
    assert (open_rc.status, open_rc.code) == ("match", "RES104")  # the band's winner
    unfinished = (FIXTURES / "unfinished.sgf").read_bytes()
    # The solved count itself, W+9.5: a match, resting on the finished game.
    rc = checked_as(tmp_path, unfinished, b"W+9.5")
    assert (rc.status, rc.reproduced, rc.computed) == ("match", "solved", "W+9.5")
    assert rc.finish is not None and rc.finish.solved and rc.finish.points == ()
    open_boundary = (FIXTURES / "open-boundary-9x9.sgf").read_bytes()
    # Two points beyond the band: too close to call on a stopped game.
    rc = checked_as(tmp_path, unfinished, b"W+12.5")
    assert rc.status == "unverifiable" and "too close to call" in said(rc)
    # Ten points beyond it, the winner right: nothing on the board is left open (no open
    # point, no unsettled chain), so the band is the count and the move in hand: a wrong
    # margin, a mismatch though the game did not end with two passes.
    rc = checked_as(tmp_path, unfinished, b"W+20.5")
    assert rc.status == "mismatch"
    assert said(rc) == (
        "computed W+9.5 (japanese with komi 0.5), recorded W+20.5: the recorded result lies 10 "
        "point(s) outside the count's band under every reading checked (japanese with komi 0.5: "
        "W+8.5 .. W+10.5); the game did not end with two passes, but nothing on the board is "
        "left open (no open point, no unsettled chain, no less sure decision moves the count): "
        "the band holds the move in hand")
    # The same in zi (10.75 zi = 21.5 points): the margin rests on reading the record's units.
    rc = checked_as(tmp_path, unfinished, b"W+10.75")
    assert rc.status == "unverifiable"
    assert "recorded W+10.75: the winner agrees, the margin lies 11 point(s) outside" in said(rc)
    assert "RE's margin is not a count in points as written (margin 10.75 read as zi" in said(rc)
    # A margin in neither whole nor half points cannot be a count at all.
    rc = checked_as(tmp_path, unfinished, b"W+20.2")
    assert rc.status == "unverifiable"
    assert ("RE's margin is not a count in points as written (not in whole or half points): the "
            "margin rests on reading the record's units, so it is not called a mismatch") \
        in said(rc)
    # With a point still open (C5 behind the gap at D5, band W+14.5 .. W+18.5), a margin 8
    # points off with the winner right may come from a count the record does not hold.
    rc = checked_as(tmp_path, open_boundary, b"W+26.5")
    assert rc.status == "unverifiable"
    assert ("recorded W+26.5: the winner agrees, the margin lies 8 point(s) outside the count's "
            "band (japanese with komi 6.5: W+14.5 .. W+18.5: open at C5)") in said(rc)
    assert "a stopped record's margin may come from a count the record does not hold" in said(rc)
    # With a komi of -9.5 the same position is worth W+0.5 with the settled points, its band
    # W+2.5 .. B+1.5: either colour may win it. Played out (Black to move seals at D5) it is
    # B+0.5: RE[W+0.5] lies in the band but is not that count: unverifiable (it was a match
    # while a band at most 4 points wide was taken to decide). RE[B+8.5] has a winner the band
    # allows but lies 7 points beyond it: nothing in the position gives it, a mismatch (it is
    # not the case above: the band does not confirm the winner).
    close = open_boundary.replace(b"KM[6.5]", b"KM[-9.5]")
    rc = checked_as(tmp_path, close, b"W+0.5")
    assert (rc.status, rc.reproduced, rc.computed) == ("unverifiable", None, "B+0.5")
    assert said(rc).startswith(
        "RE[W+0.5] lies in the count's band (W+2.5 .. B+1.5: open at C5, japanese with komi "
        "-9.5) but is not the solved count (B+0.5 under japanese with komi -9.5:")
    rc = checked_as(tmp_path, close, b"B+0.5")
    assert (rc.status, rc.reproduced) == ("match", "solved")
    rc = checked_as(tmp_path, close, b"B+8.5")
    assert rc.status == "mismatch"
    assert said(rc) == (
        "computed B+0.5 (japanese with komi -9.5), recorded B+8.5: the recorded result lies 7 "
        "point(s) outside the count's band under every reading checked (japanese with komi -9.5: "
        "W+2.5 .. B+1.5: open at C5); the game did not end with two passes, and the band does "
        "not confirm the recorded winner either (either colour may win it): no count of the "
        "position gives RE")
    # The same 6.7 points beyond, in a margin that is no count in points (B+8.2): it rests on
    # reading the record's units, not a mismatch; the reason does not say the winner agrees.
    rc = checked_as(tmp_path, close, b"B+8.2")
    assert rc.status == "unverifiable"
    assert ("recorded B+8.2: the recorded winner wins part of the band, the margin lies 6.7 "
            "point(s) outside the count's band") in said(rc)
    assert "RE's margin is not a count in points as written (not in whole or half points)" \
        in said(rc)
    # The other winner: a mismatch.
    rc = checked_as(tmp_path, unfinished, b"B+10.5")
    assert rc.status == "mismatch"


def test_agreed_markup_keeps_a_strict_margin(tmp_path: Path) -> None:
    # The players' dead stones and two passes: one point off is a mismatch, not a tolerance.
    path = tmp_path / "off.sgf"
    path.write_bytes((FIXTURES / "scoring-basic.sgf").read_bytes().replace(b"RE[B+1.5]",
                                                                          b"RE[B+2.5]"))
    rc = scored(path).result_check
    assert rc is not None and (rc.status, rc.basis, rc.delta) == ("mismatch", Basis.MARKUP, -1.0)


def test_fox_is_recognised_by_its_own_properties() -> None:
    fox = load_bytes((FIXTURES / "fox-komi-zero.sgf").read_bytes()).games[0]
    assert fox.server is Server.FOX
    gnugo = load_bytes(b"(;GM[1]SZ[9]AP[GNU Go:3.8]KM[0];B[ee])").games[0]
    assert gnugo.server is Server.UNKNOWN  # GNU Go itself writes AP[GNU Go:3.8]; Fox adds TC/TT
    both = load_bytes(b"(;GM[1]SZ[9]AP[GNU Go:3.8]AP[foxwq]KM[650];B[ee])").games[0]
    assert both.server is Server.FOX


def test_json_and_csv_show_the_basis_and_assumptions(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", str(FIXTURES / "fox-komi-zero.sgf"), "--format",
                                 "json"])
    rc = json.loads(result.output)["games"][0]["result_check"]
    assert (rc["status"], rc["basis"], rc["reading"]) == ("match", "estimate",
                                                          "japanese with komi 6.5")
    assert [a["code"] for a in rc["assumptions"]] == ["RES002"]
    out = tmp_path / "r.csv"
    runner.invoke(app, ["batch", str(FIXTURES / "fox-komi-zero.sgf"), str(FIXTURES /
                  "scoring-basic.sgf"), "--out", str(out), "--dead-stones", "auto",
                        "--summary-json", str(tmp_path / "s.json"), "--jobs", "1"])
    rows = out.read_text().splitlines()
    assert rows[0].endswith("result_check,result_basis,result_assumptions")
    assert rows[1].endswith("match,estimate,RES002") and rows[2].endswith("match,markup,")
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["result_checks_by_basis"] == {"estimate": {"match": 1},
                                                 "markup": {"match": 1}}


PRO = CORPUS / "pro19"


def pro(name: str) -> Path:
    if not PRO.is_dir():
        pytest.skip(f"the shared corpus is absent ({PRO})")
    found = list(PRO.rglob(name))
    assert found, name
    return found[0]


@pytest.mark.parametrize(
    ("name", "status", "reproduced", "reading", "computed", "assumed"),
    [
        # KM[0] and B+6.5: the last points played out, the count with komi 6.5 gives exactly
        # B+6.5.
        # A Fox record writes no passes: the last points start from White to move, the
        # opponent of the last move, an assumption said (RES011).
        ("1378473498019999334.sgf", "match", "solved", "japanese with komi 6.5", "B+6.5",
         ["RES002", "RES011"]),
        # KM[750] under RU[Japanese]: reproduced under chinese with komi 7.5.
        ("1513587459010001523.sgf", "match", "solved", "chinese with komi 7.5", "W+2.5",
         ["RES003", "RES011"]),
        # KM[650], B+1.5: the record's own reading.
        ("1497099420019999389.sgf", "match", "solved", "japanese with komi 6.5", "B+1.5",
         ["RES011"]),
        # W+0.0 at a finished position: the winner alone, under every reading (W+58 had the
        # uncertain N14 and A7, kept by White in 49% of the playouts, been counted alive).
        ("1441041939019999452.sgf", "match", "winner", "japanese with komi 0", "W+55",
         ["RES004"]),
        # B+0.0 on a game stopped at move 157 with 61% of the board open: no count decides it
        # (the estimate's count of that open board with the points its playouts settle: B+29;
        # B+26 as it stands).
        ("1497768676019999825.sgf", "unverifiable", None, "japanese with komi 0", "B+29",
         ["RES004"]),
    ],
)
def test_professional_fox_games(name: str, status: str, reproduced: str | None, reading: str,
                                computed: str, assumed: list[str]) -> None:
    game = scored(pro(name))
    rc = game.result_check
    assert rc is not None
    assert (rc.status, rc.reproduced, rc.reading, rc.computed) == (status, reproduced, reading,
                                                                   computed)
    assert codes(game) == assumed and rc.basis is Basis.ESTIMATE and not rc.finished


def test_fox_km0_without_a_margin_is_read_with_komi_too(tmp_path: Path) -> None:
    # No half point to tell: komi 0 as written, and Fox's usual 6.5 and 7.5, are all read; none
    # gives Black the win, so a recorded B+0.0 is a mismatch under every one of them.
    path = tmp_path / "fox.sgf"
    path.write_bytes((FIXTURES / "fox-komi-zero.sgf").read_bytes().replace(b"RE[W+15.5]",
                                                                           b"RE[B+0.0]"))
    game = scored(path)
    rc = game.result_check
    assert rc is not None and rc.status == "mismatch"
    assert [r.label for r in game.readings] == ["japanese with komi 0", "japanese with komi 6.5",
                                                "chinese with komi 7.5"]
    assert ("the other colour wins throughout the count's band under every reading checked "
            "(japanese with komi 0: W+9; japanese with komi 6.5: W+15.5; chinese with komi 7.5: "
            "W+16.5)") in said(rc)


def test_a_winner_alone_is_not_confirmed_when_the_komi_decides_it() -> None:
    # Fox KM[0], even game, B+0.0: Black wins by 3 with komi 0, White with 6.5 or 7.5.
    game = scored(FIXTURES / "fox-winner-only-komi-decides.sgf")
    rc = game.result_check
    assert rc is not None
    assert (rc.status, rc.computed, rc.reproduced) == ("unverifiable", "B+3", None)
    assert said(rc) == ("the winner depends on the reading (japanese with komi 0: B+3; japanese "
                         "with komi 6.5: W+3.5; chinese with komi 7.5: W+4.5), and RE[B+0.0] has "
                         "no margin to tell them apart")
    assert codes(game) == ["RES004", "RES002", "RES002"]


def test_a_winner_alone_is_not_confirmed_on_either_side_when_the_komi_decides_it(
        tmp_path: Path) -> None:
    path = tmp_path / "w.sgf"
    path.write_bytes((FIXTURES / "fox-winner-only-komi-decides.sgf").read_bytes()
                     .replace(b"RE[B+0.0]", b"RE[W+0.0]"))
    rc = scored(path).result_check
    assert rc is not None and rc.status == "unverifiable" and "RE[W+0.0] has no margin" in said(rc)


@pytest.mark.parametrize("result", [
    "W+0.0",    # the count (W+13.5: Black's 18 points and 2 settled, White's 27 and komi)
    "B+0.0",    # must not confirm the winner, nor call the other winner a mismatch
    "B+10.5",
    "W+13.5",   # the count as it stands gives this margin, but with 21% of the board open
])              # either colour may still win: it confirms nothing
def test_a_game_stopped_far_from_the_end_is_not_judged_by_its_count(
        tmp_path: Path, result: str) -> None:
    path = tmp_path / "g.sgf"
    path.write_bytes((FIXTURES / "stopped-far-9x9.sgf").read_bytes()
                     .replace(b"RE[W+0.0]", f"RE[{result}]".encode()))
    rc = scored(path).result_check
    assert rc is not None
    assert (rc.status, rc.code, rc.computed, rc.finished) == (
        "unverifiable", "RES122", "W+13.5", False)
    assert said(rc).startswith("the game stopped far from a finished position (21% of the "
                                "board still open to both colours)")


def test_a_record_whose_points_the_judgement_settles_is_worth_counting() -> None:
    """RES143 is for a record where no point is anyone's, neither enclosed nor settled: a Fox
    professional game stopped at move 125 encloses nothing yet, but the judgement settles 70
    points for Black and 54 for White; it is a game stopped far from the end (RES122), its
    count shown, not a stub."""
    path = PRO / "Pro" / "3p" / "1420636680019999619.sgf"
    if not path.exists():
        pytest.skip(f"shared corpus not found at {PRO}")
    game = scored(path)
    rc = game.result_check
    assert rc is not None and (rc.status, rc.code) == ("unverifiable", "RES122")
    own = game.scores[0]
    assert (own.black.empty, own.black.settled, own.white.empty, own.white.settled) == (
        0, 70, 0, 54)


@pytest.mark.parametrize(("name", "result"), [
    ("stopped-early.sgf", "W+0.0"),   # 9x9, six moves: nothing is anyone's yet
    ("stopped-early.sgf", "B+10.5"),
    ("stub-3-moves.sgf", "W+0.5"),    # 19x19, three moves
])
def test_a_record_cut_off_in_the_opening_is_not_scored(tmp_path: Path, name: str,
                                                         result: str) -> None:
    """Issue 62 (8): a record that stops before any position worth counting gets its findings
    and "not scored" (RES143), not a count of komi against nothing and a band of the whole
    board; no engine is asked about it."""
    path = tmp_path / name
    path.write_bytes((FIXTURES / name).read_bytes()
                     .replace(b"RE[W+0.0]", f"RE[{result}]".encode()))
    rc = scored(path).result_check
    assert rc is not None
    assert (rc.status, rc.code, rc.computed, rc.finished) == ("not-scored", "RES143", None,
                                                              False)
    assert said(rc) == ("the record stops before any position worth counting: no point of the "
                         "board is anyone's yet")
    text = runner.invoke(app, ["score", "--wide", str(path)]).output
    assert text.splitlines() == [
        f"{path} game 1",
        f"answer: RE[{result}], not scored: the record stops before any position worth "
        "counting: no point of the board is anyone's yet"]


def test_every_verdict_says_why_with_a_stable_code() -> None:
    """Issue 49: every verdict on RE carries a reason code (``result_check.code``), the one the
    rule that decided it names, listed on the manual's findings page."""
    from sgfcheck.verdict.decide import REASONS

    expected = {"seki.sgf": ("match", "RES101"),  # B+3.5 counted exactly
                "open-boundary-9x9.sgf": ("match", "RES104"),  # in the band, White's throughout
                "unfinished-two-off.sgf": ("unverifiable", "RES129"),  # two points off: close
                "fox-komi-zero-falsified.sgf": ("mismatch", "RES112"),  # outside every band
                "ko.sgf": ("not-scored", "RES142")}  # no RE
    for name, (status, code) in expected.items():
        (game,) = score_file(FIXTURES / name, Settings(engine="none")).games  # type: ignore[arg-type]
        assert game.result_check is not None
        assert (game.result_check.status.value, game.result_check.code) == (status, code), name
        assert REASONS[code].startswith(status.replace("-", " "))
    manual = (FIXTURES.parent / "docs" / "findings.md").read_text(encoding="utf-8")
    for code in REASONS:
        assert f"| {code} |" in manual, code
    for reason in Reason:  # each reason gives one status, and its words say which
        assert reason.meaning.startswith(reason.status.value.replace("-", " ")), reason
        assert f"| {reason.value} | {reason.status.value.replace('-', ' ')}" in manual, reason
    files = sorted(FIXTURES.glob("*.sgf"))
    if CORPUS.exists():
        files += sorted((CORPUS / "pro19").rglob("*.sgf"))[::60]
    codes: dict[str, int] = {}
    for path in files:
        for game in score_file(path, Settings(engine="none")).games:  # type: ignore[arg-type]
            if game.result_check is not None:
                assert game.result_check.code in REASONS, (path, game.result_check)
                codes[game.result_check.code] = codes.get(game.result_check.code, 0) + 1
    assert len(codes) >= 5


def test_the_answer_names_everyone_who_decided_a_chain() -> None:
    """Issue 49: with --engine katago the answer still said "on sgfcheck's estimate of the dead
    stones" while KataGo had decided six chains."""
    from sgfcheck.colour import BLACK, WHITE
    from sgfcheck.judge.deadstones import DeadStones
    from sgfcheck.judge.estimate import ChainVerdict, ChainVerdicts
    from sgfcheck.output.scores import basis_text
    from sgfcheck.status import Source, Status

    chains = [ChainVerdict([1], BLACK, Status.ALIVE, Source.ESTIMATE, 0.9, 0.9)]
    chains += [ChainVerdict([10 + i], WHITE, Status.DEAD, Source.KATAGO, 0.8, 0.2)
               for i in range(6)]
    chains.append(ChainVerdict([30], BLACK, Status.ALIVE, Source.GNUGO, 0.0, 0.6))
    dead = DeadStones({10, 11, 12, 13, 14, 15}, Source.ESTIMATE,
                      judgement=ChainVerdicts(chains, 0, 0))
    rc = ResultCheck(Reason.EXACT, Plain(), basis=Basis.ESTIMATE, finished=True)
    assert basis_text(rc, dead) == (
        "sgfcheck's estimate of the dead stones, 6 chains decided by KataGo, 1 chain decided by "
        "GNU Go; the game ended by two passes")
    alone = DeadStones(set(), Source.ESTIMATE, judgement=ChainVerdicts(chains[:1], 0, 0))
    assert basis_text(rc, alone) == ("sgfcheck's estimate of the dead stones; the game ended by "
                                     "two passes")


def test_a_verdict_is_its_reason_and_the_facts_it_rests_on() -> None:
    """Issue 63: the verdict is data (a reason code and one frozen facts record); the sentence is
    made from them by the outputs alone."""
    from sgfcheck.verdict.reasons import BandMatch, NamedBand, OffBand

    # Two points short of a stopped game's band (W+8.5 .. W+10.5): too close to call.
    (game,) = score_file(FIXTURES / "unfinished-two-off.sgf",
                         Settings(engine="none")).games  # type: ignore[arg-type]
    rc = game.result_check
    assert rc is not None and rc.code is Reason.JUST_OUTSIDE and rc.status == "unverifiable"
    assert rc.facts == OffBand(-9.5, "japanese with komi 0.5", "W+11.5", 1.0,
                               (("japanese with komi 0.5", NamedBand(-10.5, -8.5, (), ())),),
                               slack=2.0)
    # RE inside the band W+14.5 .. W+18.5 (C5 open), White's throughout: a match; the solved
    # count (W+15.5) is not RE, so the winner is confirmed, not the margin.
    (game,) = score_file(FIXTURES / "open-boundary-9x9.sgf",
                         Settings(engine="none")).games  # type: ignore[arg-type]
    rc = game.result_check
    assert rc is not None and rc.code is Reason.IN_BAND
    assert isinstance(rc.facts, BandMatch) and rc.facts.solved is not None
    assert (rc.facts.how, rc.facts.band, rc.facts.reading, rc.facts.own, rc.facts.solved[0]) == (
        "in band", NamedBand(-18.5, -14.5, ("C5",), ()), "japanese with komi 6.5", True,
        "W+15.5")
    assert said(rc).startswith("the recorded result lies in the count's band (W+14.5 .. W+18.5: "
                               "open at C5, japanese with komi 6.5); the solved count is W+15.5")
