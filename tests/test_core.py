"""The compiled core against the pure-Python reference: the same notes, positions and hashes from
the replay loop, the same owners, areas, points to fill and proofs, the same playouts (to the
random number), and the same rows, statuses and scores from whole files.

The compiled core is an optional build: these tests skip, saying so, where it is not built -
except under ``SGFCHECK_REQUIRE_COMPILED=1`` (CI), where its absence fails.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import COMPILED, CORPUS, FIXTURES, needs_compiled

from sgfcheck import core
from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.judge import benson
from sgfcheck.judge.playout import Playouts
from sgfcheck.position import analysis as position
from sgfcheck.records.items import WorkItem
from sgfcheck.records.lines import Line, Move, Setup
from sgfcheck.records.record import GameRecord, load_bytes
from sgfcheck.replay import replay
from sgfcheck.replay.board import Board
from sgfcheck.run.batch import BatchOptions, process_item
from sgfcheck.settings import DeadStoneChoice, Settings

ROOT = Path(__file__).resolve().parent.parent
pytestmark = needs_compiled


# --- random games -----------------------------------------------------------------------------

SIZES = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (7, 3), (9, 9), (13, 13), (19, 19), (52, 52)]


def random_line(rng: random.Random, width: int, height: int) -> Line:
    """A random line: mostly legal-looking play on few points (so that captures, kos, suicides
    and cycles are common), with passes, setup nodes, PL, off-board points, repeated colours and
    moves on occupied points mixed in."""
    events: list[Move | Setup] = []
    area = [(c, r) for c in range(width) for r in range(height)]
    if len(area) > 30:
        corner = rng.randrange(4)
        cols = range(width - 6, width) if corner & 1 else range(6)
        rows = range(height - 6, height) if corner & 2 else range(6)
        area = [(c, r) for c in cols for r in rows]
    colour = BLACK
    for node in range(rng.randrange(1, 160)):
        roll = rng.random()
        if roll < 0.04:
            pick = rng.sample(area, min(len(area), rng.randrange(0, 5)))
            third = len(pick) // 3
            player = rng.choice([None, BLACK, WHITE])
            events.append(Setup(node, pick[:third], pick[third:2 * third], pick[2 * third:],
                                player))
            continue
        if roll < 0.10:
            point = None
        elif roll < 0.11:
            point = (width + rng.randrange(3), rng.randrange(height + 2))
        else:
            point = rng.choice(area)
        if rng.random() < 0.05:
            colour = colour.opponent  # the same player twice (or White first)
        events.append(Move(colour, point, node, rng.random() < 0.02))
        colour = colour.opponent
    return Line(events, [], None, [])  # type: ignore[arg-type]


def walk_both(line: Line, width: int, height: int, ko: int, free: int,
              upto: int, button: int = 0) -> tuple[replay.Walked, replay.Walked]:
    request = replay.WalkRequest(width, height, ko, free, upto, 1, button)
    a = replay._walk(request, line.events)
    assert COMPILED is not None
    b = COMPILED.walk(request, line.events)
    assert type(a) is type(b) is replay.Walked
    return a._replace(position=bytes(a.position.colour)), b


def test_random_games_walk_identically() -> None:
    rng = random.Random(20261125)
    kinds: dict[int, int] = {}
    for i in range(3000):
        width, height = SIZES[i % len(SIZES)]
        line = random_line(rng, width, height)
        free = rng.choice([0, 0, 0, 2, 4])
        upto = rng.choice([-1, -1, -1, rng.randrange(0, 60)])
        for ko in range(4):
            a, b = walk_both(line, width, height, ko, free, upto, button=i % 2)
            assert a == b, (i, width, height, ko)
            for note in a.notes:
                assert type(note) is replay.Note
                kinds[note.kind] = kinds.get(note.kind, 0) + 1
    # Every kind of note was met (setup without liberties, turn, off board, after end,
    # occupied, suicide, ko, cycle, superko), so the comparison covered them all.
    assert set(kinds) == set(range(10)), kinds


def _games(paths: list[Path]) -> Iterator[tuple[GameRecord, Line]]:
    for path in paths:
        for game in load_bytes(path.read_bytes(), str(path)).games:
            yield game, game.main_line()


def corpus_files(limit: int, pattern: str = "*") -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    files = sorted(p for p in CORPUS.rglob(pattern) if p.suffix.lower() == ".sgf")
    return random.Random(17).sample(files, min(limit, len(files)))


def test_real_records_replay_identically() -> None:
    from sgfcheck.rules.presets import PRESETS
    paths = corpus_files(600)
    compared = 0
    for game, line in _games(paths):
        for preset in ("japanese", "chinese", "aga", "tromp-taylor"):
            rules = PRESETS[preset]
            fast = replay.replay(game, line, rules)
            with core.using("pure"):
                ref = replay.replay(game, line, rules)
            assert fast.findings == ref.findings
            assert (fast.board.colour, fast.board.hash) == (ref.board.colour, ref.board.hash)
            assert (fast.moves, fast.prisoners, fast.passes, fast.plays, fast.setup_stones,
                    fast.first_pass, fast.last_pass, fast.ended_by_passes, fast.cycle) == (
                ref.moves, ref.prisoners, ref.passes, ref.plays, ref.setup_stones,
                ref.first_pass, ref.last_pass, ref.ended_by_passes, ref.cycle)
            # The position the compiled replay hands back finds the same chains.
            assert sorted(sorted(c.stones) for c in fast.board.chains()) == sorted(
                sorted(c.stones) for c in ref.board.chains())
            compared += 1
    assert compared >= 2000


# --- position analysis, proofs -----------------------------------------------------------------

def random_board(rng: random.Random, width: int, height: int) -> Board:
    board = Board(width, height)
    density = rng.choice([0.3, 0.6, 0.85])
    black, white = [], []
    for p in range(width * height):
        if rng.random() < density:
            (black if rng.random() < 0.5 else white).append(p)
    board.set_stones(black, white, [])
    return board


def test_analysis_and_proofs_agree_on_random_positions() -> None:
    rng = random.Random(5)
    for i in range(1500):
        width, height = SIZES[i % len(SIZES)] if i % 3 else (rng.randrange(1, 20),
                                                             rng.randrange(1, 20))
        board = random_board(rng, width, height)
        dead = {p for p in range(width * height) if board.colour[p] and rng.random() < 0.1}
        fast_pos = position.analyse(board, dead)
        fast_judged = (fast_pos.referee, fast_pos.seki_empty, fast_pos.seki_stones,
                       fast_pos.must_fill, fast_pos.groups)
        fast_proof = benson.prove(board)
        with core.using("pure"):
            ref_pos = position.analyse(board, dead)
            ref_judged = (ref_pos.referee, ref_pos.seki_empty, ref_pos.seki_stones,
                          ref_pos.must_fill, ref_pos.groups)
            ref_proof = benson.prove(board)
        assert fast_pos == ref_pos, (i, width, height)
        assert fast_judged == ref_judged, (i, width, height)
        assert fast_proof == ref_proof, (i, width, height)


def test_analysis_pieces_agree() -> None:
    """Owners, areas and the census one by one."""
    assert COMPILED is not None
    rng = random.Random(11)
    for i in range(800):
        width, height = SIZES[i % len(SIZES)]
        board = random_board(rng, width, height)
        colour = list(board.colour)
        owner = position.empty_owners(colour, board.neighbours)
        packed = bytes(colour)
        assert COMPILED.empty_owners(packed, width, height) == bytes(owner)
        ref = position.areas(colour, owner, board.neighbours)
        fast = COMPILED.areas(packed, bytes(owner), width, height)
        assert type(fast) is position.Areas and fast == ref
        assert COMPILED.census(packed, bytes(owner), width, height) == position.census(colour,
                                                                                       owner)


def _chains_found(board: Board) -> tuple[object, ...]:
    """A board made from colours, its chains found: each chain's colour, stones (in order) and
    liberties (in the set's own order: what ``next(iter(...))`` gives), the chains without a
    liberty, the hash."""
    fresh = Board.from_colours(board.width, board.height, board.colour, 0)
    chains = fresh.chains()
    lost = Board.from_colours(board.width, board.height, board.colour, 0)._rebuild()
    return ([(c.colour, c.stones, list(c.liberties)) for c in chains],
            [(c.stones, list(c.liberties)) for c in lost], fresh.hash,
            [chains.index(c) if c is not None else -1 for c in fresh.chain_of])


def test_chains_found_from_colours_agree() -> None:
    """A position's chains found afresh (``Board._rebuild``, as on a board the compiled replay
    hands back): the same chains, each one's stones and liberties in the same order, the same
    chains left without a liberty (setup stones can leave some) and the same hash, on every
    board size."""
    rng = random.Random(17)
    without_liberty = 0
    for i in range(600):
        width, height = SIZES[i % len(SIZES)]
        board = random_board(rng, width, height)
        if i % 4 == 0:  # stones set down anyhow, as AB/AW may: some chains have no liberty
            board = Board.from_colours(width, height, [rng.choice((0, 1, 1, 2, 2))
                                                       for _ in range(width * height)], 0)
        fast = _chains_found(board)
        with core.using("pure"):
            ref = _chains_found(board)
        assert fast == ref, (i, width, height)
        without_liberty += len(ref[1])
    assert without_liberty > 20


def test_point_owners_agree_point_for_point() -> None:
    """Issue 64: the points a count gives nobody (settled for a colour where both sides'
    ownership agree at AGREED or beyond, dame between both colours, open otherwise) in the
    compiled core and in Python, on random positions with random ownership (values on the
    threshold itself included), with none, and with the estimate's own."""
    from sgfcheck.position import owners

    rng = random.Random(64)
    edge = [owners.AGREED, -owners.AGREED, 1.0, -1.0, 0.0]
    for i in range(600):
        width, height = SIZES[i % len(SIZES)]
        board = random_board(rng, width, height)
        dead = {p for p in range(width * height) if board.colour[p] and rng.random() < 0.1}
        where = position.analyse(board, dead)
        n = width * height
        for ownership in (None,
                          ([rng.choice(edge) if rng.random() < 0.3 else rng.uniform(-1, 1)
                            for _ in range(n)],
                           [rng.choice(edge) if rng.random() < 0.3 else rng.uniform(-1, 1)
                            for _ in range(n)])):
            fast = owners.point_owners(where, ownership)
            ref = owners._point_owners(where, ownership)
            assert fast == ref, (i, width, height)
            assert list(fast.settled) == list(ref.settled)  # in the same order
    from sgfcheck.scoring.adjudicate import score_file

    for name in ("ko.sgf", "stopped-far-9x9.sgf", "open-boundary-9x9.sgf"):
        (scored,) = score_file(FIXTURES / name, Settings(dead_stones=DeadStoneChoice.ESTIMATE,
                                                        engine="none")).games  # type: ignore[arg-type]
        assert scored.position is not None and scored.dead is not None
        ownership = scored.dead.ownership
        assert owners.point_owners(scored.position, ownership) == owners._point_owners(
            scored.position, ownership), name


