"""HTML pages in a real browser (Debian's Chromium, driven by Playwright): what a user sees.

Screenshots are kept in ``test-artifacts/`` at the top of the work tree. The tests skip, saying
why, when Playwright or Chromium is missing (``.ci/run`` installs both)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import FIXTURES, ROOT
from typer.testing import CliRunner

from sgfcheck import score_bytes
from sgfcheck.cli.app import app
from sgfcheck.output.html import score_page
from sgfcheck.settings import Settings

runner = CliRunner()
ARTIFACTS = ROOT / "test-artifacts"


class Opened:
    """A page opened from a file, every request other than that file refused and recorded."""

    def __init__(self, browser: Any, path: Path, width: int = 1280, height: int = 900) -> None:
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": height})
        url = path.resolve().as_uri()

        def route(r: Any) -> None:
            if r.request.url == url:
                r.continue_()
            else:
                self.requests.append(r.request.url)
                r.abort()

        self.page.route("**/*", route)
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.goto(url)

    def shot(self, name: str, full: bool = True) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=full)

    def texts(self, selector: str) -> list[str]:
        return [t.strip() for t in self.page.locator(selector).all_inner_texts()]


def test_score_page_one_board_per_ruleset(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "seki.html"
    result = runner.invoke(app, ["score", str(FIXTURES / "seki.sgf"), "--format", "html", "-o",
                                 str(out)])
    assert result.exit_code == 0, result.output
    opened = Opened(browser, out)
    page = opened.page
    # One board for each different drawing: the seki's eyes counted for nobody (japanese,
    # stone-scoring) or for their owners (the area rulesets, and aga, which counts them).
    assert opened.texts("figure.board figcaption") == [
        "japanese: B+3.5 (territory); stone-scoring: B+5.5 (stones)",
        "tromp-taylor: B+5.5 (area); chinese: B+5.5 (area); aga: B+3.5 (territory + pass "
        "stones)"]
    assert page.locator("figure.board svg").count() == 2
    assert "2 board(s) for 5 rulesets" in page.inner_text("body")
    # The seki: its two eyes marked as counted for nobody under Japanese rules only.
    assert page.locator('figure[data-ruleset~="japanese"] .mark.seki').count() == 2
    assert page.locator('figure[data-ruleset~="chinese"] .mark.seki').count() == 0
    assert page.locator('figure[data-ruleset~="chinese"] .stone').count() == 26
    # Where the rulesets differ comes before the boards.
    body = page.inner_text("body")
    assert body.index("Why the rows differ") < body.index("2 board(s) for 5 rulesets")
    verdict = page.locator(".verdict").first.inner_text()
    assert verdict.startswith("RE check (japanese): MATCH")
    assert "rests on:" in verdict
    table = page.locator("table.scores")
    assert table.is_visible()
    assert table.locator("tbody tr").count() == 10  # two rows (Black, White) a ruleset
    assert "Why the rows differ" in page.inner_text("body")
    # Big boards, side by side on a wide screen: the first two line up, each 400 px or more.
    boxes = [f.bounding_box() for f in page.locator("figure.board").all()[:2]]
    assert len({round(b["y"]) for b in boxes}) == 1
    assert all(b["width"] >= 400 for b in boxes)
    # The result and the total come first in the table, after the ruleset, method and colour.
    heads = table.locator("thead th").all_inner_texts()
    assert heads[:5] == ["ruleset", "method", "colour", "result", "total"]
    assert opened.requests == [] and opened.dialogs == []
    opened.shot("score-page.png")


def test_score_page_on_a_phone_and_in_print(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    runner.invoke(app, ["score", str(FIXTURES / "dead-in-territory.sgf"), "--format", "html",
                        "-o", str(out)])
    opened = Opened(browser, out, width=390, height=844)
    page = opened.page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the phone: the table scrolls in its own box
    for box in (f.bounding_box() for f in page.locator("figure.board").all()):
        assert box["width"] <= 390
    opened.shot("score-page-phone.png")
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4")
    assert pdf[:5] == b"%PDF-" and len(pdf) > 10_000


def test_japanese_and_chinese_side_by_side_in_one_command(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "two.html"
    result = runner.invoke(app, ["score", str(FIXTURES / "dead-in-territory.sgf"), "--compare",
                                 "chinese", "--format", "html", "-o", str(out)])
    assert result.exit_code == 0
    opened = Opened(browser, out)
    # Both count the same points (H5's dead stone for Black; area adds the stones, which a
    # drawing of the count shows alike): one board, both results in its caption.
    captions = opened.texts("figure.board figcaption")
    assert captions == ["japanese: W+9.5 (territory); chinese: W+9.5 (area)"]
    page = opened.page
    # H5, White's dead stone, is faded and Black's point on the board of both.
    for name in ("japanese", "chinese"):
        stone = page.locator(f'figure[data-ruleset~="{name}"] circle.stone[data-point="H5"]')
        assert stone.get_attribute("class") == "stone white dead"
        assert float(stone.evaluate("e => getComputedStyle(e).opacity")) < 0.5
        mark = page.locator(f'figure[data-ruleset~="{name}"] .mark.territory[data-point="H5"]')
        assert mark.get_attribute("class") == "mark territory black"
    opened.shot("japanese-chinese.png")


def test_check_page_shows_each_illegal_move_on_its_board(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "check.html"
    result = runner.invoke(app, ["check", str(FIXTURES / "ko.sgf"), str(FIXTURES /
                                 "suicide-single.sgf"), "--all-rules", "--format", "html", "-o",
                                 str(out)])
    assert result.exit_code == 1  # illegal moves found, as in text
    opened = Opened(browser, out)
    page = opened.page
    captions = opened.texts("figure.illegal-move figcaption")
    assert captions[0] == "move 2: Black C4, simple ko"
    assert any("suicide" in c for c in captions)
    ko = page.locator('figure.illegal-move[data-move="2"]').first
    assert ko.locator('.illegal[data-point="C4"]').count() == 1
    assert ko.locator(".stone.concerned").get_attribute("data-point") == "B4"
    assert page.locator(".verdict").first.inner_text().startswith("ILLEGAL MOVES")
    table = page.locator("table.all-rules").first
    headers = [h.strip() for h in table.locator("th").all_inner_texts()]
    assert headers[:3] == ["move", "colour", "point"] and "chinese" in headers
    cells = [c.strip() for c in table.locator("tbody tr").first.locator("td").all_inner_texts()]
    assert cells[:3] == ["2", "Black", "C4"]
    assert cells[3 + headers[3:].index("chinese")] == "simple ko"
    assert opened.requests == []
    opened.shot("check-page.png")


def test_batch_page_filter_sort_and_detail(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "batch.html"
    result = runner.invoke(app, ["batch", str(FIXTURES), "--html", str(out), "--jobs", "1",
                                 "-q"])
    assert out.exists(), result.output
    opened = Opened(browser, out)
    page = opened.page
    rows = page.locator("table#problems tbody tr")
    total = rows.count()
    assert total >= 4
    suicide = [r for r in rows.all() if "suicide" in r.inner_text()]
    assert len(suicide) == 2  # suicide-single.sgf and suicide-multi.sgf
    page.fill("input.filter", "suicide")
    assert [r.is_visible() for r in rows.all()].count(True) == 2
    page.fill("input.filter", "")
    assert [r.is_visible() for r in rows.all()].count(True) == total
    # Sort by the verdict column, twice: ascending then descending.
    page.locator("table#problems th", has_text="verdict").click()
    first = [c.strip() for c in page.locator("table#problems tbody tr td:nth-child(2)")
             .all_inner_texts()]
    assert first == sorted(first)
    page.locator("table#problems th", has_text="verdict").click()
    again = [c.strip() for c in page.locator("table#problems tbody tr td:nth-child(2)")
             .all_inner_texts()]
    assert again == sorted(first, reverse=True)
    link = page.locator("table#problems a", has_text="ko.sgf").first
    target = link.get_attribute("href")
    link.click()
    section = page.locator(f"section{target}")
    assert section.locator("svg .illegal").count() == 1
    assert section.is_visible()
    assert opened.requests == []
    opened.shot("batch-page.png")


def test_record_text_is_escaped(browser: Any, tmp_path: Path) -> None:
    data = (b"(;GM[1]SZ[9]KM[6.5]RU[Japanese]PB[<script>alert(1)</script>]"
            b"PW[<img src=x onerror=alert(2)>\xe2\x80\xae]RE[B+R];B[ee];W[cc])")
    page_html = score_page([score_bytes(data, "<b>evil</b>.sgf",
                                        Settings(dead_stones="none"))])  # type: ignore[arg-type]
    assert "<script>alert" not in page_html and "<img" not in page_html
    out = tmp_path / "x.html"
    out.write_text(page_html, encoding="utf-8")
    opened = Opened(browser, out)
    heading = opened.page.locator("h2").first.inner_text()
    assert "<script>alert(1)</script> (B)" in heading and "\\u202e" in heading
    assert "<b>evil</b>.sgf" in heading
    assert opened.dialogs == [] and opened.requests == []


def test_five_rulesets_page_under_300_kb(tmp_path: Path) -> None:
    """A full 19x19 board (every point a stone or a territory mark) under five rulesets."""
    rows = []
    for r in range(19):
        line = []
        for c in range(19):
            # Black's left half and White's right, each with two-point eyes; one dead stone each.
            if c < 9:
                line.append("." if (r % 4 == 1 and c % 4 == 1) or (r % 4 == 1 and c % 4 == 2)
                            else "X")
            elif c == 9:
                line.append("X" if r % 2 else "O")
            else:
                line.append("." if (r % 4 == 1 and c % 4 == 3) or (r % 4 == 1 and c % 4 == 0)
                            else "O")
        rows.append(line)
    letters = "abcdefghijklmnopqrs"
    ab = "".join(f"[{letters[c]}{letters[r]}]" for r in range(19) for c in range(19)
                 if rows[r][c] == "X")
    aw = "".join(f"[{letters[c]}{letters[r]}]" for r in range(19) for c in range(19)
                 if rows[r][c] == "O")
    data = f"(;GM[1]SZ[19]KM[6.5]RU[Japanese]RE[B+R]AB{ab}AW{aw};B[];W[])".encode()
    report = score_bytes(data, "full.sgf", Settings(dead_stones="none"))  # type: ignore[arg-type]
    page = score_page([report])
    # Every ruleset marks the same points here (no seki, nothing dead): one board for five.
    assert page.count("<figure") == 1
    assert page.count('class="stone ') >= 300
    size = len(page.encode("utf-8"))
    assert size < 100 * 1024, size


def _legends(page: str) -> list[list[str]]:
    import re

    return [re.findall(r"<span>(.*?)</span>", legend)
            for legend in re.findall(r'<p class="legend">(.*?)</p>', page)]


def test_each_pages_legend_names_the_marks_its_boards_have(tmp_path: Path) -> None:
    """Issue 62 (9): the pages' legend was one fixed list (dead stones, seki rings, diamonds,
    illegal moves...) whatever the boards held; the batch page's boards had none."""
    seki = tmp_path / "seki.html"
    runner.invoke(app, ["score", str(FIXTURES / "seki.sgf"), "--engine", "none", "-o", str(seki)])
    assert _legends(seki.read_text(encoding="utf-8")) == [[
        "territory: counted for that colour",
        "blue ring: a point of a group in seki, counted for nobody"]]
    suicide = tmp_path / "suicide.html"
    runner.invoke(app, ["check", str(FIXTURES / "suicide-single.sgf"), "-o", str(suicide)])
    assert _legends(suicide.read_text(encoding="utf-8")) == [[
        "red cross: an illegal move (red outline: the stones it concerns)"]]
    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("suicide-single.sgf", "dead-in-territory.sgf"):
        (folder / name).write_bytes((FIXTURES / name).read_bytes())
    (folder / "dead-in-territory.sgf").write_bytes(
        (FIXTURES / "dead-in-territory.sgf").read_bytes().replace(b"RE[W+9.5]", b"RE[B+9.5]"))
    batch = tmp_path / "batch.html"
    runner.invoke(app, ["batch", str(folder), "--html", str(batch), "--fail-on", "never", "-q",
                        "--dead-stones", "estimate", "--engine", "none"])
    # Two problem games, each board with the legend of its own marks: the suicide (the illegal
    # move's cross), the falsified result (territory, White's dead stone at H5).
    assert sorted(_legends(batch.read_text(encoding="utf-8"))) == sorted([
        ["red cross: an illegal move (red outline: the stones it concerns)"],
        ["territory: counted for that colour", "faded stone: dead"]])


