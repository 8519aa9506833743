"""Hostile input: every class of input made to hurt a validator ends in a clear finding.

Inputs are generated here, small; the large classes are scaled down with the limits set low.
Each test asserts the finding code (and where it matters the message) and that the run ended.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.escaping import csv_cell, json_safe, terminal_text, visible
from sgfcheck.limits import Limits, address_space, parse_spec
from sgfcheck.output.reasons import sentence
from sgfcheck.output.schema import file_report_dict, json_text
from sgfcheck.records.context import Origin
from sgfcheck.replay.check import FileReport, check_bytes, check_file
from sgfcheck.scoring.adjudicate import score_bytes
from sgfcheck.settings import Settings

runner = CliRunner()
GAME = b"(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[cg])"


def codes(report: FileReport) -> list[str]:
    """Every finding code of a file report: the file's, then each game's."""
    out = [f.code.code for f in report.findings]
    for g in report.games:
        out += [f.code.code for f in g.findings]
    return out


def messages(report: FileReport, code: str) -> list[str]:
    found = list(report.findings) + [f for g in report.games for f in g.findings]
    return [f.message for f in found if f.code.code == code]


def check_file_bytes(data: bytes, options: Settings) -> FileReport:
    return check_bytes(data, "<bytes>", options)


def low(**changes: int | float) -> Settings:
    return Settings(limits=Limits(**changes))  # type: ignore[arg-type]


# --- property values ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [b"9" * 5000, b"-5", b"0", b"53", b"53:60", b"1e18", b"inf"])
def test_impossible_board_sizes_are_sgf013_and_19x19(size: bytes) -> None:
    report = check_bytes(b"(;GM[1]SZ[" + size + b"];B[aa])")
    assert codes(report) == ["SGF013"]
    (game,) = report.games
    assert (game.game.width, game.game.height) == (19, 19)


@pytest.mark.parametrize("komi", [b"inf", b"-inf", b"nan", b"9" * 5000, b"1e18", b"-99999999",
                                  b"12345.5", b"1e308", b"abc"])
def test_impossible_komi_is_sgf015_and_unknown_never_a_default(komi: bytes) -> None:
    # An impossible komi was replaced by the ruleset's 6.5, and score then claimed a mismatch on
    # that invented komi: it is unknown, the counts are made without it, and the result check
    # says what komi RE would need instead of a verdict.
    data = b"(;GM[1]SZ[9]RU[Japanese]KM[" + komi + b"]RE[W+3.5];B[ee];W[];B[])"
    report = check_bytes(data)
    assert "SGF015" in codes(report)
    (game,) = report.games
    assert game.context is not None and not game.context.komi_known
    assert game.context.komi_origin is Origin.UNKNOWN and game.context.komi == 0
    (scored,) = score_bytes(data, "k.sgf", Settings(dead_stones="none")).games
    rc = scored.result_check
    assert rc is not None and rc.status == "unverifiable"
    # The 80 empty points are Black's, and B E5 is alive: B+80 before komi; W+3.5 needs 83.5.
    assert sentence(rc).endswith("the count before komi gives B+80; RE[W+3.5] would need a komi of "
                              "83.5"), sentence(rc)
    assert all(s.ruleset.komi == 0 for s in scored.scores)


@pytest.mark.parametrize("value", [b"inf", b"-inf", b"nan", b"1e999", b"400"])
def test_impossible_komi_in_ko_is_not_taken_for_a_komi(value: bytes) -> None:
    # Found by bench/fuzz.py: KO[inf] in the root (Sina's misplaced komi) made an infinite komi
    # that strict JSON then refused.
    report = check_bytes(b"(;GM[1]SZ[9]RU[Japanese]KO[" + value + b"];B[ee])")
    assert messages(report, "SGF026") == [
        f"KO[{value.decode()}] in the game information is no komi a game can have; ignored"]
    (game,) = report.games
    # No KM either, and no RE to tell it: the komi is unknown, never a preset's 6.5.
    assert game.context is not None and game.context.komi == 0.0
    assert not game.context.komi_known
    json_text(file_report_dict(report))  # strict JSON: no NaN or Infinity


@pytest.mark.parametrize(("handicap", "why"), [
    (b"1e18", "is not a number of stones"), (b"9" * 5000, "is not a number of stones"),
    (b"-3", "is not a number of stones"), (b"400", "is more stones than the board has points"),
])
def test_impossible_handicap_is_sgf017_and_ignored(handicap: bytes, why: str) -> None:
    report = check_bytes(b"(;GM[1]SZ[19]HA[" + handicap + b"];W[aa];B[bb])")
    assert [m for m in messages(report, "SGF017")] == [
        f"HA[{handicap.decode()[:256]}{'…' if len(handicap) > 256 else ''}] {why}; ignored"]
    assert report.games[0].game.handicap == 0


@pytest.mark.parametrize("ca", [b"base64", b"zlib", b"bz2_codec", b"hex", b"uu", b"quopri",
                                b"rot13", b"undefined", b"utf\x00-8", b"punycode", b"utf-7",
                                b"unicode_escape", b"idna", b"no-such-codec", b"mbcs"])
def test_ca_naming_no_text_encoding_is_sgf009_and_the_game_is_read(ca: bytes) -> None:
    report = check_bytes(b"(;GM[1]CA[" + ca + b"]SZ[9]PB[Honinbo];B[ee];W[cc])")
    assert "SGF009" in codes(report)
    (game,) = report.games
    assert game.replay is not None and game.replay.moves == 2
    assert game.game.info["PB"] == "Honinbo"


def test_huge_and_hostile_text_values_are_cut_in_messages() -> None:
    report = check_bytes(b"(;GM[1]SZ[9]RU[" + b"Japanese" * 125_000 + b"]RE[\x1b[2J" + b"x" * 999
                         + b"];B[ee])")
    (ru,) = messages(report, "SGF023")
    assert len(ru) < 400 and ru.startswith("RU[JapaneseJapanese") and "…]" in ru
    (game,) = report.games
    assert game.game.result_raw is not None and len(game.game.result_raw) == 257


# --- structure ----------------------------------------------------------------------------------


def test_a_stray_close_paren_that_cuts_a_game_short_is_an_error() -> None:
    # A 6-move game cut after move 2 by a stray ')': the record must not come out clean.
    report = check_bytes(b"(;GM[1]SZ[9];B[ee];W[cc]);B[gg];W[cg];B[eg];W[ge])")
    assert messages(report, "SGF034") == [
        "game 1 is closed by the ')' at line 1, column 25, but 4 more node(s) (4 move(s)) "
        "follow outside any game; they were not read (a stray ')' may have cut the game short)"]
    assert report.has_errors
    assert report.games[0].replay is not None and report.games[0].replay.moves == 2


def test_nodes_between_two_games_are_an_error_too() -> None:
    report = check_bytes(GAME + b";B[aa];W[bb]" + GAME)
    assert codes(report).count("SGF034") == 1 and len(report.games) == 2


def test_text_after_the_game_that_holds_no_nodes_is_not_an_error() -> None:
    report = check_bytes(GAME + b"\n\nSaved by a hand-written tool.\n")
    assert "SGF034" not in codes(report) and not report.has_errors


@pytest.mark.parametrize(("data", "code"), [
    (b"(;GM[1]SZ[9];B[ee]C[never closed", "SGF004"),
    (b"(;GM[1]SZ[9];B[ee]C[abc\\", "SGF004"),
    (b"(;GM[1]SZ[9];B[ee]]];W[cc])", "SGF004"),
    (b"(;GM[1]SZ[9]" + b"(;B[ee]" * 20_000, "SGF005"),
])
def test_broken_structure_is_a_finding(data: bytes, code: str) -> None:
    report = check_bytes(data)
    assert code in codes(report)


def test_too_many_nodes_is_a_limit_not_a_parse() -> None:
    report = check_bytes(b"(;GM[1]SZ[9]" + b";" * 1500 + b")", settings=low(nodes=1000))
    assert codes(report) == ["SGF035"]
    assert report.findings[0].message == ("1501 nodes in the file, more than the limit of "
                                          "1000; not read (raise it with --limit nodes=...)")
    assert report.findings[0].extra == {"limit": "nodes=1000"}
    assert report.games == []


def test_variations_replayed_from_the_root_are_bounded_together() -> None:
    # A 2,000-move line ending in 50 leaves: checking every line replays 100,000 moves.
    deep = b"".join(b";B[aa];W[bb]" if i % 2 else b";B[bb];W[aa]" for i in range(1000))
    leaves = b"".join(b"(;B[c" + bytes([97 + i % 19]) + b"])" for i in range(50))
    data = b"(;GM[1]SZ[9]" + deep + leaves + b")"
    report = check_file_bytes(data, Settings(variations=True, limits=Limits(nodes=30_000)))
    (game,) = report.games
    assert game.lines_checked == 14  # 14 lines of 2,001 moves fit in 30,000
    assert messages(report, "SGF035") == [
        "the variations replay more than 30000 moves together; only the first 14 lines were "
        "checked (raise it with --limit nodes=...)"]
    assert check_file_bytes(data, Settings(variations=True)).games[0].lines_checked == 50


def test_semicolons_inside_values_do_not_count_as_nodes() -> None:
    report = check_bytes(b"(;GM[1]SZ[9]C[" + b";" * 5000 + b"];B[ee])", settings=low(nodes=10))
    assert "SGF035" not in codes(report) and len(report.games) == 1


def test_too_many_values_is_a_limit() -> None:
    report = check_bytes(b"(;GM[1]SZ[9]" + b"XX[a]" * 300 + b";B[ee])", settings=low(values=100))
    assert codes(report) == ["SGF035"] and "--limit values=" in report.findings[0].message


def test_too_many_games_checks_the_first_and_says_so() -> None:
    report = check_bytes(GAME * 12, settings=low(games=5))
    assert len(report.games) == 5
    assert messages(report, "SGF035") == [
        "12 games in the file; only the first 5 were read (raise it with --limit games=...)"]


def test_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "big.sgf"
    path.write_bytes(GAME + b"C[" + b"x" * 2000 + b"]")
    report = check_file(path, low(file_size=1024))
    assert codes(report) == ["SGF035"] and report.games == []
    assert report.findings[0].extra == {"limit": "file-size=1K"}


def test_a_file_is_read_whole_whatever_size_it_said(tmp_path: Path) -> None:
    """Each read asks for about the size the file had when opened (not a megabyte's buffer a
    small record): a file of exactly the limit is read, a byte more is refused, and a file that
    says it is empty (as /proc's do) or grows is read to its end all the same."""
    from sgfcheck.records.reading import read_path

    path = tmp_path / "exact.sgf"
    path.write_bytes(b"x" * 1024)
    assert read_path(str(path), Limits(file_size=1024)).data == b"x" * 1024
    path.write_bytes(b"x" * 1025)
    assert read_path(str(path), Limits(file_size=1024)).data is None
    status = Path("/proc/self/status")
    if status.exists():
        assert os.stat(status).st_size == 0
        assert b"Name:" in (read_path(str(status)).data or b"")
    grown = tmp_path / "grown.sgf"
    grown.write_bytes(b"(;GM[1])")
    fd = os.open(grown, os.O_RDONLY)
    try:
        with grown.open("ab") as more:  # it grows after its size was taken
            more.write(b"y" * 100_000)
        from sgfcheck.records.reading import _read_regular
        assert _read_regular(fd, Limits(), 8).data == b"(;GM[1])" + b"y" * 100_000
    finally:
        os.close(fd)


def test_abnormal_but_legal_structure_gets_a_warning() -> None:
    many_nodes = check_bytes(b"(;GM[1]SZ[9]" + b";" * 100_001 + b";B[ee])")
    assert messages(many_nodes, "SGF036") == [
        "100003 nodes in the file (real games have a few hundred)"]
    siblings = check_bytes(b"(;GM[1]SZ[9]" + b"(;B[ee])" * 2000 + b")")
    assert messages(siblings, "SGF036") == ["2000 variations at one node"]
    comment = check_bytes(b"(;GM[1]SZ[9]C[" + b"a" * 2_000_000 + b"];B[ee])")
    assert messages(comment, "SGF036") == [
        "a property value of 2000000 bytes (real records stay under a few kilobytes)"]
    for report in (many_nodes, siblings, comment):
        assert report.games[0].replay is not None and report.games[0].replay.moves >= 1


def test_passes_after_the_end_of_the_game_are_a_finding() -> None:
    report = check_bytes(b"(;GM[1]SZ[9]RU[Japanese];B[ee]" + b";W[];B[]" * 2000 + b")")
    (game,) = report.games
    assert [(f.code.code, f.move, f.severity.value, f.message) for f in game.findings
            if f.code.code == "RUL010"] == [
        ("RUL010", 4, "info", "3998 pass(es) after two passes in a row, from move 4 on: the "
                              "game had ended; they change nothing")]


def test_aga_white_passing_last_is_not_a_pass_after_the_end() -> None:
    # AGA: White must pass last, so W, B, W is the end of a game, not a pass too many.
    report = check_bytes(b"(;GM[1]SZ[9]RU[AGA];B[ee];W[];B[];W[])")
    assert "RUL010" not in codes(report)
    report = check_bytes(b"(;GM[1]SZ[9]RU[AGA];B[ee];W[];B[];W[];B[])")
    assert messages(report, "RUL010") == [
        "1 pass(es) after two passes in a row, from move 5 on: the game had ended; they change "
        "nothing"]


def test_an_enormous_setup_list_is_bounded() -> None:
    report = check_bytes(b"(;GM[1]SZ[52]" + b"AB[aa:ZZ]" * 20_000 + b";W[]))")
    assert "AB in node 0 lists more than twice the board's points; its last 19998 value(s) " \
           "were not read" in messages(report, "SGF030")
    (dead,) = messages(report, "RUL011")
    assert dead.endswith("and 2692 more without liberties; they stay on the board as set up")


# --- files --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("data", "code"), [(b"", "SGF002"), (b"  \n\t ", "SGF002"),
                                            (bytes(range(256)) * 40, "SGF003")])
