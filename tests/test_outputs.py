"""Outputs: never written over an input, and said when they cannot be written.

An output naming an input (the same file, a link to it, a record inside an input folder) is a
usage error before any work. Standard output closed, a closed pipe, a full disk (a device node
that refuses every byte, made in a temporary folder) are each one line on standard error naming
the output and the cause, exit status 4, never a traceback; a report cut by a full disk is
resumed from what was written."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import tarfile
import threading
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file descriptors and device "
                                                           "nodes as POSIX has them")

COMMANDS = [["check", str(FIXTURES / "capture.sgf")], ["score", str(FIXTURES / "capture.sgf")],
            ["rules"], ["schema"], ["--version"]]


def sgfcheck(*args: str, stdout: int | None = subprocess.PIPE, close_stdout: bool = False,
             cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The console script's own exit (``python -m sgfcheck`` runs the same ``main``)."""
    return subprocess.run([sys.executable, "-m", "sgfcheck", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, check=False, cwd=cwd,
                          preexec_fn=(lambda: os.close(1)) if close_stdout else None)


def full_device(folder: Path) -> Path:
    """A character device like /dev/full (1, 7: every write fails with ENOSPC), made here."""
    node = folder / "full"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here ({exc}): needs root, as CI runs")
    return node


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_closed_standard_output_is_said_with_status_4(args: list[str]) -> None:
    done = sgfcheck(*args, close_stdout=True)
    assert done.returncode == 4
    assert done.stderr.splitlines()[-1] == "sgfcheck: cannot write standard output: it is closed"
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_closed_pipe_is_said_with_status_4(args: list[str]) -> None:
    reading, writing = os.pipe()
    os.close(reading)  # the reader is gone before the first byte
    try:
        done = sgfcheck(*args, stdout=writing)
    finally:
        os.close(writing)
    assert done.returncode == 4
    assert done.stderr.splitlines()[-1] == "sgfcheck: cannot write standard output: Broken pipe"
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_full_disk_on_standard_output_is_said_with_status_4(args: list[str],
                                                              tmp_path: Path) -> None:
    fd = os.open(full_device(tmp_path), os.O_WRONLY)
    try:
        done = sgfcheck(*args, stdout=fd)
    finally:
        os.close(fd)
    assert done.returncode == 4
    assert done.stderr.splitlines()[-1] == ("sgfcheck: cannot write standard output: No space "
                                            "left on device")
    assert "Traceback" not in done.stderr


def test_a_command_that_writes_nothing_to_a_closed_standard_output_is_not_a_failure(
        tmp_path: Path) -> None:
    # -o names the output: standard output, closed, is not needed.
    done = sgfcheck("check", str(FIXTURES / "capture.sgf"), "--format", "json", "-o",
                    str(tmp_path / "r.json"), close_stdout=True)
    assert done.returncode == 0 and done.stderr.startswith("written: ")
    assert "cannot write" not in done.stderr
    assert (tmp_path / "r.json").read_text(encoding="utf-8").startswith('{"file"')


def test_a_full_disk_under_batch_out_is_one_line_and_the_report_resumes(tmp_path: Path) -> None:
    full = full_device(tmp_path)
    report = tmp_path / "r.jsonl"
    report.symlink_to(full)
    done = sgfcheck("batch", str(FIXTURES), "--out", str(report), "-q")
    assert done.returncode == 4 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"sgfcheck: cannot write {report}: No space left on device (the files whose rows were "
        "written are kept: free room and run the same command with --resume)")
    # Room again (the link now names a plain file): --resume goes on past the state the full
    # disk left empty, and says so.
    report.unlink()
    whole = tmp_path / "whole.jsonl"
    assert sgfcheck("batch", str(FIXTURES), "--out", str(whole), "-q").returncode in (0, 1)
    rows = whole.read_text(encoding="utf-8").splitlines()
    report.write_text("\n".join(rows[:3]) + "\n", encoding="utf-8")
    (tmp_path / "r.jsonl.state").write_bytes(b"")
    done = sgfcheck("batch", str(FIXTURES), "--resume", str(report))
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr
    said = " ".join(done.stderr.split())
    assert (f"{report} has a run state that cannot be read (empty or cut short) (r.jsonl.state): "
            "its 3 earlier file(s) are skipped but not counted") in said
    assert report.read_text(encoding="utf-8").splitlines() == rows


@pytest.mark.parametrize(("command", "option"), [
    ("check", "-o"), ("score", "-o"), ("life", "-o"), ("view", "-o"), ("batch", "--out"),
    ("batch", "--html"), ("batch", "--summary-json"), ("batch", "--duplicates")])
