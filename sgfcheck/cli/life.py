"""``sgfcheck life``: the status of every chain, and who decided it."""

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
from sgfcheck.settings import DeadStoneChoice, EngineName

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("life", epilog=examples(
    "sgfcheck life game.sgf",
    "sgfcheck life --move 150 --format json game.sgf",
    "sgfcheck life --dead-stones gnugo game.sgf"))
def life(
    files: options.Inputs,
    move: options.Move = None,
    dead_stones: options.DeadStones = DeadStoneChoice.AUTO,
    seed: options.Seed = 0,
    engine: options.Engine = EngineName.AUTO,
    rules: options.Rules = "auto",
    komi: options.Komi = None,
    format_name: Annotated[str | None, options.format_option("life")] = None,
    output: options.OutputFile = None,
    every: Annotated[bool, typer.Option(
        "--all", metavar="", help="List every chain in the table (by default the chains no one "
        "doubts alive are counted, not listed).")] = False,
    encoding: options.Encoding = None,
    limit: options.Limit = None,
    timeout: options.EngineTimeout = 0.0,
    follow_links: options.FollowLinks = False,
    wide: options.Wide = False,
    quiet: options.Quiet = False,
) -> None:
    """Show the status of every chain: alive, dead, seki or unknown, and who decided it.

    Exit status: 0, 1 when a game could not be judged or an engine failed, 2 usage error or
    unreadable input.
    """
    settings = options.settings_of(rules, komi, encoding, limit, move=move,
                                   dead_stones=dead_stones, seed=seed, engine=engine)
    limits = settings.limits
    options.seconds_of(timeout)
    fmt = options.output_format("life", format_name, output)
    not_an_input("--output", output, files)
    inputs = load(files, encoding, limits, move, follow_links)
    from sgfcheck.cli.exits import life_status
    from sgfcheck.scoring.lifefile import life_loaded

    raise typer.Exit(each_input(
        files, inputs, quiet, lambda loaded, on_game: life_loaded(loaded, settings, on_game),
        fmt, Style(verbose=every, width=width(wide)), life_status, output,
        judged=limits.judged, engine_timeout=timeout))

