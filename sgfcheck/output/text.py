"""Reports for people: tables (tabulate), Markdown, board diagrams and the batch summary.

Everything here is presentation of library values; the JSON and CSV shapes are in
:mod:`sgfcheck.output.schema`. Text fits a width (the terminal's; ``None`` for ``--wide``): columns
empty in every row are left out, long messages wrapped (by tabulate), tables of many side-by-side
columns (rulesets) split into several that fit, and long lines wrapped.
"""

from __future__ import annotations

import csv
import io
import textwrap
from collections.abc import Sequence

from tabulate import tabulate

from sgfcheck.colour import BLACK, COLOURS
from sgfcheck.findings import Finding, Severity
from sgfcheck.output.schema import (
    SCORE_CSV_COLUMNS,
    file_report_dict,
    file_score_dict,
    json_text,
    score_csv_rows,
)
from sgfcheck.output.summary import Summary
from sgfcheck.points import gtp_column
from sgfcheck.records.context import Origin
from sgfcheck.replay.board import Board
from sgfcheck.replay.check import FileReport, GameReport, RulesetVerdicts
from sgfcheck.rules.presets import PRESETS
from sgfcheck.rules.ruleset import Ruleset, format_value
from sgfcheck.scoring.adjudicate import FileLife, FileScore, GameScore
from sgfcheck.scoring.life import ChainStatus
from sgfcheck.scoring.result_check import Basis, CheckStatus, ResultCheck
from sgfcheck.status import Source, Status

Cell = str | int | float


def _finding_rows(findings: list[Finding], verbose: bool) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    for f in findings:
        if f.severity is Severity.INFO and not verbose:
            continue
        rows.append([
            f.move if f.move is not None else "",
            f.colour.letter if f.colour else "",
            f.point or "",
            f.code.code,
            f.severity.value,
            f.code.rule,
            f.message,
        ])
    return rows


_HEADERS = ["move", "colour", "point", "code", "severity", "rule", "message"]


def game_verdict_line(path: str, game: GameReport) -> str:
    g = game.game
    parts = [f"{path} game {g.index + 1}: {game.verdict.value.upper()}"]
    illegal = game.illegal_moves
    if illegal:
        counts: dict[str, int] = {}
        for f in illegal:
            counts[f.code.rule] = counts.get(f.code.rule, 0) + 1
        parts[0] += " (" + ", ".join(f"{n} {rule}" for rule, n in counts.items()) + ")"
    if game.context is not None:
        c = game.context
        origin = f"RU[{g.rules_raw}]" if c.rules_origin is Origin.RECORD else c.rules_source
        parts.append(f"rules {c.ruleset.name} ({origin}), komi {c.komi:g}")
    parts.append(f"{g.width}x{g.height}")
    if game.replay is not None:
        parts.append(f"{game.replay.moves} moves")
    if g.handicap:
        parts.append(f"handicap {g.handicap}")
    if g.result_raw is not None:
        parts.append(f"RE[{g.result_raw}]")
    return ", ".join(parts)


def fit_table(rows: Sequence[Sequence[Cell]], headers: Sequence[str], width: int | None, *,
              wrap: int | None = None, keep: int = 0, numbers: Sequence[int] | None = None,
              fmt: str = "simple", spare: Sequence[int] = ()) -> str:
    """A table within ``width`` columns (``None``: as wide as it is). Columns empty in every
    row are left out; column ``wrap`` (the message) is wrapped to what the others leave;
    when even then it does not fit, the columns ``spare`` (what another column says too) are
    left out in turn; otherwise a table too wide is split into several, each with the first
    ``keep`` columns and as many of the others as fit. With ``numbers`` (the columns to
    right-align), tabulate does not try every cell as a number (on 100,000 findings that
    guessing took most of 10 s); without, it aligns numbers itself (decimal points under each
    other)."""
    cols = list(range(len(headers)))
    if width is not None:
        cols = [c for c in cols if c < keep or c == wrap or any(row[c] != "" for row in rows)]

    def render(chosen: list[int], wrap_to: int | None = None) -> str:
        table = [[row[c] for c in chosen] for row in rows]
        names = [headers[c] for c in chosen]
        wraps = [wrap_to if c == wrap else None for c in chosen]
        if numbers is None:
            return tabulate(table, headers=names, tablefmt=fmt, maxcolwidths=wraps)
        return tabulate(table, headers=names, tablefmt=fmt, disable_numparse=True,
                        colalign=["right" if c in numbers else "left" for c in chosen],
                        maxcolwidths=wraps)

    if width is None:
        return render(cols)
    # tabulate pads a header by two (MIN_PADDING) and puts two spaces between columns.
    sizes = {c: max([len(str(headers[c])) + 2] + [len(str(row[c])) for row in rows])
             for c in cols}
    if wrap is not None and wrap in cols:
        others = sum(sizes[c] + 2 for c in cols if c != wrap)
        for c in spare:
            if width - others >= 20:
                break
            if c in cols:
                cols.remove(c)
                others -= sizes[c] + 2
        left = width - others
        return render(cols, max(20, left) if left < sizes[wrap] else None)
    head = [c for c in cols if c < keep]
    tables: list[list[int]] = []
    used = sum(sizes[c] + 2 for c in head)
    for c in (c for c in cols if c >= keep):
        if not tables or used + sizes[c] > width:
            tables.append([])
            used = sum(sizes[k] + 2 for k in head)
        tables[-1].append(c)
        used += sizes[c] + 2
    return "\n\n".join(render(head + part) for part in tables or [[]])