def test_seki_and_bent_four_positions_agree() -> None:
    """The fixtures built for seki, bent four and false eyes: the same statuses both ways."""
    from sgfcheck.output.schema import file_score_dict, json_text
    from sgfcheck.scoring.adjudicate import score_file
    for name in ("seki.sgf", "nakade.sgf", "false-eye.sgf", "dead-in-territory.sgf",
                 "pass-alive.sgf", "three-groups.sgf", "triple-ko.sgf"):
        path = FIXTURES / name
        options = Settings(dead_stones=DeadStoneChoice.ESTIMATE)
        fast = score_file(str(path), options)
        with core.using("pure"):
            ref = score_file(str(path), options)
        assert json_text(file_score_dict(fast)) == json_text(file_score_dict(ref)), name
        if name == "seki.sgf":  # the seki is found, with its empty points, both ways
            assert file_score_dict(fast)["games"][0]["seki"] == {"black": ["A7"],
                                                                 "white": ["E7"]}


# --- playouts ----------------------------------------------------------------------------------

def test_playouts_identical_to_the_random_number() -> None:
    rng = random.Random(3)
    for i in range(120):
        width, height = SIZES[i % (len(SIZES) - 1)]  # 52x52 playouts are slow in Python
        board = random_board(rng, width, height)
        seed = rng.randrange(1 << 40)
        fast = Playouts(board, seed=seed, local=rng.choice([0.0, 0.5, 1.0]))
        fast.run(3)
        fast.run(2, WHITE)
        with core.using("pure"):
            ref = Playouts(board, seed=seed, local=fast.local)
            ref.run(3)
            ref.run(2, WHITE)
        assert (fast.black, fast.white, fast.count) == (ref.black, ref.white, ref.count), i
        assert fast.rng.getstate() == ref.rng.getstate()


