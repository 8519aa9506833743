"""The game page (``sgfcheck view``): one self-contained HTML page to step through a game move by
move, with every ruleset's verdict on each move and the count at the end.

Everything the page shows is computed by sgfcheck's own rules core (the game's story,
:mod:`sgfcheck.replay.scenes`; its count, :mod:`sgfcheck.scoring.adjudicate`) and embedded here
as data: the position after every move (as the stones each move adds and removes), the
prisoners, each node's comment, the findings of the move, each ruleset's verdict on it (with
the reason in words, from the replay under that ruleset), and at the end each ruleset's count,
drawn as that ruleset counts it (territory, seki points, points to fill, dead stones). The page's
script only draws that data: it knows no rule of Go.

The data sits in a ``<script type="application/json">`` block with ``<``, ``>`` and ``&``
escaped, and the script writes every text from the record with ``textContent``: nothing from the
record runs. Nothing is fetched from the network.
"""

from __future__ import annotations

import json
from typing import Any

from sgfmill import sgf_grammar

from sgfcheck.escaping import visible
from sgfcheck.findings import Finding
from sgfcheck.output.html import LEGEND, esc, score_summary_html, score_table_html
from sgfcheck.output.scores import answer_line
from sgfcheck.points import gtp_column, point_names
from sgfcheck.records.lines import Move, Node
from sgfcheck.replay.check import GameReport
from sgfcheck.replay.story import Story
from sgfcheck.rules.presets import PRESETS
from sgfcheck.scoring.gamescore import GameScore
from sgfcheck.version import VERSION

OWN = "the game's rules"
"""The switcher's first entry: the rules the game was played under (its RU, or --rules)."""

RULE_WORDS = {
    "occupied point": "the point is already occupied",
    "suicide": "the stone (and the chain it joins) would have no liberty and captures nothing",
    "simple ko": "it retakes a ko at once, recreating the position before the opponent's move",
    "positional superko": "it recreates a whole-board position seen earlier in the game",
    "situational superko": "it recreates a whole-board position seen earlier with the same "
                           "player to move",
    "natural situational superko": "it recreates, by a move on the board (not a pass), a "
                                   "position seen earlier with the same player to move",
    "long cycle": "the position repeats in a cycle of moves (triple ko, eternal life): under "
                  "these rules the game has no result or is replayed, the move itself is not "
                  "forbidden",
}
"""Each rule a move can break, in words (the page's reasons for the presets)."""


def _comment(node: Node | None) -> str:
    if node is None or "C" not in node:
        return ""
    return visible(sgf_grammar.text_value(node["C"][0]).decode("utf-8", "replace"))


def _finding(f: Finding) -> dict[str, Any]:
    return {"code": f.code.code, "severity": f.severity.value, "message": visible(f.message)}