@pytest.mark.parametrize("through", ["same name", "symbolic link", "hard link"])
def test_an_output_naming_an_input_is_refused_and_the_input_kept(
        command: str, option: str, through: str, tmp_path: Path) -> None:
    record = tmp_path / "x.sgf"
    record.write_bytes((FIXTURES / "capture.sgf").read_bytes())
    output = record
    if through == "symbolic link":
        output = tmp_path / "link.sgf"
        output.symlink_to(record)
    elif through == "hard link":
        output = tmp_path / "hard.sgf"
        os.link(record, output)
    result = CliRunner().invoke(app, [command, str(record), option, str(output)])
    assert result.exit_code == 2
    assert f"{option.replace('-o', '--output') if option == '-o' else option} {output} is the " \
           f"input {record}; inputs are never changed" in " ".join(result.output.split())
    assert record.read_bytes() == (FIXTURES / "capture.sgf").read_bytes()


def test_an_output_that_is_a_record_inside_an_input_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    record = tmp_path / "games" / "a.sgf"
    record.write_bytes((FIXTURES / "capture.sgf").read_bytes())
    result = CliRunner().invoke(app, ["batch", str(tmp_path / "games"), "--html", str(record)])
    assert result.exit_code == 2 and "is a record inside the input folder" in result.output
    assert record.read_bytes() == (FIXTURES / "capture.sgf").read_bytes()
    # A report beside the records is no record: written, as before.
    report = tmp_path / "games" / "r.jsonl"
    report.write_text("", encoding="utf-8")
    result = CliRunner().invoke(app, ["batch", str(tmp_path / "games"), "--out", str(report)])
    assert result.exit_code == 0 and report.read_text(encoding="utf-8").count("\n") == 1


# --- names that are not UTF-8 ---------------------------------------------------------------------

needs_byte_names = pytest.mark.skipif(sys.platform in ("darwin", "win32"),
                                      reason="the file system takes only Unicode names")


@needs_byte_names
@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_a_file_name_that_is_not_utf8_is_escaped_kept_and_resumed(kind: str,
                                                                   tmp_path: Path) -> None:
    # Found by an attacker's probe: bad\xff\xfe.sgf beside ok.sgf ended batch --out in orjson's
    # TypeError with 0 rows, and --resume died at the same file every time.
    games = tmp_path / "games"
    games.mkdir()
    record = (FIXTURES / "capture.sgf").read_bytes()
    (games / "ok.sgf").write_bytes(record)
    with open(os.path.join(os.fsencode(games), b"bad\xff\xfe.sgf"), "wb") as out:
        out.write(record)
    report = tmp_path / f"r.{kind}"
    done = sgfcheck("batch", str(games), "--out", str(report), "-q")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    text = report.read_text(encoding="utf-8")
    shown = f"{games}/bad\\xff\\xfe.sgf"
    assert (json.dumps(shown)[1:-1] if kind == "jsonl" else shown) in text
    assert len(text.splitlines()) == (2 if kind == "jsonl" else 3)
    again = sgfcheck("batch", str(games), "--resume", str(report))
    assert again.returncode == 0 and "files from earlier runs (--resume)         2" in again.stdout
    assert report.read_text(encoding="utf-8") == text


@needs_byte_names
def test_check_names_a_file_that_is_not_utf8_escaped(tmp_path: Path) -> None:
    name = os.path.join(os.fsencode(tmp_path), b"bad\xff.sgf")
    with open(name, "wb") as out:
        out.write((FIXTURES / "capture.sgf").read_bytes())
    shown = os.fsdecode(name)
    done = sgfcheck("check", shown)
    assert done.returncode == 0
    assert done.stdout.startswith(f"{tmp_path}/bad\\xff.sgf game 1: CLEAN")
    done = sgfcheck("check", shown, "-o", str(tmp_path / "r.json"))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["file"] == \
        f"{tmp_path}/bad\\xff.sgf"


def test_a_tar_member_named_in_latin1_is_escaped_and_the_batch_goes_on(tmp_path: Path) -> None:
    archive = tmp_path / "old.tar"
    record = (FIXTURES / "capture.sgf").read_bytes()
    with tarfile.open(archive, "w", format=tarfile.USTAR_FORMAT, encoding="latin-1") as tar:
        for name in ("caf\u00e9.sgf", "ok.sgf"):  # é written as the one byte 0xe9
            info = tarfile.TarInfo(name)
            info.size = len(record)
            tar.addfile(info, io.BytesIO(record))
    report = tmp_path / "r.jsonl"
    done = sgfcheck("batch", str(archive), "--out", str(report), "-q")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    rows = report.read_text(encoding="utf-8").splitlines()
    members = [json.loads(line)["member"] for line in rows]
    assert members == ["caf\\xe9.sgf", "ok.sgf"]


# --- -o keeps what its name stands for ------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "score", "life"])
def test_output_through_a_symbolic_link_writes_the_file_it_names(command: str,
                                                                 tmp_path: Path) -> None:
    # Found by an attacker's probe: -o wrote a temporary file and renamed it over the link.
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    result = CliRunner().invoke(app, [command, str(FIXTURES / "capture.sgf"), "-o", str(link)])
    assert result.exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text(encoding="utf-8"))["file"] == str(FIXTURES / "capture.sgf")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_output_to_a_fifo_is_written_to_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = CliRunner().invoke(app, ["check", str(FIXTURES / "capture.sgf"), "-o", str(fifo)])
    reader.join(timeout=30)
    assert result.exit_code == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert json.loads(got[0])["games"][0]["verdict"] == "clean"


