"""``sgfcheck check``: replay each game and report every illegal move."""

from __future__ import annotations

from typing import Annotated

import typer

from sgfcheck.cli import options
from sgfcheck.cli.common import (
    each_input,
    examples,
    load,
    not_an_input,
    width,
)
from sgfcheck.output.formats import Style
from sgfcheck.rules.ruleset import KoRule, SuicideRule

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("check", epilog=examples(
    "sgfcheck check game.sgf",
    "sgfcheck check --all-rules --format json games/*.sgf",
    "sgfcheck check --rules japanese:ko=positional --variations game.sgf",
    "sgfcheck check --limit file-size=1M --limit nodes=100000 upload.sgf"))
def check(
    files: options.Inputs,
    rules: options.Rules = "auto",
    ko: Annotated[KoRule | None, typer.Option(
        help="The ko rule, whatever the ruleset says: simple, positional, situational or "
        "natural-situational.", show_default=False)] = None,
    suicide: Annotated[SuicideRule | None, typer.Option(
        help="The suicide rule, whatever the ruleset says: forbidden, multi-stone (single-stone "
        "suicide stays illegal) or allowed.", show_default=False)] = None,
    komi: options.Komi = None,
    variations: Annotated[
        bool, typer.Option("--variations", metavar="",
                           help="Check every line of the game tree, not only the main line (a "
                           "finding only in a variation carries 'variation': the child index at "
                           "each branch).")
    ] = False,
    all_rules: Annotated[
        bool,
        typer.Option("--all-rules", metavar="",
                     help="For every move illegal under at least one preset, its verdict "
                     "under every preset, side by side."),
    ] = False,
    format_name: Annotated[str | None, options.format_option("check")] = None,
    output: options.OutputFile = None,
    encoding: options.Encoding = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", metavar="", help="Also show info findings in "
                           "tables (normalisations such as KM[6.50] -> 6.5).")
    ] = False,
    limit: options.Limit = None,
    follow_links: options.FollowLinks = False,
    wide: options.Wide = False,
    quiet: options.Quiet = False,
) -> None:
    """Replay each game and report every illegal move.

    Exit status: 0 clean, 1 illegal moves or errors found, 2 usage error or unreadable input.
    """
    settings = options.settings_of(rules, komi, encoding, limit, ko=ko, suicide=suicide,
                                   variations=variations, all_rules=all_rules)
    fmt = options.output_format("check", format_name, output)
    not_an_input("--output", output, files)
    from sgfcheck.cli.exits import check_status
    from sgfcheck.replay.check import check_loaded

    raise typer.Exit(each_input(
        files, load(files, encoding, settings.limits, follow_links=follow_links), quiet,
        lambda loaded, on_game: check_loaded(loaded, settings, on_game), fmt,
        Style(verbose, width(wide)), check_status, output))

