"""No option value ends in a traceback: every command, every option, hostile values.

Found by this sweep: a file name too long for --out/--resume (OSError), and --jobs
99999999999999999999, which started workers until the machine ran out of memory."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app

runner = CliRunner()
VALUES = ["", "nan", "inf", "-inf", "-1", "0", "1e400", "99999999999999999999", "\x00", "a" * 5000,
          "../../etc/passwd", "/dev/zero", "japanese:komi=", ":", ",", "D4,,Q16", "ZZ99", "🙂"]
OPTIONS = {
    "check": ["--rules", "--ko", "--suicide", "--komi", "--format", "--encoding", "--limit", "-o"],
    "score": ["--rules", "--compare", "--dead", "--dead-stones", "--seed",
              "--move", "--komi", "--engine", "--format", "--encoding", "--limit", "-o"],
    "life": ["--move", "--rules", "--komi", "--dead-stones", "--seed", "--engine", "--format",
             "--encoding", "--limit"],
    "batch": ["--out", "--resume", "--jobs", "--timeout", "--rules", "--komi", "--fail-on",
              "--duplicates", "--summary-json", "--html", "--encoding", "--dead-stones",
              "--engine", "--limit"],
    "convert": ["--encoding", "--limit", "-o"],
    "diagram": ["--game", "--move", "--rules", "--komi", "--dead-stones", "--seed", "--encoding",
                "--limit", "-o"],
    "annotate": ["--fix", "--rules", "--compare", "--komi", "--dead-stones",
                 "--seed", "--encoding", "--limit", "-o"],
    "rules": ["--format"],
}
WRITES = ("--out", "--resume", "--duplicates", "--summary-json", "--html", "-o")


@pytest.mark.parametrize(("command", "option"),
                         [(c, o) for c, opts in OPTIONS.items() for o in opts])
def test_no_option_value_ends_in_a_traceback(command: str, option: str, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # relative output names land here, nowhere else
    record = str(FIXTURES / "ko.sgf")
    for value in VALUES:
        if option in WRITES and value == "/dev/zero":
            continue  # a device as an output would be written to, as asked
        args = [command, option, value] if command == "rules" else [command, record, option,
                                                                   value]
        if command in ("convert", "annotate") and option != "-o":
            args += ["-o", str(tmp_path / "out.sgf")]
        if command in ("check", "score") and option == "-o":
            args += ["--format", "html"]
        result = runner.invoke(app, args)
        assert result.exit_code in (0, 1, 2), (args[:4], result.exit_code)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args[:4], repr(result.exception))
