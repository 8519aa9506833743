"""Self-contained HTML pages: ``score --format html``, ``check --format html``, ``batch --html``.

One file each, nothing fetched (styles, pictures and the table script are inside), readable on a
phone (boards shrink to the screen, tables scroll sideways) and printable (a board never split
across pages). Every text that comes from a record or a file name is HTML-escaped.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from sgfcheck.counting.count import Score
from sgfcheck.escaping import visible
from sgfcheck.findings import Finding
from sgfcheck.output.diagrams import illegal_move_picture, scored_picture
from sgfcheck.output.differences import difference_lines
from sgfcheck.output.reasons import reason_of
from sgfcheck.output.scores import (
    SCORE_HEADERS,
    basis_text,
    row_names,
    score_rows,
    summary_rows,
    worth_counting,
)
from sgfcheck.output.summary import Summary
from sgfcheck.output.svg import LEGEND_ENTRIES, STYLE, Picture, legend_entries, render_svg
from sgfcheck.replay.check import FileReport, GameReport
from sgfcheck.scoring.gamescore import FileScore, GameScore
from sgfcheck.verdict.reasons import CheckStatus
from sgfcheck.version import VERSION

PAGE_STYLE = """
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;padding:12px;
max-width:1200px;color:#1b1b1b;background:#fff}
h1{font-size:1.35em;margin:.2em 0 .6em}
h2{font-size:1.15em;margin:1.4em 0 .4em;border-bottom:1px solid #ccc;overflow-wrap:anywhere}
h3{font-size:1em;margin:1em 0 .3em}
ul.facts{padding-left:1.2em;margin:.3em 0}
.boards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,400px),1fr));gap:12px}
figure.board{margin:0;max-width:640px;break-inside:avoid;page-break-inside:avoid}
figure.board svg{width:100%;height:auto;display:block}
figcaption{text-align:center;font-weight:600;margin-top:2px}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.5em 0;font-variant-numeric:tabular-nums}
th,td{border:1px solid #bbb;padding:3px 7px;text-align:right;vertical-align:top}
th{background:#f1f1f1}
td.text,th.text{text-align:left}
.verdict{padding:6px 10px;border-radius:4px;margin:.5em 0;border:1px solid #bbb}
.verdict.match,.verdict.clean{background:#e6f4e6;border-color:#6a6}
.verdict.mismatch,.verdict.illegal-moves,.verdict.errors{background:#fbe3e3;border-color:#c55}
.verdict.unverifiable,.verdict.warnings{background:#fff3d6;border-color:#c90}
.verdict.not-scored,.verdict.not-checked{background:#eef0f4}
.legend{font-size:.9em;color:#444}
.legend span{display:inline-block;margin-right:1em}
input.filter{font:inherit;padding:4px 8px;width:100%;max-width:420px;margin:.3em 0}
th.sortable{cursor:pointer}
th.sortable::after{content:" \\2195";color:#999}
footer{margin-top:2em;font-size:.85em;color:#666}
@media print{body{max-width:none;padding:0}.filter{display:none}a{color:inherit}
.boards{grid-template-columns:repeat(3,1fr)}}
"""

TABLE_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function(table){
  table.querySelectorAll("th").forEach(function(th, col){
    th.classList.add("sortable");
    th.addEventListener("click", function(){
      var body = table.tBodies[0], rows = Array.from(body.rows);
      var dir = th.dataset.dir === "asc" ? -1 : 1; th.dataset.dir = dir > 0 ? "asc" : "desc";
      rows.sort(function(a, b){
        var x = a.cells[col].innerText, y = b.cells[col].innerText;
        var nx = parseFloat(x), ny = parseFloat(y);
        if (!isNaN(nx) && !isNaN(ny)) return dir * (nx - ny);
        return dir * x.localeCompare(y);
      });
      rows.forEach(function(r){ body.appendChild(r); });
    });
  });
});
document.querySelectorAll("input.filter").forEach(function(input){
  var table = document.getElementById(input.dataset.table);
  input.addEventListener("input", function(){
    var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    Array.from(table.tBodies[0].rows).forEach(function(r){
      var text = r.innerText.toLowerCase();
      r.hidden = !words.every(function(w){ return text.indexOf(w) >= 0; });
    });
  });
});
"""

LEGEND = '<p class="legend">' + " ".join(f"<span>{item}</span>" for item in (
    "&#9632; territory counted for that colour", "faded stone: dead",
    "blue ring: seki point counted for nobody", "purple diamond: point still to fill",
    "dashed orange: uncertain", "red ring: last move",
    "red &#215;: illegal move, red outline: the stones it concerns")) + "</p>"


def legend_html(pictures: Iterable[Picture]) -> str:
    """The legend of the boards drawn: the marks they have, none they do not (empty when they
    have none)."""
    kinds = {kind for picture in pictures for kind, _ in legend_entries(picture)}
    items = [text for kind, text in LEGEND_ENTRIES if kind in kinds]
    if not items:
        return ""
    return '<p class="legend">' + " ".join(f"<span>{esc(t)}</span>" for t in items) + "</p>"


def nested_list(lines: Sequence[str], css: str = "") -> str:
    """Lines as a list, each line indented under the one before it (the explanations' sub-lines:
    why a term moves) a list inside that line's item."""
    attrs = f' class="{css}"' if css else ""
    out, open_sub = [f"<ul{attrs}>"], False
    for i, line in enumerate(lines):
        sub = line.startswith("  ") and i > 0
        if sub and not open_sub:
            out[-1] = out[-1].removesuffix("</li>")
            out.append("<ul>")
            open_sub = True
        elif not sub and open_sub:
            out.append("</ul></li>")
            open_sub = False
        out.append(f"<li>{esc(line.strip())}</li>")
    if open_sub:
        out.append("</ul></li>")
    out.append("</ul>")
    return "".join(out)


def esc(text: object) -> str:
    """Text for HTML: escaped, with control and format characters shown as escapes."""
    return html.escape(visible(str(text)))


def _page(title: str, body: list[str], script: bool = False) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{esc(title)}</title>",
             f"<style>{PAGE_STYLE.strip()}\n{STYLE.strip()}</style>", "</head>", "<body>",
             f"<h1>{esc(title)}</h1>", *body,
             f"<footer>Made by sgfcheck {esc(VERSION)}. Self-contained: nothing on this page "
             "is fetched from anywhere.</footer>"]
    if script:
        parts.append(f"<script>{TABLE_SCRIPT.strip()}</script>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]], *, text_cols: int = 1,
           css: str = "", table_id: str = "") -> str:
    attrs = (f' class="{css}"' if css else "") + (f' id="{table_id}"' if table_id else "")
    head = "".join(f'<th class="text">{esc(h)}</th>' if i < text_cols else f"<th>{esc(h)}</th>"
                   for i, h in enumerate(headers))
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="text">{c}</td>' if i < text_cols else f"<td>{c}</td>"
            for i, c in enumerate(_cell(v) for v in row))
        body.append(f"<tr>{cells}</tr>")
    return (f'<div class="scroll"><table{attrs}><thead><tr>{head}</tr></thead><tbody>'
            + "".join(body) + "</tbody></table></div>")


@dataclass(frozen=True)
class Raw:
    """HTML made here (a link), put in a table cell as it is."""

    html: str


def _cell(value: object) -> str:
    if isinstance(value, Raw):
        return value.html
    if isinstance(value, float):
        return f"{value:g}"
    return esc("" if value is None else value)


def _findings_list(findings: list[Finding]) -> str:
    if not findings:
        return ""
    items = []
    for f in findings:
        where = f"move {f.move}: " if f.move is not None else ""
        point = f" at {f.point}" if f.point else ""
        items.append(f"<li><b>{esc(f.code.code)}</b> {esc(f.code.rule)} "
                     f"({esc(f.severity.value)}){esc(point)}: {esc(where)}{esc(f.message)}</li>")
    return '<ul class="findings">' + "".join(items) + "</ul>"


def _game_title(path: str, report: GameReport) -> str:
    g = report.game
    players = ""
    if g.info.get("PB") or g.info.get("PW"):
        players = f" - {g.info.get('PB', '?')} (B) vs {g.info.get('PW', '?')} (W)"
    return f"{path} game {g.index + 1}{players}"


def _verdict_box(css: str, text: str) -> str:
    return f'<div class="verdict {esc(css.replace(" ", "-"))}">{text}</div>'


def score_game_html(path: str, game: GameScore) -> list[str]:
    """One game of ``score --format html``: the RE check and its basis first, the dead stones'
    source and confidence, the boards per ruleset, the table, the explanations."""
    check = game.check
    out = [f"<h2>{esc(_game_title(path, check))}</h2>"]
    if game.error or game.position is None or game.dead is None or check.context is None:
        out.append(_verdict_box("not-scored", f"Not scored: {esc(game.error or 'no position')}"))
        out.append(_findings_list([f for f in game.findings if f.code.family != "RES"]))
        return out
    out += score_summary_html(game)
    if not worth_counting(game):  # a stub: its verdict and findings, no count
        out.append(_findings_list([f for f in game.findings if f.code.family != "RES"]))
        return out
    # Where the rulesets differ leads (the table, why the rows differ); then one board for each
    # different drawing of the count, captioned with every ruleset it stands for.
    out += score_table_html(game)
    # A board's drawing differs between rulesets only in the points each count marks.
    drawings: dict[tuple[frozenset[tuple[int, int]], frozenset[int], frozenset[int], bool],
                   list[Score]] = {}
    for score in game.asked_scores:
        counted = game.counted(score)
        marked = (frozenset((p, int(c)) for p, c in counted.territory.items()),
                  frozenset(counted.seki), frozenset(counted.fill), score.solved)
        drawings.setdefault(marked, []).append(score)
    if len(drawings) < len(game.asked_scores):
        out.append(f"<p>The count drawn: {len(drawings)} board(s) for "
                   f"{len(game.asked_scores)} rulesets; rulesets that mark the same points "
                   "share a board.</p>")
    out.append('<div class="boards">')
    drawn: list[Picture] = []
    for scores in drawings.values():
        names = " ".join(score.ruleset.name for score in scores)
        title = "; ".join(f"{score.ruleset.name}: {score.result_text}" for score in scores)
        picture = replace(scored_picture(game, scores[0]), title=title)
        drawn.append(picture)
        caption = "; ".join(f"{score.ruleset.name}: {score.result_text} "
                            f"({score.method.value})" for score in scores)
        out.append(f'<figure class="board" data-ruleset="{esc(names)}">'
                   f"{render_svg(picture, style=False)}"
                   f"<figcaption>{esc(caption)}</figcaption></figure>")
    out.append("</div>")
    out.append(legend_html(drawn))
    return out


def score_summary_html(game: GameScore) -> list[str]:
    """The RE check with its basis, then the facts: what was scored, the game's rules, the
    recorded result, the dead stones and their source and confidence."""
    check = game.check
    assert game.position is not None and game.dead is not None and check.context is not None
    out = []
    rc = game.result_check
    if rc is not None:
        text = (f"<b>RE check ({esc(game.scores[0].ruleset.name)}): "
                f"{esc(rc.status.value.upper())}</b> - {esc(reason_of(game))}")
        if rc.status is not CheckStatus.NOT_SCORED:
            text += f"<br>rests on: {esc(basis_text(rc, game.dead))}"
        out.append(_verdict_box(rc.status.value, text))
    context = check.context
    board = game.position.board
    where = "the end of the game" if game.final else f"the position after move {game.scored_move}"
    facts = [f"scored: {where}",
             f"game rules: {context.ruleset.name} ({context.rules_detail}); "
             f"komi {context.komi_text}; handicap {check.game.handicap}",
             f"recorded result: {check.game.result_raw or 'none'}",
             f"dead stones from {game.dead.source.label}: " + game.dead.by_colour(board)]
    if game.dead.judgement is not None:
        low = min((c.confidence for c in game.dead.judgement.chains
                   if c.confidence is not None), default=None)
        if low is not None:
            facts.append(f"least confidence of a chain: {low:.2f} "
                         f"({game.dead.judgement.playouts} playouts, seed "
                         f"{game.dead.judgement.seed})")
    uncertain = game.dead.uncertain_names(board)
    if uncertain:
        facts.append("uncertain chains: " + ", ".join(uncertain))
    facts.extend(game.dead.notes)
    out.append('<ul class="facts">' + "".join(f"<li>{esc(f)}</li>" for f in facts) + "</ul>")
    return out


def score_table_html(game: GameScore) -> list[str]:
    """The table of every ruleset's count, why the rows differ, the findings (none for a
    stub whose count is not worth showing)."""
    if not worth_counting(game):
        return []
    # The result and the total first (what a reader looks for), then the components.
    # Columns empty in every row are left out (the table fits a page without scrolling).
    every = score_rows(game)
    order = [c for c in (0, 1, 2, 16, 15, 12, *range(3, 12), 13, 14)
             if c <= 2 or c >= 15 or any(row[c] != "" for row in every)]
    rows = [[row[c] for c in order] for row in every]
    out = [_table([SCORE_HEADERS[c] for c in order], rows, text_cols=3, css="scores")]
    notes = [f"{name}: {n}" for s, name in zip(game.scores, row_names(game), strict=True)
             for n in s.notes]
    explained = difference_lines(game.differences)
    if explained or notes:
        out.append("<h3>Why the rows differ</h3>" + nested_list(explained + notes,
                                                                 css="explanations"))
    elif len(game.asked_scores) > 1:
        out.append("<p>Every ruleset gives the same margin.</p>")
    shown = [f for f in game.findings if f.severity.value != "info"]
    if shown:
        out.append("<h3>Findings</h3>" + _findings_list(shown))
    return out


def _file_errors(path: str, findings: list[Finding]) -> list[str]:
    """A file's own error findings (unreadable, syntax...), one box each."""
    return [_verdict_box("errors", f"{esc(path)}: {esc(f.code.code)} {esc(f.message)}")
            for f in findings if f.is_error]


def score_page(reports: Sequence[FileScore], title: str = "sgfcheck score") -> str:
    """``score --format html``: every game of every file."""
    body: list[str] = []
    for report in reports:
        body.extend(_file_errors(report.path, report.check.findings))
        for game in report.games:
            body.extend(score_game_html(report.path, game))
    return _page(title, body)


MAX_BOARDS = 200
"""``check --format html`` draws at most this many illegal moves on their boards, over the whole
page; the rest are listed (a record of thousands of illegal moves would make a page of hundreds
of megabytes)."""


def check_game_html(path: str, report: GameReport, boards: int = MAX_BOARDS) -> list[str]:
    """One game of ``check --format html``: the verdict, each illegal move on its board (the
    first ``boards``; the others listed) with its verdict under every preset (``--all-rules``),
    the findings."""
    out = [f"<h2>{esc(_game_title(path, report))}</h2>"]
    context = report.context
    head = f"<b>{esc(report.verdict.value.upper())}</b>"
    if context is not None:
        head += f" under {esc(context.ruleset.name)} ({esc(context.rules_detail)})"
    out.append(_verdict_box(report.verdict.value, head))
    by_move = {row.move: row for row in report.all_rules or []}
    illegal = report.illegal_moves
    if illegal:
        drawn, listed = illegal[:max(0, boards)], illegal[max(0, boards):]
        if listed:
            out.append(f"<p class=\"note\">{len(drawn)} of the {len(illegal)} illegal moves are "
                       f"drawn (a page draws at most {MAX_BOARDS} boards); the other "
                       f"{len(listed)} are listed after the boards, and every one is among the "
                       "findings.</p>")
        out.append('<div class="boards">')
        pictures: list[Picture] = []
        for f in drawn:
            scene = report.scene(f)
            caption = (f"move {f.move}: {f.colour.word if f.colour else '?'} "
                       f"{f.point or ''}, {f.code.rule}")
            picture = illegal_move_picture(scene, report.line) if scene is not None else None
            svg = render_svg(picture, style=False) if picture is not None else ""
            if picture is not None:
                pictures.append(picture)
            out.append(f'<figure class="board illegal-move" data-move="{f.move}">{svg}'
                       f"<figcaption>{esc(caption)}</figcaption></figure>")
        out.append("</div>")
        out.append(legend_html(pictures))
        if listed:
            out.append("<h3>Not drawn</h3>" + _table(
                ["move", "colour", "point", "rule"],
                [[f.move, f.colour.word if f.colour else "", f.point or "", f.code.rule]
                 for f in listed], text_cols=4, css="not-drawn"))
    if by_move:
        presets = sorted({name for row in by_move.values() for name in row.verdicts})
        rows: list[list[object]] = []
        for move, row in sorted(by_move.items()):
            rows.append([move, row.colour.word if row.colour else "", row.point or "",
                         *[", ".join(row.verdicts.get(p, [])) or "legal" for p in presets]])
        out.append("<h3>Each illegal move under every preset</h3>")
        out.append(_table(["move", "colour", "point", *presets], rows, text_cols=3 + len(presets),
                          css="all-rules"))
    out.append("<h3>Findings</h3>" + (_findings_list(report.findings) or "<p>none</p>"))
    return out


def check_page(reports: Sequence[FileReport], title: str = "sgfcheck check") -> str:
    """``check --format html``: every game of every file."""
    body: list[str] = []
    drawn = 0
    for report in reports:
        body.extend(_file_errors(report.path, report.findings))
        for game in report.games:
            body.extend(check_game_html(report.path, game, MAX_BOARDS - drawn))
            drawn += min(len(game.illegal_moves), max(0, MAX_BOARDS - drawn))
    return _page(title, body)


@dataclass
class ProblemGame:
    """A game of a batch worth a look (illegal moves, errors, a result that does not match),
    with what its detail on the page shows (small: it crosses process boundaries)."""

    label: str
    verdict: str
    result: str
    result_check: str
    reason: str
    basis: str
    illegal: list[str]
    findings: list[str] = field(default_factory=list)
    svg: str = ""
    caption: str = ""
    legend: str = ""
    """The legend of its board (the marks it has), as HTML."""
    view: str = ""
    """A link to the game's page (``sgfcheck view``), written beside the batch page."""
    count: str = ""
    """The count the verdict on RE was reached on, with its ruleset and komi (``B+3.5 under
    japanese with komi 6.5``); empty where nothing was counted."""

    @property
    def rank(self) -> int:
        """How severe: 0 illegal moves or errors, 1 a result that does not match, 2 the rest
        (:data:`LAST_RANK`: an unverifiable result)."""
        if self.verdict in ("illegal moves", "errors"):
            return 0
        return 1 if self.result_check == CheckStatus.MISMATCH.value else LAST_RANK


LAST_RANK = 2
"""The rank of problem games a page may leave out (:attr:`ProblemGame.rank`)."""


def problem_game(label: str, game: GameScore, board: bool = True) -> ProblemGame | None:
    """The problem detail of a scored game, or None when the game is fine; ``board``: with the
    picture of its illegal move or its count."""
    rc = game.result_check
    status = rc.status if rc is not None else CheckStatus.NOT_SCORED
    verdict = game.verdict.value
    if verdict in ("clean", "warnings") and status not in (CheckStatus.MISMATCH,
                                                           CheckStatus.UNVERIFIABLE):
        return None
    check = game.check
    illegal = [f"move {f.move} {f.point or ''} {f.code.rule}" for f in check.illegal_moves]
    findings = [f"{f.code.code} {f.code.rule}: " + (f"move {f.move}: " if f.move else "")
                + f.message for f in game.findings if f.severity.value != "info"][:20]
    svg, caption, legend = "", "", ""
    if not board:
        pass
    elif check.illegal_moves:
        scene = check.scene(check.illegal_moves[0])
        if scene is not None:
            picture = illegal_move_picture(scene, check.line)
            svg, caption = render_svg(picture, style=False), picture.title
            legend = legend_html([picture])
    elif game.scores and game.position is not None:
        picture = scored_picture(game, game.scores[0])
        svg, caption = render_svg(picture, style=False), picture.title
        legend = legend_html([picture])
    basis = ""
    if rc is not None and status is not CheckStatus.NOT_SCORED:
        basis = basis_text(rc, game.dead)
    count = ""
    if rc is not None and rc.computed:
        count = rc.computed + (f" under {rc.reading}" if rc.reading else "")
    return ProblemGame(label, verdict, check.game.result_raw or "", status.value,
                       reason_of(game), basis, illegal, findings, svg,
                       caption, legend=legend, count=count)


def batch_page(summary: Summary, problems: list[ProblemGame], more: int = 0,
               title: str = "sgfcheck batch") -> str:
    """``batch --html``: the summary, a table of problem games (sort by a click on a heading,
    filter by typing), each linking to its detail with a board."""
    body = ["<h2>Summary</h2>",
            _table(["", "count"], [["- " + k.strip() if k.startswith(" ") else k, v]
                                   for k, v in summary_rows(summary)], css="summary")]
    body.extend(f"<p class=\"note\">{esc(note)}</p>" for note in summary.notes)
    if summary.problems:
        body.append("<h3>Not read</h3><ul>" + "".join(f"<li>{esc(p)}</li>"
                                                     for p in summary.problems) + "</ul>")
    body.append(f"<h2>Problem games ({len(problems) + more})</h2>")
    body.append("<p>Most severe first: illegal moves and errors, then results that do not "
                "match, then the rest.</p>")
    if more:
        body.append(f"<p>{len(problems)} are shown, every illegal-move, error and mismatch game "
                    f"among them; {more} more (unverifiable results, games not checked) are in "
                    "the report file.</p>")
    bare = sum(1 for p in problems if not p.svg)
    if bare:
        body.append(f"<p>{bare} are shown without a board (nothing to draw, beyond the first "
                    "500 boards, or checked by an earlier run without --html).</p>")
    if problems:
        body.append('<input class="filter" type="search" data-table="problems" '
                    'placeholder="Filter: type words (mismatch, ko, a file name...)" '
                    'aria-label="Filter the problem games">')
        rows: list[list[object]] = []
        for i, p in enumerate(problems):
            page = Raw(f'<a class="view" href="{esc(p.view)}">step through</a>') if p.view \
                else ""
            rows.append([Raw(f'<a href="#game-{i + 1}">{esc(p.label)}</a>'), p.verdict,
                         p.result, p.result_check, p.count, "; ".join(p.illegal), page])
        body.append(_table(["game", "verdict", "RE", "RE check", "counted (rules, komi)",
                            "illegal moves", "page"], rows,
                           text_cols=7, css="sortable problems", table_id="problems"))
        for i, p in enumerate(problems):
            body.append(f'<section class="problem" id="game-{i + 1}">'
                        f"<h3>{esc(p.label)}</h3>")
            check = f"RE {esc(p.result or 'none')}: {esc(p.result_check)}"
            if p.reason:
                check += f" - {esc(p.reason)}"
            if p.verdict in ("clean", "warnings"):  # the problem is the result: it leads
                text = f"<b>{check}</b><br>moves: {esc(p.verdict)}"
            else:
                text = f"<b>{esc(p.verdict.upper())}</b>; {check}"
            if p.count:
                text += f"<br>counted: {esc(p.count)}"
            if p.basis:
                text += f"<br>rests on: {esc(p.basis)}"
            body.append(_verdict_box(p.result_check if p.verdict in ("clean", "warnings")
                                     else p.verdict, text))
            if p.svg:
                body.append(f'<div class="boards"><figure class="board">{p.svg}'
                            f"<figcaption>{esc(p.caption)}</figcaption></figure></div>"
                            + p.legend)
            if p.findings:
                body.append("<ul>" + "".join(f"<li>{esc(f)}</li>" for f in p.findings) + "</ul>")
            if p.view:
                body.append(f'<p><a class="view" href="{esc(p.view)}">Step through the game, '
                            "every ruleset's verdict on each move</a></p>")
            body.append('<p><a href="#problems">back to the table</a></p></section>')
    else:
        body.append("<p>None: every game is clean and every scored result matches.</p>")
    return _page(title, body, script=bool(problems))