# --- whole files: rows, statuses and scores ----------------------------------------------------

@pytest.mark.parametrize("dead_stones", [DeadStoneChoice.MARKUP, DeadStoneChoice.ESTIMATE])
def test_whole_files_give_the_same_rows(dead_stones: DeadStoneChoice) -> None:
    limit = 400 if dead_stones is DeadStoneChoice.MARKUP else 60
    paths = corpus_files(limit) + sorted(FIXTURES.glob("*.sgf"))
    options = BatchOptions.of(jobs=1, dead_stones=dead_stones, compare=("japanese", "chinese",
                                                                       "aga", "ing", "nz"))
    items = [WorkItem(str(p), None, p.read_bytes()) for p in paths]
    fast = [process_item(item, options) for item in items]
    with core.using("pure"):
        ref = [process_item(item, options) for item in items]
    for a, b, item in zip(fast, ref, items, strict=True):
        assert a.rows == b.rows, item.path
        assert a.games == b.games, item.path


# --- which core, and saying so -----------------------------------------------------------------

def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, check=True)


def test_sgfcheck_pure_forces_the_reference() -> None:
    out = _run("from sgfcheck import core; print(core.name(), core.fallback_note())",
               SGFCHECK_PURE="1")
    assert out.stdout.split() == ["pure", "None"]
    version = subprocess.run([sys.executable, "-m", "sgfcheck", "--version"], text=True,
                             capture_output=True, env={**os.environ, "SGFCHECK_PURE": "1"})
    assert version.stdout.strip() == ("sgfcheck 0.1.0 (core: pure Python, SGFCHECK_PURE is "
                                      "set)")
    assert version.stderr == ""
    compiled = subprocess.run([sys.executable, "-m", "sgfcheck", "--version"], text=True,
                              capture_output=True, env={**os.environ, "SGFCHECK_PURE": "0"})
    assert compiled.stdout.strip() == ("sgfcheck 0.1.0 (core: compiled, C extension "
                                       "sgfcheck._core)")