def page_data(report: GameReport, scored: GameScore, story: Story) -> dict[str, Any]:
    """Everything the page draws, as plain data (see the module's text)."""
    record = report.game
    line = report.line if report.line is not None else record.main_line()
    assert report.context is not None
    own = report.context.ruleset
    width, height = record.width, record.height
    nodes: list[Node] = (list(sgf_grammar.main_sequence_iter(record.tree))
                         if record.tree is not None and not any(line.variation) else [])
    names = point_names(width, height)

    moves: list[dict[str, Any]] = []
    by_move: dict[int, list[Finding]] = {}
    for f in report.findings:
        if f.move is not None:
            by_move.setdefault(f.move, []).append(f)
    for (number, event), step in zip(line.numbered_moves(), story.steps, strict=True):
        moves.append({
            "colour": event.colour.letter,
            "point": _move_point(event, width, height, names),
            "at": _move_index(event, width, height),
            "add": step.added, "remove": step.removed,
            "prisoners": step.prisoners,
            "comment": _comment(nodes[event.node] if 0 <= event.node < len(nodes) else None),
            "findings": [_finding(f) for f in by_move.get(number, [])],
        })

    rulesets = [OWN] + list(PRESETS)
    illegal: dict[str, dict[int, list[list[str]]]] = {}
    # Each preset's verdict on every move some preset forbids (check --all-rules' table).
    for row in story.verdicts:
        for name, rules in row.verdicts.items():
            if rules:
                illegal.setdefault(name, {})[row.move] = [[rule, RULE_WORDS.get(rule, rule)]
                                                          for rule in rules]
    own_rules = {m: [[f.code.rule, visible(f.message)] for f in fl
                     if f.is_illegal or f.code.rule == "long cycle"]
                 for m, fl in by_move.items()}
    illegal[OWN] = {m: v for m, v in own_rules.items() if v}

    end: dict[str, Any] | None = None
    if scored.position is not None and scored.dead is not None and not scored.error:
        counts = {}
        for score in scored.asked_scores:
            counted = scored.counted(score)
            counts[score.ruleset.name] = {
                "territory": [[p, int(c)] for p, c in sorted(counted.territory.items())],
                "seki": sorted(counted.seki), "fill": sorted(counted.fill),
                "result": score.result_text, "method": score.method.value}
        counts.setdefault(OWN, counts.get(own.name, {}))
        end = {"dead": sorted(scored.dead.points),
               "uncertain": sorted(p for c in scored.dead.uncertain for p in c.stones),
               "source": scored.dead.source.value, "counts": counts,
               "own": scored.scores[0].ruleset.name if scored.scores else own.name}
    info = record.info
    return {
        "version": VERSION,
        "size": [width, height], "names": names, "start": story.start,
        "startColours": story.start_colours,
        "startComment": _comment(nodes[0] if nodes else None),
        "moves": moves, "rulesets": rulesets, "own": own.name, "illegal": illegal,
        "columns": [gtp_column(c) for c in range(record.width)],
        "end": end,
        "players": [visible(info.get("PB", "")), visible(info.get("PW", ""))],
        "result": visible(record.result_raw or ""),
    }


def _move_point(event: Move, width: int, height: int, names: tuple[str, ...]) -> str:
    if event.point is None:
        return "pass"
    at = _move_index(event, width, height)
    return names[at] if at >= 0 else "off the board"


def _move_index(event: Move, width: int, height: int) -> int:
    if event.point is None:
        return -1
    col, row = event.point
    return row * width + col if 0 <= col < width and 0 <= row < height else -1


