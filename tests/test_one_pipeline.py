"""One way through a file, one ordered loop over every executor, renderers that only render."""

from __future__ import annotations

import ast
import gzip
import importlib
import json
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.records.items import WorkItem
from sgfcheck.run.batch import BatchOptions
from sgfcheck.run.executor import Chunk, RunStopped, chunks, hard_limit, in_order
from sgfcheck.run.ledger import RunHead
from sgfcheck.settings import Settings, differences

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent

# Thirty games, each with a resignation the count contradicts (White made the last play).
THIRTY = "".join("(;GM[1]FF[4]SZ[9]KM[6.5]RE[B+R];B[ee];W[cc])" for _ in range(30))
JUDGED = ("30 games read; only the first 5 were judged and counted (raise it with --limit "
          "judged=...)")


def test_batch_judges_as_many_games_as_score(tmp_path: Path) -> None:
    # --limit judged=5 on a file of 30 games: score judges 5 and says so (SGF035); batch, its
    # parts and the JSON of score give the same five games and the same finding.
    record = tmp_path / "thirty.sgf"
    record.write_text(THIRTY, encoding="utf-8")
    scored = runner.invoke(app, ["score", "--limit", "judged=5", "--format", "json", str(record)])
    file_findings = json.loads(scored.stdout)["findings"]
    assert [(f["code"], f["message"]) for f in file_findings] == [("SGF035", JUDGED)]
    assert len(json.loads(scored.stdout)["games"]) == 5
    assert scored.exit_code == 1  # a file not judged whole is an error finding

    out = tmp_path / "report.jsonl"
    done = runner.invoke(app, ["batch", "--limit", "judged=5", "--jobs", "1", "--out", str(out),
                               str(record)])
    assert done.exit_code == 1, done.output  # as score: the error finding of the file
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["index"] for r in rows] == [1, 2, 3, 4, 5]
    for row in rows:
        assert [(f["code"], f["message"]) for f in row["file_findings"]] == [("SGF035", JUDGED)]

    folder = tmp_path / "parts"
    done = runner.invoke(app, ["batch", "--limit", "judged=5", "--jobs", "1", "--out-dir",
                               str(folder), str(record)])
    assert done.exit_code == 1, done.output
    with gzip.open(folder / "part-00000.jsonl.gz", "rt", encoding="utf-8") as part:
        parted = [json.loads(line) for line in part]
    assert parted == rows


# --- the ordered loop -------------------------------------------------------------------------


class _Toy:
    """An executor run in this process: a chunk is the names of its files; a chunk holding
    "die" is lost (as a worker killed by it), any other comes back as its names upper-cased."""

    def __init__(self, room: int) -> None:
        self._room = room
        self.flying = 0
        self.most = 0
        self.sent: list[list[str]] = []
        self.cancelled = 0

    def room(self) -> int:
        return self._room

    def submit(self, chunk: Chunk, hard: float | None) -> Any:
        names = [str(item.path) for item in chunk.items]  # type: ignore[union-attr]
        self.sent.append(names)
        self.flying += 1
        self.most = max(self.most, self.flying)
        future: Future[list[str]] = Future()
        if "die" in names:
            future.set_exception(RuntimeError("worker died"))
        else:
            future.set_result([n.upper() for n in names])
        return future

    def wait(self, task: Any, hard: float | None) -> list[str]:
        self.flying -= 1
        result: list[str] = task.result()
        return result

    def cancel(self, task: Any) -> None:
        self.cancelled += 1


def _items(*names: str) -> list[WorkItem]:
    return [WorkItem(name) for name in names]


def test_the_loop_keeps_order_and_room_and_splits_a_lost_chunk() -> None:
    toy = _Toy(room=2)
    work = chunks(_items("a", "b", "die", "c", "d", "e", "f"), 3)
    lost: list[list[str]] = []

    def recover(chunk: Chunk, exc: BaseException) -> list[str] | None:
        names = [str(item.path) for item in chunk.items]  # type: ignore[union-attr]
        lost.append(names)
        return None if len(names) > 1 else [f"lost {names[0]}"]

    out = [name for made in in_order(work, toy, 0, recover) for name in made]
    # The chunk that lost its worker is run again file by file in its place: the order holds,
    # and only the file that did it is a row saying so.
    assert out == ["A", "B", "lost die", "C", "D", "E", "F"]
    assert lost == [["a", "b", "die"], ["die"]]
    assert toy.sent == [["a", "b", "die"], ["c", "d", "e"], ["a"], ["b"], ["die"], ["f"]]
    # In flight at most: its room; then the chunk still out and the three files of the lost
    # chunk sent again in its place.
    assert toy.most == 4


def test_the_loop_stops_when_the_workers_are_gone() -> None:
    class Gone(_Toy):
        def wait(self, task: Any, hard: float | None) -> list[str]:
            raise RunStopped("no worker left")

    toy = Gone(room=1)
    with pytest.raises(RunStopped):
        list(in_order(chunks(_items("a", "b", "c"), 1), toy, 0, lambda c, e: None))
    assert toy.cancelled == 1  # the chunk still in flight is cancelled


