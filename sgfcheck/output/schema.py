"""The output schema: every JSON object and CSV row sgfcheck writes, in one place.

Library values (findings, reports, scores, chain statuses, the batch summary) stay typed objects;
this module turns them into the plain dicts of the JSON output (``check``/``score``/``life
--format json``, ``batch`` JSON Lines, ``--summary-json``, ``--duplicates``, ``rules --format
json``) and the rows of the CSV output (``score --format csv``, ``batch --out x.csv``), so that
the schema the manual documents can be read and checked here. Colours are written ``B``/``W``,
points GTP style (``Q16``), enums as their values.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any

import orjson

from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.escaping import csv_cell, json_safe, name_text, names_clean
from sgfcheck.findings import Finding
from sgfcheck.output.differences import difference_lines
from sgfcheck.output.reasons import sentence
from sgfcheck.replay.check import CheckVerdict

if TYPE_CHECKING:
    from sgfcheck.counting.band import Band
    from sgfcheck.counting.count import Score, Side
    from sgfcheck.endgame.finish import Finish
    from sgfcheck.judge.deadstones import DeadStones
    from sgfcheck.output.summary import Summary
    from sgfcheck.position.analysis import Position
    from sgfcheck.position.owners import PointOwners
    from sgfcheck.records.context import GameContext
    from sgfcheck.records.results import Result
    from sgfcheck.replay.board import Board
    from sgfcheck.replay.check import FileReport, GameReport, RulesetVerdicts
    from sgfcheck.rules.ruleset import Ruleset
    from sgfcheck.scoring.chains import ChainStatus
    from sgfcheck.scoring.gamescore import FileScore, GameScore
    from sgfcheck.scoring.lifefile import FileLife, GameLife
    from sgfcheck.verdict.decision import ResultCheck

SCHEMA_VERSION = "2.9"
"""The version of ``sgfcheck/data/report.schema.json`` (its ``version``): it changes with every
change of a field. ``sgfcheck schema`` prints the schema; a batch run's state and a parts manifest
name the version."""


def schema_text() -> str:
    """The JSON schema of every output, as shipped in the package."""
    from importlib.resources import files

    return files("sgfcheck").joinpath("data").joinpath("report.schema.json").read_text(
        encoding="utf-8")


JSON = dict[str, Any]
"""A JSON object (values: JSON values)."""


def json_text(obj: object) -> str:
    """Strict JSON (no NaN or Infinity: a bug, raised, rather than JSON other readers refuse) on
    one line. Characters that some readers take for line ends (U+0085, U+2028, U+2029) and the
    other control and format characters JSON leaves raw are escaped (:func:`json_safe`), so that
    one object is exactly one line for every reader and safe to print. A name that is not UTF-8
    is written with its bytes escaped (:func:`name_text`)."""
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    if _has_surrogates(text):
        text = json.dumps(names_clean(obj), ensure_ascii=False, allow_nan=False)
    return json_safe(text)


def _has_surrogates(text: str) -> bool:
    return not text.isascii() and name_text(text) != text


def jsonl_line(obj: object) -> str:
    """One row of a JSON Lines report (``batch``): the value :func:`json_text` writes, encoded by
    orjson (about 8x faster on a report row; compact: no space after ``,`` and ``:``), the same
    characters escaped, and its line end. (orjson would write a non-finite number as ``null``
    where :func:`json_text` raises; no field of a row holds one: the tests parse every row of
    the fixtures and a corpus sample both ways.) A name that is not UTF-8 is written with its
    bytes escaped (:func:`name_text`: orjson refuses such text)."""
    try:
        return json_safe(orjson.dumps(obj, option=_ROW_OPTIONS).decode())
    except TypeError:
        return json_safe(orjson.dumps(names_clean(obj), option=_ROW_OPTIONS).decode())


_ROW_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE
"""Keys that are not strings written as strings (as ``json.dumps`` does), and the line end."""


def json_document(obj: object) -> str:
    """JSON for a file of its own (``--summary-json``, ``--duplicates``): indented."""
    text = json.dumps(obj, ensure_ascii=False, indent=1, allow_nan=False)
    if _has_surrogates(text):
        text = json.dumps(names_clean(obj), ensure_ascii=False, indent=1, allow_nan=False)
    return json_safe(text)


def _letter(colour: Colour | None) -> str | None:
    return colour.letter if colour is not None else None


# --- check --------------------------------------------------------------------------------------


def finding_dict(f: Finding) -> JSON:
    out: JSON = {
        "code": f.code.code,
        "severity": f.severity.value,
        "move": f.move,
        "colour": _letter(f.colour),
        "point": f.point,
        "rule": f.code.rule,
        "repeats_move": f.repeats_move,
        "message": f.message,
    }
    out.update(f.extra)
    return out


def result_dict(r: Result) -> JSON:
    return {"raw": r.raw, "winner": _letter(r.winner), "margin": r.margin, "kind": r.kind.value,
            "note": r.note or None}


def context_dict(context: GameContext) -> JSON:
    """A game's ruleset (every parameter, the komi in force) and where it came from."""
    out = context.ruleset.parameters()
    out.update(source=context.rules_source, detail=context.rules_detail,
               komi_source=context.komi_detail, canonical=context.ruleset.to_string())
    return out


