"""batch on a real Dask cluster (a LocalCluster of 2 worker processes): the same rows as a local
run, a worker killed mid-run, a poison file, resume, URL inputs read by the workers."""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.output.summary import Summary
from sgfcheck.records.inputs import iter_inputs
from sgfcheck.run.batch import BatchOptions, run_batch
from sgfcheck.run.reportfile import ReportKind, ReportWriter

distributed = pytest.importorskip(
    "distributed", reason="Dask is not installed (pip install -e '.[test]' brings it)")
cloudpickle = pytest.importorskip("cloudpickle")

from sgfcheck.run.cluster import dask_runner  # noqa: E402

runner = CliRunner()
GAME = (FIXTURES / "scoring-basic.sgf").read_bytes()


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                          "distributed.scheduler.worker-saturation": 1.0}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=40)
        c = Client(cluster)
        yield c
        c.close()
        cluster.close()


def archive(tmp_path: Path, copies: int = 40) -> Path:
    """A folder of fixtures and copies of one game, a zip among them, and a file that is no
    record: every kind of row."""
    folder = tmp_path / "games"
    folder.mkdir()
    for path in sorted(FIXTURES.glob("*.sgf")):
        (folder / path.name).write_bytes(path.read_bytes())
    more = folder / "more"
    more.mkdir()
    for i in range(copies):
        (more / f"copy{i:03d}.sgf").write_bytes(GAME)
    with zipfile.ZipFile(folder / "club.zip", "w") as z:
        z.writestr("a.sgf", (FIXTURES / "ko.sgf").read_bytes())
        z.writestr("b.sgf", b"(;GM[1]SZ[9]KM[6.5];B[ee];W[ee])")
        z.writestr("readme.txt", "not a record")
    (folder / "broken.sgf").write_bytes(b"(;GM[1]SZ[9];B[ee];W[")
    return folder


def run(inputs: list[str], run_with: Any = None, jobs: int = 2, done: set[Any] | None = None,
        progress: Any = None) -> tuple[str, Summary]:
    stream = io.StringIO()
    writer = ReportWriter(stream, ReportKind.JSONL, write_header=True)
    options = BatchOptions.of(jobs=jobs, report_kind=ReportKind.JSONL)
    summary = run_batch(iter_inputs(inputs), options, writer, done, progress, None, run_with)
    return stream.getvalue(), summary


def same_summary(a: Summary, b: Summary) -> None:
    for field in ("files", "games", "unreadable", "input_problems", "not_records", "timeouts",
                  "games_with_illegal", "illegal_by_rule", "result_checks", "verdicts",
                  "identical_files", "same_games", "problems"):
        assert getattr(a, field) == getattr(b, field), field


def test_rows_identical_to_a_local_run(client: Any, tmp_path: Path) -> None:
    folder = archive(tmp_path)
    local, local_summary = run([str(folder)])
    dask, dask_summary = run([str(folder)], dask_runner(client))
    assert dask == local
    assert len(local.splitlines()) == len(list(FIXTURES.glob("*.sgf"))) + 40 + 2 + 1
    same_summary(dask_summary, local_summary)
    assert dask_summary.identical_files  # the 40 copies


def test_a_worker_killed_mid_run_costs_nothing(client: Any, tmp_path: Path) -> None:
    folder = archive(tmp_path, copies=300)
    local, _ = run([str(folder)])
    pids = list(client.run(os.getpid).values())
    killed: list[int] = []

    def progress(summary: Summary) -> None:
        if summary.files == 40 and not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    dask, _ = run([str(folder)], dask_runner(client), progress=progress)
    assert killed and dask == local
    client.wait_for_workers(2, timeout=60)  # the nanny started a new one


class Poison(distributed.WorkerPlugin):  # type: ignore[misc]
    """A worker plugin: the worker dies on files named ``*-poison.sgf`` (every worker, restarted
    ones too: the scheduler gives each new worker its plugins)."""

    name = "sgfcheck-poison"

    def setup(self, worker: Any) -> None:
        import sgfcheck.run.batch as batch_module

        original = batch_module._process

        def process(item: Any, options: Any) -> Any:
            if item.path.endswith("-poison.sgf"):
                os._exit(9)
            return original(item, options)

        batch_module._process = process


