"""Every JSON object sgfcheck prints validates against the published JSON Schema
(sgfcheck/data/report.schema.json): check, score and life per input, batch per row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from sgfcheck.cli.app import app

runner = CliRunner()
SCHEMA = json.loads((ROOT / "sgfcheck" / "data" / "report.schema.json").read_text())
Draft202012Validator.check_schema(SCHEMA)


def validator(kind: str) -> Draft202012Validator:
    """A validator for one kind of object (``#/$defs/<kind>``)."""
    return Draft202012Validator({"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"],
                                 "$ref": f"#/$defs/{kind}"})


def lines(args: list[str]) -> list[dict[str, object]]:
    result = runner.invoke(app, args)
    return [json.loads(line) for line in result.stdout.splitlines()]


INPUTS = [str(p) for p in sorted(FIXTURES.glob("*.sgf"))]


@pytest.mark.parametrize(("args", "kind"), [
    (["check", "--format", "json", "--all-rules", "--variations"], "file_check"),
    (["score", "--format", "json", "--all-rules"], "file_score"),
    (["life", "--format", "json"], "file_life"),
])
def test_every_fixture_validates(args: list[str], kind: str) -> None:
    check = validator(kind)
    for obj in lines([*args, *INPUTS]):
        errors = sorted(check.iter_errors(obj), key=str)
        assert errors == [], (obj.get("file"), [e.message for e in errors[:3]])


def test_unreadable_skipped_and_other_formats_validate(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "empty.sgf").write_bytes(b"")
    (tmp_path / "bad.gib").write_bytes(b"\\HS\nSTO x\n")
    for command, kind in (("check", "file_check"), ("score", "file_score"),
                          ("life", "file_life")):
        for obj in lines([command, "--format", "json", str(tmp_path)]):
            which = "skipped" if "skipped" in obj else kind
            assert list(validator(which).iter_errors(obj)) == [], obj


def test_batch_rows_validate(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    (tmp_path / "in").mkdir()
    for name in ("ko.sgf", "seki.sgf", "dead-in-territory.sgf"):
        (tmp_path / "in" / name).write_bytes((FIXTURES / name).read_bytes())
    (tmp_path / "in" / "empty.sgf").write_bytes(b"")
    runner.invoke(app, ["batch", str(tmp_path / "in"), "--out", str(out), "--fail-on", "never"])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 4
    for row in rows:
        kind = "batch_file" if row["index"] is None else "batch_game"
        assert list(validator(kind).iter_errors(row)) == [], row


def test_the_schema_catches_a_wrong_object() -> None:
    obj = lines(["check", "--format", "json", INPUTS[0]])[0]
    game = obj["games"][0]  # type: ignore[index]
    game["verdict"] = "fine"
    messages = [e.message for e in validator("file_check").iter_errors(obj)]
    assert messages[0] == ("'fine' is not one of ['clean', 'warnings', 'errors', "
                           "'illegal moves', 'not checked']")
    game["verdict"] = "clean"
    game["surprise"] = 1
    assert [e.message for e in validator("file_check").iter_errors(obj)] == [
        "Unevaluated properties are not allowed ('surprise' was unexpected)"]


def test_batch_summary_and_duplicates_validate(tmp_path: Path) -> None:
    summary, duplicates = tmp_path / "s.json", tmp_path / "d.json"
    runner.invoke(app, ["batch", str(FIXTURES), "--summary-json", str(summary), "--duplicates",
                        str(duplicates), "--fail-on", "never"])
    assert list(validator("summary").iter_errors(json.loads(summary.read_text()))) == []
    assert list(validator("duplicates").iter_errors(json.loads(duplicates.read_text()))) == []


def test_sgfcheck_schema_prints_the_packaged_schema_and_its_version(tmp_path: Path) -> None:
    from sgfcheck.output.schema import SCHEMA_VERSION

    printed = runner.invoke(app, ["schema"])
    assert printed.exit_code == 0
    assert json.loads(printed.output) == SCHEMA
    assert SCHEMA["version"] == SCHEMA_VERSION
    assert runner.invoke(app, ["schema", "--version"]).output == f"{SCHEMA_VERSION}\n"
    # A batch run's state names the version its rows were written with.
    report = tmp_path / "r.jsonl"
    done = runner.invoke(app, ["batch", str(FIXTURES / "ko.sgf"), "--out", str(report), "-q",
                               "--fail-on", "never", "--jobs", "1"])
    assert done.exit_code == 0, done.output
    head = json.loads(report.with_name("r.jsonl.state").read_text().splitlines()[0])
    assert head["schema"] == SCHEMA_VERSION
