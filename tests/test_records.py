"""Loading real-world records: encodings, server quirks, broken files, each with its finding."""

from __future__ import annotations

import pytest
from conftest import codes, game_of

from sgfcheck.records.record import load_bytes
from sgfcheck.replay.check import check_bytes
from sgfcheck.settings import Settings


def file_codes(data: bytes) -> list[str]:
    return [f.code.code for f in check_bytes(data).findings]


# --- encodings ---------------------------------------------------------------------------------


def _cp932_char_with_byte(byte: int) -> str:
    """A Shift_JIS (cp932) character whose second byte is the given ASCII byte."""
    for lead in range(0x81, 0xA0):
        try:
            ch = bytes([lead, byte]).decode("cp932")
        except UnicodeDecodeError:
            continue
        if len(ch) == 1:
            return ch
    raise AssertionError("no such character")


def test_shift_jis_bracket_and_backslash_bytes_inside_characters() -> None:
    bracket = _cp932_char_with_byte(0x5D)  # second byte is ']'
    backslash = _cp932_char_with_byte(0x5C)  # second byte is '\'
    name = f"A{bracket}B{backslash}C"
    data = b"(;GM[1]FF[4]CA[Shift_JIS]SZ[9]PB[" + name.encode("cp932") + b"];B[ee];W[cc])"
    assert b"]" in name.encode("cp932") and b"\\" in name.encode("cp932")
    loaded = load_bytes(data)
    assert loaded.encoding == "cp932" and not loaded.encoding_guessed
    (g,) = loaded.games
    assert g.info["PB"] == name
    assert g.main_line().move_count == 2


def test_gb2312_label_reads_gbk_text() -> None:
    data = "(;GM[1]CA[GB2312]PB[柯洁]PW[镕基];B[pd])".encode("gbk")
    loaded = load_bytes(data)
    assert loaded.encoding == "gb18030"
    assert loaded.games[0].info["PW"] == "镕基"


@pytest.mark.parametrize("ca", ["UTF-8", "utf8", "UTF8", "utf-8"])
def test_utf8_spellings(ca: str) -> None:
    data = f"(;GM[1]CA[{ca}]PB[李世石];B[pd])".encode()
    loaded = load_bytes(data)
    assert loaded.encoding == "utf-8" and loaded.games[0].info["PB"] == "李世石"


def test_utf16_with_bom() -> None:
    data = "(;GM[1]CA[UTF-16]PB[井山裕太];B[pd];W[dp])".encode("utf-16")
    loaded = load_bytes(data)
    assert loaded.games[0].info["PB"] == "井山裕太"
    assert loaded.games[0].main_line().move_count == 2


def test_no_ca_valid_utf8_is_utf8_and_said_to_be_guessed() -> None:
    loaded = load_bytes("(;GM[1]PB[박정환];B[pd])".encode())
    assert (loaded.encoding, loaded.encoding_guessed) == ("utf-8", True)
    assert loaded.games[0].info["PB"] == "박정환"


def test_no_ca_euc_kr_is_detected() -> None:
    text = "(;GM[1]PB[박정환]PW[신진서]C[" + "한국기원 대국입니다. " * 20 + "];B[pd])"
    loaded = load_bytes(text.encode("euc-kr"))
    assert loaded.encoding_guessed
    assert loaded.games[0].info["PB"] == "박정환"


def test_unknown_ca_is_a_warning_not_a_failure() -> None:
    report = check_bytes(b"(;GM[1]CA[foo-123]SZ[9];B[ee])")
    assert [f.code.code for f in report.findings] == ["SGF009"]
    assert report.games[0].replay is not None and report.games[0].replay.moves == 1


