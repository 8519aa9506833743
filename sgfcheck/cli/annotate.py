"""``sgfcheck annotate``: a copy of a record with the findings, verdicts and territory in it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sgfcheck.cli import options
from sgfcheck.cli.common import (
    check_writable,
    examples,
    not_the_input,
    say,
    usage_error,
    write_file,
)
from sgfcheck.escaping import visible
from sgfcheck.settings import DeadStoneChoice, EngineName

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("annotate", epilog=examples(
    "sgfcheck annotate game.sgf -o checked.sgf",
    "sgfcheck annotate fox.sgf -o fixed.sgf --fix komi,rules",
    "sgfcheck annotate game.sgf -o checked.sgf --dead-stones katago --compare chinese,aga"))
def annotate(
    file: options.Record,
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE",
                                         help="The annotated SGF to write (never the input).",
                                         show_default=False)],
    fix: Annotated[str | None, typer.Option(
        metavar="WHAT,...", help="Also rewrite these properties as sgfcheck read them: komi "
        "(KM; the komi RE matches under, when that is not the record's), rules (RU, when it "
        "was missing, unknown, or RE matches under other rules).")] = None,
    rules: options.Rules = "auto",
    compare: options.Compare = None,
    komi: options.Komi = None,
    dead_stones: options.DeadStones = DeadStoneChoice.AUTO,
    seed: options.Seed = 0,
    engine: options.Engine = EngineName.AUTO,
    encoding: options.Encoding = None,
    limit: options.Limit = None,
) -> None:
    """Write a copy of a record with the findings, verdicts and territory in it, for SGF editors.

    The findings as comments at their moves, the verdict per ruleset and the RE check in the
    root comment, and the territory of the game's own count as TB/TW. Every original property
    and variation is kept; the input is never changed.

    Exit status: as score (0 every scored result matches, 1 a mismatch or an error finding,
    3 no mismatch but an unverifiable result), 2 usage error or unreadable input.
    """
    from sgfcheck.output.annotate import FIXABLE

    wanted = frozenset(options.names(fix))
    unknown = sorted(wanted - set(FIXABLE))
    if unknown:
        raise usage_error(f"--fix: {', '.join(unknown)}: only {', '.join(FIXABLE)} can be fixed")
    rows = options.names(compare)
    settings = options.settings_of(rules, komi, encoding, limit, compare=rows,
                                   dead_stones=dead_stones, seed=seed, engine=engine)
    check_writable("--output", output)
    not_the_input(file, output)
    from sgfcheck.cli.common import one_record
    from sgfcheck.cli.exits import score_status
    from sgfcheck.output.formats import annotate_sgf
    from sgfcheck.scoring.adjudicate import score_loaded

    scored = score_loaded(one_record(file, settings, "annotate"), settings)
    result = annotate_sgf()(scored, wanted)
    write_file(output, result.data)
    say(f"{visible(file)} -> {output}: {result.games} game(s) annotated, "
        f"{result.comments} comment(s)", err=True)
    for change in result.changes:
        say(f"  {visible(change)}", err=True)
    raise typer.Exit(score_status(scored))

