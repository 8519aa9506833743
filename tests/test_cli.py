"""The command line: output, JSON schema, exit codes."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.output.schema import SCORE_CSV_COLUMNS

runner = CliRunner()


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def test_check_text_output_and_exit_code() -> None:
    result = run("check", str(FIXTURES / "ko.sgf"))
    assert result.exit_code == 1
    assert "ILLEGAL MOVES (1 simple ko)" in result.output
    assert "RUL004" in result.output and "C4" in result.output


def test_clean_file_exits_zero() -> None:
    result = run("check", str(FIXTURES / "capture.sgf"))
    assert result.exit_code == 0
    assert "CLEAN" in result.output


def test_json_schema() -> None:
    result = run("check", "--format", "json", str(FIXTURES / "ko.sgf"))
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["file"].endswith("ko.sgf") and doc["readable"] is True
    (g,) = doc["games"]
    assert g["index"] == 1 and g["size"] == [5, 5] and g["komi"] == 6.5 and g["handicap"] == 0
    assert g["rules"]["name"] == "japanese" and g["rules"]["source"] == "RU"
    assert g["rules"]["ko"] == "simple" and g["rules"]["suicide"] == "forbidden"
    assert g["result"] == {"raw": None, "winner": None, "margin": None, "kind": "unknown",
                           "note": "no RE property"}
    assert g["moves"] == 2 and g["encoding"] == "ascii"
    (f,) = [f for f in g["findings"] if f["severity"] == "error"]
    assert {k: f[k] for k in ("code", "move", "colour", "point", "rule", "repeats_move")} == {
        "code": "RUL004", "move": 2, "colour": "B", "point": "C4", "rule": "simple ko",
        "repeats_move": 0}


def test_json_one_object_per_file_per_line() -> None:
    result = run("check", "--format", "json", str(FIXTURES / "ko.sgf"),
                 str(FIXTURES / "capture.sgf"))
    lines = result.output.strip().splitlines()
    assert [json.loads(line)["file"].split("/")[-1] for line in lines] == ["ko.sgf", "capture.sgf"]


def test_all_rules_table() -> None:
    result = run("check", "--all-rules", str(FIXTURES / "psk-not-ssk.sgf"))
    assert result.exit_code == 0  # legal under its own (default) rules
    # At 100 columns the ten presets are split into tables that fit, each with move 10's row.
    rows = [line for line in result.output.splitlines() if line.strip().startswith("10")]
    assert len(rows) > 1 and all(len(line) <= 100 for line in result.output.splitlines())
    assert sum(row.count("positional superko") for row in rows) == 3  # tromp-taylor, ing, wmsg
    wide = run("check", "--all-rules", "--wide", str(FIXTURES / "psk-not-ssk.sgf"))
    (row,) = [line for line in wide.output.splitlines() if line.strip().startswith("10")]
    assert row.count("positional superko") == 3


def test_rules_override_and_result_parsed() -> None:
    result = run("check", "--rules", "tromp-taylor", "--format", "json",
                 str(FIXTURES / "psk-not-ssk.sgf"))
    assert result.exit_code == 1
    g = json.loads(result.output)["games"][0]
    assert g["rules"]["source"] == "--rules"
    assert [f["code"] for f in g["findings"] if f["severity"] == "error"] == ["RUL005"]


def test_missing_file_among_others_exit_one_and_other_files_still_checked() -> None:
    # One rule for every command: 2 only when nothing could be done; a path that is not there
    # among records read is something found (1), as an illegal move is.
    result = run("check", "/nonexistent/game.sgf", str(FIXTURES / "ko.sgf"))
    assert result.exit_code == 1
    assert "UNREADABLE" in result.output and "SGF001" in result.output
    assert "ILLEGAL MOVES" in result.output


def test_usage_errors_exit_two() -> None:
    assert run("check", "--rules", "klingon", str(FIXTURES / "ko.sgf")).exit_code == 2
    assert run("check", "--ko", "sometimes", str(FIXTURES / "ko.sgf")).exit_code == 2
    assert run("check").exit_code == 2


def test_rules_listing() -> None:
    result = run("rules")
    assert result.exit_code == 0
    assert "natural-situational" in result.output and "new-zealand" in result.output
    doc = json.loads(run("rules", "--format", "json").output)
    assert doc["aga"]["handicap_bonus"] == "N-1" and doc["ing"]["black_wins_ties"] is True


def test_python_dash_m(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "sgfcheck", "check", str(FIXTURES / "ko.sgf")],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "RUL004" in out.stdout


def test_score_text_json_csv_markdown() -> None:
    path = str(FIXTURES / "seki.sgf")
    text = run("score", path)
    assert text.exit_code == 0, text.output
    assert "points in seki: A7, E7" in text.output
    assert "RE check (japanese): MATCH" in text.output
    doc = json.loads(run("score", "--format", "json", path).output)
    (g,) = doc["games"]
    assert g["dead_stones"]["source"] == "estimate"  # no markup: judged, seki kept alive
    assert g["dead_stones"]["points"] == []
    assert g["result_check"]["status"] == "match"
    rows = {s["ruleset"]: s for s in g["scores"]}
    assert rows["chinese"]["black"]["total"] == 27 and rows["chinese"]["white"]["total"] == 21.5
    assert rows["japanese"]["black"]["components"]["seki_excluded"] == 1
    assert g["seki"] == {"black": ["A7"], "white": ["E7"]}
    csv_out = run("score", "--format", "csv", path).output.splitlines()
    assert csv_out[0].startswith("file,game,ruleset,method,colour")
    assert len(csv_out) == 1 + 2 * 5  # header + B and W rows for 5 rulesets
    md = run("score", "--format", "markdown", path).output
    assert "| ruleset" in md and "### " in md


def test_score_all_rules_and_dead_option() -> None:
    path = str(FIXTURES / "scoring-basic.sgf")
    doc = json.loads(run("score", "--all-rules", "--format", "json", path).output)
    assert len(doc["games"][0]["scores"]) == 10
    result = run("score", "--alive", "--format", "json", path)
    g = json.loads(result.output)["games"][0]
    assert g["dead_stones"]["source"] == "--alive"
    assert g["result_check"]["status"] == "mismatch"
    assert result.exit_code == 1


def test_score_tells_a_mismatch_from_an_undecided_result() -> None:
    # unfinished-two-off.sgf: RE[W+11.5] two points off the solved count W+9.5, just outside
    # the band: unverifiable, exit 3. fox-komi-zero-falsified.sgf: a mismatch, exit 1; both
    # together: the mismatch wins, 1.
    undecided = str(FIXTURES / "unfinished-two-off.sgf")
    wrong = str(FIXTURES / "fox-komi-zero-falsified.sgf")
    result = run("score", "--engine", "none", "--format", "json", undecided)
    assert json.loads(result.output)["games"][0]["result_check"]["status"] == "unverifiable"
    assert result.exit_code == 3
    assert run("score", "--engine", "none", "-q", wrong).exit_code == 1
    assert run("score", "--engine", "none", "-q", undecided, wrong).exit_code == 1
    assert run("score", "--engine", "none", "-q", undecided,
               str(FIXTURES / "nosuch.sgf")).exit_code == 1  # an input missing among records
    assert run("score", "--engine", "none", "-q",
               str(FIXTURES / "scoring-basic.sgf")).exit_code == 0


def test_score_usage_errors() -> None:
    path = str(FIXTURES / "seki.sgf")
    assert run("score", "--rules", "klingon", path).exit_code == 2
    assert run("score", "--dead", "Z99", path).exit_code == 2
    assert run("score", "--dead", "A7", "--alive", path).exit_code == 2


def test_score_markdown_is_commonmark_blocks_not_one_paragraph() -> None:
    # A heading, the facts as a list, the table, the explanations as a list, the RE check and
    # what it rests on: each its own block (there was no blank line after the table, so "Why
    # the rows differ" was read as a table row and the facts ran into one paragraph).
    from markdown_it import MarkdownIt

    result = runner.invoke(app, ["score", str(FIXTURES / "seki.sgf"), "--compare",
                                 "chinese,japanese", "--format", "markdown"])
    tokens = MarkdownIt("commonmark").enable("table").parse(result.output)
    blocks = [t.type for t in tokens if t.level == 0 and t.type.endswith("_open")]
    # heading; the answer; facts; table; "must_fill, seki_excluded and tax are taken from the
    # total"; "Why the rows differ" and its list; the RE check and what it rests on.
    assert blocks == ["heading_open", "paragraph_open", "bullet_list_open", "table_open",
                      "bullet_list_open",
                      "paragraph_open", "bullet_list_open", "paragraph_open", "bullet_list_open"]
    rows = [t for t in tokens if t.type == "tr_open"]
    assert len(rows) == 5  # the header and one row per ruleset and colour


@pytest.mark.parametrize("command", ["score", "life"])
def test_move_past_the_end_is_a_usage_error_before_any_work(command: str) -> None:
    # ko.sgf has 2 moves: --move 3 was clamped to the last move without a word.
    path = str(FIXTURES / "ko.sgf")
    # triple-ko.sgf (12 moves) first: no file is scored before the error.
    result = runner.invoke(app, [command, str(FIXTURES / "triple-ko.sgf"), path, "--move", "3"])
    assert result.exit_code == 2
    assert result.output == f"sgfcheck: --move 3: {path} game 1 has 2 moves\n"


@pytest.mark.parametrize("command", ["check", "score", "life", "batch", "convert", "rules"])
def test_help_has_examples_and_no_type_names_for_flags(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    assert "Examples:" in result.output and f"sgfcheck {command}" in result.output
    # No Python type where the value's name is said: not even Typer's own --help, nor the
    # inputs (INPUT, not <list[str]>).
    assert "<bool>" not in result.output and "<list[" not in result.output
    assert "…" not in result.output  # no default cut off (--compare's was)


FITTING = sorted(p.name for p in FIXTURES.glob("*.sgf"))


@pytest.mark.parametrize("name", FITTING)
def test_default_output_fits_in_100_columns(name: str) -> None:
    path = str(FIXTURES / name)
    for args in (["check", "-v", path], ["check", "--all-rules", path], ["score", path],
                 ["score", "--all-rules", path], ["life", path]):
        output = runner.invoke(app, args, env={"COLUMNS": "100"}).output
        too_wide = [line for line in output.splitlines() if len(line) > 100]
        assert too_wide == [], (args, too_wide[:2])


def test_rules_batch_and_narrow_terminals_fit_too() -> None:
    for columns in ("100", "60"):
        for args in (["rules"], ["batch", str(FIXTURES), "--fail-on", "never"],
                     ["check", "-v", str(FIXTURES / "sending-two-returning-one.sgf")]):
            output = runner.invoke(app, args, env={"COLUMNS": columns}).output
            assert max(len(line) for line in output.splitlines()) <= int(columns), args


def test_wide_keeps_every_column_on_one_line() -> None:
    wide = runner.invoke(app, ["score", str(FIXTURES / "seki.sgf"), "--wide"]).output
    header = next(line for line in wide.splitlines() if line.startswith("ruleset"))
    # The components by the names of the JSON and the CSV.
    assert header.split() == ["ruleset", "method", "colour", "empty", "settled", "must_fill",
                              "seki_excluded", "stones", "prisoners", "dead", "pass_stones", "tax",
                              "komi", "handicap_bonus", "pass_bonus", "total", "result"]
    components = header.split()[3:-2]
    assert components == [c for c in SCORE_CSV_COLUMNS if c in components]


def test_the_count_is_one_table_and_the_columns_without_room_are_lines_under_it() -> None:
    # seki.sgf at 100 columns: the components with values in most rows fit; AGA's pass stones
    # (one each) and stone scoring's group tax (two a side, two groups each) have no room and
    # are said beneath, never in a second table of empty rows.
    output = runner.invoke(app, ["score", str(FIXTURES / "seki.sgf")],
                           env={"COLUMNS": "100"}).output
    lines = output.splitlines()
    headers = [line for line in lines if line.startswith("ruleset")]
    assert headers == [line for line in lines if line.split()[:3] == ["ruleset", "colour",
                                                                     "result"]]
    assert len(headers) == 1
    assert headers[0].split() == ["ruleset", "colour", "result", "total", "komi", "empty",
                                  "seki_excluded", "stones"]
    assert "not in the table for want of width (--wide shows them):" in lines
    assert "  pass_stones: aga B 1, W 1" in lines
    assert "  tax: stone-scoring B 2, W 2" in lines


def _mixed_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    (folder / "ko.sgf").write_bytes((FIXTURES / "ko.sgf").read_bytes())
    (folder / "notes.txt").write_text("not a record")
    (folder / "sub" / "seki.SGF").write_bytes((FIXTURES / "seki.sgf").read_bytes())
    return folder


@pytest.mark.parametrize("command", ["check", "score", "life"])
def test_every_command_reads_folders_and_names_what_it_skips(tmp_path: Path,
                                                             command: str) -> None:
    folder = _mixed_folder(tmp_path)
    result = runner.invoke(app, [command, str(folder), "--format", "json"])
    objects = [json.loads(line) for line in result.output.splitlines()]
    assert [Path(o["file"]).name for o in objects] == ["ko.sgf", "notes.txt", "seki.SGF"]
    assert objects[1]["skipped"] == "not a record (.sgf, .gib, .ngf, .ugf, .ugi) nor an archive"
    text = runner.invoke(app, [command, str(folder)]).output
    assert f"{folder / 'notes.txt'}: skipped, not a record" in text


@pytest.mark.parametrize("command", ["check", "score", "life"])
def test_every_command_reads_a_record_on_standard_input(command: str) -> None:
    data = (FIXTURES / "ko.sgf").read_bytes()
    result = runner.invoke(app, [command, "-", "--format", "json"], input=data)
    obj = json.loads(result.output)
    assert obj["file"] == "-" and len(obj["games"]) == 1


def test_check_reads_archives_and_globs(tmp_path: Path) -> None:
    folder = _mixed_folder(tmp_path)
    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(folder / "ko.sgf", "ko.sgf")
        z.write(folder / "notes.txt", "notes.txt")
    result = runner.invoke(app, ["check", str(archive), str(folder / "*.sgf"), "--format",
                                 "json"])
    names = [json.loads(line)["file"] for line in result.output.splitlines()]
    assert names == [f"{archive}:ko.sgf", f"{archive}:notes.txt", str(folder / "ko.sgf")]
    assert result.exit_code == 1  # ko.sgf's illegal retake


def test_inputs_with_no_record_are_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x")
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 2 and "no record in the inputs" in result.output


def test_batch_summary_names_the_files_it_skipped(tmp_path: Path) -> None:
    folder = _mixed_folder(tmp_path)
    summary = tmp_path / "s.json"
    result = runner.invoke(app, ["batch", str(folder), "--summary-json", str(summary),
                                 "--fail-on", "never", "--wide"])  # a long tmp path: one line
    assert f"skipped, not a record: {folder / 'notes.txt'}" in result.output
    data = json.loads(summary.read_text())
    assert data["not_records"] == 1 and data["not_record_names"] == [str(folder / "notes.txt")]
    assert data["files"] == 2


def test_the_progress_bar_shows_a_total_a_rate_and_the_time_left() -> None:
    import io

    from rich.console import Console

    from sgfcheck.cli.progress import ProgressBar

    screen = io.StringIO()
    bar = ProgressBar("games", 10, True, Console(file=screen, force_terminal=True, width=100))
    for _ in range(4):
        bar.advance()
    assert bar.display is not None
    bar.display.refresh()
    bar.close()
    shown = screen.getvalue()
    assert "4/10" in shown and "games/s" in shown and "0:00:0" in shown  # time left and taken


def test_no_progress_in_pipes_or_with_quiet(tmp_path: Path) -> None:
    for args in (["score", str(FIXTURES)], ["batch", str(FIXTURES), "--fail-on", "never"],
                 ["check", str(FIXTURES), "--quiet"]):
        result = runner.invoke(app, args)
        assert "━" not in result.output and "ETA" not in result.output


def test_text_fits_whatever_the_path(tmp_path: Path) -> None:
    # A path longer than the terminal (a clone in a deep folder) is cut where the line ends;
    # a test once failed in any clone whose path was longer than about 21 characters.
    deep = tmp_path / ("a-folder-with-a-long-name-" * 4) / "games"
    deep.mkdir(parents=True)
    for name in ("sending-two-returning-one.sgf", "pass-alive.sgf", "seki.sgf"):
        (deep / name).write_bytes((FIXTURES / name).read_bytes())
    for args in (["check", "-v", str(deep / "sending-two-returning-one.sgf")],
                 ["life", str(deep / "pass-alive.sgf")], ["score", str(deep / "seki.sgf")],
                 ["batch", str(deep), "--fail-on", "never"]):
        output = runner.invoke(app, args, env={"COLUMNS": "100"}).output
        assert max(len(line) for line in output.splitlines()) <= 100, args


def test_one_meaning_per_option_and_the_old_spellings_for_one_release() -> None:
    path = str(FIXTURES / "seki.sgf")

    def rows(*args: str) -> tuple[list[str], str]:
        result = runner.invoke(app, ["score", path, "--format", "json", *args])
        output = result.stdout
        names = [s["ruleset"] for s in json.loads(output)["games"][0]["scores"]]
        # What the engines took (KataGo confirms a mismatch where installed) is said apart.
        said = [line for line in result.stderr.splitlines() if not line.startswith("engines: ")]
        return names, "\n".join(said)

    # --rules is the game's ruleset on score as on check; the rows are --compare.
    assert rows("--rules", "chinese", "--compare", "aga") == (["chinese", "aga"], "")
    assert rows("--compare", "chinese,japanese") == (["japanese", "chinese"], "")
    # The spellings of before the first release (--game-rules, a list in --rules) are gone.
    assert runner.invoke(app, ["score", path, "--game-rules", "aga"]).exit_code == 2


def test_an_unreadable_input_is_said_on_standard_error() -> None:
    """Issue 52: ``check nosuch.sgf >/dev/null`` printed nothing; the report stays on standard
    output, a file that could not be read at all is an error on standard error (text)."""
    for args in (["check", "nosuch-sgfcheck.sgf"], ["score", "nosuch-sgfcheck.sgf"],
                 ["check", "nosuch-sgfcheck.sgf", str(FIXTURES / "ko.sgf")]):
        result = runner.invoke(app, args)
        assert "nosuch-sgfcheck.sgf: UNREADABLE - SGF001 cannot read the file" in result.stderr
        assert "nosuch-sgfcheck.sgf" not in result.stdout
    both = runner.invoke(app, ["check", "nosuch-sgfcheck.sgf", str(FIXTURES / "ko.sgf")])
    assert both.exit_code == 1 and "ko.sgf game 1: ILLEGAL MOVES" in both.stdout
    # JSON is data: the unreadable file is an object of the report, as before.
    data = runner.invoke(app, ["check", "--format", "json", "nosuch-sgfcheck.sgf"])
    assert json.loads(data.stdout)["readable"] is False and data.stderr == ""


def test_score_of_several_games_ends_with_one_line_a_game() -> None:
    """Issue 52: ``score`` of a folder printed hundreds of lines and no closing summary."""
    files = [str(FIXTURES / n) for n in ("seki.sgf", "ko.sgf", "unfinished-two-off.sgf")]
    result = runner.invoke(app, ["score", "--engine", "none", "--wide", *files])
    tail = result.stdout.splitlines()[-4:]
    assert tail == [
        "3 games, one line each:",
        f"{files[0]} game 1: MATCH RE[B+3.5], counted B+3.5 (japanese, komi 0.5)",
        f"{files[1]} game 1: NOT SCORED no RE, counted W+3.5 (japanese, komi 6.5)",
        f"{files[2]} game 1: UNVERIFIABLE RE[W+11.5], counted W+9.5 (japanese, komi 0.5)"]
    one = runner.invoke(app, ["score", "--engine", "none", files[0]])
    assert "one line each" not in one.stdout  # one game: its answer is the first line already


def test_a_file_of_several_games_leads_with_their_answers(tmp_path: Path) -> None:
    """Issue 62 (4): a director scoring a collection read hundreds of lines before the answers;
    a file of several games now leads with one line a game (a stub cut in the opening names no
    count), its games' tables after, and no closing list repeats them."""
    both = tmp_path / "two.sgf"
    both.write_bytes((FIXTURES / "stub-3-moves.sgf").read_bytes()
                     + (FIXTURES / "seki.sgf").read_bytes())
    lines = runner.invoke(app, ["score", "--engine", "none", "--wide", str(both)]).stdout
    assert lines.splitlines()[:4] == [
        "2 games, one line each:",
        f"{both} game 1: NOT SCORED RE[W+0.5]",
        f"{both} game 2: MATCH RE[B+3.5], counted B+3.5 (japanese, komi 0.5)",
        ""]
    assert lines.count("one line each") == 1


