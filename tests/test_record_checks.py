"""What the record itself says, read the way a careful person reads it: an assumption of
sgfcheck's never becomes an illegal move, damaged structure keeps the game, the checks a record
invites (HA against setup, who moves first, who moved last, RE's margin against KM) are findings
with codes, non-records are refused in one line, an impossible komi is unknown.

Each case is a fixture written for it (its comment says what a Go player sees in it)."""

from __future__ import annotations

from pathlib import Path

from conftest import FIXTURES, corpus_dir, game, game_of
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.output.reasons import sentence as said
from sgfcheck.records.context import Origin
from sgfcheck.records.record import HandicapPlacement
from sgfcheck.replay.check import FileReport, GameReport, check_bytes, check_file
from sgfcheck.scoring.adjudicate import score_bytes, score_file
from sgfcheck.settings import Settings
from sgfcheck.verdict.decide import CheckStatus

runner = CliRunner()


def found(g: GameReport, code: str) -> list[tuple[int | None, str, str]]:
    """(move, severity, message) of each finding with this code."""
    return [(f.move, f.severity.value, f.message) for f in g.findings if f.code.code == code]


def rule_codes(g: GameReport) -> list[str]:
    return [f.code.code for f in g.findings if f.code.code.startswith("RUL") and f.is_error]


def stones(g: GameReport) -> tuple[int, int]:
    """(black, white) stones on the board at the end of the replay."""
    assert g.replay is not None
    colour = g.replay.board.colour
    return sum(1 for c in colour if c == 1), sum(1 for c in colour if c == 2)


# --- 1. an assumption never becomes an illegal move --------------------------------------------

def test_white_on_a_star_point_shows_the_handicap_stones_were_not_there() -> None:
    g = game("handicap-not-placed.sgf")
    assert rule_codes(g) == []
    assert g.game.handicap_placement is HandicapPlacement.UNKNOWN
    assert found(g, "SGF017") == [(
        1, "warning", "HA[2]: move 1 (White Q16) lands on Q16, where a handicap stone was "
                      "assumed; so the stones did not stand on the points Fox's convention gives "
                      "them, and where they stood is unknown: the game is replayed as recorded, "
                      "without handicap stones (White moves first)")]
    # W Q16, B D4, W Q4, B D16, W R10: the five moves and nothing else.
    assert stones(g) == (2, 3)
    assert g.verdict.value == "warnings"


def test_the_count_of_an_assumed_placement_says_so() -> None:
    (g,) = score_file(FIXTURES / "handicap-assumed.sgf").games
    assert g.check.game.handicap_placement is HandicapPlacement.ASSUMED
    japanese = g.scores[0]
    assert japanese.ruleset.name == "japanese"
    # Black's area left of and above the walls: 81 - 12 (White's corner) - 8 walls - 2 assumed.
    assert (japanese.black.total, japanese.white.total) == (59, 0.5 + 6)
    assert japanese.result_text == "B+52.5"
    check = g.result_check
    # RE[B+54.5] is 2 points from the count of a game ended by two passes: outside its band,
    # but the count rests on the assumed stones, so the check cannot call the record wrong.
    assert check is not None and check.status is CheckStatus.UNVERIFIABLE
    assert "but the count rests on an assumption about the record" in said(check)
    assert [(a.code.code, a.message) for a in check.assumptions if a.code.code == "RES008"] == [
        ("RES008", "the count rests on 2 handicap stones assumed on the standard points G7, C3: "
                   "the record (HA[2]) does not place them")]


def test_a_disagreement_resting_on_an_assumed_placement_is_no_mismatch() -> None:
    # The same game with RE[W+2.5]: the count says B+52.5, but it rests on stones sgfcheck put on
    # the board itself, so the check cannot call the record wrong.
    data = (FIXTURES / "handicap-assumed.sgf").read_bytes().replace(b"RE[B+54.5]", b"RE[W+2.5]")
    (g,) = score_bytes(data).games
    check = g.result_check
    assert check is not None and check.status is CheckStatus.UNVERIFIABLE
    assert "rests on an assumption about the record" in said(check)
    assert "2 handicap stones assumed on the standard points G7, C3" in said(check)