def test_one_hard_limit() -> None:
    assert hard_limit(0, 8) is None
    assert hard_limit(2.5, 8) == 30.0  # 8 files of 2.5 s and a grace of 10 s


# --- the run header ---------------------------------------------------------------------------


def test_the_run_header_reads_what_differs() -> None:
    settings = Settings()
    report = RunHead(("games/",), settings)
    plain = report.to_plain()
    assert list(plain) == ["sgfcheck", "schema", "inputs", "settings"]
    assert report.differences(plain) == []
    assert RunHead(("other/",), settings).differences(plain) == [
        "the inputs other/, not games/"]
    parts = RunHead(("games/",), settings, part_size=100)
    assert parts.differences({**plain, "part_size": 50}) == ["--part-size 100, not 50"]
    assert report.differences({"inputs": ["games/"], "sgfcheck": "0.0.1"}) == [
        "a run written by sgfcheck 0.0.1 without its settings"]


def test_which_choices_judge_dead_stones_and_which_may_ask_an_engine() -> None:
    """Judged: the estimate or an engine may decide (so ``--judge-unscored`` matters); an engine
    may be asked: named by ``--dead-stones``, or by ``--engine`` where the estimate runs (the
    batch then gives a file its engines' time). ``--dead`` and ``--alive`` decide alone."""
    cases = {  # dead_stones, engine, --dead, --alive: judged, may ask an engine
        ("markup", "auto", (), False): (False, False),
        ("benson", "katago", (), False): (False, False),
        ("none", "auto", (), False): (False, False),
        ("auto", "none", (), False): (True, False),
        ("estimate", "none", (), False): (True, False),
        ("auto", "auto", (), False): (True, True),
        ("estimate", "gnugo", (), False): (True, True),
        ("katago", "none", (), False): (True, True),
        ("gnugo", "none", (), False): (True, True),
        ("auto", "auto", ("D4",), False): (False, False),
        ("katago", "auto", (), True): (False, False),
    }
    for (dead_stones, engine, dead, alive), said in cases.items():
        settings = Settings(dead_stones=dead_stones, engine=engine,  # type: ignore[arg-type]
                            dead=dead, alive=alive)
        assert (settings.judges_dead_stones, settings.may_ask_engines) == said, settings


def test_a_run_state_from_before_judge_unscored_resumes_where_it_changes_nothing() -> None:
    """A run state written before ``--judge-unscored`` existed has no such setting: it judged
    every game. Resumed by today's ``batch`` (which skips games ended by resignation), a run
    whose dead stones come from markup goes on (nothing is judged either way); one that asks
    the estimate is another run, said so."""
    for dead_stones, said in (("markup", []), ("benson", []),
                              ("auto", ["--judge-unscored False, not True"]),
                              ("estimate", ["--judge-unscored False, not True"])):
        old = Settings(dead_stones=dead_stones).to_plain()  # type: ignore[arg-type]
        del old["judge_unscored"]
        now = BatchOptions.of(dead_stones=dead_stones).settings
        assert differences(Settings.from_plain(old), now) == said, dead_stones
    alive = BatchOptions.of(dead_stones="auto", alive=True).settings
    assert differences(replace(alive, judge_unscored=True), alive) == []


# --- renderers render ---------------------------------------------------------------------------

COMPUTING = ("sgfcheck.replay", "sgfcheck.judge", "sgfcheck.position", "sgfcheck.endgame",
             "sgfcheck.counting", "sgfcheck.verdict", "sgfcheck.scoring")