def test_a_missing_build_is_said_once_and_the_results_stay() -> None:
    """Without the extension (as on a machine without a compiler) the pure core runs, the
    command line says so once on stderr, and the output is the same."""
    block = ("import sys; sys.modules['sgfcheck._core'] = None; "
             "from sgfcheck.cli.app import main; sys.argv = ['sgfcheck', 'check', '--format', "
             f"'json', {str(FIXTURES / 'ko.sgf')!r}]; main()")
    without = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True,
                             env={**os.environ, "SGFCHECK_PURE": "0"})
    with_core = subprocess.run([sys.executable, "-m", "sgfcheck", "check", "--format", "json",
                                str(FIXTURES / "ko.sgf")], capture_output=True, text=True,
                               env={**os.environ, "SGFCHECK_PURE": "0"})
    assert without.returncode == with_core.returncode == 1
    assert without.stdout == with_core.stdout
    lines = without.stderr.splitlines()
    assert len(lines) == 1 and "running the pure-Python core (same results, slower)" in lines[0]
    assert with_core.stderr == ""


def test_colour_enum_values_are_the_cores() -> None:
    assert (int(Colour.BLACK), int(Colour.WHITE)) == (1, 2)


# --- reading moves -----------------------------------------------------------------------------

def random_nodes(rng: random.Random) -> list[dict[str, list[bytes]]]:
    values = [b"dd", b"pq", b"tt", b"", b"  ", b"zz", b"ZZ", b"d", b"ddd", b"d!", b"Aa", b"sS"]
    nodes: list[dict[str, list[bytes]]] = []
    for _ in range(rng.randrange(0, 60)):
        node: dict[str, list[bytes]] = {}
        for ident in rng.sample(["B", "W", "B", "W", "C", "BL", "AB", "AW", "AE", "PL", "KO"],
                                rng.randrange(0, 3)):
            count = 2 if rng.random() < 0.05 else 1
            node[ident] = [rng.choice(values) if ident != "PL" else rng.choice([b"B", b"X"])
                           for _ in range(count)]
        nodes.append(node)
    return nodes