def wrap_line(line: str, width: int | None, indent: str = "  ") -> str:
    """A line of text within ``width`` (continuation lines indented); as it is for ``None``,
    and for a block of several lines (a table, fitted by :func:`fit_table`)."""
    if width is None or len(line) <= width or "\n" in line:
        return line
    lead = line[: len(line) - len(line.lstrip())]
    return textwrap.fill(line, width, initial_indent="", subsequent_indent=lead + indent,
                         break_long_words=False, break_on_hyphens=False)


def _findings_table(rows: list[list[Cell]], width: int | None = None) -> str:
    """The findings table: the message wrapped to fit; the move column right-aligned when it
    holds numbers, as tabulate would do."""
    numbers = (0,) if any(isinstance(row[0], int) for row in rows) else ()
    return fit_table(rows, _HEADERS, width, wrap=len(_HEADERS) - 1, numbers=numbers,
                     spare=(5, 1))  # the rule (the code names it), the colour (the point)


def render_text(report: FileReport, verbose: bool = False, width: int | None = None) -> str:
    """The ``check`` report for people, within ``width`` columns (``None``: as wide as it is)."""
    out: list[str] = []
    loaded = report.loaded
    if report.unreadable:
        out.append(f"{report.path}: UNREADABLE")
    elif loaded.encoding_guessed:
        out.append(f"{report.path}: encoding {loaded.encoding} (guessed)")
    rows = _finding_rows(report.findings, verbose)
    if rows:
        out.append(_findings_table(rows, width))
    for game in report.games:
        out.append(wrap_line(game_verdict_line(report.path, game), width))
        rows = _finding_rows(game.findings, verbose)
        if rows:
            out.append(_findings_table(rows, width))
        if game.all_rules is not None:
            out.append(render_all_rules(game.all_rules, width))
    return "\n".join(out)


def render_all_rules(rows: list[RulesetVerdicts], width: int | None = None) -> str:
    if not rows:
        return wrap_line("every move is legal under every preset (" + ", ".join(PRESETS) + ")",
                         width)
    table: list[list[Cell]] = []
    for row in rows:
        cells: list[Cell] = [row.move, row.colour.letter if row.colour else "", row.point or ""]
        for name in PRESETS:
            rules = row.verdicts[name]
            cells.append(", ".join(rules) if rules else "legal")
        table.append(cells)
    return "Verdict under each ruleset:\n" + fit_table(
        table, ["move", "colour", "point", *PRESETS], width, keep=3, numbers=(0,))


def render_json(report: FileReport) -> str:
    return json_text(file_report_dict(report))


# --- scores ------------------------------------------------------------------------------------

SCORE_HEADERS = ["ruleset", "method", "colour", "empty", "must_fill", "seki_excluded", "stones",
                  "prisoners", "dead", "pass_stones", "tax", "komi", "handicap_bonus",
                  "pass_bonus", "total", "result"]
"""The components by their JSON names (:func:`sgfcheck.output.schema.side_dict`), as counts."""
_SUBTRACTED = "must_fill, seki_excluded and tax are taken from the total"


