"""Hostile archives and records, second round (issue 41): a page never costs a record its
findings, folder links stay inside the input, archives are bounded in entries and in what their
directory declares, a check page draws a bounded number of boards, a file that runs out of
memory is a finding, names cannot forge lines, a URL to a FIFO waits no longer than its path,
and fullwidth formula signs are neutralised in CSV."""

from __future__ import annotations

import io
import json
import os
import struct
import tarfile
import threading
import time
import zipfile
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.escaping import csv_cell
from sgfcheck.limits import Limits
from sgfcheck.records.inputs import iter_inputs
from sgfcheck.records.items import InputProblem, WorkItem

runner = CliRunner()
KO = (FIXTURES / "ko.sgf").read_bytes()
"""A record with one illegal move: Black's retake at C4 (move 2, simple ko)."""
CLEAN = (FIXTURES / "capture.sgf").read_bytes()


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), env={"COLUMNS": "100"})


# --- 1. a page that cannot be made in time costs the record nothing ---------------------------


def test_a_slow_game_page_never_costs_the_record_its_findings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A page that cannot be made within --timeout (as the page of a 100,000-move record once
    # could not: its cost grew with the square of the length; here the page is made slow, in
    # the workers forked after this): the row keeps its illegal move, the page is left out.
    import sgfcheck.output.gamepage as gamepage

    made = gamepage.game_page

    def slow_page(*args: object) -> str:
        page = made(*args)  # type: ignore[arg-type]
        time.sleep(60)  # the alarm of --timeout interrupts it
        return page

    monkeypatch.setattr(gamepage, "game_page", slow_page)
    record = tmp_path / "long.sgf"
    record.write_text("(;GM[1]FF[4]SZ[9]RE[B+R];B[ee]" + ";W[];B[]" * 10_000 + ";W[ee])",
                      encoding="utf-8")
    page, report = tmp_path / "page.html", tmp_path / "report.jsonl"
    started = time.monotonic()
    result = run("batch", "-q", str(record), "--timeout", "2", "--html", str(page), "--out",
                 str(report), "--jobs", "1")
    assert time.monotonic() - started < 30  # the page was cut at the time limit
    assert result.exit_code == 1  # an error finding: the occupied point
    row = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    assert row["verdict"] == "illegal moves"
    assert [(f["code"], f["move"], f["point"]) for f in row["findings"]
            if f["severity"] == "error"] == [("RUL001", 20_002, "E5")]
    said = " ".join(result.stdout.split())
    assert "time limit exceeded 0" in said and "games with illegal moves 1" in said
    html = page.read_text(encoding="utf-8")
    assert "no game page: it was not made within the file&#x27;s time limit (--timeout 2 s)" \
        in html
    assert 'class="view"' not in html  # no link to a page that was not written


# --- 2. folder links stay inside the input ------------------------------------------------------


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """in/ holds a record, and links: to its parent, to a folder beside it, to the root of the
    file system, to its own subfolder, to its own record; beside it, outside/secret.sgf."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.sgf").write_bytes(KO)
    inside = tmp_path / "in"
    (inside / "sub").mkdir(parents=True)
    (inside / "sub" / "a.sgf").write_bytes(CLEAN)
    (inside / "parent").symlink_to("..")
    (inside / "out").symlink_to("../outside")
    (inside / "root").symlink_to("/")
    (inside / "again").symlink_to("sub")
    (inside / "same.sgf").symlink_to("sub/a.sgf")
    return inside


def test_folder_links_that_lead_out_are_listed_not_followed(linked: Path) -> None:
    items = list(iter_inputs([str(linked)]))
    read = [Path(i.path).relative_to(linked).as_posix() for i in items
            if isinstance(i, WorkItem)]
    assert read == ["same.sgf"]  # the record, read once (files first: not again/a.sgf, sub/a.sgf)
    problems = {Path(i.path).name: i.message for i in items if isinstance(i, InputProblem)}
    assert problems == {
        "out": f"a symbolic link that leads out of the folder given (to "
               f"{linked.parent.resolve() / 'outside'}); not followed (--follow-links follows it)",
        "parent": f"a symbolic link that leads out of the folder given (to "
                  f"{linked.parent.resolve()}); not followed (--follow-links follows it)",
        "root": "a symbolic link that leads out of the folder given (to /); not followed "
                "(--follow-links follows it)"}


def test_no_name_or_comment_from_outside_reaches_a_report(linked: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    result = run("batch", "-q", str(linked), "--out", str(report))
    assert result.exit_code == 1  # input problems: the links
    paths = [json.loads(line)["path"] for line in report.read_text().splitlines()]
    assert not any("secret" in p for p in paths) and len(paths) == 4  # 1 record, 3 links
    followed = run("check", str(linked / "out"), "--follow-links")  # named itself: read
    assert "ILLEGAL MOVES" in " ".join(followed.stdout.split())
    (linked / "root").unlink()  # not the whole file system in a test
    walked = run("check", str(linked), "--follow-links")
    assert "secret.sgf game 1: ILLEGAL MOVES" in " ".join(walked.stdout.split())


def test_a_link_back_up_inside_the_folder_is_a_loop(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "up").symlink_to("..")
    (tmp_path / "a" / "g.sgf").write_bytes(CLEAN)
    items = list(iter_inputs([str(tmp_path / "a")]))
    assert [(Path(i.path).name, getattr(i, "message", "")) for i in items] == [
        ("g.sgf", ""), ("up", "symbolic link loop: this folder was already walked; skipped")]


# --- 3. a tar's entries are counted as they are listed -----------------------------------------


def test_a_tar_of_too_many_entries_ends_with_a_finding(tmp_path: Path) -> None:
    archive = tmp_path / "many.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for i in range(3000):
            info = tarfile.TarInfo(f"empty{i:05d}.txt")
            tar.addfile(info, io.BytesIO(b""))
        info = tarfile.TarInfo("z.sgf")
        info.size = len(KO)
        tar.addfile(info, io.BytesIO(KO))
    items = list(iter_inputs([str(archive)], limits=Limits(members=1000)))
    assert len(items) == 1001
    last = items[-1]
    assert isinstance(last, InputProblem) and last.member == "empty01000.txt"
    assert last.message == ("the archive has more entries than the limit (members=1000); this "
                            "entry and the rest were not read")
    everything = list(iter_inputs([str(archive)]))
    assert isinstance(everything[-1], WorkItem) and everything[-1].member == "z.sgf"


# --- 4. a zip's directory is judged whole before a member is read -----------------------------


def _overlapping_zip(path: Path, copies: int) -> None:
    """One deflated member (1 MB of a comment) whose directory entry is listed ``copies`` times
    under other names, every copy pointing at the same bytes."""
    plain = io.BytesIO()
    with zipfile.ZipFile(plain, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.sgf", b"(;GM[1]SZ[9]C[" + b"x" * 1_000_000 + b"])")
    raw = plain.getvalue()
    end = raw.rfind(b"PK\x05\x06")
    size, offset = struct.unpack("<II", raw[end + 12:end + 20])
    entry = raw[offset:offset + size]
    entries = b"".join(entry[:46] + f"{chr(97 + i)}.sgf".encode() + entry[51:]
                       for i in range(copies))
    record = bytearray(raw[end:end + 22])
    struct.pack_into("<HHII", record, 8, copies, copies, len(entries), offset)
    path.write_bytes(raw[:offset] + entries + bytes(record))


def test_overlapping_zip_entries_are_refused_before_any_is_read(tmp_path: Path) -> None:
    archive = tmp_path / "overlap.zip"
    _overlapping_zip(archive, 8)
    with zipfile.ZipFile(archive) as z:
        assert len(z.namelist()) == 8  # what a reader without the check would inflate
    items = list(iter_inputs([str(archive)]))
    assert len(items) == 1 and isinstance(items[0], InputProblem)
    assert items[0].message == ("the members 'a.sgf' and 'b.sgf' overlap (the directory lists "
                                "the same bytes twice: a zip bomb's trick); no member was read")


def test_a_zip_whose_small_members_together_expand_past_the_ratio(tmp_path: Path) -> None:
    # 20 members of 900,000 bytes of one letter: each under the 1 MB floor of the ratio alone,
    # together 18 MB from an archive of about 20 KB, some 900 times.
    archive = tmp_path / "many-small.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(20):
            z.writestr(f"m{i:02d}.sgf", b"(;GM[1]SZ[9]C[" + b"x" * 899_984 + b"])")
    packed = archive.stat().st_size
    items = list(iter_inputs([str(archive)]))
    assert [type(i) for i in items] == [InputProblem]
    assert isinstance(items[0], InputProblem)
    assert items[0].message == (
        f"its members declare 18000000 bytes together from an archive of {packed}: "
        f"{18_000_000 // packed} times, more than the limit (ratio=200): a decompression bomb?; "
        "no member was read")
    entries = list(iter_inputs([str(archive)], limits=Limits(members=2)))
    assert isinstance(entries[0], InputProblem)
    assert entries[0].message == ("the archive lists 20 entries, more than the limit "
                                  "(members=2); no member was read")


# --- 5. a check page draws a bounded number of boards ------------------------------------------


def test_check_html_draws_at_most_200_boards_and_lists_the_rest(tmp_path: Path) -> None:
    # Black plays on A19 again and again (each time an occupied point): 1,000 illegal moves.
    record = tmp_path / "many.sgf"
    record.write_text("(;GM[1]FF[4]SZ[19];B[aa];W[ba]" + ";B[aa];W[]" * 1000 + ")",
                      encoding="utf-8")
    page = tmp_path / "page.html"
    assert run("check", str(record), "-o", str(page)).exit_code == 1
    html = page.read_text(encoding="utf-8")
    assert html.count('<figure class="board illegal-move"') == 200
    assert ("200 of the 1000 illegal moves are drawn (a page draws at most 200 boards); the "
            "other 800 are listed after the boards") in html
    listed = html[html.index("<h3>Not drawn</h3>"):]
    assert listed.count("<tr>") == 801  # the heading and 800 moves
    assert '<td class="text">2001</td>' in listed  # the last illegal move, move 2001
    assert len(html.encode("utf-8")) < 3 * 1024 * 1024


# --- 6. a file that runs out of memory is a finding on every command -----------------------


def test_running_out_of_memory_on_one_file_is_a_finding(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import sgfcheck.records.loading as loading

    (tmp_path / "a-huge.sgf").write_bytes(b"(;GM[1]SZ[19]" + b"(;B[aa])" * 10 + b")")
    (tmp_path / "b-fine.sgf").write_bytes(CLEAN)
    real = loading.load_file

    def load_file(path: str, *args: object, **kwargs: object) -> object:
        if path.endswith("a-huge.sgf"):
            raise MemoryError
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(loading, "load_file", load_file)
    for command in ("check", "score", "life"):
        result = run(command, str(tmp_path))
        assert result.exit_code == 1, (command, result.output)
        said = " ".join(result.output.split())  # the unreadable file's line on stderr
        assert "a-huge.sgf: UNREADABLE" in said and "SGF035" in said
        assert "ran out of memory reading this file (a huge game tree?)" in said
        assert "b-fine.sgf game 1" in said and "Traceback" not in result.output


# --- 7. names cannot forge lines ------------------------------------------------------------


def test_line_breaks_in_file_and_member_names_are_shown_escaped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Run beside the archive and name it relatively, so that what is asserted never depends on
    # the length of the temporary folder's path (it grows on a machine: pytest-of-root/pytest-N;
    # a long one moved the forged name across the terminal's wrapped lines).
    monkeypatch.chdir(tmp_path)
    archive = "forge.zip"
    forged = "x.sgf game 1: CLEAN\nsummary: 0 illegal\nreal.sgf"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr(forged, KO)
        z.writestr("copy\n.sgf", KO)
    for args in (["check", archive], ["score", archive], ["life", archive],
                 ["score", "--format", "markdown", archive], ["batch", "-q", archive]):
        result = run(*args)
        lines = result.output.splitlines()
        assert not any(line.startswith(("summary: 0", "real.sgf", ".sgf")) for line in lines), \
            (args, lines[:5])
        assert "CLEAN\\nsummary: 0 illegal\\nreal.sgf" in " ".join(result.output.split()), args
    merged = run("batch", "-q", archive)
    assert "identical files:" in merged.stdout and "copy\\n.sgf" in merged.stdout


def test_a_record_named_with_a_line_break_on_the_single_file_commands(tmp_path: Path) -> None:
    record = tmp_path / "a\nb.sgf"
    record.write_bytes(KO)
    for args in (["diagram", str(record), "-o", str(tmp_path / "d.svg")],
                 ["view", str(record), "-o", str(tmp_path / "v.html")],
                 ["annotate", str(record), "-o", str(tmp_path / "a.sgf")]):
        result = run(*args)
        assert "a\\nb.sgf" in result.stderr and "a\nb.sgf" not in result.stderr, args


# --- 8. a URL to a FIFO waits no longer than its path ---------------------------------------


def test_a_file_url_to_a_fifo_gives_up_after_the_read_wait(tmp_path: Path) -> None:
    pytest.importorskip("fsspec", reason="URLs are read through fsspec (the distributed extra)")
    fifo = tmp_path / "pipe.sgf"
    os.mkfifo(fifo)
    for command in ("check", "view"):
        done: list[object] = []

        def invoke(command: str = command, done: list[object] = done) -> None:
            done.append(run(command, fifo.as_uri(), "--limit", "read-wait=1", "-o"
                            if command == "view" else "--quiet", *(
                                [str(tmp_path / "v.html")] if command == "view" else [])))

        started = time.monotonic()
        worker = threading.Thread(target=invoke, daemon=True)
        worker.start()
        worker.join(20)
        assert not worker.is_alive(), f"{command} still waiting after 20 s"
        assert time.monotonic() - started < 15
        result = done[0]
        assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
        assert "the FIFO gave no data for 1 s" in result.output  # type: ignore[attr-defined]


# --- 9. fullwidth formula signs ---------------------------------------------------------------


def test_fullwidth_formula_starts_are_neutralised() -> None:
    assert [csv_cell(v) for v in ("\uff1dHYPERLINK(1)", "\uff0bA1", "\uff0dA1", "\uff20x",
                                  "\u2212A1", "\ufe62A1", "\ufe63A1", "\ufe66A1")] == [
        "'\uff1dHYPERLINK(1)", "'\uff0bA1", "'\uff0dA1", "'\uff20x", "'\u2212A1", "'\ufe62A1",
        "'\ufe63A1", "'\ufe66A1"]


def test_a_fullwidth_equals_file_name_in_score_csv(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("\uff1dHYPERLINK(evil).sgf").write_bytes(CLEAN)
    result = run("score", "\uff1dHYPERLINK(evil).sgf", "--format", "csv")
    rows = [line.split(",") for line in result.stdout.splitlines()[1:]]
    assert rows and all(row[0] == "'\uff1dHYPERLINK(evil).sgf" for row in rows)