def test_the_result_of_an_unknown_placement_is_never_a_mismatch() -> None:
    (g,) = score_bytes(b"(;GM[1]SZ[9]HA[2]KM[0.5]RU[Japanese]RE[W+30.5]"
                       b";W[gc];B[ee];W[];B[])").games
    assert g.check.game.handicap_placement is HandicapPlacement.UNKNOWN
    check = g.result_check
    assert check is not None and check.status is not CheckStatus.MISMATCH
    assert [a.code.code for a in check.assumptions].count("RES008") == 1


def test_handicap_stones_played_as_moves_are_found_from_the_moves() -> None:
    g = game_of(b"(;GM[1]SZ[19]HA[3];B[pd];B[dp];B[pp];W[dd])")
    assert g.game.handicap_placement is HandicapPlacement.PLAYED
    assert rule_codes(g) == [] and found(g, "SGF038") == []
    assert stones(g) == (3, 1)


def test_handicap_setup_in_a_later_node_is_the_placement() -> None:
    g = game_of(b"(;GM[1]SZ[19]HA[2];AB[pd][dp];W[dd];B[pp])")
    assert g.game.handicap_placement is HandicapPlacement.RECORDED
    assert rule_codes(g) == [] and found(g, "SGF017") == []
    assert stones(g) == (3, 1)


# --- 2. damaged structure read the way a person would ------------------------------------------

def test_a_record_starting_with_a_semicolon_keeps_its_root_and_every_move() -> None:
    report = check_file(FIXTURES / "semicolon-start.sgf")
    assert [(f.code.code, f.severity.value) for f in report.findings] == [("SGF007", "warning")]
    (g,) = report.games
    assert g.game.rules_raw == "Japanese" and g.game.komi == 6.5 and g.game.result_raw == "B+R"
    assert g.game.info["PB"] == "Black"
    assert g.replay is not None and g.replay.moves == 5  # B E5, W C7, B G7, W C3, B E3
    assert rule_codes(g) == []
    assert g.verdict.value == "clean"


# --- 3. checks the record itself invites --------------------------------------------------------

def test_ha_against_the_setup_stones() -> None:
    g = game("handicap-disagrees.sgf")
    assert g.game.handicap == 2
    assert found(g, "SGF017") == [(None, "warning", "HA[3] but 2 black setup stones: the record "
                                   "disagrees with itself; the handicap is taken as the 2 stones "
                                   "on the board")]
    assert rule_codes(g) == []


def test_white_first_in_an_even_game_is_a_warning_not_an_illegal_move() -> None:
    g = game("white-first.sgf")
    assert found(g, "SGF038") == [(1, "warning", "White moves first, but Black starts a game "
                                   "without handicap stones (the colours may be swapped in the "
                                   "record)")]
    assert rule_codes(g) == [] and found(g, "RES007") == []
    assert stones(g) == (1, 2)


def test_either_colour_may_start_a_set_up_position() -> None:
    g = game("pass-alive.sgf")  # AB and AW, then W passes
    assert found(g, "SGF038") == [(1, "info", "White moves first from a set-up position (stones "
                                   "of both colours): either side may start one")]
    assert g.verdict.value == "clean"


def test_black_first_after_handicap_stones_is_a_warning() -> None:
    g = game_of(b"(;GM[1]SZ[19]HA[2]AB[pd][dp];B[pp];W[dd])")
    ((move, severity, message),) = found(g, "SGF038")
    assert (move, severity) == (1, "warning")
    assert message.startswith("Black moves first")
    assert rule_codes(g) == []