def score_rows(game: GameScore) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    for score in game.scores:
        for colour, side in score.sides():
            first = colour is BLACK
            rows.append([
                score.ruleset.name if first else "",
                score.method.value if first else "",
                colour.letter,
                side.empty,
                side.must_fill or "",
                side.seki_excluded or "",
                side.stones or "",
                side.prisoners or "",
                side.dead or "",
                side.pass_stones or "",
                side.tax or "",
                f"{side.komi:g}" if side.komi else "",
                side.handicap_bonus or "",
                f"{side.pass_bonus:g}" if side.pass_bonus else "",
                f"{side.total:g}",
                score.result_text if first else "",
            ])
    return rows


def render_score_text(report: FileScore, markdown: bool = False,
                      width: int | None = None) -> str:
    """The ``score`` report for people: text tables within ``width`` columns (``None``: as wide
    as they are), or CommonMark with GitHub tables (blocks apart: a list of facts, the table, a
    list of explanations, the RE check; never cut to a width)."""
    if markdown:
        width = None
    out: list[str] = []
    fmt = "github" if markdown else "simple"
    item, sub = ("- ", "  - ") if markdown else ("", "  ")
    for f in report.check.findings:
        if f.is_error:
            out.append(f"{report.path}: {f.code.code} {f.message}")
    if report.check.unreadable:
        out.append(f"{report.path}: UNREADABLE")
    for game in report.games:
        g = game.check.game
        title = f"{report.path} game {g.index + 1}"
        if markdown:
            out += ["", f"### {title}", ""]
        else:
            out.append(title)
        if game.error:
            out.append(f"  not scored: {game.error}")
            continue
        for f in game.findings:
            if f.is_error:
                out.append(f"  {f.code.code} {f.code.rule}: {f.message}")
        context = game.check.context
        assert context is not None and game.dead is not None and game.position is not None
        where = "final position" if game.scored_move == (game.check.replay.moves
                                                         if game.check.replay else 0) \
            else f"position after move {game.scored_move}"
        out.append(f"{item}{where}; game rules {context.ruleset.name} ({context.rules_detail}), "
                   f"komi {context.komi:g}, handicap {g.handicap}")
        board = game.position.board
        dead = game.dead.names(board)
        out.append(f"{item}dead stones ({game.dead.source}): "
                   + (", ".join(dead) if dead else "none"))
        for note in game.dead.notes:
            out.append(f"{sub}{note}")
        seki = sorted(p for c in COLOURS for p in game.position.seki_empty[c])
        if seki:
            out.append(f"{item}points in seki: " + ", ".join(board.name(p) for p in seki))
        fill = sorted(p for c in COLOURS for p in game.position.must_fill[c])
        if fill:
            out.append(f"{item}points still to fill (false eyes, protective moves): "
                       + ", ".join(board.name(p) for p in fill))
        rows = score_rows(game)
        if width is None:
            table = tabulate(rows, headers=SCORE_HEADERS, tablefmt=fmt)
        else:
            # Compact: the result, total and komi first (what a reader looks for), then the
            # components; the method goes with the ruleset's name (--wide, the JSON and
            # `sgfcheck rules` show it). A table too wide for the terminal spills its last
            # columns into a second one.
            order = [0, 2, 15, 14, 11, *range(3, 11), 12, 13]
            table = fit_table([[r[c] for c in order] for r in rows],
                              [SCORE_HEADERS[c] for c in order], width, keep=2)
        out += ["", table, ""] if markdown else [table]
        if any(s.must_fill or s.seki_excluded or s.tax for sc in game.scores
               for _, s in sc.sides()):
            out += [f"{item}{_SUBTRACTED}", ""] if markdown else [_SUBTRACTED]
        for score in game.scores:
            for note in score.notes:
                out.append(f"{item}{score.ruleset.name}: {note}")
        if game.explanations:
            out += ["**Why the rows differ:**", ""] if markdown else ["Why the rows differ:"]
            out.extend(f"- {line}" if not line.startswith("  ") else f"  {line.strip()}"
                       for line in game.explanations)
        elif len(game.scores) > 1:
            out.append("Every ruleset gives the same margin.")
        rc = game.result_check
        if rc is not None:
            head = f"RE check ({game.scores[0].ruleset.name}): {rc.status.value.upper()}"
            out += (["", f"**{head}** - {rc.reason}", ""] if markdown
                    else [f"{head} - {rc.reason}"])
            if rc.status is not CheckStatus.NOT_SCORED:
                out.append(f"{item or sub}rests on: " + basis_text(rc, game.dead.source))
            for a in rc.assumptions:
                out.append(f"{item or sub}assumed ({a.code.code}): {a.message}")
    return "\n".join(wrap_line(line, width) for line in out)


