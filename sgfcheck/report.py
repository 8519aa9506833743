"""Reports: human tables (tabulate) and JSON for checked files."""

from __future__ import annotations

import json
from typing import Any

from tabulate import tabulate

from sgfcheck.check import FileReport, GameReport
from sgfcheck.findings import Finding, Severity
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


def render_json(report: FileReport) -> str:
    return json.dumps(report.to_dict(), ensure_ascii=False)
