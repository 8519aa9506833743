"""``sgfcheck view``: one game as a self-contained HTML page to step through, with every
ruleset's verdict on each move and the count at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sgfcheck.cli import options
from sgfcheck.cli.common import (
    check_writable,
    examples,
    not_an_input,
    say,
    write_file,
)
from sgfcheck.cli.exits import ExitStatus
from sgfcheck.escaping import visible
from sgfcheck.settings import DeadStoneChoice, EngineName

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("view", epilog=examples(
    "sgfcheck view game.sgf -o game.html",
    "sgfcheck view collection.sgf --game 3 --rules chinese -o game3.html"))
def view(
    file: options.Record,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Write the page here (default: standard "
        "output).", show_default=False)] = None,
    game_no: Annotated[int, typer.Option("--game", metavar="N", min=1,
                                         help="Which game of a collection.")] = 1,
    rules: options.Rules = "auto",
    komi: options.Komi = None,
    dead_stones: options.DeadStones = DeadStoneChoice.AUTO,
    seed: options.Seed = 0,
    engine: options.Engine = EngineName.AUTO,
    encoding: options.Encoding = None,
    limit: options.Limit = None,
) -> None:
    """A game as one self-contained HTML page to step through: every move, every ruleset, the
    count at the end.

    The board fills the screen; first, back, forward, last, a slider, the arrow keys, Home and
    End, "next finding" and "next illegal move"; the move number in the page address (#move=N)
    opens the page at that move. A ruleset switcher (the game's own first, then every preset)
    marks the moves the chosen ruleset forbids, with the rule and the reason; a table gives every
    preset's verdict on the current move. At the end: the dead stones, each ruleset's count drawn
    as it counts, the score table, why the rows differ and the RE check. Everything is computed
    by sgfcheck and embedded as data: the page only draws it, and fetches nothing. Exit status:
    0 written, 2 usage error or unreadable input.
    """
    from sgfcheck.rules.presets import PRESETS

    settings = options.settings_of(rules, komi, encoding, limit, compare=tuple(PRESETS),
                                   dead_stones=dead_stones, seed=seed, engine=engine)
    check_writable("--output", output)
    not_an_input("--output", output, [file])
    from sgfcheck.cli.common import one_game
    from sgfcheck.output.formats import view_html
    from sgfcheck.replay.story import story_of
    from sgfcheck.scoring.adjudicate import score_game

    report = one_game(file, settings, game_no, "view")
    scored = score_game(report, settings)
    page = view_html()(file, report, scored, story_of(report))
    if output is None:
        typer.echo(page, nl=False)
        raise typer.Exit(ExitStatus.OK)
    write_file(output, page)
    say(f"{visible(file)} game {game_no}: {len(page) // 1024} KB -> {output}", err=True)
    raise typer.Exit(ExitStatus.OK)