def render_score_json(report: FileScore) -> str:
    return json_text(file_score_dict(report))


def render_score_csv(reports: list[FileScore]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(SCORE_CSV_COLUMNS)
    for report in reports:
        writer.writerows(score_csv_rows(report))
    return buffer.getvalue()


_BASIS_WORDS = {
    Basis.MARKUP: "the players' dead stones (TB/TW markup)",
    Basis.USER: "the dead stones you gave",
    Basis.FINISHED: "the board as it stands after two passes (only stones proven dead removed)",
    Basis.ENGINE: "an engine's dead stones",
    Basis.ESTIMATE: "sgfcheck's estimate of the dead stones",
    Basis.PROOF: "only stones proven dead removed",
}


_ENGINE_WORDS = {Source.GNUGO: "GNU Go's dead stones", Source.KATAGO: "KataGo's dead stones"}


def basis_text(rc: ResultCheck, source: Source | None = None) -> str:
    """What a result check rests on, in words (``source``: where the dead stones came from)."""
    if rc.basis is None:
        return "nothing"
    parts = [_ENGINE_WORDS.get(source, _BASIS_WORDS[rc.basis]) if source else
             _BASIS_WORDS[rc.basis]]
    if rc.least_confidence is not None:
        parts.append(f"least confidence {rc.least_confidence:g}")
    parts.append("the game ended by two passes" if rc.finished else
                 "the game did not end by two passes")
    if rc.reading:
        parts.append(f"read as {rc.reading}")
    return "; ".join(parts)


# --- life ----------------------------------------------------------------------------------------


_LIFE_MARK = {Status.ALIVE: "{}", Status.DEAD: "{}", Status.SEKI: "{}=",
              Status.UNKNOWN: "{}?", Status.UNCERTAIN: "{}?"}


def status_diagram(board: Board, statuses: list[ChainStatus]) -> str:
    """The board with marks: X O alive, x o dead, X= O= seki, X? O? unknown or uncertain."""
    mark: dict[int, str] = {}
    for chain in statuses:
        base = "X" if chain.colour is BLACK else "O"
        text = _LIFE_MARK[chain.status].format(
            base.lower() if chain.status is Status.DEAD else base)
        for p in chain.stones:
            mark[p] = text
    lines = ["    " + " ".join(f"{gtp_column(c):<2}" for c in range(board.width))]
    for row in range(board.height):
        cells = [f"{mark.get(row * board.width + c, '.'):<2}" for c in range(board.width)]
        lines.append(f"{board.height - row:>3} " + " ".join(cells))
    return "\n".join(lines)


_LIFE_SOURCE_NOTE = {
    Source.NONE: " (nothing known: only unconditional life and death are decided)",
    Source.BENSON: " (nothing known: only unconditional life and death are decided)",
    Source.ESTIMATE: " (an estimate from the position, not the players' word)",
}


def render_life_text(report: FileLife, width: int | None = None) -> str:
    """The ``life`` report for people: a board and a table of chains, within ``width``."""
    out: list[str] = []
    path = report.path
    if report.check.unreadable:
        out.append(f"{path}: UNREADABLE")
        for f in report.check.findings:
            out.append(f"  {f.code.code} {f.message}")
    for game in report.games:
        out.append(f"{path} game {game.check.game.index + 1}, position after move {game.move}")
        for f in game.findings:
            if f.code.family == "LIF":
                out.append(f"  {f.code.code} {f.message}")
        if game.error or game.board is None:
            out.append(f"  not judged: {game.error}")
            continue
        source = game.dead.source if game.dead is not None else Source.NONE
        out.append(f"dead stones from: {source}{_LIFE_SOURCE_NOTE.get(source, '')}")
        out.append(status_diagram(game.board, game.chains))
        out.append("X O alive, x o dead, X= O= seki, X? O? uncertain (estimate) or unknown")
        rows: list[list[Cell]] = []
        for chain in sorted(game.chains,
                            key=lambda c: (c.status is Status.ALIVE, c.points[0])):
            if chain.status is Status.ALIVE and chain.source is not Source.BENSON and not (
                    chain.source is Source.ESTIMATE and (chain.confidence or 0) < 0.9):
                continue
            shown = ", ".join(chain.points[:8]) + (" ..." if len(chain.points) > 8 else "")
            conf = "" if chain.confidence is None else f"{chain.confidence:g}"
            rows.append([chain.colour.letter, chain.status.value, chain.source.value, conf,
                         len(chain.points), shown])
        if rows:
            out.append(fit_table(rows, ["colour", "status", "source", "confidence", "stones",
                                        "points"], width, wrap=5))
        counts: dict[str, int] = {}
        for chain in game.chains:
            counts[chain.status.value] = counts.get(chain.status.value, 0) + 1
        out.append("chains: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    return "\n".join(wrap_line(line, width) for line in out)


# --- rules ---------------------------------------------------------------------------------------


def render_rules_text(presets: dict[str, Ruleset], width: int | None = None) -> str:
    """Every preset's parameters side by side (in several tables when they do not fit), then
    each preset's source."""
    names = list(presets)
    params = [p for p in next(iter(presets.values())).parameters() if p != "name"]
    rows = [[p] + [format_value(presets[n].parameters()[p]) for n in names] for p in params]
    out = [fit_table(rows, ["parameter", *names], width, keep=1), ""]
    out.extend(wrap_line(f"{name}: {ruleset.source}", width) for name, ruleset in presets.items())
    return "\n".join(out)


# --- batch ---------------------------------------------------------------------------------------


def summary_rows(summary: Summary) -> list[tuple[str, Cell]]:
    rows: list[tuple[str, Cell]] = [
        ("files", summary.files),
        ("files skipped (already in the report)", summary.skipped),
        ("games", summary.games),
        ("unreadable files", summary.unreadable),
        ("input problems (links, archive members)", summary.input_problems),
        ("not records (skipped, named below)", summary.not_records),
        ("time limit exceeded", summary.timeouts),
        ("encodings guessed", summary.encodings_guessed),
        ("games with illegal moves", summary.games_with_illegal),
    ]
    for rule, n in sorted(summary.illegal_by_rule.items()):
        rows.append((f"  {rule}", n))
    for status in ("match", "mismatch", "not-scored", "unverifiable"):
        rows.append((f"RE {status}", summary.result_checks[status]))
    for basis, counts in sorted(summary.result_checks_by_basis.items()):
        rows.append((f"  on {basis}", ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))))
    rows.append(("identical files (groups)", len(summary.identical_files)))
    rows.append(("same game in several records (groups)", len(summary.same_games)))
    rows.append(("elapsed s", f"{summary.elapsed:.1f}"))
    rows.append(("games/s", f"{summary.games_per_second:.0f}"))
    rows.append(("peak memory per worker (MB)", f"{summary.peak_rss_mb:.0f}"))
    return rows


