"""sgfcheck batch: inputs, rows, resume, duplicates, exit codes."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import FIXTURES, corpus_dir
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.output.html import ProblemGame
from sgfcheck.output.summary import Summary
from sgfcheck.records.inputs import iter_inputs
from sgfcheck.replay.board import BLACK, WHITE, Board
from sgfcheck.run.batch import BatchOptions, Problems, run_batch
from sgfcheck.run.report import write_report
from sgfcheck.run.reportfile import ReportWriter, read_done

runner = CliRunner()
FIXTURE_FILES = sorted(f for f in FIXTURES.glob("*.sgf") if not f.name.startswith("not-a-record"))
"""The fixtures that are game records (one game each)."""


def random_game(size: int = 9, moves: int = 40, seed: int = 7) -> list[tuple[str, int, int]]:
    rng = random.Random(seed)
    board = Board(size, size)
    out = []
    colour = BLACK
    ko = -1
    while len(out) < moves:
        empties = [p for p in range(size * size) if board.colour[p] == 0 and p != ko]
        rng.shuffle(empties)
        for p in empties:
            if board.would_capture_or_suicide(p, colour)[1] == 0:
                _, ko, _ = board.play(p, colour)
                out.append(("B" if colour == BLACK else "W", p % size, p // size))
                break
        colour = WHITE if colour == BLACK else BLACK
    return out


def sgf(moves: list[tuple[str, int, int]], size: int = 9, extra: str = "") -> str:
    letters = "abcdefghijklmnopqrs"
    body = "".join(f";{c}[{letters[x]}{letters[y]}]" for c, x, y in moves)
    return f"(;GM[1]FF[4]SZ[{size}]{extra}{body})"


@pytest.fixture()
def archive(tmp_path: Path) -> Path:
    root = tmp_path / "archive"
    (root / "sub").mkdir(parents=True)
    for f in FIXTURE_FILES[:6]:
        shutil.copy(f, root / f.name)
    for f in FIXTURE_FILES[6:]:
        shutil.copy(f, root / "sub" / f.name.upper().replace(".SGF", ".SGF"))
    with zipfile.ZipFile(root / "games.zip", "w") as z:
        for f in FIXTURE_FILES[:3]:
            z.write(f, f"zipped/{f.name}")
        z.writestr("../evil.sgf", "(;GM[1];B[aa])")
    with tarfile.open(root / "games.tar.gz", "w:gz") as t:
        for f in FIXTURE_FILES[3:5]:
            t.add(f, f"tarred/{f.name}")
        info = tarfile.TarInfo("/abs/evil.sgf")
        data = b"(;GM[1];B[aa])"
        info.size = len(data)
        import io

        t.addfile(info, io.BytesIO(data))
    (root / "garbage.sgf").write_bytes(bytes(range(256)) * 4)
    os.symlink(root / "missing.sgf", root / "broken.sgf")
    os.symlink(root, root / "sub" / "loop")
    (root / "notes.txt").write_text("not a game")
    return root


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_every_input_accounted_for(archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.jsonl"
    result = runner.invoke(app, ["batch", str(archive), "--out", str(out), "--jobs", "2",
                                 "--fail-on", "never"])
    assert result.exit_code == 0, result.output
    rows = read_rows(out)
    game_rows = [r for r in rows if r.get("index")]
    # 13 fixture files (one game each) + 3 zipped + 2 tarred.
    assert len(game_rows) == len(FIXTURE_FILES) + 3 + 2
    problems = {(Path(r["path"]).name, r["member"]): {f["code"] for f in r["file_findings"]}
                for r in rows if not r.get("index")}
    assert problems[("games.zip", "../evil.sgf")] == {"SGF032"}
    assert problems[("games.tar.gz", "/abs/evil.sgf")] == {"SGF032"}
    assert "SGF003" in problems[("garbage.sgf", None)]
    assert problems[("broken.sgf", None)] == {"SGF032"}
    assert problems[("loop", None)] == {"SGF032"}  # the symlink loop, walked once
    assert "notes.txt" not in {Path(r["path"]).name for r in rows}
    # Deterministic order: by path, then member, then game.
    keys = [(r["path"], r["member"] or "", r.get("index") or 0) for r in rows]
    again = tmp_path / "again.jsonl"
    runner.invoke(app, ["batch", str(archive), "--out", str(again), "--jobs", "1",
                        "--fail-on", "never"])
    assert [(r["path"], r["member"] or "", r.get("index") or 0) for r in read_rows(again)] == keys


def test_rows_have_check_and_score_schema(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    runner.invoke(app, ["batch", str(FIXTURES / "seki.sgf"), "--out", str(out)])
    (row,) = read_rows(out)
    assert row["path"].endswith("seki.sgf") and row["member"] is None
    assert row["result_check"]["status"] == "match"
    assert {s["ruleset"] for s in row["scores"]} >= {"japanese", "chinese"}
    assert row["rules"]["name"] == "japanese" and row["verdict"] == "clean"


def test_csv_report(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    runner.invoke(app, ["batch", str(FIXTURES / "ko.sgf"), str(FIXTURES / "seki.sgf"),
                        "--out", str(out), "--fail-on", "never"])
    lines = out.read_text().splitlines()
    assert lines[0].startswith("path,member,game,size,moves,rules")
    assert len(lines) == 3
    assert ",illegal moves,1,RUL004," in lines[1]


def test_timeout_gives_its_row(tmp_path: Path) -> None:
    slow = tmp_path / "slow.sgf"
    slow.write_bytes(b"(;GM[1]SZ[9]" + b";B[];W[]" * 200_000 + b")")  # well over a second
    items = list(iter_inputs([str(slow), str(FIXTURES / "ko.sgf")]))
    out = tmp_path / "r.jsonl"
    with open(out, "w") as fh:
        summary = run_batch(items, BatchOptions.of(jobs=1, timeout=0.5), ReportWriter(fh, "jsonl",
                                                                                     True))
    rows = read_rows(out)
    assert rows[0]["file_findings"][0]["code"] == "SGF031"
    assert summary.timeouts == 1 and summary.games == 1


def _timeless(summary: dict) -> dict:
    """A summary without what differs between two runs of the same work (time, memory, how
    many files came from an earlier run)."""
    return {k: v for k, v in summary.items()
            if k not in ("elapsed", "games_per_second", "peak_rss_mb_per_worker", "skipped",
                         "resumed", "games_from_earlier_runs")}


def _interrupt_after(files: int) -> Callable[[Summary], None]:
    """A progress callback that stops the run (as Ctrl-C does) once ``files`` are done."""

    def progress(summary: Summary) -> None:
        if summary.files + summary.input_problems >= files:
            raise KeyboardInterrupt

    return progress


def _full_run(archive: Path, tmp_path: Path, *extra: str, kind: str = "jsonl"
              ) -> tuple[Path, int, dict, str]:
    full = tmp_path / f"full.{kind}"
    summary = tmp_path / "full-summary.json"
    page = tmp_path / "full.html"
    result = runner.invoke(app, ["batch", str(archive), "--out", str(full), "--jobs", "1",
                                 "--summary-json", str(summary), "--html", str(page), *extra])
    assert result.exit_code in (0, 1), result.output
    return full, result.exit_code, json.loads(summary.read_text()), page.read_text()


def _problem_table(page: str) -> str:
    """The problem games of a page, without the links to game pages: those exist for the games
    judged by a run with --html, under that page's name."""
    table = page[page.index("<h2>Problem games"):]
    table = re.sub(r'<p><a class="view" href="[^"]*">[^<]*</a></p>', "", table)
    return re.sub(r'<a class="view" href="[^"]*">step through</a>', "", table)


