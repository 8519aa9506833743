"""Count tables for people: each ruleset's count side by side (text and Markdown), the life of
every chain on a text board, what a result check rests on, and the batch summary.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from tabulate import tabulate

from sgfcheck import findings as F
from sgfcheck.colour import BLACK, COLOURS
from sgfcheck.counting.judged import Basis
from sgfcheck.engineregistry import ENGINES
from sgfcheck.escaping import visible
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.margins import band_text, margin_text
from sgfcheck.output.differences import difference_lines
from sgfcheck.output.reasons import reason_of
from sgfcheck.output.schema import (
    SCORE_CSV_COLUMNS,
    score_csv_rows,
)
from sgfcheck.output.summary import Summary
from sgfcheck.output.text import Cell, fit_table, refused_line, wrap_line
from sgfcheck.points import gtp_column
from sgfcheck.position.owners import PointOwners
from sgfcheck.replay.board import Board
from sgfcheck.scoring.chains import ChainStatus
from sgfcheck.scoring.gamescore import FileScore, GameScore
from sgfcheck.scoring.lifefile import FileLife
from sgfcheck.status import Source, Status
from sgfcheck.verdict.decision import ResultCheck
from sgfcheck.verdict.reasons import CheckStatus, Reason, Reproduced

# --- scores ------------------------------------------------------------------------------------

SCORE_HEADERS = ["ruleset", "method", "colour", "empty", "settled", "must_fill", "seki_excluded",
                 "stones", "prisoners", "dead", "pass_stones", "tax", "komi", "handicap_bonus",
                 "pass_bonus", "total", "result"]
"""The components by their JSON names (:func:`sgfcheck.output.schema.side_dict`), as counts."""
_SUBTRACTED = "must_fill, seki_excluded and tax are taken from the total"


BASIS_WORDS = {
    "markup": "markup (TB/TW)",
    "user": "user (--dead, --alive)",
    "finished": "finished (as it stands)",
    "engine": "engine",
    "estimate": "estimate",
    "proof": "proof (stopped early)",
}
"""What each basis of a result check rests on, in the summary's words (``finished``: ended by
two passes and counted as it stands, only the stones proven dead removed; ``proof``: stopped
before two passes, the same)."""


def solved_lines(game: GameScore) -> list[str]:
    """The solved lines behind the solved rows, one an objective (``solved line (area): B E5,
    W pass, B pass``), or why a row's last points were not played out."""
    if game.position is None:
        return []
    board = game.position.board
    out = []
    for found in game.finishes:
        if found.solved:
            moves = ", ".join(("B " if colour == BLACK else "W ")
                              + ("pass" if point is None else board.name(point))
                              for colour, point in found.line)
            out.append(f"solved line ({found.objective.value}): {moves}")
        else:
            out.append(f"last points not played out ({found.objective.value}): {found.why}")
    return out


def row_names(game: GameScore) -> list[str]:
    """Each row's name in a table: its ruleset's, or for the row added for the verdict's
    reading, what sets it apart (``japanese, komi 6.5``, ``japanese, marks``)."""
    names = [s.ruleset.name for s in game.scores]
    if game.added_reading is not None:
        names[-1] = game.added_reading
    return names


