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


# --- the report rows' encoder ------------------------------------------------------------------


def _rows_both_ways(paths: list[Path]) -> int:
    """Every batch row of ``paths`` (games and files without one) written by the rows' encoder
    (orjson) and by the standard one: the same values, keys in the same order, one line each."""
    from sgfcheck.output.schema import batch_file_row, batch_game_row, json_text, jsonl_line
    from sgfcheck.records.record import load_file
    from sgfcheck.scoring.adjudicate import score_loaded
    from sgfcheck.settings import Settings

    settings = Settings()
    rows = 0
    for path in paths:
        loaded = load_file(path, settings.encoding, settings.limits)
        objects = [batch_file_row(str(path), None, loaded.findings)] if not loaded.games else []
        if loaded.games:
            scored = score_loaded(loaded, settings)
            objects += [batch_game_row(str(path), None, game, scored.check)
                        for game in scored.games]
        for obj in objects:
            fast, plain = jsonl_line(obj), json_text(obj) + "\n"
            assert fast.endswith("\n") and fast.count("\n") == 1
            # Parsed and written again by one encoder: equal text means equal values and keys
            # in the same order.
            assert json.dumps(json.loads(fast)) == json.dumps(json.loads(plain)), path
            rows += 1
    return rows


def test_row_encoder_writes_the_values_of_the_standard_encoder_on_every_fixture() -> None:
    paths = sorted(p for p in FIXTURES.rglob("*") if p.is_file())
    assert _rows_both_ways(paths) >= len(paths)


def test_row_encoder_writes_the_values_of_the_standard_encoder_on_a_corpus_sample() -> None:
    from conftest import corpus_dir

    corpus = corpus_dir()
    paths = [p for kind in ("kgs", "pro19", "odd", "formats", "ai")
             for p in sorted((corpus / kind).rglob("*"))[::97] if p.is_file()]
    assert _rows_both_ways(paths) >= len(paths) // 2


def test_row_encoder_escapes_what_the_standard_encoder_escapes() -> None:
    from sgfcheck.output.schema import json_text, jsonl_line

    tricky = {"a": "line\u2028sep\u2029par\x85nel\x7fdel\x00nul\u202eltr \"q\" \\", 1: 2.5,
              "n": [None, True, -0.5, 10**15, 7.0, 1e-7], "\u00e9": "\u65e5\u672c"}
    fast, plain = jsonl_line(tricky), json_text(tricky) + "\n"
    expected = {("1" if k == 1 else k): v for k, v in tricky.items()}
    assert json.loads(fast) == json.loads(plain) == expected
    for raw in ("\u2028", "\u2029", "\x85", "\x7f", "\x00", "\u202e"):
        assert raw not in fast
    assert fast.isprintable() or fast[:-1].isprintable()


def test_csv_rows_made_as_text_in_the_worker_are_the_records_csv_writer_writes() -> None:
    import csv
    import io

    from sgfcheck.output.schema import csv_line, csv_row
    from sgfcheck.run.reportfile import ReportKind, ReportWriter

    cells = csv_row(["a,b", 'say "x"', "=1+1", "line\nbreak", None, 3.5, True, ""])
    text = csv_line(cells)
    assert text.endswith("\r\n")
    assert list(csv.reader(io.StringIO(text))) == [
        ["a,b", 'say "x"', "'=1+1", "line\\nbreak", "", "3.5", "True", ""]]
    as_text, as_cells = io.StringIO(), io.StringIO()
    ReportWriter(as_text, ReportKind.CSV, True).write([text, text])
    ReportWriter(as_cells, ReportKind.CSV, True).write([cells, cells])
    assert as_text.getvalue() == as_cells.getvalue()
    assert as_text.getvalue().count("\r\n") == 3  # the header and two rows
