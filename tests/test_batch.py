"""sgfcheck batch: inputs, rows, resume, duplicates, exit codes."""

from __future__ import annotations

import json
import os
import random
import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import FIXTURES, corpus_dir
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.records.inputs import iter_inputs
from sgfcheck.replay.board import BLACK, WHITE, Board
from sgfcheck.run.batch import BatchOptions, run_batch
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


def test_interrupted_run_resumes_to_the_same_report(archive: Path, tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    runner.invoke(app, ["batch", str(archive), "--out", str(full), "--jobs", "1",
                        "--fail-on", "never"])

    class Interrupted(ReportWriter):
        """Ctrl-C arrives while the seventh file's rows are being written."""

        files = 0

        def write(self, rows):  # type: ignore[no-untyped-def]
            self.files += 1
            if self.files == 7:
                raise KeyboardInterrupt
            super().write(rows)

    part = tmp_path / "part.jsonl"
    with open(part, "w") as fh, pytest.raises(KeyboardInterrupt):
        run_batch(iter_inputs([str(archive)]), BatchOptions.of(jobs=1), Interrupted(fh, "jsonl",
                                                                                  True))
    with open(part, "a") as fh:
        fh.write('{"path": "cut in the mid')  # a kill in the middle of a line
    before = part.read_bytes()
    assert len(read_done(part)) >= 6  # the cut line is not counted...
    assert part.read_bytes() == before  # ...and reading leaves the file as it was
    result = runner.invoke(app, ["batch", str(archive), "--resume", str(part), "--jobs", "2",
                                 "--fail-on", "never"])
    assert result.exit_code == 0, result.output
    assert part.read_text() == full.read_text()


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