def render_summary_text(summary: Summary, width: int | None = None) -> str:
    """The summary table, the inputs that could not be read, and the first duplicate groups,
    within ``width``."""
    out = [fit_table(summary_rows(summary), ["summary", ""], width, wrap=0, numbers=(1,))]
    out.extend(f"not read: {problem}" for problem in summary.problems)
    out.extend(f"skipped, not a record: {name}" for name in summary.not_record_names[:20])
    if summary.not_records > 20:
        out.append(f"skipped, not a record: {summary.not_records - 20} more (see "
                   "--summary-json)")
    for title, groups in (("identical files", summary.identical_files),
                          ("same game in several records", summary.same_games)):
        out.extend(f"{title}: " + ", ".join(group) for group in groups[:10])
        if len(groups) > 10:
            out.append(f"{title}: {len(groups) - 10} more groups (see --duplicates)")
    return "\n".join(wrap_line(line, width) for line in out)


# --- the renderers of the output registry (sgfcheck.output.formats) ---------------------------


def check_text(report: FileReport, verbose: bool, width: int | None) -> str:
    return render_text(report, verbose, width)


def score_text(report: FileScore, verbose: bool, width: int | None) -> str:
    return render_score_text(report, markdown=False, width=width)


def score_markdown(report: FileScore, verbose: bool, width: int | None) -> str:
    return render_score_text(report, markdown=True, width=width)


def score_csv(reports: list[FileScore], verbose: bool, width: int | None) -> str:
    return render_score_csv(reports)


def life_text(report: FileLife, verbose: bool, width: int | None) -> str:
    return render_life_text(report, width)


def skipped_text(name: str, reason: str) -> str:
    """A file met in a folder or archive that is not a record."""
    return f"{name}: skipped, {reason}"
