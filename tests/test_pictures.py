"""Diagrams: every stone one SVG element with its classes and point, territory, seki and fill
marks where the ruleset's count puts them, illegal moves with the stones they concern."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from sgfcheck import check_bytes, check_file, score_bytes, score_file
from sgfcheck.cli.app import app
from sgfcheck.counting.count import counted_points
from sgfcheck.output.diagrams import illegal_move_picture, position_picture, scored_picture
from sgfcheck.output.svg import Picture, hoshi_points, render_svg
from sgfcheck.rules.presets import PRESETS
from sgfcheck.settings import Settings

runner = CliRunner()
NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def stones(root: ET.Element) -> dict[str, set[str]]:
    """data-point -> the stone's classes."""
    out = {}
    for el in root.iter(f"{NS}circle"):
        classes = set(el.get("class", "").split())
        if "stone" in classes:
            point = el.get("data-point")
            assert point is not None and point not in out, point  # one element a stone
            out[point] = classes
    return out


def marks(root: ET.Element, kind: str) -> dict[str, set[str]]:
    """data-point -> classes of the marks with class ``kind``."""
    out = {}
    for el in root.iter():
        classes = set(el.get("class", "").split())
        if "mark" in classes and kind in classes:
            out[el.get("data-point", "")] = classes
    return out


def test_every_stone_is_one_element_with_its_colour_and_point() -> None:
    # 5x5: Black C3 D4, White B2 E5.
    report = check_bytes(b"(;GM[1]SZ[5]KM[0]RU[Chinese];B[cc];W[bd];B[db];W[ea];B[];W[])")
    game = report.games[0]
    assert game.replay is not None
    root = parse(render_svg(position_picture(game.replay.board, game.line, 6)))
    assert stones(root) == {"C3": {"stone", "black"}, "D4": {"stone", "black"},
                            "B2": {"stone", "white"}, "E5": {"stone", "white"}}
    # The last move was a pass: no last-move mark.
    assert not [el for el in root.iter() if el.get("class") == "last-move"]


def test_last_move_and_numbers() -> None:
    report = score_bytes(b"(;GM[1]SZ[5]KM[0];B[cc];W[bd];B[db])",
                         settings=Settings(dead_stones="none"))  # type: ignore[arg-type]
    game = report.games[0]
    root = parse(render_svg(scored_picture(game, game.scores[0])))
    last = [el for el in root.iter() if el.get("class") == "last-move"]
    assert [el.get("data-point") for el in last] == ["D4"]
    numbered = parse(render_svg(scored_picture(game, game.scores[0], numbers=True)))
    texts = {el.get("data-point"): (el.text, el.get("class")) for el in numbered.iter(f"{NS}text")
             if "move-number" in el.get("class", "")}
    assert texts == {"C3": ("1", "move-number on-black"), "B2": ("2", "move-number on-white"),
                     "D4": ("3", "move-number on-black")}


def test_dead_group_and_territory_marked() -> None:
    """White H5 is dead inside Black's area: the stone is 'stone white dead' and Black's
    territory mark sits on its point under Japanese rules."""
    report = score_file(FIXTURES / "dead-in-territory.sgf")
    game = report.games[0]
    root = parse(render_svg(scored_picture(game, game.scores[0])))
    assert stones(root)["H5"] == {"stone", "white", "dead"}
    assert stones(root)["G4"] == {"stone", "black"}
    black = {p for p, c in marks(root, "territory").items() if "black" in c}
    white = {p for p, c in marks(root, "territory").items() if "white" in c}
    assert "H5" in black
    assert len(black) == 26 and len(white) == 36  # the counts the fixture's comment gives
    assert game.scores[0].black.empty == 26


def test_seki_points_marked_under_japanese_counted_under_chinese() -> None:
    report = score_file(FIXTURES / "seki.sgf", Settings(compare=("chinese",)))
    game = report.games[0]
    japanese, chinese = game.scores[0], game.scores[1]
    assert (japanese.ruleset.name, chinese.ruleset.name) == ("japanese", "chinese")
    jp = parse(render_svg(scored_picture(game, japanese)))
    assert set(marks(jp, "seki")) == {"A7", "E7"}
    assert "A7" not in marks(jp, "territory") and "E7" not in marks(jp, "territory")
    seki_stones = {p for p, c in stones(jp).items() if "seki" in c}
    assert seki_stones == {"B7", "A6", "B6", "C6", "D7", "D6", "E6", "F6", "F7"}
    cn = parse(render_svg(scored_picture(game, chinese)))
    assert marks(cn, "seki") == {}
    assert "black" in marks(cn, "territory")["A7"] and "white" in marks(cn, "territory")["E7"]
    assert "C7" not in marks(cn, "territory")  # the shared liberty is dame