def test_why_the_rows_differ_nests_each_reason_under_its_row(tmp_path: Path) -> None:
    """Issue 62 (5): the sub-lines (what moves a term) were items of their own beside the
    rows they explain."""
    import re

    page = tmp_path / "h.html"
    runner.invoke(app, ["score", str(FIXTURES / "handicap.sgf"), "--engine", "none",
                        "-o", str(page)])
    text = page.read_text(encoding="utf-8")
    assert '<ul class="explanations"><li>tromp-taylor vs japanese' in text
    items = re.findall(r"<li>(chinese vs japanese[^<]*)<ul><li>([^<]*)</li></ul></li>", text)
    assert items == [(
        "chinese vs japanese: the same margin, the terms that differ cancel (stones on the "
        "board +2, handicap bonus -2)",
        "area counts stones on the board, territory counts prisoners: Black put 2 more "
        "stone(s) on the board (set-up stones included) (dame parity)")]


def test_the_count_table_fits_a_1280_pixel_window(browser: Any, tmp_path: Path) -> None:
    """Issue 62 (5): the score table scrolled sideways at 1280 px (every component a column,
    most of them empty)."""
    page = tmp_path / "h.html"
    runner.invoke(app, ["score", str(FIXTURES / "seki.sgf"), "--engine", "none", "-o", str(page)])
    opened = Opened(browser, page)
    sizes = opened.page.evaluate("""() => {
        var box = document.querySelector('table.scores').parentElement;
        return [box.scrollWidth, box.clientWidth];
    }""")
    assert sizes[0] <= sizes[1], sizes