def test_empty_and_garbage_files(data: bytes, code: str) -> None:
    assert code in codes(check_bytes(data))


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("bom", [True, False])
def test_utf16_and_utf32_with_and_without_bom(encoding: str, bom: bool) -> None:
    text = ("\ufeff" if bom else "") + "(;GM[1]SZ[9]PB[Cho Hun-hyeon 조훈현];B[ee];W[cc])"
    report = check_bytes(text.encode(encoding))
    (game,) = report.games
    assert game.replay is not None and game.replay.moves == 2
    assert game.game.info["PB"] == "Cho Hun-hyeon 조훈현"


def test_a_fifo_nobody_writes_to_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["check", str(fifo), "--limit", "read-wait=0.3"])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "SGF035" in said and "the FIFO gave no data for 0.3 s" in said


def test_a_fifo_with_a_writer_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as fh:
            fh.write(GAME)

    writer = threading.Thread(target=write)
    writer.start()
    report = check_file(fifo, low(read_wait=5.0))
    writer.join(5)
    assert report.games and report.games[0].replay is not None
    assert report.games[0].replay.moves == 4


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_behind_a_link_are_refused(tmp_path: Path, device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"{device} does not exist on this system")
    link = tmp_path / "game.sgf"
    link.symlink_to(device)
    report = check_file(link)
    assert [(f.code.code, f.message) for f in report.findings] == [
        ("SGF001", "a device, not a record file; not read")]


