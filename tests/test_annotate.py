"""sgfcheck annotate: a copy of the record with findings at their moves, the verdict in the root
comment, TB/TW from the judgement; every original property and variation kept, input untouched."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from conftest import FIXTURES, corpus_dir
from sgfmill import sgf, sgf_grammar
from typer.testing import CliRunner

from sgfcheck import score_bytes, score_file
from sgfcheck.cli.app import app
from sgfcheck.colour import BLACK, WHITE
from sgfcheck.counting.count import counted_points
from sgfcheck.output.annotate import MARKER, annotate
from sgfcheck.points import point_to_sgf
from sgfcheck.settings import Settings

runner = CliRunner()


def nodes(data: bytes) -> list[dict[str, list[bytes]]]:
    """Every node of every game, in tree order."""
    out = []
    for tree in sgf_grammar.parse_sgf_collection(data):
        stack = [tree]
        while stack:
            t = stack.pop()
            out.extend(t.sequence)
            stack.extend(reversed(t.children))
    return out


def comment(node: dict[str, list[bytes]]) -> str:
    return sgf_grammar.text_value(node["C"][0]).decode() if "C" in node else ""


def assert_keeps_everything(original: bytes, annotated: bytes,
                            fixed: frozenset[str] = frozenset()) -> None:
    """Same games, same tree shape, every original property with its values; only comments
    (original text kept in front) and TB/TW (only where there were none) added."""
    before, after = nodes(original), nodes(annotated)
    assert len(before) == len(after)
    for old, new in zip(before, after, strict=True):
        for ident, values in old.items():
            if ident == "C":
                assert comment(new).startswith(sgf_grammar.text_value(values[0]).decode())
            elif ident not in fixed:
                assert new[ident] == values, ident
        assert set(new) - set(old) <= {"C", "TB", "TW"}


def test_finding_at_its_move_and_verdict_in_the_root(tmp_path: Path) -> None:
    source = FIXTURES / "ko.sgf"
    original = source.read_bytes()
    out = annotate(score_file(source))
    game = sgf.Sgf_game.from_bytes(out.data)  # a real SGF reader takes it
    root = game.get_root()
    text = root.get("C")
    assert text.startswith("A ko. White takes at B4")  # the record's own comment, first
    assert MARKER in text and "Verdict: illegal moves" in text
    # The estimate leaves the ko's stones uncertain; C5 (White kept it in 46% of the playouts)
    # is counted dead, as most playouts left it.
    assert "japanese: W+3.5 (territory" in text and "chinese: W+2.5 (area" in text
    main = game.get_main_sequence()
    assert main[2].get_move() == ("b", (3, 2))  # move 2: Black C4
    assert "move 2: RUL004 simple ko (error) at C4" in main[2].get("C")
    assert not main[1].has_property("C")  # move 1 is legal
    assert_keeps_everything(original, out.data)
    assert source.read_bytes() == original


def test_variations_kept() -> None:
    data = (b"(;GM[1]SZ[9]KM[6.5]RU[Chinese]C[root];B[ee];W[cc](;B[cd]C[main];W[dd];B[])"
            b"(;B[gg]LB[aa:x]TR[bb];W[ee]C[illegal: occupied]))")
    out = annotate(score_bytes(data))
    assert_keeps_everything(data, out.data)
    tree = sgf_grammar.parse_sgf_game(out.data)
    assert len(tree.children) == 2
    # Only the main line is replayed: the variation's occupied point is not a finding there.
    assert "sgfcheck" not in comment(tree.children[1].sequence[1])


def test_territory_equals_the_judgement() -> None:
    scored = score_file(FIXTURES / "dead-in-territory.sgf")
    out = annotate(scored)
    last = sgf.Sgf_game.from_bytes(out.data).get_main_sequence()[-1]
    game = scored.games[0]
    assert game.position is not None
    counted = counted_points(game.position, game.scores[0].ruleset)
    width = game.position.board.width
    expect = {c: {point_to_sgf((p % width, p // width)) for p, o in counted.territory.items()
                  if o is c} for c in (BLACK, WHITE)}
    tb = {point_to_sgf((c, 8 - r)) for r, c in last.get("TB")}
    tw = {point_to_sgf((c, 8 - r)) for r, c in last.get("TW")}
    assert (tb, tw) == (expect[BLACK], expect[WHITE])
    assert "he" in tb  # the dead White stone at H5: Black's point
    assert len(tb) == 26 and len(tw) == 36
    assert "dead stones from estimate" in last.get("C")


def test_markup_kept_and_fixes_only_when_asked() -> None:
    data = (FIXTURES / "no-rules.sgf").read_bytes()
    out = annotate(score_bytes(data))
    assert_keeps_everything(data, out.data)
    assert "the record's TB/TW, unchanged" in nodes(out.data)[-1]["C"][0].decode()
    assert b"RU[" not in out.data.split(b";")[1]
    fixed = annotate(score_bytes(data), frozenset({"rules"}))
    assert sgf.Sgf_game.from_bytes(fixed.data).get_root().get("RU") == "chinese"
    assert fixed.changes == ["game 1: no RU -> RU[chinese]"]


def test_fix_komi_of_a_fox_record() -> None:
    data = (FIXTURES / "fox-komi-zero.sgf").read_bytes()
    plain = annotate(score_bytes(data))
    assert sgf.Sgf_game.from_bytes(plain.data).get_root().get("KM") == 0
    fixed = annotate(score_bytes(data), frozenset({"komi"}))
    root = sgf.Sgf_game.from_bytes(fixed.data).get_root()
    assert root.get("KM") == 6.5
    assert "fixed: KM[0] -> KM[6.5] (RE matches under japanese with komi 6.5)" in root.get("C")
    assert_keeps_everything(data, fixed.data, frozenset({"KM"}))


def test_annotating_twice_replaces_the_block() -> None:
    once = annotate(score_file(FIXTURES / "ko.sgf")).data
    twice = annotate(score_bytes(once)).data
    root = sgf.Sgf_game.from_bytes(twice).get_root().get("C")
    assert root.count("--- sgfcheck") == 1 and root.startswith("A ko.")


def test_other_encodings_become_utf8() -> None:
    data = "(;GM[1]FF[4]CA[GB2312]SZ[9]PB[黑棋]PW[白棋]KM[7.5]RE[B+R];B[ee];W[cc])".encode(
        "gb2312")
    out = annotate(score_bytes(data))
    root = sgf.Sgf_game.from_bytes(out.data).get_root()
    assert root.get("CA") == "UTF-8" and root.get("PB") == "黑棋"
    assert "written in UTF-8" in root.get("C")


def test_cli_annotate(tmp_path: Path) -> None:
    source = tmp_path / "fox.sgf"
    source.write_bytes((FIXTURES / "fox-komi-zero.sgf").read_bytes())
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    out = tmp_path / "out.sgf"
    result = runner.invoke(app, ["annotate", str(source), "-o", str(out), "--fix", "komi"])
    assert result.exit_code == 0, result.output
    assert "KM[0] -> KM[6.5]" in result.output
    assert sgf.Sgf_game.from_bytes(out.read_bytes()).get_root().get("KM") == 6.5
    assert hashlib.sha256(source.read_bytes()).hexdigest() == digest
    same = runner.invoke(app, ["annotate", str(source), "-o", str(source)])
    assert same.exit_code == 2 and "never changed" in same.output
    bad = runner.invoke(app, ["annotate", str(source), "-o", str(out), "--fix", "result"])
    assert bad.exit_code == 2 and "only komi, rules" in bad.output
    illegal = runner.invoke(app, ["annotate", str(FIXTURES / "ko.sgf"), "-o", str(out)])
    assert illegal.exit_code == 1  # as score: an error finding (the illegal move)


def test_real_records_keep_everything() -> None:
    """KGS games with comments, markup and variations: every property kept, the copy parses."""
    folder = corpus_dir("kgs")
    files = sorted(folder.rglob("*.sgf"))[:40]
    assert files
    for path in files:
        data = path.read_bytes()
        scored = score_bytes(data, path.name, Settings(dead_stones="markup"))  # type: ignore[arg-type]
        out = annotate(scored)
        assert_keeps_everything(data, out.data)
        sgf.Sgf_game.from_bytes(out.data)


@pytest.mark.parametrize("data", [b"(;GM[1]SZ[9])", b"(;GM[2]SZ[9];B[aa])",
                                  b"(;SZ[9];B[ee];W[ee];B[zz])"])
def test_odd_records_annotate(data: bytes) -> None:
    out = annotate(score_bytes(data))
    assert_keeps_everything(data, out.data)