@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_an_interrupted_run_resumes_to_the_whole_report(archive: Path, tmp_path: Path,
                                                       kind: str) -> None:
    full, status, whole, page = _full_run(archive, tmp_path, kind=kind)
    assert status == 1  # the archive holds broken files and illegal moves
    part = tmp_path / f"part.{kind}"
    with pytest.raises(KeyboardInterrupt):  # the same command as the full run, stopped
        write_report([str(archive)], BatchOptions.of(jobs=1), out=part,
                     progress=_interrupt_after(7), problems=Problems())
    state = part.with_name(f"part.{kind}.state")
    assert len(state.read_text().splitlines()) == 1 + 7  # the head, then one line a file
    summary = tmp_path / "summary.json"
    resumed_page = tmp_path / "part.html"
    result = runner.invoke(app, ["batch", str(archive), "--resume", str(part), "--jobs", "2",
                                 "--summary-json", str(summary), "--html", str(resumed_page)])
    assert result.exit_code == status, result.output
    assert part.read_text() == full.read_text()
    resumed = json.loads(summary.read_text())
    # The summary, the page and the exit status are the whole report's, not the last run's.
    assert _timeless(resumed) == _timeless(whole)
    assert resumed["resumed"] is True and resumed["skipped"] == 7
    assert _problem_table(resumed_page.read_text()) == _problem_table(page)
    assert "files from earlier runs (--resume)" in result.output