def test_links_that_lead_nowhere(tmp_path: Path) -> None:
    (tmp_path / "broken.sgf").symlink_to(tmp_path / "missing")
    (tmp_path / "a.sgf").symlink_to(tmp_path / "b.sgf")
    (tmp_path / "b.sgf").symlink_to(tmp_path / "a.sgf")
    assert codes(check_file(tmp_path / "broken.sgf")) == ["SGF001"]
    assert codes(check_file(tmp_path / "a.sgf")) == ["SGF001"]
    result = runner.invoke(app, ["check", str(tmp_path / "broken.sgf"), str(tmp_path / "a.sgf")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_folder_named_like_a_record(tmp_path: Path) -> None:
    (tmp_path / "game.sgf").mkdir()
    report = check_file(tmp_path / "game.sgf")
    assert [(f.code.code, f.message) for f in report.findings] == [
        ("SGF001", "a folder, not a file")]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root reads files whatever their mode")
def test_an_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(GAME)
    path.chmod(0)
    assert codes(check_file(path)) == ["SGF001"]


# --- safe output --------------------------------------------------------------------------------

HOSTILE = ("(;GM[1]SZ[9]RU[\x1b[31mJapanese\x07]PB[\u202eevil\x9b2J]PW[a\x00b]RE[W+3.5]"
           "C[\x1b]0;title\x07];B[ee];W[cc])").encode()


def test_control_characters_never_reach_the_terminal_raw(tmp_path: Path) -> None:
    path = tmp_path / "\x1b[2Jgame.sgf"
    path.write_bytes(HOSTILE)
    for args in (["check", str(path), "-v"], ["score", str(path)], ["score", str(path),
                                                                      "--format", "markdown"]):
        result = runner.invoke(app, args)
        assert "Traceback" not in result.output
        for raw in ("\x1b", "\x07", "\u202e", "\x9b", "\x00"):
            assert raw not in result.output, (args, raw)
        assert "\\x1b[31mJapanese\\x07" in result.output or args[0] == "score"
        assert "\\x1b[2Jgame.sgf" in result.output


def test_json_is_strict_escaped_and_the_same_value(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(HOSTILE)
    for args in (["check", str(path), "--format", "json"], ["score", str(path), "--format",
                                                              "json"]):
        result = runner.invoke(app, args)
        text = result.output
        assert "\u202e" not in text and "\x9b" not in text and "\\u202e" in text

        def no_constants(name: str) -> None:
            raise AssertionError(f"JSON has {name}")

        obj = json.loads(text, parse_constant=no_constants)
        game = obj["games"][0]
        assert game["players"]["black"] == "\u202eevil\x9b2J"
    with pytest.raises(ValueError):
        json_text({"komi": float("nan")})


def test_escaping_functions() -> None:
    assert visible("a\x1b[31mb\u202ec\nd\x7f") == "a\\x1b[31mb\\u202ec\\nd\\x7f"
    assert terminal_text("one\x1b\ntwo\r") == "one\\x1b\ntwo\\r"
    assert json.loads(json_safe(json.dumps("\u202e\x7f\u2028", ensure_ascii=False))) == \
        "\u202e\x7f\u2028"
    assert [csv_cell(v) for v in ("=1+2", "+SUM(A1)", "-cmd", "@x", "\tx", "-3.5", "+7", "1e5",
                                  "abc", -3.5, 7, None, "")] == [
        "'=1+2", "'+SUM(A1)", "'-cmd", "'@x", "\\tx", "-3.5", "+7", "1e5", "abc", -3.5, 7, None,
        ""]


def test_csv_cells_are_not_formulas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("=HYPERLINK(evil).sgf").write_bytes(b"(;GM[1]SZ[9]KM[-3.5];B[ee];W[cc])")
    result = runner.invoke(app, ["score", "=HYPERLINK(evil).sgf", "--format", "csv"])
    rows = [line.split(",") for line in result.output.splitlines()[1:]]
    assert rows and all(row[0] == "'=HYPERLINK(evil).sgf" for row in rows)
    komi_column = result.output.splitlines()[0].split(",").index("komi")
    assert {row[komi_column] for row in rows} == {"0.0", "-3.5"}


# --- limits on the command line -----------------------------------------------------------------


@pytest.mark.parametrize(("spec", "expected"), [
    ("file-size=256M", ("file_size", 256 * 1024**2)), ("nodes=5000000", ("nodes", 5_000_000)),
    ("read-wait=2.5", ("read_wait", 2.5)), ("member-size=1.5k", ("member_size", 1536)),
])
def test_limit_specs(spec: str, expected: tuple[str, float]) -> None:
    assert parse_spec(spec) == expected


@pytest.mark.parametrize("args", [["--komi", "nan"], ["--komi", "inf"], ["--komi", "-1e400"],
                                  ["--rules", "japanese:komi=inf"],
                                  ["--rules", "japanese:komi=nan"]])
@pytest.mark.parametrize("command", ["check", "score"])
def test_komi_options_that_are_no_number_are_usage_errors(command: str, args: list[str]) -> None:
    # Found by the same fuzzing: an infinite komi reached strict JSON as a traceback.
    result = runner.invoke(app, [command, str(FIXTURES / "ko.sgf"), "--format", "json", *args])
    said = (f"sgfcheck: {args[1]}: komi takes a number of points such as 6.5, 0 or -3 (at most "
            "2704 either way)\n" if args[0] == "--rules" else "is not a number a game can have")
    assert result.exit_code == 2 and said in result.output


@pytest.mark.parametrize("value", ["-1", "99999999999999999999", "100000"])
def test_batch_jobs_past_what_the_machine_can_run_are_usage_errors(value: str) -> None:
    # Found by sweeping option values: --jobs 99999999999999999999 started workers until the
    # machine ran out of memory.
    result = runner.invoke(app, ["batch", str(FIXTURES / "ko.sgf"), "--jobs", value])
    assert result.exit_code == 2 and "--jobs takes a number from 0" in result.output


def test_a_memory_limit_past_what_setrlimit_takes_is_a_usage_error(tmp_path: Path) -> None:
    # Found by an attacker's probe: --limit memory=99999999999999 passed the range check, then
    # setrlimit overflowed in every worker (a pool traceback, every file "not read").
    result = runner.invoke(app, ["batch", str(FIXTURES / "ko.sgf"), "--limit",
                                 "memory=99999999999999", "--out", str(tmp_path / "r.jsonl")])
    assert result.exit_code == 2 and "memory is in megabytes, from 1 to 4294967296" in result.output
    assert not (tmp_path / "r.jsonl").exists()
    assert parse_spec("memory=4294967296") == ("memory", 2**32)


@pytest.mark.skipif(os.name != "posix", reason="address-space limits are POSIX's")
def test_the_largest_memory_limit_caps_a_worker_without_overflow() -> None:
    # In a child process (the cap would hold this test's own process): the largest limit taken
    # is set, or said not to be, never an exception.
    code = ("from sgfcheck.limits import MOST_MEMORY, cap_memory; import resource; "
            "print(cap_memory(MOST_MEMORY), resource.getrlimit(resource.RLIMIT_AS)[0] > 2**50)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and done.stdout.split() in (["True", "True"], ["False", "True"])


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "1e9"])
def test_batch_timeouts_that_are_no_number_of_seconds_are_usage_errors(value: str) -> None:
    result = runner.invoke(app, ["batch", str(FIXTURES / "ko.sgf"), "--timeout", value])
    assert result.exit_code == 2 and "--timeout takes seconds" in result.output


def test_katago_json_rules_with_an_infinite_komi_are_an_unknown_ru() -> None:
    report = check_bytes(b'(;GM[1]SZ[9]RU[{"komi": Infinity}];B[ee])')
    assert "SGF023" in codes(report)
    json_text(file_report_dict(report))


@pytest.mark.parametrize("spec", ["file-size", "colour=3", "nodes=-1", "nodes=1M", "nodes=x",
                                  "read-wait=0", "games=0"])
def test_bad_limit_specs_are_usage_errors(spec: str) -> None:
    result = runner.invoke(app, ["check", str(FIXTURES / "ko.sgf"), "--limit", spec])
    assert result.exit_code == 2 and "--limit" in result.output and "Traceback" not in \
        result.output


# --- batch: archives ----------------------------------------------------------------------------

import io  # noqa: E402 - the batch section's own imports
import tarfile  # noqa: E402
import zipfile  # noqa: E402

from sgfcheck.records.inputs import iter_inputs  # noqa: E402
from sgfcheck.records.items import InputProblem, WorkItem  # noqa: E402
from sgfcheck.run import batch as batch_module  # noqa: E402
from sgfcheck.run import executor as executor_module  # noqa: E402
from sgfcheck.run.batch import BatchOptions, run_batch  # noqa: E402
from sgfcheck.run.reportfile import ReportKind, ReportWriter  # noqa: E402


def run_rows(inputs: list[str], tmp_path: Path, **options: object) -> list[dict[str, object]]:
    """A batch run as the command line makes it; the report's rows, checked to be valid JSON."""
    out = tmp_path / "report.jsonl"
    limits = options.pop("limits", Limits())
    with open(out, "w") as fh:
        run_batch(iter_inputs(inputs, limits=limits),  # type: ignore[arg-type]
                  BatchOptions.of(limits=limits, **options),  # type: ignore[arg-type]
                  ReportWriter(fh, ReportKind.JSONL, True))
    return [json.loads(line) for line in out.read_text().splitlines()]


def file_codes(row: dict[str, object]) -> list[str]:
    return [f["code"] for f in row["file_findings"]]  # type: ignore[attr-defined, index]


def test_zip_slip_and_hostile_member_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    monkeypatch.chdir(tmp_path)
    with zipfile.ZipFile("games.zip", "w") as z:
        for name in ("../../evil.sgf", "/abs.sgf", "C:\\win.sgf", "=cmd|' /C calc'!A0.sgf",
                     "\x1b[31mred.sgf", "ok.sgf"):
            z.writestr(name, GAME)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    result = runner.invoke(app, ["batch", "games.zip", "--out", "r.csv", "--jobs", "1"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "\x1b" not in result.output and "\\x1b[31mred.sgf" in result.output
    # Nothing written but the report and its run state; nothing extracted.
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted([*before, "r.csv",
                                                                  "r.csv.state"])
    rows = Path("r.csv").read_text().splitlines()[1:]
    members = sorted(row.split(",")[1] for row in rows)
    assert "'=cmd|' /C calc'!A0.sgf" in members and "\\x1b[31mred.sgf" in members
    problems = [row for row in rows if "SGF032" in row]
    assert len(problems) == 3  # '..', absolute, drive letter


def test_zip_bomb_is_not_decompressed(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("bomb.sgf", b"(;GM[1]C[" + b"a" * 5_000_000 + b"])")
        z.writestr("ok.sgf", GAME)
    rows = run_rows([str(bomb)], tmp_path, jobs=1)
    assert [(r["member"], file_codes(r) if r["index"] is None else "game") for r in rows] == [
        ("bomb.sgf", ["SGF032"]), ("ok.sgf", "game")]
    message = rows[0]["file_findings"][0]["message"]  # type: ignore[index]
    assert "a decompression bomb?" in message and "ratio=200" in message


def test_zip_member_larger_than_its_header_says(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("liar.sgf", b"(;GM[1]C[" + b"ab" * 50_000 + b"])")
    raw = bytearray(buffer.getvalue())
    # The sizes in the local header and the central directory say 100 bytes.
    raw[raw.find(b"PK\x03\x04") + 22:][:4] = (100).to_bytes(4, "little")
    local = raw.find(b"PK\x03\x04") + 22
    raw[local:local + 4] = (100).to_bytes(4, "little")
    central = raw.find(b"PK\x01\x02") + 24
    raw[central:central + 4] = (100).to_bytes(4, "little")
    liar = tmp_path / "liar.zip"
    liar.write_bytes(bytes(raw))
    (row,) = run_rows([str(liar)], tmp_path, jobs=1)
    assert file_codes(row) == ["SGF032"] and row["member"] == "liar.sgf"


def test_member_size_and_archive_size_limits(tmp_path: Path) -> None:
    archive = tmp_path / "many.zip"
    # Members of 52, 1252, 352, 652 and 52 bytes: m1 is over the member limit (not read, not
    # counted); m0 + m2 + m3 = 1056 bytes fit in 1100, m4 would not.
    with zipfile.ZipFile(archive, "w") as z:
        for i, pad in enumerate((0, 1200, 300, 600, 0)):
            z.writestr(f"m{i}.sgf", GAME + b"C[" + b"x" * pad + b"]")
    rows = run_rows([str(archive)], tmp_path, jobs=1,
                    limits=Limits(member_size=1000, archive_size=1100))
    assert [(r["member"], file_codes(r) if r["index"] is None else "game") for r in rows] == [
        ("m0.sgf", "game"), ("m1.sgf", ["SGF032"]), ("m2.sgf", "game"), ("m3.sgf", "game"),
        (None, ["SGF032"])]
    assert rows[1]["file_findings"][0]["message"] == (  # type: ignore[index]
        "1252 bytes: larger than the limit (member-size=1000); not read")


def test_tar_gz_bomb_is_stopped_before_it_is_decompressed(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.tar.gz"
    with tarfile.open(bomb, "w:gz") as t:
        for name, data in (("ok.sgf", GAME), ("bomb.sgf", b"(;GM[1]C[" + b"a" * 20_000_000
                                                           + b"])"), ("after.sgf", GAME)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    rows = run_rows([str(bomb)], tmp_path, jobs=1)
    assert [(r["member"], file_codes(r) if r["index"] is None else "game") for r in rows] == [
        ("ok.sgf", "game"), ("bomb.sgf", ["SGF032"])]
    assert "this member and the rest were not read" in \
        rows[1]["file_findings"][0]["message"]  # type: ignore[index]


def test_tar_links_devices_and_fifos_are_not_read(tmp_path: Path) -> None:
    archive = tmp_path / "odd.tar"
    with tarfile.open(archive, "w") as t:
        for name, kind in (("sym.sgf", tarfile.SYMTYPE), ("hard.sgf", tarfile.LNKTYPE),
                           ("dev.sgf", tarfile.CHRTYPE), ("fifo.sgf", tarfile.FIFOTYPE)):
            info = tarfile.TarInfo(name)
            info.type = kind
            info.linkname = "/etc/passwd" if kind in (tarfile.SYMTYPE, tarfile.LNKTYPE) else ""
            t.addfile(info)
        info = tarfile.TarInfo("ok.sgf")
        info.size = len(GAME)
        t.addfile(info, io.BytesIO(GAME))
    rows = run_rows([str(archive)], tmp_path, jobs=1)
    assert [(r["member"], [f["message"] for f in r["file_findings"]])  # type: ignore[attr-defined]
            for r in rows if r["index"] is None] == [
        ("sym.sgf", ["a link inside the archive; not read"]),
        ("hard.sgf", ["a link inside the archive; not read"]),
        ("dev.sgf", ["a device inside the archive; not read"]),
        ("fifo.sgf", ["a FIFO inside the archive; not read"])]
    assert [r["member"] for r in rows if r["index"] is not None] == ["ok.sgf"]


@pytest.mark.parametrize("cut", ["truncated", "corrupt"])
def test_truncated_and_corrupt_archives(tmp_path: Path, cut: str) -> None:
    good = tmp_path / "good.tar.gz"
    with tarfile.open(good, "w:gz") as t:
        for i in range(20):
            data = GAME + b"C[" + os.urandom(2000).hex().encode() + b"]"
            info = tarfile.TarInfo(f"g{i}.sgf")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    raw = good.read_bytes()
    bad = tmp_path / f"{cut}.tar.gz"
    bad.write_bytes(raw[: len(raw) // 2] if cut == "truncated"
                    else raw[:200] + bytes(400) + raw[600:])
    rows = run_rows([str(bad), str(FIXTURES / "ko.sgf")], tmp_path, jobs=1)
    assert any(r["member"] is None and file_codes(r) == ["SGF032"] for r in rows)
    assert rows[-1]["path"] == str(FIXTURES / "ko.sgf")  # the batch went on


def test_fifos_and_devices_inside_folders_are_named_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    os.mkfifo(folder / "fifo.sgf")
    (folder / "zero.sgf").symlink_to("/dev/zero")
    (folder / "ok.sgf").write_bytes(GAME)
    rows = run_rows([str(folder)], tmp_path, jobs=1)
    assert [(Path(str(r["path"])).name, [f["message"] for f in r["file_findings"]])  # type: ignore[attr-defined]
            for r in rows if r["index"] is None] == [
        ("fifo.sgf", ["a FIFO, not a record file; not read"]),
        ("zero.sgf", ["a symbolic link that leads out of the folder given (to /dev/zero); not "
                      "followed (--follow-links follows it)"])]


# --- batch: isolation ---------------------------------------------------------------------------


def poisoned(monkeypatch: pytest.MonkeyPatch, action: str) -> None:
    """Workers (forked after this) die, hang or hog memory on files named ``poison*``."""
    original = batch_module._process

    def process(item: WorkItem, options: BatchOptions):  # type: ignore[no-untyped-def]
        # The file's own name, not its path: a test's temporary folder may be named
        # "..._poisoned_run0", and then every file was poison, not one.
        if "poison" in Path(item.path).name:
            if action == "die":
                os.kill(os.getpid(), 9)
            elif action == "hang":
                import signal
                import time
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # the alarm is lost
                time.sleep(600)
            elif action == "hog":
                hog = bytearray(4 * 1024**3)  # past --limit memory
                return hog
            else:
                raise RuntimeError("boom")
        return original(item, options)

    monkeypatch.setattr(batch_module, "_process", process)


def folder_with_poison(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    for i in range(10):
        (folder / f"g{i:02d}.sgf").write_bytes(GAME)
    (folder / "g04-poison.sgf").write_bytes(GAME)
    return folder


@pytest.mark.parametrize(("action", "code", "words"), [
    ("die", "SGF033", "the worker process checking this file died (killed by signal 9 (SIGKILL; "
                      "out of memory?)); the batch went on"),
    ("raise", "SGF033", "sgfcheck failed on this file (RuntimeError: boom"),
    ("hang", "SGF031", "not finished within 3 s; skipped"),
    ("hog", "SGF035", "needed more than 512 MB of memory; not finished (raise it with --limit "
                      "memory=...)"),
])
def test_a_file_that_kills_hangs_or_hogs_a_worker_costs_only_its_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, action: str, code: str,
        words: str) -> None:
    poisoned(monkeypatch, action)
    monkeypatch.setattr(executor_module, "GRACE", 1.0)
    folder = folder_with_poison(tmp_path)
    # A bound the healthy files keep even on a loaded machine (a file sent again alone to a new
    # worker after a death once took past 0.5 s + the grace beside two test suites); only the
    # hanging file reaches it.
    for jobs in (1, 2):
        rows = run_rows([str(folder)], tmp_path, jobs=jobs, timeout=3.0 if action == "hang"
                        else 30.0, limits=Limits(memory=512))
        names = [Path(str(r["path"])).name for r in rows]
        assert names == sorted(p.name for p in folder.iterdir())  # every file, in order
        lost = [r for r in rows if r["index"] is None]
        assert len(lost) == 1, [(r["path"], r["file_findings"]) for r in lost]
        bad = lost[0]
        assert Path(str(bad["path"])).name == "g04-poison.sgf"
        assert file_codes(bad) == [code]
        assert words in bad["file_findings"][0]["message"]  # type: ignore[index]
        assert all(r["verdict"] == "clean" for r in rows if r is not bad)


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")
def test_a_worker_forked_from_a_large_process_gets_its_memory_on_top(tmp_path: Path) -> None:
    # A library user's process may hold gigabytes of address space it never touches (pyarrow,
    # a Dask client, thread pools). The workers it forks hold the same; a cap of 512 MB on the
    # whole of it left them no room to grow even their stack (they crashed, each file a row with
    # SGF033). The cap is now what a worker holds at start plus --limit memory.
    import mmap

    held = mmap.mmap(-1, 3 * 1024**3)  # 3 GB of address space, never touched
    try:
        assert address_space() > 3 * 1024**3
        rows = run_rows([str(FIXTURES / n) for n in ("ko.sgf", "seki.sgf", "false-eye.sgf")],
                        tmp_path, jobs=1, limits=Limits(memory=512))
    finally:
        held.close()
    assert [r["verdict"] for r in rows] == ["illegal moves", "clean", "clean"]
    assert not any(file_codes(r) for r in rows)


def test_resume_after_a_poisoned_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    poisoned(monkeypatch, "die")
    folder = folder_with_poison(tmp_path)
    full = tmp_path / "full.jsonl"
    runner.invoke(app, ["batch", str(folder), "--out", str(full), "--jobs", "2"])
    part = tmp_path / "part.jsonl"
    lines = full.read_text().splitlines(keepends=True)
    part.write_text("".join(lines[:6]) + lines[6][:20])  # killed in the middle of a line
    rows = [json.loads(line) for line in lines]
    assert [Path(str(r["path"])).name for r in rows if r["index"] is None] == [
        "g04-poison.sgf"], [(r["path"], r["file_findings"]) for r in rows if r["index"] is None]
    result = runner.invoke(app, ["batch", str(folder), "--resume", str(part), "--jobs", "2"])
    # The poisoned file's row was written before the cut (no run state: the summary and the
    # status cover the files of this run, all clean).
    assert result.exit_code == 0, result.output
    assert part.read_text() == full.read_text()


def test_batch_output_paths_are_checked_before_any_work(tmp_path: Path) -> None:
    for option, target in (("--out", tmp_path / "missing" / "r.jsonl"), ("--out", tmp_path),
                           ("--summary-json", tmp_path / "no" / "s.json"),
                           ("--duplicates", tmp_path)):
        result = runner.invoke(app, ["batch", str(FIXTURES / "ko.sgf"), option, str(target)])
        assert result.exit_code == 2, (option, target, result.output)
        assert result.output.startswith(f"sgfcheck: {option} ")
        assert "Traceback" not in result.output


def test_link_loops_and_broken_links_in_a_batch(tmp_path: Path) -> None:
    (tmp_path / "broken.sgf").symlink_to(tmp_path / "missing.sgf")
    (tmp_path / "a.sgf").symlink_to(tmp_path / "b.sgf")
    (tmp_path / "b.sgf").symlink_to(tmp_path / "a.sgf")
    items = list(iter_inputs([str(tmp_path)]))
    assert [(Path(i.path).name, getattr(i, "message", None)) for i in items] == [
        ("a.sgf", "symbolic link loop"), ("b.sgf", "symbolic link loop"),
        ("broken.sgf", "broken symbolic link")]


def test_input_problems_are_values_not_exceptions(tmp_path: Path) -> None:
    items = list(iter_inputs([str(tmp_path / "nothing-*.sgf"), str(tmp_path / "missing.sgf")]))
    assert [type(i) for i in items] == [InputProblem, InputProblem]


def test_the_main_process_holds_few_member_bytes_in_flight(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    # Members of 1 MB; at most 3 MB in flight (scaled down from 64 MB): items pulled from the
    # archive walk but not yet written stay few, where counting chunks alone would let 32 wait.
    monkeypatch.setattr(executor_module, "IN_FLIGHT_BYTES", 3 * 1024 * 1024)
    monkeypatch.setattr(executor_module, "CHUNK_BYTES", 1024 * 1024)
    member = GAME + b"C[" + b"x" * (1024 * 1024) + b"]"
    pulled = written = most = 0

    def walk():  # type: ignore[no-untyped-def]
        nonlocal pulled
        for i in range(30):
            pulled += 1
            yield WorkItem("big.zip", f"m{i:02d}.sgf", member)

    for _ in batch_module.run_items(walk(), BatchOptions.of(jobs=1, report_kind=ReportKind.NONE)):
        written += 1
        most = max(most, pulled - written)
    assert written == 30 and most <= 5


# --- the three inputs that still failed (issue 26) -----------------------------------------------

def _capped(args: list[str], cwd: Path, gib: int = 2) -> subprocess.CompletedProcess[str]:
    """Run sgfcheck as a user runs it, its address space capped (as a server's upload checker
    would run it)."""
    import resource

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (gib * 1024**3, gib * 1024**3))

    return subprocess.run([sys.executable, "-m", "sgfcheck", *args], cwd=cwd, text=True,
                          capture_output=True, preexec_fn=cap, timeout=120, check=False)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="bounded by possessive repeats (3.11)")
def test_a_50_mb_value_of_escapes_is_read_within_2_gib(tmp_path: Path) -> None:
    (tmp_path / "escapes.sgf").write_bytes(b"(;GM[1]SZ[19]C[" + b"\\]" * 25_000_000
                                           + b"];B[pd])")
    for command in ("check", "score"):
        done = _capped([command, "escapes.sgf", "--format", "json"], tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        report = json.loads(done.stdout)
        assert [(f["code"], f["message"]) for f in report["findings"]] == [
            ("SGF036", "a property value of 50000000 bytes (real records stay under a few "
                       "kilobytes)")]
        assert report["games"][0]["moves"] == 1


def test_a_node_with_a_million_properties_is_not_clean(tmp_path: Path) -> None:
    letters = [bytes([65 + i % 26, 65 + i // 26 % 26, 65 + i // 676 % 26]) for i in range(17576)]
    node = b"".join(b"P" + letters[i % len(letters)] + b"[x]" for i in range(1_000_000))
    (tmp_path / "props.sgf").write_bytes(b"(;GM[1]SZ[19]" + node + b";B[pd])")
    result = runner.invoke(app, ["check", str(tmp_path / "props.sgf"), "--format", "json"])
    (g,) = json.loads(result.output)["games"]
    assert g["verdict"] == "warnings"
    assert [(f["code"], f["message"]) for f in g["findings"] if f["code"] == "SGF036"] == [
        ("SGF036", "node 1 holds 1000002 property values (a real node holds a few; a full 19x19 "
                   "setup 361)")]


def test_scoring_a_file_of_thousands_of_games_judges_the_first_and_says_so(
        tmp_path: Path) -> None:
    game = b"(;GM[1]SZ[19]KM[6.5]RE[B+R];B[pd];W[dd];B[pp];W[dp])"
    (tmp_path / "many.sgf").write_bytes(game * 500)
    for command in ("score", "life"):
        result = runner.invoke(app, [command, str(tmp_path / "many.sgf"), "--format", "json",
                                     "--limit", "judged=30"])
        assert result.exit_code == 1
        report = json.loads(result.output)
        assert len(report["games"]) == 30
        assert [(f["code"], f["message"], f["limit"]) for f in report["findings"]] == [
            ("SGF035", "500 games read; only the first 30 were judged and counted (raise it with "
                       "--limit judged=...)", "judged=30")]


def test_check_text_lists_200_findings_of_a_game_and_counts_the_rest(tmp_path: Path) -> None:
    """Issue 51: the text table of 200,000 illegal moves took minutes; it lists 200 now and
    counts the rest by rule (JSON lists every one)."""
    from sgfcheck.output.text import MOST_ROWS, render_text
    from sgfcheck.replay.check import check_bytes

    # Move 1 is legal; moves 2-300 each play on an occupied point, the same colour twice.
    report = check_bytes(b"(;SZ[19]" + b";B[aa]" * 300 + b")", "many.sgf")
    (game,) = report.games
    assert len(game.findings) == 2 * 299 and MOST_ROWS == 200
    text = render_text(report, width=None)
    assert text.count("occupied point  ") == 100  # moves 2-101, two findings each
    assert text.splitlines()[-1] == ("  398 more findings not listed from move 102 (199 same "
                                     "colour twice, 199 occupied point); --format json lists "
                                     "every finding written")


# --- URL inputs under the rules of paths (issue 51 items 3-4) ----------------------------------


def _strangers_folder(tmp_path: Path) -> Path:
    """``in/`` with a record and a link out to ``outside/private/secret.sgf``; ``dir/`` with a
    record and a FIFO named like an archive."""
    (tmp_path / "outside" / "private").mkdir(parents=True)
    (tmp_path / "outside" / "private" / "secret.sgf").write_text(
        "(;GM[1]SZ[9]PB[SECRET-OUTSIDE];B[ee])", encoding="ascii")
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "ok.sgf").write_text("(;GM[1]SZ[9];B[ee])", encoding="ascii")
    (folder / "secret.sgf").symlink_to(Path("..") / "outside" / "private" / "secret.sgf")
    return folder


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_file_urls_obey_the_rules_of_paths(tmp_path: Path) -> None:
    pytest.importorskip("fsspec")
    folder = _strangers_folder(tmp_path)
    url = f"file://{folder}"
    for args in (["check", "--format", "json", url], ["check", "--format", "json",
                                                        f"{url}/*.sgf"],
                 ["check", "--format", "json", str(folder / "*.sgf")]):
        result = runner.invoke(app, args)
        assert "SECRET-OUTSIDE" not in result.stdout, args
        by_file = {json.loads(line)["file"]: json.loads(line) for line in
                   result.stdout.splitlines()}
        secret = next(v for k, v in by_file.items() if k.endswith("secret.sgf"))
        (finding,) = secret["findings"]
        assert finding["code"] == "SGF032" and "leads out of the folder" in finding["message"]
        assert "--follow-links follows it" in finding["message"]
        assert any(k.endswith("ok.sgf") and v["readable"] for k, v in by_file.items())
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, ["batch", url, "--out", str(out), "-q"])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["path"] for r in rows) == [f"{url}/ok.sgf", f"{url}/secret.sgf"]
    assert "SECRET-OUTSIDE" not in out.read_text()
    followed = runner.invoke(app, ["check", "--follow-links", "--format", "json", url])
    assert "SECRET-OUTSIDE" in followed.stdout  # asked for: the link is followed
    assert all(json.loads(line)["readable"] for line in followed.stdout.splitlines())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_named_like_an_archive_never_hangs_a_url_input(tmp_path: Path) -> None:
    pytest.importorskip("fsspec")
    folder = tmp_path / "dir"
    folder.mkdir()
    (folder / "rec.sgf").write_text("(;GM[1]SZ[9];B[ee])", encoding="ascii")
    os.mkfifo(folder / "up.zip")
    os.mkfifo(tmp_path / "f.zip")
    fifo = f"file://{tmp_path / 'f.zip'}"
    cases = {
        f"file://{folder}": "a FIFO",  # in a folder: an input problem, as for the path
        f"zip://x.sgf::{fifo}": "SGF032 a FIFO, not an archive; not read",
        f"tar://x.sgf::{fifo}": "SGF032 a FIFO, not an archive; not read",
        fifo: "SGF035 the FIFO gave no data for 0.5 s",  # named: waited for, read-wait
    }
    for url, said in cases.items():
        done = subprocess.run([sys.executable, "-m", "sgfcheck", "check", url, "--limit",
                               "read-wait=0.5"], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "COLUMNS": "300"}, check=False)
        # An input that cannot be read is said on standard error in text output.
        assert said in done.stdout + done.stderr, (url, done.stdout, done.stderr)


def test_findings_past_the_limit_are_counted_in_one(tmp_path: Path) -> None:
    """A 12 MB record of one move played 2 million times made 4 million findings and took
    5.6 GB; a line writes at most ``--limit findings`` of them and counts the rest."""
    from sgfcheck.limits import DEFAULT_LIMITS
    from sgfcheck.replay.check import check_bytes
    from sgfcheck.settings import Settings

    assert DEFAULT_LIMITS.findings == 10_000
    settings = Settings(limits=DEFAULT_LIMITS.with_specs(["findings=100"]))
    # Moves 2-300 each play on an occupied point, the same colour twice: 598 findings.
    report = check_bytes(b"(;SZ[19]" + b";B[aa]" * 300 + b")", "many.sgf", settings)
    (game,) = report.games
    *written, more = game.findings
    assert len(written) == 100 and written[-1].move == 51
    assert more.code.code == "SGF035" and more.move == 52
    assert more.message == ("498 more findings of this line past the first 100 are not written, "
                            "from move 52 on (249 same colour twice, 249 occupied point; raise "
                            "it with --limit findings=...)")
    assert more.extra == {"limit": "findings=100",
                          "more": {"same colour twice": 249, "occupied point": 249},
                          "illegal": {"occupied point": 249}}
    assert game.verdict.value == "illegal moves"


def test_a_member_name_in_the_engine_news_cannot_forge_a_log_line() -> None:
    # Found by an attacker's probe: an archive member's name went into batch's engine news line
    # on standard error raw, its line break forging a whole "sgfcheck batch: ..." line.
    from sgfcheck.cli.progress import _engine_news, log_line
    from sgfcheck.output.summary import Summary
    from sgfcheck.run.news import EngineNews

    forged = "a.sgf\nsgfcheck batch: 999 of 999 files\x07\u202e\x1b[2J.sgf"
    EngineNews.latest = f"KataGo judging {forged} game 1 of 2"
    try:
        line = log_line(Summary(), _engine_news())
    finally:
        EngineNews.latest = None
    assert "\n" not in line and "\x07" not in line and "\u202e" not in line and "\x1b" not in line
    assert line.endswith("; KataGo judging a.sgf\\nsgfcheck batch: 999 of 999 files\\x07\\u202e"
                         "\\x1b[2J.sgf game 1 of 2")


def test_an_illegal_move_past_the_findings_limit_still_counts(tmp_path: Path) -> None:
    # Found by an attacker's probe: with --limit findings=1 and a warning first (the same colour
    # twice), the occupied point was only counted inside SGF035: "games with illegal moves 0",
    # and batch --fail-on illegal exited 0.
    record = tmp_path / "capped.sgf"
    record.write_bytes(b"(;GM[1]FF[4]SZ[9];B[ee];B[cc];W[ee])")
    report = check_file(record, Settings(limits=Limits(findings=1)))
    (game,) = report.games
    assert [f.code.code for f in game.findings] == ["RUL009", "SGF035"]
    assert game.findings[1].capped_illegal == {"occupied point": 1}
    assert game.verdict.value == "illegal moves"
    result = runner.invoke(app, ["batch", str(record), "--limit", "findings=1", "--fail-on",
                                 "illegal", "--summary-json", str(tmp_path / "s.json")])
    summary = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert result.exit_code == 1
    assert summary["games_with_illegal_moves"] == 1
    assert summary["illegal_by_rule"] == {"occupied point": 1}


class _BreakingPool:
    """A stand-in for pebble's pool: it takes ``works`` tasks, then refuses every one as a
    broken pool does ("Unexpected error within the Pool")."""

    made = 0

    def __init__(self, works: int) -> None:
        type(self).made += 1
        self.works = works
        self.stopped = False

    def schedule(self, task, args, timeout=None):  # type: ignore[no-untyped-def]
        from concurrent.futures import Future

        if self.works <= 0:
            raise RuntimeError("Unexpected error within the Pool")
        self.works -= 1
        done: Future[object] = Future()
        done.set_result(task(*args))
        return done

    def stop(self) -> None:
        self.stopped = True

    def join(self) -> None:
        pass


def test_a_broken_pool_is_replaced_and_every_chunk_done() -> None:
    # Issue 62: back-to-back worker deaths broke pebble's pool ("All workers expired"), every
    # later task was refused, and the run ended in a traceback with an empty report.
    from sgfcheck.run.executor import Chunk, LocalPool, PoolExecutor, in_order

    _BreakingPool.made = 0
    pools = LocalPool(lambda: _BreakingPool(works=3))
    executor = PoolExecutor(pools, lambda chunk: [i * 10 for i in chunk.items], room=2)
    work = [Chunk([n], n) for n in range(10)]
    done = list(in_order(work, executor, timeout=0, recover=lambda chunk, exc: None))
    assert done == [[n * 10] for n in range(10)]  # every chunk, in order
    assert _BreakingPool.made == 4 and pools.renewals == 3


def test_a_pool_that_breaks_at_once_stops_the_run_with_a_sentence() -> None:
    from sgfcheck.run.executor import Chunk, LocalPool, PoolExecutor, RunStopped, in_order

    pools = LocalPool(lambda: _BreakingPool(works=0))
    executor = PoolExecutor(pools, lambda chunk: chunk.items, room=2)
    with pytest.raises(RunStopped, match="the worker pool broke and a new one could not take "
                                         "work"):
        list(in_order([Chunk([1], 0)], executor, timeout=0, recover=lambda chunk, exc: None))


@pytest.mark.parametrize("command", ["check", "score", "batch"])
def test_a_komi_that_is_no_number_is_said_in_sgfchecks_words(command: str) -> None:
    # Issue 62: --komi abc answered in the option parser's words ("Input should be a valid
    # number, unable to parse string as a number"); every other usage error is sgfcheck's.
    result = runner.invoke(app, [command, str(FIXTURES / "ko.sgf"), "--komi", "abc"])
    assert result.exit_code == 2
    assert ("sgfcheck: --komi: 'abc' is not a number of points (such as 6.5, 0 or -3); "
            f"sgfcheck {command} --help") in " ".join(result.output.split())
