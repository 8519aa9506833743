"""``sgfcheck life``: the status of every chain, and who decided it."""

from __future__ import annotations

from typing import Annotated

import typer

from sgfcheck.cli.common import (
    DeadStonesOption,
    EncodingOption,
    EngineOption,
    EngineTimeoutOption,
    FollowLinksOption,
    InputsArgument,
    KomiOption,
    LimitOption,
    MoveOption,
    OutputFileOption,
    QuietOption,
    RulesOption,
    SeedOption,
    WideOption,
    each_input,
    examples,
    format_option,
    load,
    not_an_input,
    output_format,
    seconds_of,
    settings_of,
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
    files: InputsArgument,
    move: MoveOption = None,
    dead_stones: DeadStonesOption = DeadStoneChoice.AUTO,
    seed: SeedOption = 0,
    engine: EngineOption = EngineName.AUTO,
    rules: RulesOption = "auto",
    komi: KomiOption = None,
    format_name: Annotated[str | None, format_option("life")] = None,
    output: OutputFileOption = None,
    every: Annotated[bool, typer.Option(
        "--all", metavar="", help="List every chain in the table (by default the chains no one "
        "doubts alive are counted, not listed).")] = False,
    encoding: EncodingOption = None,
    limit: LimitOption = None,
    timeout: EngineTimeoutOption = 0.0,
    follow_links: FollowLinksOption = False,
    wide: WideOption = False,
    quiet: QuietOption = False,
) -> None:
    """Show the status of every chain: alive, dead, seki or unknown, and who decided it.

    Exit status: 0, 1 when a game could not be judged or an engine failed, 2 usage error or
    unreadable input.
    """
    settings = settings_of(rules, komi, encoding, limit, move=move, dead_stones=dead_stones,
                           seed=seed, engine=engine)
    limits = settings.limits
    seconds_of(timeout)
    fmt = output_format("life", format_name, output)
    not_an_input("--output", output, files)
    inputs = load(files, encoding, limits, move, follow_links)
    from sgfcheck.cli.exits import life_status
    from sgfcheck.scoring.lifefile import life_loaded

    raise typer.Exit(each_input(
        files, inputs, quiet, lambda loaded, on_game: life_loaded(loaded, settings, on_game),
        fmt, Style(verbose=every, width=width(wide)), life_status, output,
        judged=limits.judged, engine_timeout=timeout))