def _json_for_html(data: dict[str, Any]) -> str:
    """JSON that cannot close the script element it sits in."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def game_page(path: str, report: GameReport, scored: GameScore, story: Story) -> str:
    """The whole page (see the module's text): the game as ``story`` tells it
    (:func:`sgfcheck.replay.story.story_of`), its count as ``scored`` has it."""
    data = page_data(report, scored, story)
    record = report.game
    black, white = data["players"]
    title = f"{black or 'Black'} vs {white or 'White'}"
    if data["result"]:
        title += f", {data['result']}"
    end_html = "\n".join(score_summary_html(scored) + score_table_html(scored)) \
        if data["end"] is not None else "<p>Not scored.</p>"
    body = f"""<header><h1>{esc(title)}</h1>
<p class="file">{esc(path)}, game {record.index + 1}: {len(data['moves'])} moves,
{record.width}x{record.height}, rules {esc(data['own'])}</p>
{_answer_html(report, scored)}</header>
<main>
<section class="boardpane">
<div id="board" role="img" aria-label="the board"></div>
<div class="controls">
<button id="first" title="first (Home)">|&lt;</button>
<button id="back" title="back (Left arrow)">&#x25C0;</button>
<span id="count" aria-live="polite"></span>
<button id="forward" title="forward (Right arrow)">&#x25B6;</button>
<button id="last" title="last (End)">&gt;|</button>
<input id="slider" type="range" min="0" value="0" aria-label="move">
</div>
<div class="controls">
<button id="nextfinding">next finding</button>
<button id="nextillegal">next illegal move</button>
<label><input id="numbers" type="checkbox"> move numbers</label>
</div>
</section>
<section class="side">
<label>Ruleset <select id="ruleset"></select></label>
<p id="move"></p>
<p id="captures"></p>
<div id="illegal" class="verdict"></div>
<div class="scroll"><table id="presets"><thead><tr><th class="text">ruleset</th>
<th class="text">this move</th></tr></thead><tbody></tbody></table></div>
<ul id="findings"></ul>
<pre id="comment"></pre>
</section>
</main>
<section id="end" hidden>
<h2>The end of the game</h2>
<div class="scroll">{end_html}</div>
</section>
{LEGEND}
<p class="legend">On this page: the last move has a red ring; a red &#215; marks a move the chosen
ruleset forbids; at the end, the chosen ruleset's count is drawn (territory as small squares,
seki points as blue rings, points to fill as purple diamonds, dead stones faded).</p>
<footer>Made by sgfcheck {esc(VERSION)}: every position, verdict and count on this page was
computed by sgfcheck; the page only draws them. Self-contained: nothing is fetched.</footer>
<script type="application/json" id="data">{_json_for_html(data)}</script>
<script>{SCRIPT}</script>"""
    return "\n".join(["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">',
                      f"<title>{esc(title)}</title>", f"<style>{STYLE}</style>", "</head>",
                      "<body>", body, "</body>", "</html>", ""])


def _answer_html(report: GameReport, scored: GameScore) -> str:
    """The verdict on RE, in view when the page opens, with buttons to the end of the game
    (where the count is drawn) and to the first illegal move under the game's rules."""
    rc = scored.result_check
    status = rc.status.value if rc is not None else "not-scored"
    answer = answer_line(scored).removeprefix("answer: ")
    illegal = report.illegal_moves
    buttons = ['<button id="toend">the end of the game: the count</button>']
    if illegal and illegal[0].move is not None:
        buttons.append(f'<button id="toillegal" data-move="{illegal[0].move}">the first illegal '
                       f"move (move {illegal[0].move}, {len(illegal)} in all)</button>")
    return (f'<div class="verdict {esc(status.replace(" ", "-"))}" id="answer">'
            f"<b>{esc(answer)}</b><div class=\"controls\">{''.join(buttons)}</div></div>")


STYLE = """
*{box-sizing:border-box}
body{font:15px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;padding:8px;color:#1b1b1b}
h1{font-size:1.2em;margin:.2em 0}
.file{margin:0 0 .4em;color:#555;overflow-wrap:anywhere}
main{display:grid;grid-template-columns:minmax(0,min(100vw,calc(100vh - 290px))) minmax(260px,1fr);
gap:12px;align-items:start}
@media (max-width:800px){main{grid-template-columns:1fr}}
#board svg{width:100%;height:auto;display:block;max-height:calc(100vh - 290px)}
.controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:6px 0}
.controls button{font:inherit;min-width:2.4em;padding:4px 8px}
#slider{flex:1;min-width:120px}
#count{min-width:6em;text-align:center;font-variant-numeric:tabular-nums}
.verdict{padding:6px 10px;border-radius:4px;margin:.5em 0;border:1px solid #bbb}
.verdict:empty{display:none}
.verdict.illegal,.verdict.mismatch{background:#fbe3e3;border-color:#c55}
.verdict.match{background:#e6f4e6;border-color:#6a6}
.verdict.unverifiable{background:#fff3d6;border-color:#c90}
.verdict.not-scored{background:#eef0f4}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{border:1px solid #bbb;padding:2px 6px;text-align:right;vertical-align:top}
td.text,th.text{text-align:left}
tr.chosen td{background:#fff7c2}
td.bad{color:#a00}
.scroll{overflow-x:auto;max-width:100%}
#comment{white-space:pre-wrap;font:inherit;background:#f6f6f6;padding:6px;margin:0}
#comment:empty{display:none}
.legend{font-size:.9em;color:#444}
.legend span{display:inline-block;margin-right:1em}
footer{margin-top:1.5em;font-size:.85em;color:#666}
svg .grid{stroke:#000;stroke-width:.04}
svg .hoshi{fill:#000}
svg .coord{font-size:.4px;fill:#333;text-anchor:middle;dominant-baseline:central}
svg .stone.black{fill:#111}
svg .stone.white{fill:#fafafa;stroke:#111;stroke-width:.04}
svg .stone.dead{opacity:.45}
svg .stone.uncertain{stroke:#e07000;stroke-dasharray:.1 .08;stroke-width:.07}
svg .last{fill:none;stroke:#d00;stroke-width:.08}
svg .illegal{stroke:#d00;stroke-width:.12}
svg .terr.black{fill:#111}
svg .terr.white{fill:#fff;stroke:#111;stroke-width:.04}
svg .seki{fill:none;stroke:#1565c0;stroke-width:.07}
svg .fill{fill:#8e24aa}
svg .num{font-size:.45px;text-anchor:middle;dominant-baseline:central}
svg .num.on-black{fill:#fff}
@media print{.controls,#ruleset,select,label{display:none}main{grid-template-columns:1fr}
#board svg{max-height:none}#end{display:block !important}}
"""

