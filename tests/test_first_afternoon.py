"""What a new user meets on a first afternoon (issue 40): the output file's name gives its format,
a bad ruleset parameter is said in words, one exit-status rule for every command, what the
listings leave out is said, dead stones are named with their colour, and the words of the notes
say what they mean."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT
from typer.testing import CliRunner

from sgfcheck.cli.app import app

runner = CliRunner()


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), env={"COLUMNS": "100"})


# --- the output file's name gives the format ------------------------------------------------


@pytest.mark.parametrize(("command", "name", "starts"), [
    ("score", "page.html", "<!DOCTYPE html>"),
    ("score", "rows.csv", "file,game,"),
    ("score", "tables.md", "fixtures/seki.sgf game 1"),
    ("check", "page.html", "<!DOCTYPE html>"),
    ("life", "chains.txt", "fixtures/seki.sgf game 1, position after move 2"),
])
def test_the_output_files_name_gives_its_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                command: str, name: str, starts: str) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / name
    result = run(command, "fixtures/seki.sgf", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8").lstrip("\n# ")
    assert text.startswith(starts), text[:200]
    assert result.stdout == ""  # all of it in the file
    assert f"written: {out}" in result.stderr


@pytest.mark.parametrize("command", ["check", "score", "life"])
def test_json_to_a_file_is_one_object_a_line(tmp_path: Path, command: str) -> None:
    out = tmp_path / "report.json"
    result = run(command, str(FIXTURES / "seki.sgf"), str(FIXTURES / "ko.sgf"), "-o", str(out))
    assert result.exit_code in (0, 1), result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [Path(json.loads(line)["file"]).name for line in lines] == ["seki.sgf", "ko.sgf"]


def test_csv_file_holds_the_rows(tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    run("score", str(FIXTURES / "seki.sgf"), "--compare", "chinese", "-o", str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [(r["ruleset"], r["colour"], r["total"]) for r in rows] == [
        ("japanese", "B", "12.0"), ("japanese", "W", "8.5"), ("chinese", "B", "27.0"),
        ("chinese", "W", "21.5")]


def test_a_format_and_a_name_that_disagree_are_a_usage_error(tmp_path: Path) -> None:
    result = run("score", str(FIXTURES / "seki.sgf"), "--format", "json", "-o",
                 str(tmp_path / "page.html"))
    assert result.exit_code == 2
    assert result.stderr == (f"sgfcheck: --format json but --output {tmp_path / 'page.html'} "
                             "says html: give one, or names that agree\n")
    result = run("life", str(FIXTURES / "seki.sgf"), "-o", str(tmp_path / "page.html"))
    assert result.exit_code == 2
    assert result.stderr.endswith("the name says html; life writes text, json\n")
    assert not (tmp_path / "page.html").exists()


def test_an_unknown_suffix_is_text_and_format_still_wins(tmp_path: Path) -> None:
    out = tmp_path / "report.out"
    assert run("check", str(FIXTURES / "ko.sgf"), "-o", str(out)).exit_code == 1
    assert "ILLEGAL MOVES (1 simple ko)" in out.read_text(encoding="utf-8")
    run("check", str(FIXTURES / "ko.sgf"), "--format", "json", "-o", str(out))
    assert json.loads(out.read_text(encoding="utf-8"))["games"][0]["verdict"] == "illegal moves"


# --- a bad ruleset parameter, in words -------------------------------------------------------


@pytest.mark.parametrize(("rules", "said"), [
    ("japanese:ko=superko",
     "japanese:ko=superko: ko takes simple, positional, situational or natural-situational"),
    ("japanese:komi=abc", "japanese:komi=abc: komi takes a number of points such as 6.5, 0 or "
                          "-3 (at most 2704 either way)"),
    ("chinese:tax=some", "chinese:tax=some: tax takes none, seki or all"),
    ("aga:pass-stones=maybe", "aga:pass-stones=maybe: pass-stones takes yes or no"),
    ("aga:first-pass-bonus=x",
     "aga:first-pass-bonus=x: first-pass-bonus takes a number of points, such as 1 or 0.5"),
    ("aga:handicap_bonus=2", "aga:handicap_bonus=2: handicap-bonus takes 0, N or N-1"),
    ("japanese:superko=yes", "japanese:superko=yes: no rule parameter 'superko'; the parameters "
                             "are ko, suicide, scoring, komi, handicap-bonus, pass-stones, "
                             "white-passes-last, tax, first-pass-bonus, white-first-pass-bonus, "
                             "black-wins-ties, long-cycle, play-may-resume, bent-four-dead, "
                             "komi-fixed"),
])
def test_a_bad_ruleset_parameter_names_it_and_its_values(rules: str, said: str) -> None:
    result = run("score", str(FIXTURES / "seki.sgf"), "--rules", rules)
    assert result.exit_code == 2
    assert result.stderr == f"sgfcheck: {said}\n"


def flat(text: str) -> str:
    """Help text with its box and its wrapping taken out."""
    return " ".join(text.replace("│", " ").split())


def test_help_says_what_the_code_does() -> None:
    assert "under 0.7" in flat(run("score", "--help").output)
    merge = flat(run("report", "merge", "--help").output)
    assert "not such a folder" not in merge and "DIR is not a folder" in merge
    assert ".parquet (typed columns" in flat(run("batch", "--help").output)


# --- one exit-status rule for every command ---------------------------------------------------


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    empty = tmp_path / "empty"
    empty.mkdir()
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    shutil.copy(FIXTURES / "capture.sgf", mixed / "a-good.sgf")
    shutil.copy(FIXTURES / "seki.sgf", mixed / "b-good.sgf")
    (mixed / "c-bad.sgf").write_bytes(b"\x00\x01 not a record at all")
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"\x00\x01 not a record at all")
    return {"empty": empty, "mixed": mixed, "bad": bad, "missing": tmp_path / "missing.sgf"}


@pytest.mark.parametrize("command", ["check", "score", "life", "batch"])
def test_one_exit_status_rule_for_every_command(command: str,
                                                folders: dict[str, Path]) -> None:
    def status(*inputs: Path) -> int:
        extra = ["-q"] if command == "batch" else []
        code: int = run(command, *map(str, inputs), *extra).exit_code
        return code

    assert status(folders["missing"]) == 2  # nothing could be done
    assert status(folders["empty"]) == 2
    assert status(folders["bad"]) == 2
    assert status(folders["mixed"]) == 1  # two good records, one unreadable: something found
    assert status(folders["missing"], FIXTURES / "capture.sgf") == 1
    assert status(FIXTURES / "capture.sgf") == 0


def test_an_empty_folder_says_there_is_nothing_in_it(folders: dict[str, Path]) -> None:
    result = run("check", str(folders["empty"]))
    assert result.stderr == f"sgfcheck: no record in the inputs: no file found in " \
                            f"{folders['empty']}\n"
    result = run("batch", "-q", str(folders["empty"]))
    assert result.exit_code == 2
    assert result.stderr.endswith(f"sgfcheck: no record in the inputs: no file found in "
                                  f"{folders['empty']}\n")


# --- listings say what they leave out, and whose stones are dead --------------------------


def test_life_says_how_many_chains_it_does_not_list() -> None:
    # dead-in-territory.sgf: White's H5 is dead (the estimate, 0.75); Black's wall and White's
    # wall: the estimate decides them alive with confidence 1, one not proven by Benson.
    shown = run("life", "--engine", "none", str(FIXTURES / "dead-in-territory.sgf")).stdout
    lines = shown.splitlines()
    assert "chains: 2 alive, 1 dead" in lines
    note = " ".join(" ".join(lines[lines.index("chains: 2 alive, 1 dead") + 1:]).split())
    assert note == ("not listed: 1 alive chain(s) not in doubt (alive by the markup, your word, "
                    "an engine or a rule, or by the estimate with a confidence of 0.9 or more); "
                    "--all lists every chain, as --format json does")
    every = run("life", "--all", "--engine", "none", str(FIXTURES / "dead-in-territory.sgf"))
    rows = [line for line in every.stdout.splitlines() if line.startswith(("B  ", "W  "))]
    assert len(rows) == 3 and "not listed" not in every.stdout


def test_dead_stones_are_named_with_their_colour() -> None:
    shown = run("score", "--engine", "none", str(FIXTURES / "dead-in-territory.sgf")).stdout
    assert "dead stones (estimate): white H5" in shown.splitlines()


def test_no_dead_stones_asked_is_not_called_the_dead_stones_you_gave() -> None:
    shown = run("score", "--dead-stones", "none", str(FIXTURES / "dead-in-territory.sgf"))
    text = " ".join(shown.stdout.split())
    assert "the dead stones you gave" not in text
    assert ("RE[W+9.5] MISMATCH; counted W+36.5 under japanese with komi 0.5; on the stones as "
            "they stand, every one counted alive as asked (--alive or --dead-stones none)") in text
    assert "dead stones (none asked: every stone alive): none" in shown.stdout.splitlines()
    given = run("score", "--dead", "H5", str(FIXTURES / "dead-in-territory.sgf")).stdout
    assert "on the dead stones you gave (--dead)" in " ".join(given.split())


def test_the_aga_pass_stone_note_says_who_passed_and_why(tmp_path: Path) -> None:
    # Black passes last: under AGA rules White must pass last, and that extra pass is a pass
    # stone for Black.
    record = tmp_path / "pass.sgf"
    record.write_text("(;GM[1]FF[4]SZ[5]KM[0.5]RU[AGA];B[cc];W[];B[])", encoding="utf-8")
    shown = " ".join(run("score", "--compare", "aga", str(record)).stdout.split())
    assert ("aga: Black passed last, and the rules want White to pass last: White's extra "
            "pass gives Black one more pass stone") in shown


def test_a_truncated_file_says_its_error_before_the_table() -> None:
    data = (FIXTURES / "ko.sgf").read_bytes()
    result = runner.invoke(app, ["check", "-"], input=data[:200], env={"COLUMNS": "100"})
    lines = result.stdout.splitlines()
    assert lines[0] == ("-: ERRORS IN THE FILE (1); the verdict on each game's moves follows")
    assert lines[1].startswith("code ") and "SGF005" in lines[3]
    assert result.exit_code == 1


# --- archives ----------------------------------------------------------------------------------


def test_batch_says_what_it_leaves_beside_the_report_and_the_page(tmp_path: Path) -> None:
    report, page = tmp_path / "report.jsonl", tmp_path / "page.html"
    result = run("batch", "-q", str(FIXTURES / "ko.sgf"), str(FIXTURES / "capture.sgf"),
                 "--out", str(report), "--html", str(page))
    said = " ".join(result.stderr.split())
    assert ("beside the report, report.jsonl.state: the run's state, which --resume report.jsonl "
            "reads to go on after an interruption (keep it with the report, or remove both)"
            ) in said
    assert "beside the page, page-games/: the page of each problem game, linked from page.html" \
        in said
    assert (tmp_path / "report.jsonl.state").exists() and (tmp_path / "page-games").is_dir()


def test_the_batch_pages_problems_show_the_count_and_lead_with_the_problem(
        tmp_path: Path) -> None:
    # fox-komi-zero-falsified.sgf: RE[B+15.5], counted W+15.5 under japanese with komi 6.5 (its
    # moves clean): its row says the count and its reading, and its detail starts with the
    # result, not with "CLEAN".
    page = tmp_path / "page.html"
    run("batch", "-q", "--dead-stones", "auto", "--engine", "none",
        str(FIXTURES / "fox-komi-zero-falsified.sgf"), "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert "<th class=\"text\">counted (rules, komi)</th>" in html
    assert '<td class="text">W+15.5 under japanese with komi 6.5</td>' in html
    detail = html[html.index('<section class="problem"'):]
    box = detail[detail.index('<div class="verdict'):]
    box = box[:box.index("</div>")]
    assert box[box.index(">") + 1:].startswith("<b>RE B+15.5: mismatch - computed W+15.5")
    assert "<br>moves: clean<br>counted: W+15.5 under japanese with komi 6.5<br>" in box


def test_readme_names_every_extra_and_git_ignores_the_built_manual() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    extras = readme[readme.index("Extras:"):]
    for extra in ("`png`", "`parquet`", "`distributed`", "`docs`"):
        assert extra in extras, extra
    assert "site/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_a_refused_or_empty_batch_leaves_nothing_behind(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 52: an empty run wrote a 20-line summary, the report and its state, then exited
    2; a Parquet report without pyarrow left its state behind."""
    empty = tmp_path / "empty"
    empty.mkdir()
    report = tmp_path / "e.jsonl"
    result = run("batch", str(empty), "--out", str(report))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"sgfcheck: no record in the inputs: no file found in {empty}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)  # not installed
    result = run("batch", str(FIXTURES / "capture.sgf"), "--out", str(tmp_path / "b.parquet"))
    assert result.exit_code == 2
    assert "a Parquet report needs pyarrow: pip install pyarrow" in result.stderr
    assert "pip install -e '.[parquet]' in a checkout" in " ".join(result.stderr.split())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]