def test_the_resigner_making_the_last_play() -> None:
    g = game("resigner-moved-last.sgf")
    assert found(g, "RES007") == [(5, "info", "RE[W+R] says Black resigned, yet Black made the "
                                   "last play on the board (move 5); servers allow it, and it is "
                                   "what a result written the other way round looks like")]
    # A pass after the last play is how some programs record the resignation: still the play.
    g = game_of(b"(;GM[1]SZ[9]RE[B+T];B[ee];W[cc];B[])")
    assert [m for m, _, _ in found(g, "RES007")] == [2]
    assert found(game_of(b"(;GM[1]SZ[9]RE[B+R];B[ee];W[cc];B[gg])"), "RES007") == []


def test_a_margin_that_cannot_be_a_count_under_the_komi() -> None:
    g = game("margin-against-komi.sgf")
    assert found(g, "RES006") == [(None, "warning", "RE[B+3]: a margin of 3 cannot be a count "
                                   "under KM[6.5] (komi 6.5): every count differs from the komi "
                                   "by whole points")]
    assert rule_codes(g) == []
    for komi, result in (("6.5", "B+3.5"), ("7", "W+2"), ("0", "B+12"), ("375", "W+0.25"),
                         ("7.5", "B+2.75"), ("6.5", "W+R")):
        # Whole points from the komi, a margin in zi (quarter points: Chinese), or no margin.
        g = game_of(f"(;GM[1]SZ[19]KM[{komi}]RE[{result}];B[pd])".encode())
        assert found(g, "RES006") == [], (komi, result)
    assert [c for _, c, _ in found(game_of(b"(;GM[1]SZ[19]KM[7]RE[W+2.5];B[pd])"), "RES006")] \
        == ["warning"]


def test_fox_komi_zero_with_a_half_point_margin_is_fox_habit_not_an_alarm() -> None:
    g = game("fox-komi-zero.sgf")
    assert found(g, "RES006") == [(None, "info", "RE[W+15.5]: a margin of 15.5 cannot be a count "
                                   "under KM[0] (komi 0): every count differs from the komi by "
                                   "whole points; Fox writes KM[0] for even games played with "
                                   "komi, and the result check reads them with 6.5 and 7.5")]


# --- 4. non-records refused ---------------------------------------------------------------------

def test_a_picture_named_sgf_is_refused_in_one_line() -> None:
    path = FIXTURES / "not-a-record-png.sgf"
    report = check_file(path)
    assert report.games == []
    assert [(f.code.code, f.message) for f in report.findings] == [
        ("SGF003", "not a game record: binary content (a PNG image); not read")]
    for command in ("check", "score"):
        result = runner.invoke(app, [command, str(path)])
        assert result.exit_code == 2
        assert " ".join(result.output.split()) == (
            f"{path}: UNREADABLE - SGF003 not a game record: binary content (a PNG image); "
            "not read")


def test_prose_named_sgf_is_refused_in_one_line() -> None:
    for path in (FIXTURES / "not-a-record-prose.sgf", FIXTURES.parent / "README.md"):
        report = check_file(path)
        assert report.games == [], path
        ((code, message),) = [(f.code.code, f.message) for f in report.findings]
        assert code == "SGF003" and message.startswith("not a game record: prose (")
        result = runner.invoke(app, ["check", str(path)])
        assert result.exit_code == 2
        assert " ".join(result.output.split()) == f"{path}: UNREADABLE - SGF003 {message}"


def test_a_record_with_a_few_control_bytes_is_still_a_record() -> None:
    g = game_of(b"(;GM[1]SZ[9]PB[a\x07b\x00c]PW[\x1b[31m];B[ee];W[cc])")
    assert g.replay is not None and g.replay.moves == 2


def test_notes_before_a_game_do_not_make_it_prose() -> None:
    note = b"Game sent by e-mail, from the club evening of Tuesday.\n" * 3
    g = game_of(note + b"(;GM[1]SZ[9]KM[6.5]" + b";B[ee];W[cc];B[gg];W[cg]" * 4 + b")")
    assert g.replay is not None


