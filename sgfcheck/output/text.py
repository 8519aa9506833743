"""Text for people: tables that fit a width, the ``check`` report, the rule presets.

Everything here is presentation of library values; the JSON and CSV shapes are in
:mod:`sgfcheck.output.schema`, the count tables in :mod:`sgfcheck.output.scores`. Text fits a
width (the terminal's; ``None`` for ``--wide``): columns empty in every row are left out, long
messages wrapped (by tabulate), tables of many side-by-side columns (rulesets) split into several
that fit, and long lines wrapped.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabulate import tabulate

from sgfcheck.escaping import visible
from sgfcheck.findings import Finding, Severity
from sgfcheck.records.context import Origin
from sgfcheck.records.record import HandicapPlacement
from sgfcheck.rules.presets import PRESETS
from sgfcheck.rules.ruleset import Ruleset, format_value

if TYPE_CHECKING:
    from sgfcheck.replay.check import FileReport, GameReport, RulesetVerdicts

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
    parts = [f"{visible(path)} game {g.index + 1}: {game.verdict.value.upper()}"]
    illegal = game.illegal_moves
    if illegal:
        counts: dict[str, int] = {}
        for f in illegal:
            counts[f.code.rule] = counts.get(f.code.rule, 0) + 1
        said = ", ".join(f"{n} {rule}" for rule, n in counts.items())
        if g.handicap and g.handicap_placement is HandicapPlacement.UNKNOWN:
            # What the record says first: its handicap stones are missing (HA without them,
            # the standard points contradicted by the moves); the alarms follow from replaying
            # it without them, and are its consequences, not the players' moves alone.
            parts[0] = (f"{visible(path)} game {g.index + 1}: HANDICAP STONES MISSING "
                        f"(HA[{g.handicap}], where they stood unknown), so ILLEGAL MOVES as "
                        f"recorded ({said})")
        else:
            parts[0] += f" ({said})"
    if game.context is not None:
        c = game.context
        origin = f"RU[{g.rules_raw}]" if c.rules_origin is Origin.RECORD else c.rules_source
        parts.append(f"rules {c.ruleset.name} ({origin}), komi {c.komi_text}")
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
    and for a block of several lines (a table, fitted by :func:`fit_table`). A word longer than
    the width (a long path) is cut where the line ends."""
    if width is None or len(line) <= width or "\n" in line:
        return line
    lead = line[: len(line) - len(line.lstrip())]
    return textwrap.fill(line, width, initial_indent="", subsequent_indent=lead + indent,
                         break_long_words=True, break_on_hyphens=False)


def _findings_table(rows: list[list[Cell]], width: int | None = None) -> str:
    """The findings table: the message wrapped to fit; the move column right-aligned when it
    holds numbers, as tabulate would do."""
    numbers = (0,) if any(isinstance(row[0], int) for row in rows) else ()
    return fit_table(rows, _HEADERS, width, wrap=len(_HEADERS) - 1, numbers=numbers,
                     spare=(5, 1))  # the rule (the code names it), the colour (the point)


def refused_line(report: FileReport, width: int | None = None) -> str | None:
    """The one line of a file refused at once (not a record, missing, empty), else None."""
    errors = [f for f in report.findings if f.is_error]
    if not (report.unreadable and len(report.findings) == 1 and errors):
        return None
    (why,) = errors
    return wrap_line(f"{visible(report.path)}: UNREADABLE - {why.code.code} {why.message}",
                     width)


def render_text(report: FileReport, verbose: bool = False, width: int | None = None) -> str:
    """The ``check`` report for people, within ``width`` columns (``None``: as wide as it is)."""
    out: list[str] = []
    loaded = report.loaded
    refused = refused_line(report, width)
    if refused is not None:
        return refused
    if report.unreadable:
        out.append(f"{visible(report.path)}: UNREADABLE")
    elif loaded.encoding_guessed:
        out.append(f"{visible(report.path)}: encoding {loaded.encoding} (guessed)")
    rows = _finding_rows(report.findings, verbose)
    if rows:
        if not report.unreadable:  # the table says what it is about before it starts
            errors = sum(1 for f in report.findings if f.is_error)
            out.append(wrap_line(f"{visible(report.path)}: " + (
                f"ERRORS IN THE FILE ({errors}); the verdict on each game's moves follows"
                if errors else "findings on the file itself"), width))
        out.append(_findings_table(rows, width))
    for game in report.games:
        out.append(wrap_line(game_verdict_line(report.path, game), width))
        rows = _finding_rows(game.findings, verbose)
        if rows:
            out.append(_findings_table(rows[:MOST_ROWS], width))
        if len(rows) > MOST_ROWS:
            out.append(wrap_line(_more_line(game.findings, verbose), width))
        if game.all_rules is not None:
            out.append(render_all_rules(game.all_rules, width))
    return "\n".join(out)


MOST_ROWS = 200
"""Findings of one game listed in the text report at most (a record of 10,000 illegal moves
took 5.7 s to lay out as a table, 200,000 minutes); the rest are counted by rule below it, and
``--format json`` lists every finding written (``--limit findings``)."""


def _more_line(findings: list[Finding], verbose: bool) -> str:
    """What the table of a game's findings leaves out past :data:`MOST_ROWS`, by rule."""
    shown = [f for f in findings if verbose or f.severity is not Severity.INFO]
    counts: dict[str, int] = {}
    for f in shown[MOST_ROWS:]:
        counts[f.code.rule] = counts.get(f.code.rule, 0) + 1
    first = next(f.move for f in shown[MOST_ROWS:])
    where = f" from move {first}" if first is not None else ""
    return (f"  {len(shown) - MOST_ROWS} more findings not listed{where} ("
            + ", ".join(f"{n} {rule}" for rule, n in counts.items())
            + "); --format json lists every finding written")


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


def render_rules_text(presets: dict[str, Ruleset], width: int | None = None) -> str:
    """Every preset's parameters side by side (in several tables when they do not fit), then
    each preset's source."""
    names = list(presets)
    params = [p for p in next(iter(presets.values())).parameters() if p != "name"]
    rows = [[p] + [format_value(presets[n].parameters()[p]) for n in names] for p in params]
    out = [fit_table(rows, ["parameter", *names], width, keep=1), ""]
    out.extend(wrap_line(f"{name}: {ruleset.source}", width) for name, ruleset in presets.items())
    return "\n".join(out)



def skipped_text(name: str, reason: str) -> str:
    """A file met in a folder or archive that is not a record."""
    return f"{visible(name)}: skipped, {reason}"