# --- server quirks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("km", "ap", "expected"),
    [
        ("750", "AP[GNU Go:3.8]AP[foxwq]", 7.5),
        ("650", "AP[GNU Go:3.8]AP[foxwq]", 6.5),
        ("375", "AP[GNU Go:3.8]AP[foxwq]", 7.5),  # 3.75 zi
        ("50", "AP[foxwq]", 0.5),
        ("6.50", "AP[CGoban:3]", 6.5),  # KGS two decimals
        ("3.75", "", 7.5),  # GoGoD quarter komi in zi
        ("-5.5", "", -5.5),
    ],
)
def test_komi_normalisation(km: str, ap: str, expected: float) -> None:
    g = game_of(f"(;GM[1]SZ[19]KM[{km}]{ap}RU[Japanese];B[pd])".encode())
    assert g.game.komi == expected
    assert g.context is not None and g.context.komi == expected
    if km not in ("-5.5",):
        (note,) = [f for f in g.findings if f.code.code == "SGF016"]
        assert note.message.startswith(f"KM[{km}] -> {expected:g}")


def test_empty_komi_is_no_komi_with_a_warning() -> None:
    # KM[] says no komi: as a record without KM, never the preset's 7.5 in silence.
    g = game_of(b"(;GM[1]SZ[19]KM[]RU[Chinese];B[pd])")
    assert codes(g, "SGF015") == [("SGF015", None, None)]
    assert g.context is not None and (g.context.komi, g.context.komi_known) == (0.0, False)
    g = game_of(b"(;GM[1]SZ[19]KM[]RU[Chinese]RE[B+3];B[pd])")
    assert g.context is not None and (g.context.komi, g.context.komi_origin) == (0.0, "convention")


def test_handicap_in_second_node_fox() -> None:
    g = game_of(b"(;GM[1]SZ[19]HA[2]KM[0]AP[foxwq];AB[pd][dp];W[dd];B[pp])")
    assert g.game.handicap == 2
    assert codes(g, "SGF018") == [("SGF018", None, None)]
    assert g.illegal_moves == [] and codes(g, "RUL009") == []


def test_handicap_without_stones_white_first_assumes_star_points() -> None:
    # Without the assumed stones W D4 then W C4... would be replayed on an empty board.
    g = game_of(b"(;GM[1]SZ[19]HA[4]KM[0];W[qj];B[qn];W[cc])")
    assert g.game.handicap == 4
    (f,) = [f for f in g.findings if f.code.code == "SGF017"]
    assert "Q16, D4, Q4, D16" in f.message
    assert "assumed" in f.message
    assert g.replay is not None
    board = g.replay.board
    assert sum(1 for c in board.colour if c == 1) == 5  # 4 handicap stones + Q6


def test_a_move_onto_an_assumed_handicap_point_is_evidence_not_an_illegal_move() -> None:
    # White's third move is D16, one of the four star points sgfcheck would assume: the record
    # says the stones were not there, so the placement is unknown and no move is illegal.
    g = game_of(b"(;GM[1]SZ[19]HA[4]KM[0];W[qj];B[qn];W[dd])")
    assert codes(g, "RUL001") == []
    (f,) = [f for f in g.findings if f.code.code == "SGF017"]
    assert "move 3" in f.message and "D16" in f.message
    assert g.replay is not None
    board = g.replay.board
    assert sum(1 for c in board.colour if c == 1) == 1  # Q6 alone: no stone assumed
    assert sum(1 for c in board.colour if c == 2) == 2


def test_handicap_as_consecutive_black_moves() -> None:
    g = game_of(b"(;GM[1]SZ[19]HA[3];B[pd];B[dp];B[pp];W[dd])")
    assert g.game.handicap == 3
    assert codes(g, "RUL009") == []


def test_ha_without_stones_and_black_first_is_a_warning() -> None:
    g = game_of(b"(;GM[1]SZ[19]HA[3];B[pd];W[dp])")
    assert g.game.handicap == 0
    assert codes(g, "SGF017") == [("SGF017", None, None)]