def syntax_messages(report: FileReport) -> list[str]:
    every = list(report.findings) + [f for g in report.games for f in g.findings]
    return [f.message for f in every if f.code.code == "SGF004"]


def test_repeated_syntax_findings_are_capped() -> None:
    # One game, 100 stray ']': twenty listed, the rest counted.
    said = syntax_messages(check_bytes(b"(;GM[1]SZ[9]" + b";B[ee]]" * 100 + b")"))
    assert len(said) == 21
    assert said[0] == "game 1: b']' at line 1, column 19 is not SGF; skipped"
    assert said[-1] == "... and 80 more syntax errors in this file (not listed)"
    # Eight games of ten each: twenty listed for the whole file, the other sixty counted.
    game = b"(;GM[1]SZ[9]" + b";B[ee] 12" * 10 + b")\n"
    said = syntax_messages(check_bytes(game * 8))
    assert len(said) == 21
    assert said[-1] == "... and 60 more syntax errors in this file (not listed)"


# --- 5. an impossible komi is unknown, not 6.5 --------------------------------------------------

def test_an_impossible_komi_is_unknown_and_the_verdict_says_what_it_would_need() -> None:
    g = game("komi-impossible.sgf")
    assert g.game.komi is None
    assert found(g, "SGF015") == [(None, "warning", "KM[1e308] is more than the board's 81 points: "
                                   "no game has such a komi; the komi is unknown: counts are made "
                                   "without it, and the result check says what komi the recorded "
                                   "result would need")]
    (s,) = score_file(FIXTURES / "komi-impossible.sgf").games
    assert s.check.context is not None and s.check.context.komi_origin is Origin.UNKNOWN
    assert s.scores[0].result_text == "B+27"
    check = s.result_check
    assert check is not None and check.status is CheckStatus.UNVERIFIABLE
    assert said(check) == ("the komi is unknown (KM[1e308] is no komi a game can have): the count "
                            "before komi gives B+27; RE[W+3.5] would need a komi of 30.5")


def test_a_komi_given_by_the_user_replaces_the_impossible_one() -> None:
    (s,) = score_file(FIXTURES / "komi-impossible.sgf", Settings(komi=30.5)).games
    assert s.scores[0].result_text == "W+3.5"
    assert s.result_check is not None and s.result_check.status is CheckStatus.MATCH


def test_the_json_of_an_impossible_komi_is_strict(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", str(FIXTURES / "komi-impossible.sgf"), "--format",
                                 "json"])
    assert "Infinity" not in result.output and "1e+308" not in result.output
    assert '"komi": null' in result.output


# --- 9. text decoding ---------------------------------------------------------------------------

def test_utf8_but_for_a_few_cut_characters_is_read_as_utf8() -> None:
    # Fox cuts a character of a name short with '?': 野 then the first two bytes of 狐 and '?'.
    name = "陈正勋".encode()
    broken = "野".encode() + "狐".encode()[:2] + b"?" + "围棋".encode()
    data = b"(;GM[1]SZ[19]PB[" + name + b"]PW[" + broken + b"];B[pd])"
    report = check_bytes(data)
    assert report.loaded.encoding == "utf-8"
    (g,) = report.games
    assert g.game.info["PB"] == "陈正勋"
    assert g.game.info["PW"] == "野\ufffd?围棋"
    assert [(f.code.code, f.message) for f in report.findings if f.code.code == "SGF011"] == [
        ("SGF011", "2 byte(s) are not part of any UTF-8 character (a character cut short, as "
                   "servers do when they replace bytes with '?'); shown as U+FFFD")]


