"""Reports: human tables (tabulate) and JSON for checked files."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from tabulate import tabulate

from sgfcheck.adjudicate import FileScore, GameLife, GameScore
from sgfcheck.check import FileReport, GameReport
from sgfcheck.findings import Finding, Severity
from sgfcheck.life import status_diagram
from sgfcheck.points import point_name
from sgfcheck.rules import PRESETS


def _finding_rows(findings: list[Finding], verbose: bool) -> list[list[Any]]:
    rows = []
    for f in findings:
        if f.severity is Severity.INFO and not verbose:
            continue
        rows.append([
            f.move if f.move is not None else "",
            f.colour or "",
            f.point or "",
            f.code.code,
            (f.severity.value if f.severity else ""),
            f.code.rule,
            f.message,
        ])
    return rows


_HEADERS = ["move", "colour", "point", "code", "severity", "rule", "message"]


def game_verdict_line(path: str, game: GameReport) -> str:
    g = game.game
    parts = [f"{path} game {g.index + 1}: {game.verdict.upper()}"]
    illegal = game.illegal_moves
    if illegal:
        counts: dict[str, int] = {}
        for f in illegal:
            counts[f.code.rule] = counts.get(f.code.rule, 0) + 1
        parts[0] += " (" + ", ".join(f"{n} {rule}" for rule, n in counts.items()) + ")"
    if game.rules is not None:
        r = game.rules
        origin = f"RU[{g.rules_raw}]" if r.source == "RU" else r.source
        parts.append(f"rules {r.ruleset.name} ({origin}), komi {r.ruleset.komi:g}")
    parts.append(f"{g.width}x{g.height}")
    if game.replay is not None:
        parts.append(f"{game.replay.moves} moves")
    if g.handicap:
        parts.append(f"handicap {g.handicap}")
    if g.result_raw is not None:
        parts.append(f"RE[{g.result_raw}]")
    return ", ".join(parts)


def render_text(report: FileReport, verbose: bool = False) -> str:
    out: list[str] = []
    loaded = report.loaded
    if report.unreadable:
        out.append(f"{report.path}: UNREADABLE")
    elif loaded.encoding_guessed:
        out.append(f"{report.path}: encoding {loaded.encoding} (guessed)")
    rows = _finding_rows(report.findings, verbose)
    if rows:
        out.append(tabulate(rows, headers=_HEADERS, tablefmt="simple"))
    for game in report.games:
        out.append(game_verdict_line(report.path, game))
        rows = _finding_rows(game.findings, verbose)
        if rows:
            out.append(tabulate(rows, headers=_HEADERS, tablefmt="simple"))
        if game.all_rules is not None:
            out.append(render_all_rules(game.all_rules))
    return "\n".join(out)


def render_all_rules(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "every move is legal under every preset (" + ", ".join(PRESETS) + ")"
    table = []
    for row in rows:
        cells = [row["move"], row["colour"] or "", row["point"] or ""]
        for name in PRESETS:
            rules = row["verdicts"][name]
            cells.append(", ".join(rules) if rules else "legal")
        table.append(cells)
    return "Verdict under each ruleset:\n" + tabulate(
        table, headers=["move", "colour", "point", *PRESETS], tablefmt="simple"
    )


def json_text(obj: Any) -> str:
    """JSON on one line. Characters that some readers take for line ends (U+0085, U+2028,
    U+2029) are escaped, so that one object is exactly one line for every reader."""
    text = json.dumps(obj, ensure_ascii=False)
    for ch in ("\u0085", "\u2028", "\u2029"):
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text


def jsonl_line(obj: Any) -> str:
    return json_text(obj) + "\n"


def render_json(report: FileReport) -> str:
    return json_text(report.to_dict())


# --- scores ------------------------------------------------------------------------------------

_SCORE_HEADERS = ["ruleset", "method", "colour", "empty", "to fill", "seki", "stones",
                  "prisoners", "dead", "pass stones", "tax", "komi", "handicap", "bonus", "total",
                  "result"]


def score_rows(game: GameScore) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for score in game.scores:
        for colour, side in (("B", score.black), ("W", score.white)):
            rows.append([
                score.ruleset.name if colour == "B" else "",
                score.method if colour == "B" else "",
                colour,
                side.empty,
                -side.must_fill or "",
                -side.seki_excluded or "",
                side.stones or "",
                side.prisoners or "",
                side.dead or "",
                side.pass_stones or "",
                -side.tax or "",
                f"{side.komi:g}" if side.komi else "",
                side.handicap_bonus or "",
                f"{side.pass_bonus:g}" if side.pass_bonus else "",
                f"{side.total:g}",
                score.result_text if colour == "B" else "",
            ])
    return rows


def render_score_text(report: FileScore, markdown: bool = False) -> str:
    out: list[str] = []
    fmt = "github" if markdown else "simple"
    for f in report.check.findings:
        if f.is_error:
            out.append(f"{report.path}: {f.code.code} {f.message}")
    if report.check.unreadable:
        out.append(f"{report.path}: UNREADABLE")
    for game in report.games:
        g = game.check.game
        title = f"{report.path} game {g.index + 1}"
        if markdown:
            out.append(f"### {title}")
        else:
            out.append(title)
        if game.error:
            out.append(f"  not scored: {game.error}")
            continue
        for f in game.check.findings:
            if f.is_error:
                out.append(f"  {f.code.code} {f.code.rule}: {f.message}")
        rules = game.check.rules
        assert rules is not None and game.dead is not None and game.position is not None
        where = "final position" if game.scored_move == (game.check.replay.moves
                                                         if game.check.replay else 0) \
            else f"position after move {game.scored_move}"
        out.append(f"{where}; game rules {rules.ruleset.name} ({rules.detail}), komi "
                   f"{rules.ruleset.komi:g}, handicap {g.handicap}")
        board = game.position.board
        dead = game.dead.names(board)
        out.append(f"dead stones ({game.dead.source}): " + (", ".join(dead) if dead else "none"))
        for note in game.dead.notes:
            out.append(f"  {note}")
        seki = sorted(p for c in (1, 2) for p in game.position.seki_empty[c])
        if seki:
            out.append("points in seki: " + ", ".join(
                point_name(board.point(p), board.height) for p in seki))
        fill = sorted(p for c in (1, 2) for p in game.position.must_fill[c])
        if fill:
            out.append("points still to fill (false eyes, protective moves): " + ", ".join(
                point_name(board.point(p), board.height) for p in fill))
        out.append(tabulate(score_rows(game), headers=_SCORE_HEADERS, tablefmt=fmt))
        for score in game.scores:
            for note in score.notes:
                out.append(f"{score.ruleset.name}: {note}")
        if game.explanations:
            out.append("Why the rows differ:" if not markdown else "**Why the rows differ:**")
            out.extend(f"- {line}" if not line.startswith("  ") else f"  {line.strip()}"
                       for line in game.explanations)
        elif len(game.scores) > 1:
            out.append("Every ruleset gives the same margin.")
        rc = game.result_check
        if rc is not None:
            out.append(f"RE check ({game.scores[0].ruleset.name}): {rc.status.upper()} - "
                       f"{rc.reason}")
    return "\n".join(out)


def render_score_json(report: FileScore) -> str:
    return json_text(report.to_dict())


def render_score_csv(reports: list[FileScore]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["file", "game", "ruleset", "method", "colour", "empty", "to_fill", "seki",
                     "stones", "prisoners", "dead", "pass_stones", "tax", "komi",
                     "handicap_bonus", "pass_bonus", "total", "margin", "winner",
                     "result_check"])
    for report in reports:
        for game in report.games:
            rc = game.result_check.status if game.result_check else ""
            for score in game.scores:
                for colour, side in (("B", score.black), ("W", score.white)):
                    writer.writerow([
                        report.path, game.check.game.index + 1, score.ruleset.name,
                        score.method, colour, side.empty, side.must_fill, side.seki_excluded,
                        side.stones, side.prisoners, side.dead, side.pass_stones, side.tax,
                        side.komi, side.handicap_bonus, side.pass_bonus, side.total,
                        score.margin, score.winner or "draw", rc,
                    ])
    return buffer.getvalue()


# --- life ----------------------------------------------------------------------------------------


def render_life_text(path: str, checked: FileReport, games: list[GameLife]) -> str:
    out: list[str] = []
    if checked.unreadable:
        out.append(f"{path}: UNREADABLE")
        for f in checked.findings:
            out.append(f"  {f.code.code} {f.message}")
    for game in games:
        out.append(f"{path} game {game.check.game.index + 1}, position after move {game.move}")
        for f in game.check.findings:
            if f.code.code.startswith("LIF"):
                out.append(f"  {f.code.code} {f.message}")
        if game.error or game.board is None:
            out.append(f"  not judged: {game.error}")
            continue
        source = game.dead.source if game.dead is not None else "none"
        why = {"none": " (nothing known: only unconditional life and death are decided)",
               "benson": " (nothing known: only unconditional life and death are decided)",
               "estimate": " (an estimate from the position, not the players' word)"}
        out.append(f"dead stones from: {source}{why.get(source, '')}")
        out.append(status_diagram(game.board, game.chains))
        out.append("X O alive, x o dead, X= O= seki, X? O? uncertain (estimate) or unknown")
        rows = []
        for chain in sorted(game.chains, key=lambda c: (c.status == "alive", c.points[0])):
            if chain.status == "alive" and chain.source != "benson" and not (
                    chain.source == "estimate" and (chain.confidence or 0) < 0.9):
                continue
            shown = ", ".join(chain.points[:8]) + (" ..." if len(chain.points) > 8 else "")
            conf = "" if chain.confidence is None else f"{chain.confidence:g}"
            rows.append([chain.colour, chain.status, chain.source, conf, len(chain.points), shown])
        if rows:
            out.append(tabulate(rows, headers=["colour", "status", "source", "confidence",
                                               "stones", "points"], tablefmt="simple"))
        counts: dict[str, int] = {}
        for chain in game.chains:
            counts[chain.status] = counts.get(chain.status, 0) + 1
        out.append("chains: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    return "\n".join(out)