def test_points_to_fill_marked_under_territory_counting() -> None:
    # . . X O .   Black C5 has one liberty, B5: Black must fill it once White takes the dame;
    # . X O . .   White C4 likewise at D4. D2 is dame.
    # . . X O .
    # . . X . O
    # . . X O .
    report = score_bytes(b"(;GM[1]SZ[5]KM[0]RU[Japanese]AB[ca][bb][cc][cd][ce]"
                         b"AW[da][cb][dc][ed][de];B[];W[])",
                         settings=Settings(compare=("chinese",),
                                              dead_stones="none"))  # type: ignore[arg-type]
    game = report.games[0]
    japanese = parse(render_svg(scored_picture(game, game.scores[0])))
    fill = set(marks(japanese, "fill"))
    assert fill == {"B5", "D4"}
    assert fill.isdisjoint(marks(japanese, "territory"))
    assert game.scores[0].black.must_fill == 1 and game.scores[0].white.must_fill == 1
    chinese = parse(render_svg(scored_picture(game, game.scores[1])))
    assert marks(chinese, "fill") == {}
    assert fill <= set(marks(chinese, "territory"))  # area counting counts them


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.glob("*.sgf")))
def test_marks_agree_with_the_count(fixture: str) -> None:
    """For every fixture and every preset: a colour's territory marks are as many as the
    count's empty points less seki points and points still to fill (a solved count: in the
    position at the end of its solved line, which its picture draws)."""
    report = score_file(FIXTURES / fixture, Settings(compare=tuple(PRESETS)))
    for game in report.games:
        if game.position is None:
            continue
        for score in game.asked_scores:
            counted = counted_points(game.scored_position(score), score.ruleset)
            for colour, side in score.sides():
                mine = sum(1 for c in counted.territory.values() if c is colour)
                assert mine == side.empty - side.seki_excluded - side.must_fill, (
                    fixture, score.ruleset.name, colour)
    assert len(PRESETS) >= 10


def test_illegal_ko_retake_and_the_stone_it_would_take() -> None:
    report = check_file(FIXTURES / "ko.sgf")
    game = report.games[0]
    finding = game.illegal_moves[0]
    scene = game.scene(finding)
    assert scene is not None
    picture = illegal_move_picture(scene, game.line)
    root = parse(render_svg(picture))
    illegal = [el for el in root.iter() if "illegal" in el.get("class", "").split()]
    assert [(el.get("data-point"), el.get("class")) for el in illegal] == [
        ("C4", "illegal black")]
    assert {p for p, c in stones(root).items() if "concerned" in c} == {"B4"}
    assert "C4" not in stones(root)  # the position before the move


def test_illegal_suicide_marks_the_chain_it_kills() -> None:
    # 5x5 Japanese: Black B1 C2 would die by White A1? Build: White surrounds the corner; Black
    # plays A1 into a point whose only neighbours are White: single-stone suicide.
    report = check_bytes(b"(;GM[1]SZ[5]RU[Japanese]AW[ad][bd][be];B[ae])")
    game = report.games[0]
    finding = game.illegal_moves[0]
    assert (finding.move, finding.point, finding.code.rule) == (1, "A1", "suicide")
    scene = game.scene(finding)
    assert scene is not None and scene.concerned == frozenset()
    assert illegal_move_picture(scene, game.line).concerned == set()
    multi = check_bytes(b"(;GM[1]SZ[5]RU[Japanese]AB[ae]AW[ad][bd][ce][cd];B[be])")
    game = multi.games[0]
    finding = game.illegal_moves[0]
    scene = game.scene(finding)
    assert scene is not None
    picture = illegal_move_picture(scene, game.line)
    root = parse(render_svg(picture))
    assert {p for p, c in stones(root).items() if "concerned" in c} == {"A1"}


def test_rectangular_and_extreme_boards() -> None:
    report = score_file(FIXTURES / "rectangle.sgf")
    game = report.games[0]
    root = parse(render_svg(scored_picture(game, game.scores[0])))
    assert root.get("data-size") == "19x13"
    assert set(stones(root)) == {"Q10", "D4", "T1", "A13"}  # pd, dj, sm, aa on 19x13
    labels = [el.text for el in root.iter(f"{NS}text") if el.text]
    assert labels.count("T") == 2 and labels.count("13") == 2 and "14" not in labels
    big = Picture(52, 52, {0: 1, 52 * 52 - 1: 2})  # type: ignore[dict-item]
    root = parse(render_svg(big))
    assert set(stones(root)) == {"A52", "BB1"}
    tiny = parse(render_svg(Picture(1, 1)))
    assert tiny.get("data-size") == "1x1"