def test_a_page_after_a_run_without_one_lists_every_problem_game(archive: Path,
                                                                tmp_path: Path) -> None:
    _, _, _, page = _full_run(archive, tmp_path)
    part = tmp_path / "part.jsonl"
    with pytest.raises(KeyboardInterrupt):  # no --html
        write_report([str(archive)], BatchOptions.of(jobs=1), out=part,
                     progress=_interrupt_after(7))
    resumed_page = tmp_path / "part.html"
    runner.invoke(app, ["batch", str(archive), "--resume", str(part), "--html",
                        str(resumed_page)])
    resumed = resumed_page.read_text()
    labels = re.findall(r'<a href="#game-\d+">([^<]*)</a>', _problem_table(page))
    assert labels and re.findall(r'<a href="#game-\d+">([^<]*)</a>',
                                 _problem_table(resumed)) == labels
    assert "shown without a board" in resumed


def test_resuming_a_complete_report_gives_its_summary_and_status(archive: Path,
                                                                tmp_path: Path) -> None:
    full, status, whole, _ = _full_run(archive, tmp_path)
    before = full.read_text()
    summary = tmp_path / "again.json"
    result = runner.invoke(app, ["batch", str(archive), "--resume", str(full),
                                 "--summary-json", str(summary)])
    assert result.exit_code == status == 1, result.output
    assert full.read_text() == before
    again = json.loads(summary.read_text())
    assert _timeless(again) == _timeless(whole) and again["games"] == whole["games"] > 0
    assert again["skipped"] == whole["files"] + whole["input_problems"]


def test_rows_beyond_the_run_state_are_checked_again(archive: Path, tmp_path: Path) -> None:
    # Killed between the report's flush and the state's: the report holds rows of files the
    # state does not; they are cut and those files checked again.
    full, status, _, _ = _full_run(archive, tmp_path)
    part = tmp_path / "part.jsonl"
    with pytest.raises(KeyboardInterrupt):
        write_report([str(archive)], BatchOptions.of(jobs=1), out=part,
                     progress=_interrupt_after(5))
    rows = full.read_text().splitlines(keepends=True)
    held = len(part.read_text().splitlines())
    with open(part, "a") as fh:
        fh.write(rows[held] + rows[held + 1][:25])  # a whole row, then a cut one
    result = runner.invoke(app, ["batch", str(archive), "--resume", str(part), "--jobs", "1"])
    assert result.exit_code == status, result.output
    assert part.read_text() == full.read_text()


