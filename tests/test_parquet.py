"""Batch reports as Parquet (sgfcheck.run.parquet): the same rows as JSON Lines, field by field;
--resume; report merge --format parquet; and every query of docs/queries.md run with DuckDB
(and its pandas lines) on a real report."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, FIXTURES, ROOT
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.run.batch import BatchOptions, Problems
from sgfcheck.run.parquet import flat_row
from sgfcheck.run.report import write_report

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed "
                         "(pip install -e '.[test]')")
runner = CliRunner()


def batch(inputs: list[str], out: Path, *extra: str) -> None:
    done = runner.invoke(app, ["batch", *inputs, "--out", str(out), "-q", "--jobs", "2",
                               "--fail-on", "never", *extra])
    assert done.exit_code == 0, done.output


def parquet_rows(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    return rows


def jsonl_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def key(row: dict[str, Any]) -> tuple[str, str, int]:
    return row["path"], row.get("member") or "", row.get("index") or 0


def same_rows(parquet: Path, jsonl: Path) -> int:
    """Every Parquet row equals its JSON Lines row, column by column; the number of rows."""
    typed = sorted(parquet_rows(parquet), key=key)
    plain = sorted(jsonl_rows(jsonl), key=key)
    assert len(typed) == len(plain)
    for got, obj in zip(typed, plain, strict=True):
        assert got == flat_row(obj), obj["path"]
        # The columns a user reads against the JSON they came from.
        assert got["verdict"] == obj["verdict"]
        if obj.get("index") is not None:
            assert got["komi"] == obj["komi"] and got["width"] == obj["size"][0]
            assert [c["result"] for c in got["counts"]] == [s["result"] for s in obj["scores"]]
            assert [f["code"] for f in got["findings"]] == [f["code"] for f in obj["findings"]]
            assert got["result_check"] == obj["result_check"]["status"]
    return len(typed)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    where = tmp_path_factory.mktemp("reports")
    parquet, jsonl = where / "report.parquet", where / "report.jsonl"
    batch([str(FIXTURES)], parquet)
    batch([str(FIXTURES)], jsonl)
    return parquet, jsonl


def test_parquet_and_json_lines_hold_the_same_rows(reports: tuple[Path, Path]) -> None:
    parquet, jsonl = reports
    assert same_rows(parquet, jsonl) == len(jsonl_rows(jsonl)) > 40
    table = pq.read_table(parquet)
    assert str(table.schema.field("komi").type) == "double"
    assert str(table.schema.field("first_illegal_move").type) == "int32"
    assert str(table.schema.field("findings").type).startswith("list<element: struct<code")
    assert parquet.stat().st_size * 5 < jsonl.stat().st_size


def test_a_corpus_sample_holds_the_same_rows(tmp_path: Path) -> None:
    folder = CORPUS / "pro19"
    if not folder.is_dir():
        pytest.skip(f"shared corpus not found at {folder}")
    sample = [str(p) for p in sorted(folder.rglob("*.sgf"))[:80]]
    batch(sample, tmp_path / "s.parquet")
    batch(sample, tmp_path / "s.jsonl")
    assert same_rows(tmp_path / "s.parquet", tmp_path / "s.jsonl") == 80


def test_an_interrupted_parquet_run_resumes_to_the_whole_report(tmp_path: Path) -> None:
    inputs = [str(p) for p in sorted(FIXTURES.glob("*.sgf"))[:16]]
    full = tmp_path / "full.parquet"
    batch(inputs, full)
    part = tmp_path / "part.parquet"

    def stop(summary: Any) -> None:
        if summary.files + summary.input_problems >= 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_report(inputs, BatchOptions.of(jobs=1), out=part, progress=stop,
                     problems=Problems())
    assert len(parquet_rows(part)) >= 7  # the footer is written on Ctrl-C: readable
    done = runner.invoke(app, ["batch", *inputs, "--resume", str(part), "-q", "--jobs", "2",
                               "--fail-on", "never"])
    assert done.exit_code == 0, done.output
    assert parquet_rows(part) == parquet_rows(full)
    assert not part.with_name(part.name + ".resumed").exists()


def test_report_merge_writes_parquet(tmp_path: Path, reports: tuple[Path, Path]) -> None:
    parts = tmp_path / "parts"
    done = runner.invoke(app, ["batch", str(FIXTURES), "--out-dir", str(parts), "-q",
                               "--jobs", "2", "--fail-on", "never"])
    assert done.exit_code == 0, done.output
    merged = tmp_path / "merged.parquet"
    done = runner.invoke(app, ["report", "merge", str(parts), "-o", str(merged)])
    assert done.exit_code == 0, done.output
    assert sorted(parquet_rows(merged), key=key) == sorted(parquet_rows(reports[0]), key=key)


def parts_run(folder: Path, *extra: str) -> str:
    done = runner.invoke(app, ["batch", str(FIXTURES), "--out-dir", str(folder), "-q",
                               "--jobs", "2", "--fail-on", "never", "--part-size", "7",
                               "--part-format", "parquet", *extra])
    assert done.exit_code == 0, done.output
    return done.output


def test_parquet_parts_merge_to_the_report_of_one_run(tmp_path: Path,
                                                      reports: tuple[Path, Path]) -> None:
    parts = tmp_path / "parts"
    parts_run(parts)
    # The fixtures' files in partitions of 7: one Parquet part per 7, each a readable report.
    files = len({row["path"] for row in parquet_rows(reports[0])})
    names = sorted(p.name for p in parts.iterdir())
    assert files > 40 and [n for n in names if n.endswith(".parquet")] == [
        f"part-{i:05d}.parquet" for i in range((files + 6) // 7)]
    assert not [n for n in names if n.endswith(".partial") or n.endswith(".jsonl.gz")
                and "keys" not in n]
    assert len(parquet_rows(parts / "part-00000.parquet")) == 7
    head = json.loads((parts / "manifest.jsonl").read_text().splitlines()[0])
    assert head["part_format"] == "parquet" and head["schema"]
    merged = tmp_path / "merged.parquet"
    done = runner.invoke(app, ["report", "merge", str(parts), "-o", str(merged)])
    assert done.exit_code == 0, done.output
    # Row groups copied in input order: the very rows of a one-file Parquet report.
    assert parquet_rows(merged) == parquet_rows(reports[0])
    # DuckDB reads the parts as they stand, the manual's glob.
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (test extras)")
    verdicts = duckdb.sql(f"SELECT verdict, count(*) FROM '{parts}/part-*.parquet' "
                          "GROUP BY verdict ORDER BY verdict").fetchall()
    by_verdict: dict[str, int] = {}
    for row in parquet_rows(reports[0]):
        by_verdict[row["verdict"]] = by_verdict.get(row["verdict"], 0) + 1
    assert verdicts == sorted(by_verdict.items())
    # The typed columns are not the JSON rows: a JSON Lines merge is refused, nothing written.
    jsonl = tmp_path / "merged.jsonl"
    refused = runner.invoke(app, ["report", "merge", str(parts), "-o", str(jsonl)])
    assert refused.exit_code == 2 and "its parts are Parquet" in refused.output
    assert not jsonl.exists()


def test_parquet_parts_continue_an_interrupted_run(tmp_path: Path,
                                                   reports: tuple[Path, Path]) -> None:
    parts = tmp_path / "parts"
    parts_run(parts)
    lines = (parts / "manifest.jsonl").read_text().splitlines(keepends=True)
    # Interrupted while partition 3 was written: its line cut, its file half there.
    (parts / "manifest.jsonl").write_text("".join(lines[:4]) + lines[4][:30])
    (parts / "part-00003.parquet").rename(parts / "part-00003.parquet.partial")
    output = parts_run(parts)
    skipped = [line for line in output.splitlines() if line.startswith("files skipped")]
    assert skipped[0].split()[-1] == "21"  # partitions 0, 1 and 2 kept
    merged = tmp_path / "again.parquet"
    done = runner.invoke(app, ["report", "merge", str(parts), "-o", str(merged)])
    assert done.exit_code == 0, done.output
    assert parquet_rows(merged) == parquet_rows(reports[0])
    # Continuing the run with parts of the other format would mix them: refused, saying so.
    other = runner.invoke(app, ["batch", str(FIXTURES), "--out-dir", str(parts), "-q",
                                "--part-size", "7"])
    assert other.exit_code == 2 and "--part-format jsonl, not parquet" in other.output


def test_parquet_parts_at_a_url(tmp_path: Path, reports: tuple[Path, Path]) -> None:
    url = (tmp_path / "url-parts").as_uri()
    done = runner.invoke(app, ["batch", str(FIXTURES), "--out-dir", url, "-q", "--jobs", "1",
                               "--fail-on", "never", "--part-size", "30",
                               "--part-format", "parquet"])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "url-parts" / "part-00001.parquet").exists()
    merged = tmp_path / "m.parquet"
    done = runner.invoke(app, ["report", "merge", url, "-o", str(merged)])
    assert done.exit_code == 0, done.output
    assert parquet_rows(merged) == parquet_rows(reports[0])


def test_part_format_usage_errors(tmp_path: Path) -> None:
    alone = runner.invoke(app, ["batch", str(FIXTURES), "--part-format", "parquet"])
    assert alone.exit_code == 2 and "--out FILE.parquet" in alone.output
    wrong = runner.invoke(app, ["batch", str(FIXTURES), "--out-dir", str(tmp_path / "p"),
                                "--part-format", "csv"])
    assert wrong.exit_code == 2 and "jsonl or parquet" in wrong.output


def _queries() -> tuple[list[str], str]:
    page = (ROOT / "docs" / "queries.md").read_text(encoding="utf-8")
    sql = re.findall(r"```sql\n(.*?)```", page, re.S)
    python = re.findall(r"```python\n(.*?)```", page, re.S)
    return sql, python[0]


def test_the_manuals_queries_run_on_a_real_report(reports: tuple[Path, Path]) -> None:
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (test extras)")
    parquet, jsonl = reports
    rows = jsonl_rows(jsonl)
    sql, python = _queries()
    assert len(sql) == 4
    answers = [duckdb.sql(q.replace("'report.parquet'", f"'{parquet}'")).fetchall() for q in sql]
    # 1. Every illegal move by ruleset: the same counts as the JSON rows give.
    expected: dict[tuple[str, str], int] = {}
    for r in rows:
        if r["verdict"] == "illegal moves":
            first = next(f for f in r["findings"] if f["severity"] == "error"
                         and f["code"].startswith("RUL") and f.get("move"))
            k = (r["rules"]["name"], first["rule"])
            expected[k] = expected.get(k, 0) + 1
    assert {(a, b): n for a, b, n in answers[0]} == expected
    assert ("japanese", "suicide", 2) in answers[0]
    # 2. Every finding that is not info, one row each.
    assert len(answers[1]) == sum(1 for r in rows for f in r.get("findings", [])
                                  if f["severity"] != "info")
    # 3. Mismatches by server and basis.
    mismatches = sum(1 for r in rows if (r.get("result_check") or {}).get("status") == "mismatch")
    assert sum(n for _, _, n in answers[2]) == mismatches
    # 4. Games whose rulesets disagree on the winner.
    split = [r for r in rows if len({s["result"][0] for s in r.get("scores", [])}) > 1]
    assert len(answers[3]) == len(split)
    # pandas: the same numbers.
    scope: dict[str, Any] = {}
    exec(python.replace('"report.parquet"', repr(str(parquet))), scope)  # noqa: S102
    assert int(scope["by_verdict"]["illegal moves"]) == sum(
        1 for r in rows if r["verdict"] == "illegal moves")
    assert len(scope["illegal"]) == scope["by_verdict"]["illegal moves"]
