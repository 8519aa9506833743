"""Every output format of every command, registered in one place.

A format renders a command's reports: either each file's report as it comes (text, JSON: printed
at once, so a long run shows its first files first), or all of them at the end (CSV, HTML: one
document). Adding a format is one renderer in its own module and one entry in :data:`FORMATS`;
the command line offers what is registered here for each command (``--format``), and says a
skipped file (not a record) in the output itself where the format can (text, JSON), else on
standard error.

Renderers are registered by reference through a loader, a function that imports the renderer's
module and returns it typed (:data:`Each`, :data:`Whole`): mypy checks every entry against the
report its command makes, and the command line starts without loading every renderer (the HTML
pages bring the SVG drawing, for one). The commands that render one thing (a game page, a
diagram, an annotated record, the presets, the schema, a run's summary and page) take their
renderer from the loaders of :data:`DOCUMENTS`, and batch its rows from :data:`ROWS`: every
output of every command is named here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from sgfcheck.findings import Finding
    from sgfcheck.output.annotate import Annotated
    from sgfcheck.output.html import ProblemGame
    from sgfcheck.output.summary import Summary
    from sgfcheck.output.svg import Picture
    from sgfcheck.replay.check import FileReport, GameReport
    from sgfcheck.replay.story import Story
    from sgfcheck.rules.ruleset import Ruleset
    from sgfcheck.scoring.gamescore import FileScore, GameScore
    from sgfcheck.scoring.lifefile import FileLife

R = TypeVar("R")


@dataclass(frozen=True)
class Style:
    """How text is laid out: info findings shown, and the width to fit (None: as wide as it
    is)."""

    verbose: bool = False
    width: int | None = None
    answers: bool = False
    """One line a game, the answer alone (``score --answers``), where the format has such lines."""


Each = Callable[[R, Style], str]
"""One file's report, rendered as it comes."""
Whole = Callable[[Sequence[R]], str]
"""Every report of the run, rendered at the end (one document)."""
Skipped = Callable[[str, str], str]
"""A file that is not a record (its name, why), said in the output."""
Brief = Callable[[R], list[str]]
"""One line per game of a file's report, for the closing list of a run of several games."""


@dataclass(frozen=True)
class OutputFormat(Generic[R]):
    name: str
    help: str
    each: Callable[[], Each[R]] | None = None
    """Loads the renderer of one file's report, printed as it comes."""
    whole: Callable[[], Whole[R]] | None = None
    """Loads the renderer of every report, at the end."""
    document: bool = False
    """One document (a page): ``--output FILE`` writes it there."""
    skipped: Callable[[], Skipped] | None = None
    """Loads the line of a file that is not a record; None: said on standard error."""
    safe: bool = False
    """The format escapes control characters itself (JSON): printed as it is; text is made
    safe for a terminal when printed."""
    brief: Callable[[], Brief[R]] | None = None
    """Loads the one line a game of the closing list (text: where a run has several games, it
    ends with one line a game, the answers together); None: no closing list."""

    def render_each(self, report: R, style: Style) -> str:
        assert self.each is not None
        return self.each()(report, style)

    def render_whole(self, reports: Sequence[R], style: Style) -> str:
        assert self.whole is not None
        return self.whole()(reports)

    def render_brief(self, report: R) -> list[str]:
        return [] if self.brief is None else self.brief()(report)

    def render_skipped(self, name: str, reason: str) -> str | None:
        return None if self.skipped is None else self.skipped()(name, reason)


# --- the loaders: each imports its renderer when first used --------------------------------------


def _check_text() -> Each[FileReport]:
    from sgfcheck.output.text import render_text

    return lambda report, style: render_text(report, style.verbose, style.width)


def _check_json() -> Each[FileReport]:
    from sgfcheck.output.schema import file_report_dict, json_text

    return lambda report, style: json_text(file_report_dict(report))


def _check_html() -> Whole[FileReport]:
    from sgfcheck.output.html import check_page

    return check_page


def _score_text() -> Each[FileScore]:
    from sgfcheck.output.scores import render_score_text

    return lambda report, style: render_score_text(report, markdown=False, width=style.width)


def _score_brief() -> Brief[FileScore]:
    from sgfcheck.output.scores import brief_lines

    return brief_lines


