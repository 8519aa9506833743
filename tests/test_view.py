"""The game page (``sgfcheck view``) in a real browser (Debian's Chromium through Playwright):
stepping through a game, the ruleset switcher, the page address, a phone's screen, safety.

Screenshots are kept in ``test-artifacts/``; the timings are printed (``-s``), never asserted."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT
from test_pages import ARTIFACTS, Opened
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.records.record import load_file
from sgfcheck.replay.replay import replay
from sgfcheck.rules.presets import PRESETS

runner = CliRunner()
KGS_300 = ROOT.parent / "shared" / "corpus" / "kgs" / "KGS2001" / "2001-01-14-1.sgf"
"""A 19x19 KGS game of 295 moves."""


def page_of(record: Path, tmp_path: Path, *args: str) -> Path:
    out = tmp_path / (record.stem + ".html")
    done = runner.invoke(app, ["view", str(record), "-o", str(out), *args])
    assert done.exit_code == 0, done.output
    return out


def stones_shown(opened: Opened) -> dict[str, str]:
    """Every stone element on the board: its point and colour."""
    found: dict[str, str] = opened.page.evaluate("""() => {
        var out = {};
        document.querySelectorAll('#board .stone').forEach(function(s){
          out[s.getAttribute('data-point')] = s.classList.contains('black') ? 'B' : 'W';
        });
        return out;
    }""")
    return found


def stones_replayed(record: Path, move: int) -> dict[str, str]:
    game = load_file(record).games[0]
    line = game.main_line()
    board = replay(game, line, PRESETS["japanese"], upto=move).board
    return {board.name(p): "B" if c == 1 else "W" for p, c in enumerate(board.colour) if c}


def test_keys_buttons_and_slider_step_through_the_game(browser: Any, tmp_path: Path) -> None:
    record = FIXTURES / "triple-ko.sgf"
    opened = Opened(browser, page_of(record, tmp_path))
    page = opened.page
    total = len(load_file(record).games[0].main_line().events) - 1  # the setup node, then moves
    assert page.locator("#count").inner_text() == f"0 / {total}"
    assert stones_shown(opened) == stones_replayed(record, 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("window.sgfcheckView.current()") == 2
    assert stones_shown(opened) == stones_replayed(record, 2)
    page.click("#forward")
    assert stones_shown(opened) == stones_replayed(record, 3)
    page.keyboard.press("End")
    assert page.locator("#count").inner_text() == f"{total} / {total}"
    assert stones_shown(opened) == stones_replayed(record, total)
    page.click("#back")
    assert stones_shown(opened) == stones_replayed(record, total - 1)
    page.keyboard.press("Home")
    assert stones_shown(opened) == stones_replayed(record, 0)
    page.locator("#slider").fill("5")
    assert page.evaluate("window.sgfcheckView.current()") == 5
    assert stones_shown(opened) == stones_replayed(record, 5)
    assert page.url.endswith("#move=5")
    opened.shot("view-triple-ko.png", full=False)
    assert opened.requests == [] and opened.dialogs == []


# Where each ruleset stops sending-two-returning-one (check --all-rules says the same): White's
# move 12 at D1 recreates the position after move 8 (positional superko), move 14 at C3 closes
# the cycle of moves 9-14 (superko of each kind, or a long cycle with no result).
EXPECTED = {
    "the game's rules": {14: "long cycle"},
    "tromp-taylor": {12: "positional superko", 14: "positional superko"},
    "chinese": {14: "long cycle"}, "japanese": {14: "long cycle"},
    "korean": {14: "long cycle"}, "aga": {14: "situational superko"},
    "bga": {14: "natural situational superko"},
    "ing": {12: "positional superko", 14: "positional superko"},
    "new-zealand": {14: "situational superko"},
    "wmsg": {12: "positional superko", 14: "positional superko"},
    "stone-scoring": {14: "long cycle"},
}


def test_the_ruleset_switcher_marks_each_rulesets_illegal_moves(browser: Any,
                                                                 tmp_path: Path) -> None:
    record = FIXTURES / "sending-two-returning-one.sgf"
    opened = Opened(browser, page_of(record, tmp_path))
    page = opened.page
    assert page.locator("#ruleset option").all_inner_texts()[0] == "the game's rules (japanese)"
    for name, expected in EXPECTED.items():
        page.select_option("#ruleset", name)
        marked = {}
        for move in range(15):
            page.evaluate(f"window.sgfcheckView.show({move})")
            crosses = page.locator("#board .illegal").count()
            said = page.locator("#illegal").inner_text()
            if crosses:
                marked[move] = said
            else:
                assert said == ""
        assert sorted(marked) == sorted(expected), name
        for move, rule in expected.items():
            assert f": {rule} - " in marked[move], (name, marked[move])
        # The row of every preset's verdict on the move at hand.
        page.evaluate("window.sgfcheckView.show(12)")
        rows = dict(zip(page.locator("#presets td:nth-child(1)").all_inner_texts(),
                        page.locator("#presets td:nth-child(2)").all_inner_texts(), strict=True))
        assert rows["tromp-taylor"] == "positional superko" and rows["chinese"] == "legal"
    page.click("#nextillegal")  # from move 12 under the last ruleset chosen (stone-scoring)
    assert page.evaluate("window.sgfcheckView.current()") == 14
    opened.shot("view-sending-two-returning-one.png", full=False)


def test_the_page_address_opens_at_a_move(browser: Any, tmp_path: Path) -> None:
    record = FIXTURES / "triple-ko.sgf"
    path = page_of(record, tmp_path)
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.goto(path.resolve().as_uri() + "#move=4")
    assert page.evaluate("window.sgfcheckView.current()") == 4
    page.close()


def test_a_phone_shows_the_whole_board(browser: Any, tmp_path: Path) -> None:
    record = KGS_300 if KGS_300.exists() else FIXTURES / "seki.sgf"
    opened = Opened(browser, page_of(record, tmp_path), width=390, height=844)
    box = opened.page.locator("#board svg").bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["y"] + box["height"] <= 844
    opened.page.keyboard.press("End")
    opened.shot("view-phone-end.png", full=False)


def test_record_text_runs_nothing(browser: Any, tmp_path: Path) -> None:
    record = tmp_path / "evil.sgf"
    record.write_text("(;GM[1]FF[4]SZ[9]PB[<script>alert(1)</script>]PW[</script><script>"
                      "alert(2)</script>]C[<img src=x onerror=alert(3)>]RE[B+R]"
                      ";B[ee]C[<b onmouseover=alert(4)>hi</b>];W[cc])", encoding="utf-8")
    opened = Opened(browser, page_of(record, tmp_path))
    page = opened.page
    assert page.locator("script").count() == 2  # the data block and the page's own script
    assert "<script>alert(1)</script>" in page.locator("h1").inner_text()
    assert page.locator("#comment").inner_text() == "<img src=x onerror=alert(3)>"
    page.keyboard.press("ArrowRight")
    assert page.locator("#comment").inner_text() == "<b onmouseover=alert(4)>hi</b>"
    assert opened.dialogs == [] and opened.requests == []


def test_the_end_of_the_game_draws_each_rulesets_count(browser: Any, tmp_path: Path) -> None:
    # seki.sgf: the seki points A7 and E7 count for nobody under japanese, for their owners
    # under chinese.
    record = FIXTURES / "seki.sgf"
    opened = Opened(browser, page_of(record, tmp_path))
    page = opened.page
    page.keyboard.press("End")
    assert page.locator("#end").is_visible()
    page.select_option("#ruleset", "japanese")
    seki = sorted(page.locator("#board .seki").evaluate_all(
        "els => els.map(e => e.getAttribute('data-point'))"))
    assert seki == ["A7", "E7"]
    page.select_option("#ruleset", "chinese")
    assert page.locator("#board .seki").count() == 0
    territory = page.locator("#board .terr").evaluate_all(
        "els => els.map(e => e.getAttribute('data-point'))")
    assert "A7" in territory and "E7" in territory
    assert "RE check (japanese): MATCH" in page.locator("#end .verdict").first.inner_text()
    opened.shot("view-seki-end.png", full=True)


def test_a_dead_stones_point_shows_its_owner_on_the_page_as_in_the_diagrams(
        browser: Any, tmp_path: Path) -> None:
    # dead-in-territory.sgf: the white stone at H5 is dead inside Black's area. The diagrams
    # (SVG, PNG, the score page) draw Black's square over the faded stone; the game page drew
    # it under the stone (a grey point). What is on top at H5's centre must be the mark, in both.
    record = FIXTURES / "dead-in-territory.sgf"
    top = """(point) => {
        var mark = document.querySelector(point);
        mark.scrollIntoView({block: 'center'});
        var box = mark.getBoundingClientRect();
        var hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return hit.getAttribute('class');
    }"""
    opened = Opened(browser, page_of(record, tmp_path))
    opened.page.keyboard.press("End")
    assert opened.page.evaluate(top, '#board .terr[data-point="H5"]') == "terr black"
    assert opened.page.locator('#board .stone.dead').count() == 1
    scored = tmp_path / "score.html"
    assert runner.invoke(app, ["score", str(record), "-o", str(scored)]).exit_code == 0
    page = Opened(browser, scored).page
    assert page.evaluate(top, 'figure .mark.territory[data-point="H5"]') == (
        "mark territory black")


def test_a_300_move_game_page_is_small_and_quick(browser: Any, tmp_path: Path) -> None:
    if not KGS_300.exists():
        pytest.skip(f"the shared corpus is absent ({KGS_300})")
    path = page_of(KGS_300, tmp_path)
    size = path.stat().st_size
    assert size < 400 * 1024, size
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    started = time.perf_counter()
    page.goto(path.resolve().as_uri())
    page.wait_for_function("window.sgfcheckView !== undefined")
    page.wait_for_timeout(100)
    paint = page.evaluate("(performance.getEntriesByType('paint').find(e => e.name === "
                          "'first-contentful-paint') || {}).startTime")
    drawn = page.evaluate("window.sgfcheckView.drawn")
    loaded = time.perf_counter() - started
    step = page.evaluate("""() => {
        var t = performance.now();
        for (var k = 1; k <= 295; k++) window.sgfcheckView.show(k);
        return (performance.now() - t) / 295;
    }""")
    assert page.evaluate("window.sgfcheckView.current()") == 295
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "view-kgs-19x19.png"))
    print(f"\n300-move page: {size / 1024:.0f} KB, first contentful paint {paint} ms, board "
          f"drawn at {drawn:.0f} ms, loaded in {loaded * 1000:.0f} ms, a step {step:.2f} ms")
    page.close()


def test_the_batch_page_links_each_problem_game_to_its_page(browser: Any, tmp_path: Path) -> None:
    page = tmp_path / "batch.html"
    done = runner.invoke(app, ["batch", str(FIXTURES / "suicide-single.sgf"),
                               str(FIXTURES / "ko.sgf"), "--html", str(page), "--jobs", "1",
                               "-q", "--fail-on", "never"])
    assert done.exit_code == 0, done.output
    opened = Opened(browser, page)
    links = opened.page.locator("table.problems a.view").evaluate_all(
        "els => els.map(e => e.getAttribute('href'))")
    # Both games have an illegal move (a suicide, a ko taken back at once): each has its page.
    assert len(links) == 2 and all(link.startswith("batch-games/") for link in links)
    said = set()
    for link in links:
        target = tmp_path / link
        assert target.exists()
        game = browser.new_page(viewport={"width": 1000, "height": 800})
        game.goto(target.resolve().as_uri())
        assert game.evaluate("window.sgfcheckView.current()") == 0
        game.click("#nextillegal")
        said.add(game.locator("#illegal").inner_text().split(": ")[1].split(" - ")[0])
        game.close()
    assert said == {"suicide", "simple ko"}


def test_the_page_prints_the_board_and_the_count(browser: Any, tmp_path: Path) -> None:
    opened = Opened(browser, page_of(FIXTURES / "seki.sgf", tmp_path))
    page = opened.page
    page.keyboard.press("End")
    page.emulate_media(media="print")
    assert not page.locator(".controls").first.is_visible()  # no buttons on paper
    assert page.locator("#board svg").is_visible() and page.locator("#end").is_visible()
    pdf = tmp_path / "seki.pdf"
    page.pdf(path=str(pdf))
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 10_000


def test_the_page_opens_on_the_verdict_with_a_way_to_the_end(browser: Any,
                                                             tmp_path: Path) -> None:
    # seki.sgf: RE[B+3.5], counted B+3.5 under japanese with komi 0.5 (the seki points A7, E7
    # count for nobody): the verdict is in view at move 0, before any step.
    opened = Opened(browser, page_of(FIXTURES / "seki.sgf", tmp_path), width=1200, height=800)
    page = opened.page
    answer = page.locator("#answer")
    assert answer.is_visible() and answer.bounding_box()["y"] < 800
    assert answer.inner_text().startswith("RE[B+3.5] MATCH; counted B+3.5 under japanese with "
                                          "komi 0.5")
    assert page.evaluate("window.sgfcheckView.current()") == 0
    page.click("#toend")
    total = len(load_file(FIXTURES / "seki.sgf").games[0].main_line().events) - 1
    assert page.evaluate("window.sgfcheckView.current()") == total
    # At 1200 px the end table is whole: no cell beyond the window (it scrolls inside its box).
    right = page.evaluate("""() => Math.max(...Array.from(
        document.querySelectorAll('#end th')).map(c => c.getBoundingClientRect().right))""")
    box = page.locator("#end .scroll").first.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1200
    assert page.evaluate("document.documentElement.scrollWidth") <= 1200
    assert right > 0
    opened.shot("view-opens-on-verdict.png", full=False)


def test_a_link_names_a_ruleset_and_a_move(browser: Any, tmp_path: Path) -> None:
    # ko.sgf: Black's move 2 retakes the ko at C4 (simple ko): the button goes there, and
    # #rules=aga&move=2 opens there with AGA chosen and its verdict shown.
    path = page_of(FIXTURES / "ko.sgf", tmp_path)
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.goto(path.resolve().as_uri())
    assert "move 2, 1 in all" in page.locator("#toillegal").inner_text()
    page.click("#toillegal")
    assert page.evaluate("window.sgfcheckView.current()") == 2
    assert page.evaluate("location.hash") == "#move=2"
    page.select_option("#ruleset", "aga")
    assert page.evaluate("location.hash") == "#rules=aga&move=2"
    page.goto(path.resolve().as_uri() + "#rules=aga&move=2")
    page.reload()
    assert page.evaluate("window.sgfcheckView.current()") == 2
    assert page.locator("#ruleset").input_value() == "aga"
    assert page.locator("#illegal").inner_text().startswith("Under aga:")
    page.close()


def test_coordinates_stand_clear_of_the_stones_and_match_the_point_names(
        browser: Any, tmp_path: Path) -> None:
    # A 4x3 board full of stones: no coordinate's box overlaps a stone's. A 52x52 board: the
    # columns past Z are named AA, AB... as every point name is (AB1 is the 27th column).
    small = tmp_path / "small.sgf"
    small.write_text("(;GM[1]FF[4]SZ[4:3]AB[aa][ba][ca][da]AW[ab][bb][cb][db][ac][bc][cc][dc])",
                     encoding="utf-8")
    opened = Opened(browser, page_of(small, tmp_path), width=600, height=600)
    overlaps = opened.page.evaluate("""() => {
        var boxes = s => Array.from(document.querySelectorAll(s)).map(
            e => e.getBoundingClientRect());
        var stones = boxes('#board .stone'), coords = boxes('#board .coord'), n = 0;
        coords.forEach(c => stones.forEach(s => {
            if (c.left < s.right && s.left < c.right && c.top < s.bottom && s.top < c.bottom) n++;
        }));
        return [n, stones.length, coords.length];
    }""")
    assert overlaps == [0, 12, 14]
    opened.shot("view-4x3-coordinates.png", full=False)
    big = tmp_path / "big.sgf"
    big.write_text("(;GM[1]FF[4]SZ[52];B[Aa])", encoding="utf-8")
    opened = Opened(browser, page_of(big, tmp_path))
    columns = opened.page.locator("#board .coord").evaluate_all(
        "els => els.map(e => e.textContent)")[:104:2]
    assert columns[:3] == ["A", "B", "C"] and columns[25:28] == ["AA", "AB", "AC"]
    assert columns[-1] == "BB"
    opened.page.keyboard.press("End")
    assert opened.page.locator("#move").inner_text() == "Move 1: Black AB52"  # SGF "Aa"


def test_the_step_buttons_and_the_count_table_are_above_the_fold(browser: Any,
                                                                  tmp_path: Path) -> None:
    """Issue 52: at 1000 px the step buttons and the count table sat below the fold; the board
    leaves room for the heading, the answer and the controls."""
    record = KGS_300 if KGS_300.exists() else FIXTURES / "seki.sgf"
    path = page_of(record, tmp_path)
    for height in (700, 800, 1000):
        page = browser.new_page(viewport={"width": 1000, "height": height})
        page.goto(path.resolve().as_uri())
        for selector in (".controls button", "#presets", "table"):
            for box in (e.bounding_box() for e in page.locator(selector).all()):
                if box is not None:
                    assert box["y"] + box["height"] <= height, (height, selector)
        page.close()