def score_rows(game: GameScore) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    for score, name in zip(game.scores, row_names(game), strict=True):
        for colour, side in score.sides():
            first = colour is BLACK
            rows.append([
                name if first else "",
                score.method.value if first else "",
                colour.letter,
                side.empty,
                side.settled or "",
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


_COMPACT = [0, 2, 16, 15, 12, *range(3, 12), 13, 14]
"""The compact table's columns in order: ruleset, colour, result, total, komi, then the
components."""
_ALWAYS = (0, 2, 16, 15)
_KOMI = 12


def _score_columns(rows: list[list[Cell]], width: int) -> tuple[list[int], list[int]]:
    """The compact table's columns within ``width``, and those left out for want of room: the
    ruleset, colour, result and total always shown; columns empty in every row never; of the
    others, those with the fewest values leave first (ties: the later column), komi last."""
    shown = [c for c in _COMPACT if c in _ALWAYS or any(r[c] != "" for r in rows)]
    # tabulate pads a header by two and puts two spaces between columns.
    size = {c: max([len(SCORE_HEADERS[c]) + 2] + [len(str(r[c])) for r in rows]) + 2
            for c in shown}
    leaving = sorted((c for c in shown if c not in _ALWAYS),
                     key=lambda c: (c == _KOMI, sum(r[c] != "" for r in rows),
                                    -_COMPACT.index(c)))
    spilled = []
    for c in leaving:
        if sum(size[k] for k in shown) - 2 <= width:
            break
        shown.remove(c)
        spilled.append(c)
    return shown, [c for c in _COMPACT if c in spilled]


def _spilled_lines(rows: list[list[Cell]], spilled: list[int]) -> list[str]:
    """A column left out of the table as one line: its name, then each row's value that is
    not empty under the row's ruleset (``pass_stones: aga B 1, W 1``)."""
    out = []
    for c in spilled:
        said: dict[str, list[str]] = {}
        name = ""
        for r in rows:
            name = str(r[0]) or name
            if r[c] != "":
                said.setdefault(name, []).append(f"{r[2]} {r[c]}")
        out.append(f"{SCORE_HEADERS[c]}: " + "; ".join(f"{n} {', '.join(v)}"
                                                       for n, v in said.items()))
    return out


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
    refused = refused_line(report.check, width)
    if refused is not None:
        return refused
    for f in report.check.findings:
        if f.is_error:
            out.append(f"{visible(report.path)}: {f.code.code} {f.message}")
    if report.check.unreadable:
        out.append(f"{visible(report.path)}: UNREADABLE")
    if len(report.games) > 1 and not markdown:  # the answers first, then each game's count
        out += [f"{len(report.games)} games, one line each:", *brief_lines(report), ""]
    for game in report.games:
        g = game.check.game
        title = f"{visible(report.path)} game {g.index + 1}"
        if markdown:
            out += ["", f"### {title}", ""]
        else:
            out.append(title)
        if game.error:
            out.append(f"  not scored: {game.error}")
            continue
        answer = answer_line(game)
        out += ([f"**{answer}**", ""] if markdown else [answer])
        for f in game.findings:
            if f.is_error or f.code is F.LIF_TIME:
                out.append(f"  {f.code.code} {f.code.rule}: {f.message}")
        if not worth_counting(game):  # a stub: its findings and "not scored", no tables
            continue
        context = game.check.context
        assert context is not None and game.dead is not None and game.position is not None
        where = "final position" if game.scored_move == (game.check.replay.moves
                                                         if game.check.replay else 0) \
            else f"position after move {game.scored_move}"
        out.append(f"{item}{where}; game rules {context.ruleset.name} ({context.rules_detail}), "
                   f"komi {context.komi_text}, handicap {g.handicap}")
        board = game.position.board
        out.append(f"{item}dead stones ({game.dead.source.label}): "
                   f"{game.dead.by_colour(board)}")
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
        left: list[str] = []
        if width is None:
            table = tabulate(rows, headers=SCORE_HEADERS, tablefmt=fmt)
        else:
            # Compact: the result, total and komi first (what a reader looks for), then the
            # components; the method goes with the ruleset's name (--wide, the JSON and
            # `sgfcheck rules` show it). One table: columns empty in every row are left out,
            # and the columns the width has no room for (the sparsest first) are written
            # under it, a line each.
            columns, spilled = _score_columns(rows, width)
            table = tabulate([[r[c] for c in columns] for r in rows],
                             headers=[SCORE_HEADERS[c] for c in columns], tablefmt=fmt)
            left = _spilled_lines(rows, spilled)
        out += ["", table, ""] if markdown else [table]
        if left:
            out.append(f"{item}not in the table for want of width (--wide shows them):")
            out += [f"{sub}{line}" for line in left]
        if any(b is not None for b in game.bands):
            out.append(f"{item}bands (each row's count: solved where the last open points are "
                       "played out, else with every settled decision; least .. greatest over "
                       "the open points and unsettled chains):")
            for score, name, band in zip(game.scores, row_names(game), game.bands, strict=True):
                if band is not None:
                    shown = ("nothing open" if band.low == band.high else
                             f"band {band_text(band, board.name)}")
                    solved = " solved" if score.solved else ""
                    out.append(f"{sub}{name}: {margin_text(band.settled)}{solved} ({shown})")
            out += [f"{sub}{line}" for line in solved_lines(game)]
        rc = game.result_check
        own = game.scores[0].ruleset
        if rc is not None and game.added_reading is not None:
            out.append(f"{item}the first row counts the record's own reading ({own.name}, komi "
                       f"{own.komi:g}); the answer was reached under {rc.reading}, the last "
                       "row")
        if any(s.must_fill or s.seki_excluded or s.tax for sc in game.scores
               for _, s in sc.sides()):
            out += [f"{item}{_SUBTRACTED}", ""] if markdown else [_SUBTRACTED]
        for score, name in zip(game.scores, row_names(game), strict=True):
            for note in score.notes:
                out.append(f"{item}{name}: {note}")
        explained = difference_lines(game.differences)
        if explained:
            out += ["**Why the rows differ:**", ""] if markdown else ["Why the rows differ:"]
            out.extend(f"- {line}" if not line.startswith("  ") else f"  {line.strip()}"
                       for line in explained)
        elif len(game.asked_scores) > 1:
            out.append("Every ruleset gives the same margin.")
        rc = game.result_check
        if rc is not None:
            head = f"RE check ({game.scores[0].ruleset.name}): {rc.status.value.upper()}"
            out += (["", f"**{head}** - {reason_of(game)}", ""] if markdown
                    else [f"{head} - {reason_of(game)}"])
            if rc.status is not CheckStatus.NOT_SCORED:
                out.append(f"{item or sub}rests on: " + basis_text(rc, game.dead))
            for a in rc.assumptions:
                out.append(f"{item or sub}assumed ({a.code.code}): {a.message}")
    return "\n".join(wrap_line(line, width) for line in out)


def render_score_csv(reports: Sequence[FileScore]) -> str:
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


_SOURCE_WORDS = {**{Source(e.name): f"{e.shown}'s dead stones" for e in ENGINES},
                 Source.USER_DEAD: "the dead stones you gave (--dead)",
                 Source.USER_ALIVE: "the stones as they stand, every one counted alive as "
                                    "asked (--alive or --dead-stones none)"}
"""Where the dead stones' source says more than the verdict's basis."""


_DECIDERS = {**{Source(e.name): e.shown for e in ENGINES}, Source.RULES: "the rules"}
"""Who, besides the estimate, may decide a chain of the estimate's judgement."""


def _resting_on(rc: ResultCheck, dead: DeadStones | None) -> str:
    """What the verdict rests on, naming everyone who decided a chain the count rests on (the
    estimate, and the engine or rule that decided the chains it could not)."""
    assert rc.basis is not None
    source = dead.source if dead is not None else None
    words = (_SOURCE_WORDS.get(source, _BASIS_WORDS[rc.basis]) if source
             else _BASIS_WORDS[rc.basis])
    if dead is not None and dead.judgement is not None and source is Source.ESTIMATE:
        decided: dict[Source, int] = {}
        for chain in dead.judgement.chains:
            if chain.source in _DECIDERS:
                decided[chain.source] = decided.get(chain.source, 0) + 1
        words += "".join(f", {n} chain{'' if n == 1 else 's'} decided by {_DECIDERS[s]}"
                         for s, n in decided.items())
    return words


def brief_lines(report: FileScore) -> list[str]:
    """One line a game: where it is, the verdict on RE and the count it rests on (the closing
    list of ``score`` over several games)."""
    out = []
    for game in report.games:
        where = f"{visible(report.path)} game {game.check.game.index + 1}"
        rc = game.result_check
        if game.error or rc is None:
            out.append(f"{where}: not scored" + (f" ({game.error})" if game.error else ""))
            continue
        raw = game.check.result.raw
        recorded = f"RE[{raw}]" if raw is not None else "no RE"
        line = f"{where}: {rc.status.value.upper().replace('-', ' ')} {recorded}"
        if game.scores and worth_counting(game):
            row = game.scores[game.reading_row]
            line += f", counted {row.result_text} ({row.ruleset.name}, komi {row.ruleset.komi:g})"
        out.append(line)
    return out


def worth_counting(game: GameScore) -> bool:
    """Whether the game's count is worth showing: not for a record that stops before any
    position worth counting (``RES143``, a stub of a few moves), whose count is komi against
    nothing."""
    return game.result_check is None or game.result_check.code is not Reason.STUB


def answer_line(game: GameScore) -> str:
    """The answer first, in one line: the recorded result, the count under the reading that
    decided (ruleset and komi named, the conventions that reading rests on spelled out), the
    verdict and what it rests on."""
    rc = game.result_check
    result = game.check.result
    recorded = f"RE[{result.raw}]" if result.raw is not None else "no RE"
    if rc is None:
        return f"answer: {recorded}; not checked"
    if rc.status is CheckStatus.NOT_SCORED:
        parts = [f"answer: {recorded}, not scored: {reason_of(game)}"]
        if game.scores and worth_counting(game):
            own = game.scores[0]
            parts.append(f"the count gives {own.result_text} under {own.ruleset.name} with "
                         f"komi {own.ruleset.komi:g}")
            parts += _loser_ahead(game)
        return "; ".join(parts)
    parts = [f"answer: {recorded} {rc.status.value.upper()}"]
    if rc.status in (CheckStatus.MATCH, CheckStatus.MISMATCH) and rc.computed:
        # The count named is the table's row of the verdict's reading, as the row shows it.
        row = game.scores[game.reading_row]
        counted = f"counted {row.result_text} under {rc.reading}"
        band = rc.band
        if row.solved:
            counted += ", the last open points played out"
        if band is not None and game.position is not None:
            settled = margin_text(band.settled).replace("jigo", "jigo (draw)")
            counted += " as it stands" if settled != row.result_text else ""
            if settled != row.result_text:
                counted += f", {settled} with the points the judgement settles"
            if band.low != band.high:
                counted += f" (band {band_text(band, game.position.board.name)})"
        if rc.reproduced is Reproduced.WINNER:
            counted += " (the winner; not the margin)"
        parts.append(counted)
    else:
        parts.append(reason_of(game))
    # Conventions the reading rests on: the komi as the record writes it, the margin in zi.
    parts += [f.message for f in game.check.game.findings if f.code is F.SGF_KOMI_NORMALISED]
    if result.note and "zi" in result.note:
        parts.append(f"RE[{result.raw}]: {result.note}")
    parts += [f"{a.message} ({a.code.code})" for a in rc.assumptions
              if a.code in (F.RES_KOMI_CONVENTION, F.RES_RULES_INFERRED,
                            F.RES_ASSUMED_RECORD)]
    if rc.basis is not None:
        on = _resting_on(rc, game.dead)
        if rc.least_confidence is not None:
            on += f", least confidence {rc.least_confidence:g}"
        parts.append(f"on {on}")
    return "; ".join(parts)


def _loser_ahead(game: GameScore) -> list[str]:
    """Where the player RE says resigned (or lost on time) made the last play (``RES007``) and
    leads on the count: said in the answer, not only among the findings."""
    last = next((f for f in game.check.findings if f.code is F.RES_LAST_MOVE), None)
    own = game.scores[0]
    if last is None or last.colour is None or own.winner is not last.colour:
        return []
    return [f"but {last.colour.word}, who RE says lost, made the last play (move {last.move}) and "
            f"leads on that count by {abs(own.margin):g} points: RE may have its winner the wrong "
            f"way round ({F.RES_LAST_MOVE.code})"]


def basis_text(rc: ResultCheck, dead: DeadStones | None = None) -> str:
    """What a result check rests on, in words (``dead``: the dead stones, who decided them)."""
    if rc.basis is None:
        return "nothing"
    parts = [_resting_on(rc, dead)]
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
    return "\n".join(line.rstrip() for line in lines)


_LIFE_SOURCE_NOTE = {
    Source.NONE: " (nothing known: only unconditional life and death are decided)",
    Source.BENSON: " (nothing known: only unconditional life and death are decided)",
    Source.ESTIMATE: " (an estimate from the position, not the players' word)",
}


def render_life_text(report: FileLife, width: int | None = None, every: bool = False) -> str:
    """The ``life`` report for people: a board and a table of chains, within ``width``: the
    dead, seki, unknown and doubtful chains, and those proven alive (``every``: all)."""
    out: list[str] = []
    path = report.path
    refused = refused_line(report.check, width)
    if refused is not None:
        return refused
    if report.check.unreadable:
        out.append(f"{visible(path)}: UNREADABLE")
        for f in report.check.findings:
            out.append(f"  {f.code.code} {f.message}")
    for game in report.games:
        out.append(f"{visible(path)} game {game.check.game.index + 1}, position after move "
                   f"{game.move}")
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
        unlisted = 0
        for chain in sorted(game.chains,
                            key=lambda c: (c.status is Status.ALIVE, c.points[0])):
            if not every and chain.status is Status.ALIVE and chain.source is not Source.BENSON \
                    and not (chain.source is Source.ESTIMATE and (chain.confidence or 0) < 0.9):
                unlisted += 1
                continue
            shown = ", ".join(chain.points[:8]) + (" ..." if len(chain.points) > 8 else "")
            conf = "" if chain.confidence is None else f"{chain.confidence:g}"
            sides = "" if chain.shares is None else \
                f"{chain.shares[0]:.2f} / {chain.shares[1]:.2f}"
            rows.append([chain.colour.letter, chain.status.value, chain.source.value, conf,
                         sides, len(chain.points), shown])
        if rows:
            out.append(fit_table(rows, ["colour", "status", "source", "confidence",
                                        "own B/W first", "stones", "points"], width, wrap=6))
        if game.owners is not None:
            out.extend(_owners_lines(game.owners, game.board))
        counts: dict[str, int] = {}
        for chain in game.chains:
            counts[chain.status.value] = counts.get(chain.status.value, 0) + 1
        out.append("chains: " + (", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
                                 or "none"))
        if unlisted:
            out.append(f"not listed: {unlisted} alive chain(s) not in doubt (alive by the "
                       "markup, your word, an engine or a rule, or by the estimate with a "
                       "confidence of 0.9 or more); --all lists every chain, as --format json "
                       "does")
    return "\n".join(wrap_line(line, width) for line in out)


def _owners_lines(owners: PointOwners, board: Board, most: int = 12) -> list[str]:
    """The points the count gives nobody, read from both sides: settled (not yet enclosed),
    open (who moves first decides), dame."""

    def named(points: list[int]) -> str:
        names = [board.name(p) for p in points[:most]]
        return ", ".join(names) + (f" and {len(points) - most} more" if len(points) > most
                                   else "")

    out = []
    for colour in COLOURS:
        points = sorted(p for p, c in owners.settled.items() if c == colour)
        if points:
            out.append(f"settled for {colour.name.lower()}, not yet enclosed: {named(points)}")
    if owners.open:
        out.append(f"open (who moves first decides): {named(list(owners.open))}")
    if owners.dame:
        out.append(f"dame: {named(list(owners.dame))}")
    return out


# --- rules ---------------------------------------------------------------------------------------


def summary_rows(summary: Summary) -> list[tuple[str, Cell]]:
    rows: list[tuple[str, Cell]] = [
        ("files", summary.files),
        ("files from earlier runs (--resume)" if summary.resumed
         else "files skipped (already in the report)", summary.skipped),
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
        rows.append((f"  on {BASIS_WORDS.get(basis, basis)}",
                     ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))))
    if summary.not_judged:
        rows.append(("games not judged (resigned, lost on time, forfeit)",
                     summary.not_judged))
    if summary.engine_games or summary.engine_refused:
        rows.append(("games asked of an engine", summary.engine_games))
        rows.append(("  engine time s", f"{summary.engine_seconds:.1f}"))
        rows.append(("  not asked: engine time spent", summary.engine_refused))
    if summary.solver_games:
        rows.append(("games whose last points the solver tried", summary.solver_games))
        rows.append(("  given up (a limit of work, time or size)", summary.solver_gave_up))
        rows.append(("  solver time s", f"{summary.solver_seconds:.1f}"))
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
    out.extend(f"not read: {visible(problem)}" for problem in summary.problems)
    out.extend(f"skipped, not a record: {visible(name)}"
               for name in summary.not_record_names[:20])
    if summary.not_records > 20:
        out.append(f"skipped, not a record: {summary.not_records - 20} more (see "
                   "--summary-json)")
    for title, groups in (("identical files", summary.identical_files),
                          ("same game in several records", summary.same_games)):
        out.extend(f"{title}: " + ", ".join(map(visible, group)) for group in groups[:10])
        if len(groups) > 10:
            out.append(f"{title}: {len(groups) - 10} more groups (see --duplicates)")
    return "\n".join(wrap_line(line, width) for line in out)