def ruleset_verdicts_dict(row: RulesetVerdicts) -> JSON:
    return {"move": row.move, "colour": _letter(row.colour), "point": row.point,
            "verdicts": row.verdicts}


def _komi_in_force(report: GameReport) -> float | None:
    """The komi a game is played under; None when it is unknown (``KM`` holds a value no game
    can have: the counts are made without komi, and ``rules.komi_source`` says so)."""
    if report.context is None:
        return report.game.komi
    return report.context.komi if report.context.komi_known else None


def game_dict(report: GameReport, encoding: str | None, guessed: bool,
              findings: list[Finding] | None = None, verdict: CheckVerdict | None = None) -> JSON:
    """One game of the ``check`` schema; ``findings``/``verdict`` when a later step (the
    dead-stone judgement) added findings of its own."""
    g = report.game
    rep = report.replay
    return {
        "index": g.index + 1,
        "size": [g.width, g.height],
        "komi": _komi_in_force(report),
        "komi_raw": g.komi_raw,
        "handicap": g.handicap,
        "rules": context_dict(report.context) if report.context else None,
        "result": result_dict(report.result),
        "moves": rep.moves if rep else 0,
        "lines_checked": report.lines_checked,
        "encoding": encoding,
        "encoding_guessed": guessed,
        "players": {"black": g.info.get("PB"), "white": g.info.get("PW")},
        "date": g.info.get("DT"),
        "event": g.info.get("EV"),
        "server": g.server.value,
        "verdict": (verdict or report.verdict).value,
        "long_cycle": None if rep is None or rep.cycle is None else {
            "moves": list(rep.cycle),
            "outcome": report.context.ruleset.long_cycle.value if report.context else None},
        "findings": [finding_dict(f) for f in
                     (report.findings if findings is None else findings)],
        **({"all_rules": [ruleset_verdicts_dict(r) for r in report.all_rules]}
           if report.all_rules is not None else {}),
    }


def _file_head(report: FileReport) -> JSON:
    return {
        "file": report.path,
        "readable": not report.unreadable,
        "encoding": report.loaded.encoding,
        "encoding_guessed": report.loaded.encoding_guessed,
        "findings": [finding_dict(f) for f in report.findings],
    }


def file_report_dict(report: FileReport) -> JSON:
    enc, guessed = report.loaded.encoding, report.loaded.encoding_guessed
    return {**_file_head(report), "games": [game_dict(g, enc, guessed) for g in report.games]}


# --- score --------------------------------------------------------------------------------------