def _score_markdown() -> Each[FileScore]:
    from sgfcheck.output.scores import render_score_text

    return lambda report, style: render_score_text(report, markdown=True)


def _score_json() -> Each[FileScore]:
    from sgfcheck.output.schema import file_score_dict, json_text

    return lambda report, style: json_text(file_score_dict(report))


def _score_csv() -> Whole[FileScore]:
    from sgfcheck.output.scores import render_score_csv

    return render_score_csv


def _score_html() -> Whole[FileScore]:
    from sgfcheck.output.html import score_page

    return score_page


def _life_text() -> Each[FileLife]:
    from sgfcheck.output.scores import render_life_text

    return lambda report, style: render_life_text(report, style.width, every=style.verbose)


def _life_json() -> Each[FileLife]:
    from sgfcheck.output.schema import file_life_dict, json_text

    return lambda report, style: json_text(file_life_dict(report))


def _skipped_text() -> Skipped:
    from sgfcheck.output.text import skipped_text

    return skipped_text


def _skipped_json() -> Skipped:
    from sgfcheck.output.schema import skipped_json

    return skipped_json


FORMATS: dict[str, dict[str, OutputFormat[Any]]] = {
    "check": {
        "text": OutputFormat["FileReport"]("text", "tables for people", each=_check_text,
                                           skipped=_skipped_text),
        "json": OutputFormat["FileReport"]("json", "one JSON object per file, one per line",
                                           each=_check_json, skipped=_skipped_json, safe=True),
        "html": OutputFormat["FileReport"]("html", "one self-contained page: each illegal move "
                                           "on its board", whole=_check_html, document=True),
    },
    "score": {
        "text": OutputFormat["FileScore"]("text", "tables for people", each=_score_text,
                                          skipped=_skipped_text, brief=_score_brief),
        "json": OutputFormat["FileScore"]("json", "one JSON object per file, one per line",
                                          each=_score_json, skipped=_skipped_json, safe=True),
        "csv": OutputFormat["FileScore"]("csv", "one row per ruleset and colour",
                                         whole=_score_csv),
        "markdown": OutputFormat["FileScore"]("markdown", "tables as Markdown",
                                              each=_score_markdown, skipped=_skipped_text),
        "html": OutputFormat["FileScore"]("html", "one self-contained page: a board per "
                                          "ruleset, side by side", whole=_score_html,
                                          document=True),
    },
    "life": {
        "text": OutputFormat["FileLife"]("text", "a board and a table", each=_life_text,
                                         skipped=_skipped_text),
        "json": OutputFormat["FileLife"]("json", "one JSON object per file, one per line",
                                         each=_life_json, skipped=_skipped_json, safe=True),
    },
}
"""The formats of each command that prints reports, by name; the first is the default."""


# --- batch: a report's rows, made in the worker --------------------------------------------------

GameRow = Callable[[str, "str | None", "GameScore", "FileReport"], Any]
"""A game's row of a batch report: (the file's path, the archive member, the game, its file)."""
FileRow = Callable[[str, "str | None", "list[Finding]"], Any]
"""The row of a file with no game: (path, member, the findings that say why)."""


@dataclass(frozen=True)
class RowFormat:
    """How the rows of a batch report of one kind are made (None: the kind has no rows)."""

    game: Callable[[], GameRow] | None = None
    file: Callable[[], FileRow] | None = None
    compares: bool = True
    """The rows show every ruleset's count (the comparison rows and their explanations); False:
    the game's own count and the verdict are all they show, and all the worker makes."""


@cache
def _jsonl_game() -> GameRow:
    from sgfcheck.output.schema import batch_game_row, jsonl_line

    return lambda path, member, game, report: jsonl_line(batch_game_row(path, member, game,
                                                                        report))


@cache
def _jsonl_file() -> FileRow:
    from sgfcheck.output.schema import batch_file_row, jsonl_line

    return lambda path, member, findings: jsonl_line(batch_file_row(path, member, findings))


@cache
def _dict_game() -> GameRow:
    from sgfcheck.output.schema import batch_game_row

    return batch_game_row


@cache
def _dict_file() -> FileRow:
    from sgfcheck.output.schema import batch_file_row

    return batch_file_row