SCRIPT = r"""
(function(){
"use strict";
var D = JSON.parse(document.getElementById("data").textContent);
var W = D.size[0], H = D.size[1], N = D.moves.length, NS = "http://www.w3.org/2000/svg";
// Positions and move numbers after every move, from the data's stones added and removed.
var pos = [], nums = [];
var p0 = new Array(W * H).fill(0), n0 = new Array(W * H).fill(0);
D.start.forEach(function(p, i){ p0[p] = D.startColours[i]; });
pos.push(p0); nums.push(n0);
D.moves.forEach(function(m, i){
  var p = pos[i].slice(), n = nums[i].slice();
  m.remove.forEach(function(q){ p[q] = 0; n[q] = 0; });
  m.add.forEach(function(a){ p[a[0]] = a[1]; });
  if (m.at >= 0) n[m.at] = i + 1;
  pos.push(p); nums.push(n);
});
function el(name, attrs, parent){
  var e = document.createElementNS(NS, name);
  for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function x(p){ return p % W + 1; }
function y(p){ return Math.floor(p / W) + 1; }
// A margin of .8 of a point each side: the coordinates stand clear of the edge stones.
var svg = el("svg", {viewBox: "-0.3 -0.3 " + (W + 1.6) + " " + (H + 1.6), "class": "goban"});
el("rect", {x: -0.3, y: -0.3, width: W + 1.6, height: H + 1.6, fill: "#dcb35c"}, svg);
for (var i = 1; i <= W; i++) el("line", {x1: i, y1: 1, x2: i, y2: H, "class": "grid"}, svg);
for (var j = 1; j <= H; j++) el("line", {x1: 1, y1: j, x2: W, y2: j, "class": "grid"}, svg);
for (var c = 0; c < W; c++) {
  el("text", {x: c + 1, y: 0.15, "class": "coord"}, svg).textContent = D.columns[c];
  el("text", {x: c + 1, y: H + 0.85, "class": "coord"}, svg).textContent = D.columns[c];
}
for (var r = 0; r < H; r++) {
  el("text", {x: 0.12, y: r + 1, "class": "coord"}, svg).textContent = String(H - r);
  el("text", {x: W + 0.88, y: r + 1, "class": "coord"}, svg).textContent = String(H - r);
}
function hoshi(n){ if (n < 7) return []; var e = n >= 13 ? 3 : 2;
  var s = [e, n - 1 - e]; if (n % 2 && n >= 9) s.push((n - 1) / 2); return s; }
if (W === H) hoshi(W).forEach(function(a){ hoshi(H).forEach(function(b){
  el("circle", {cx: a + 1, cy: b + 1, r: 0.1, "class": "hoshi"}, svg); }); });
// The marks above the stones: a dead stone's point shows its owner's square over the faded
// stone, as the diagrams (SVG, PNG) draw it.
var stones = el("g", {"class": "stones"}, svg), marks = el("g", {"class": "marks"}, svg);
var over = el("g", {"class": "over"}, svg);
document.getElementById("board").appendChild(svg);
var stoneAt = {}, current = -1, shown = new Array(W * H).fill(0);
var select = document.getElementById("ruleset");
D.rulesets.forEach(function(name){
  var o = document.createElement("option"); o.value = name;
  o.textContent = name === "the game's rules" ? name + " (" + D.own + ")" : name;
  select.appendChild(o);
});
function ruleset(){ return select.value; }
function setStone(p, colour){
  var old = stoneAt[p];
  if (old) { old.remove(); delete stoneAt[p]; }
  if (colour) stoneAt[p] = el("circle", {cx: x(p), cy: y(p), r: 0.47,
    "class": "stone " + (colour === 1 ? "black" : "white"), "data-point": D.names[p]}, stones);
}
function drawOver(n){
  while (over.firstChild) over.removeChild(over.firstChild);
  while (marks.firstChild) marks.removeChild(marks.firstChild);
  var p = pos[n];
  if (document.getElementById("numbers").checked) nums[n].forEach(function(k, q){
    if (k && p[q]) el("text", {x: x(q), y: y(q), "class": "num" + (p[q] === 1 ? " on-black" : "")},
                      over).textContent = String(k);
  });
  if (n > 0) {
    var m = D.moves[n - 1];
    if (m.at >= 0 && p[m.at])
      el("circle", {cx: x(m.at), cy: y(m.at), r: 0.28, "class": "last"}, over);
    var bad = (D.illegal[ruleset()] || {})[n];
    if (bad && m.at >= 0) {
      var cx = x(m.at), cy = y(m.at);
      el("line", {x1: cx - .3, y1: cy - .3, x2: cx + .3, y2: cy + .3, "class": "illegal"}, over);
      el("line", {x1: cx - .3, y1: cy + .3, x2: cx + .3, y2: cy - .3, "class": "illegal"}, over);
    }
  }
  Object.keys(stoneAt).forEach(function(q){ stoneAt[q].classList.remove("dead", "uncertain"); });
  if (n === N && D.end) {
    var counts = D.end.counts[ruleset()] || D.end.counts[D.end.own] || {};
    D.end.dead.forEach(function(q){ if (stoneAt[q]) stoneAt[q].classList.add("dead"); });
    D.end.uncertain.forEach(function(q){ if (stoneAt[q]) stoneAt[q].classList.add("uncertain"); });
    (counts.territory || []).forEach(function(t){
      el("rect", {x: x(t[0]) - .16, y: y(t[0]) - .16, width: .32, height: .32,
        "class": "terr " + (t[1] === 1 ? "black" : "white"), "data-point": D.names[t[0]]}, marks);
    });
    (counts.seki || []).forEach(function(q){
      el("circle", {cx: x(q), cy: y(q), r: .2, "class": "seki", "data-point": D.names[q]},
         marks); });
    (counts.fill || []).forEach(function(q){
      el("path", {d: "M" + x(q) + " " + (y(q) - .2) + "l.2 .2l-.2 .2l-.2 -.2z", "class": "fill",
        "data-point": D.names[q]}, marks); });
  }
}
function text(id, value){ document.getElementById(id).textContent = value; }
function show(n){
  n = Math.max(0, Math.min(N, n));
  var p = pos[n];
  for (var q = 0; q < W * H; q++) if (shown[q] !== p[q]) { setStone(q, p[q]); shown[q] = p[q]; }
  current = n;
  drawOver(n);
  text("count", n + " / " + N);
  document.getElementById("slider").value = n;
  var m = n > 0 ? D.moves[n - 1] : null;
  text("move", m ? "Move " + n + ": " + (m.colour === "B" ? "Black" : "White") + " " + m.point
    : "Start: " + (D.start.length ? D.start.length + " stones set up" : "empty board"));
  var pr = m ? m.prisoners : [0, 0];
  text("captures", "Captured: by Black " + pr[0] + ", by White " + pr[1]);
  text("comment", m ? m.comment : D.startComment);
  var box = document.getElementById("illegal"), bad = (D.illegal[ruleset()] || {})[n];
  box.className = "verdict" + (bad ? " illegal" : "");
  box.textContent = bad ? "Under " + select.options[select.selectedIndex].textContent + ": " +
    bad.map(function(b){ return b[0] + " - " + b[1]; }).join("; ") : "";
  var body = document.querySelector("#presets tbody");
  while (body.firstChild) body.removeChild(body.firstChild);
  D.rulesets.forEach(function(name){
    var tr = document.createElement("tr"), a = document.createElement("td");
    var b = document.createElement("td");
    var v = (D.illegal[name] || {})[n];
    a.className = "text"; b.className = "text" + (v ? " bad" : "");
    a.textContent = name === "the game's rules" ? name + " (" + D.own + ")" : name;
    b.textContent = n === 0 ? "" : v ? v.map(function(x){ return x[0]; }).join(", ") : "legal";
    if (name === ruleset()) tr.className = "chosen";
    tr.appendChild(a); tr.appendChild(b); body.appendChild(tr);
  });
  var list = document.getElementById("findings");
  while (list.firstChild) list.removeChild(list.firstChild);
  (m ? m.findings : []).forEach(function(f){
    var li = document.createElement("li");
    li.textContent = f.code + " (" + f.severity + "): " + f.message;
    list.appendChild(li);
  });
  document.getElementById("end").hidden = n !== N;
  if (history.replaceState) history.replaceState(null, "", link(n));
}
function link(n){
  var r = ruleset();
  return "#" + (r === D.rulesets[0] ? "" : "rules=" + encodeURIComponent(r) + "&") + "move=" + n;
}
function next(test){ for (var k = current + 1; k <= N; k++) if (test(k)) return show(k); }
document.getElementById("slider").max = N;
document.getElementById("slider").addEventListener("input", function(e){ show(+e.target.value); });
document.getElementById("first").onclick = function(){ show(0); };
document.getElementById("back").onclick = function(){ show(current - 1); };
document.getElementById("forward").onclick = function(){ show(current + 1); };
document.getElementById("last").onclick = function(){ show(N); };
document.getElementById("nextfinding").onclick = function(){
  next(function(k){ return D.moves[k - 1].findings.length > 0; }); };
document.getElementById("nextillegal").onclick = function(){
  next(function(k){ return !!(D.illegal[ruleset()] || {})[k]; }); };
document.getElementById("numbers").onchange = function(){ drawOver(current); };
select.onchange = function(){ show(current); };
document.addEventListener("keydown", function(e){
  if (e.target && e.target.tagName === "SELECT") return;
  var k = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: N,
           PageUp: current - 10, PageDown: current + 10}[e.key];
  if (k !== undefined) { e.preventDefault(); show(k); }
});
document.getElementById("toend").onclick = function(){ show(N); };
var toIllegal = document.getElementById("toillegal");
if (toIllegal) toIllegal.onclick = function(){ show(+toIllegal.dataset.move); };
// A link names a move and, if not the game's own, a ruleset: #rules=aga&move=120.
var asked = {};
location.hash.replace(/^#/, "").split("&").forEach(function(part){
  var kv = part.split("="); if (kv.length === 2) asked[kv[0]] = kv[1]; });
if (asked.rules !== undefined) {
  var want = decodeURIComponent(asked.rules);
  if (D.rulesets.indexOf(want) >= 0) select.value = want;
}
show(/^\d+$/.test(asked.move || "") ? +asked.move : 0);
window.sgfcheckView = {show: show, position: function(){ return pos[current]; },
                       current: function(){ return current; }, drawn: performance.now()};
})();
"""