def test_a_poison_file_is_a_row_not_an_endless_retry(client: Any, tmp_path: Path) -> None:
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    folder = archive(tmp_path, copies=10)
    (folder / "more" / "copy004-poison.sgf").write_bytes(GAME)
    client.register_plugin(Poison())
    try:
        out, summary = run([str(folder)], dask_runner(client))
    finally:
        client.unregister_worker_plugin(Poison.name)
        client.restart()
    rows = [json.loads(line) for line in out.splitlines()]
    names = [Path(r["path"]).name for r in rows]
    (bad,) = [r for r in rows if r["path"].endswith("-poison.sgf")]
    assert bad["index"] is None
    assert [f["code"] for f in bad["file_findings"]] == ["SGF033"]
    assert "died each time it was tried" in bad["file_findings"][0]["message"]
    local, _ = run([str(folder)])  # no plugin here: the poison file is just a game
    local_names = [Path(json.loads(line)["path"]).name for line in local.splitlines()]
    assert names == local_names  # every file, in order
    assert summary.files == len({(r["path"], r.get("member")) for r in rows})


def test_resume_on_the_cluster(client: Any, tmp_path: Path) -> None:
    folder = archive(tmp_path)
    full = tmp_path / "full.jsonl"
    result = runner.invoke(app, ["batch", str(folder), "--out", str(full), "--jobs", "2", "-q"])
    assert result.exit_code == 1  # the broken file and the illegal moves: errors
    lines = full.read_text().splitlines(keepends=True)
    part = tmp_path / "part.jsonl"
    part.write_text("".join(lines[:20]) + lines[20][:30])
    scheduler = client.scheduler.address
    result = runner.invoke(app, ["batch", str(folder), "--resume", str(part), "--scheduler",
                                 scheduler, "-q"])
    assert result.exit_code == 1, result.output
    assert part.read_text() == full.read_text()
    assert "files skipped (already in the report)" in result.output


def test_url_inputs_read_by_the_workers(client: Any, tmp_path: Path) -> None:
    folder = archive(tmp_path)
    url = folder.as_uri()  # file:///.../games: listed here, every file read by a worker
    local, _ = run([str(folder)])
    dask, _ = run([url], dask_runner(client))
    assert [json.loads(x)["verdict"] for x in dask.splitlines()] == [
        json.loads(x)["verdict"] for x in local.splitlines()]
    paths = [json.loads(x)["path"] for x in dask.splitlines()]
    assert all(p.startswith("file:///") for p in paths)
    members = [json.loads(x) for x in dask.splitlines() if json.loads(x)["member"]]
    assert [(m["member"], m["verdict"]) for m in members] == [("a.sgf", "illegal moves"),
                                                            ("b.sgf", "illegal moves")]


def test_memory_url_in_a_local_run(tmp_path: Path) -> None:
    fsspec = pytest.importorskip("fsspec")
    memory = fsspec.filesystem("memory")
    memory.pipe("/sgfcheck-test/a.sgf", GAME)
    memory.pipe("/sgfcheck-test/sub/b.sgf", (FIXTURES / "ko.sgf").read_bytes())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("c.sgf", GAME)
    memory.pipe("/sgfcheck-test/d.zip", buffer.getvalue())
    try:
        out, summary = run(["memory://sgfcheck-test"], jobs=1)  # the worker forks: it sees them
    finally:
        memory.rm("/sgfcheck-test", recursive=True)
    rows = [json.loads(x) for x in out.splitlines()]
    assert [(r["path"], r["member"], r["verdict"]) for r in rows] == [
        ("memory:///sgfcheck-test/a.sgf", None, "clean"),
        ("memory:///sgfcheck-test/d.zip", "c.sgf", "clean"),
        ("memory:///sgfcheck-test/sub/b.sgf", None, "illegal moves")]
    assert summary.identical_files == [["memory:///sgfcheck-test/a.sgf",
                                        "memory:///sgfcheck-test/d.zip:c.sgf"]]


def test_cli_scheduler_local_and_unreachable(tmp_path: Path) -> None:
    folder = archive(tmp_path, copies=5)
    local_out, dask_out = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    a = runner.invoke(app, ["batch", str(folder), "--out", str(local_out), "--jobs", "2", "-q"])
    b = runner.invoke(app, ["batch", str(folder), "--out", str(dask_out), "--jobs", "2", "-q",
                            "--scheduler", "local"])
    assert a.exit_code == b.exit_code == 1
    assert dask_out.read_bytes() == local_out.read_bytes()
    c = runner.invoke(app, ["batch", str(folder), "--scheduler", "tcp://127.0.0.1:9", "-q"])
    assert c.exit_code == 2 and "cannot reach the Dask scheduler" in c.output


def test_a_missing_url_is_a_row(tmp_path: Path) -> None:
    out, summary = run(["file:///nonexistent-sgfcheck/x.sgf"], jobs=1)
    (row,) = [json.loads(x) for x in out.splitlines()]
    assert row["index"] is None and row["file_findings"][0]["code"] == "SGF032"
    assert summary.input_problems == 1
    assert threading.active_count() >= 1


# --- --out-dir: parts written by the workers, report merge -------------------------------------