def test_a_csv_report_whose_state_holds_no_file_keeps_its_header(archive: Path,
                                                                  tmp_path: Path) -> None:
    # Killed after the first rows reached the report but before any state line: every row is
    # beyond the state and is cut, the header stays (it was cut with them).
    full, status, _, _ = _full_run(archive, tmp_path, kind="csv")
    part = tmp_path / "part.csv"
    with pytest.raises(KeyboardInterrupt):
        write_report([str(archive)], BatchOptions.of(jobs=1), out=part,
                     progress=_interrupt_after(5))
    state = part.with_name(part.name + ".state")
    state.write_text(state.read_text().splitlines(keepends=True)[0])  # the head alone
    rows = full.read_text().splitlines(keepends=True)
    part.write_text("".join(rows[:3]))
    result = runner.invoke(app, ["batch", str(archive), "--resume", str(part), "--jobs", "1"])
    assert result.exit_code == status, result.output
    assert part.read_text() == full.read_text()


@pytest.mark.parametrize(("option", "said"), [
    (["--komi", "7.5"], "--komi 7.5, not (not given)"),
    (["--dead-stones", "auto"], "--dead-stones auto, not markup"),
    (["--rules", "chinese"], "--rules chinese, not auto"),
])
def test_resuming_with_other_settings_is_refused(archive: Path, tmp_path: Path,
                                                 option: list[str], said: str) -> None:
    part = tmp_path / "part.jsonl"
    with pytest.raises(KeyboardInterrupt):
        write_report([str(archive)], BatchOptions.of(jobs=1), out=part,
                     progress=_interrupt_after(3))
    before = part.read_bytes()
    result = runner.invoke(app, ["batch", str(archive), "--resume", str(part), *option])
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())
    assert part.read_bytes() == before  # refused before anything was written


def test_resuming_with_other_inputs_is_refused(archive: Path, tmp_path: Path) -> None:
    part = tmp_path / "part.jsonl"
    with pytest.raises(KeyboardInterrupt):
        write_report([str(archive)], BatchOptions.of(jobs=1), out=part,
                     progress=_interrupt_after(3))
    result = runner.invoke(app, ["batch", str(archive / "sub"), "--resume", str(part)])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert f"the inputs {archive / 'sub'}, not {archive}" in said


def test_a_report_without_run_state_resumes_and_says_what_its_summary_covers(
        archive: Path, tmp_path: Path) -> None:
    full, _, _, _ = _full_run(archive, tmp_path)
    part = tmp_path / "old.jsonl"
    rows = full.read_text().splitlines(keepends=True)
    part.write_text("".join(rows[:6]) + rows[6][:20])  # a report of sgfcheck 0.2, cut
    assert len(read_done(part)) >= 5
    result = runner.invoke(app, ["batch", str(archive), "--resume", str(part), "--jobs", "2",
                                 "--fail-on", "never"])
    assert result.exit_code == 0, result.output
    assert part.read_text() == full.read_text()
    assert "has no run state (old.jsonl.state)" in " ".join(result.output.split())
    assert "files skipped (already in the report)" in result.output
    assert not part.with_name("old.jsonl.state").exists()


def test_a_local_worker_takes_more_files_at_once_where_no_dead_stones_are_judged() -> None:
    """Files counted on their markup alone (about a millisecond each) go to a local worker 16 at
    a time: fewer messages for the main process to handle; files whose dead stones are judged
    (tens of milliseconds, seconds with an engine) 8 at a time, so that a run's last chunks keep
    the workers evenly busy; a size set by the caller stays."""
    from sgfcheck.run.executor import CHUNK, QUICK_CHUNK
    from sgfcheck.settings import DeadStoneChoice, EngineName

    assert BatchOptions.of().local_chunk == QUICK_CHUNK == 16
    assert BatchOptions.of(dead_stones=DeadStoneChoice.ESTIMATE).local_chunk == CHUNK == 8
    assert BatchOptions.of(dead_stones=DeadStoneChoice.AUTO,
                           engine=EngineName.NONE).local_chunk == 8
    assert BatchOptions.of(chunk=3).local_chunk == 3
    assert BatchOptions.of(chunk=8).local_chunk == 8  # set, even to the judged files' size
    assert BatchOptions.of(chunk=1, dead_stones=DeadStoneChoice.ESTIMATE).local_chunk == 1