def test_a_legacy_chinese_record_is_not_taken_for_damaged_utf8() -> None:
    # Without CA the short text is left to the detector (which charset it picks is its
    # business); what matters here is that its few accidental UTF-8 characters do not win.
    data = "(;GM[1]SZ[19]PB[陈正勋]PW[古力]GN[第四轮];B[pd])".encode("gb18030")
    assert check_bytes(data).loaded.encoding != "utf-8"
    data = data.replace(b"SZ[19]", b"SZ[19]CA[GB2312]")
    report = check_bytes(data)
    assert report.loaded.encoding == "gb18030"
    assert report.games[0].game.info["PB"] == "陈正勋"


def test_every_fox_professional_record_reads_as_utf8() -> None:
    folder = corpus_dir("pro19")
    from sgfcheck.records.encoding import decode_sgf_bytes

    read = {decode_sgf_bytes(p.read_bytes()).encoding for p in folder.rglob("*.sgf")}
    assert read == {"utf-8"}


# --- 10. score says the answer first --------------------------------------------------------------

def score_lines(name: str) -> list[str]:
    result = runner.invoke(app, ["score", str(FIXTURES / name)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    return [lines[0], " ".join(" ".join(lines[1:4]).split())] + lines[4:]


def test_the_answer_comes_first_with_the_reading_that_decided() -> None:
    # Fox's KM[0] on a game played with komi: the table counts komi 0 (W+9), the answer the
    # reading that matched, komi 6.5 (W+15.5), and why that reading.
    lines = score_lines("fox-komi-zero.sgf")
    assert lines[1] == (
        "answer: RE[W+15.5] MATCH; counted W+15.5 under japanese with komi 6.5; KM[0] with a "
        "half-point result RE[W+15.5]: area and territory counts are whole numbers, so the komi "
        "cannot be 0; komi 6.5 (japanese) assumed (RES002); on sgfcheck's estimate of the dead "
        "stones, least confidence 0.75")
    said = " ".join(" ".join(lines).split())
    assert ("the first row counts the record's own reading (japanese, komi 0); the answer was "
            "reached under japanese with komi 6.5, the last row") in said
    # The count the answer names is a row of the table: the row of its reading, added last.
    row = next(n for n, line in enumerate(lines) if line.startswith("japanese, komi 6.5 "))
    assert lines[row].split()[:5] == ["japanese,", "komi", "6.5", "B", "W+15.5"]


def test_the_answer_spells_out_fox_komi_and_margin_in_zi() -> None:
    lines = score_lines("fox-komi-zi.sgf")
    assert lines[1] == (
        "answer: RE[B+0.75] MATCH; counted B+1.5 under chinese with komi 7.5; KM[375] -> 7.5: "
        "Fox writes komi x100; 3.75 is in zi (Chinese counting units), = 7.5 points; "
        "RE[B+0.75]: margin 0.75 read as zi (Chinese counting): 1.5 points; on sgfcheck's "
        "estimate of the dead stones, least confidence 0.844")
    assert "the rows count" not in " ".join(lines)  # the table is the answer's reading


def test_the_answer_of_a_resigned_game_still_gives_the_count() -> None:
    result = runner.invoke(app, ["score", str(FIXTURES / "resigner-moved-last.sgf")])
    answer = " ".join(result.output.splitlines()[1:3]).split()
    assert " ".join(answer).startswith(
        "answer: RE[W+R], not scored: the game ended by resign; the count gives ")


def test_text_before_the_games_is_skipped_not_taken_for_prose() -> None:
    """Issue 52 (libsgfcplusplus' compressed-point-list.sgf: 868 characters of text, then two
    games): more than 200 characters before the first game made the file prose."""
    from sgfcheck.replay.check import check_bytes

    for junk in (201, 2000):
        report = check_bytes(b"x" * junk + b"\n(;GM[1]SZ[9];B[ee])(;GM[1]SZ[9];B[cc])", "p.sgf")
        assert len(report.games) == 2
        assert [(f.code.code, f.message) for f in report.findings] == [
            ("SGF006", f"{junk + 1} bytes of text before the first game were ignored")]
    # A text that only mentions a game is still prose (this project's README holds none; a
    # letter quoting one does).
    letter = b"Dear friend, " * 40 + b"the record was (;GM[1]SZ[9];B[ee]) as I recall; " * 2 \
        + b"with my best wishes " * 30
    (why,) = check_bytes(letter, "letter.sgf").findings
    assert why.code.code == "SGF003" and why.message.startswith("not a game record: prose (")


def test_nuls_in_a_value_do_not_make_a_collection_wide_or_binary() -> None:
    """Issue 52 (SGFC's mixed-encoding.sgf: five games, one comment in UTF-16LE): the NULs of
    one value made the file UTF-16 (then 'no SGF game found'), or binary."""
    from sgfcheck.replay.check import check_bytes

    one = check_bytes(b"(;GM[1]SZ[9]C[" + b"a\0" * 16 + b"];B[ee])", "m.sgf")
    assert one.loaded.encoding == "ascii" and len(one.games) == 1
    assert one.games[0].replay is not None and one.games[0].replay.moves == 1
    utf16 = "(;CA[UTF-16LE]C[hall\u00f6 D\u00dc\u00df]".encode("utf-16-le") + b")"
    many = b"\r\n".join([b"(;FF[4]C[" + b"a\0" * 20 + b"])", utf16[:-1] + b")",
                         b"(;FF[4]CA[ISO-8859-15]C[hall\xf6])", b"(;C[text])",
                         b"(;FF[4]GM[1]SZ[9];B[ee])"])
    report = check_bytes(many, "mixed.sgf")
    assert not report.unreadable and len(report.games) >= 4
    assert report.games[-1].replay is not None and report.games[-1].replay.moves == 1
    # A real UTF-16 record without a byte-order mark is still read as one.
    wide = check_bytes("(;GM[1]SZ[9];B[ee])".encode("utf-16-le"), "w.sgf")
    assert wide.loaded.encoding == "utf-16-le" and len(wide.games) == 1


def test_the_check_never_changes_the_record() -> None:
    """Issue 49: a contradicted handicap assumption was written back into the record, so
    checking the same record twice could order its findings differently."""
    from sgfcheck.records.record import load_file
    from sgfcheck.replay.check import check_loaded
    from sgfcheck.settings import Settings

    loaded = load_file(FIXTURES / "handicap-not-placed.sgf")
    (record,) = loaded.games
    placement, stones = record.handicap_placement, list(record.assumed_handicap)
    assert placement is HandicapPlacement.CONVENTION and stones
    first = check_loaded(loaded, Settings())
    second = check_loaded(loaded, Settings())
    assert record.handicap_placement is placement and record.assumed_handicap == stones
    assert first.games[0].game.handicap_placement is HandicapPlacement.UNKNOWN
    assert [(f.code.code, f.move, f.message) for f in first.games[0].findings] == \
        [(f.code.code, f.move, f.message) for f in second.games[0].findings]


def test_alarms_that_follow_from_missing_handicap_stones_are_headlined_as_such() -> None:
    # Issue 62: a record whose HA stones are missing was headlined ILLEGAL MOVES; the alarms
    # come from replaying it without the stones. The headline says what the record says first.
    from sgfcheck.output.text import game_verdict_line

    g = game("handicap-missing.sgf")
    assert g.game.handicap_placement is HandicapPlacement.UNKNOWN
    assert [(f.code.code, f.move, f.point) for f in g.illegal_moves] == [("RUL001", 8, "A8")]
    assert g.verdict.value == "illegal moves"  # the record as written
    assert game_verdict_line("handicap-missing.sgf", g).startswith(
        "handicap-missing.sgf game 1: HANDICAP STONES MISSING (HA[2], where they stood unknown), "
        "so ILLEGAL MOVES as recorded (1 occupied point), rules japanese")
    # A record with its stones keeps the plain headline.
    assert game_verdict_line("ko.sgf", game("ko.sgf")).startswith(
        "ko.sgf game 1: ILLEGAL MOVES (1 simple ko)")