def dead_stones_dict(dead: DeadStones, board: Board) -> JSON:
    out: JSON = {"points": dead.names(board), "source": dead.source.value, "notes": dead.notes}
    if dead.judgement is not None and dead.judgement.settings:
        # The estimate's playouts (an engine's judgement has none: its notes say what it did).
        j = dead.judgement
        out["estimate"] = {
            "playouts": j.playouts, "seed": j.seed, **j.settings,
            "uncertain": [{"colour": c.colour.letter,
                           "points": sorted(board.name(p) for p in c.stones),
                           "share": c.share,
                           "shares": list(c.shares) if c.shares is not None else None}
                          for c in j.uncertain]}
    return out


def side_dict(side: Side) -> JSON:
    """A colour's components under one ruleset (every :class:`Side` field but the total)."""
    return {"empty": side.empty, "settled": side.settled, "stones": side.stones,
            "prisoners": side.prisoners,
            "dead": side.dead, "pass_stones": side.pass_stones,
            "seki_excluded": side.seki_excluded, "must_fill": side.must_fill, "tax": side.tax,
            "komi": side.komi, "handicap_bonus": side.handicap_bonus,
            "pass_bonus": side.pass_bonus}


def band_dict(band: Band | None, board: Board | None) -> JSON | None:
    """A count's band: Black's margin at least ``low``, at most ``high``; ``settled`` the count
    with every settled decision; the open points, the settled points not yet enclosed and the
    unsettled chains it spans."""
    if band is None or board is None:
        return None
    from sgfcheck.margins import band_text

    return {"settled": band.settled, "low": band.low, "high": band.high,
            "text": band_text(band, board.name, most=len(band.open_points)),
            "open": [board.name(p) for p in band.open_points],
            "settled_points": [board.name(p) for p in band.settled_points],
            "unsettled": list(band.unsettled)}


def score_dict(score: Score, band: Band | None = None, board: Board | None = None) -> JSON:
    return {
        "ruleset": score.ruleset.name,
        "method": score.method.value,
        "black": {"components": side_dict(score.black), "total": score.black.total},
        "white": {"components": side_dict(score.white), "total": score.white.total},
        "komi": score.ruleset.komi,
        "handicap_bonus": score.white.handicap_bonus,
        "margin": score.margin,
        "winner": _letter(score.winner),
        "result": score.result_text,
        "contributions": score.contributions,
        "notes": score.notes,
        "band": band_dict(band, board),
        "solved": score.solved,
    }


def finish_dict(finish: Finish, board: Board) -> JSON:
    """The last open points played out (or why not): who moved first (and how, where assumed),
    the ko the record's last move left banned, how it ended, the points, the solved line
    (``B H14``, ``W pass``), the settled points taken as their owner's, the work spent."""
    return {"objective": finish.objective.value, "to_move": finish.to_move.letter,
            "to_move_assumed": finish.to_move_assumed,
            "ko": None if finish.ko < 0 else board.name(finish.ko),
            "solved": finish.solved, "outcome": finish.outcome.value, "why": finish.why,
            "points": [board.name(p) for p in finish.points],
            "line": [f"{colour.letter} {'pass' if p is None else board.name(p)}"
                     for colour, p in finish.line],
            "assumed": {side: [board.name(p) for p, c in finish.assumed if c == colour]
                        for side, colour in (("black", BLACK), ("white", WHITE))},
            "positions": finish.positions}


def result_check_dict(check: ResultCheck, board: Board | None = None,
                      row: int | None = None) -> JSON:
    """A result check; ``row``: the index in ``scores`` of the row the verdict rests on."""
    return {"status": check.status.value, "code": check.code.value if check.code else None,
            "reason": sentence(check),
            "computed": check.computed,
            "recorded": check.recorded, "delta": check.delta,
            "basis": check.basis.value if check.basis else None, "finished": check.finished,
            "least_confidence": check.least_confidence, "reading": check.reading,
            "reproduced": check.reproduced.value if check.reproduced else None,
            "band": band_dict(check.band, board),
            "assumptions": [{"code": a.code.code, "message": a.message}
                            for a in check.assumptions],
            "finish": (None if check.finish is None or board is None
                       else finish_dict(check.finish, board)),
            "row": row}