def test_output_to_a_device_is_written_to_not_replaced(tmp_path: Path) -> None:
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # as /dev/null
    except OSError as exc:
        pytest.skip(f"cannot make a device node here ({exc}): needs root, as CI runs")
    result = CliRunner().invoke(app, ["score", str(FIXTURES / "capture.sgf"), "--format",
                                      "json", "-o", str(null)])
    assert result.exit_code == 0 and stat.S_ISCHR(os.stat(null).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


# --- report merge reads only the parts batch --out-dir writes -----------------------------------


def _parts(tmp_path: Path) -> Path:
    folder = tmp_path / "parts"
    result = CliRunner().invoke(app, ["batch", str(FIXTURES / "capture.sgf"),
                                      str(FIXTURES / "ko.sgf"), "--out-dir", str(folder), "-q"])
    assert result.exit_code in (0, 1) and (folder / "part-00000.jsonl.gz").exists()
    return folder


def test_report_merge_never_reads_the_names_a_manifest_gives(tmp_path: Path) -> None:
    # Found by an attacker's probe: a manifest whose rows named ../secret.txt or /etc/hostname
    # had those files copied into the merged report.
    folder = _parts(tmp_path)
    (tmp_path / "secret.txt").write_text("SECRET\n", encoding="utf-8")
    manifest = folder / "manifest.jsonl"
    head, entry = manifest.read_text(encoding="utf-8").splitlines()
    forged = json.loads(entry)
    forged.update(rows="../secret.txt", keys=str(tmp_path / "secret.txt"))
    manifest.write_text(head + "\n" + json.dumps(forged) + "\n", encoding="utf-8")
    merged = tmp_path / "merged.jsonl"
    result = CliRunner().invoke(app, ["report", "merge", str(folder), "-o", str(merged)])
    assert result.exit_code == 0, result.output
    text = merged.read_text(encoding="utf-8")
    assert "SECRET" not in text
    assert [json.loads(line)["path"] for line in text.splitlines()] == [
        str(FIXTURES / "capture.sgf"), str(FIXTURES / "ko.sgf")]


@pytest.mark.parametrize("index", [10**8, -1, "0", True])
def test_report_merge_refuses_a_partition_batch_never_writes(index: object,
                                                             tmp_path: Path) -> None:
    # A part index of 10^8 ran the merge out of memory (the list of missing partitions).
    folder = _parts(tmp_path)
    manifest = folder / "manifest.jsonl"
    head, entry = manifest.read_text(encoding="utf-8").splitlines()
    forged = json.loads(entry)
    forged["part"] = index
    manifest.write_text(head + "\n" + entry + "\n" + json.dumps(forged) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["report", "merge", str(folder)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "manifest.jsonl names a partition" in " ".join(result.output.split())


def test_report_merge_names_the_first_missing_partitions_and_counts_the_rest(
        tmp_path: Path) -> None:
    folder = _parts(tmp_path)
    for name in ("part-00000.jsonl.gz", "part-00000.keys.jsonl.gz"):
        (folder / name).rename(folder / name.replace("00000", "00030"))
    manifest = folder / "manifest.jsonl"
    head, entry = manifest.read_text(encoding="utf-8").splitlines()
    moved = json.loads(entry)
    moved["part"] = 30
    manifest.write_text(head + "\n" + json.dumps(moved) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["report", "merge", str(folder)])
    assert result.exit_code == 1
    assert ("partitions not complete: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, "
            "17, 18, 19 and 10 more") in " ".join(result.output.split())


@pytest.mark.parametrize("args", [
    ["check", "{record}", "-o", "{out}"], ["score", "{record}", "--format", "json", "-o", "{out}"],
    ["view", "{record}", "-o", "{out}"], ["diagram", "{record}", "-o", "{out}"],
    ["schema", "-o", "{out}"], ["batch", "{record}", "--summary-json", "{out}", "-q"],
    ["batch", "{record}", "--duplicates", "{out}", "-q"]], ids=lambda a: f"{a[0]} {a[-2]}")
def test_a_full_disk_under_a_named_output_names_that_output(args: list[str],
                                                            tmp_path: Path) -> None:
    # Standard output is not the output that failed: the message names the file.
    full = full_device(tmp_path)
    out = tmp_path / ("out.svg" if args[0] == "diagram" else "out.json")
    out.symlink_to(full)
    filled = [a.format(record=FIXTURES / "capture.sgf", out=out) for a in args]
    done = sgfcheck(*filled)
    assert done.returncode == 4 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == f"sgfcheck: cannot write {out}: No space left on device"