def merged(folder: Path, tmp_path: Path, name: str) -> tuple[str, str]:
    out, dup = tmp_path / f"{name}.jsonl", tmp_path / f"{name}-dup.json"
    result = runner.invoke(app, ["report", "merge", str(folder), "-o", str(out),
                                 "--duplicates", str(dup)])
    assert result.exit_code == 0, result.output
    return out.read_text(), dup.read_text()


def test_parts_merge_to_the_report_of_one_run(client: Any, tmp_path: Path) -> None:
    folder = archive(tmp_path, copies=30)
    direct, dup = tmp_path / "direct.jsonl", tmp_path / "direct-dup.json"
    runner.invoke(app, ["batch", str(folder), "--out", str(direct), "--duplicates", str(dup),
                        "--jobs", "2", "-q"])
    local = tmp_path / "local-parts"
    result = runner.invoke(app, ["batch", str(folder), "--out-dir", str(local), "--part-size",
                                 "7", "--jobs", "2", "-q"])
    assert result.exit_code == 1, result.output  # as the direct run: error findings
    manifest = (local / "manifest.jsonl").read_text().splitlines()
    files = len(direct.read_text().splitlines())
    assert len(manifest) == 1 + (files + 6) // 7
    assert json.loads(manifest[0])["part_size"] == 7
    assert merged(local, tmp_path, "local") == (direct.read_text(), dup.read_text())
    on_dask = tmp_path / "dask-parts"
    result = runner.invoke(app, ["batch", str(folder), "--out-dir", str(on_dask),
                                 "--part-size", "7", "--scheduler", client.scheduler.address,
                                 "-q"])
    assert result.exit_code == 1, result.output
    assert merged(on_dask, tmp_path, "dask") == (direct.read_text(), dup.read_text())
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (test extras)")
    # Parquet parts written by the cluster's workers merge to the Parquet report of one run.
    one = tmp_path / "direct.parquet"
    runner.invoke(app, ["batch", str(folder), "--out", str(one), "--jobs", "2", "-q"])
    typed = tmp_path / "dask-parquet-parts"
    result = runner.invoke(app, ["batch", str(folder), "--out-dir", str(typed),
                                 "--part-size", "7", "--part-format", "parquet",
                                 "--scheduler", client.scheduler.address, "-q"])
    assert result.exit_code == 1, result.output
    assert (typed / "part-00000.parquet").exists()
    out = tmp_path / "dask.parquet"
    result = runner.invoke(app, ["report", "merge", str(typed), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert pq.read_table(out).to_pylist() == pq.read_table(one).to_pylist()


def test_parts_continue_an_interrupted_run(tmp_path: Path) -> None:
    folder = archive(tmp_path, copies=30)
    parts = tmp_path / "parts"
    args = ["batch", str(folder), "--out-dir", str(parts), "--part-size", "10", "--jobs", "1",
            "-q"]
    runner.invoke(app, args)
    whole = merged(parts, tmp_path, "whole")
    lines = (parts / "manifest.jsonl").read_text().splitlines(keepends=True)
    # Interrupted after two partitions, in the middle of writing the third's line.
    (parts / "manifest.jsonl").write_text("".join(lines[:3]) + lines[3][:25])
    (parts / "part-00003.jsonl.gz").unlink()
    result = runner.invoke(app, args)
    assert "files skipped (already in the report)" in result.output
    skipped = [line for line in result.output.splitlines() if line.startswith("files skipped")]
    assert skipped[0].split()[-1] == "20"
    assert merged(parts, tmp_path, "again") == whole
    other = runner.invoke(app, [*args[:4], "--part-size", "5", "-q"])
    assert other.exit_code == 2 and "--part-size 5, not 10" in other.output
    # Continuing with other settings would mix rows judged two ways: refused, naming them.
    for extra, said in ((["--rules", "chinese"], "--rules chinese, not auto"),
                        (["--engine", "katago"], "--engine katago, not auto"),
                        (["--dead-stones", "auto", "--limit", "nodes=1000"],
                         "--dead-stones auto, not markup; --limit nodes=1000, not 2000000")):
        refused = runner.invoke(app, [*args, *extra])
        assert refused.exit_code == 2 and said in refused.output, refused.output


def test_a_poison_partition_falls_back_to_file_by_file(client: Any, tmp_path: Path) -> None:
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    folder = archive(tmp_path, copies=10)
    (folder / "more" / "copy004-poison.sgf").write_bytes(GAME)
    client.register_plugin(Poison())
    parts = tmp_path / "parts"
    try:
        result = runner.invoke(app, ["batch", str(folder), "--out-dir", str(parts),
                                     "--part-size", "8", "--scheduler",
                                     client.scheduler.address, "-q"])
    finally:
        client.unregister_worker_plugin(Poison.name)
        client.restart()
    assert result.exit_code == 1, result.output
    text, _ = merged(parts, tmp_path, "poisoned")
    rows = [json.loads(x) for x in text.splitlines()]
    (bad,) = [r for r in rows if r["path"].endswith("-poison.sgf")]
    assert [f["code"] for f in bad["file_findings"]] == ["SGF033"]
    assert sum(1 for r in rows if r["path"].endswith(".sgf") and "copy" in r["path"]) == 11


def test_parts_at_a_url(tmp_path: Path) -> None:
    folder = archive(tmp_path, copies=3)
    url = (tmp_path / "url-parts").as_uri()
    result = runner.invoke(app, ["batch", str(folder), "--out-dir", url, "--part-size", "9",
                                 "--jobs", "1", "-q"])
    assert result.exit_code == 1, result.output
    assert (tmp_path / "url-parts" / "part-00000.jsonl.gz").exists()
    direct = tmp_path / "direct.jsonl"
    runner.invoke(app, ["batch", str(folder), "--out", str(direct), "--jobs", "1", "-q"])
    out = tmp_path / "m.jsonl"
    result = runner.invoke(app, ["report", "merge", url, "-o", str(out)])
    assert result.exit_code == 0 and out.read_text() == direct.read_text()


def test_out_dir_usage_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["batch", str(FIXTURES), "--out-dir", str(tmp_path / "p"),
                                 "--out", str(tmp_path / "r.jsonl")])
    assert result.exit_code == 2 and "report merge" in result.output
    result = runner.invoke(app, ["report", "merge", str(tmp_path)])
    assert result.exit_code == 2 and "no manifest.jsonl" in result.output


# --- the time limit in a worker thread; the duplicate index --------------------------------------


def test_time_limit_in_a_thread_stops_pure_python_loops(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """Dask runs tasks in threads, where no alarm signal can go: the limit is an exception sent
    to the thread."""
    import sgfcheck.run.batch as batch_module
    from sgfcheck.records.items import WorkItem

    def spin(item: Any, options: Any) -> Any:
        while True:
            pass

    monkeypatch.setattr(batch_module, "_process", spin)
    path = tmp_path / "g.sgf"
    path.write_bytes(GAME)
    out: list[Any] = []
    options = BatchOptions.of(timeout=0.5, report_kind=ReportKind.DICT)
    worker = threading.Thread(target=lambda: out.append(
        batch_module.process_item(WorkItem(str(path)), options)))
    worker.start()
    worker.join(10)
    assert not worker.is_alive()
    (outcome,) = out
    assert outcome.timed_out
    assert outcome.rows[0]["file_findings"][0]["code"] == "SGF031"


def test_duplicate_index_groups_in_order() -> None:
    from sgfcheck.run.duplicates import FLUSH, DuplicateIndex

    with DuplicateIndex() as index:
        for i in range(FLUSH + 5):  # past one flush to disk
            index.add("file", bytes([i % 7]), f"f{i}")
        index.add("game", b"x", "a#1")
        index.add("game", b"y", "b#1")
        index.add("game", b"x", "c#1")
        groups = index.groups("file")
        assert [g[:3] for g in groups] == [[f"f{k}", f"f{k + 7}", f"f{k + 14}"] for k in range(7)]
        assert sum(len(g) for g in groups) == FLUSH + 5
        assert index.groups("game") == [["a#1", "c#1"]]


def test_chained_zip_urls_and_check_on_a_url(tmp_path: Path) -> None:
    archive_path = tmp_path / "g.zip"
    with zipfile.ZipFile(archive_path, "w") as z:
        z.writestr("a/ko.sgf", (FIXTURES / "ko.sgf").read_bytes())
        z.writestr("a/seki.sgf", (FIXTURES / "seki.sgf").read_bytes())
    chained = f"zip://a/*.sgf::{archive_path.as_uri()}"
    out, _ = run([chained], jobs=1)
    assert [(json.loads(x)["path"], json.loads(x)["verdict"]) for x in out.splitlines()] == [
        (f"zip://a/ko.sgf::{archive_path.as_uri()}", "illegal moves"),
        (f"zip://a/seki.sgf::{archive_path.as_uri()}", "clean")]
    result = runner.invoke(app, ["check", f"zip://a/ko.sgf::{archive_path.as_uri()}"])
    assert result.exit_code == 1 and "ILLEGAL MOVES (1 simple ko)" in result.output
    result = runner.invoke(app, ["score", (FIXTURES / "seki.sgf").as_uri(), "--format", "json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["games"][0]["result_check"]["status"] == "match"