@cache
def _csv_game() -> GameRow:
    from sgfcheck.output.schema import batch_game_csv, csv_line

    return lambda path, member, game, report: csv_line(batch_game_csv(path, member, game,
                                                                      report))


@cache
def _csv_file() -> FileRow:
    from sgfcheck.output.schema import batch_file_csv, csv_line

    return lambda path, member, findings: csv_line(batch_file_csv(path, member, findings))


ROWS: dict[str, RowFormat] = {
    "jsonl": RowFormat(_jsonl_game, _jsonl_file),
    "csv": RowFormat(_csv_game, _csv_file, compares=False),
    "dict": RowFormat(_dict_game, _dict_file),
    "parquet": RowFormat(_dict_game, _dict_file),
    "none": RowFormat(compares=False),
}
"""The rows of each kind of batch report (:class:`sgfcheck.run.reportfile.ReportKind`): a JSON
text line, CSV cells, or the JSON object itself (a library's rows; Parquet's, whose columns the
main process writes)."""


# --- the commands that render one thing ----------------------------------------------------------


def view_html() -> Callable[[str, GameReport, GameScore, Story], str]:
    """``view``: the game page."""
    from sgfcheck.output.gamepage import game_page

    return game_page


def diagram_svg() -> Callable[[Picture, bool], str]:
    """``diagram``: a picture as SVG (with its legend or not), its caption under the board
    (the ruleset and count, or the move: a picture that stands alone, a PNG above all)."""
    from sgfcheck.output.svg import render_svg

    return lambda picture, legend: render_svg(picture, legend=legend, caption=True)


def diagram_png() -> Callable[[str], bytes]:
    """``diagram -o FILE.png``: the SVG as PNG (raises ``PngUnavailable`` without cairosvg)."""
    from sgfcheck.output.svg import svg_to_png

    return svg_to_png


def annotate_sgf() -> Callable[[FileScore, frozenset[str]], Annotated]:
    """``annotate``: the record with the findings and verdicts in it."""
    from sgfcheck.output.annotate import annotate

    return annotate


def rules_text() -> Callable[[dict[str, Ruleset], int | None], str]:
    """``rules``: the presets side by side."""
    from sgfcheck.output.text import render_rules_text

    return render_rules_text


def rules_json() -> Callable[[dict[str, Ruleset]], str]:
    """``rules --format json``."""
    from sgfcheck.output.schema import json_text, presets_dict

    return lambda presets: json_text(presets_dict(presets))


def schema_json() -> Callable[[], str]:
    """``schema``: the JSON Schema of every report."""
    from sgfcheck.output.schema import schema_text

    return schema_text


def summary_text() -> Callable[[Summary, int | None], str]:
    """``batch``, ``report merge``: the run's summary for people."""
    from sgfcheck.output.scores import render_summary_text

    return render_summary_text


def summary_json() -> Callable[[Summary], str]:
    """``--summary-json``: the run's summary."""
    from sgfcheck.output.schema import json_document, summary_dict

    return lambda summary: json_document(summary_dict(summary))


def duplicates_json() -> Callable[[Summary], str]:
    """``--duplicates``: the groups of identical files and of the same game."""
    from sgfcheck.output.schema import duplicates_dict, json_document

    return lambda summary: json_document(duplicates_dict(summary))


def batch_html() -> Callable[[Summary, list[ProblemGame], int], str]:
    """``batch --html``: the run's page."""
    from sgfcheck.output.html import batch_page

    return batch_page


DOCUMENTS: dict[str, dict[str, Callable[[], Callable[..., Any]]]] = {
    "view": {"html": view_html},
    "diagram": {"svg": diagram_svg, "png": diagram_png},
    "annotate": {"sgf": annotate_sgf},
    "rules": {"text": rules_text, "json": rules_json},
    "schema": {"json": schema_json},
    "batch": {"summary": summary_text, "summary-json": summary_json,
              "duplicates": duplicates_json, "html": batch_html},
    "report merge": {"summary": summary_text, "summary-json": summary_json,
                     "duplicates": duplicates_json},
}
"""The outputs of the commands that render one thing, each by its typed loader (the command
line calls the loader itself, so mypy checks the call)."""