def test_hoshi() -> None:
    assert sorted(hoshi_points(19, 19)) == [(c, r) for c in (3, 9, 15) for r in (3, 9, 15)]
    assert sorted(hoshi_points(13, 13)) == [(3, 3), (3, 9), (6, 6), (9, 3), (9, 9)]
    assert sorted(hoshi_points(9, 9)) == [(2, 2), (2, 6), (4, 4), (6, 2), (6, 6)]


def test_cli_diagram_svg_and_png(tmp_path: Path) -> None:
    out = tmp_path / "seki.svg"
    result = runner.invoke(app, ["diagram", str(FIXTURES / "seki.sgf"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert set(marks(parse(out.read_text()), "seki")) == {"A7", "E7"}
    result = runner.invoke(app, ["diagram", str(FIXTURES / "seki.sgf"), "--rules", "chinese"])
    assert result.exit_code == 0
    assert marks(parse(result.stdout), "seki") == {}
    result = runner.invoke(app, ["diagram", str(FIXTURES / "ko.sgf"), "--illegal"])
    assert result.exit_code == 0 and 'class="illegal black" data-point="C4"' in result.stdout
    png = tmp_path / "ko.png"
    result = runner.invoke(app, ["diagram", str(FIXTURES / "ko.sgf"), "-o", str(png)])
    try:
        import cairosvg  # type: ignore[import-untyped]  # noqa: F401
    except (ImportError, OSError):
        assert result.exit_code == 2 and "pip install 'sgfcheck[png]'" in result.output
        pytest.skip("cairosvg or libcairo2 missing: the PNG itself is not tested")
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("args", "message"), [
    (["-o", "x.txt"], "write .svg or .png"),
    (["--game", "2"], "holds 1 game"),
    (["--move", "9"], "has 2 moves"),
    (["--illegal", "--move", "1"], "no illegal move at move 1"),
])
def test_cli_diagram_usage_errors(args: list[str], message: str, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["diagram", str(FIXTURES / "ko.sgf"), *args])
    assert result.exit_code == 2 and message in result.output, result.output


def test_the_legend_names_every_mark_and_leaves_the_board_alone() -> None:
    plain = runner.invoke(app, ["diagram", str(FIXTURES / "seki.sgf")]).output
    shown = runner.invoke(app, ["diagram", str(FIXTURES / "seki.sgf"), "--legend"]).output
    ns = {"s": "http://www.w3.org/2000/svg"}
    board, legend = ET.fromstring(plain), ET.fromstring(shown)
    stones = [(c.get("class"), c.get("data-point")) for c in board.iter() if c.get("data-point")]
    assert stones == [(c.get("class"), c.get("data-point")) for c in legend.iter()
                      if c.get("data-point")]
    group = legend.find("s:g[@class='legend']", ns)
    assert group is not None
    texts = [t.text for t in group.findall("s:text", ns)]
    # Issue 62: the legend listed marks absent from the picture; it names those it has.
    assert texts == ["territory: counted for that colour",
                     "blue ring: a point of a group in seki, counted for nobody"]
    assert float(legend.get("height", 0)) > float(board.get("height", 0))
    illegal = ET.fromstring(runner.invoke(app, ["diagram", str(FIXTURES / "ko.sgf"),
                                                "--legend"]).output)
    group = illegal.find("s:g[@class='legend']", ns)
    assert group is not None
    assert any("dead" in (c.get("class") or "").split() for c in illegal.iter()
               if c.get("data-point"))  # a dead stone on the board, beside its legend entry
    assert [t.text for t in group.findall("s:text", ns)] == [
        "territory: counted for that colour", "faded stone: dead",
        "dashed orange: a chain the estimate could not decide (counted as most playouts left it)",
        "red ring: the last move"]  # no seki, no point to fill, no illegal move drawn here


def test_a_diagram_standing_alone_has_its_caption_under_the_board() -> None:
    """Issue 52: the PNG had no caption (ruleset, count, move); the title was only a tooltip."""
    import re

    result = runner.invoke(app, ["diagram", str(FIXTURES / "seki.sgf"), "--engine", "none"])
    caption = re.findall(r'<g class="caption">(.*?)</g>', result.stdout, re.S)
    assert len(caption) == 1
    lines = re.findall(r">([^<]*)</text>", caption[0])
    assert " ".join(lines) == "japanese: B+3.5, after move 2, dead stones: estimate"
    illegal = runner.invoke(app, ["diagram", str(FIXTURES / "ko.sgf"), "--illegal"]).stdout
    (said,) = re.findall(r'<g class="caption">(.*?)</g>', illegal, re.S)
    assert " ".join(re.findall(r">([^<]*)</text>", said)) == \
        "move 2: Black C4, simple ko (RUL004)"
    # Boards in pages have their caption beside them already: none drawn there.
    game = score_file(FIXTURES / "seki.sgf").games[0]
    assert 'class="caption"' not in render_svg(scored_picture(game, game.scores[0]))