def test_ogs_every_move_a_variation_and_deep_nesting() -> None:
    # OGS opens a variation on every move: (;B[..](;W[..](;B[..]... 100,000 levels deep.
    depth = 100_000
    body = b"".join(b"(;B[pd]" if i == 0 else (b"(;W[]" if i % 2 else b"(;B[]")
                    for i in range(depth))
    data = b"(;GM[1]SZ[19]" + body + b")" * (depth + 1)
    report = check_bytes(data)
    (g,) = report.games
    assert g.replay is not None and g.replay.moves == depth
    # Legal, but far from any real record: said, and checked all the same.
    assert [(f.code.code, f.message) for f in report.findings] == [
        ("SGF036", "100001 nodes in the file (real games have a few hundred)"),
        ("SGF036", "variations nested 100001 deep")]
    assert g.illegal_moves == []


def test_repeated_property_in_a_node_is_merged_with_a_note() -> None:
    g = game_of(b"(;GM[1]SZ[9]AP[GNU Go:3.8]AP[foxwq]KM[7.5]KM[6.5];B[ee])")
    assert sorted(f.code.code for f in g.findings if f.code.code == "SGF021") == [
        "SGF021", "SGF021"]
    assert g.game.komi == 7.5


def test_ko_property_forces_an_illegal_move() -> None:
    data = (b"(;GM[1]SZ[5]AB[ba][ab][bc][cb]AW[ca][db][cc]PL[W];W[bb];KO[]B[cb])")
    g = game_of(data)
    (f,) = [f for f in g.findings if f.code.code == "RUL004"]
    assert f.severity is not None and f.severity.value == "info"
    assert f.extra["forced"] is True
    assert g.illegal_moves == []


def test_numeric_ko_in_root_is_a_misplaced_komi() -> None:
    g = game_of(b"(;GM[1]SZ[19]KO[7.5];B[pd])")
    assert g.game.komi == 7.5
    assert codes(g, "SGF026") == [("SGF026", None, None)]


def test_passes_and_tt() -> None:
    g = game_of(b"(;GM[1]SZ[19];B[pd];W[];B[tt];W[ ])")
    assert g.replay is not None and g.replay.passes == {1: 1, 2: 2}
    assert g.replay.ended_by_passes == 3


def test_tt_is_a_point_on_a_25x25_board() -> None:
    g = game_of(b"(;GM[1]SZ[25];B[tt];W[])")
    assert g.replay is not None and g.replay.passes == {1: 0, 2: 1}
    assert g.replay.board.colour[19 * 25 + 19] == 1


def test_one_by_one_and_52_by_52() -> None:
    tiny = game_of(b"(;GM[1]SZ[1];B[aa])")
    assert codes(tiny, "RUL") == [("RUL003", 1, "A1")]
    big = game_of(b"(;GM[1]SZ[52];B[ZZ];W[aa])")
    assert big.illegal_moves == [] and big.replay is not None
    assert big.replay.board.colour[51 * 52 + 51] == 1


@pytest.mark.parametrize("size", [b"0", b"53", b"-10", b"19:", b"abc"])
def test_bad_board_size(size: bytes) -> None:
    g = game_of(b"(;GM[1]SZ[" + size + b"];B[pd])")
    assert codes(g, "SGF013") == [("SGF013", None, None)]
    assert (g.game.width, g.game.height) == (19, 19)


def test_off_board_and_malformed_points() -> None:
    g = game_of(b"(;GM[1]SZ[9];B[ss];W[R16];B[ee])")
    assert codes(g, "RUL002") == [("RUL002", 1, None)]
    assert codes(g, "SGF014") == [("SGF014", 2, None)]
    assert g.replay is not None and g.replay.moves == 3


def test_same_colour_twice() -> None:
    g = game_of(b"(;GM[1]SZ[9];B[ee];B[cc];W[gg])")
    assert codes(g, "RUL009") == [("RUL009", 2, "C7")]