def test_outputs_import_no_function_of_the_computing_floors() -> None:
    # The outputs draw the results they are given: of the floors that compute they import
    # types (reports, boards, statuses) and data (the registry of engines' names), nothing that
    # replays, judges or counts.
    called = []
    for path in sorted((ROOT / "sgfcheck" / "output").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.startswith(COMPUTING):
                module = importlib.import_module(node.module)
                for alias in node.names:
                    found = getattr(module, alias.name)
                    if callable(found) and not isinstance(found, type):
                        called.append(f"{path.name}: {node.module}.{alias.name}")
    assert called == []


def test_a_game_page_draws_the_story_it_is_given() -> None:
    from sgfcheck.output.gamepage import page_data
    from sgfcheck.replay.check import check_file
    from sgfcheck.replay.story import story_of
    from sgfcheck.scoring.adjudicate import score_game

    settings = Settings(compare=("chinese",))
    report = check_file(FIXTURES / "ko.sgf", settings).games[0]
    story = story_of(report)
    data = page_data(report, score_game(report, settings), story)
    # ko.sgf: White takes the ko at B4 (capturing B5... the black stone at B4's neighbour C4),
    # Black takes it straight back at C4: a simple ko, illegal under every preset.
    take, retake = data["moves"]
    assert take["point"] == "B4" and take["add"] == [[6, 2]] and take["remove"] == [7]
    assert take["prisoners"] == [0, 1]
    assert retake["point"] == "C4" and [f["code"] for f in retake["findings"]] == ["RUL004"]
    assert data["illegal"]["chinese"] == {2: [["simple ko", data["illegal"]["chinese"][2][0][1]]]}
    assert [m["add"] for m in data["moves"]] == [step.added for step in story.steps]


# Names the command line takes from output/ that render nothing: the layout, the registry's
# types, facts (fixable fields, the schema's version), text wrapping, and the pictures a diagram
# is made of (what the registry's SVG renderer then draws).
NOT_RENDERERS = {"Style", "OutputFormat", "FORMATS", "FIXABLE", "SCHEMA_VERSION", "Summary",
                 "PngUnavailable", "Picture", "wrap_line", "illegal_move_picture",
                 "position_picture", "scored_picture"}


def test_every_output_of_the_command_line_comes_from_the_registry() -> None:
    from sgfcheck.output import formats

    taken = []
    for path in sorted((ROOT / "sgfcheck" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.startswith("sgfcheck.output"):
                for alias in node.names:
                    if node.module == "sgfcheck.output.formats" or alias.name == "formats":
                        continue
                    if alias.name not in NOT_RENDERERS:
                        taken.append(f"{path.name}: {node.module}.{alias.name}")
    assert taken == []
    # Every loader the registry lists gives a renderer.
    for outputs in formats.DOCUMENTS.values():
        for load in outputs.values():
            assert callable(load())


def test_every_report_kind_has_its_rows_in_the_registry() -> None:
    from sgfcheck.output.formats import ROWS
    from sgfcheck.run.reportfile import ReportKind

    assert set(ROWS) == {kind.value for kind in ReportKind}
    assert ROWS["none"].game is None and ROWS["none"].file is None


def test_an_output_without_a_table_counts_only_the_games_own_ruleset() -> None:
    """Work only for what is asked: a batch report in CSV (or none) shows the game's own count
    and the verdict, and the worker makes no other row; the verdict, its reading and its
    findings are those of the full count. scoring-basic.sgf (Japanese, RE[B+1.5]): one row,
    B+1.5, not the five of the default comparison, and the match."""
    from sgfcheck.records.record import load_file
    from sgfcheck.scoring.adjudicate import score_loaded

    settings = Settings()
    compared = 0
    for path in sorted(FIXTURES.glob("*.sgf")):
        loaded = load_file(path)
        if not loaded.games:
            continue
        # Each from its own reading: a check may decide for good that a record's handicap
        # stones are not where they were assumed (replay/check.py, _contradicted).
        full = score_loaded(loaded, settings)
        own = score_loaded(load_file(path), settings, compare=False)
        for a, b in zip(full.games, own.games, strict=True):
            assert b.result_check == a.result_check, path
            assert b.findings == a.findings and b.verdict is a.verdict, path
            assert b.scores[:1] == a.scores[:1] and b.differences == (), path
            added = 1 if b.added_reading is not None else 0
            assert len(b.scores) == 1 + added, path
            assert b.scores[b.reading_row] == a.scores[a.reading_row], path
            compared += 1
    assert compared > 40
    basic = score_loaded(load_file(FIXTURES / "scoring-basic.sgf"), settings, compare=False)
    game = basic.games[0]
    assert [(s.ruleset.name, s.result_text) for s in game.scores] == [("japanese", "B+1.5")]
    assert game.result_check is not None and game.result_check.status.value == "match"


def test_a_csv_batch_row_is_the_same_without_the_comparison(tmp_path: Path) -> None:
    """The CSV report and the summary of a batch over the fixtures: the same bytes from the
    worker that skips the comparison rows as from one that makes them (ROWS' ``compares``)."""
    from dataclasses import replace

    from sgfcheck.output import formats

    out = {}
    for label, compares in (("own", False), ("all", True)):
        saved = formats.ROWS["csv"]
        formats.ROWS["csv"] = replace(saved, compares=compares)
        try:
            result = runner.invoke(app, ["batch", str(FIXTURES), "--jobs", "1", "--out",
                                         str(tmp_path / f"{label}.csv"), "--fail-on", "never",
                                         "--summary-json", str(tmp_path / f"{label}.json")])
        finally:
            formats.ROWS["csv"] = saved
        assert result.exit_code == 0, result.output
        summary = json.loads((tmp_path / f"{label}.json").read_text(encoding="utf-8"))
        for key in ("elapsed", "games_per_second", "peak_rss_mb", "peak_rss_mb_per_worker"):
            summary.pop(key, None)
        out[label] = ((tmp_path / f"{label}.csv").read_bytes(), summary)
    assert out["own"] == out["all"]
    assert out["own"][0].count(b"\n") > 40
