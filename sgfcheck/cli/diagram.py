"""``sgfcheck diagram``: a position as SVG or PNG, with its dead stones and territory, or an
illegal move."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sgfcheck.cli import options
from sgfcheck.cli.common import (
    check_writable,
    examples,
    not_an_input,
    say,
    usage_error,
    write_file,
)
from sgfcheck.cli.exits import ExitStatus
from sgfcheck.escaping import visible
from sgfcheck.settings import DeadStoneChoice, EngineName, Settings

if TYPE_CHECKING:
    from sgfcheck.output.svg import Picture
    from sgfcheck.replay.check import GameReport

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("diagram", epilog=examples(
    "sgfcheck diagram game.sgf -o final.svg",
    "sgfcheck diagram game.sgf --rules chinese --move 180 --numbers -o move180.png",
    "sgfcheck diagram game.sgf --illegal -o illegal.svg"))
def diagram(
    file: options.Record,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Write here: .svg, or .png (needs the png "
        "extra). Default: SVG on standard output.", show_default=False)] = None,
    game_no: Annotated[int, typer.Option("--game", metavar="N", min=1,
                                         help="Which game of a collection.")] = 1,
    move: Annotated[int | None, typer.Option(
        metavar="N", help="The position after this move (default: the end); with --illegal, "
        "the illegal move N.")] = None,
    rules: options.Rules = "auto",
    komi: options.Komi = None,
    illegal: Annotated[bool, typer.Option(
        "--illegal", metavar="", help="Draw an illegal move (the first, or --move N) on the "
        "position before it, with the stones it concerns.")] = False,
    numbers: Annotated[bool, typer.Option("--numbers", metavar="",
                                          help="Write move numbers on the stones.")] = False,
    plain: Annotated[bool, typer.Option("--plain", metavar="", help="Stones only: no dead "
                                        "stones, territory or seki marks.")] = False,
    legend: Annotated[bool, typer.Option("--legend", metavar="", help="Add the meaning of "
                                         "every mark under the board.")] = False,
    dead_stones: options.DeadStones = DeadStoneChoice.AUTO,
    seed: options.Seed = 0,
    engine: options.Engine = EngineName.AUTO,
    encoding: options.Encoding = None,
    limit: options.Limit = None,
) -> None:
    """Draw a position as SVG or PNG, with its dead stones and territory, or an illegal move.

    Stones, the last move, dead stones, each colour's territory as the game's ruleset (--rules)
    counts it, seki points, points still to fill; or an illegal move on the position before it.

    Every stone is one element with the classes 'stone black' or 'stone white' (plus 'dead',
    'seki', 'uncertain', 'concerned') and data-point="D4", for CSS. Exit status: 0 drawn,
    2 usage error or unreadable input.
    """
    settings = options.settings_of(rules, komi, encoding, limit, move=move,
                                   dead_stones=dead_stones, seed=seed, engine=engine)
    check_writable("--output", output)
    not_an_input("--output", output, [file])
    suffix = output.suffix.lower() if output is not None else ".svg"
    if suffix not in (".svg", ".png"):
        raise usage_error(f"--output {output}: write .svg or .png")
    from sgfcheck.cli.common import one_game
    from sgfcheck.output.formats import diagram_png, diagram_svg
    from sgfcheck.output.svg import PngUnavailable

    report = one_game(file, settings, game_no, "draw")
    try:
        picture = _picture(report, settings, illegal=illegal, plain=plain, numbers=numbers)
    except ValueError as exc:
        raise usage_error(f"{file} game {game_no}: {exc}") from None
    svg = diagram_svg()(picture, legend)
    if output is None:
        typer.echo(svg)
        raise typer.Exit(ExitStatus.OK)
    if suffix == ".png":
        try:
            write_file(output, diagram_png()(svg))
        except PngUnavailable as exc:
            raise usage_error(str(exc)) from None
    else:
        write_file(output, svg + "\n")
    say(f"{visible(file)} game {game_no}: {visible(picture.title)} -> {output}",
        err=True)
    raise typer.Exit(ExitStatus.OK)



def _picture(report: GameReport, settings: Settings, *, illegal: bool, plain: bool,
             numbers: bool) -> Picture:
    """The picture ``diagram`` draws of a checked game: an illegal move (the first, or the one
    at ``settings.move``), the stones alone, or the position scored under the game's ruleset
    with its dead stones and territory. Raises ValueError saying why it cannot be drawn."""
    from dataclasses import replace

    from sgfcheck.output.diagrams import (
        illegal_move_picture,
        position_picture,
        scored_picture,
    )
    from sgfcheck.replay.replay import replay
    from sgfcheck.scoring.adjudicate import score_game

    record = report.game
    if not record.playable or report.context is None:
        raise ValueError("not a game of Go that can be replayed")
    move = settings.move
    if illegal:
        wanted = [f for f in report.illegal_moves if move is None or f.move == move]
        if not wanted:
            at = f" at move {move}" if move is not None else ""
            raise ValueError(f"no illegal move{at} under {report.context.ruleset.name}")
        scene = report.scene(wanted[0])
        if scene is None:
            raise ValueError(f"move {wanted[0].move} has no point on the board to draw")
        return illegal_move_picture(scene, report.line, numbers=numbers)
    if plain:
        rep = replay(record, report.line or record.main_line(), report.context.ruleset,
                     upto=move)
        return position_picture(rep.board, report.line, rep.moves, numbers=numbers,
                                title=f"after move {rep.moves}")
    scored = score_game(report, replace(settings, compare=()))
    if not scored.scores:
        raise ValueError(scored.error or "nothing to count")
    picture = scored_picture(scored, scored.scores[0], numbers=numbers)
    assert scored.dead is not None
    picture.title += (f", after move {scored.scored_move}, dead stones: "
                      f"{scored.dead.source.value}")
    return picture