def _seki_dict(position: Position) -> JSON:
    board = position.board
    return {"black": [board.name(p) for p in position.seki_empty[BLACK]],
            "white": [board.name(p) for p in position.seki_empty[WHITE]]}


def referee_points_dict(position: Position) -> JSON:
    """Every empty point of the final position (dead stones removed) with its reason, as a
    referee counts territory: ``territory``, ``seki`` (points of groups in seki), ``to_fill``
    (false eyes and connections still to play), ``dame`` (reached by both colours or by
    neither); and the stones of groups in seki."""
    board, ref = position.board, position.referee
    reasons: dict[str, dict[str, list[str]]] = {
        key: {"black": [], "white": []} for key in ("territory", "seki", "to_fill")}
    dame: list[str] = []
    seki_fill = {c: set(position.seki_empty[c]) for c in (BLACK, WHITE)}
    to_fill = {c: set(position.must_fill[c]) for c in (BLACK, WHITE)}
    for p, here in enumerate(position.colour):
        if here:
            continue
        name = board.name(p)
        owner = ref.territory[p]
        if owner:
            reasons["territory"][_side(owner)].append(name)
        elif p in seki_fill[BLACK] or p in seki_fill[WHITE]:
            reasons["seki"]["black" if p in seki_fill[BLACK] else "white"].append(name)
        elif p in to_fill[BLACK] or p in to_fill[WHITE]:
            reasons["to_fill"]["black" if p in to_fill[BLACK] else "white"].append(name)
        else:
            dame.append(name)
    return {**reasons, "dame": dame,
            "seki_stones": {"black": [board.name(p) for p in position.seki_stones[BLACK]],
                            "white": [board.name(p) for p in position.seki_stones[WHITE]]}}


def _side(colour: int) -> str:
    return "black" if colour == BLACK else "white"


def game_score_dict(game: GameScore, encoding: str | None, guessed: bool,
                    points: bool = True) -> JSON:
    """One game of the ``score`` schema: the ``check`` schema and the fields below
    (``points``: the referee's map, point by point; left out of batch rows)."""
    out = game_dict(game.check, encoding, guessed, game.findings, game.verdict)
    board = game.position.board if game.position else None
    out["scored_move"] = game.scored_move
    out["dead_stones"] = (None if game.dead is None or board is None
                          else dead_stones_dict(game.dead, board))
    out["seki"] = None if game.position is None else _seki_dict(game.position)
    if points:
        out["points"] = (None if game.position is None
                         else referee_points_dict(game.position))
    bands = game.bands or [None] * len(game.scores)
    out["scores"] = [score_dict(s, b, board) for s, b in zip(game.scores, bands, strict=True)]
    out["explanations"] = difference_lines(game.differences)
    out["finishes"] = ([] if board is None else
                       [finish_dict(f, board) for f in game.finishes])
    out["result_check"] = (result_check_dict(game.result_check, board, game.reading_row
                                             if game.scores else None)
                           if game.result_check else None)
    if game.error:
        out["score_error"] = game.error
    return out


def file_score_dict(report: FileScore) -> JSON:
    loaded = report.check.loaded
    return {**_file_head(report.check),
            "games": [game_score_dict(g, loaded.encoding, loaded.encoding_guessed)
                      for g in report.games]}


SCORE_CSV_COLUMNS = ["file", "game", "ruleset", "method", "colour", "empty", "settled",
                     "must_fill", "seki_excluded",
                     "stones", "prisoners", "dead", "pass_stones", "tax", "komi",
                     "handicap_bonus", "pass_bonus", "total", "margin", "winner",
                     "result_check", "result_basis"]
