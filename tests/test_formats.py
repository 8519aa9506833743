"""Tygem GIB, WBaduk NGF and PandaNet UGF/UGI records read as SGF (issue 15, part 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import corpus_dir
from sgfmill import sgf
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.points import tygem_handicap
from sgfcheck.records.formats import RecordFormat, convert, detect
from sgfcheck.replay.check import check_bytes, check_file
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import Settings

runner = CliRunner()


def formats(*parts: str) -> Path:
    return corpus_dir("formats", *parts[:-1]) / parts[-1]


@pytest.mark.parametrize(
    ("parts", "moves", "black", "white", "komi", "result", "handicap"),
    [
        (("katrain", "test.gib"), 232, "kim", "wildsim1", 6.5, "W+T", 0),
        (("sabaki", "gib", "euc-kr.gib"), 49, "dustkd1015", "dongjik", 6.5, "B+T", 0),
        (("sabaki", "gib", "gb2312.gib"), 268, "石下之臣", "harpmaster", 0.0, "W+11", 5),
        (("sabaki", "gib", "utf8.gib"), 118, "jy512", "leejw977", 0.0, None, 3),
        (("sabaki", "ngf", "even.ngf"), 333, "CYY", "LQC", 7.0, "B+0.5", 0),
        (("sabaki", "ngf", "gb2312.ngf"), 211, None, None, 6.0, "B+R", 0),
        (("sabaki", "ngf", "handicap2.ngf"), 189, "p81587", "ace550", 0.0, "W+R", 2),
        (("sabaki", "ugf", "amateur.ugf"), 254, "kaziwami", "YINNI", -5.5, "B+7.5", 0),
        (("sabaki", "ugf", "review.ugi"), 222, "ken03110", "apetresc", 6.5, "B+2.5", 0),
    ],
)
def test_every_record_of_the_corpus_loads_with_what_it_holds(
        parts: tuple[str, ...], moves: int, black: str | None, white: str | None, komi: float,
        result: str | None, handicap: int) -> None:
    report = check_file(formats(*parts))
    (game,) = report.games
    assert game.replay is not None and game.replay.moves == moves
    assert (game.game.info.get("PB"), game.game.info.get("PW")) == (black, white)
    assert game.game.komi == komi and game.game.handicap == handicap
    assert game.game.result_raw == result
    # Every move legal: the coordinates and the handicap stones are where the server had them.
    assert game.illegal_moves == []
    assert "SGF037" in [f.code.code for f in report.findings]


def test_the_older_ngf_layout_keeps_the_players_without_guessing_colours() -> None:
    report = check_file(formats("sabaki", "ngf", "gb2312.ngf"))
    messages = [f.message for f in report.findings]
    assert "NGF: players 朴承华 初段, 李载雄 五段: the format does not say who played Black; " \
           "kept in GC, not PB/PW" in messages
    tree = report.games[0].game.tree
    assert tree is not None and tree.sequence[0]["GC"] == ["players: 朴承华 初段; 李载雄 五段"
                                                          .encode()]


def test_ugf_komi_is_kept_as_written_and_the_count_agrees() -> None:
    # Hdcp=0,-5.50 and Winner=B,7.50: counted with komi -5.5 as written, the board gives the
    # recorded result exactly (with 5.5 or 6.5 it would be a White win).
    scored = score_file(formats("sabaki", "ugf", "amateur.ugf"), Settings(compare=("japanese",)))
    (game,) = scored.games
    assert game.scores[0].result_text == "B+7.5"
    assert game.result_check is not None and game.result_check.status == "match"


def test_a_gib_record_built_by_hand() -> None:
    gib = ("\\HS\n\\[GAMEBLACKNAME=kuro (3D)\\]\n\\[GAMEWHITENAME=shiro (5D)\\]\n"
           "\\[GAMEDATE=2020- 1- 2-10-11-12\\]\n"
           "\\[GAMEINFOMAIN=GBKIND:3,GTYPE:1,GRLT:1,ZIPSU:35,GONGJE:65,TCNT:0\\]\n\\HE\n\\GS\n"
           "INI 0 1 0 &4\nSTO 0 2 1 15 3\nSTO 0 3 2 3 15\nSTO 0 4 1 99 99\n\\GE\n")
    out = convert(gib, RecordFormat.GIB)
    assert out.sgf == ("(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[kuro]BR[3D]PW[shiro]WR[5D]DT[2020-01-02]"
                       "KM[6.5]RE[W+3.5];B[pd];W[dp];B[])\n")
    assert [f.message for f in out.findings] == [
        "GIB: line 11: point (99, 99) is off the 19x19 board; read as a pass"]


@pytest.mark.parametrize(("code", "result"), [("0", "B+12.5"), ("3", "B+R"), ("4", "W+R"),
                                              ("7", "B+T"), ("8", "W+T"), ("255", None)])
def test_gib_result_codes(code: str, result: str | None) -> None:
    gib = f"\\HS\n\\[GAMEINFOMAIN=GRLT:{code},ZIPSU:125,GONGJE:0\\]\n\\HE\nSTO 0 2 1 3 3\n"
    out = convert(gib, RecordFormat.GIB)
    assert (f"RE[{result}]" in out.sgf) if result else "RE[" not in out.sgf


def test_ngf_letters_start_at_b_and_aa_is_a_pass() -> None:
    ngf = "\n".join(["Rated game", "9", "w 1D", "b 2K", "site", "0", "0", "6", "20200102",
                     "5", "White wins by 3.5!", "3", "PMABBBBBB", "PMACWJJJJ", "PMADBAAAA"])
    out = convert(ngf, RecordFormat.NGF)
    assert out.sgf.endswith(";B[aa];W[ii];B[])\n") and "RE[W+3.5]" in out.sgf
    assert "KM[6]" in out.sgf  # as written: a whole number is said, not changed
    assert any("whole number (6)" in f.message for f in out.findings)


def test_ugf_rows_count_from_the_bottom() -> None:
    ugf = ("[Header]\nSize=9\nHdcp=0,6.5\nWinner=W,1.5\nRule=CHN\nPlayerB=b,1d\n"
           "PlayerW=w,2d\n[Data]\nAA,B1,1,0\nIA,W1,2,0\nAI,B1,3,0\nYA,W1,4,0\n")
    out = convert(ugf, RecordFormat.UGF)
    assert ";B[ai];W[ii];B[aa];W[])" in out.sgf and "RU[Chinese]" in out.sgf


def test_tygem_handicap_places_the_third_stone_top_left() -> None:
    assert tygem_handicap(3, 19) == [(3, 15), (15, 3), (3, 3)]  # D4, Q16, D16
    assert len(tygem_handicap(9, 19)) == 9 and tygem_handicap(10, 19) == []


@pytest.mark.parametrize(("data", "name", "fmt"), [
    (b"\\HS\n\\[GAMEBLACKNAME=x\\]", "a.txt", RecordFormat.GIB),
    (b"[Header]\nSize=19\n[Data]\n", "a", RecordFormat.UGF),
    (b"x\n19\nPMABBDDDD\nPMACWEEEE\n", "game", RecordFormat.NGF),
    (b"(;GM[1];B[aa])", "a.ngf", RecordFormat.SGF),
    (b"junk", "a.ugi", RecordFormat.UGF),
])
def test_formats_are_recognised_by_content_first(data: bytes, name: str,
                                                 fmt: RecordFormat) -> None:
    assert detect(data, name) is fmt


def test_a_damaged_record_of_another_format_is_findings_not_a_traceback() -> None:
    for data in (b"\\HS\nSTO x y z\n", b"[Header]\nSize=abc\n[Data]\nQQ\n", b"\x00" * 50):
        report = check_bytes(data, "bad.gib")
        assert report.findings  # said, whatever it is


def test_convert_writes_sgf_that_round_trips_and_never_touches_the_input(tmp_path: Path
                                                                          ) -> None:
    source = formats("sabaki", "gib", "gb2312.gib")
    before = source.read_bytes()
    out = tmp_path / "game.sgf"
    result = runner.invoke(app, ["convert", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    game = sgf.Sgf_game.from_bytes(out.read_bytes())
    assert (game.get_size(), game.get_player_name("b"), game.get_komi()) == (19, "石下之臣", 0.0)
    assert len(game.get_main_sequence()) == 269  # the root and 268 moves
    assert source.read_bytes() == before
    again = runner.invoke(app, ["convert", str(out), "-o", str(tmp_path / "x.sgf")])
    assert again.exit_code == 2 and "is SGF already" in again.output
    same = runner.invoke(app, ["convert", str(out), "-o", str(out)])
    assert same.exit_code == 2


def test_batch_reads_the_other_formats_in_folders(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, ["batch", str(corpus_dir("formats")), "--out", str(out),
                                 "--fail-on", "never"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(Path(r["path"]).name for r in rows) == [
        "amateur.ugf", "euc-kr.gib", "even.ngf", "gb2312.gib", "gb2312.ngf", "handicap2.ngf",
        "review.ugi", "test.gib", "utf8.gib"]
    assert all(r["index"] == 1 for r in rows)
