"""``sgfcheck score``: count each game under several rulesets, explain the differences, check
RE."""

from __future__ import annotations

from typing import Annotated

import typer

from sgfcheck.cli import options
from sgfcheck.cli.common import (
    each_input,
    examples,
    load,
    not_an_input,
    usage_error,
    width,
)
from sgfcheck.output.formats import Style
from sgfcheck.settings import DeadStoneChoice, EngineName

AllRulesOption = Annotated[bool, typer.Option("--all-rules", metavar="",
                                              help="A row for every preset (as --compare with "
                                              "every preset's name).")]
DeadOption = Annotated[str | None, typer.Option(
    "--dead", metavar="POINT,...", help="Dead stones, comma-separated points (D4,Q16); a point "
    "marks its whole chain.", show_default=False)]
AliveOption = Annotated[bool, typer.Option(
    "--alive", metavar="", help="Count every stone alive, whatever the markup says.")]


app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("score", epilog=examples(
    "sgfcheck score game.sgf",
    "sgfcheck score --compare chinese,japanese --format markdown game.sgf",
    "sgfcheck score --dead D4,Q16 --move 200 game.sgf",
    "sgfcheck score --dead-stones katago --format json games/*.sgf"))
def score(
    files: options.Inputs,
    rules: options.Rules = "auto",
    compare: options.Compare = None,
    all_rules: AllRulesOption = False,
    dead: DeadOption = None,
    alive: AliveOption = False,
    dead_stones: options.DeadStones = DeadStoneChoice.AUTO,
    seed: options.Seed = 0,
    engine: options.Engine = EngineName.AUTO,
    move: options.Move = None,
    komi: options.Komi = None,
    format_name: Annotated[str | None, options.format_option("score")] = None,
    output: options.OutputFile = None,
    encoding: options.Encoding = None,
    limit: options.Limit = None,
    timeout: options.EngineTimeout = 0.0,
    follow_links: options.FollowLinks = False,
    wide: options.Wide = False,
    quiet: options.Quiet = False,
    answers: Annotated[bool, typer.Option(
        "--answers", metavar="", help="One line a game: the verdict on RE and the count it "
        "rests on, nothing else (text and markdown).")] = False,
) -> None:
    """Count each game under several rulesets, explain the differences and check RE.

    Exit status: 0 every scored result matches (or is not a score), 1 a mismatch or an error
    finding, 3 no mismatch but an unverifiable result, 2 usage error or unreadable input.
    """
    rows = options.names(compare)
    if all_rules:
        from sgfcheck.rules.presets import PRESETS

        rows = tuple(PRESETS)
    if dead and alive:
        raise usage_error("--dead and --alive exclude each other")
    settings = options.settings_of(rules, komi, encoding, limit, compare=rows,
                                   dead=options.dead_points(dead), alive=alive, move=move,
                                   dead_stones=dead_stones, seed=seed, engine=engine)
    limits = settings.limits
    options.seconds_of(timeout)
    fmt = options.output_format("score", format_name, output)
    not_an_input("--output", output, files)
    inputs = load(files, encoding, limits, move, follow_links)
    from sgfcheck.cli.exits import score_status
    from sgfcheck.scoring.adjudicate import score_loaded

    raise typer.Exit(each_input(
        files, inputs, quiet, lambda loaded, on_game: score_loaded(loaded, settings, on_game),
        fmt, Style(width=width(wide), answers=answers), score_status, output,
        limits.judged, engine_timeout=timeout))