"""``score --format csv``: one row per ruleset and colour."""


def csv_row(cells: list[object]) -> list[object]:
    """Cells as written to a CSV file: text that a spreadsheet would take for a formula is
    neutralised, control characters escaped (:func:`sgfcheck.escaping.csv_cell`)."""
    return [csv_cell(c) for c in cells]


def csv_line(cells: list[object]) -> str:
    """One CSV record as the standard ``csv.writer`` writes it (``\r\n`` at its end): a batch
    worker's row of a CSV report, which the main process only appends."""
    buffer = io.StringIO()
    csv.writer(buffer).writerow(cells)
    return buffer.getvalue()


def score_csv_rows(report: FileScore) -> list[list[object]]:
    rows: list[list[object]] = []
    for game in report.games:
        rc = game.result_check.status.value if game.result_check else ""
        basis = game.result_check.basis if game.result_check and game.result_check.basis else ""
        for score in game.scores:
            for colour, side in score.sides():
                rows.append(csv_row([
                    report.path, game.check.game.index + 1, score.ruleset.name,
                    score.method.value, colour.letter, side.empty, side.settled, side.must_fill,
                    side.seki_excluded, side.stones, side.prisoners, side.dead,
                    side.pass_stones, side.tax, side.komi, side.handicap_bonus,
                    side.pass_bonus, side.total, score.margin,
                    score.winner.letter if score.winner else "draw", rc, basis,
                ]))
    return rows


# --- life ---------------------------------------------------------------------------------------


def chain_status_dict(chain: ChainStatus) -> JSON:
    return {"points": chain.points, "colour": chain.colour.letter, "status": chain.status.value,
            "source": chain.source.value, "confidence": chain.confidence,
            "shares": None if chain.shares is None else {
                "black_first": chain.shares[0], "white_first": chain.shares[1]}}


def game_life_dict(game: GameLife) -> JSON:
    g = game.check.game
    return {
        "index": g.index + 1,
        "size": [g.width, g.height],
        "move": game.move,
        "dead_stones": None if game.dead is None or game.board is None else
        dead_stones_dict(game.dead, game.board),
        "chains": [chain_status_dict(c) for c in game.chains],
        "points": None if game.owners is None or game.board is None else
        owners_dict(game.owners, game.board),
        "findings": [finding_dict(f) for f in game.findings if f.is_error],
        "error": game.error,
    }


def owners_dict(owners: PointOwners, board: Board) -> JSON:
    """The points the count as it stands gives nobody, read from both sides."""
    return {"settled": {"black": [board.name(p) for p, c in owners.settled.items() if c == BLACK],
                        "white": [board.name(p) for p, c in owners.settled.items() if c == WHITE]},
            "open": [board.name(p) for p in owners.open],
            "dame": [board.name(p) for p in owners.dame]}


def file_life_dict(report: FileLife) -> JSON:
    return {**_file_head(report.check), "games": [game_life_dict(g) for g in report.games]}


# --- rules --------------------------------------------------------------------------------------


def presets_dict(presets: dict[str, Ruleset]) -> JSON:
    """``rules --format json``: every preset's parameters and its source."""
    return {name: {**r.parameters(), "source": r.source} for name, r in presets.items()}


# --- batch --------------------------------------------------------------------------------------


def batch_game_row(path: str, member: str | None, game: GameScore, report: FileReport) -> JSON:
    """A ``batch`` report row for one game: where it is, the ``score`` schema, and the file's
    own findings."""
    loaded = report.loaded
    return {"path": path, "member": member,
            **game_score_dict(game, loaded.encoding, loaded.encoding_guessed, points=False),
            "file_findings": [finding_dict(f) for f in report.findings]}


