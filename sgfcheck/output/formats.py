"""Every output format of every command, registered in one place.

A format renders a command's reports: either each file's report as it comes (text, JSON: printed
at once, so a long run shows its first files first), or all of them at the end (CSV, HTML: one
document). Adding a format is one renderer in its own module and one entry in :data:`FORMATS`;
the command line offers what is registered here for each command (``--format``), and says a
skipped file (not a record) in the output itself where the format can (text, JSON), else on
standard error.

Renderers are named as ``module:function`` and imported when first used, so that the command
line starts without loading every renderer (the HTML pages bring the SVG drawing, for one).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Style:
    """How text is laid out: info findings shown, and the width to fit (None: as wide as it
    is)."""

    verbose: bool = False
    width: int | None = None


@dataclass(frozen=True)
class OutputFormat:
    name: str
    help: str
    each: str | None = None
    """``module:function(report, verbose, width) -> str``: one file's report, printed as it
    comes."""
    whole: str | None = None
    """``module:function(reports, verbose, width) -> str``: every report, at the end."""
    document: bool = False
    """One document (a page): ``--output FILE`` writes it there."""
    skipped: str | None = None
    """``module:function(name, reason) -> str``: a file that is not a record, said in the
    output; None: said on standard error."""
    safe: bool = False
    """The format escapes control characters itself (JSON): printed as it is; text is made
    safe for a terminal when printed."""

    def render_each(self, report: Any, style: Style) -> str:
        assert self.each is not None
        return str(_function(self.each)(report, style.verbose, style.width))

    def render_whole(self, reports: Sequence[Any], style: Style) -> str:
        assert self.whole is not None
        return str(_function(self.whole)(reports, style.verbose, style.width))

    def render_skipped(self, name: str, reason: str) -> str | None:
        return None if self.skipped is None else str(_function(self.skipped)(name, reason))


def _function(name: str) -> Callable[..., Any]:
    module, _, function = name.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return found


_TEXT = "sgfcheck.output.text"
_SCORES = "sgfcheck.output.scores"
_JSON = "sgfcheck.output.schema"
_HTML = "sgfcheck.output.html"

FORMATS: dict[str, dict[str, OutputFormat]] = {
    "check": {
        "text": OutputFormat("text", "tables for people", each=f"{_TEXT}:check_text",
                             skipped=f"{_TEXT}:skipped_text"),
        "json": OutputFormat("json", "one JSON object per file, one per line",
                             each=f"{_JSON}:check_json", skipped=f"{_JSON}:skipped_json",
                             safe=True),
        "html": OutputFormat("html", "one self-contained page: each illegal move on its board",
                             whole=f"{_HTML}:check_document", document=True),
    },
    "score": {
        "text": OutputFormat("text", "tables for people", each=f"{_SCORES}:score_text",
                             skipped=f"{_TEXT}:skipped_text"),
        "json": OutputFormat("json", "one JSON object per file, one per line",
                             each=f"{_JSON}:score_json", skipped=f"{_JSON}:skipped_json",
                             safe=True),
        "csv": OutputFormat("csv", "one row per ruleset and colour",
                            whole=f"{_SCORES}:score_csv"),
        "markdown": OutputFormat("markdown", "tables as Markdown", each=f"{_SCORES}:score_markdown",
                                 skipped=f"{_TEXT}:skipped_text"),
        "html": OutputFormat("html", "one self-contained page: a board per ruleset, side by side",
                             whole=f"{_HTML}:score_document", document=True),
    },
    "life": {
        "text": OutputFormat("text", "a board and a table", each=f"{_SCORES}:life_text",
                             skipped=f"{_TEXT}:skipped_text"),
        "json": OutputFormat("json", "one JSON object per file, one per line",
                             each=f"{_JSON}:life_json", skipped=f"{_JSON}:skipped_json",
                             safe=True),
    },
}
"""The formats of each command that prints reports, by name; the first is the default."""


def formats_of(command: str) -> dict[str, OutputFormat]:
    return FORMATS[command]