def test_move_reading_agrees() -> None:
    """The nodes the compiled core reads (plain moves) and those it leaves to Python (setup, PL,
    KO, two colours, several values, bad points, blanks) give the same line and findings."""
    from sgfcheck.records.lines import extract_line
    rng = random.Random(8)
    for i in range(3000):
        width, height = SIZES[i % len(SIZES)]
        nodes = random_nodes(rng)
        fast = extract_line(width, height, [], nodes, [])
        with core.using("pure"):
            ref = extract_line(width, height, [], nodes, [])
        assert (fast.events, fast.findings) == (ref.events, ref.findings), (i, nodes)
        assert [type(e) for e in fast.events] == [type(e) for e in ref.events]


def test_real_lines_read_identically() -> None:
    compared = 0
    for path in corpus_files(800):
        for game in load_bytes(path.read_bytes(), str(path)).games:
            fast = game.main_line()
            with core.using("pure"):
                ref = game.main_line()
            assert (fast.events, fast.findings) == (ref.events, ref.findings), path
            compared += 1
    assert compared >= 800


def test_game_identity_keys_agree() -> None:
    """Duplicate keys (symmetry.sequence_key) are the same bytes from either core, so reports,
    --resume and report merge agree across machines with and without the compiled core."""
    from sgfcheck.run.symmetry import sequence_key
    keys = 0
    for path in corpus_files(500):
        for game in load_bytes(path.read_bytes(), str(path)).games:
            line = game.main_line()
            fast = sequence_key(game, line)
            with core.using("pure"):
                ref = sequence_key(game, line)
            assert fast == ref, path
            keys += fast is not None
    assert keys >= 400


def test_the_cores_meet_in_named_structures() -> None:
    # Every structure the two cores exchange is a NamedTuple whose fields the compiled core checks
    # when it is registered: a field renamed or moved on either side stops the import.
    from typing import NamedTuple

    if COMPILED is None:
        pytest.skip("compiled core not in use")

    class Census(NamedTuple):  # the fields of position.analysis.Census, two swapped
        empty_white: int
        empty_black: int
        dame: list[int]
        stones_black: int
        stones_white: int

    with pytest.raises(TypeError, match="contract Census: the compiled core has the fields"):
        COMPILED.set_contract("Census", Census)
    with pytest.raises(KeyError):
        COMPILED.set_contract("Nothing", Census)
    # The registered class still stands: the answers are of the pure side's types.
    colour = [0, 1, 0, 2]
    owner = position.empty_owners(colour, Board(2, 2).neighbours)
    assert type(COMPILED.census(bytes(colour), bytes(owner), 2, 2)) is position.Census


# --- the region games of the last points -------------------------------------------------------

def _region_games(board: Board, territory: bool, budget: int) -> tuple[list[object], int, dict]:
    from sgfcheck.endgame.localgame import Classes, OutOfWork, Work, local_game
    from sgfcheck.endgame.regions import open_points

    where = position.analyse(board, set())
    opened = open_points(where, None)
    work, classes = Work(budget), Classes()
    games: list[object] = []
    try:
        for region in opened.regions:
            game = local_game(region, where.colour, board.neighbours, opened.walls,
                              opened.chain_of, territory, work, classes)
            n = len(game.states)
            games.append((list(game.states), game.worth, game.complete, game.cyclic,
                           game.longer_cycles, game.cls, game.stop_black, game.stop_white,
                           [(game.moves(i, BLACK), game.moves(i, WHITE))
                            for i in range(n) if game.complete]))
    except OutOfWork:
        games.append("out of work")
    return games, work.spent, dict(classes._ids)