def batch_file_row(path: str, member: str | None, findings: list[Finding]) -> JSON:
    """A ``batch`` report row for a file with no game (unreadable, an input problem, a time
    limit, an internal error)."""
    return {"path": path, "member": member, "index": None, "readable": False,
            "verdict": CheckVerdict.UNREADABLE.value, "findings": [],
            "file_findings": [finding_dict(f) for f in findings]}


BATCH_CSV_COLUMNS = ["path", "member", "game", "size", "moves", "rules", "komi", "handicap",
                     "verdict", "illegal_moves", "error_codes", "encoding", "encoding_guessed",
                     "result", "result_kind", "computed", "result_check", "result_basis",
                     "result_assumptions"]
"""``batch --out x.csv``: one row per game, the main facts of the JSON row."""


def batch_game_csv(path: str, member: str | None, game: GameScore,
                   report: FileReport) -> list[object]:
    """The CSV cells of one game (the facts of :func:`batch_game_row`)."""
    check = game.check
    rc = game.result_check
    g = check.game
    findings = game.findings
    errors = sorted({f.code.code for f in findings + report.findings if f.is_error})
    rules = check.context
    return csv_row([
        path, member or "", g.index + 1, f"{g.width}x{g.height}",
        check.replay.moves if check.replay else 0, rules.ruleset.name if rules else "",
        _komi_in_force(check), g.handicap, game.verdict.value,
        sum(1 for f in findings if f.is_illegal), " ".join(errors),
        report.loaded.encoding, report.loaded.encoding_guessed, check.result.raw,
        check.result.kind.value, game.scores[0].result_text if game.scores else "",
        rc.status.value if rc else "", rc.basis.value if rc and rc.basis else "",
        " ".join(a.code.code for a in rc.assumptions) if rc else "",
    ])


def batch_file_csv(path: str, member: str | None, findings: list[Finding]) -> list[object]:
    """The CSV cells of a file with no game (:func:`batch_file_row`)."""
    errors = sorted({f.code.code for f in findings if f.is_error})
    return csv_row([path, member or "", "", "", "", "", "", "", CheckVerdict.UNREADABLE.value, 0,
                    " ".join(errors), "", "", "", "", "", "", "", ""])


def skipped_dict(name: str, reason: str) -> JSON:
    """A file met in a folder or archive that is not a record (``check``/``score``/``life``
    JSON: one object per input)."""
    return {"file": name, "readable": False, "skipped": reason, "findings": [], "games": []}


def summary_dict(s: Summary) -> JSON:
    return {
        "files": s.files, "skipped": s.skipped, "games": s.games,
        "unreadable": s.unreadable, "input_problems": s.input_problems,
        "timeouts": s.timeouts, "encodings_guessed": s.encodings_guessed,
        "games_with_illegal_moves": s.games_with_illegal,
        "illegal_by_rule": dict(s.illegal_by_rule),
        "verdicts": dict(s.verdicts), "result_checks": dict(s.result_checks),
        "result_checks_by_basis": {basis: dict(counts) for basis, counts in
                                   sorted(s.result_checks_by_basis.items())},
        "identical_files": s.identical_files, "same_games": s.same_games,
        "not_records": s.not_records, "not_record_names": s.not_record_names,
        "elapsed": round(s.elapsed, 3),
        "games_per_second": round(s.games_per_second, 1) if s.elapsed else None,
        "resumed": s.resumed, "games_from_earlier_runs": s.resumed_games, "notes": s.notes,
        "peak_rss_mb_per_worker": round(s.peak_rss_mb, 1),
        "engine": {"games": s.engine_games, "seconds": round(s.engine_seconds, 3),
                   "refused": s.engine_refused},
        "solver": {"games": s.solver_games, "gave_up": s.solver_gave_up,
                   "seconds": round(s.solver_seconds, 3)},
        "not_judged": s.not_judged,
    }


def duplicates_dict(s: Summary) -> JSON:
    return {"identical_files": s.identical_files, "same_games": s.same_games}








def skipped_json(name: str, reason: str) -> str:
    return json_text(skipped_dict(name, reason))