def test_the_page_ranks_problems_by_severity_and_keeps_every_severe_one() -> None:
    problems = Problems(limit=3)
    games = [ProblemGame(f"g{i}", verdict, "B+R", status, "", "", [], svg="<svg/>")
             for i, (verdict, status) in enumerate([
                 ("clean", "unverifiable"), ("clean", "unverifiable"), ("clean", "unverifiable"),
                 ("clean", "mismatch"), ("illegal moves", "match"), ("errors", "not-scored"),
                 ("warnings", "mismatch"), ("clean", "unverifiable")])]
    for game in games:
        problems.add(game)
    assert [p.label for p in problems.shown] == ["g4", "g5", "g3", "g6"]
    assert problems.more == 4  # the unverifiable ones, room made for the severe
    assert [bool(p.svg) for p in problems.shown] == [True, True, True, False]


def test_duplicates_rotated_and_mirrored(tmp_path: Path) -> None:
    moves = random_game()
    n = 8
    rotated = [(c, n - y, x) for c, x, y in moves]
    mirrored = [(c, n - x, y) for c, x, y in moves]
    (tmp_path / "a.sgf").write_text(sgf(moves, extra="PB[A]"))
    (tmp_path / "b.sgf").write_text(sgf(rotated, extra="PB[B]"))
    (tmp_path / "c.sgf").write_text(sgf(mirrored, extra="PB[C]"))
    (tmp_path / "d.sgf").write_text(sgf(random_game(seed=8)))
    shutil.copy(tmp_path / "d.sgf", tmp_path / "e.sgf")
    dups = tmp_path / "dups.json"
    result = runner.invoke(app, ["batch", str(tmp_path), "--duplicates", str(dups)])
    assert result.exit_code == 0, result.output
    groups = json.loads(dups.read_text())
    assert [[Path(x).name for x in g] for g in groups["identical_files"]] == [["d.sgf", "e.sgf"]]
    assert [[Path(x.split("#")[0]).name for x in g] for g in groups["same_games"]] == [
        ["a.sgf", "b.sgf", "c.sgf"]]


def test_fail_on_policies(tmp_path: Path) -> None:
    ko = str(FIXTURES / "ko.sgf")
    seki = str(FIXTURES / "seki.sgf")
    basic = str(FIXTURES / "scoring-basic.sgf")
    assert runner.invoke(app, ["batch", ko]).exit_code == 1  # default: error
    assert runner.invoke(app, ["batch", ko, "--fail-on", "illegal"]).exit_code == 1
    assert runner.invoke(app, ["batch", seki, "--fail-on", "illegal"]).exit_code == 0
    assert runner.invoke(app, ["batch", ko, "--fail-on", "never"]).exit_code == 0
    assert runner.invoke(app, ["batch", basic, "--fail-on", "mismatch"]).exit_code == 0
    bad_re = tmp_path / "bad.sgf"
    bad_re.write_text(Path(basic).read_text().replace("RE[B+1.5]", "RE[W+9.5]"))
    assert runner.invoke(app, ["batch", str(bad_re), "--fail-on", "mismatch"]).exit_code == 1
    assert runner.invoke(app, ["batch", ko, "--rules", "nope"]).exit_code == 2