@needs_compiled
def test_region_games_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every position of every region of the last points, in the same order, with the same
    worths, moves, classes, stops and cycles, and the same work counted: on random boards, on
    the random borders the solver's tests use, with a small bound of positions (a game worked
    out in part) and a small budget of work (stopped in the middle)."""
    from test_endgame import random_border

    import sgfcheck.endgame.localgame as localgame

    rng = random.Random(59)
    boards = [random_board(rng, *SIZES[i % 3]) for i in range(30)]
    for seed in range(80):
        rows = random_border(seed).split()
        boards.append(Board.from_colours(9, 9, [1 if ch == "X" else 2 if ch == "O" else 0
                                                for row in rows for ch in row], 0))
    compared = 0
    for i, board in enumerate(boards):
        for territory in (False, True):
            # whole (up to 3,000 positions: the loops are slow), in part, stopped by the work
            for eager, budget in ((3000, 10**6), (40, 10**6), (3000, 60)):
                monkeypatch.setattr(localgame, "EAGER", eager)
                fast = _region_games(board, territory, budget)
                with core.using("pure"):
                    ref = _region_games(board, territory, budget)
                assert fast == ref, (i, territory, eager, budget)
                compared += len(fast[0])
    assert compared > 1000


@needs_compiled
def test_a_region_game_not_shaped_as_a_region_is_refused() -> None:
    """The compiled region game finds a chain as a set of the region's points, which holds for
    the graph a region makes (each chain outside beside points of the region only, and they
    beside it; no neighbour named twice; stones Black's or White's): another graph is refused
    with a ValueError, on which LocalGame works the region out in Python."""
    from sgfcheck.endgame.localgame import RegionRequest

    def request(colours: list[int], adj: tuple[tuple[int, ...], ...],
                room: int = 100) -> RegionRequest:
        # one empty point (board point 40) between a Black and a White chain outside, each
        # with liberties elsewhere
        return RegionRequest(1, bytes(colours), bytes([0, 1, 1]), adj, bytes(1), bytes(1), (),
                             (40,), 0, 100, room)

    found = COMPILED.region_game(request([0, 1, 2], ((1, 2), (0,), (0,))))
    # Black fills it (+1 and the point), White fills it (-1): three positions
    assert sorted(found.worth) == [-1, 0, 1] and not found.out_of_work
    # room for the first position only: the work runs out, and no position is handed back
    short = COMPILED.region_game(request([0, 1, 2], ((1, 2), (0,), (0,)), room=1))
    assert short.out_of_work and short.worth == [] and short.states == b"" and short.moves == []
    refused = {
        "chains outside beside each other": request([0, 1, 2], ((1, 2), (0, 2), (0, 1))),
        "a chain outside not beside its point": request([0, 1, 2], ((1, 2), (0,), ())),
        "a neighbour named twice": request([0, 1, 2], ((1, 1, 2), (0,), (0,))),
        "a chain outside of no colour": request([0, 3, 2], ((1, 2), (0,), (0,))),
    }
    for why, bad in refused.items():
        with pytest.raises(ValueError, match="region game"):
            COMPILED.region_game(bad)
            pytest.fail(why)


def test_the_doors_open_onto_the_core_chosen_and_back() -> None:
    """core.using opens every door onto one core for a while and restores the one before; a
    name that is no core is refused."""
    assert core.name() == "compiled"
    with core.using("pure"):
        assert core.name() == "pure" and core.describe().startswith("core: pure Python")
        board = Board.from_colours(3, 3, [1, 1, 0, 2, 2, 0, 0, 0, 0], 0)
        pure_proof = benson.prove(board)
    assert core.name() == "compiled"
    assert benson.prove(board) == pure_proof
    with pytest.raises(ValueError, match="no core named 'fast'"), core.using("fast"):
        pass
    assert core.name() == "compiled"