def test_move_after_two_passes() -> None:
    g = game_of(b"(;GM[1]SZ[9]RU[Japanese];B[ee];W[];B[];W[cc])")
    (f,) = [f for f in g.findings if f.code.code == "RUL010"]
    assert (f.move, f.severity.value if f.severity else None) == (4, "info")
    tt = game_of(b"(;GM[1]SZ[9]RU[Tromp-Taylor];B[ee];W[];B[];W[cc])")
    (f,) = [f for f in tt.findings if f.code.code == "RUL010"]
    assert f.severity is not None and f.severity.value == "warning"


def test_illegal_setup_is_flagged() -> None:
    g = game_of(b"(;GM[1]SZ[9]AB[aa][ab]AW[ac][ba][bb])")
    assert codes(g, "RUL011") == [("RUL011", None, "A8")]


def test_multi_game_collection() -> None:
    report = check_bytes(b"(;GM[1]SZ[9];B[ee])\n(;GM[1]SZ[13];B[gg];W[gg])")
    assert [(g.game.width, g.verdict) for g in report.games] == [(9, "clean"),
                                                                 (13, "illegal moves")]


def test_variations_are_checked_on_request() -> None:
    data = b"(;GM[1]SZ[9];B[ee](;W[cc])(;W[ee]))"
    main = check_bytes(data).games[0]
    assert main.illegal_moves == []

    every = check_bytes(data, settings=Settings(variations=True)).games[0]
    (f,) = every.illegal_moves
    assert (f.code.code, f.move, f.extra["variation"]) == ("RUL001", 2, [1])
    assert every.lines_checked == 2


# --- broken files ------------------------------------------------------------------------------


def test_empty_file() -> None:
    assert file_codes(b"") == ["SGF002"]
    assert file_codes(b"  \n ") == ["SGF002"]


def test_binary_garbage() -> None:
    import random

    data = bytes(random.Random(1).getrandbits(8) for _ in range(5000)).replace(b"(", b"")
    report = check_bytes(data)
    assert report.unreadable and "SGF003" in [f.code.code for f in report.findings]


def test_truncated_file_is_read_to_the_end() -> None:
    report = check_bytes(b"(;GM[1]SZ[9];B[ee];W[cc];B[gg")
    assert "SGF005" in [f.code.code for f in report.findings]
    (g,) = report.games
    assert g.replay is not None and g.replay.moves == 3


def test_unescaped_bracket_is_reported_with_its_place() -> None:
    report = check_bytes(b"(;GM[1]SZ[9]US[Matsuyama[3d]];B[ee];W[cc])")
    (f,) = [f for f in report.findings if f.code.code == "SGF004"]
    assert "line 1" in f.message
    assert report.games[0].replay is not None and report.games[0].replay.moves == 2


def test_junk_before_and_missing_paren() -> None:
    assert "SGF006" in file_codes(b"From: someone\n\n(;GM[1]SZ[9];B[ee])")
    report = check_bytes(b";GM[1]SZ[9];B[ee];W[cc])")
    assert [f.code.code for f in report.findings] == ["SGF007"]
    assert report.games[0].replay is not None and report.games[0].replay.moves == 2


def test_paren_without_semicolon() -> None:
    report = check_bytes(b"(SZ[9]GM[1];B[ee])")
    assert "SGF008" in [f.code.code for f in report.findings]
    assert report.games[0].game.width == 9


def test_fifty_megabyte_comment() -> None:
    data = b"(;GM[1]SZ[9]C[" + b"x" * 50_000_000 + b"];B[ee];W[cc])"
    report = check_bytes(data)
    assert report.games[0].replay is not None and report.games[0].replay.moves == 2


def test_not_go() -> None:
    g = game_of(b"(;GM[3]SZ[8];B[ee])")
    assert g.verdict == "not checked" and codes(g, "SGF022") == [("SGF022", None, None)]