def test_paths_from_stdin(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    stdin = f"{FIXTURES / 'ko.sgf'}\n{FIXTURES / 'seki.sgf'}\n"
    result = runner.invoke(app, ["batch", "-", "--out", str(out), "--fail-on", "never"],
                           input=stdin)
    assert result.exit_code == 0, result.output
    assert [Path(r["path"]).name for r in read_rows(out)] == ["ko.sgf", "seki.sgf"]


def test_whole_corpus_one_row_per_game(tmp_path: Path) -> None:
    root = corpus_dir()
    out = tmp_path / "corpus.jsonl"
    summary_file = tmp_path / "summary.json"
    result = runner.invoke(app, ["batch", str(root), "--out", str(out), "--jobs", "2",
                                 "--fail-on", "never", "--summary-json", str(summary_file)])
    assert result.exit_code == 0, result.output
    summary = json.loads(summary_file.read_text())
    rows = read_rows(out)
    game_rows = [r for r in rows if r.get("index")]
    assert len(game_rows) == summary["games"] >= 15_957
    assert not any(f["code"] in ("SGF031", "SGF033") for r in rows for f in r["file_findings"])
    assert summary["files"] + summary["input_problems"] == len({(r["path"], r["member"])
                                                                for r in rows})
    assert sum(summary["verdicts"].values()) == summary["games"]
    assert sum(summary["result_checks"].values()) == summary["games"]


def test_a_run_left_to_markup_hints_at_the_estimate_when_results_want_it() -> None:
    unfinished = str(FIXTURES / "unfinished-two-off.sgf")  # no markup, no passes: unverifiable
    result = runner.invoke(app, ["batch", unfinished, "--fail-on", "never", "--wide"])
    lines = result.output.strip().splitlines()
    assert lines[-1] == ("hint: 1 result(s) are unverifiable for want of dead stones (no markup "
                         "in the record: counted with only the stones proven dead removed): add "
                         "--dead-stones auto for sgfcheck's estimate (several times slower)")
    for args in (["--dead-stones", "auto"], ["--dead-stones", "none"]):
        result = runner.invoke(app, ["batch", unfinished, "--fail-on", "never", *args])
        assert "hint:" not in result.output
    seki = runner.invoke(app, ["batch", str(FIXTURES / "seki.sgf"), "--fail-on", "never"])
    assert "hint:" not in seki.output  # a finished game whose count as it stands is RE
    # Issue 62: a game ended by two passes without markup, a dead stone still on the board:
    # unverifiable on "finished" (RES123), and the hint was missing.
    dead = runner.invoke(app, ["batch", str(FIXTURES / "dead-in-territory.sgf"), "--fail-on",
                               "never", "--wide"])
    assert "on finished (as it stands)               1 unverifiable" in dead.output
    assert dead.output.strip().splitlines()[-1].startswith(
        "hint: 1 result(s) are unverifiable for want of dead stones")


def test_a_game_in_two_encodings_stays_a_pair_beside_a_zip_of_its_folder(tmp_path: Path) -> None:
    """Issue 52: on the folder alone the UTF-16 and UTF-8 copies of one game are a same-game
    group; batched with a zip of the folder, every file had an identical copy and the group
    disappeared. Two records that are only copies of one file stay out of same-game groups."""
    import zipfile

    folder = tmp_path / "enc"
    folder.mkdir()
    text = sgf(random_game(seed=3), extra="PB[Honinbo]C[comment]")
    (folder / "utf16.sgf").write_bytes(text.replace("(;", "(;CA[UTF-16]", 1).encode("utf-16"))
    (folder / "utf8bom.sgf").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    (folder / "copy-a.sgf").write_text(sgf(random_game(seed=9)))
    shutil.copy(folder / "copy-a.sgf", folder / "copy-b.sgf")
    archive = tmp_path / "enc.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for name in ("utf16.sgf", "utf8bom.sgf"):
            z.write(folder / name, name)
    dups = tmp_path / "dups.json"
    result = runner.invoke(app, ["batch", str(folder), str(archive), "--duplicates", str(dups)])
    assert result.exit_code == 0, result.output
    groups = json.loads(dups.read_text())

    def short(label: str) -> str:
        return label.split("#")[0].replace(str(tmp_path) + "/", "")

    assert [[short(x) for x in g] for g in groups["identical_files"]] == [
        ["enc/copy-a.sgf", "enc/copy-b.sgf"], ["enc/utf16.sgf", "enc.zip:utf16.sgf"],
        ["enc/utf8bom.sgf", "enc.zip:utf8bom.sgf"]]
    assert [[short(x) for x in g] for g in groups["same_games"]] == [
        ["enc/utf16.sgf", "enc/utf8bom.sgf", "enc.zip:utf16.sgf", "enc.zip:utf8bom.sgf"]]


def test_the_worker_makes_the_state_line_only_where_the_run_keeps_one() -> None:
    import json as _json

    from sgfcheck.records.items import WorkItem
    from sgfcheck.run.batch import BatchOptions, process_item
    from sgfcheck.run.ledger import outcome_of
    from sgfcheck.run.reportfile import ReportKind

    item = WorkItem(str(FIXTURES / "ko.sgf"), None, (FIXTURES / "ko.sgf").read_bytes())
    kept = process_item(item, BatchOptions.of(report_kind=ReportKind.JSONL))
    assert kept.state is not None and kept.state.endswith("\n")
    back = outcome_of(_json.loads(kept.state))
    assert back.key == kept.key and [g.illegal for g in back.games] == [("simple ko",)]
    assert back.games[0].problem is not None  # the state keeps what a later --html shows
    assert kept.games[0].problem is None  # ... which the main process does not receive
    assert process_item(item, BatchOptions.of(report_kind=ReportKind.JSONL,
                                              state_lines=False)).state is None
    assert process_item(item, BatchOptions.of(report_kind=ReportKind.NONE)).state is None
    shown = process_item(item, BatchOptions.of(report_kind=ReportKind.JSONL, details=True))
    assert shown.games[0].problem is not None


def test_resume_alone_goes_on_with_the_runs_own_inputs_and_options(tmp_path: Path) -> None:
    # Issue 62: --resume FILE needed the whole command again; the state holds it.
    whole = tmp_path / "whole.jsonl"
    inputs = [str(FIXTURES / n) for n in ("ko.sgf", "seki.sgf", "false-eye.sgf", "capture.sgf")]
    runner.invoke(app, ["batch", *inputs, "--out", str(whole), "--rules", "chinese"])
    rows = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    state = (tmp_path / "whole.jsonl.state").read_text(encoding="utf-8").splitlines(keepends=True)
    part = tmp_path / "part.jsonl"
    part.write_text("".join(rows[:2]), encoding="utf-8")
    (tmp_path / "part.jsonl.state").write_text("".join(state[:3]), encoding="utf-8")
    result = runner.invoke(app, ["batch", "--resume", str(part)])
    assert result.exit_code == 1, result.output  # ko.sgf's illegal move, from the earlier run
    assert part.read_text(encoding="utf-8") == "".join(rows)
    assert [json.loads(r)["rules"]["name"] for r in rows] == ["chinese"] * 4
    # A setting beside it would be another run: said, nothing done.
    again = runner.invoke(app, ["batch", "--resume", str(part), "--komi", "0.5"])
    assert again.exit_code == 2 and "--komi would make another run" in again.output
    # With the inputs and another option: the state was read, and holds another run.
    other = runner.invoke(app, ["batch", *inputs, "--resume", str(part), "--rules", "japanese"])
    assert other.exit_code == 2
    assert f"sgfcheck: {part} holds another run: this one has --rules japanese, not chinese" \
        in " ".join(other.output.split())
    assert "cannot read" not in other.output


def test_no_input_and_no_resume_is_a_usage_error() -> None:
    result = runner.invoke(app, ["batch"])
    assert result.exit_code == 2 and result.output.startswith(
        "sgfcheck: no input: give files, folders or archives, or --resume FILE alone")


def test_a_resigned_game_is_not_judged_unless_asked(tmp_path: Path) -> None:
    """Issue 64: no count decides a game ended by resignation, time or forfeit, so batch asks
    neither the estimate nor an engine about its dead stones (the markup and the proofs are
    still read); ``--judge-unscored`` judges them. White's H5 is dead inside Black's area: the
    estimate finds it, no proof does."""
    resigned = FIXTURES / "resigned-dead-in-territory.sgf"
    scored = FIXTURES / "dead-in-territory.sgf"  # the same position, RE[W+9.5]
    marked = tmp_path / "marked.sgf"  # resigned too, the players' marks naming H5 dead
    marked.write_text(resigned.read_text().replace("RE[W+R]", "RE[W+R]TB[he]"))
    timed = tmp_path / "timed.sgf"  # Black lost on time, forfeit: no count decides them either
    timed.write_text(resigned.read_text().replace("RE[W+R]", "RE[W+T]"))
    forfeit = tmp_path / "forfeit.sgf"
    forfeit.write_text(resigned.read_text().replace("RE[W+R]", "RE[W+F]"))
    runs = {"skipped": [], "judged": ["--judge-unscored"]}
    rows: dict[str, dict[str, dict]] = {}
    summaries: dict[str, tuple[dict, str]] = {}
    for name, extra in runs.items():
        out, summary = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.json"
        result = runner.invoke(app, ["batch", str(resigned), str(scored), str(marked),
                                     str(timed), str(forfeit), "--out",
                                     str(out), "--dead-stones", "auto", "--engine", "none",
                                     "--fail-on", "never", "--quiet", "--summary-json",
                                     str(summary), *extra])
        assert result.exit_code == 0, result.output
        rows[name] = {Path(r["path"]).name: r for r in read_rows(out)}
        summaries[name] = (json.loads(summary.read_text()), result.output)
    # The summary counts the games not judged (the marked one was judged by its marks).
    assert summaries["skipped"][0]["not_judged"] == 3
    assert re.search(r"^games not judged \(resigned, lost on time, forfeit\) +3$",
                     summaries["skipped"][1], re.M)
    assert summaries["judged"][0]["not_judged"] == 0
    assert "games not judged" not in summaries["judged"][1]
    again = tmp_path / "again.json"  # counted from the run state when a run is resumed
    result = runner.invoke(app, ["batch", "--resume", str(tmp_path / "skipped.jsonl"),
                                 "--quiet", "--summary-json", str(again)])
    assert result.exit_code == 0, result.output
    assert json.loads(again.read_text())["not_judged"] == 3
    skipped = rows["skipped"]["resigned-dead-in-territory.sgf"]
    assert skipped["dead_stones"]["points"] == []
    assert skipped["dead_stones"]["source"] == "none"
    assert skipped["dead_stones"]["notes"] == [
        "not judged (the game ended by resignation: no count decides its result; "
        "--judge-unscored judges it): every stone is counted alive (territory counts may be "
        "wrong)"]
    for name, ended in (("timed.sgf", "time"), ("forfeit.sgf", "forfeit")):
        assert rows["skipped"][name]["dead_stones"]["notes"][0].startswith(
            f"not judged (the game ended by {ended}: ")
        assert rows["judged"][name]["dead_stones"]["points"] == ["H5"]
    judged = rows["judged"]["resigned-dead-in-territory.sgf"]
    assert (judged["dead_stones"]["points"], judged["dead_stones"]["source"]) == (
        ["H5"], "estimate")
    for run in rows.values():
        row = run["resigned-dead-in-territory.sgf"]
        assert (row["result_check"]["status"], row["result_check"]["code"]) == (
            "not-scored", "RES141")
        assert (run["dead-in-territory.sgf"]["dead_stones"]["points"],
                run["dead-in-territory.sgf"]["dead_stones"]["source"]) == (["H5"], "estimate")
        assert run["dead-in-territory.sgf"]["result_check"]["status"] == "match"
        assert (run["marked.sgf"]["dead_stones"]["points"],
                run["marked.sgf"]["dead_stones"]["source"]) == (["H5"], "markup")
    # The library's batch has the command's defaults; score judges every game as asked.
    assert not BatchOptions.of(dead_stones="estimate").settings.judge_unscored
    from sgfcheck import Settings, score_file

    game = score_file(resigned, Settings(dead_stones="estimate", engine="none")).games[0]
    assert game.dead is not None and sorted(game.dead.points) == [4 * 9 + 7]