def test_usage_errors_are_one_line_in_one_style_with_the_near_spelling() -> None:
    """Issue 52: ``--dead-stones magic`` was a boxed panel, ``--rules chinees`` a one-liner, and
    neither suggested the near spelling."""
    seki = str(FIXTURES / "seki.sgf")
    cases = {
        ("--dead-stones", "estimat"): "sgfcheck: --dead-stones: 'estimat' is not one of 'auto', "
        "'markup', 'estimate', 'benson', 'gnugo', 'katago', 'none' (did you mean estimate?); "
        "sgfcheck score --help",
        ("--engine", "kata"): "sgfcheck: --engine: 'kata' is not one of 'auto', 'none', 'gnugo', "
        "'katago' (did you mean katago?); sgfcheck score --help",
        ("--rules", "chinees"): "sgfcheck: unknown ruleset 'chinees' (did you mean chinese?); "
        "known: tromp-taylor, chinese, japanese, korean, aga, bga, ing, new-zealand, wmsg, "
        "stone-scoring",
        ("--formt", "json"): "sgfcheck: No such option: --formt (Possible options: --format, "
        "--komi); sgfcheck score --help",
    }
    for args, said in cases.items():
        result = runner.invoke(app, ["score", seki, *args])
        assert result.exit_code == 2, args
        assert result.stdout == "" and result.stderr == said + "\n", args
    unknown = runner.invoke(app, ["scroe", seki])
    assert unknown.exit_code == 2
    assert unknown.stderr == ("sgfcheck: No such command 'scroe' (did you mean score?); "
                              "sgfcheck --help\n")


def test_score_answers_gives_one_line_a_game_and_nothing_else() -> None:
    # Issue 62: a director scoring 5 games read 360 lines for 5 answers.
    result = runner.invoke(app, ["score", str(FIXTURES / "seki.sgf"),
                                 str(FIXTURES / "unfinished.sgf"), "--answers", "--wide",
                                 "--engine", "none"])
    assert result.exit_code == 3
    assert result.output.splitlines() == [
        f"{FIXTURES / 'seki.sgf'} game 1: MATCH RE[B+3.5], counted B+3.5 (japanese, komi 0.5)",
        f"{FIXTURES / 'unfinished.sgf'} game 1: UNVERIFIABLE RE[W+10.5], counted W+9.5 "
        "(japanese, komi 0.5)"]
